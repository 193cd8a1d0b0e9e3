/* --no-pivot: the rootfs is moved over "/" and chrooted into, and the old
 * root stays in the container's mount namespace beneath it.
 *
 * The --no-pivot procfs class (fixed in runc by its PR 1962): a procfs or sysfs mount of the host's
 * left anywhere in that namespace makes a fresh procfs/sysfs mount "not too revealing" to the
 * kernel (fs/namespace.c mnt_already_visible), so the container could mount one with every file the
 * container's own mounts mask. Every mount that is neither the rootfs (with what is below it) nor
 * on the way to it is detached first, and the move is refused if a procfs or sysfs of the host's is
 * still there. */
#ifndef WARD_NO_PIVOT_H
#define WARD_NO_PIVOT_H

#include "lib/error.h"

int no_pivot_detach_host(int rootfd, struct werror *err);

#endif
