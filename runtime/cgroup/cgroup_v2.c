/* linux.resources → cgroup2 files, with the runtime-spec's conversions
 * (config-linux.md; runc's and crun's documented mappings). */
#include "cgroup/cgroup_v2.h"
#include "lib/error.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

int cg2_memory(const struct cg_res *x, struct werror *err)
{
	const struct oci_memory *m = x->r->memory;

	if (m->has_swappiness)
		return werr(err, 0,
		            "linux.resources.memory.swappiness: cgroup2 has no per-cgroup "
		            "swappiness");
	if (m->disable_oom_killer)
		return werr(err, 0,
		            "linux.resources.memory.disableOOMKiller: cgroup2 cannot disable "
		            "the OOM killer of a cgroup");
	if (m->has_limit && cg_write_max(x, "memory.max", m->limit, err) < 0)
		return werr_ctx(err, "linux.resources.memory.limit");
	/* reservation is the soft guarantee: memory.low. */
	if (m->has_reservation && cg_write_max(x, "memory.low", m->reservation, err) < 0)
		return werr_ctx(err, "linux.resources.memory.reservation");
	/* swap.max is swap alone: OCI's memory+swap minus memory. */
	if (m->has_swap) {
		int64_t s = m->swap;

		if (s >= 0 && m->has_limit && m->limit >= 0) {
			if (s < m->limit)
				return werr(err, 0,
				            "linux.resources.memory.swap (%" PRId64
				            ") is memory+swap "
				            "and must not be below memory.limit (%" PRId64 ")",
				            s, m->limit);
			s -= m->limit;
		}
		if (cg_write_max(x, "memory.swap.max", s, err) < 0)
			return werr_ctx(err, "linux.resources.memory.swap");
	}
	return 0;
}

/* The runtime-spec's shares (2..262144) → cgroup2 weight (1..10000). */
uint64_t cg2_shares_to_weight(uint64_t shares)
{
	if (shares < 2)
		shares = 2;
	if (shares > 262144)
		shares = 262144;
	return 1 + ((shares - 2) * 9999) / 262142;
}

int cg2_cpu(const struct cg_res *x, struct werror *err)
{
	const struct oci_cpu *c = x->r->cpu;
	char buf[64];

	if (c->has_realtime_period || c->has_realtime_runtime)
		return werr(err, 0,
		            "linux.resources.cpu.realtimeRuntime/realtimePeriod: cgroup2 has no "
		            "real-time bandwidth control");
	if (c->has_shares &&
	    cg_write_i64(x, "cpu.weight", (int64_t)cg2_shares_to_weight(c->shares), err) < 0)
		return werr_ctx(err, "linux.resources.cpu.shares");
	if (c->has_quota || c->has_period) {
		uint64_t period = c->has_period ? c->period : 100000;

		if (c->has_quota && c->quota > 0)
			snprintf(buf, sizeof(buf), "%" PRId64 " %" PRIu64, c->quota, period);
		else
			snprintf(buf, sizeof(buf), "max %" PRIu64, period);
		if (cg_write(x->h, "cpu.max", buf, err) < 0)
			return werr_ctx(err, "linux.resources.cpu.quota");
	}
	if (c->has_burst && cg_write_i64(x, "cpu.max.burst", (int64_t)c->burst, err) < 0)
		return werr_ctx(err, "linux.resources.cpu.burst");
	if (c->has_idle && cg_write_i64(x, "cpu.idle", c->idle, err) < 0)
		return werr_ctx(err, "linux.resources.cpu.idle");
	return 0;
}

/* blkio weights (10..1000) → io.weight (1..10000), runc's mapping. */
uint64_t cg2_blkio_to_io_weight(uint32_t w)
{
	return 1 + ((uint64_t)w - 10) * 9999 / 990;
}

static int io_max(const struct cg_res *x, const struct oci_throttle_device *t, size_t n,
                  const char *key, const char *field, struct werror *err)
{
	char line[96];

	for (size_t i = 0; i < n; i++) {
		snprintf(line, sizeof(line), "%" PRId64 ":%" PRId64 " %s=%" PRIu64, t[i].major,
		         t[i].minor, key, t[i].rate);
		if (cg_write(x->h, "io.max", line, err) < 0)
			return werr_ctx(err, "linux.resources.blockIO.%s[%zu]", field, i);
	}
	return 0;
}

int cg2_io(const struct cg_res *x, struct werror *err)
{
	const struct oci_blockio *b = x->r->block_io;
	char line[96];

	if (b->has_leaf_weight)
		return werr(err, 0,
		            "linux.resources.blockIO.leafWeight: cgroup2 has no leaf weights");
	if (b->has_weight) {
		snprintf(line, sizeof(line), "default %" PRIu64, cg2_blkio_to_io_weight(b->weight));
		if (cg_write(x->h, "io.weight", line, err) < 0)
			return werr_ctx(err, "linux.resources.blockIO.weight");
	}
	for (size_t i = 0; i < b->n_weight_device; i++) {
		const struct oci_weight_device *w = &b->weight_device[i];

		if (w->has_leaf_weight)
			return werr(err, 0,
			            "linux.resources.blockIO.weightDevice[%zu].leafWeight: cgroup2 "
			            "has no leaf weights",
			            i);
		if (!w->has_weight)
			continue;
		snprintf(line, sizeof(line), "%" PRId64 ":%" PRId64 " %" PRIu64, w->major, w->minor,
		         cg2_blkio_to_io_weight(w->weight));
		if (cg_write(x->h, "io.weight", line, err) < 0)
			return werr_ctx(err, "linux.resources.blockIO.weightDevice[%zu]", i);
	}
	if (io_max(x, b->throttle_read_bps, b->n_throttle_read_bps, "rbps", "throttleReadBpsDevice",
	           err) < 0 ||
	    io_max(x, b->throttle_write_bps, b->n_throttle_write_bps, "wbps",
	           "throttleWriteBpsDevice", err) < 0 ||
	    io_max(x, b->throttle_read_iops, b->n_throttle_read_iops, "riops",
	           "throttleReadIOPSDevice", err) < 0 ||
	    io_max(x, b->throttle_write_iops, b->n_throttle_write_iops, "wiops",
	           "throttleWriteIOPSDevice", err) < 0)
		return -1;
	return 0;
}

int cg2_hugetlb(const struct cg_res *x, struct werror *err)
{
	return cg_hugetlb(x, "max", err);
}

/* Raw key/values, checked at parse time to be "<controller>.<file>". */
int cg2_unified(const struct cg_res *x, struct werror *err)
{
	for (size_t i = 0; i < x->r->n_unified; i++)
		if (cg_write(x->h, x->r->unified[i].key, x->r->unified[i].value, err) < 0) {
			/* On a v1 or hybrid host, a controller that is not on the
			 * cgroup2 hierarchy has no files there (runc refuses every
			 * unified key on such a host: "invalid configuration"). */
			if (werr_errno(err) == ENOENT)
				return werr(
				    err, 0,
				    "invalid configuration: linux.resources.unified.%s: no "
				    "such file in the container's cgroup2 cgroup (its "
				    "controller is not enabled there: on a v1 or hybrid host, "
				    "use the structured limits)",
				    x->r->unified[i].key);
			return werr_ctx(err, "linux.resources.unified.%s", x->r->unified[i].key);
		}
	return 0;
}
