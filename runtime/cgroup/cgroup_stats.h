#ifndef WARD_CGROUP_STATS_H
#define WARD_CGROUP_STATS_H

#include "lib/error.h"

#include <stdint.h>
#include <yajl/yajl_gen.h>

#include "cgroup/cgroup.h"

/* The "data" object of a runc stats event. */
int cgroup_stats_gen(const struct cgroup *cg, yajl_gen g, struct werror *err);
/* How many processes the OOM killer took in the cgroup so far. */
uint64_t cgroup_oom_kills(const struct cgroup *cg, struct werror *err);

/* What a run used, for the run report (issue #14). */
struct cg_figures {
	uint64_t cpu_user_us, cpu_system_us;
	uint64_t memory_peak; /* bytes: memory.peak (v2), max_usage_in_bytes (v1) */
	uint64_t oom_kills;
	uint64_t pids_max_hits; /* forks refused by pids.max (pids.events "max") */
	/* The limits in force, read back from the cgroup (0: none). */
	uint64_t memory_limit, pids_limit, cpu_quota_us, cpu_period_us;
};
void cgroup_figures(const struct cgroup *cg, struct cg_figures *f, struct werror *err);

#endif
