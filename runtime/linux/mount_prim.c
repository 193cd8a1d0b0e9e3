#include "linux/mount_prim.h"
#include "lib/error.h"
#include "linux/pathres.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <unistd.h>

/* A clone of a shared mount joins its peer group (the kernel's clone_mnt
 * without CL_PRIVATE), and on a systemd host every mount is shared: what
 * the init then mounts in the rootfs (proc, /dev, ...) or what the
 * container mounts on a volume would appear in the host's bundle and
 * volume directories, and pivot_root refuses a shared new root (EINVAL).
 * A slave still receives the host's later mounts, as runc's rslave
 * default does, and sends none back. Only a bind that asks for shared
 * propagation (CRI's Bidirectional) stays a peer. */
int tree_clone(int dfd, const char *path, unsigned int flags, bool peer)
{
	struct mount_attr slave = {.propagation = MS_SLAVE};
	int tree = open_tree(dfd, path, flags | OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);

	if (tree >= 0 && !peer &&
	    mount_setattr(tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &slave, sizeof(slave)) < 0) {
		int e = errno;

		close(tree);
		errno = e;
		return -1;
	}
	return tree;
}

int mount_bind_fd(int src_fd, int target_fd, bool recursive, unsigned long attr_set,
                  unsigned long attr_clr)
{
	return mount_bind_fd_rec(src_fd, target_fd, recursive, attr_set, attr_clr, 0, 0);
}

int mount_bind_fd_rec(int src_fd, int target_fd, bool recursive, unsigned long attr_set,
                      unsigned long attr_clr, unsigned long rec_set, unsigned long rec_clr)
{
	struct mount_attr attr = {.attr_set = attr_set, .attr_clr = attr_clr};
	struct mount_attr rattr = {.attr_set = rec_set, .attr_clr = rec_clr};
	int tree, r = 0;

	tree = tree_clone(src_fd, "", AT_EMPTY_PATH | (recursive ? AT_RECURSIVE : 0), false);
	if (tree < 0)
		return werr(errno, "open_tree");
	/* Attributes go on the detached copy, so the mount is never visible
	 * with weaker flags than asked for. */
	if ((rec_set || rec_clr) &&
	    mount_setattr(tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &rattr, sizeof(rattr)) < 0)
		r = werr(errno, "setting recursive mount attributes");
	if (r == 0 && (attr_set || attr_clr) &&
	    mount_setattr(tree, "", AT_EMPTY_PATH, &attr, sizeof(attr)) < 0)
		r = werr(errno, "setting mount attributes");
	if (r == 0 && move_mount(tree, "", target_fd, "",
	                         MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
		r = werr(errno, "move_mount");
	close(tree);
	return r;
}

int mount_fs_at(int rootfd, const char *path, const char *type, const char *source,
                unsigned long flags, const char *data)
{
	int fd = root_open(rootfd, path, O_PATH | O_DIRECTORY);
	int r = 0;

	if (fd < 0)
		return werr(errno, "%s", path);
	if (mount(source ? source : type, fd_path(fd).s, type, flags, data) < 0)
		r = werr(errno, "mounting %s on %s", type, path);
	close(fd);
	return r;
}
