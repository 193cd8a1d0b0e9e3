#include "cgroup_mount.h"
#include "error.h"
#include "pathres.h"

#include <errno.h>
#include <fcntl.h>
#include <libmount.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/statfs.h>
#include <unistd.h>

#define CG_FLAGS (MS_NOSUID | MS_NODEV | MS_NOEXEC)

/* The controller options of a v1 hierarchy ("cpu", "name=systemd"), from
 * its superblock options with rw/ro dropped. */
static char *v1_data(struct libmnt_fs *fs)
{
	const char *opts = mnt_fs_get_fs_options(fs);
	char *out = calloc(1, opts ? strlen(opts) + 8 : 8);
	char *copy, *tok, *save = NULL;

	if (out == NULL || opts == NULL)
		return out;
	copy = strdup(opts);
	for (tok = copy ? strtok_r(copy, ",", &save) : NULL; tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (strcmp(tok, "rw") == 0 || strcmp(tok, "ro") == 0)
			continue;
		if (out[0])
			strcat(out, ",");
		strcat(out, tok);
	}
	free(copy);
	return out;
}

static int mount_one(int rootfd, const char *dest, const char *name, const char *type,
                     const char *data, unsigned long flags)
{
	char path[PATH_MAX];
	int fd;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dest, name) >= sizeof(path))
		return werr(ENAMETOOLONG, "%s/%s", dest, name);
	fd = root_mkdir_p(rootfd, path, 0755);
	if (fd < 0)
		return -1;
	close(fd);
	return mount_fs_at(rootfd, path, type, type, flags, data);
}

static int v1_hierarchies(int rootfd, const char *dest, unsigned long flags)
{
	struct libmnt_table *tb = mnt_new_table_from_file("/proc/self/mountinfo");
	struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs;
	int r = 0;

	if (tb == NULL || it == NULL) {
		r = werr(ENOMEM, "reading /proc/self/mountinfo");
		goto out;
	}
	while (r == 0 && mnt_table_next_fs(tb, it, &fs) == 0) {
		const char *type = mnt_fs_get_fstype(fs), *target = mnt_fs_get_target(fs);
		const char *name;

		if (type == NULL || target == NULL || strncmp(target, "/sys/fs/cgroup/", 15) != 0)
			continue;
		name = target + 15;
		if (strchr(name, '/') != NULL)
			continue;
		if (strcmp(type, "cgroup") == 0) {
			char *data = v1_data(fs);

			r = data ? mount_one(rootfd, dest, name, "cgroup", data, flags)
			         : werr(ENOMEM, "out of memory");
			free(data);
		} else if (strcmp(type, "cgroup2") == 0) {
			r = mount_one(rootfd, dest, name, "cgroup2", NULL, flags);
		}
	}
out:
	mnt_free_iter(it);
	mnt_unref_table(tb);
	return r;
}

int cgroup_mount(int rootfd, const struct oci_mount *m, const struct mount_opts *o)
{
	/* Read-only unless "rw" was asked for explicitly. */
	unsigned long ro = (o->cleared & MS_RDONLY) ? 0 : MS_RDONLY;
	struct statfs sfs;
	int fd;

	fd = root_mkdir_p(rootfd, m->destination, 0755);
	if (fd < 0)
		return -1;
	close(fd);
	if (statfs("/sys/fs/cgroup", &sfs) < 0)
		return werr(errno, "/sys/fs/cgroup on the host");
	if (sfs.f_type == CGROUP2_SUPER_MAGIC)
		return mount_fs_at(rootfd, m->destination, "cgroup2", "cgroup2", CG_FLAGS | ro,
		                   NULL);
	/* v1 or hybrid: a tmpfs to hold one mount per hierarchy. */
	if (mount_fs_at(rootfd, m->destination, "tmpfs", "cgroup", CG_FLAGS, "mode=755,size=64k") <
	        0 ||
	    v1_hierarchies(rootfd, m->destination, CG_FLAGS | ro) < 0)
		return -1;
	if (ro) {
		struct mount_attr attr = {.attr_set = MOUNT_ATTR_RDONLY};

		fd = root_open(rootfd, m->destination, O_PATH);
		if (fd < 0 || mount_setattr(fd, "", AT_EMPTY_PATH, &attr, sizeof(attr)) < 0) {
			int e = errno;

			if (fd >= 0)
				close(fd);
			return werr(e, "making the cgroup tmpfs read-only");
		}
		close(fd);
	}
	return 0;
}
