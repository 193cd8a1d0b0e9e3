/* linux.resources → cgroup files. Each controller is served by the
 * hierarchy that has it: its v1 hierarchy on v1 and hybrid hosts, else
 * cgroup2 (pure v2 hosts, and controllers a hybrid host runs on its
 * unified hierarchy, such as hugetlb here). Device rules go to the v1
 * devices controller and, wherever there is a cgroup2 hierarchy, to an
 * eBPF device program as well. */
#include "cgroup/cgroup.h"
#include "cgroup/cg_files.h"
#include "cgroup/cg_driver.h"
#include "cgroup/cgroup_bpfdev.h"
#include "cgroup/cgroup_v1.h"
#include "cgroup/cgroup_v2.h"
#include "lib/error.h"
#include "lib/log.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool want_memory(const struct oci_resources *r)
{
	return r->memory != NULL;
}
static bool want_cpu(const struct oci_resources *r)
{
	const struct oci_cpu *c = r->cpu;

	return c && (c->has_shares || c->has_quota || c->has_period || c->has_burst ||
	             c->has_realtime_runtime || c->has_realtime_period || c->has_idle);
}
static bool want_cpuset(const struct oci_resources *r)
{
	return r->cpu && ((r->cpu->cpus && r->cpu->cpus[0]) || (r->cpu->mems && r->cpu->mems[0]));
}
static bool want_pids(const struct oci_resources *r)
{
	return r->pids != NULL;
}
static bool want_blkio(const struct oci_resources *r)
{
	return r->block_io != NULL;
}
static bool want_hugetlb(const struct oci_resources *r)
{
	return r->n_hugepage_limits > 0;
}
static bool want_net_cls(const struct oci_resources *r)
{
	return r->network && r->network->has_class_id;
}
static bool want_net_prio(const struct oci_resources *r)
{
	return r->network && r->network->n_priorities > 0;
}
static bool want_rdma(const struct oci_resources *r)
{
	return r->n_rdma > 0;
}

static const struct controller {
	const char *v1, *v2; /* controller names; v2 NULL: v1 only */
	const char *field;
	bool (*wanted)(const struct oci_resources *);
	int (*apply_v1)(const struct cg_res *, struct werror *err);
	int (*apply_v2)(const struct cg_res *, struct werror *err);
} controllers[] = {
    {"memory", "memory", "memory", want_memory, cg1_memory, cg2_memory},
    {"cpu", "cpu", "cpu", want_cpu, cg1_cpu, cg2_cpu},
    {"cpuset", "cpuset", "cpu.cpus/mems", want_cpuset, cg_cpuset, cg_cpuset},
    {"pids", "pids", "pids", want_pids, cg_pids, cg_pids},
    {"blkio", "io", "blockIO", want_blkio, cg1_blkio, cg2_io},
    {"hugetlb", "hugetlb", "hugepageLimits", want_hugetlb, cg1_hugetlb, cg2_hugetlb},
    {"net_cls", NULL, "network.classID", want_net_cls, cg1_net_cls, NULL},
    {"net_prio", NULL, "network.priorities", want_net_prio, cg1_net_prio, NULL},
    {"rdma", "rdma", "rdma", want_rdma, cg_rdma, cg_rdma},
};

static int apply_controller(const struct cgroup *cg, const struct controller *c, struct cg_res *x,
                            struct werror *err)
{
	bool v2;

	x->h = cg_controller(cg, c->v1, c->v2, &v2, err);
	if (x->h)
		return v2 ? c->apply_v2(x, err) : c->apply_v1(x, err);
	if (c->v2 == NULL && cg->layout == CG_V2)
		return werr(err, 0, "linux.resources.%s: cgroup2 has no %s controller", c->field,
		            c->v1);
	return werr(err, ENOENT, "linux.resources.%s: the %s cgroup controller is not available",
	            c->field, c->v1);
}

int cgroup_apply(const struct cgroup *cg, const struct oci_linux *l, struct werror *err)
{
	/* No resources at all still gets runc's default device rules. */
	static const struct oci_resources none;
	const struct oci_resources *r = l && l->resources ? l->resources : &none;
	struct cg_res x = {.r = r, .l = l};

	if (r->memory && (r->memory->has_kernel || r->memory->has_kernel_tcp) &&
	    cg_v1(cg, "memory") == NULL)
		log_warn("linux.resources.memory.kernel/kernelTCP ignored: cgroup2 accounts "
		         "kernel memory with memory");
	for (size_t i = 0; i < sizeof(controllers) / sizeof(controllers[0]); i++)
		if (controllers[i].wanted(r) && apply_controller(cg, &controllers[i], &x, err) < 0)
			return -1;
	if (r->n_unified) {
		if (!cg->unified)
			return werr(err, 0,
			            "linux.resources.unified: this host has no cgroup2 hierarchy");
		x.h = cg->unified;
		if (cg2_unified(&x, err) < 0)
			return -1;
	}
	if (!r->skip_devices) {
		const struct cg_hier *d1 = cg->layout == CG_V2 ? NULL : cg_v1(cg, "devices");

		if (d1 == NULL && !cg->unified)
			return werr(err, ENOENT,
			            "linux.resources.devices: no devices cgroup controller "
			            "and no cgroup2 hierarchy");
		if (d1 && (x.h = d1, cg1_devices(&x, err) < 0))
			return -1;
		if (cg->unified && (x.h = cg->unified, cg2_devices(&x, err) < 0))
			return -1;
	}
	return 0;
}

int cgroup_update(const struct cgroup *cg, const struct oci_linux *l, struct werror *err)
{
	if (cg_driver_of(cg)->set(cg, l, err) < 0)
		return -1;
	return cgroup_apply(cg, l, err);
}
