/* Building the container's filesystem view in its mount namespace. */
#ifndef WARD_ROOTFS_H
#define WARD_ROOTFS_H

#include <stdbool.h>

#include "config.h"

struct rootfs_args {
	const struct oci_config *cfg;
	const char *rootfs; /* absolute host path */
	const char *bundle;
	bool no_pivot;
	bool userns;
};

/* Everything from the first mount to pivot_root and the read-only root. */
int rootfs_setup(const struct rootfs_args *a);

#endif
