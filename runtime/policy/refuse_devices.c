/* Refusals: device nodes and device-cgroup rules that reach host hardware
 * or kernel interfaces a container does not need; and (strict) the other
 * cgroup2 files of linux.resources.unified, at the end.
 *
 * Nodes (linux.devices, bind-mounted host nodes, exact allow rules): any
 * block device; mem, kmem, port; and every misc device (major 10): kvm,
 * fuse, tun, vhost-net and vhost-vsock by name, every other misc minor by
 * number, since the kernel gives many misc minors out at boot (userfaultfd
 * is 10:257 on one host, another number on the next), so none can be told
 * harmless by its number.
 *
 * Wildcards (an allow rule without a major or a minor): refused unless it
 * is exactly one of std_wildcards, the entries runc's defaults need. */
#include "policy/rules.h"

#include "oci/config_edit.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MISC_MAJOR 10

#define ACC_R   1u
#define ACC_W   2u
#define ACC_M   4u
#define ACC_RWM (ACC_R | ACC_W | ACC_M)

static const struct {
	char type;
	int64_t major, minor;
	const char *name, *why;
} bad_devices[] = {
    {'c', 1, 1, "mem", "physical memory"},
    {'c', 1, 2, "kmem", "kernel memory"},
    {'c', 1, 4, "port", "I/O ports"},
    {'c', 5, 1, "console", "the host's console (the kernel's messages, a login on it)"},
    {'c', MISC_MAJOR, 232, "kvm", "the hypervisor (kvm)"},
    {'c', MISC_MAJOR, 229, "fuse", "FUSE, a kernel attack surface"},
    {'c', MISC_MAJOR, 200, "tun", "creating network interfaces (tun)"},
    {'c', MISC_MAJOR, 238, "vhost-net", "the kernel's virtio-net backend (vhost-net)"},
    {'c', MISC_MAJOR, 241, "vhost-vsock", "the kernel's vsock backend (vhost-vsock)"},
};

/* The wildcard allow rules a container may have, exactly: the pty slaves
 * (devpts numbers them, c 136:*, with any of rwm), and mknod alone of any
 * character or block device (b/c *:* m, which runc adds to every
 * container). mknod alone is harmless here: opening a node needs r or w,
 * which only the exact rules give, so what the container makes it cannot
 * open; and baseline caps CAP_MKNOD away and strict's user namespace cannot
 * mknod at all. */
static const struct {
	char type;
	int64_t major; /* -1: any */
	unsigned access;
} std_wildcards[] = {
    {'c', 136, ACC_RWM},
    {'c', -1, ACC_M},
    {'b', -1, ACC_M},
};

static bool std_wildcard(char type, int64_t major, bool any_major, unsigned access)
{
	for (size_t i = 0; i < sizeof(std_wildcards) / sizeof(std_wildcards[0]); i++)
		if (std_wildcards[i].type == type &&
		    (std_wildcards[i].major < 0 ? any_major
		                                : !any_major && std_wildcards[i].major == major) &&
		    (access & ~std_wildcards[i].access) == 0)
			return true;
	return false;
}

/* "kvm, fuse, tun, ..." of the named devices under a major. */
static void names_under(int64_t major, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(bad_devices) / sizeof(bad_devices[0]) && n < len; i++)
		if (bad_devices[i].type == 'c' && bad_devices[i].major == major)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
			                      bad_devices[i].name);
}

/* The nodes every container gets (cgroup/dev_rules.c allows the same). */
static bool standard_node(int64_t major, int64_t minor)
{
	static const int64_t std[][2] = {{1, 3}, {1, 5}, {1, 7}, {1, 8},
	                                 {1, 9}, {5, 0}, {5, 2}, {136, -1}};

	for (size_t i = 0; i < sizeof(std) / sizeof(std[0]); i++)
		if (std[i][0] == major && (std[i][1] == minor || std[i][1] < 0))
			return true;
	return false;
}

/* The opt-out a device needs (in v->opt), NULL if it is harmless. */
const char *policy_device_optout(char type, int64_t major, int64_t minor, struct device_verdict *v)
{
	char *opt = v->opt, *reason = v->reason;
	const char **why = &v->why;
	char names[96];

	if (type == 'b') {
		*why = "raw host storage (a block device)";
		return "device.block";
	}
	if (minor < 0) {
		names_under(major, names, sizeof(names));
		if (major == MISC_MAJOR)
			snprintf(reason, sizeof(v->reason),
			         "every misc device of the host (%s, userfaultfd and the "
			         "others the kernel numbers at boot)",
			         names);
		else if (names[0])
			snprintf(reason, sizeof(v->reason),
			         "every device of major %lld (%s among them)", (long long)major,
			         names);
		else
			snprintf(reason, sizeof(v->reason),
			         "every device the host numbers under major %lld",
			         (long long)major);
		*why = reason;
		snprintf(opt, sizeof(v->opt), "device.c%lld:*", (long long)major);
		return opt;
	}
	for (size_t i = 0; i < sizeof(bad_devices) / sizeof(bad_devices[0]); i++)
		if (bad_devices[i].type == type && bad_devices[i].major == major &&
		    bad_devices[i].minor == minor) {
			*why = bad_devices[i].why;
			snprintf(opt, sizeof(v->opt), "device.%s", bad_devices[i].name);
			return opt;
		}
	/* The host's terminals: what is typed on them and shown to whoever is
	 * logged in there (a container has its own pty). */
	if (major == 4 || major == 204) {
		snprintf(reason, sizeof(v->reason), "a %s of the host (c %lld:%lld)",
		         major == 4 && minor < 64 ? "virtual console" : "serial port",
		         (long long)major, (long long)minor);
		*why = reason;
		snprintf(opt, sizeof(v->opt), "device.c%lld:%lld", (long long)major,
		         (long long)minor);
		return opt;
	}
	if (major == MISC_MAJOR) {
		snprintf(reason, sizeof(v->reason),
		         "a kernel misc interface (c 10:%lld; misc minors such as userfaultfd's "
		         "are given out at boot, so none is allowed by number)",
		         (long long)minor);
		*why = reason;
		snprintf(opt, sizeof(v->opt), "device.c10:%lld", (long long)minor);
		return opt;
	}
	/* An allow-list: sg (raw SCSI), input, vcs, fb, kmsg, ttys, NVMe
	 * generic nodes ... each reach host hardware or other sessions. GPUs
	 * and serial lines are the operator's to allow, node by node. */
	if (!standard_node(major, minor)) {
		snprintf(reason, sizeof(v->reason),
		         "a host device outside the standard set (null, zero, full, random, "
		         "urandom, tty, ptmx, pts)");
		*why = reason;
		snprintf(opt, sizeof(v->opt), "device.c%lld:%lld", (long long)major,
		         (long long)minor);
		return opt;
	}
	return NULL;
}

/* An allow rule for exactly the host console: Podman's and runc's
 * generated configs carry "c 5:1 rwm", so it is made a deny (below), not
 * refused. */
static bool is_console_rule(const struct oci_device_rule *d)
{
	return d->allow && d->type && strcmp(d->type, "c") == 0 && d->has_major && d->major == 5 &&
	       d->has_minor && d->minor == 1;
}

static int refuse_rule(struct policy_ctx *x, size_t i, const struct oci_device_rule *d)
{
	char t = d->type ? d->type[0] : 'a';
	bool any_major = t == 'a' || !d->has_major || d->major < 0;
	bool any_minor = !d->has_minor || d->minor < 0;
	struct device_verdict v = {0};
	const char *why, *opt;
	char field[64], minor[24] = "*";

	if (!d->allow ||
	    (any_minor && std_wildcard(t, d->major, any_major, oci_device_access(d->access))) ||
	    is_console_rule(d))
		return 0;
	snprintf(field, sizeof(field), ".linux.resources.devices[%zu]", i);
	if (any_major) {
		if (policy_optout(x, "devices-all"))
			return 0;
		return policy_refuse(x, field, "devices-all", "allows every %sdevice of the host",
		                     t == 'a'   ? ""
		                     : t == 'b' ? "block "
		                                : "character ");
	}
	opt = policy_device_optout(t, d->major, any_minor ? -1 : d->minor, &v);
	why = v.why;
	if (opt == NULL || policy_optout(x, opt))
		return 0;
	if (!any_minor)
		snprintf(minor, sizeof(minor), "%lld", (long long)d->minor);
	if (any_minor && t == 'c')
		return policy_refuse(x, field, opt, "allows c %lld:* (a wildcard minor), %s",
		                     (long long)d->major, why);
	return policy_refuse(x, field, opt, "allows %c %lld:%s, a device node for %s", t,
	                     (long long)d->major, minor, why);
}

/* More device nodes or rules than any container needs: each rule is a
 * write to the kernel (cgroup v1, whose cost grows with the list) and
 * instructions of the device program, each node a mknod, all of it in
 * ward's own process before any limit of the container holds (200,000
 * rules kept the host's CPU for minutes). Refused before any of it. */
#define MAX_DEVICE_ENTRIES 1024

static int refuse_too_many(struct policy_ctx *x, const char *field, size_t n, const char *what)
{
	if (n <= MAX_DEVICE_ENTRIES)
		return 0;
	return policy_refuse(x, field, NULL,
	                     "%zu %s, more than the %d a container may have: each costs ward (and "
	                     "the host's kernel) work before any limit of the container holds",
	                     n, what, MAX_DEVICE_ENTRIES);
}

int policy_refuse_devices(struct policy_ctx *x)
{
	const struct oci_linux *l = x->cfg->linux;
	const struct oci_resources *r = l ? l->resources : NULL;
	size_t refused = x->n_refused;

	if ((l && refuse_too_many(x, ".linux.devices", l->n_devices, "device nodes") < 0) ||
	    (r && refuse_too_many(x, ".linux.resources.devices", r->n_devices, "device rules") < 0))
		return -1;
	/* Not judged one by one: refused as a whole. */
	if (x->n_refused > refused)
		return 0;

	for (size_t i = 0; l && i < l->n_devices; i++) {
		const struct oci_device *d = &l->devices[i];
		struct device_verdict v = {0};
		const char *opt;
		char field[64];
		char t = d->type[0] == 'u' ? 'c' : d->type[0];

		if (t == 'p' || (opt = policy_device_optout(t, d->major, d->minor, &v)) == NULL ||
		    policy_optout(x, opt))
			continue;
		snprintf(field, sizeof(field), ".linux.devices[%zu]", i);
		if (policy_refuse(x, field, opt, "%s (%c %lld:%lld) is a device node for %s",
		                  d->path, t, (long long)d->major, (long long)d->minor, v.why) < 0)
			return -1;
	}
	for (size_t i = 0; r && i < r->n_devices; i++)
		if (refuse_rule(x, i, &r->devices[i]) < 0)
			return -1;
	return 0;
}

/* baseline and strict: the host console never opens. A config rule that
 * allows it becomes a deny of it (engines write one into every config; the
 * container's /dev/console is its own pty and needs none): its place, and
 * so config.json's numbering in findings and `ward check`, is kept. ward's
 * default rules leave it out (r->no_console: the cgroup writer appends its
 * defaults after the config's rules, so a deny rule alone would not hold).
 * allow.device.console keeps the config's rules. */
int policy_adjust_devices(struct policy_ctx *x, struct werror *err)
{
	struct oci_resources *r = cfg_resources(x->cfg, err);

	if (r == NULL)
		return -1;
	r->no_console = true;
	if (policy_optout(x, "device.console"))
		return 0;
	for (size_t i = 0; i < r->n_devices; i++) {
		char field[64];

		if (!is_console_rule(&r->devices[i]))
			continue;
		r->devices[i].allow = false;
		snprintf(field, sizeof(field), ".linux.resources.devices[%zu]", i);
		if (policy_adjusted(x, "device-console", field, "allow c 5:1 (the host's console)",
		                    "deny (the container's /dev/console is its pty)") < 0)
			return -1;
	}
	return 0;
}

/* ---- strict: linux.resources.unified ----
 *
 * cgroup2 files written after the structured limits, so a key can undo
 * one ("memory.max": "max"). Every key has a class: a limit strict sets
 * may only be tightened (compared with the limit being written, strict's
 * or the config's tighter one); a file that only limits or weighs the
 * container within its own share is accepted; one that protects it at
 * the host's expense, and any key not listed, is refused. */
enum unified_class { U_MEMORY, U_SWAP, U_PIDS, U_CPU, U_OK, U_HOST };

static const struct {
	const char *key; /* a trailing '*': a prefix */
	enum unified_class cls;
} unified_keys[] = {
    {"memory.max", U_MEMORY},
    {"memory.high", U_MEMORY},
    {"memory.swap.max", U_SWAP},
    {"pids.max", U_PIDS},
    {"cpu.max", U_CPU},
    {"memory.swap.high", U_OK},
    {"memory.zswap.max", U_OK},
    {"memory.zswap.writeback", U_OK},
    {"memory.oom.group", U_OK},
    {"cpu.weight", U_OK},
    {"cpu.weight.nice", U_OK},
    {"cpu.idle", U_OK},
    {"cpu.uclamp.max", U_OK},
    {"cpuset.cpus", U_OK},
    {"cpuset.mems", U_OK},
    {"io.max", U_OK},
    {"io.weight", U_OK},
    {"io.bfq.weight", U_OK},
    {"hugetlb.*", U_OK},
    {"rdma.max", U_OK},
    {"misc.max", U_OK},
    /* Protection from reclaim or for latency, and a raised minimum
     * utilisation: taken from the host's other work. */
    {"memory.min", U_HOST},
    {"memory.low", U_HOST},
    {"io.latency", U_HOST},
    {"cpu.uclamp.min", U_HOST},
};

/* "max" (-1), or bytes with the kernel's K/M/G/T/P/E suffixes (memparse). */
static bool unified_number(const char *v, bool suffix, int64_t *out)
{
	char *end;
	unsigned long long n;
	int shift = 0;

	if (strcmp(v, "max") == 0) {
		*out = -1;
		return true;
	}
	if (v[0] < '0' || v[0] > '9')
		return false;
	errno = 0;
	n = strtoull(v, &end, 10);
	if (suffix && *end && strchr("kKmMgGtTpPeE", *end) && end[1] == '\0') {
		shift = 10 * (int)(strchr("kmgtpe", *end | 0x20) - "kmgtpe" + 1);
		end++;
	}
	if (errno || *end || end == v || n > ((unsigned long long)INT64_MAX >> shift))
		return false;
	*out = (int64_t)(n << shift);
	return true;
}

/* Whether value loosens the limit `limit` (-1: none set); "" if it does
 * not, else why. */
static const char *unified_loosens(enum unified_class cls, const char *value,
                                   const struct oci_resources *r, char *buf, size_t len)
{
	int64_t v, q;
	uint64_t period = 100000;
	char quota[32];

	switch (cls) {
	case U_MEMORY:
	case U_PIDS: {
		int64_t limit = cls == U_PIDS
		                    ? (r->pids ? r->pids->limit : -1)
		                    : (r->memory && r->memory->has_limit ? r->memory->limit : -1);

		if (!unified_number(value, cls == U_MEMORY, &v))
			return "is not a number or \"max\"";
		if (limit > 0 && (v < 0 || v > limit)) {
			snprintf(buf, len, "\"%s\" is above strict's limit (%" PRId64 ")", value,
			         limit);
			return buf;
		}
		return "";
	}
	case U_SWAP:
		if (!unified_number(value, true, &v))
			return "is not a number or \"max\"";
		return v == 0 ? "" : "gives swap beyond strict's memory limit (strict allows none)";
	case U_CPU:
		if (sscanf(value, "%31s %" SCNu64, quota, &period) < 1 || period == 0 ||
		    !unified_number(quota, false, &q))
			return "is not \"QUOTA [PERIOD]\"";
		if (r->cpu && r->cpu->has_quota && r->cpu->quota > 0 &&
		    (q < 0 || (double)q / (double)period >
		                  (double)r->cpu->quota /
		                      (double)(r->cpu->has_period ? r->cpu->period : 100000))) {
			snprintf(buf, len,
			         "\"%s\" is more CPU than strict's %" PRId64 " per %" PRIu64, value,
			         r->cpu->quota, r->cpu->has_period ? r->cpu->period : 100000);
			return buf;
		}
		return "";
	default:
		return "";
	}
}

int policy_refuse_unified(struct policy_ctx *x)
{
	const struct oci_resources *r = x->cfg->linux ? x->cfg->linux->resources : NULL;

	for (size_t i = 0; x->profile == PROFILE_STRICT && r && i < r->n_unified; i++) {
		const char *k = r->unified[i].key, *why;
		char field[192], buf[160];
		size_t c = 0, n = sizeof(unified_keys) / sizeof(unified_keys[0]);

		for (; c < n; c++) {
			size_t l = strlen(unified_keys[c].key);

			if (unified_keys[c].key[l - 1] == '*'
			        ? strncmp(k, unified_keys[c].key, l - 1) == 0
			        : strcmp(k, unified_keys[c].key) == 0)
				break;
		}
		snprintf(field, sizeof(field), ".linux.resources.unified[\"%s\"]", k);
		if (c == n)
			why = "is not a cgroup2 file strict knows (each key is classified: see "
			      "ward-policy(7))";
		else if (unified_keys[c].cls == U_HOST)
			why = "protects the container at the host's expense";
		else
			why = unified_loosens(unified_keys[c].cls, r->unified[i].value, r, buf,
			                      sizeof(buf));
		if (why[0] && policy_refuse(x, field, NULL, "%s", why) < 0)
			return -1;
	}
	return 0;
}
