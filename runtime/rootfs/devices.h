/* The default /dev: a private tmpfs holding the standard device nodes, the
 * fd/std* and ptmx links, a devpts instance and /dev/shm. */
#ifndef WARD_DEVICES_H
#define WARD_DEVICES_H

#include "lib/error.h"

#include <stdbool.h>

#include "oci/config.h"

/* Mount the tmpfs /dev when config.json gives none. Before other mounts. */
int dev_mount_tmpfs(int rootfd, const struct oci_config *c, struct werror *err);
/* Nodes, links, /dev/pts and /dev/shm; after the config's mounts. userns:
 * mknod is not allowed there, so the host's nodes are bind-mounted. */
int dev_populate(int rootfd, const struct oci_config *c, bool userns, struct werror *err);
/* linux.devices: each node created by fd inside the rootfs (never through a
 * symlink out of it); under a user namespace, the host's node bind-mounted. */
int dev_create_config_devices(int rootfd, const struct oci_config *c, bool userns,
                              struct werror *err);

#endif
