/* linux.sysctl: only keys the kernel namespaces, and only when the
 * container has that namespace of its own; anything else would change the
 * host. */
#ifndef WARD_SYSCTL_H
#define WARD_SYSCTL_H

#include "lib/error.h"

#include "oci/config.h"

/* Refuse keys that are not namespaced, or whose namespace is the host's. */
int sysctl_check(const struct oci_config *c, struct werror *err);
/* Write the values through the container's own /proc (inside the rootfs).
 * A pid namespace key (vm.memfd_noexec) that already holds its value is
 * only checked: in a user namespace the init cannot write it. */
int sysctl_apply(int rootfd, const struct oci_config *c, struct werror *err);
/* The parent's part, for the pid namespace's keys: written as the host's
 * root from a helper inside the init's pid namespace (init_pidfd), before
 * the init runs anything. */
int sysctl_apply_pidns(int init_pidfd, const struct oci_config *c, struct werror *err);
#endif
