/* The destination of a config.json mount, resolved once inside the rootfs.
 *
 * CVE-2021-30465, CVE-2019-19921 / CVE-2023-27561: a destination resolved
 * once for the checks and again for the mount can be swapped for a symlink
 * (to /proc, to a host path through a volume) in between, by whoever else
 * can write the rootfs or a volume in it. The destination is opened once
 * (openat2 RESOLVE_IN_ROOT, created if missing); the checks look at that
 * fd and the mount is attached to that same fd. */
#ifndef WARD_MOUNT_TARGET_H
#define WARD_MOUNT_TARGET_H

#include "lib/error.h"

#include <stdbool.h>

#include "oci/config.h"

/* An O_PATH fd of the destination, a directory (dir) or a file; -1 with
 * werr. */
int target_open(int rootfd, const char *dest, bool dir, struct werror *err);
/* CVE-2019-16884 / CVE-2025-52881 class, on the opened target: what goes
 * on the rootfs's /proc (by identity, however the destination spells it:
 * "//proc", "/tmp/../proc", a symlink) must be procfs, or a bind of a
 * procfs root; over procfs itself only a few read-only views may go.
 * src_fd: a bind's source, or -1. */
int target_check_proc(int rootfd, int dfd, const struct oci_mount *m, int src_fd,
                      struct werror *err);

#endif
