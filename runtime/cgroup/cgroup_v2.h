/* linux.resources → cgroup2 files. */
#ifndef WARD_CGROUP_V2_H
#define WARD_CGROUP_V2_H

#include "lib/error.h"

#include "cgroup/cg_files.h"

#include <stdint.h>

int cg2_memory(const struct cg_res *x, struct werror *err);
int cg2_cpu(const struct cg_res *x, struct werror *err);
int cg2_io(const struct cg_res *x, struct werror *err);
int cg2_hugetlb(const struct cg_res *x, struct werror *err);
int cg2_unified(const struct cg_res *x, struct werror *err);
/* The runtime-spec's cpu shares (2..262144) as a cgroup2 weight (1..10000),
 * and blkio weights (10..1000) as io weights (1..10000): the mappings runc
 * and crun use, also for systemd's CPUWeight and IOWeight. */
uint64_t cg2_shares_to_weight(uint64_t shares);
uint64_t cg2_blkio_to_io_weight(uint32_t w);

#endif
