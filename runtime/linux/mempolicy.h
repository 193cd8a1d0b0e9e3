/* linux.memoryPolicy applied: set_mempolicy(2) in the container's process
 * before execve (the policy is kept across execve and inherited by every
 * child), with the kernel's refusals explained. */
#ifndef WARD_LINUX_MEMPOLICY_H
#define WARD_LINUX_MEMPOLICY_H

#include "lib/error.h"

#include "oci/config.h"

/* Nothing to do without linux.memoryPolicy. -1 with werr naming
 * .linux.memoryPolicy and what the kernel said. */
int mempolicy_apply(const struct oci_linux *l, struct werror *err);

#endif
