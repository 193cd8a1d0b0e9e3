/* One config.json mount entry, mounted inside the rootfs by fd. */
#ifndef WARD_MOUNTS_H
#define WARD_MOUNTS_H

#include "lib/error.h"

#include <stdbool.h>

#include "oci/config.h"
#include "rootfs/mount_opts.h"
#include "rootfs/cgroup_mount.h"

/* Mount m inside the root at rootfd. cgroups_read_only: in a user namespace
 * without a cgroup namespace of its own, where the container's root may own
 * the cgroups it would see (CVE-2023-25809). */
/* Mount m inside the root at rootfd. A bind mounts src_fd (a detached tree
 * when src_is_tree); an overlay takes its layers from layers[0..n_layers)
 * (detached trees, in the order of the options), never from the paths the
 * options name. idx: the entry's index, for error messages. */
int mount_entry(int rootfd, const struct oci_mount *m, int src_fd, bool src_is_tree,
                const int *layers, size_t n_layers, size_t idx, const struct cgroup_self *cg_self,
                int *late_ro, struct werror *err);
/* A read-only tmpfs is mounted read-write first, so that the mounts and
 * nodes inside it (/dev/pts, /dev/null in a "ro" /dev) can be made, and is
 * made read-only here, once they are (as runc does). */
int mounts_finish_readonly(const struct oci_config *c, int *late_ro, struct werror *err);
#endif
