/* linux.resources → cgroup files. v1 and hybrid hosts: the v1 controllers;
 * pure v2 hosts: cgroup2, with the runtime-spec's documented conversions
 * (shares → weight). What is not implemented yet is refused by name. */
#include "cgroup.h"
#include "error.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define NOT_YET(what) werr(0, "config.json: .linux.resources.%s is not supported by ward yet", what)

static int unsupported(const struct oci_resources *r, bool v2)
{
	if (r->block_io)
		return NOT_YET("blockIO");
	if (r->n_hugepage_limits)
		return NOT_YET("hugepageLimits");
	if (r->network)
		return NOT_YET("network");
	if (r->n_rdma)
		return NOT_YET("rdma");
	if (r->n_unified)
		return NOT_YET("unified");
	if (r->memory && (r->memory->has_kernel || r->memory->has_kernel_tcp))
		return NOT_YET("memory.kernel (deprecated by the kernel)");
	if (r->cpu && (r->cpu->has_burst || (!v2 && r->cpu->has_idle)))
		return NOT_YET("cpu.burst/idle");
	if (v2 && r->n_devices)
		return NOT_YET("devices on cgroup2 (eBPF device programs)");
	if (v2 && r->memory && r->memory->has_swappiness)
		return werr(0, "config.json: .linux.resources.memory.swappiness: cgroup2 has no "
		               "per-cgroup swappiness");
	return 0;
}

static int w64(const char *dir, const char *path, const char *file, int64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	return cg_write(dir, path, file, buf);
}

static const char *need(const struct cgroup *cg, const char *controller)
{
	const char *d = cg_v1_dir(cg, controller);

	if (d == NULL)
		werr(ENOENT, "the %s cgroup controller is not mounted", controller);
	return d;
}

/* What every container gets on top of its rules (as runc does): the
 * default /dev nodes, and its own linux.devices. */
static const char *const default_allowed[] = {"c 1:3 rwm",   "c 1:5 rwm", "c 1:7 rwm", "c 1:8 rwm",
                                              "c 1:9 rwm",   "c 5:0 rwm", "c 5:1 rwm", "c 5:2 rwm",
                                              "c 136:* rwm", NULL};

static int v1_devices(const struct cgroup *cg, const struct oci_resources *r,
                      const struct oci_linux *l)
{
	const char *d = need(cg, "devices");

	if (d == NULL)
		return -1;
	for (size_t i = 0; i < r->n_devices; i++) {
		const struct oci_device_rule *x = &r->devices[i];
		char rule[96], maj[24] = "*", min[24] = "*";
		const char *type = x->type ? x->type : "a";

		if (x->has_major && x->major >= 0)
			snprintf(maj, sizeof(maj), "%" PRId64, x->major);
		if (x->has_minor && x->minor >= 0)
			snprintf(min, sizeof(min), "%" PRId64, x->minor);
		if (strcmp(type, "a") == 0)
			snprintf(rule, sizeof(rule), "a");
		else
			snprintf(rule, sizeof(rule), "%s %s:%s %s", type, maj, min,
			         x->access && x->access[0] ? x->access : "rwm");
		if (cg_write(d, cg->path, x->allow ? "devices.allow" : "devices.deny", rule) < 0)
			return werr_ctx("linux.resources.devices[%zu]", i);
	}
	for (size_t i = 0; default_allowed[i]; i++)
		if (cg_write(d, cg->path, "devices.allow", default_allowed[i]) < 0)
			return -1;
	for (size_t i = 0; l && i < l->n_devices; i++) {
		const struct oci_device *dev = &l->devices[i];
		char rule[64];

		if (dev->type[0] == 'p')
			continue;
		snprintf(rule, sizeof(rule), "%c %" PRId64 ":%" PRId64 " rwm",
		         dev->type[0] == 'u' ? 'c' : dev->type[0], dev->major, dev->minor);
		if (cg_write(d, cg->path, "devices.allow", rule) < 0)
			return werr_ctx("linux.devices[%zu]", i);
	}
	return 0;
}

static int v1_apply(const struct cgroup *cg, const struct oci_resources *r,
                    const struct oci_linux *l)
{
	const char *d;

	if (r->memory) {
		const struct oci_memory *m = r->memory;

		if ((d = need(cg, "memory")) == NULL)
			return -1;
		if (m->has_limit && w64(d, cg->path, "memory.limit_in_bytes", m->limit) < 0)
			return werr_ctx("linux.resources.memory.limit");
		/* OCI swap is memory+swap, as memsw in v1. */
		if (m->has_swap && w64(d, cg->path, "memory.memsw.limit_in_bytes", m->swap) < 0)
			return werr_ctx("linux.resources.memory.swap");
		if (m->has_reservation &&
		    w64(d, cg->path, "memory.soft_limit_in_bytes", m->reservation) < 0)
			return werr_ctx("linux.resources.memory.reservation");
		if (m->has_swappiness &&
		    w64(d, cg->path, "memory.swappiness", (int64_t)m->swappiness) < 0)
			return werr_ctx("linux.resources.memory.swappiness");
		if (m->disable_oom_killer && cg_write(d, cg->path, "memory.oom_control", "1") < 0)
			return werr_ctx("linux.resources.memory.disableOOMKiller");
	}
	if (r->pids) {
		if ((d = need(cg, "pids")) == NULL)
			return -1;
		if (r->pids->limit > 0 ? w64(d, cg->path, "pids.max", r->pids->limit) < 0
		                       : cg_write(d, cg->path, "pids.max", "max") < 0)
			return werr_ctx("linux.resources.pids.limit");
	}
	if (r->cpu) {
		const struct oci_cpu *c = r->cpu;

		if (c->has_shares || c->has_quota || c->has_period || c->has_realtime_runtime ||
		    c->has_realtime_period) {
			const char *cd = need(cg, "cpu");

			if (cd == NULL)
				return -1;
			if (c->has_shares &&
			    w64(cd, cg->path, "cpu.shares", (int64_t)c->shares) < 0)
				return werr_ctx("linux.resources.cpu.shares");
			if (c->has_period &&
			    w64(cd, cg->path, "cpu.cfs_period_us", (int64_t)c->period) < 0)
				return werr_ctx("linux.resources.cpu.period");
			if (c->has_quota && w64(cd, cg->path, "cpu.cfs_quota_us", c->quota) < 0)
				return werr_ctx("linux.resources.cpu.quota");
			if (c->has_realtime_period &&
			    w64(cd, cg->path, "cpu.rt_period_us", (int64_t)c->realtime_period) < 0)
				return werr_ctx("linux.resources.cpu.realtimePeriod");
			if (c->has_realtime_runtime &&
			    w64(cd, cg->path, "cpu.rt_runtime_us", c->realtime_runtime) < 0)
				return werr_ctx("linux.resources.cpu.realtimeRuntime");
		}
		if ((c->cpus && c->cpus[0]) || (c->mems && c->mems[0])) {
			if ((d = need(cg, "cpuset")) == NULL)
				return -1;
			if (c->cpus && c->cpus[0] &&
			    cg_write(d, cg->path, "cpuset.cpus", c->cpus) < 0)
				return werr_ctx("linux.resources.cpu.cpus");
			if (c->mems && c->mems[0] &&
			    cg_write(d, cg->path, "cpuset.mems", c->mems) < 0)
				return werr_ctx("linux.resources.cpu.mems");
		}
	}
	return r->n_devices ? v1_devices(cg, r, l) : 0;
}

/* The runtime-spec's shares (2..262144) → cgroup2 weight (1..10000). */
static uint64_t shares_to_weight(uint64_t shares)
{
	if (shares < 2)
		shares = 2;
	if (shares > 262144)
		shares = 262144;
	return 1 + ((shares - 2) * 9999) / 262142;
}

static int v2_apply(const struct cgroup *cg, const struct oci_resources *r)
{
	const char *d = cg->unified;
	char buf[64];

	if (r->memory) {
		const struct oci_memory *m = r->memory;

		if (m->has_limit && (m->limit < 0 ? cg_write(d, cg->path, "memory.max", "max")
		                                  : w64(d, cg->path, "memory.max", m->limit)) < 0)
			return werr_ctx("linux.resources.memory.limit");
		if (m->has_reservation && w64(d, cg->path, "memory.low", m->reservation) < 0)
			return werr_ctx("linux.resources.memory.reservation");
		/* v2's swap.max is swap alone: OCI's memory+swap minus memory. */
		if (m->has_swap) {
			int64_t s = m->swap < 0                     ? -1
			            : m->has_limit && m->limit >= 0 ? m->swap - m->limit
			                                            : m->swap;

			if ((s < 0 ? cg_write(d, cg->path, "memory.swap.max", "max")
			           : w64(d, cg->path, "memory.swap.max", s)) < 0)
				return werr_ctx("linux.resources.memory.swap");
		}
	}
	if (r->pids && (r->pids->limit > 0 ? w64(d, cg->path, "pids.max", r->pids->limit)
	                                   : cg_write(d, cg->path, "pids.max", "max")) < 0)
		return werr_ctx("linux.resources.pids.limit");
	if (r->cpu) {
		const struct oci_cpu *c = r->cpu;

		if (c->has_shares &&
		    w64(d, cg->path, "cpu.weight", (int64_t)shares_to_weight(c->shares)) < 0)
			return werr_ctx("linux.resources.cpu.shares");
		if (c->has_quota || c->has_period) {
			uint64_t period = c->has_period ? c->period : 100000;

			if (c->has_quota && c->quota > 0)
				snprintf(buf, sizeof(buf), "%" PRId64 " %" PRIu64, c->quota,
				         period);
			else
				snprintf(buf, sizeof(buf), "max %" PRIu64, period);
			if (cg_write(d, cg->path, "cpu.max", buf) < 0)
				return werr_ctx("linux.resources.cpu.quota");
		}
		if (c->has_idle && w64(d, cg->path, "cpu.idle", c->idle) < 0)
			return werr_ctx("linux.resources.cpu.idle");
		if (c->cpus && c->cpus[0] && cg_write(d, cg->path, "cpuset.cpus", c->cpus) < 0)
			return werr_ctx("linux.resources.cpu.cpus");
		if (c->mems && c->mems[0] && cg_write(d, cg->path, "cpuset.mems", c->mems) < 0)
			return werr_ctx("linux.resources.cpu.mems");
	}
	return 0;
}

int cgroup_apply(const struct cgroup *cg, const struct oci_linux *l)
{
	const struct oci_resources *r = l ? l->resources : NULL;
	bool v2 = cg->layout == CG_V2;

	if (r == NULL)
		return 0;
	if (unsupported(r, v2) < 0)
		return -1;
	return v2 ? v2_apply(cg, r) : v1_apply(cg, r, l);
}
