/* Schema tables for linux.seccomp: syntax only. Whether a syscall name
 * exists is libseccomp's business, at filter build time. */
#include "oci/seccomp_spec.h"
#include "lib/jwalk_macros.h"

#include <string.h>

static bool in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(s, *list) == 0)
			return true;
	return false;
}

const char *const oci_seccomp_actions[] = {"SCMP_ACT_KILL",        "SCMP_ACT_KILL_PROCESS",
                                           "SCMP_ACT_KILL_THREAD", "SCMP_ACT_TRAP",
                                           "SCMP_ACT_ERRNO",       "SCMP_ACT_TRACE",
                                           "SCMP_ACT_ALLOW",       "SCMP_ACT_LOG",
                                           "SCMP_ACT_NOTIFY",      NULL};

bool oci_seccomp_action_known(const char *a)
{
	return in_list(a, oci_seccomp_actions);
}

const char *const oci_seccomp_ops[] = {"SCMP_CMP_NE",        "SCMP_CMP_LT", "SCMP_CMP_LE",
                                       "SCMP_CMP_EQ",        "SCMP_CMP_GE", "SCMP_CMP_GT",
                                       "SCMP_CMP_MASKED_EQ", NULL};

bool oci_seccomp_op_known(const char *op)
{
	return in_list(op, oci_seccomp_ops);
}

const char *const oci_seccomp_arches[] = {
    "SCMP_ARCH_X86",     "SCMP_ARCH_X86_64",   "SCMP_ARCH_X32",         "SCMP_ARCH_ARM",
    "SCMP_ARCH_AARCH64", "SCMP_ARCH_MIPS",     "SCMP_ARCH_MIPS64",      "SCMP_ARCH_MIPS64N32",
    "SCMP_ARCH_MIPSEL",  "SCMP_ARCH_MIPSEL64", "SCMP_ARCH_MIPSEL64N32", "SCMP_ARCH_PPC",
    "SCMP_ARCH_PPC64",   "SCMP_ARCH_PPC64LE",  "SCMP_ARCH_S390",        "SCMP_ARCH_S390X",
    "SCMP_ARCH_PARISC",  "SCMP_ARCH_PARISC64", "SCMP_ARCH_RISCV64",     "SCMP_ARCH_LOONGARCH64",
    "SCMP_ARCH_M68K",    "SCMP_ARCH_SH",       "SCMP_ARCH_SHEB",        NULL};

bool oci_seccomp_arch_known(const char *arch)
{
	return in_list(arch, oci_seccomp_arches);
}

static int check_arg(void *obj, const struct jpath *p, struct werror *err)
{
	struct oci_seccomp_arg *a = obj;

	if (a->index > 5) {
		struct jpath ip = {p, "index", 0};

		return jerr(err, &ip, "must be between 0 and 5 (got %u)", a->index);
	}
	if (!oci_seccomp_op_known(a->op)) {
		struct jpath op = {p, "op", 0};

		return jerr(err, &op, "unknown operator \"%s\"", a->op);
	}
	return 0;
}

static const struct jfield arg_fields[] = {
    FLD("index", JK_U32, struct oci_seccomp_arg, index, JF_REQUIRED),
    FLD("value", JK_U64, struct oci_seccomp_arg, value, JF_REQUIRED),
    FLD("valueTwo", JK_U64, struct oci_seccomp_arg, value_two, 0),
    FLD("op", JK_STR, struct oci_seccomp_arg, op, JF_REQUIRED | JF_NONEMPTY),
};
static const struct jschema arg_schema =
    SCHEMA(struct oci_seccomp_arg, arg_fields, check_arg, NULL);

/* The action in member key of the object at p must be one the spec names. */
static int check_action(const struct jpath *p, const char *key, const char *action,
                        struct werror *err)
{
	struct jpath ap = {p, key, 0};

	return oci_seccomp_action_known(action) ? 0
	                                        : jerr(err, &ap, "unknown action \"%s\"", action);
}

static int check_syscall(void *obj, const struct jpath *p, struct werror *err)
{
	const struct oci_seccomp_syscall *s = obj;

	if (check_action(p, "action", s->action, err) < 0)
		return -1;
	/* The runtime itself writes after the filter is in place (to hand the
	 * listener over, to report): a write waiting on an agent that is only
	 * told of the listener by that write would never return. runc refuses
	 * it in the same words. */
	for (size_t i = 0; strcmp(s->action, "SCMP_ACT_NOTIFY") == 0 && i < s->n_names; i++)
		if (strcmp(s->names[i], "write") == 0) {
			struct jpath np = {p, "names", 0};
			struct jpath ip = {&np, NULL, i};

			return jerr(err, &ip,
			            "SCMP_ACT_NOTIFY cannot be used for the write syscall");
		}
	return 0;
}

static const struct jfield syscall_fields[] = {
    FLD_N("names", JK_STRV, struct oci_seccomp_syscall, names, JF_REQUIRED | JF_NONEMPTY, NULL),
    FLD("action", JK_STR, struct oci_seccomp_syscall, action, JF_REQUIRED | JF_NONEMPTY),
    FLD_HAS("errnoRet", JK_U32, struct oci_seccomp_syscall, errno_ret, 0),
    FLD_N("args", JK_ARR, struct oci_seccomp_syscall, args, 0, &arg_schema),
};
static const struct jschema syscall_schema =
    SCHEMA(struct oci_seccomp_syscall, syscall_fields, check_syscall, NULL);

static int check_seccomp(void *obj, const struct jpath *p, struct werror *err)
{
	struct oci_seccomp *s = obj;

	if (check_action(p, "defaultAction", s->default_action, err) < 0)
		return -1;
	for (size_t i = 0; i < s->n_architectures; i++)
		if (!oci_seccomp_arch_known(s->architectures[i])) {
			struct jpath ap = {p, "architectures", 0};
			struct jpath ip = {&ap, NULL, i};

			return jerr(err, &ip, "unknown architecture \"%s\"", s->architectures[i]);
		}
	return 0;
}

static const struct jfield seccomp_fields[] = {
    FLD("defaultAction", JK_STR, struct oci_seccomp, default_action, JF_REQUIRED | JF_NONEMPTY),
    FLD_HAS("defaultErrnoRet", JK_U32, struct oci_seccomp, default_errno_ret, 0),
    FLD_N("architectures", JK_STRV, struct oci_seccomp, architectures, 0, NULL),
    FLD_N("flags", JK_STRV, struct oci_seccomp, flags, 0, NULL),
    FLD("listenerPath", JK_STR, struct oci_seccomp, listener_path, 0),
    FLD("listenerMetadata", JK_STR, struct oci_seccomp, listener_metadata, 0),
    FLD_N("syscalls", JK_ARR, struct oci_seccomp, syscalls, 0, &syscall_schema),
};
const struct jschema oci_seccomp_schema =
    SCHEMA(struct oci_seccomp, seccomp_fields, check_seccomp, NULL);
