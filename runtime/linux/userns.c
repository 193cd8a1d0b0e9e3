#include "linux/userns.h"
#include "lib/error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

static int write_map(pid_t pid, const char *file, const struct oci_idmap *m, size_t n)
{
	char path[64];
	char buf[4096];
	size_t len = 0;
	int fd;

	for (size_t i = 0; i < n; i++) {
		int w = snprintf(buf + len, sizeof(buf) - len, "%u %u %u\n", m[i].container_id,
		                 m[i].host_id, m[i].size);

		if (w < 0 || (size_t)w >= sizeof(buf) - len)
			return werr(E2BIG, "%s: too many ranges", file);
		len += (size_t)w;
	}
	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return werr(errno, "opening %s", path);
	/* The kernel takes the whole map in one write, or nothing. */
	if (write(fd, buf, len) != (ssize_t)len) {
		int e = errno;

		close(fd);
		return werr(e, "writing %s (overlapping or too many ranges?)", file);
	}
	close(fd);
	return 0;
}

int userns_write_maps(pid_t pid, const struct oci_linux *l)
{
	if (write_map(pid, "uid_map", l->uid_mappings, l->n_uid_mappings) < 0)
		return werr_ctx("config.json: .linux.uidMappings");
	if (write_map(pid, "gid_map", l->gid_mappings, l->n_gid_mappings) < 0)
		return werr_ctx("config.json: .linux.gidMappings");
	return 0;
}
