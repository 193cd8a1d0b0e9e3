/* Building the container's filesystem view in its mount namespace. */
#ifndef WARD_ROOTFS_H
#define WARD_ROOTFS_H

#include <stdbool.h>

#include "oci/config.h"

struct rootfs_args {
	const struct oci_config *cfg;
	const char *rootfs; /* absolute host path */
	const char *bundle;
	bool no_pivot;
	bool userns;
	const int *idmap_trees; /* per mount: an idmapped tree from the parent, or -1 */
	/* Called with the mounts done, before pivot_root (hooks). */
	int (*before_pivot)(void *arg, int rootfd);
	void *before_pivot_arg;
};

/* Host-side handles, taken before the init becomes root of its user
 * namespace: until then it still has the host uid 0 (and so may walk
 * root-only host directories), afterwards it must not need host paths. */
struct rootfs_handles {
	int rootfd;    /* the rootfs, bound onto itself (a mount point) */
	int *src_fds;  /* per config mount: O_PATH fd of a bind source, or -1 */
	bool *is_tree; /* src_fds[i] is a detached (idmapped) tree */
	size_t n;
};

int rootfs_open(const struct rootfs_args *a, struct rootfs_handles *h);
/* Everything from the first mount to pivot_root and the read-only root. */
int rootfs_setup(const struct rootfs_args *a, struct rootfs_handles *h);
void rootfs_handles_close(struct rootfs_handles *h);

#endif
