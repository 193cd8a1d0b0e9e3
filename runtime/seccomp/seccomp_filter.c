/* Building the filter. libseccomp resolves names and generates the BPF; ward
 * then prepends its own checks (the ENOSYS rule below) and loads the result
 * with seccomp(2) directly, so any filter flag the kernel knows can be used. */
#include "seccomp/seccomp_filter.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "lib/log.h"
#include "oci/names.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV
#define SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (1UL << 5)
#endif

/* How much an action lets through, to compare a rule with the default. */
static int permissiveness(uint32_t act)
{
	switch (act & 0xffff0000U) {
	case SCMP_ACT_KILL_PROCESS:
		return 0;
	case SCMP_ACT_KILL_THREAD:
		return 1;
	case SCMP_ACT_TRAP:
		return 2;
	case SCMP_ACT_ERRNO(0):
		return 3;
	case SCMP_ACT_TRACE(0):
		return 4;
	case SCMP_ACT_NOTIFY:
		return 5;
	default: /* SCMP_ACT_ALLOW, and SCMP_ACT_LOG, which allows too */
		return 6;
	}
}

static int translate_action(const char *name, bool has_errno, uint32_t errno_ret, uint32_t *act,
                            struct werror *err)
{
	/* The spec's default errno for SCMP_ACT_ERRNO is EPERM. */
	uint32_t e = has_errno ? errno_ret : EPERM;

	if (e > 0xffff)
		return werr(err, 0, "errnoRet %u is out of range", e);
	if (strcmp(name, "SCMP_ACT_KILL") == 0 || strcmp(name, "SCMP_ACT_KILL_THREAD") == 0)
		*act = SCMP_ACT_KILL_THREAD;
	else if (strcmp(name, "SCMP_ACT_KILL_PROCESS") == 0)
		*act = SCMP_ACT_KILL_PROCESS;
	else if (strcmp(name, "SCMP_ACT_TRAP") == 0)
		*act = SCMP_ACT_TRAP;
	else if (strcmp(name, "SCMP_ACT_ERRNO") == 0)
		*act = SCMP_ACT_ERRNO(e);
	else if (strcmp(name, "SCMP_ACT_TRACE") == 0)
		*act = SCMP_ACT_TRACE(e);
	else if (strcmp(name, "SCMP_ACT_ALLOW") == 0)
		*act = SCMP_ACT_ALLOW;
	else if (strcmp(name, "SCMP_ACT_LOG") == 0)
		*act = SCMP_ACT_LOG;
	else if (strcmp(name, "SCMP_ACT_NOTIFY") == 0)
		*act = SCMP_ACT_NOTIFY;
	else
		return werr(err, 0, "unknown action \"%s\"", name);
	return 0;
}

static enum scmp_compare translate_op(const char *op)
{
	static const struct {
		const char *name;
		enum scmp_compare op;
	} ops[] = {{"SCMP_CMP_NE", SCMP_CMP_NE},
	           {"SCMP_CMP_LT", SCMP_CMP_LT},
	           {"SCMP_CMP_LE", SCMP_CMP_LE},
	           {"SCMP_CMP_EQ", SCMP_CMP_EQ},
	           {"SCMP_CMP_GE", SCMP_CMP_GE},
	           {"SCMP_CMP_GT", SCMP_CMP_GT},
	           {"SCMP_CMP_MASKED_EQ", SCMP_CMP_MASKED_EQ}};

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (strcmp(op, ops[i].name) == 0)
			return ops[i].op;
	return _SCMP_CMP_MIN;
}

static int translate_flags(const struct oci_seccomp *s, unsigned int *flags, struct werror *err)
{
	static const struct oci_name_bit known[] = {
	    {"SECCOMP_FILTER_FLAG_TSYNC", SECCOMP_FILTER_FLAG_TSYNC},
	    {"SECCOMP_FILTER_FLAG_LOG", SECCOMP_FILTER_FLAG_LOG},
	    {"SECCOMP_FILTER_FLAG_SPEC_ALLOW", SECCOMP_FILTER_FLAG_SPEC_ALLOW},
	    {"SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV", SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV},
	};
	uint64_t mask;

	if (oci_names_to_mask(s->flags, s->n_flags, known, sizeof(known) / sizeof(known[0]),
	                      "config.json: .linux.seccomp.flags", &mask, err) < 0)
		return -1;
	*flags = (unsigned int)mask;
	return 0;
}

/* The architectures a filter covers. Without a list: the native one and its
 * companions (i386 and x32 on x86-64), so a syscall cannot dodge a rule by
 * entering through another ABI (int 0x80, the x32 bit). */
static int add_arches(scmp_filter_ctx ctx, const struct oci_seccomp *s, struct werror *err)
{
	if (s->n_architectures == 0) {
		if (seccomp_arch_native() == SCMP_ARCH_X86_64) {
			if (seccomp_arch_add(ctx, SCMP_ARCH_X86) < 0 ||
			    seccomp_arch_add(ctx, SCMP_ARCH_X32) < 0)
				return werr(err, EINVAL, "adding the i386 and x32 architectures");
		}
		return 0;
	}
	for (size_t i = 0; i < s->n_architectures; i++) {
		/* "SCMP_ARCH_X86_64" → libseccomp's "x86_64". */
		char name[64];
		uint32_t token;
		int r;

		snprintf(name, sizeof(name), "%s", s->architectures[i] + strlen("SCMP_ARCH_"));
		for (char *c = name; *c; c++)
			*c = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
		token = seccomp_arch_resolve_name(name);
		if (token == 0)
			return werr_k(
			    err, WERR_INVALID, 0,
			    "config.json: .linux.seccomp.architectures[%zu]: \"%s\" is not "
			    "known to libseccomp",
			    i, s->architectures[i]);
		r = seccomp_arch_add(ctx, token);
		if (r < 0 && r != -EEXIST)
			return werr(err, -r, "config.json: .linux.seccomp.architectures[%zu] %s", i,
			            s->architectures[i]);
	}
	return 0;
}

static int add_rule(scmp_filter_ctx ctx, uint32_t act, int nr, const struct oci_seccomp_syscall *sc,
                    size_t idx, struct werror *err)
{
	struct scmp_arg_cmp cmps[6];
	bool same_index = false;
	int r;

	if (sc->n_args > 6)
		return werr_k(err, WERR_INVALID, 0,
		              "config.json: .linux.seccomp.syscalls[%zu].args: at most 6", idx);
	for (size_t i = 0; i < sc->n_args; i++) {
		const struct oci_seccomp_arg *a = &sc->args[i];

		cmps[i] = (struct scmp_arg_cmp){.arg = a->index,
		                                .op = translate_op(a->op),
		                                .datum_a = a->value,
		                                .datum_b = a->value_two};
		for (size_t j = 0; j < i; j++)
			same_index = same_index || sc->args[j].index == a->index;
	}
	/* libseccomp cannot AND two comparisons of one argument; as runc does,
	 * such conditions become one rule each (any of them matches). */
	if (same_index) {
		for (size_t i = 0; i < sc->n_args; i++) {
			r = seccomp_rule_add_array(ctx, act, nr, 1, &cmps[i]);
			if (r < 0)
				return r;
		}
		return 0;
	}
	return seccomp_rule_add_array(ctx, act, nr, (unsigned int)sc->n_args, cmps);
}

/* --- Rules libseccomp would emit wider than they are written ------------
 * Two ways a rule with argument comparisons can let more through, on some
 * architecture the filter lists, than it says:
 *
 * 32-bit ABIs (i386, x32, arm, ...): libseccomp compares only the low 32
 * bits of an argument there. A comparison whose value needs the high 32
 * bits would be decided on the low ones alone ("== 0x1_00000005" matching
 * 5; "< 0x1_00000000" matching nothing), so a rule whose action differs
 * from the default and that has one is refused. A mask with high bits and
 * a value without ("the upper half is zero") stays: i386's arguments have
 * no upper half; on x32 that half goes unchecked, which is sound for the
 * arguments the kernel reads as 32 bits (those ward's own profile compares:
 * socket's family, ioctl's command, personality, execveat's flags) and for
 * clone's flags (namespace flags are low bits, and clone looks at no
 * others).
 *
 * Multiplexed calls: on i386 (and s390, ppc, mips o32) the socket calls
 * can also be made through socketcall(2), and the SysV IPC calls through
 * ipc(2), with their arguments in memory, out of seccomp's sight.
 * libseccomp adds to a rule for socket(2) one for socketcall(SYS_SOCKET),
 * the rule's comparisons replaced by the call number: "socket unless
 * AF_VSOCK" also becomes "socketcall(SYS_SOCKET), any family". So when a
 * rule with comparisons on such a call is more permissive than the default
 * and the config does not name the multiplexer itself, ward answers the
 * multiplexer ENOSYS: C libraries then use the direct calls, where the
 * comparisons hold (Linux >= 4.3 has them on i386). */

static const struct {
	uint32_t token;
	const char *name;
} arches_32bit[] = {
    {SCMP_ARCH_X86, "i386"},
    {SCMP_ARCH_X32, "x32"},
    {SCMP_ARCH_ARM, "arm"},
    {SCMP_ARCH_MIPS, "mips"},
    {SCMP_ARCH_MIPSEL, "mipsel"},
    {SCMP_ARCH_MIPS64N32, "mips64n32"},
    {SCMP_ARCH_MIPSEL64N32, "mipsel64n32"},
    {SCMP_ARCH_PPC, "ppc"},
    {SCMP_ARCH_S390, "s390"},
    {SCMP_ARCH_PARISC, "parisc"},
};

static const char *const socket_calls[] = {
    "socket",     "bind",    "connect", "listen",  "accept",   "getsockname", "getpeername",
    "socketpair", "send",    "recv",    "sendto",  "recvfrom", "shutdown",    "setsockopt",
    "getsockopt", "sendmsg", "recvmsg", "accept4", "recvmmsg", "sendmmsg",    NULL};
static const char *const ipc_calls[] = {"semop",  "semget", "semctl", "semtimedop", "msgsnd",
                                        "msgrcv", "msgget", "msgctl", "shmat",      "shmdt",
                                        "shmget", "shmctl", NULL};

static bool listed(const char *const *v, const char *name)
{
	for (size_t i = 0; v[i]; i++)
		if (strcmp(v[i], name) == 0)
			return true;
	return false;
}

/* The first 32-bit ABI the filter lists, or NULL. */
static const char *arch_32bit(scmp_filter_ctx ctx)
{
	for (size_t i = 0; i < sizeof(arches_32bit) / sizeof(arches_32bit[0]); i++)
		if (seccomp_arch_exist(ctx, arches_32bit[i].token) == 0)
			return arches_32bit[i].name;
	return NULL;
}

static int check_high_bits(scmp_filter_ctx ctx, const struct oci_seccomp_syscall *sc, size_t idx,
                           struct werror *err)
{
	const char *abi = arch_32bit(ctx);

	for (size_t i = 0; abi && i < sc->n_args; i++) {
		const struct oci_seccomp_arg *a = &sc->args[i];
		uint64_t used =
		    translate_op(a->op) == SCMP_CMP_MASKED_EQ ? a->value & a->value_two : a->value;

		if (used >> 32)
			return werr_k(
			    err, WERR_INVALID, 0,
			    "config.json: .linux.seccomp.syscalls[%zu].args[%zu]: the value "
			    "needs the upper 32 bits, which libseccomp does not compare on %s "
			    "(listed in architectures): the rule would be decided on the lower "
			    "32 bits alone there",
			    idx, i, abi);
	}
	return 0;
}

/* ENOSYS for socketcall and ipc where a rule's comparisons would be lost
 * on them (see above). */
static int guard_multiplexers(scmp_filter_ctx ctx, const struct oci_seccomp *s, uint32_t def_act,
                              struct werror *err)
{
	static const struct {
		const char *mux;
		const char *const *calls;
	} muxes[] = {{"socketcall", socket_calls}, {"ipc", ipc_calls}};

	for (size_t m = 0; m < sizeof(muxes) / sizeof(muxes[0]); m++) {
		bool named = false, widened = false;
		int nr, r;

		for (size_t i = 0; i < s->n_syscalls; i++) {
			const struct oci_seccomp_syscall *sc = &s->syscalls[i];
			uint32_t act;

			if (translate_action(sc->action, sc->has_errno_ret, sc->errno_ret, &act,
			                     err) < 0)
				return -1;
			for (size_t n = 0; n < sc->n_names; n++) {
				named = named || strcmp(sc->names[n], muxes[m].mux) == 0;
				widened = widened ||
				          (sc->n_args && listed(muxes[m].calls, sc->names[n]) &&
				           permissiveness(act) > permissiveness(def_act));
			}
		}
		if (named || !widened)
			continue;
		nr = seccomp_syscall_resolve_name(muxes[m].mux);
		if (nr == __NR_SCMP_ERROR)
			continue;
		log_debug(
		    "seccomp: %s answers ENOSYS: a rule's argument checks would not hold on it",
		    muxes[m].mux);
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), nr, 0);
		if (r < 0)
			return werr(err, -r, "seccomp: %s", muxes[m].mux);
	}
	return 0;
}

static int add_rules(scmp_filter_ctx ctx, const struct oci_seccomp *s, uint32_t def_act,
                     bool *notify, struct werror *err)
{
	for (size_t i = 0; i < s->n_syscalls; i++) {
		const struct oci_seccomp_syscall *sc = &s->syscalls[i];
		uint32_t act;

		if (translate_action(sc->action, sc->has_errno_ret, sc->errno_ret, &act, err) < 0)
			return werr_ctx(err, "config.json: .linux.seccomp.syscalls[%zu]", i);
		if (act == SCMP_ACT_NOTIFY)
			*notify = true;
		if (act != def_act && check_high_bits(ctx, sc, i, err) < 0)
			return -1;
		for (size_t n = 0; n < sc->n_names; n++) {
			int nr = seccomp_syscall_resolve_name(sc->names[n]);
			int r;

			if (nr == __NR_SCMP_ERROR) {
				/* Profiles list syscalls newer kernels have: fine to skip
				 * when the rule would let more through than the default;
				 * a deny rule silently dropped would be a hole. */
				if (permissiveness(act) >= permissiveness(def_act)) {
					log_debug("seccomp: skipping unknown syscall \"%s\"",
					          sc->names[n]);
					continue;
				}
				return werr_k(
				    err, WERR_INVALID, 0,
				    "config.json: .linux.seccomp.syscalls[%zu].names[%zu]: "
				    "unknown syscall \"%s\" in a rule stricter than the "
				    "default action",
				    i, n, sc->names[n]);
			}
			/* The same action as the default adds nothing. */
			if (act == def_act)
				continue;
			r = add_rule(ctx, act, nr, sc, i, err);
			if (r < 0)
				return werr(err, -r,
				            "config.json: .linux.seccomp.syscalls[%zu] (%s)", i,
				            sc->names[n]);
		}
	}
	return guard_multiplexers(ctx, s, def_act, err);
}

/* Export the BPF libseccomp generated (2.5 writes it to an fd only). */
static int export_bpf(scmp_filter_ctx ctx, struct filter_prog *out, struct werror *err)
{
	_cleanup_close_ int fd = memfd_create("ward-seccomp", MFD_CLOEXEC);
	off_t size;
	int r = 0;

	if (fd < 0)
		return werr(err, errno, "memfd_create");
	if (seccomp_export_bpf(ctx, fd) < 0) {
		r = werr(err, EINVAL, "exporting the seccomp filter");
	} else if ((size = lseek(fd, 0, SEEK_END)) <= 0 || size % sizeof(struct sock_filter)) {
		r = werr(err, EINVAL, "seccomp filter of unexpected size");
	} else {
		out->insns = malloc((size_t)size);
		out->len = (size_t)size / sizeof(struct sock_filter);
		if (out->insns == NULL)
			r = werr(err, ENOMEM, "out of memory");
		else if (pread(fd, out->insns, (size_t)size, 0) != size)
			r = werr(err, errno, "reading the seccomp filter");
	}
	return r;
}

/* --- ENOSYS for syscalls newer than the profile --------------------------
 * A syscall the profile's author could not know (newer than every syscall
 * it names) must look unimplemented, not forbidden: libcs then fall back to
 * an older call (clone3 → clone) instead of failing on EPERM. libseccomp
 * cannot say "number greater than N", so ward prepends that test to the
 * program, per architecture. Only for filters whose default denies. */

#define X32_BIT 0x40000000U

struct arch_max {
	uint32_t audit_arch;
	uint32_t scmp_arch;
	int max; /* highest syscall number the profile names, or -1 */
};

static void profile_maxima(const struct oci_seccomp *s, struct arch_max *am, size_t n)
{
	for (size_t a = 0; a < n; a++) {
		am[a].max = -1;
		for (size_t i = 0; i < s->n_syscalls; i++)
			for (size_t k = 0; k < s->syscalls[i].n_names; k++) {
				int nr = seccomp_syscall_resolve_name_arch(am[a].scmp_arch,
				                                           s->syscalls[i].names[k]);

				if (nr >= 0 && am[a].scmp_arch == SCMP_ARCH_X32)
					nr &= ~(int)X32_BIT;
				if (nr > am[a].max)
					am[a].max = nr;
			}
	}
}

static int prepend_enosys(const struct oci_seccomp *s, scmp_filter_ctx ctx, struct filter_prog *p,
                          struct werror *err)
{
	struct arch_max am[] = {{AUDIT_ARCH_X86_64, SCMP_ARCH_X86_64, -1},
	                        {AUDIT_ARCH_I386, SCMP_ARCH_X86, -1},
	                        {AUDIT_ARCH_X86_64, SCMP_ARCH_X32, -1}};
	struct sock_filter pre[16];
	size_t n = 0, total;
	struct sock_filter *insns;
	bool have64, have32, havex32;

	have64 = seccomp_arch_exist(ctx, SCMP_ARCH_X86_64) == 0;
	have32 = seccomp_arch_exist(ctx, SCMP_ARCH_X86) == 0;
	havex32 = seccomp_arch_exist(ctx, SCMP_ARCH_X32) == 0;
	profile_maxima(s, am, 3);
	/* Layout (jumps are relative, so the original program is untouched):
	 *   ld arch; jeq X86_64 ? → L64 : → L32
	 *   L64: ld nr; jset X32_BIT ? → Lx32 : next; jgt max64 ? → ENOSYS : ORIG
	 *   Lx32: jgt (X32_BIT|maxx32) ? → ENOSYS : ORIG
	 *   L32: jeq I386 ? next : ORIG; ld nr; jgt max32 ? → ENOSYS : ORIG
	 *   ENOSYS: ret ERRNO(ENOSYS)
	 * An architecture absent from the filter, or one the profile names no
	 * syscall for, gets a bound that never fires. */
	uint32_t max64 = have64 && am[0].max >= 0 ? (uint32_t)am[0].max : X32_BIT - 1;
	uint32_t maxx32 = havex32 && am[2].max >= 0 ? (uint32_t)am[2].max | X32_BIT : 0xffffffffU;
	uint32_t max32 = have32 && am[1].max >= 0 ? (uint32_t)am[1].max : 0xffffffffU;

	/* index: 0 ld arch; 1 jeq64; 2 ld nr; 3 jset; 4 jgt64; 5 jgtx32;
	 * 6 jeq386; 7 ld nr; 8 jgt32; 9 ret ENOSYS; 10 = ORIG */
	pre[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
	                                        offsetof(struct seccomp_data, arch));
	pre[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 0, 4);
	pre[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
	                                        offsetof(struct seccomp_data, nr));
	pre[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, X32_BIT, 1, 0);
	pre[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, max64, 4, 5);
	pre[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, maxx32, 3, 4);
	pre[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_I386, 0, 3);
	pre[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
	                                        offsetof(struct seccomp_data, nr));
	pre[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, max32, 0, 1);
	pre[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS);

	total = n + p->len;
	if (total > BPF_MAXINSNS)
		return werr(err, E2BIG, "seccomp filter has %zu instructions (at most %d)", total,
		            BPF_MAXINSNS);
	insns = malloc(total * sizeof(*insns));
	if (insns == NULL)
		return werr(err, ENOMEM, "out of memory");
	memcpy(insns, pre, n * sizeof(*insns));
	memcpy(insns + n, p->insns, p->len * sizeof(*insns));
	free(p->insns);
	p->insns = insns;
	p->len = total;
	return 0;
}

int filter_compile(const struct oci_seccomp *s, struct filter_prog *out, struct werror *err)
{
	scmp_filter_ctx ctx;
	uint32_t def_act;
	int r = -1;

	memset(out, 0, sizeof(*out));
	if (translate_action(s->default_action, s->has_default_errno_ret, s->default_errno_ret,
	                     &def_act, err) < 0)
		return werr_ctx(err, "config.json: .linux.seccomp.defaultAction");
	if (translate_flags(s, &out->flags, err) < 0)
		return -1;
	if (def_act == SCMP_ACT_NOTIFY)
		return werr_k(err, WERR_INVALID, 0,
		              "config.json: .linux.seccomp.defaultAction: SCMP_ACT_NOTIFY as the "
		              "default would hand every syscall, execve included, to the agent");
	/* Supervised: the default errno becomes a notification to ward's
	 * supervisor (which answers with that errno). Every decision below
	 * still ranks rules against the config's own default. */
	if (s->supervised && (def_act & 0xffff0000U) != SCMP_ACT_ERRNO(0))
		return werr(err, EINVAL, "seccomp: only an errno default can be supervised");
	ctx = seccomp_init(s->supervised ? SCMP_ACT_NOTIFY : def_act);
	if (ctx == NULL)
		return werr(err, ENOMEM, "seccomp_init");
	/* ward sets no_new_privs itself, when config.json asks for it. */
	if (seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0) < 0) {
		werr(err, EINVAL, "seccomp_attr_set");
		goto out;
	}
	if (add_arches(ctx, s, err) < 0 || add_rules(ctx, s, def_act, &out->notify, err) < 0)
		goto out;
	if (out->notify && (s->listener_path == NULL || s->listener_path[0] == '\0')) {
		werr_k(err, WERR_INVALID, 0,
		       "config.json: .linux.seccomp.listenerPath: required with SCMP_ACT_NOTIFY");
		goto out;
	}
	if ((out->flags & SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV) && !out->notify) {
		werr_k(err, WERR_INVALID, 0,
		       "config.json: .linux.seccomp.flags: SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV "
		       "needs a SCMP_ACT_NOTIFY rule");
		goto out;
	}
	out->notify |= s->supervised;
	if (export_bpf(ctx, out, err) < 0)
		goto out;
	if (permissiveness(def_act) < permissiveness(SCMP_ACT_ALLOW) &&
	    seccomp_arch_native() == SCMP_ARCH_X86_64 && prepend_enosys(s, ctx, out, err) < 0)
		goto out;
	r = 0;
out:
	seccomp_release(ctx);
	if (r < 0)
		filter_prog_free(out);
	return r;
}

bool filter_prog_listens(const struct filter_prog *p)
{
	for (; p; p = p->next)
		if (p->notify)
			return true;
	return false;
}

int filter_load(const struct filter_prog *p, int *notify_fd, struct werror *err)
{
	if (notify_fd)
		*notify_fd = -1;
	for (; p; p = p->next) {
		struct sock_fprog prog = {.len = (unsigned short)p->len, .filter = p->insns};
		unsigned int flags = p->flags | (p->notify ? SECCOMP_FILTER_FLAG_NEW_LISTENER : 0);
		long r = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);

		if (r < 0)
			return werr(err, errno, "loading the seccomp filter");
		if (notify_fd && p->notify)
			*notify_fd = (int)r;
	}
	return 0;
}

void filter_prog_free(struct filter_prog *p)
{
	free(p->insns);
	p->insns = NULL;
	p->len = 0;
	if (p->next) {
		filter_prog_free(p->next);
		free(p->next);
		p->next = NULL;
	}
}

const struct oci_seccomp *seccomp_recorded(const struct oci_seccomp *own,
                                           const struct oci_seccomp *base)
{
	if (base && base->default_action && strcmp(base->default_action, "SCMP_ACT_ERRNO") == 0)
		return base;
	return own;
}
