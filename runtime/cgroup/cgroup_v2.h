/* linux.resources → cgroup2 files. */
#ifndef WARD_CGROUP_V2_H
#define WARD_CGROUP_V2_H

#include "cgroup/cg_files.h"

int cg2_memory(const struct cg_res *x);
int cg2_cpu(const struct cg_res *x);
int cg2_io(const struct cg_res *x);
int cg2_hugetlb(const struct cg_res *x);
int cg2_unified(const struct cg_res *x);

#endif
