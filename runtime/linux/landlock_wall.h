/* Landlock under strict: a second wall under the mounts (ward-policy(7),
 * "landlock"). The container's process may write only beneath its writable
 * mounts, execute only from its root filesystem (never from a tmpfs or a
 * volume), and, where the kernel can (ABI 6), reach abstract unix sockets
 * and send signals only within its own domain. */
#ifndef WARD_LINUX_LANDLOCK_WALL_H
#define WARD_LINUX_LANDLOCK_WALL_H

#include "lib/error.h"

/* The kernel's Landlock ABI version; 0 when it has none (or it is off). */
int landlock_abi(void);
/* Build the ruleset from the container's mount table (/proc/self/mountinfo
 * as the process sees it, after pivot_root) and restrict this process
 * with it: everything it executes afterwards runs under it. Sets
 * no_new_privs. -1 with werr: the caller must not go on (fail closed). */
int landlock_apply(struct werror *err);

#endif
