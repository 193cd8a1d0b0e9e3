/* linux.resources → cgroup files. Each controller is served by the
 * hierarchy that has it: its v1 hierarchy on v1 and hybrid hosts, else
 * cgroup2 (pure v2 hosts, and controllers a hybrid host runs on its
 * unified hierarchy, such as hugetlb here). Device rules go to the v1
 * devices controller and, wherever there is a cgroup2 hierarchy, to an
 * eBPF device program as well. */
#include "cgroup/cgroup_res.h"
#include "lib/error.h"
#include "lib/log.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cg_write_i64(const struct cg_res *x, const char *file, int64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	return cg_write(x->dir, x->path, file, buf);
}

int cg_write_max(const struct cg_res *x, const char *file, int64_t v)
{
	return v < 0 ? cg_write(x->dir, x->path, file, "max") : cg_write_i64(x, file, v);
}

static unsigned access_bits(const char *a)
{
	unsigned b = 0;

	if (a == NULL || a[0] == '\0')
		return CG_DEV_READ | CG_DEV_WRITE | CG_DEV_MKNOD;
	for (; *a; a++)
		b |= *a == 'r' ? CG_DEV_READ : *a == 'w' ? CG_DEV_WRITE : CG_DEV_MKNOD;
	return b;
}

/* What every container gets on top of its rules (as runc does): null,
 * zero, full, random, urandom, tty, console, ptmx and the pty slaves. */
static const struct {
	int64_t major, minor;
} default_allowed[] = {{1, 3}, {1, 5}, {1, 7}, {1, 8}, {1, 9}, {5, 0}, {5, 1}, {5, 2}, {136, -1}};

int cg_device_rules(const struct oci_resources *r, const struct oci_linux *l,
                    struct cg_dev_rule **out, size_t *n)
{
	size_t nd = sizeof(default_allowed) / sizeof(default_allowed[0]);
	size_t max = r->n_devices + nd + (l ? l->n_devices : 0), k = 0;
	struct cg_dev_rule *v = calloc(max ? max : 1, sizeof(*v));

	if (v == NULL)
		return werr(ENOMEM, "out of memory");
	for (size_t i = 0; i < r->n_devices; i++) {
		const struct oci_device_rule *d = &r->devices[i];

		v[k++] = (struct cg_dev_rule){
		    .allow = d->allow,
		    .type = d->type ? d->type[0] : 'a',
		    .major = d->has_major ? d->major : -1,
		    .minor = d->has_minor ? d->minor : -1,
		    .access = access_bits(d->access),
		    .field = "linux.resources.devices",
		    .index = i,
		};
		if (v[k - 1].major < -1 || v[k - 1].minor < -1)
			v[k - 1].major = v[k - 1].minor = -1; /* negative = wildcard */
	}
	for (size_t i = 0; i < nd; i++)
		v[k++] = (struct cg_dev_rule){true,
		                              'c',
		                              default_allowed[i].major,
		                              default_allowed[i].minor,
		                              CG_DEV_READ | CG_DEV_WRITE | CG_DEV_MKNOD,
		                              "default device",
		                              i};
	for (size_t i = 0; l && i < l->n_devices; i++) {
		const struct oci_device *dev = &l->devices[i];

		if (dev->type[0] == 'p')
			continue;
		v[k++] = (struct cg_dev_rule){
		    true,       dev->type[0] == 'u' ? 'c' : dev->type[0],  dev->major,
		    dev->minor, CG_DEV_READ | CG_DEV_WRITE | CG_DEV_MKNOD, "linux.devices",
		    i};
	}
	*out = v;
	*n = k;
	return 0;
}

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
	int (*apply_v1)(const struct cg_res *);
	int (*apply_v2)(const struct cg_res *);
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

static int apply_controller(const struct cgroup *cg, const struct controller *c, struct cg_res *x)
{
	bool v2;

	x->dir = cg_controller_dir(cg, c->v1, c->v2, &v2);
	if (x->dir)
		return v2 ? c->apply_v2(x) : c->apply_v1(x);
	if (c->v2 == NULL && cg->layout == CG_V2)
		return werr(0, "linux.resources.%s: cgroup2 has no %s controller", c->field, c->v1);
	return werr(ENOENT, "linux.resources.%s: the %s cgroup controller is not available",
	            c->field, c->v1);
}

int cgroup_apply(const struct cgroup *cg, const struct oci_linux *l)
{
	const struct oci_resources *r = l ? l->resources : NULL;
	struct cg_res x = {.path = cg->path, .r = r, .l = l};

	if (r == NULL)
		return 0;
	if (r->memory && (r->memory->has_kernel || r->memory->has_kernel_tcp))
		log_warn("linux.resources.memory.kernel/kernelTCP ignored: kernel memory limits "
		         "are deprecated by Linux (5.16) and accounted with memory");
	for (size_t i = 0; i < sizeof(controllers) / sizeof(controllers[0]); i++)
		if (controllers[i].wanted(r) && apply_controller(cg, &controllers[i], &x) < 0)
			return -1;
	if (r->n_unified) {
		if (!cg->unified[0])
			return werr(0,
			            "linux.resources.unified: this host has no cgroup2 hierarchy");
		x.dir = cg->unified;
		if (cg2_unified(&x) < 0)
			return -1;
	}
	if (r->n_devices) {
		const char *d1 = cg->layout == CG_V2 ? NULL : cg_v1_dir(cg, "devices");

		if (d1 == NULL && !cg->unified[0])
			return werr(ENOENT, "linux.resources.devices: no devices cgroup controller "
			                    "and no cgroup2 hierarchy");
		if (d1 && (x.dir = d1, cg1_devices(&x) < 0))
			return -1;
		if (cg->unified[0] && (x.dir = cg->unified, cg2_devices(&x) < 0))
			return -1;
	}
	return 0;
}
