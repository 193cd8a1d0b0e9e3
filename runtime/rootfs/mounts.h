/* One config.json mount entry, mounted inside the rootfs by fd. */
#ifndef WARD_MOUNTS_H
#define WARD_MOUNTS_H

#include <stdbool.h>

#include "oci/config.h"
#include "rootfs/mount_opts.h"

/* O_PATH fd of a bind mount's source (relative sources are relative to the
 * bundle); -2 for a mount that is not a bind; -1 with werr on failure. */
int mount_open_source(const struct oci_mount *m, const char *bundle, size_t idx);
/* Mount m inside the root at rootfd; src_fd from mount_open_source. idx:
 * the entry's index, for error messages. */
int mount_entry(int rootfd, const struct oci_mount *m, int src_fd, bool src_is_tree, size_t idx);
#endif
