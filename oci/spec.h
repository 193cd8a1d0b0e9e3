#ifndef WARD_OCI_SPEC_H
#define WARD_OCI_SPEC_H

#include "lib/error.h"

#include <stddef.h>
#include <stdint.h>
#include <yajl/yajl_gen.h>

/* runc's spec --rootless: a user namespace mapping the caller alone. */
struct oci_spec_rootless {
	uint32_t uid, gid;
};

/* The default config.json `ward spec` writes: a busybox-style `sh` in new
 * namespaces with a read-only root, few capabilities and no_new_privs.
 * seccomp_gen writes the value of linux.seccomp (ward's built-in profile
 * lives with the runtime, not in the OCI model); NULL leaves it out. With
 * rootless, a user namespace mapping those ids to 0, and devpts without
 * gid=5. The caller frees *out. */
int oci_spec_default(char **out, size_t *len, int (*seccomp_gen)(yajl_gen g),
                     const struct oci_spec_rootless *rootless, struct werror *err);

/* The masked and read-only paths `ward spec` writes, and the policy's
 * floor: runc's defaults plus newer leaks (/proc/interrupts, powercap's
 * energy counters: the PLATYPUS side channel). NULL-terminated. */
extern const char *const oci_default_masked[];
extern const char *const oci_default_readonly[];

#endif
