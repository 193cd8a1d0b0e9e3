/* linux.sysctl: only keys the kernel namespaces, and only when the
 * container has that namespace of its own; anything else would change the
 * host. */
#ifndef WARD_SYSCTL_H
#define WARD_SYSCTL_H

#include "oci/config.h"

/* Refuse keys that are not namespaced, or whose namespace is the host's. */
int sysctl_check(const struct oci_config *c);
/* Write the values through the container's own /proc (inside the rootfs). */
int sysctl_apply(int rootfd, const struct oci_config *c);

#endif
