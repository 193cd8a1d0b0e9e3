#ifndef WARD_CGROUP_STATS_H
#define WARD_CGROUP_STATS_H

#include <stdint.h>
#include <yajl/yajl_gen.h>

#include "cgroup/cgroup.h"

/* The "data" object of a runc stats event. */
int cgroup_stats_gen(const struct cgroup *cg, yajl_gen g);
/* How many processes the OOM killer took in the cgroup so far. */
uint64_t cgroup_oom_kills(const struct cgroup *cg);

#endif
