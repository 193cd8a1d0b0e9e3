/* Mount primitives by fd (the new mount API): what every mount ward makes
 * goes through, below the config.json mounts (rootfs/), the cgroup mounts,
 * the console and idmapped binds. */
#ifndef WARD_LINUX_MOUNT_PRIM_H
#define WARD_LINUX_MOUNT_PRIM_H

#include "lib/error.h"

#include <stdbool.h>

/* open_tree(dfd, path, flags | OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC), the
 * clone made a slave of what it copies (recursively) unless peer: -1 and
 * errno on failure. Every tree ward hands a container is made here. */
int tree_clone(int dfd, const char *path, unsigned int flags, bool peer);
/* MS_* flags as MOUNT_ATTR_* bits; the atime mode, which is one field. */
unsigned long mount_ms_to_attr(unsigned long ms);
void mount_atime_attr(unsigned long ms, unsigned long *set, unsigned long *clr);
/* A new filesystem as a detached mount (fsopen, fsconfig, fsmount), data's
 * comma-separated options one by one, flags as mount attributes: the
 * caller checks it and attaches it to a target it holds by fd (move_mount),
 * so no path is resolved between the check and the mount. dest names the
 * destination in messages. -1 with werr. */
int mount_fs_detached(const char *type, const char *source, unsigned long flags, const char *data,
                      const char *dest, struct werror *err);
/* Mount a filesystem (not a bind) on the directory at path in the root. */
int mount_fs_at(int rootfd, const char *path, const char *type, const char *source,
                unsigned long flags, const char *data, struct werror *err);
/* Bind-mount the object at src_fd (O_PATH) onto target_fd, optionally
 * recursive and with MOUNT_ATTR_* set. */
int mount_bind_fd(int src_fd, int target_fd, bool recursive, unsigned long attr_set,
                  unsigned long attr_clr, struct werror *err);
/* The same, with attributes also set on every mount of the tree. */
int mount_bind_fd_rec(int src_fd, int target_fd, bool recursive, unsigned long attr_set,
                      unsigned long attr_clr, unsigned long rec_set, unsigned long rec_clr,
                      struct werror *err);

#endif
