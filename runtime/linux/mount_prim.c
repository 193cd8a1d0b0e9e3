#include "linux/mount_prim.h"
#include "linux/sys_mount.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "linux/pathres.h"

#include <errno.h>
#include <fcntl.h>
#include <libmount.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

unsigned long mount_ms_to_attr(unsigned long ms)
{
	unsigned long a = 0;

	if (ms & MS_RDONLY)
		a |= MOUNT_ATTR_RDONLY;
	if (ms & MS_NOSUID)
		a |= MOUNT_ATTR_NOSUID;
	if (ms & MS_NODEV)
		a |= MOUNT_ATTR_NODEV;
	if (ms & MS_NOEXEC)
		a |= MOUNT_ATTR_NOEXEC;
	if (ms & MS_NODIRATIME)
		a |= MOUNT_ATTR_NODIRATIME;
	if (ms & MS_NOSYMFOLLOW)
		a |= MOUNT_ATTR_NOSYMFOLLOW;
	return a;
}

void mount_atime_attr(unsigned long ms, unsigned long *set, unsigned long *clr)
{
	if (ms & MS_NOATIME) {
		*set |= MOUNT_ATTR_NOATIME;
		*clr |= MOUNT_ATTR__ATIME;
	} else if (ms & MS_STRICTATIME) {
		*set |= MOUNT_ATTR_STRICTATIME;
		*clr |= MOUNT_ATTR__ATIME;
	} else if (ms & MS_RELATIME) {
		*clr |= MOUNT_ATTR__ATIME;
	}
}

/* What the filesystem said about a refused option ("e tmpfs: Bad value
 * for 'size'"), from the fs context's message queue. */
static int fs_refused(int fs, int e, const char *type, const char *dest, struct werror *err)
{
	char msg[256];
	ssize_t n = read(fs, msg, sizeof(msg) - 1);

	while (n > 1 && msg[n - 1] == '\n')
		n--;
	if (n > 2 && msg[1] == ' ')
		return werr(err, e, "mounting %s on %s (%.*s)", type, dest, (int)n - 2, msg + 2);
	return werr(err, e, "mounting %s on %s", type, dest);
}

int mount_fs_detached(const char *type, const char *source, unsigned long flags, const char *data,
                      const char *dest, struct werror *err)
{
	/* Superblock flags the mount attributes have no bit for. */
	static const struct {
		unsigned long ms;
		const char *name;
	} sb_flags[] = {
	    {MS_SYNCHRONOUS, "sync"}, {MS_DIRSYNC, "dirsync"}, {MS_LAZYTIME, "lazytime"}};
	unsigned long set = mount_ms_to_attr(flags), clr = 0;
	char *opts = data ? strdup(data) : NULL, *cur = opts, *name, *value;
	size_t namesz, valuesz;
	_cleanup_close_ int fs = sys_fsopen(type, FSOPEN_CLOEXEC);
	int mnt = -1, r = 0;

	if (fs < 0) {
		free(opts);
		return werr(err, errno, "mounting %s on %s", type, dest);
	}
	if (data && opts == NULL)
		r = werr(err, ENOMEM, "out of memory");
	if (r == 0 && source && source[0] &&
	    sys_fsconfig(fs, FSCONFIG_SET_STRING, "source", source, 0) < 0)
		r = fs_refused(fs, errno, type, dest, err);
	for (size_t i = 0; r == 0 && i < sizeof(sb_flags) / sizeof(sb_flags[0]); i++)
		if ((flags & sb_flags[i].ms) &&
		    sys_fsconfig(fs, FSCONFIG_SET_FLAG, sb_flags[i].name, NULL, 0) < 0)
			r = fs_refused(fs, errno, type, dest, err);
	while (r == 0 && cur &&
	       mnt_optstr_next_option(&cur, &name, &namesz, &value, &valuesz) == 0) {
		char key[256], val[4096];

		if (namesz >= sizeof(key) || (value && valuesz >= sizeof(val))) {
			r = werr(err, E2BIG, "mounting %s on %s: an option is too long", type,
			         dest);
			break;
		}
		snprintf(key, sizeof(key), "%.*s", (int)namesz, name);
		if (value)
			snprintf(val, sizeof(val), "%.*s", (int)valuesz, value);
		if ((value ? sys_fsconfig(fs, FSCONFIG_SET_STRING, key, val, 0)
		           : sys_fsconfig(fs, FSCONFIG_SET_FLAG, key, NULL, 0)) < 0)
			r = fs_refused(fs, errno, type, dest, err);
	}
	if (r == 0 && sys_fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		r = fs_refused(fs, errno, type, dest, err);
	mount_atime_attr(flags, &set, &clr);
	if (r == 0 && (mnt = sys_fsmount(fs, FSMOUNT_CLOEXEC, (unsigned int)set)) < 0)
		r = fs_refused(fs, errno, type, dest, err);
	free(opts);
	return r < 0 ? -1 : mnt;
}

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
	_cleanup_close_ int tree =
	    sys_open_tree(dfd, path, flags | OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);

	if (tree >= 0 && !peer &&
	    sys_mount_setattr(tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &slave, sizeof(slave)) < 0)
		return -1;
	return TAKE_FD(tree);
}

int mount_bind_fd(int src_fd, int target_fd, bool recursive, unsigned long attr_set,
                  unsigned long attr_clr, struct werror *err)
{
	return mount_bind_fd_rec(src_fd, target_fd, recursive, attr_set, attr_clr, 0, 0, err);
}

int mount_bind_fd_rec(int src_fd, int target_fd, bool recursive, unsigned long attr_set,
                      unsigned long attr_clr, unsigned long rec_set, unsigned long rec_clr,
                      struct werror *err)
{
	struct mount_attr attr = {.attr_set = attr_set, .attr_clr = attr_clr};
	struct mount_attr rattr = {.attr_set = rec_set, .attr_clr = rec_clr};
	_cleanup_close_ int tree = -1;
	int r = 0;

	tree = tree_clone(src_fd, "", AT_EMPTY_PATH | (recursive ? AT_RECURSIVE : 0), false);
	if (tree < 0)
		return werr(err, errno, "open_tree");
	/* Attributes go on the detached copy, so the mount is never visible
	 * with weaker flags than asked for. */
	if ((rec_set || rec_clr) &&
	    sys_mount_setattr(tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &rattr, sizeof(rattr)) < 0)
		r = werr(err, errno, "setting recursive mount attributes");
	if (r == 0 && (attr_set || attr_clr) &&
	    sys_mount_setattr(tree, "", AT_EMPTY_PATH, &attr, sizeof(attr)) < 0)
		r = werr(err, errno, "setting mount attributes");
	if (r == 0 && sys_move_mount(tree, "", target_fd, "",
	                             MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
		r = werr(err, errno, "move_mount");
	return r;
}

int mount_fs_at(int rootfd, const char *path, const char *type, const char *source,
                unsigned long flags, const char *data, struct werror *err)
{
	_cleanup_close_ int fd = root_open(rootfd, path, O_PATH | O_DIRECTORY);

	if (fd < 0)
		return werr(err, errno, "%s", path);
	if (sys_mount(source ? source : type, fd_path(fd).s, type, flags, data) < 0)
		return werr(err, errno, "mounting %s on %s", type, path);
	return 0;
}
