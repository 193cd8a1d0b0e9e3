/* linux.maskedPaths and linux.readonlyPaths, inside the rootfs by fd. */
#ifndef WARD_ROOTFS_MASKS_H
#define WARD_ROOTFS_MASKS_H

#include "lib/error.h"

#include "oci/config.h"

/* Each masked path that exists (resolved inside the root): a directory
 * gets an empty read-only tmpfs, anything else a bind of the host's
 * /dev/null, checked to be the null device. A path that is not there is
 * skipped, as runc does. */
int rootfs_mask_paths(int rootfd, const struct oci_linux *l, struct werror *err);
/* Each read-only path that exists: a recursive bind onto itself,
 * read-only, nosuid, nodev. */
int rootfs_readonly_paths(int rootfd, const struct oci_linux *l, struct werror *err);

#endif
