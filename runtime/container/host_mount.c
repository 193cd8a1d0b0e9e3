#include "container/host_mount.h"
#include "linux/sys_mount.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "linux/pathres.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define HOST_MOUNT_FILE "hostmount" /* "mount-id rootfs": the tree attached on the host */

#ifndef STATX_MNT_ID_UNIQUE
#define STATX_MNT_ID_UNIQUE 0x00004000U /* Linux 6.8: never reused */
#endif

/* The mount's id, the unique one where the kernel has it (a plain mount
 * id is reused once the mount is gone). */
static int mount_id(int fd, uint64_t *id, bool *is_root)
{
	struct statx sx;

	if (statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_MNT_ID_UNIQUE | STATX_MNT_ID,
	          &sx) < 0)
		return -1;
	if (!(sx.stx_mask & (STATX_MNT_ID_UNIQUE | STATX_MNT_ID))) {
		errno = EOPNOTSUPP;
		return -1;
	}
	*id = sx.stx_mnt_id;
	*is_root = (sx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) &&
	           (sx.stx_attributes & STATX_ATTR_MOUNT_ROOT);
	return 0;
}

int host_mount_record(struct container *c, int root_tree, const char *rootfs, struct werror *err)
{
	char rec[PATH_MAX + 32];
	uint64_t id;
	bool root;
	int n;

	if (mount_id(root_tree, &id, &root) < 0)
		return werr(err, errno, "the rootfs tree's mount id");
	n = snprintf(rec, sizeof(rec), "%" PRIu64 " %s", id, rootfs);
	if (n < 0 || (size_t)n >= sizeof(rec))
		return werr(err, ENAMETOOLONG, "%s", rootfs);
	return store_write(c, HOST_MOUNT_FILE, rec, (size_t)n, err);
}

int host_mount_release(struct container *c, struct werror *err)
{
	char rec[PATH_MAX + 32], *path;
	uint64_t want, id;
	bool root;
	_cleanup_close_ int fd = -1;

	if (store_read(c, HOST_MOUNT_FILE, rec, sizeof(rec), err) < 0) {
		if (errno == ENOENT) {
			werr_clear(err);
			return 0;
		}
		return -1;
	}
	want = strtoull(rec, &path, 10);
	if (*path != ' ')
		return werr(err, EINVAL, "%s: malformed", HOST_MOUNT_FILE);
	path++;
	fd = open(path, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : werr(err, errno, "the container's rootfs %s", path);
	/* MNT_DETACH: the tree and every mount config.json put inside it;
	 * by the fd's own path, the mount just checked. */
	if (mount_id(fd, &id, &root) == 0 && root && id == want &&
	    sys_umount2(fd_path(fd).s, MNT_DETACH) < 0)
		return werr(err, errno, "detaching the container's rootfs %s", path);
	return 0;
}
