/* linux.resources → the files of the cgroup v1 controllers. */
#include "cgroup/cgroup_v1.h"
#include "cgroup/dev_rules.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "lib/log.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define W(file, v, field)                                                                          \
	do {                                                                                       \
		if (cg_write_i64(x, file, (int64_t)(v), err) < 0)                                  \
			return werr_ctx(err, "linux.resources.%s", field);                         \
	} while (0)

/* Two files the kernel checks against each other (memory <= memory+swap; a
 * CFS quota within the parent's bandwidth for the period; an RT runtime
 * within its period): written in this order, and when the first is refused
 * (EINVAL) while the second is to be written too, the other way round - which
 * order works depends on whether the values go up or down (as runc does,
 * e.g. memory -1 with a limited memsw, a shorter period inside a pod). */
static int write_pair(const struct cg_res *x, const char *f1, bool has1, int64_t v1,
                      const char *field1, const char *f2, bool has2, int64_t v2, const char *field2,
                      struct werror *err)
{
	if (has1 && cg_write_i64(x, f1, v1, err) < 0) {
		if (!has2 || werr_errno(err) != EINVAL)
			return werr_ctx(err, "linux.resources.%s", field1);
		W(f2, v2, field2);
		W(f1, v1, field1);
		return 0;
	}
	if (has2)
		W(f2, v2, field2);
	return 0;
}

int cg1_memory(const struct cg_res *x, struct werror *err)
{
	const struct oci_memory *m = x->r->memory;

	bool has_swap = m->has_swap;
	int64_t swap = m->swap;

	/* As runc: memory -1 without a swap value lifts memory+swap too (a
	 * limited memsw cannot stay below an unlimited memory), where the
	 * kernel accounts swap at all. */
	if (m->has_limit && m->limit == -1 && !has_swap) {
		_cleanup_close_ int fd = cg_open(x->h, "memory.memsw.limit_in_bytes", O_RDONLY);

		if (fd >= 0) {
			has_swap = true;
			swap = -1;
		}
	}
	/* OCI swap is memory+swap, as memsw in v1. */
	if (write_pair(x, "memory.limit_in_bytes", m->has_limit, m->limit, "memory.limit",
	               "memory.memsw.limit_in_bytes", has_swap, swap, "memory.swap", err) < 0)
		return -1;
	if (m->has_reservation)
		W("memory.soft_limit_in_bytes", m->reservation, "memory.reservation");
	/* Kernel memory: written where the kernel still has the files (the
	 * kmem limit is accepted and ignored since 5.16; the TCP one works). */
	if (m->has_kernel && cg_write_i64(x, "memory.kmem.limit_in_bytes", m->kernel, err) < 0)
		log_warn("linux.resources.memory.kernel ignored: %s", werr_msg(err));
	if (m->has_kernel_tcp)
		W("memory.kmem.tcp.limit_in_bytes", m->kernel_tcp, "memory.kernelTCP");
	if (m->has_swappiness)
		W("memory.swappiness", m->swappiness, "memory.swappiness");
	if (m->disable_oom_killer)
		W("memory.oom_control", 1, "memory.disableOOMKiller");
	/* Hierarchical accounting is always on since Linux 5.x; only asking
	 * for it off can fail, and then it should. */
	if (m->use_hierarchy)
		W("memory.use_hierarchy", 1, "memory.useHierarchy");
	return 0;
}

int cg1_cpu(const struct cg_res *x, struct werror *err)
{
	const struct oci_cpu *c = x->r->cpu;

	if (c->has_shares)
		W("cpu.shares", c->shares, "cpu.shares");
	if (write_pair(x, "cpu.cfs_period_us", c->has_period, (int64_t)c->period, "cpu.period",
	               "cpu.cfs_quota_us", c->has_quota, c->quota, "cpu.quota", err) < 0)
		return -1;
	if (c->has_burst)
		W("cpu.cfs_burst_us", c->burst, "cpu.burst");
	if (write_pair(x, "cpu.rt_period_us", c->has_realtime_period, (int64_t)c->realtime_period,
	               "cpu.realtimePeriod", "cpu.rt_runtime_us", c->has_realtime_runtime,
	               c->realtime_runtime, "cpu.realtimeRuntime", err) < 0)
		return -1;
	if (c->has_idle)
		W("cpu.idle", c->idle, "cpu.idle");
	return 0;
}

/* "maj:min value" lines, one write each (the kernel takes one per write). */
static int dev_lines(const struct cg_res *x, const char *file, const struct oci_throttle_device *t,
                     size_t n, const char *field, struct werror *err)
{
	char line[96];

	for (size_t i = 0; i < n; i++) {
		snprintf(line, sizeof(line), "%" PRId64 ":%" PRId64 " %" PRIu64, t[i].major,
		         t[i].minor, t[i].rate);
		if (cg_write(x->h, file, line, err) < 0)
			return werr_ctx(err, "linux.resources.blockIO.%s[%zu]", field, i);
	}
	return 0;
}

/* Weights: CFQ's blkio.weight, or BFQ's blkio.bfq.weight on kernels
 * without CFQ (removed in 5.0), as runc does. With neither (no BFQ
 * scheduler loaded), the host cannot weigh I/O: say that, not ENOENT. */
static int weight_file(const struct cg_res *x, const char *cfq, const char *bfq, const char **f,
                       struct werror *err)
{
	/* An unopened hierarchy: the write reports its own error. */
	if (x->h->fd < 0 || faccessat(x->h->fd, cfq, F_OK, 0) == 0)
		*f = cfq;
	else if (faccessat(x->h->fd, bfq, F_OK, 0) == 0)
		*f = bfq;
	else
		return werr(err, 0,
		            "the host's block I/O scheduler takes no weights (neither %s nor %s: "
		            "BFQ is not in use)",
		            cfq, bfq);
	return 0;
}

int cg1_blkio(const struct cg_res *x, struct werror *err)
{
	const struct oci_blockio *b = x->r->block_io;
	const char *f;

	if (b->has_weight && (weight_file(x, "blkio.weight", "blkio.bfq.weight", &f, err) < 0 ||
	                      cg_write_i64(x, f, b->weight, err) < 0))
		return werr_ctx(err, "linux.resources.blockIO.weight");
	if (b->has_leaf_weight && cg_write_i64(x, "blkio.leaf_weight", b->leaf_weight, err) < 0)
		return werr_ctx(err, "linux.resources.blockIO.leafWeight");
	for (size_t i = 0; i < b->n_weight_device; i++) {
		const struct oci_weight_device *w = &b->weight_device[i];
		char line[96];

		if (w->has_weight) {
			snprintf(line, sizeof(line), "%" PRId64 ":%" PRId64 " %u", w->major,
			         w->minor, w->weight);
			if (weight_file(x, "blkio.weight_device", "blkio.bfq.weight_device", &f,
			                err) < 0 ||
			    cg_write(x->h, f, line, err) < 0)
				return werr_ctx(err, "linux.resources.blockIO.weightDevice[%zu]",
				                i);
		}
		if (w->has_leaf_weight) {
			snprintf(line, sizeof(line), "%" PRId64 ":%" PRId64 " %u", w->major,
			         w->minor, w->leaf_weight);
			if (cg_write(x->h, "blkio.leaf_weight_device", line, err) < 0)
				return werr_ctx(err, "linux.resources.blockIO.weightDevice[%zu]",
				                i);
		}
	}
	if (dev_lines(x, "blkio.throttle.read_bps_device", b->throttle_read_bps,
	              b->n_throttle_read_bps, "throttleReadBpsDevice", err) < 0 ||
	    dev_lines(x, "blkio.throttle.write_bps_device", b->throttle_write_bps,
	              b->n_throttle_write_bps, "throttleWriteBpsDevice", err) < 0 ||
	    dev_lines(x, "blkio.throttle.read_iops_device", b->throttle_read_iops,
	              b->n_throttle_read_iops, "throttleReadIOPSDevice", err) < 0 ||
	    dev_lines(x, "blkio.throttle.write_iops_device", b->throttle_write_iops,
	              b->n_throttle_write_iops, "throttleWriteIOPSDevice", err) < 0)
		return -1;
	return 0;
}

int cg1_hugetlb(const struct cg_res *x, struct werror *err)
{
	return cg_hugetlb(x, "limit_in_bytes", err);
}

int cg1_net_cls(const struct cg_res *x, struct werror *err)
{
	if (cg_write_i64(x, "net_cls.classid", x->r->network->class_id, err) < 0)
		return werr_ctx(err, "linux.resources.network.classID");
	return 0;
}

int cg1_net_prio(const struct cg_res *x, struct werror *err)
{
	const struct oci_network *n = x->r->network;

	for (size_t i = 0; i < n->n_priorities; i++) {
		char line[128];

		snprintf(line, sizeof(line), "%s %u", n->priorities[i].name,
		         n->priorities[i].priority);
		if (cg_write(x->h, "net_prio.ifpriomap", line, err) < 0)
			return werr_ctx(err, "linux.resources.network.priorities[%zu]", i);
	}
	return 0;
}

int cg1_devices(const struct cg_res *x, struct werror *err)
{
	struct cg_dev_rule *rules = NULL;
	size_t n = 0;
	int r = 0;

	if (cg_device_rules(x->r, x->l, &rules, &n, err) < 0)
		return -1;
	for (size_t i = 0; r == 0 && i < n; i++) {
		const struct cg_dev_rule *d = &rules[i];
		char line[96], maj[24] = "*", min[24] = "*";

		if (d->major >= 0)
			snprintf(maj, sizeof(maj), "%" PRId64, d->major);
		if (d->minor >= 0)
			snprintf(min, sizeof(min), "%" PRId64, d->minor);
		if (d->type == 'a')
			snprintf(line, sizeof(line), "a");
		else
			snprintf(line, sizeof(line), "%c %s:%s %s%s%s", d->type, maj, min,
			         d->access & CG_DEV_READ ? "r" : "",
			         d->access & CG_DEV_WRITE ? "w" : "",
			         d->access & CG_DEV_MKNOD ? "m" : "");
		r = cg_write(x->h, d->allow ? "devices.allow" : "devices.deny", line, err);
		/* v1 never lets a cgroup allow what its parent denies (EPERM): a
		 * default the parent keeps out stays out, which is stricter. */
		if (r < 0 && d->allow && d->is_default && werr_errno(err) == EPERM) {
			log_debug("cgroup devices: %s stays denied (the parent cgroup denies it)",
			          line);
			werr_clear(err);
			r = 0;
		}
		if (r < 0)
			werr_ctx(err, "%s[%zu]", d->field, d->index);
	}
	free(rules);
	return r;
}
