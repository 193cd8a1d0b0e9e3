/* cgroup2 device rules: an eBPF device program. */
#ifndef WARD_CGROUP_BPFDEV_H
#define WARD_CGROUP_BPFDEV_H

#include "lib/error.h"

#include "cgroup/cg_files.h"

/* The eBPF device program, attached to the cgroup2 directory (replacing
 * the one a previous create/update attached). */
int cg2_devices(const struct cg_res *x, struct werror *err);

#endif
