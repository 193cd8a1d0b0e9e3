/* Shared by the resource writers: cgroup_v1.c, cgroup_v2.c, cgroup_bpfdev.c
 * and the dispatcher in cgroup_res.c. */
#ifndef WARD_CGROUP_RES_H
#define WARD_CGROUP_RES_H

#include "cgroup/cgroup.h"

#include <stdint.h>

/* What a writer gets: the hierarchy serving its controller, the cgroup
 * path inside it, and the resources (plus linux.devices for the device
 * rules every container needs). */
struct cg_res {
	const char *dir;
	const char *path;
	const struct oci_resources *r;
	const struct oci_linux *l;
};

#define CG_DEV_READ  1u
#define CG_DEV_WRITE 2u
#define CG_DEV_MKNOD 4u

/* One device rule, in the order of evaluation: later rules win. */
struct cg_dev_rule {
	bool allow;
	char type;            /* 'a', 'c' or 'b' */
	int64_t major, minor; /* -1: any */
	unsigned access;      /* CG_DEV_* bits */
	const char *field;    /* where it came from, for errors */
	size_t index;
};

/* linux.resources.devices, then the default /dev nodes, then
 * linux.devices: the full list (the caller frees *out). */
int cg_device_rules(const struct oci_resources *r, const struct oci_linux *l,
                    struct cg_dev_rule **out, size_t *n);

int cg_write_i64(const struct cg_res *x, const char *file, int64_t v);
/* "max" for a negative value (cgroup2's "no limit"). */
int cg_write_max(const struct cg_res *x, const char *file, int64_t v);

/* Files that read the same on v1 and v2. */
int cg_cpuset(const struct cg_res *x);
int cg_pids(const struct cg_res *x);
int cg_rdma(const struct cg_res *x);
int cg_hugetlb(const struct cg_res *x, const char *suffix);

/* v1 writers (files of the v1 controllers). */
int cg1_memory(const struct cg_res *x);
int cg1_cpu(const struct cg_res *x);
int cg1_blkio(const struct cg_res *x);
int cg1_hugetlb(const struct cg_res *x);
int cg1_net_cls(const struct cg_res *x);
int cg1_net_prio(const struct cg_res *x);
int cg1_devices(const struct cg_res *x);

/* cgroup2 writers. */
int cg2_memory(const struct cg_res *x);
int cg2_cpu(const struct cg_res *x);
int cg2_io(const struct cg_res *x);
int cg2_hugetlb(const struct cg_res *x);
int cg2_unified(const struct cg_res *x);
/* The eBPF device program, attached to the cgroup2 directory (replacing
 * the one a previous create/update attached). */
int cg2_devices(const struct cg_res *x);

#endif
