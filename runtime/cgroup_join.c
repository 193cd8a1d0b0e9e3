#include "cgroup_join.h"
#include "error.h"

#include <errno.h>
#include <fcntl.h>
#include <libmount.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Does the superblock option list hold every controller of "cpu,cpuacct"
 * (or "name=systemd")? */
static int has_controllers(const char *opts, const char *controllers)
{
	char *want = strdup(controllers), *tok, *save = NULL;
	int ok = want != NULL;

	for (tok = want ? strtok_r(want, ",", &save) : NULL; ok && tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *v = NULL;
		size_t vlen = 0;

		ok = mnt_optstr_get_option(opts, tok, &v, &vlen) == 0;
	}
	free(want);
	return ok;
}

/* Where hierarchy (controllers, or "" for cgroup2) is mounted on the host. */
static int find_mount(struct libmnt_table *tb, const char *controllers, char *out, size_t len)
{
	struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs;
	int found = 0;

	while (it && !found && mnt_table_next_fs(tb, it, &fs) == 0) {
		const char *type = mnt_fs_get_fstype(fs);
		const char *root = mnt_fs_get_root(fs);

		if (type == NULL || (root && strcmp(root, "/") != 0))
			continue;
		if (controllers[0] == '\0'
		        ? strcmp(type, "cgroup2") == 0
		        : strcmp(type, "cgroup") == 0 &&
		              has_controllers(mnt_fs_get_fs_options(fs), controllers)) {
			snprintf(out, len, "%s", mnt_fs_get_target(fs));
			found = 1;
		}
	}
	mnt_free_iter(it);
	return found;
}

static int write_pid(const char *dir, const char *path, pid_t pid)
{
	char file[PATH_MAX], buf[16];
	int fd, n;

	if ((size_t)snprintf(file, sizeof(file), "%s%s/cgroup.procs", dir, path) >= sizeof(file))
		return werr(ENAMETOOLONG, "%s%s", dir, path);
	fd = open(file, O_WRONLY | O_CLOEXEC);
	n = snprintf(buf, sizeof(buf), "%d", (int)pid);
	if (fd < 0 || write(fd, buf, (size_t)n) != n) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		return werr(e, "joining cgroup %s%s", dir, path);
	}
	close(fd);
	return 0;
}

int cgroup_join_like(pid_t target, pid_t pid)
{
	struct libmnt_table *tb = mnt_new_table_from_file("/proc/self/mountinfo");
	char path[64], line[4096];
	FILE *f;
	int r = 0;

	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)target);
	f = fopen(path, "re");
	if (tb == NULL || f == NULL) {
		r = werr(errno ? errno : ENOMEM, "reading %s", path);
		goto out;
	}
	/* "hierarchy-id:controllers:/path"; controllers empty for cgroup2. */
	while (r == 0 && fgets(line, sizeof(line), f)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		char dir[PATH_MAX];

		if (c2 == NULL)
			continue;
		*c2 = '\0';
		c2[1 + strcspn(c2 + 1, "\n")] = '\0';
		if (!find_mount(tb, c1 + 1, dir, sizeof(dir)))
			continue; /* a hierarchy not mounted on the host */
		r = write_pid(dir, c2 + 1, pid);
	}
out:
	if (f)
		fclose(f);
	mnt_unref_table(tb);
	return r;
}
