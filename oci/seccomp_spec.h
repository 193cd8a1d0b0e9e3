/* linux.seccomp (runtime-spec 1.2, config-linux.md "Seccomp"). */
#ifndef WARD_OCI_SECCOMP_SPEC_H
#define WARD_OCI_SECCOMP_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/jwalk.h"

struct oci_seccomp_arg {
	uint32_t index;
	uint64_t value, value_two;
	char *op; /* SCMP_CMP_NE, _LT, _LE, _EQ, _GE, _GT, _MASKED_EQ */
};

struct oci_seccomp_syscall {
	char **names;
	size_t n_names;
	char *action;
	uint32_t errno_ret;
	bool has_errno_ret;
	struct oci_seccomp_arg *args;
	size_t n_args;
};

struct oci_seccomp {
	char *default_action;
	uint32_t default_errno_ret;
	bool has_default_errno_ret;
	char **architectures;
	size_t n_architectures;
	char **flags;
	size_t n_flags;
	char *listener_path;
	char *listener_metadata;
	struct oci_seccomp_syscall *syscalls;
	size_t n_syscalls;
	/* Not from JSON: the default action (an errno) is compiled as
	 * SCMP_ACT_NOTIFY to ward's own run supervisor, which answers with that
	 * errno; rules are still ranked against the errno. Part of the filter
	 * cache's key. */
	bool supervised;
};

extern const struct jschema oci_seccomp_schema;
/* What ward accepts (NULL-terminated; `ward features` lists them). */
extern const char *const oci_seccomp_actions[];
extern const char *const oci_seccomp_ops[];
extern const char *const oci_seccomp_arches[];

/* The names the spec allows, for validation. */
bool oci_seccomp_action_known(const char *a);
bool oci_seccomp_op_known(const char *op);
bool oci_seccomp_arch_known(const char *arch);

#endif
