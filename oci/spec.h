#ifndef WARD_OCI_SPEC_H
#define WARD_OCI_SPEC_H

#include "lib/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <yajl/yajl_gen.h>

/* runc's spec --rootless: a user namespace mapping the caller alone. */
struct oci_spec_rootless {
	uint32_t uid, gid;
};

/* Which template. */
struct oci_spec_opts {
	/* Writes the value of linux.seccomp (ward's built-in profile lives
	 * with the runtime, not in the OCI model); NULL leaves it out. */
	int (*seccomp_gen)(yajl_gen g);
	/* A user namespace mapping these ids to 0, and devpts without gid=5. */
	const struct oci_spec_rootless *rootless;
	/* runc's process as it is (CAP_AUDIT_WRITE, no core limit, no device
	 * or pids rule); else what baseline would make of it, so that it
	 * adjusts nothing but the seccomp profile it fills in. */
	bool runc_process;
};

/* The default config.json `ward spec` writes: a busybox-style `sh` in new
 * namespaces with a read-only root, few capabilities and no_new_privs.
 * The caller frees *out. */
int oci_spec_default(char **out, size_t *len, const struct oci_spec_opts *o, struct werror *err);

/* The masked and read-only paths `ward spec` writes, and the policy's
 * floor: runc's defaults plus newer leaks (/proc/interrupts, powercap's
 * energy counters: the PLATYPUS side channel). NULL-terminated. */
extern const char *const oci_default_masked[];
extern const char *const oci_default_readonly[];

#endif
