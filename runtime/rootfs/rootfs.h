/* Building the container's filesystem view in its mount namespace. */
#ifndef WARD_ROOTFS_H
#define WARD_ROOTFS_H

#include "lib/error.h"

#include <stdbool.h>

#include "oci/config.h"

struct rootfs_args {
	const struct oci_config *cfg;
	const char *rootfs; /* absolute host path */
	const char *bundle;
	bool no_pivot;
	bool userns;
	/* No mount namespace of its own (compat, as runc): the mounts are made
	 * in the runtime's, and the process is chrooted, not pivoted. */
	bool host_mntns;
	/* From the parent (idmap.c): the rootfs as a detached tree. */
	int root_tree;
	/* The detached trees of mounts[idx] (a bind's source, an overlay's
	 * layers: lowerdir..., upperdir, workdir in the order of the options),
	 * asked for when the mount is made; the caller speaks to whoever holds
	 * them (container/tree_fetch.h). trees_done: the mounts are made, no
	 * more will be asked for. */
	int (*fetch_trees)(void *arg, size_t idx, int **fds, size_t *n, struct werror *err);
	void (*trees_done)(void *arg);
	void *trees_arg;
	/* The init's cgroups, for "cgroup" mounts (cgroup_mount.h). */
	const struct cgroup_self *cg_self;
	/* Called with the mounts done, before pivot_root (hooks). */
	int (*before_pivot)(void *arg, int rootfd, struct werror *err);
	void *before_pivot_arg;
};

/* Host-side handles, taken before the init becomes root of its user
 * namespace: until then it still has the host uid 0, afterwards it must not
 * need host paths (bind sources come over the tree channel). */
struct rootfs_handles {
	int rootfd; /* the rootfs tree, attached (a mount point) */
};

/* In the parent, before the clone: the mount points config.json needs
 * that the image lacks (src_is_dir[i]: a directory, else a file), made as
 * host root. Inside a user namespace the init could not create them in a
 * rootfs owned by host root. Best effort: what fails here fails later in
 * the init, naming the mount. */
void rootfs_premake(int rootfd, const struct oci_config *c, const bool *src_is_dir,
                    struct werror *err);
int rootfs_open(const struct rootfs_args *a, struct rootfs_handles *h, struct werror *err);
/* Everything from the first mount to pivot_root and the read-only root. */
int rootfs_setup(struct rootfs_args *a, struct rootfs_handles *h, struct werror *err);
void rootfs_handles_close(struct rootfs_handles *h);

#endif
