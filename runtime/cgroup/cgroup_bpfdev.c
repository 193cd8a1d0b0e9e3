/* cgroup2 device rules: an eBPF program of type BPF_PROG_TYPE_CGROUP_DEVICE
 * attached to the container's cgroup2 directory (cgroup2 has no devices.*
 * files; Documentation/admin-guide/cgroup-v2.rst, "Device controller").
 *
 * The program sees struct bpf_cgroup_dev_ctx { access_type = access << 16 |
 * type, major, minor } and returns 1 to allow, 0 to deny. The rules are
 * checked from the last to the first, the first match decides (later rules
 * win, as with v1's devices.allow/deny); no match denies.
 *
 * No RLIMIT_MEMLOCK raise: since Linux 5.11 BPF memory is charged to the
 * memory cgroup, so this works without CAP_SYS_RESOURCE. */
#include "cgroup/cgroup_bpfdev.h"
#include "cgroup/dev_rules.h"
#include "lib/cleanup.h"
#include "lib/error.h"

#include <errno.h>
#include <linux/bpf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define INSN(c, d, s, o, i)                                                                        \
	((struct bpf_insn){.code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i)})

/* r2 = type, r3 = access, r4 = major, r5 = minor (r1 = ctx). */
static const struct bpf_insn prologue[] = {
    INSN(BPF_LDX | BPF_W | BPF_MEM, BPF_REG_2, BPF_REG_1, 0, 0),
    INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_3, BPF_REG_2, 0, 0),
    INSN(BPF_ALU64 | BPF_AND | BPF_K, BPF_REG_2, 0, 0, 0xffff),
    INSN(BPF_ALU64 | BPF_RSH | BPF_K, BPF_REG_3, 0, 0, 16),
    INSN(BPF_LDX | BPF_W | BPF_MEM, BPF_REG_4, BPF_REG_1, 4, 0),
    INSN(BPF_LDX | BPF_W | BPF_MEM, BPF_REG_5, BPF_REG_1, 8, 0),
};

/* The kernel's access bits (BPF_DEVCG_ACC_*) from ward's. */
static int acc_bits(unsigned a)
{
	return (a & CG_DEV_MKNOD ? BPF_DEVCG_ACC_MKNOD : 0) |
	       (a & CG_DEV_READ ? BPF_DEVCG_ACC_READ : 0) |
	       (a & CG_DEV_WRITE ? BPF_DEVCG_ACC_WRITE : 0);
}

/* One rule: a run of tests that jump to the next rule on mismatch, then
 * "return allow". Returns the number of instructions written. */
static size_t emit_rule(struct bpf_insn *p, const struct cg_dev_rule *d)
{
	struct bpf_insn t[8];
	size_t n = 0;
	int acc = acc_bits(d->access);

	if (d->type != 'a')
		t[n++] = INSN(BPF_JMP | BPF_JNE | BPF_K, BPF_REG_2, 0, 0,
		              d->type == 'b' ? BPF_DEVCG_DEV_BLOCK : BPF_DEVCG_DEV_CHAR);
	/* An allow rule covers a request whose bits are all in the rule; a
	 * deny rule catches a request with any bit in the rule. */
	t[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_6, BPF_REG_3, 0, 0);
	t[n++] = INSN(BPF_ALU64 | BPF_AND | BPF_K, BPF_REG_6, 0, 0, d->allow ? ~acc & 7 : acc);
	t[n++] = INSN(BPF_JMP | (d->allow ? BPF_JNE : BPF_JEQ) | BPF_K, BPF_REG_6, 0, 0, 0);
	if (d->major >= 0)
		t[n++] = INSN(BPF_JMP | BPF_JNE | BPF_K, BPF_REG_4, 0, 0, (int32_t)d->major);
	if (d->minor >= 0)
		t[n++] = INSN(BPF_JMP | BPF_JNE | BPF_K, BPF_REG_5, 0, 0, (int32_t)d->minor);
	t[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, d->allow ? 1 : 0);
	t[n++] = INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	/* Every test jumps past the end of this rule. */
	for (size_t i = 0; i + 2 < n; i++)
		if (BPF_CLASS(t[i].code) == BPF_JMP)
			t[i].off = (int16_t)(n - i - 1);
	memcpy(p, t, n * sizeof(*t));
	return n;
}

static int bpf(int cmd, union bpf_attr *a)
{
	return (int)syscall(SYS_bpf, cmd, a, sizeof(*a));
}

static int load(const struct cg_dev_rule *rules, size_t n, struct werror *err)
{
	size_t max = sizeof(prologue) / sizeof(prologue[0]) + n * 8 + 2, len;
	struct bpf_insn *prog = calloc(max, sizeof(*prog));
	char log[512] = "";
	union bpf_attr a;
	int fd;

	if (prog == NULL)
		return werr(err, ENOMEM, "out of memory");
	memcpy(prog, prologue, sizeof(prologue));
	len = sizeof(prologue) / sizeof(prologue[0]);
	for (size_t i = n; i-- > 0;)
		len += emit_rule(prog + len, &rules[i]);
	prog[len++] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0);
	prog[len++] = INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_CGROUP_DEVICE;
	a.insns = (uint64_t)(uintptr_t)prog;
	a.insn_cnt = (uint32_t)len;
	a.license = (uint64_t)(uintptr_t) "Apache";
	/* Without the verifier's log first: writing it is most of the load's
	 * cost. Only a refused program is loaded again for its reason. */
	fd = bpf(BPF_PROG_LOAD, &a);
	if (fd < 0 && errno != ENOMEM) {
		int e = errno;

		a.log_buf = (uint64_t)(uintptr_t)log;
		a.log_size = sizeof(log);
		a.log_level = 1;
		/* A log too small (ENOSPC) still holds its last lines (the
		 * reason); the first answer's errno is the one to tell. */
		fd = bpf(BPF_PROG_LOAD, &a);
		if (fd < 0)
			errno = e;
	}
	free(prog);
	if (fd < 0)
		return werr(err, errno, "loading the eBPF device program%s%s", log[0] ? ": " : "",
		            log);
	return fd;
}

/* The ids of the device programs attached to this cgroup itself. */
static int attached(int cgfd, uint32_t *ids, uint32_t *n)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.query.target_fd = (uint32_t)cgfd;
	a.query.attach_type = BPF_CGROUP_DEVICE;
	a.query.prog_ids = (uint64_t)(uintptr_t)ids;
	a.query.prog_cnt = *n;
	if (bpf(BPF_PROG_QUERY, &a) < 0)
		return -1;
	*n = a.query.prog_cnt;
	return 0;
}

static void detach(int cgfd, uint32_t id)
{
	union bpf_attr a;
	_cleanup_close_ int fd = -1;

	memset(&a, 0, sizeof(a));
	a.prog_id = id;
	fd = bpf(BPF_PROG_GET_FD_BY_ID, &a);
	if (fd < 0)
		return;
	memset(&a, 0, sizeof(a));
	a.target_fd = (uint32_t)cgfd;
	a.attach_bpf_fd = (uint32_t)fd;
	a.attach_type = BPF_CGROUP_DEVICE;
	bpf(BPF_PROG_DETACH, &a);
}

int cg2_devices(const struct cg_res *x, struct werror *err)
{
	struct cg_dev_rule *rules = NULL;
	uint32_t old[64], n_old = 64;
	union bpf_attr a;
	size_t n = 0;
	_cleanup_close_ int prog = -1;
	int cgfd;

	if (cg_device_rules(x->r, x->l, &rules, &n, err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (rules[i].major > INT32_MAX || rules[i].minor > INT32_MAX) {
			werr(err, ERANGE, "%s[%zu]: device number out of range", rules[i].field,
			     rules[i].index);
			free(rules);
			return -1;
		}
	/* The directory's O_PATH fd: the bpf commands take those. */
	cgfd = x->h->fd;
	if (cgfd < 0) {
		free(rules);
		return werr(err, x->h->err ? x->h->err : EBADF, "%s", x->h->name);
	}
	prog = load(rules, n, err);
	free(rules);
	if (prog < 0)
		return werr_ctx(err, "linux.resources.devices");
	if (attached(cgfd, old, &n_old) < 0)
		n_old = 0;
	memset(&a, 0, sizeof(a));
	a.target_fd = (uint32_t)cgfd;
	a.attach_bpf_fd = (uint32_t)prog;
	a.attach_type = BPF_CGROUP_DEVICE;
	a.attach_flags = BPF_F_ALLOW_MULTI;
	if (bpf(BPF_PROG_ATTACH, &a) < 0) {
		werr(err, errno, "attaching the eBPF device program to %s", x->h->name);
		return werr_ctx(err, "linux.resources.devices");
	}
	/* The new program is in force: now drop the ones it replaces. */
	for (uint32_t i = 0; i < n_old; i++)
		detach(cgfd, old[i]);
	return 0;
}
