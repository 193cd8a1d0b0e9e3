/* ward's built-in seccomp profile: what a normal Linux program needs, and
 * nothing that reaches into the kernel or the host beyond that. Applied by the
 * hardening layer when config.json has no seccomp section; `ward spec` writes
 * it into the config it generates. */
#ifndef WARD_OCI_SECCOMP_DEFAULT_H
#define WARD_OCI_SECCOMP_DEFAULT_H

#include "lib/error.h"

#include <stddef.h>

struct yajl_gen_t;

/* A group of syscalls the profile denies, and why. */
struct seccomp_deny_group {
	const char *why;
	const char *const *names;
};

/* Emit the profile as a runtime-spec "seccomp" object. */
int oci_seccomp_default_gen(struct yajl_gen_t *g);
/* The same profile as a decoded struct (what the policy installs when a
 * config has none). NULL with werr on failure; free with
 * jwalk_free(&oci_seccomp_schema, ...) + free. */
struct oci_seccomp *oci_seccomp_default(struct werror *err);
/* The floor baseline stacks on a config's allow-list (an engine's
 * profile): keyrings, eBPF, perf, userfaultfd, io_uring, kexec and
 * modules, open_by_handle_at and new user namespaces denied, everything
 * else allowed. Freed as oci_seccomp_default's. */
struct oci_seccomp *oci_seccomp_floor(struct werror *err);
/* The floor's whole-syscall denials (documentation, tests). */
const char *const *oci_seccomp_floor_denied(void);
/* The denied groups (documentation, `ward features`, tests). */
const struct seccomp_deny_group *oci_seccomp_default_denied(size_t *n);

#endif
