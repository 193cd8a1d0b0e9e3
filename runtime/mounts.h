/* One config.json mount entry, mounted inside the rootfs by fd. */
#ifndef WARD_MOUNTS_H
#define WARD_MOUNTS_H

#include <stdbool.h>

#include "config.h"

struct mount_opts {
	unsigned long flags;       /* MS_* to set */
	unsigned long cleared;     /* MS_* explicitly cleared ("rw", "suid", ...) */
	unsigned long propagation; /* MS_SHARED/SLAVE/PRIVATE/UNBINDABLE, | MS_REC */
	bool bind, recursive;
	bool tmpcopyup;        /* Podman/crun: a tmpfs starts with what it covers */
	char *data;            /* filesystem-specific options, NULL if none */
	unsigned long rec_set; /* MOUNT_ATTR_* for the whole tree ("rro", ...) */
	unsigned long rec_clr;
};

/* Parse mount options with libmount. Unknown options go to data (they are
 * the filesystem's business); for bind mounts they are refused. */
int mount_parse_options(char *const *opts, size_t n, struct mount_opts *o);
void mount_opts_free(struct mount_opts *o);
bool mount_is_bind(const struct oci_mount *m);

/* O_PATH fd of a bind mount's source (relative sources are relative to the
 * bundle); -2 for a mount that is not a bind; -1 with werr on failure. */
int mount_open_source(const struct oci_mount *m, const char *bundle, size_t idx);
/* Mount m inside the root at rootfd; src_fd from mount_open_source. idx:
 * the entry's index, for error messages. */
int mount_entry(int rootfd, const struct oci_mount *m, int src_fd, bool src_is_tree, size_t idx);
/* Mount a filesystem (not a bind) on the directory at path in the root. */
int mount_fs_at(int rootfd, const char *path, const char *type, const char *source,
                unsigned long flags, const char *data);
/* Bind-mount the object at src_fd (O_PATH) onto target_fd, optionally
 * recursive and with MOUNT_ATTR_* set. */
int mount_bind_fd(int src_fd, int target_fd, bool recursive, unsigned long attr_set,
                  unsigned long attr_clr);
/* The same, with attributes also set on every mount of the tree. */
int mount_bind_fd_rec(int src_fd, int target_fd, bool recursive, unsigned long attr_set,
                      unsigned long attr_clr, unsigned long rec_set, unsigned long rec_clr);

#endif
