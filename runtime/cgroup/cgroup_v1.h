/* linux.resources → the files of the cgroup v1 controllers. */
#ifndef WARD_CGROUP_V1_H
#define WARD_CGROUP_V1_H

#include "lib/error.h"

#include "cgroup/cg_files.h"

int cg1_memory(const struct cg_res *x, struct werror *err);
int cg1_cpu(const struct cg_res *x, struct werror *err);
int cg1_blkio(const struct cg_res *x, struct werror *err);
int cg1_hugetlb(const struct cg_res *x, struct werror *err);
int cg1_net_cls(const struct cg_res *x, struct werror *err);
int cg1_net_prio(const struct cg_res *x, struct werror *err);
int cg1_devices(const struct cg_res *x, struct werror *err);

#endif
