#include "linux/hostns.h"
#include "lib/cleanup.h"
#include "lib/strfmt.h"
#include "oci/names.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <linux/nsfs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#ifndef NSFS_MAGIC
#define NSFS_MAGIC 0x6e736673
#endif

static bool same_as(const struct stat *a, const char *path)
{
	struct stat b;

	return stat(path, &b) == 0 && a->st_dev == b.st_dev && a->st_ino == b.st_ino;
}

static bool host_own(const struct stat *a, const char *pn)
{
	char own[64];

	for (int i = 0; i < 2; i++) {
		if (fmt_fit(own, sizeof(own), "/proc/%s/ns/%s", i ? "1" : "self", pn) == 0 &&
		    same_as(a, own))
			return true;
	}
	return false;
}

bool ns_is_hosts(const char *path, int flag)
{
	const char *pn = oci_ns_proc_name(flag);
	struct stat a;

	return pn && stat(path, &a) == 0 && host_own(&a, pn);
}

/* "/proc/PID/ns/NAME" or "/proc/PID/task/TID/ns/NAME": the process's
 * directory ("/proc/PID[/task/TID]") into dir, NAME into name. */
static bool proc_ns_path(const char *path, char *dir, size_t dlen, const char **name)
{
	const char *p = path + strlen("/proc/");
	const char *d;

	if (strncmp(path, "/proc/", 6) != 0 || !isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p))
		p++;
	if (strncmp(p, "/task/", 6) == 0 && isdigit((unsigned char)p[6])) {
		p += 6;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (strncmp(p, "/ns/", 4) != 0 || strchr(p + 4, '/') || p[4] == '\0' ||
	    (size_t)(p - path) >= dlen)
		return false;
	d = p;
	snprintf(dir, dlen, "%.*s", (int)(d - path), path);
	*name = p + 4;
	return true;
}

/* Through the process's own /proc directory: a pid that died and was
 * given to another process meanwhile fails (ESRCH), it is never the new
 * one's namespace that gets judged. */
static int open_proc_ns(const char *dir, const char *name, enum ns_owner *owner)
{
	char rel[64];
	struct statfs fs;
	struct stat pidns;
	_cleanup_close_ int dfd = -1, fd = -1, pfd = -1;

	dfd = open(dir, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return -1;
	if (fstatfs(dfd, &fs) < 0 || fs.f_type != PROC_SUPER_MAGIC) {
		errno = EXDEV;
		return -1;
	}
	fd = fmt_fit(rel, sizeof(rel), "ns/%s", name) < 0 ? -1
	                                                  : openat(dfd, rel, O_RDONLY | O_CLOEXEC);
	pfd = fd < 0 ? -1 : openat(dfd, "ns/pid", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* ward runs in the host's pid namespace: a process in it is a host
	 * process (a service), one outside it a container's. */
	if (pfd >= 0 && fstat(pfd, &pidns) == 0)
		*owner =
		    same_as(&pidns, "/proc/self/ns/pid") ? NS_OWNER_HOST_PROC : NS_OWNER_CONTAINER;
	return TAKE_FD(fd);
}

/* An nsfs file reachable by a path outside /proc is a bind mount of a
 * namespace (ip netns add, engines' /run/netns/NAME, /run/user/.../ns):
 * only root in the host's mount namespace can make one there. */
static bool nsfs_mount(int fd)
{
	char link[64], real[PATH_MAX];
	struct statfs fs;
	struct statx stx;
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, real, sizeof(real) - 1);
	if (n <= 0 || fstatfs(fd, &fs) < 0 || fs.f_type != NSFS_MAGIC)
		return false;
	real[n] = '\0';
	if (real[0] != '/' || strncmp(real, "/proc/", 6) == 0)
		return false;
	return statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &stx) == 0 &&
	       (stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) &&
	       (stx.stx_attributes & STATX_ATTR_MOUNT_ROOT);
}

int ns_open_judged(const char *path, int flag, enum ns_owner *owner)
{
	const char *pn = oci_ns_proc_name(flag), *name;
	char dir[64];
	struct stat st;
	int fd;

	*owner = NS_OWNER_UNKNOWN;
	if (proc_ns_path(path, dir, sizeof(dir), &name)) {
		fd = open_proc_ns(dir, name, owner);
	} else {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0 && nsfs_mount(fd))
			*owner = NS_OWNER_NSFS_MOUNT;
	}
	if (fd < 0) {
		*owner = NS_OWNER_UNKNOWN;
		return -1;
	}
	if (ioctl(fd, NS_GET_NSTYPE) != flag)
		*owner = NS_OWNER_WRONG_TYPE;
	else if (pn && fstat(fd, &st) == 0 && host_own(&st, pn))
		*owner = NS_OWNER_HOST;
	return fd;
}
