/* A container without a mount namespace (compat, as runc) has its rootfs
 * tree and every mount of config.json attached in the runtime's mount
 * namespace, where they outlive the init. runc leaves them there (the
 * bundle cannot be removed afterwards); ward records the tree it attached
 * and detaches it, with everything mounted inside, at delete. */
#ifndef WARD_CONTAINER_HOST_MOUNT_H
#define WARD_CONTAINER_HOST_MOUNT_H

#include "lib/error.h"

#include "container/store.h"

/* Record root_tree (the rootfs tree, before it is attached at rootfs). */
int host_mount_record(struct container *c, int root_tree, const char *rootfs, struct werror *err);
/* Detach it, if it is still what is mounted at the rootfs path (the same
 * mount by id: never whatever another mounted there since). */
int host_mount_release(struct container *c, struct werror *err);

#endif
