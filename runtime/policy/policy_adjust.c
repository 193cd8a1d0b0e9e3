/* What baseline and strict fill in where config.json is silent or weaker.
 * Each change is recorded (policy_adjusted) for the audit log and `ward
 * check`. */
#include "oci/config_edit.h"
#include "lib/error.h"
#include "lib/jwalk.h"
#include "oci/names.h"
#include "policy/policy.h"
#include "policy/policy_caps.h"
#include "linux/landlock_wall.h"
#include "policy/rules.h"
#include "rootfs/mount_opts.h"
#include "seccomp/seccomp_default.h"
#include "seccomp/seccomp_filter.h"
#include "oci/spec.h"

#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#define STRICT_MEMORY     (512LL << 20)
#define STRICT_CPU_QUOTA  100000 /* one CPU ... */
#define STRICT_CPU_PERIOD 100000 /* ... per 100 ms */
#define STRICT_PIDS       256
#define STRICT_TMPFS      "64m"

/* A blocklist: the default action lets through every syscall the filter
 * does not name. However few it denies (one rule against reboot), every
 * syscall ward's allow-list keeps out (unshare, bpf, io_uring_setup,
 * perf_event_open, add_key...) still reaches the kernel. Engines write
 * allow-lists (a default action that errors or kills); those stay as they
 * are under baseline. */
static bool is_blocklist(const struct oci_seccomp *s)
{
	static const char *const lets_through[] = {"SCMP_ACT_ALLOW", "SCMP_ACT_LOG",
	                                           "SCMP_ACT_NOTIFY", "SCMP_ACT_TRACE", NULL};

	for (size_t i = 0; s->default_action && lets_through[i]; i++)
		if (strcmp(s->default_action, lets_through[i]) == 0)
			return true;
	return s->default_action == NULL;
}

/* A filter that denies nothing: the default action allows, and no rule
 * returns an error or kills. */
static bool allows_all(const struct oci_seccomp *s)
{
	if (s->default_action == NULL || strcmp(s->default_action, "SCMP_ACT_ALLOW") != 0)
		return false;
	for (size_t i = 0; i < s->n_syscalls; i++) {
		const char *a = s->syscalls[i].action;

		if (a && strcmp(a, "SCMP_ACT_ALLOW") != 0 && strcmp(a, "SCMP_ACT_LOG") != 0 &&
		    strcmp(a, "SCMP_ACT_NOTIFY") != 0 && strcmp(a, "SCMP_ACT_TRACE") != 0)
			return false;
	}
	return true;
}

/* The config's own filter takes ward's place only in compat: strict stacks
 * ward's built-in filter on any config filter, baseline on a blocklist. Both are loaded; the kernel
 * runs every filter of the chain and takes the most restrictive action, so the config's can only
 * deny more. */
/* The config's filter is ward's built-in one (what `ward spec` writes):
 * stacking it again would only hide its denials from the supervisor (the
 * copy's errno outranks the supervised one's notify). */
static bool is_builtin(const struct oci_seccomp *own, const struct oci_seccomp *builtin,
                       struct werror *err)
{
	char *a = NULL, *b = NULL;
	size_t la = 0, lb = 0;
	bool same = filter_canonical(own, &a, &la, err) == 0 &&
	            filter_canonical(builtin, &b, &lb, err) == 0 && la == lb &&
	            memcmp(a, b, la) == 0;

	free(a);
	free(b);
	return same;
}

static int seccomp_stack(struct policy_ctx *x, struct oci_linux *l, struct werror *err)
{
	struct oci_seccomp *builtin;

	if (l->seccomp_base || (x->profile != PROFILE_STRICT && policy_optout(x, "seccomp-none")))
		return 0;
	if ((builtin = oci_seccomp_default(err)) == NULL)
		return -1;
	if (is_builtin(l->seccomp, builtin, err)) {
		jwalk_free(&oci_seccomp_schema, builtin);
		free(builtin);
		return 0;
	}
	/* baseline, an engine's allow-list: the floor under it. */
	if (x->profile != PROFILE_STRICT && !is_blocklist(l->seccomp)) {
		jwalk_free(&oci_seccomp_schema, builtin);
		free(builtin);
		if ((l->seccomp_base = oci_seccomp_floor(err)) == NULL)
			return -1;
		return policy_adjusted(x, "seccomp-floor", ".linux.seccomp",
		                       "(the config's filter: an allow-list)",
		                       "the config's filter stacked on ward's floor (keyrings, "
		                       "eBPF, perf, userfaultfd, io_uring, modules, file handles "
		                       "and new user namespaces denied)");
	}
	l->seccomp_base = builtin;
	return policy_adjusted(x, "seccomp-stack", ".linux.seccomp",
	                       allows_all(l->seccomp)     ? "(the config's filter: denies nothing)"
	                       : is_blocklist(l->seccomp) ? "(the config's filter: a blocklist)"
	                                                  : "(the config's filter alone)",
	                       "the config's filter stacked on ward's built-in profile");
}

static int seccomp_default(struct policy_ctx *x, struct werror *err)
{
	struct oci_linux *l = cfg_linux(x->cfg, err);

	if (l == NULL)
		return -1;
	if (l->seccomp)
		return seccomp_stack(x, l, err);
	/* strict loads ward's filter whatever the opt-outs. */
	if (policy_optout(x, "seccomp-none") && x->profile != PROFILE_STRICT)
		return 0;
	l->seccomp = oci_seccomp_default(err);
	if (l->seccomp == NULL)
		return -1;
	return policy_adjusted(x, "seccomp-default", ".linux.seccomp", "(none)",
	                       "ward's built-in profile (see ward spec)");
}

/* Kubernetes' allowPrivilegeEscalation: true (containerd and CRI-O write
 * noNewPrivileges false) and images that rely on setuid programs: the
 * operator may let baseline keep the config's false; strict never. */
static int no_new_privs(struct policy_ctx *x)
{
	if (x->cfg->process->no_new_privileges ||
	    (x->profile == PROFILE_BASELINE && policy_optout(x, "privilege-escalation")))
		return 0;
	x->cfg->process->no_new_privileges = true;
	if (policy_adjusted(x, "no-new-privs", ".process.noNewPrivileges", "false", "true") < 0)
		return -1;
	/* Said where one key of the two is there: otherwise the operator
	 * sees the false forced and no reason why the opt-out did nothing. */
	if (x->profile == PROFILE_STRICT && policy_optout(x, "privilege-escalation"))
		return policy_note(x, ".process.noNewPrivileges",
		                   "strict forces no_new_privs whatever the opt-out "
		                   "privilege-escalation says (it is baseline's only)");
	if (x->profile == PROFILE_BASELINE && policy_file_allows(x, "privilege-escalation"))
		return policy_note(x, ".process.noNewPrivileges",
		                   "the policy file allows privilege-escalation, and only the "
		                   "annotation " ANN_ALLOW "privilege-escalation=true is missing");
	if (x->profile == PROFILE_BASELINE && policy_annotation_asks(x, "privilege-escalation"))
		return policy_note(x, ".process.noNewPrivileges",
		                   "the annotation " ANN_ALLOW "privilege-escalation=true is set, "
		                   "but the policy file does not allow privilege-escalation");
	return 0;
}

static int union_paths(struct policy_ctx *x, char ***v, size_t *n, const char *const *floor,
                       const char *field, const char *rule, struct werror *err)
{
	char added[256] = "";
	size_t len = 0;

	for (size_t i = 0; floor[i]; i++) {
		if (cfg_strv_has(*v, *n, floor[i]))
			continue;
		if (cfg_strv_add(v, n, floor[i], err) < 0)
			return -1;
		if (len < sizeof(added))
			len += (size_t)snprintf(added + len, sizeof(added) - len, "%s%s",
			                        len ? " " : "+", floor[i]);
	}
	return added[0] ? policy_adjusted(x, rule, field, "(as given)", added) : 0;
}

static int paths(struct policy_ctx *x, struct werror *err)
{
	struct oci_linux *l = cfg_linux(x->cfg, err);

	if (l == NULL ||
	    union_paths(x, &l->masked_paths, &l->n_masked_paths, oci_default_masked,
	                ".linux.maskedPaths", "masked-paths", err) < 0 ||
	    union_paths(x, &l->readonly_paths, &l->n_readonly_paths, oci_default_readonly,
	                ".linux.readonlyPaths", "readonly-paths", err) < 0)
		return -1;
	return 0;
}

/* RLIMIT_CORE 0 soft and hard: a hard limit above 0 lets the code raise
 * the soft one and dump memory (secrets included) to files. */
static int no_core(struct policy_ctx *x, struct werror *err)
{
	struct oci_process *p = x->cfg->process;
	char old[64] = "(unset: inherited)";

	for (size_t i = 0; i < p->n_rlimits; i++)
		if (p->rlimits[i].resource == RLIMIT_CORE) {
			if (p->rlimits[i].soft == 0 && p->rlimits[i].hard == 0)
				return 0;
			snprintf(old, sizeof(old), "soft %" PRIu64 " hard %" PRIu64,
			         p->rlimits[i].soft, p->rlimits[i].hard);
		}
	if (cfg_rlimit_set(p, "RLIMIT_CORE", RLIMIT_CORE, 0, 0, err) < 0)
		return -1;
	return policy_adjusted(x, "no-core-dumps", ".process.rlimits[RLIMIT_CORE]", old,
	                       "soft 0 hard 0");
}

/* No network namespace: strict adds a fresh one, and so does baseline when
 * the policy's missingNetwork is "isolate" (else refuse_ns.c refuses). */
static int new_netns(struct policy_ctx *x, struct werror *err)
{
	if (oci_config_namespace(x->cfg, CLONE_NEWNET) || policy_optout(x, "host-network") ||
	    (x->profile == PROFILE_BASELINE && policy_refuses_missing_network(x->pol)))
		return 0;
	if (cfg_ns_add(x->cfg, CLONE_NEWNET, err) < 0)
		return -1;
	return policy_adjusted(x, "new-netns", ".linux.namespaces",
	                       "(no network namespace: the "
	                       "host's)",
	                       "+network");
}

/* /dev is a tmpfs ward fills with nodes; without noexec, a read-only
 * rootfs still leaves code a place to write and run binaries. */
static int dev_noexec(struct policy_ctx *x, struct werror *err)
{
	static const char *const opts[] = {"nosuid",   "noexec",      "strictatime",
	                                   "mode=755", "size=65536k", NULL};

	for (size_t i = 0; i < x->cfg->n_mounts; i++) {
		struct oci_mount *m = &x->cfg->mounts[i];
		char field[64];

		if (strcmp(m->destination, "/dev") != 0)
			continue;
		if (!m->type || strcmp(m->type, "tmpfs") != 0 ||
		    cfg_strv_has(m->options, m->n_options, "noexec"))
			return 0;
		if (cfg_strv_add(&m->options, &m->n_options, "noexec", err) < 0)
			return -1;
		snprintf(field, sizeof(field), ".mounts[%zu].options", i);
		return policy_adjusted(x, "dev-noexec", field, "(exec allowed)", "+noexec");
	}
	if (cfg_mount_add(x->cfg, "/dev", "tmpfs", "tmpfs", opts, err) < 0)
		return -1;
	return policy_adjusted(x, "dev-noexec", ".mounts", "(ward's default /dev)",
	                       "+/dev tmpfs nosuid,noexec");
}

/* A rule that denies every device (what runc's and Podman's configs start
 * with). */
static bool denies_all(const struct oci_device_rule *d)
{
	return !d->allow && (d->type == NULL || strcmp(d->type, "a") == 0) &&
	       (!d->has_major || d->major < 0) && (!d->has_minor || d->minor < 0) &&
	       (d->access == NULL || d->access[0] == '\0' ||
	        (strchr(d->access, 'r') && strchr(d->access, 'w') && strchr(d->access, 'm')));
}

/* The device cgroup denies by default, always: without rules ward installs
 * no device cgroup at all (every node in the image opens), and rules that
 * never deny everything leave v1's inherited "a *:* rwm" in place. A
 * deny-all first changes nothing the config allows: the default nodes and
 * linux.devices are added after it by the cgroup writers. */
static int devices_default_deny(struct policy_ctx *x, struct werror *err)
{
	struct oci_resources *r = cfg_resources(x->cfg, err);
	struct oci_device_rule *v;

	if (r == NULL)
		return -1;
	for (size_t i = 0; i < r->n_devices; i++)
		if (denies_all(&r->devices[i]))
			return 0;
	v = realloc(r->devices, (r->n_devices + 1) * sizeof(*v));
	if (v == NULL)
		return werr(err, ENOMEM, "out of memory");
	r->devices = v;
	/* The config had no deny-all, so its linux.devices nodes opened: they
	 * stay allowed (after the rules), which the cgroup writer does not do
	 * on its own (runc does not either). */
	r->allow_listed = true;
	memmove(v + 1, v, r->n_devices * sizeof(*v));
	v[0] = (struct oci_device_rule){.allow = false, .access = strdup("rwm")};
	r->n_devices++;
	if (v[0].access == NULL)
		return werr(err, ENOMEM, "out of memory");
	return policy_adjusted(x, "devices-default-deny", ".linux.resources.devices",
	                       r->n_devices == 1 ? "(none: every device node opens)"
	                                         : "(no rule denies every device)",
	                       "+deny all first: ward's default nodes and linux.devices allowed");
}

/* Mounts of these filesystem types made read-only whatever their options
 * say ("rw" and "rrw" removed, "ro" added), each change recorded. */
static int force_ro(struct policy_ctx *x, const char *const *types, const char *rule,
                    struct werror *err)
{
	for (size_t i = 0; i < x->cfg->n_mounts; i++) {
		struct oci_mount *m = &x->cfg->mounts[i];
		bool changed = false, typed = false;
		char field[64];

		for (size_t t = 0; m->type && types[t]; t++)
			typed = typed || strcmp(m->type, types[t]) == 0;
		if (!typed || mount_is_bind(m))
			continue;
		for (size_t k = 0; k < m->n_options;) {
			if (strcmp(m->options[k], "rw") != 0 && strcmp(m->options[k], "rrw") != 0) {
				k++;
				continue;
			}
			free(m->options[k]);
			/* The NULL that ends the vector moves down too. */
			memmove(&m->options[k], &m->options[k + 1],
			        (m->n_options - k) * sizeof(*m->options));
			m->n_options--;
			changed = true;
		}
		if (!cfg_strv_has(m->options, m->n_options, "ro")) {
			if (cfg_strv_add(&m->options, &m->n_options, "ro", err) < 0)
				return -1;
			changed = true;
		}
		snprintf(field, sizeof(field), ".mounts[%zu].options", i);
		if (changed && policy_adjusted(x, rule, field, "(writable)", "ro") < 0)
			return -1;
	}
	return 0;
}

/* A cgroup filesystem the container can write lets it change its own
 * limits, and on v1 release_agent runs a host program as root
 * (CVE-2022-0492): read-only unless cgroup-rw. */
static int cgroup_ro(struct policy_ctx *x, struct werror *err)
{
	static const char *const types[] = {"cgroup", "cgroup2", NULL};

	return policy_optout(x, "cgroup-rw") ? 0 : force_ro(x, types, "cgroup-ro", err);
}

/* A writable sysfs reaches the host's hardware and power state
 * (/sys/power/state): always read-only. */
static int sysfs_ro(struct policy_ctx *x, struct werror *err)
{
	static const char *const types[] = {"sysfs", NULL};

	return force_ro(x, types, "sysfs-ro", err);
}

/* Fill a missing (or unlimited) pids limit; lower one above max only
 * when lower is set (strict). */
static int limit_pids(struct policy_ctx *x, int64_t max, bool lower, const char *rule,
                      struct werror *err)
{
	struct oci_resources *r = cfg_resources(x->cfg, err);
	char old[32] = "(none)", now[32];

	if (r == NULL)
		return -1;
	if (r->pids && r->pids->limit > 0 && (!lower || r->pids->limit <= max))
		return 0;
	if (r->pids)
		snprintf(old, sizeof(old), "%" PRId64, r->pids->limit);
	else if ((r->pids = calloc(1, sizeof(*r->pids))) == NULL)
		return werr(err, ENOMEM, "out of memory");
	r->pids->limit = max;
	snprintf(now, sizeof(now), "%" PRId64, max);
	return policy_adjusted(x, rule, ".linux.resources.pids.limit", old, now);
}

/* ---- strict ---- */

/* Where `ward state` (and hooks) read the container's range: set by ward
 * under strict, whatever the config said. */
static int range_annotation(struct policy_ctx *x, uint32_t host, uint32_t size, struct werror *err)
{
	struct oci_config *c = x->cfg;
	char val[32];
	struct jkv *v;
	size_t i;

	snprintf(val, sizeof(val), "%" PRIu32 "-%" PRIu64, host, (uint64_t)host + size - 1);
	for (i = 0; i < c->n_annotations; i++)
		if (strcmp(c->annotations[i].key, ANN_USERNS_RANGE) == 0)
			break;
	if (i == c->n_annotations) {
		if ((v = realloc(c->annotations, (i + 1) * sizeof(*v))) == NULL)
			return werr(err, ENOMEM, "out of memory");
		c->annotations = v;
		v[i] = (struct jkv){strdup(ANN_USERNS_RANGE), NULL};
		c->n_annotations++;
		if (v[i].key == NULL)
			return werr(err, ENOMEM, "out of memory");
	}
	free(c->annotations[i].value);
	if ((c->annotations[i].value = strdup(val)) == NULL)
		return werr(err, ENOMEM, "out of memory");
	return 0;
}

/* A user namespace of the container's own, mapped to the host range it
 * holds of strict's id pool. A config that lists one keeps its mappings
 * (judged by refuse_ns.c); one listed without mappings gets the range;
 * mappings without a user namespace are replaced by it. Rootless, the
 * config's namespace and mappings are the caller's own (rootless_config.c)
 * and stay. */
static int userns(struct policy_ctx *x, struct werror *err)
{
	const struct oci_namespace *ns = oci_config_namespace(x->cfg, CLONE_NEWUSER);
	struct oci_linux *l = cfg_linux(x->cfg, err);
	uint32_t host, size;
	char now[160];

	if (l == NULL)
		return -1;
	if (!policy_strict_userns_range(x, &host, &size)) {
		if (x->userns.preview)
			return 0; /* check, the pool full: refused already (prepare.c) */
		if (x->facts && !x->facts->rootless)
			return policy_refuse(x, ".linux.uidMappings", NULL,
			                     "strict: the container holds no range of the id pool");
		/* exec of a container made before ranges were recorded: the
		 * one range strict gave every container then (exec joins the
		 * init's namespace; the maps are create's). */
		host = 100000;
		size = 65536;
	} else if (range_annotation(x, host, size, err) < 0)
		return -1;
	if (ns && ((ns->path && ns->path[0]) || l->n_uid_mappings || l->n_gid_mappings))
		return 0;
	if (ns == NULL && cfg_ns_add(x->cfg, CLONE_NEWUSER, err) < 0)
		return -1;
	free(l->uid_mappings);
	free(l->gid_mappings);
	l->uid_mappings = calloc(1, sizeof(*l->uid_mappings));
	l->gid_mappings = calloc(1, sizeof(*l->gid_mappings));
	if (!l->uid_mappings || !l->gid_mappings)
		return werr(err, ENOMEM, "out of memory");
	*l->uid_mappings = *l->gid_mappings = (struct oci_idmap){0, host, size};
	l->n_uid_mappings = l->n_gid_mappings = 1;
	snprintf(now, sizeof(now),
	         "%suser (container 0-%" PRIu32 " = host %" PRIu32 "-%" PRIu64 "%s)", ns ? "" : "+",
	         size - 1, host, (uint64_t)host + size - 1,
	         x->userns.preview ? ": the next free range of the id pool, leased at create" : "");
	return policy_adjusted(x, "strict-userns", ns ? ".linux.uidMappings" : ".linux.namespaces",
	                       ns ? "(none)" : "(host user namespace)", now);
}

static int readonly_root(struct policy_ctx *x)
{
	if (x->cfg->root->readonly)
		return 0;
	x->cfg->root->readonly = true;
	return policy_adjusted(x, "strict-readonly-root", ".root.readonly", "false", "true");
}

/* Device nodes shipped in the image never open: ward populates /dev
 * itself (a tmpfs of its own). */
static int nodev_root(struct policy_ctx *x)
{
	if (x->cfg->root->nodev)
		return 0;
	x->cfg->root->nodev = true;
	return policy_adjusted(x, "strict-nodev-root", ".root", "(device nodes open)", "nodev");
}

static int scratch_tmpfs(struct policy_ctx *x, const char *dest, struct werror *err)
{
	const struct policy_strict *s = x->pol ? x->pol->strict : NULL;
	char size[64], field[64];
	static const char *const flags[] = {"nosuid", "nodev", "noexec", NULL};

	snprintf(size, sizeof(size), "size=%s", s && s->tmpfs_size ? s->tmpfs_size : STRICT_TMPFS);
	for (size_t i = 0; i < x->cfg->n_mounts; i++) {
		struct oci_mount *m = &x->cfg->mounts[i];
		bool has_size = false, changed = false;

		if (strcmp(m->destination, dest) != 0)
			continue;
		if (!m->type || strcmp(m->type, "tmpfs") != 0)
			return 0; /* a volume of the config's own: left as it is */
		for (size_t k = 0; k < m->n_options; k++)
			has_size = has_size || strncmp(m->options[k], "size=", 5) == 0;
		for (size_t k = 0; flags[k]; k++)
			if (!cfg_strv_has(m->options, m->n_options, flags[k])) {
				if (cfg_strv_add(&m->options, &m->n_options, flags[k], err) < 0)
					return -1;
				changed = true;
			}
		if (!has_size && cfg_strv_add(&m->options, &m->n_options, size, err) < 0)
			return -1;
		if (!changed && has_size)
			return 0;
		snprintf(field, sizeof(field), ".mounts[%zu].options", i);
		return policy_adjusted(x, "strict-scratch", field, "(as given)",
		                       "+nosuid,nodev,noexec and a size");
	}
	{
		const char *opts[] = {"nosuid", "nodev", "noexec", "mode=1777", size, NULL};
		char now[128];

		if (cfg_mount_add(x->cfg, dest, "tmpfs", "tmpfs", opts, err) < 0)
			return -1;
		snprintf(now, sizeof(now), "+%s tmpfs nosuid,nodev,noexec,%s", dest, size);
		return policy_adjusted(x, "strict-scratch", ".mounts", "(none)", now);
	}
}

static int strict_limits(struct policy_ctx *x, struct werror *err)
{
	const struct policy_strict *s = x->pol ? x->pol->strict : NULL;
	int64_t mem = s && s->has_memory_limit ? s->memory_limit : STRICT_MEMORY;
	int64_t quota = s && s->has_cpu_quota ? s->cpu_quota : STRICT_CPU_QUOTA;
	uint64_t period = s && s->has_cpu_period ? s->cpu_period : STRICT_CPU_PERIOD;
	struct oci_resources *r = cfg_resources(x->cfg, err);
	char old[64], now[64];

	if (r == NULL || limit_pids(x, s && s->has_pids_limit ? s->pids_limit : STRICT_PIDS, true,
	                            "strict-limits", err) < 0)
		return -1;
	if (r->memory == NULL && (r->memory = calloc(1, sizeof(*r->memory))) == NULL)
		return werr(err, ENOMEM, "out of memory");
	if (!r->memory->has_limit || r->memory->limit < 0 || r->memory->limit > mem) {
		snprintf(old, sizeof(old), r->memory->has_limit ? "%" PRId64 : "(none)",
		         r->memory->limit);
		snprintf(now, sizeof(now), "%" PRId64, mem);
		r->memory->limit = mem;
		r->memory->has_limit = true;
		if (policy_adjusted(x, "strict-limits", ".linux.resources.memory.limit", old, now) <
		    0)
			return -1;
	}
	/* No swap beyond the limit (OCI swap is memory+swap), whatever the
	 * limit came from: judged on its own, not only when the limit was
	 * lowered (a config's limit with swap -1 was unlimited swap). */
	if (!r->memory->has_swap || r->memory->swap < 0 || r->memory->swap > r->memory->limit) {
		snprintf(old, sizeof(old), r->memory->has_swap ? "%" PRId64 : "(none)",
		         r->memory->swap);
		snprintf(now, sizeof(now), "%" PRId64, r->memory->limit);
		r->memory->swap = r->memory->limit;
		r->memory->has_swap = true;
		if (policy_adjusted(x, "strict-limits", ".linux.resources.memory.swap", old, now) <
		    0)
			return -1;
	}
	if (r->cpu == NULL && (r->cpu = calloc(1, sizeof(*r->cpu))) == NULL)
		return werr(err, ENOMEM, "out of memory");
	/* Compare CPU shares of time: quota/period. */
	if (!r->cpu->has_quota || r->cpu->quota <= 0 ||
	    (double)r->cpu->quota / (double)(r->cpu->has_period ? r->cpu->period : 100000) >
	        (double)quota / (double)period) {
		snprintf(old, sizeof(old), r->cpu->has_quota ? "%" PRId64 : "(none)",
		         r->cpu->quota);
		snprintf(now, sizeof(now), "%" PRId64 " per %" PRIu64 " us", quota, period);
		r->cpu->quota = quota;
		r->cpu->period = period;
		r->cpu->has_quota = r->cpu->has_period = true;
		if (policy_adjusted(x, "strict-limits", ".linux.resources.cpu.quota", old, now) < 0)
			return -1;
	}
	return 0;
}

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

/* Cgroup and time namespaces of its own: the code sees its cgroup as "/"
 * (not the host's hierarchy, ward's layout or other containers' names),
 * and its clocks cannot be a channel shared with other containers. A
 * namespace the config joins by path is left as it is (refuse_ns.c refuses
 * the host's). No time offsets are set. */
static int strict_namespaces(struct policy_ctx *x, struct werror *err)
{
	static const int flags[] = {CLONE_NEWCGROUP, CLONE_NEWTIME};
	char old[64] = "(the host's:", now[64] = "";
	size_t len = 0;

	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		if (oci_config_namespace(x->cfg, flags[i]))
			continue;
		if (cfg_ns_add(x->cfg, flags[i], err) < 0)
			return -1;
		len += (size_t)snprintf(now + len, sizeof(now) - len, "%s+%s", len ? " " : "",
		                        oci_ns_type(flags[i]));
		snprintf(old + strlen(old), sizeof(old) - strlen(old), " %s",
		         oci_ns_type(flags[i]));
	}
	if (now[0] == '\0')
		return 0;
	snprintf(old + strlen(old), sizeof(old) - strlen(old), ")");
	return policy_adjusted(x, "strict-namespaces", ".linux.namespaces", old, now);
}

/* vm.memfd_noexec=2 in the container's pid namespace: no memfd can be
 * made executable (memfd_create with MFD_EXEC fails, others are sealed
 * non-executable), so code written at run time into a memfd cannot be
 * run; with the seccomp profile's execveat(AT_EMPTY_PATH) denial, fexecve
 * falls back to /proc/self/fd/N, which this stops. Only where the kernel
 * has it (Linux >= 6.3, a host fact). exec has no facts and needs nothing:
 * the value belongs to the pid namespace, set once at create, and exec'd
 * processes join that namespace. */
static int memfd_noexec(struct policy_ctx *x, struct werror *err)
{
	struct oci_linux *l;
	struct jkv *v;
	char old[64] = "(unset: the host's)";

	if (x->facts == NULL || !x->facts->memfd_noexec)
		return 0;
	if ((l = cfg_linux(x->cfg, err)) == NULL)
		return -1;
	for (size_t i = 0; i < l->n_sysctl; i++) {
		if (strcmp(l->sysctl[i].key, "vm.memfd_noexec") != 0)
			continue;
		if (strcmp(l->sysctl[i].value, "2") == 0)
			return 0;
		snprintf(old, sizeof(old), "%s", l->sysctl[i].value);
		free(l->sysctl[i].value);
		if ((l->sysctl[i].value = strdup("2")) == NULL)
			return werr(err, ENOMEM, "out of memory");
		return policy_adjusted(x, "strict-memfd-noexec", ".linux.sysctl.vm.memfd_noexec",
		                       old, "2");
	}
	v = realloc(l->sysctl, (l->n_sysctl + 1) * sizeof(*v));
	if (v == NULL)
		return werr(err, ENOMEM, "out of memory");
	l->sysctl = v;
	v[l->n_sysctl] = (struct jkv){strdup("vm.memfd_noexec"), strdup("2")};
	l->n_sysctl++;
	if (v[l->n_sysctl - 1].key == NULL || v[l->n_sysctl - 1].value == NULL)
		return werr(err, ENOMEM, "out of memory");
	return policy_adjusted(x, "strict-memfd-noexec", ".linux.sysctl.vm.memfd_noexec", old, "2");
}

/* strict: nothing executes from a writable mount. Landlock's EXECUTE is
 * checked at execve only, so the dynamic loader (ld.so /vol/prog) would
 * still map a program from a volume: noexec makes the kernel refuse its
 * executable mappings (an attacker's review ran one). */
static int strict_noexec(struct policy_ctx *x, struct werror *err)
{
	for (size_t i = 0; i < x->cfg->n_mounts; i++) {
		struct oci_mount *m = &x->cfg->mounts[i];
		char field[64];

		if (mount_is_read_only(m, err) ||
		    cfg_strv_has(m->options, m->n_options, "noexec") ||
		    !(mount_is_bind(m) || (m->type && strcmp(m->type, "tmpfs") == 0)))
			continue;
		if (cfg_strv_add(&m->options, &m->n_options, "noexec", err) < 0)
			return -1;
		snprintf(field, sizeof(field), ".mounts[%zu].options", i);
		if (policy_adjusted(x, "strict-noexec", field, "(exec allowed)", "+noexec") < 0)
			return -1;
	}
	return 0;
}

/* strict: Landlock as a second wall under the mounts (linux/landlock_wall.h),
 * where the kernel has it; a note where it does not. */
static int landlock(struct policy_ctx *x)
{
	if (policy_optout(x, "landlock-off"))
		return 0;
	if (landlock_abi() < 1)
		return policy_note(x, ".linux",
		                   "Landlock: the kernel has none; strict runs on its "
		                   "mounts alone");
	x->cfg->linux->landlock = true;
	return policy_adjusted(x, "landlock", ".linux (ward)", "(none)",
	                       "Landlock: writes only beneath writable mounts, execution only "
	                       "from the root filesystem, abstract sockets and signals scoped");
}

int policy_adjustments(struct policy_ctx *x, struct werror *err)
{
	if (seccomp_default(x, err) < 0 || no_new_privs(x) < 0 ||
	    policy_caps_cap(x, x->cfg->process->capabilities, ".process.capabilities") < 0 ||
	    paths(x, err) < 0 || no_core(x, err) < 0 || new_netns(x, err) < 0 ||
	    dev_noexec(x, err) < 0 || cgroup_ro(x, err) < 0 || sysfs_ro(x, err) < 0 ||
	    policy_adjust_devices(x, err) < 0 || devices_default_deny(x, err) < 0)
		return -1;
	if (x->profile != PROFILE_STRICT)
		return limit_pids(x, policy_pids_limit(x->pol), false, "pids-default", err) < 0 ? -1
		                                                                                : 0;
	if (userns(x, err) < 0 || readonly_root(x) < 0 || nodev_root(x) < 0 ||
	    scratch_tmpfs(x, "/tmp", err) < 0 || scratch_tmpfs(x, "/run", err) < 0 ||
	    strict_limits(x, err) < 0 || strict_namespaces(x, err) < 0 ||
	    memfd_noexec(x, err) < 0 || strict_noexec(x, err) < 0 || landlock(x) < 0)
		return -1;
	return 0;
}
