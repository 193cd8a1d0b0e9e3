/* Capabilities under baseline and strict: a safe set (what Podman grants
 * by default), and a list refused outright because each one is a known
 * road to host authority (capabilities(7); e.g. CAP_SYS_ADMIN mounts and
 * BPF, CAP_SYS_PTRACE reads other processes, CAP_DAC_READ_SEARCH opens any
 * host inode by handle, the "shocker" escape). */
#include "policy/policy_caps.h"
#include "oci/names.h"

#include <linux/capability.h>
#include <stdio.h>
#include <sys/resource.h>
#include <string.h>

#define BIT(c) (1ULL << (c))

static const uint64_t safe_caps = BIT(CAP_CHOWN) | BIT(CAP_DAC_OVERRIDE) | BIT(CAP_FOWNER) |
                                  BIT(CAP_FSETID) | BIT(CAP_KILL) | BIT(CAP_SETGID) |
                                  BIT(CAP_SETUID) | BIT(CAP_SETPCAP) | BIT(CAP_NET_BIND_SERVICE) |
                                  BIT(CAP_SYS_CHROOT) | BIT(CAP_SETFCAP);

static const struct {
	int cap;
	const char *why;
} refused[] = {
    {CAP_SYS_ADMIN, "mounts, namespaces, BPF and most of the kernel's admin interfaces"},
    {CAP_SYS_MODULE, "loads kernel modules"},
    {CAP_SYS_RAWIO, "raw I/O ports and device memory"},
    {CAP_SYS_PTRACE, "traces and reads other processes"},
    {CAP_SYS_BOOT, "reboots the host, loads new kernels"},
    {CAP_SYS_TIME, "sets the host's clock"},
    {CAP_NET_ADMIN, "reconfigures networking"},
    {CAP_BPF, "loads BPF programs"},
    {CAP_PERFMON, "observes the whole system through perf"},
    {CAP_DAC_READ_SEARCH, "opens host files by handle (open_by_handle_at escape)"},
    {CAP_MAC_ADMIN, "reconfigures the LSM"},
    {CAP_MAC_OVERRIDE, "bypasses the LSM"},
    {CAP_SYSLOG, "reads kernel addresses and the kernel log"},
    {CAP_CHECKPOINT_RESTORE, "checkpoint/restore of other processes"},
};

static const char *const set_names[] = {"bounding", "effective", "inheritable", "permitted",
                                        "ambient"};

static uint64_t *set_ptr(struct oci_caps *c, int i)
{
	uint64_t *v[] = {&c->bounding, &c->effective, &c->inheritable, &c->permitted, &c->ambient};

	return v[i];
}

/* "cap.SYS_PTRACE" for CAP_SYS_PTRACE. */
static void optout_name(int cap, char *buf, size_t len)
{
	const char *n = oci_cap_name(cap);

	snprintf(buf, len, "cap.%s", n ? n + 4 : "?");
}

int policy_caps_refuse(struct policy_ctx *x, const struct oci_caps *caps, const char *prefix)
{
	if (caps == NULL)
		return 0;
	for (size_t k = 0; k < sizeof(refused) / sizeof(refused[0]); k++) {
		char opt[64], field[160];

		optout_name(refused[k].cap, opt, sizeof(opt));
		if (policy_optout(x, opt))
			continue;
		for (int i = 0; i < 5; i++)
			if (*set_ptr((struct oci_caps *)caps, i) & BIT(refused[k].cap)) {
				snprintf(field, sizeof(field), "%s.%s", prefix, set_names[i]);
				if (policy_refuse(x, field, opt, "%s %s",
				                  oci_cap_name(refused[k].cap), refused[k].why) < 0)
					return -1;
				break;
			}
	}
	return 0;
}

static void names(uint64_t set, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int c = 0; c <= oci_cap_last() && n < len; c++)
		if (set & BIT(c))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? " " : "",
			                      oci_cap_name(c) + 4);
	if (buf[0] == '\0')
		snprintf(buf, len, "(none)");
}

/* The capabilities policy_caps_refuse refuses (not opted out): once
 * refused, their drop is no adjustment to list as well. */
static uint64_t refused_caps(const struct policy_ctx *x)
{
	uint64_t m = 0;

	for (size_t k = 0; k < sizeof(refused) / sizeof(refused[0]); k++) {
		char opt[64];

		optout_name(refused[k].cap, opt, sizeof(opt));
		if (!policy_optout(x, opt))
			m |= BIT(refused[k].cap);
	}
	return m;
}

int policy_caps_cap(struct policy_ctx *x, struct oci_caps *caps, const char *prefix)
{
	uint64_t allowed = safe_caps, moot;

	if (caps == NULL)
		return 0;
	for (int c = 0; c <= oci_cap_last(); c++) {
		char opt[64];

		optout_name(c, opt, sizeof(opt));
		if (policy_optout(x, opt))
			allowed |= BIT(c);
	}
	moot = refused_caps(x);
	for (int i = 0; i < 5; i++) {
		uint64_t *s = set_ptr(caps, i);
		/* Inheritable and ambient carry capabilities across execve of
		 * non-setuid programs: nothing needs them in a container. */
		uint64_t now = (i == 2 || i == 4) ? 0 : (*s & allowed);
		char field[160], old[256], nw[256];

		if (now == *s)
			continue;
		snprintf(field, sizeof(field), "%s.%s", prefix, set_names[i]);
		names(*s & ~moot, old, sizeof(old));
		names(now & ~moot, nw, sizeof(nw));
		/* Dropped either way; recorded only where more than the refused
		 * ones go (the refusal already names those). */
		bool only_refused = (*s & ~moot) == (now & ~moot);
		*s = now;
		if (!only_refused &&
		    policy_adjusted(x, i == 2 || i == 4 ? "caps-no-inherit" : "caps-safe-set",
		                    field, old, nw) < 0)
			return -1;
	}
	return 0;
}

/* ---- process attributes that need a capability ----
 *
 * ward sets process.scheduler, ioPriority, oomScoreAdj and rlimits as
 * root, before it drops the capabilities: each is what only a process with
 * the capability below could give itself. baseline takes one only when the
 * container keeps that capability (in its bounding set, after the capping
 * above: the safe set or an opted-in cap.<NAME>); strict never. */

/* The bounding set keeps cap under this profile's capping. */
static bool keeps(const struct policy_ctx *x, const struct oci_caps *caps, int cap)
{
	char opt[64];

	optout_name(cap, opt, sizeof(opt));
	return x->profile == PROFILE_BASELINE && caps && (caps->bounding & BIT(cap)) &&
	       ((safe_caps & BIT(cap)) || policy_optout(x, opt));
}

static int needs_cap(struct policy_ctx *x, const struct oci_caps *caps, const char *field, int cap,
                     const char *what)
{
	const char *name = oci_cap_name(cap);
	char opt[64];

	if (keeps(x, caps, cap))
		return 0;
	optout_name(cap, opt, sizeof(opt));
	if (x->profile == PROFILE_STRICT)
		return policy_refuse(x, field, NULL,
		                     "%s needs %s, which a strict container never has (ward would "
		                     "set it as root, before dropping capabilities)",
		                     what, name);
	return policy_refuse(x, field, opt,
	                     "%s needs %s, which the container does not keep (ward would set "
	                     "it as root, before dropping capabilities): it takes %s in "
	                     ".process.capabilities.bounding",
	                     what, name, name);
}

static bool realtime(const char *policy)
{
	return policy && (strcmp(policy, "SCHED_FIFO") == 0 || strcmp(policy, "SCHED_RR") == 0 ||
	                  strcmp(policy, "SCHED_DEADLINE") == 0);
}

int policy_caps_process_attrs(struct policy_ctx *x, const struct oci_process *p,
                              const struct oci_caps *caps, const struct host_limits *h,
                              const char *prefix)
{
	char what[160], field[192];

	/* The field: prefix + suffix, into field. */
#define F(suffix) (snprintf(field, sizeof(field), "%s%s", prefix, suffix), field)

	if (p->scheduler && p->scheduler->nice < 0) {
		snprintf(what, sizeof(what), "nice %d (a priority above the host's processes)",
		         (int)p->scheduler->nice);
		if (needs_cap(x, caps, F(".scheduler.nice"), CAP_SYS_NICE, what) < 0)
			return -1;
	}
	if (p->scheduler && realtime(p->scheduler->policy)) {
		snprintf(what, sizeof(what), "%s (a real-time policy: it starves the host's tasks)",
		         p->scheduler->policy);
		if (needs_cap(x, caps, F(".scheduler.policy"), CAP_SYS_NICE, what) < 0)
			return -1;
	}
	if (p->io_priority && p->io_priority->klass &&
	    strcmp(p->io_priority->klass, "IOPRIO_CLASS_RT") == 0 &&
	    needs_cap(x, caps, F(".ioPriority.class"), CAP_SYS_NICE,
	              "IOPRIO_CLASS_RT (disk time before the host's processes)") < 0)
		return -1;
	if (!h->has) {
		if ((p->has_oom_score_adj || p->n_rlimits) &&
		    policy_refuse(x, prefix, NULL,
		                  "ward could not read its own oom_score_adj and limits to judge "
		                  "oomScoreAdj and rlimits") < 0)
			return -1;
		return 0;
	}
	if (p->has_oom_score_adj && p->oom_score_adj < h->oom_score_adj) {
		snprintf(what, sizeof(what), "oomScoreAdj %d, below ward's own (%d),",
		         (int)p->oom_score_adj, h->oom_score_adj);
		if (needs_cap(x, caps, F(".oomScoreAdj"), CAP_SYS_RESOURCE, what) < 0)
			return -1;
	}
	for (size_t i = 0; i < p->n_rlimits; i++) {
		const struct oci_rlimit *r = &p->rlimits[i];

		/* RLIMIT_CORE is set to 0 by the policy itself (no-core-dumps). */
		if (r->resource < 0 || r->resource >= RLIM_NLIMITS || r->resource == RLIMIT_CORE ||
		    r->hard <= h->rlimit_hard[r->resource])
			continue;
		snprintf(field, sizeof(field), "%s.rlimits[%zu]", prefix, i);
		snprintf(what, sizeof(what), "%s hard %llu, above the host's hard limit (%llu),",
		         r->type, (unsigned long long)r->hard,
		         (unsigned long long)h->rlimit_hard[r->resource]);
		if (needs_cap(x, caps, field, CAP_SYS_RESOURCE, what) < 0)
			return -1;
	}
	return 0;
#undef F
}

int policy_refuse_process_attrs(struct policy_ctx *x)
{
	return policy_caps_process_attrs(x, x->cfg->process, x->cfg->process->capabilities,
	                                 &x->facts->limits, ".process");
}
