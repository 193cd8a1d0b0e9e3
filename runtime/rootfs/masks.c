#include "rootfs/masks.h"
#include "lib/cleanup.h"
#include "linux/mount_prim.h"
#include "linux/pathres.h"
#include "linux/sys_mount.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* Files are masked with the host's /dev/null, checked to really be the null
 * device before use (2025 masked-path CVEs: a swapped mask source must not
 * expose or accept writes to anything else). */
static int open_verified_null(struct werror *err)
{
	_cleanup_close_ int fd = open("/dev/null", O_PATH | O_CLOEXEC);
	struct stat st;

	if (fd < 0)
		return werr(err, errno, "opening /dev/null");
	if (fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode) || major(st.st_rdev) != 1 ||
	    minor(st.st_rdev) != 3)
		return werr(err, EPERM, "/dev/null is not the null device (1:3)");
	return TAKE_FD(fd);
}

/* One masked path, held by fd: what it is decides the mask. */
static int mask_one(int fd, int *nullfd, struct werror *err)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return werr(err, errno, "fstat");
	if (S_ISDIR(st.st_mode)) {
		if (sys_mount("tmpfs", fd_path(fd).s, "tmpfs",
		              MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=0,mode=0555") < 0)
			return werr(err, errno, "mounting an empty tmpfs");
		return 0;
	}
	if (*nullfd < 0 && (*nullfd = open_verified_null(err)) < 0)
		return -1;
	return mount_bind_fd(*nullfd, fd, false, 0, 0, err);
}

/* act on each of paths[0..n) that exists, held by an fd resolved inside
 * the root; field names the list in messages. */
static int each_present(int rootfd, char *const *paths, size_t n, const char *field,
                        int (*act)(int fd, void *arg, struct werror *err), void *arg,
                        struct werror *err)
{
	for (size_t i = 0; i < n; i++) {
		_cleanup_close_ int fd = root_open(rootfd, paths[i], O_PATH);

		if (fd < 0 && errno == ENOENT)
			continue;
		if (fd < 0)
			return werr(err, errno, "%s[%zu] %s", field, i, paths[i]);
		if (act(fd, arg, err) < 0)
			return werr_ctx(err, "%s[%zu] %s", field, i, paths[i]);
	}
	return 0;
}

static int mask_act(int fd, void *nullfd, struct werror *err)
{
	return mask_one(fd, nullfd, err);
}

static int readonly_act(int fd, void *arg, struct werror *err)
{
	(void)arg;
	return mount_bind_fd(fd, fd, true, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV,
	                     0, err);
}

int rootfs_mask_paths(int rootfd, const struct oci_linux *l, struct werror *err)
{
	_cleanup_close_ int nullfd = -1;

	return l ? each_present(rootfd, l->masked_paths, l->n_masked_paths, "maskedPaths", mask_act,
	                        &nullfd, err)
	         : 0;
}

int rootfs_readonly_paths(int rootfd, const struct oci_linux *l, struct werror *err)
{
	return l ? each_present(rootfd, l->readonly_paths, l->n_readonly_paths, "readonlyPaths",
	                        readonly_act, NULL, err)
	         : 0;
}
