#include "rootfs/mount_target.h"
#include "lib/error.h"
#include "linux/pathres.h"
#include "rootfs/mount_opts.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

int target_open(int rootfd, const char *dest, bool dir, struct werror *err)
{
	int fd = root_open(rootfd, dest, O_PATH | (dir ? O_DIRECTORY : 0));

	if (fd >= 0 || errno != ENOENT)
		return fd >= 0 ? fd : werr(err, errno, "%s", dest);
	/* Made where it resolves now; what was made is what gets checked. */
	return dir ? root_mkdir_p(rootfd, dest, 0755, err) : root_mkfile(rootfd, dest, 0644, err);
}

/* Files that lxcfs-style tools cover with their own view of /proc. */
static const char *const proc_allowed[] = {
    "/proc/cpuinfo", "/proc/diskstats", "/proc/meminfo",  "/proc/stat",    "/proc/swaps",
    "/proc/uptime",  "/proc/loadavg",   "/proc/slabinfo", "/proc/net/dev", NULL};

static bool on_procfs(int fd)
{
	struct statfs sfs;

	return fstatfs(fd, &sfs) == 0 && sfs.f_type == PROC_SUPER_MAGIC;
}

/* A bind whose source is the root of a procfs, not a part of one
 * (/proc/sys at /proc): runc allows it, for a container in the host's pid
 * namespace; the profiles above compat refuse the host's /proc as a source. */
static bool procfs_root(int fd)
{
	struct stat st;

	return fd >= 0 && on_procfs(fd) && fstat(fd, &st) == 0 && st.st_ino == 1;
}

int target_check_proc(int rootfd, int dfd, const struct oci_mount *m, int src_fd,
                      struct werror *err)
{
	bool bind = mount_is_bind(m);
	bool is_proc =
	    (!bind && m->type && strcmp(m->type, "proc") == 0) || (bind && procfs_root(src_fd));

	if (root_path_is(rootfd, "/proc", dfd) || strcmp(m->destination, "/proc") == 0)
		return is_proc ? 0
		               : werr_k(err, WERR_REFUSED, EPERM,
		                        "only procfs may be mounted at /proc");
	if (!on_procfs(dfd))
		return 0;
	for (size_t i = 0; proc_allowed[i]; i++)
		if (root_path_is(rootfd, proc_allowed[i], dfd))
			return 0;
	return werr_k(
	    err, WERR_REFUSED, EPERM,
	    "mounting over procfs is refused (only %s and a few other read-only views are "
	    "allowed)",
	    "/proc/cpuinfo");
}
