/* Resource figures of a container's cgroup, as runc's `events` prints them
 * (cpu, memory, pids, blkio, hugetlb), read from v1 or v2 files wherever
 * the host runs each controller. */
#include "cgroup/cgroup_stats.h"
#include "cgroup/cg_files.h"
#include "lib/error.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define S(g, s) yajl_gen_string((g), (const unsigned char *)(s), strlen(s))

static int read_file(const struct cg_hier *h, const char *file, char *buf, size_t len,
                     struct werror *err)
{
	return h ? cg_read(h, file, buf, len, err) : -1;
}

/* A single number; "max" reads as 0 (unlimited). */
static uint64_t num(const struct cg_hier *h, const char *file, struct werror *err)
{
	char buf[64];

	if (read_file(h, file, buf, sizeof(buf), err) < 0 || strncmp(buf, "max", 3) == 0)
		return 0;
	return strtoull(buf, NULL, 10);
}

/* "key value" lines (cpu.stat, memory.stat, memory.events, ...). */
static uint64_t keyed(const struct cg_hier *h, const char *file, const char *key,
                      struct werror *err)
{
	char buf[8192];
	size_t klen = strlen(key);

	if (read_file(h, file, buf, sizeof(buf), err) < 0)
		return 0;
	for (char *l = buf; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (strncmp(l, key, klen) == 0 && l[klen] == ' ')
			return strtoull(l + klen + 1, NULL, 10);
	return 0;
}

static void gen_u64(yajl_gen g, const char *k, uint64_t v)
{
	char buf[32];

	S(g, k);
	yajl_gen_number(g, buf, (size_t)snprintf(buf, sizeof(buf), "%" PRIu64, v));
}

static void gen_raw(yajl_gen g, const struct cg_hier *h, const char *file, struct werror *err)
{
	char buf[8192];

	S(g, "raw");
	yajl_gen_map_open(g);
	if (read_file(h, file, buf, sizeof(buf), err) == 0)
		for (char *save = NULL, *l = strtok_r(buf, "\n", &save); l;
		     l = strtok_r(NULL, "\n", &save)) {
			char *sp = strchr(l, ' ');

			if (sp == NULL)
				continue;
			*sp = '\0';
			gen_u64(g, l, strtoull(sp + 1, NULL, 10));
		}
	yajl_gen_map_close(g);
}

uint64_t cgroup_oom_kills(const struct cgroup *cg, struct werror *err)
{
	if (cg->layout == CG_V2)
		return keyed(cg->unified, "memory.events", "oom_kill", err);
	return keyed(cg_v1(cg, "memory"), "memory.oom_control", "oom_kill", err);
}

static void blkio_entry(yajl_gen g, const char *devno, const char *op, uint64_t v)
{
	unsigned maj = 0, min = 0;

	if (sscanf(devno, "%u:%u", &maj, &min) != 2)
		return;
	yajl_gen_map_open(g);
	gen_u64(g, "major", maj);
	gen_u64(g, "minor", min);
	S(g, "op");
	S(g, op);
	gen_u64(g, "value", v);
	yajl_gen_map_close(g);
}

/* v1 "8:0 Read 123" lines ("Total N" skipped). */
static void blkio_v1(yajl_gen g, const struct cg_hier *h, const char *file, struct werror *err)
{
	char buf[65536];

	yajl_gen_array_open(g);
	if (read_file(h, file, buf, sizeof(buf), err) == 0)
		for (char *save = NULL, *l = strtok_r(buf, "\n", &save); l;
		     l = strtok_r(NULL, "\n", &save)) {
			char dev[32], op[16];
			unsigned long long v;

			if (sscanf(l, "%31s %15s %llu", dev, op, &v) == 3)
				blkio_entry(g, dev, op, v);
		}
	yajl_gen_array_close(g);
}

/* v2 io.stat "8:0 rbytes=1 wbytes=2 rios=3 wios=4 ..." as runc maps it. */
static void blkio_v2(yajl_gen g, const struct cg_hier *h, bool bytes, struct werror *err)
{
	char buf[65536];

	yajl_gen_array_open(g);
	if (read_file(h, "io.stat", buf, sizeof(buf), err) == 0)
		for (char *save = NULL, *l = strtok_r(buf, "\n", &save); l;
		     l = strtok_r(NULL, "\n", &save)) {
			char dev[32];
			unsigned long long r = 0, w = 0;
			const char *rk = bytes ? "rbytes=" : "rios=",
			           *wk = bytes ? "wbytes=" : "wios=";
			char *p;

			if (sscanf(l, "%31s", dev) != 1)
				continue;
			if ((p = strstr(l, rk)) != NULL)
				r = strtoull(p + strlen(rk), NULL, 10);
			if ((p = strstr(l, wk)) != NULL)
				w = strtoull(p + strlen(wk), NULL, 10);
			blkio_entry(g, dev, "Read", r);
			blkio_entry(g, dev, "Write", w);
		}
	yajl_gen_array_close(g);
}

static void gen_blkio(const struct cgroup *cg, yajl_gen g, struct werror *err)
{
	bool v2;
	const struct cg_hier *d = cg_controller(cg, "blkio", "io", &v2, err);

	S(g, "blkio");
	yajl_gen_map_open(g);
	S(g, "ioServiceBytesRecursive");
	if (v2)
		blkio_v2(g, d, true, err);
	else
		blkio_v1(g, d, "blkio.throttle.io_service_bytes_recursive", err);
	S(g, "ioServicedRecursive");
	if (v2)
		blkio_v2(g, d, false, err);
	else
		blkio_v1(g, d, "blkio.throttle.io_serviced_recursive", err);
	yajl_gen_map_close(g);
}

/* One entry per huge page size the kernel has ("2MB": usage, max, failcnt). */
static void gen_hugetlb(const struct cgroup *cg, yajl_gen g, struct werror *err)
{
	bool v2;
	const struct cg_hier *d = cg_controller(cg, "hugetlb", "hugetlb", &v2, err);
	DIR *sizes = opendir("/sys/kernel/mm/hugepages");
	struct dirent *de;

	S(g, "hugetlb");
	yajl_gen_map_open(g);
	while (d && sizes && (de = readdir(sizes)) != NULL) {
		unsigned long kb;
		char name[32], f[64];

		if (sscanf(de->d_name, "hugepages-%lukB", &kb) != 1)
			continue;
		if (kb >= 1048576 && kb % 1048576 == 0)
			snprintf(name, sizeof(name), "%luGB", kb / 1048576);
		else if (kb >= 1024 && kb % 1024 == 0)
			snprintf(name, sizeof(name), "%luMB", kb / 1024);
		else
			snprintf(name, sizeof(name), "%luKB", kb);
		S(g, name);
		yajl_gen_map_open(g);
		snprintf(f, sizeof(f), v2 ? "hugetlb.%s.current" : "hugetlb.%s.usage_in_bytes",
		         name);
		gen_u64(g, "usage", num(d, f, err));
		snprintf(f, sizeof(f), v2 ? "hugetlb.%s.max" : "hugetlb.%s.max_usage_in_bytes",
		         name);
		gen_u64(g, "max", num(d, f, err));
		if (v2) {
			snprintf(f, sizeof(f), "hugetlb.%s.events", name);
			gen_u64(g, "failcnt", keyed(d, f, "max", err));
		} else {
			snprintf(f, sizeof(f), "hugetlb.%s.failcnt", name);
			gen_u64(g, "failcnt", num(d, f, err));
		}
		yajl_gen_map_close(g);
	}
	if (sizes)
		closedir(sizes);
	yajl_gen_map_close(g);
}

/* Where each figure is read: cgroup2 on a pure v2 host, else the v1
 * controller's hierarchy. */
struct cg_where {
	bool v2;
	const struct cg_hier *cpu, *thr, *mem, *pids;
};

static struct cg_where where(const struct cgroup *cg)
{
	bool v2 = cg->layout == CG_V2;

	return (struct cg_where){
	    v2, v2 ? cg->unified : cg_v1(cg, "cpuacct"), v2 ? cg->unified : cg_v1(cg, "cpu"),
	    v2 ? cg->unified : cg_v1(cg, "memory"), v2 ? cg->unified : cg_v1(cg, "pids")};
}

int cgroup_stats_gen(const struct cgroup *cg, yajl_gen g, struct werror *err)
{
	const struct cg_where w = where(cg);
	bool v2 = w.v2;
	const struct cg_hier *cpu = w.cpu, *thr = w.thr, *mem = w.mem, *pids = w.pids;
	/* cpuacct.stat counts USER_HZ ticks. */
	uint64_t tick_ns = 1000000000ULL / (uint64_t)sysconf(_SC_CLK_TCK);

	yajl_gen_map_open(g);
	S(g, "cpu");
	yajl_gen_map_open(g);
	S(g, "usage");
	yajl_gen_map_open(g);
	if (v2) {
		gen_u64(g, "total", keyed(cpu, "cpu.stat", "usage_usec", err) * 1000);
		gen_u64(g, "kernel", keyed(cpu, "cpu.stat", "system_usec", err) * 1000);
		gen_u64(g, "user", keyed(cpu, "cpu.stat", "user_usec", err) * 1000);
	} else {
		char buf[32768];

		gen_u64(g, "total", num(cpu, "cpuacct.usage", err));
		S(g, "percpu");
		yajl_gen_array_open(g);
		if (read_file(cpu, "cpuacct.usage_percpu", buf, sizeof(buf), err) == 0)
			for (char *save = NULL, *t = strtok_r(buf, " \n", &save); t;
			     t = strtok_r(NULL, " \n", &save))
				yajl_gen_number(g, t, strlen(t));
		yajl_gen_array_close(g);
		gen_u64(g, "kernel", keyed(cpu, "cpuacct.stat", "system", err) * tick_ns);
		gen_u64(g, "user", keyed(cpu, "cpuacct.stat", "user", err) * tick_ns);
	}
	yajl_gen_map_close(g);
	S(g, "throttling");
	yajl_gen_map_open(g);
	gen_u64(g, "periods", keyed(thr, "cpu.stat", "nr_periods", err));
	gen_u64(g, "throttledPeriods", keyed(thr, "cpu.stat", "nr_throttled", err));
	gen_u64(g, "throttledTime",
	        v2 ? keyed(thr, "cpu.stat", "throttled_usec", err) * 1000
	           : keyed(thr, "cpu.stat", "throttled_time", err));
	yajl_gen_map_close(g);
	yajl_gen_map_close(g);

	S(g, "memory");
	yajl_gen_map_open(g);
	S(g, "usage");
	yajl_gen_map_open(g);
	if (v2) {
		gen_u64(g, "limit", num(mem, "memory.max", err));
		gen_u64(g, "usage", num(mem, "memory.current", err));
		gen_u64(g, "max", num(mem, "memory.peak", err));
		gen_u64(g, "failcnt", keyed(mem, "memory.events", "max", err));
	} else {
		gen_u64(g, "limit", num(mem, "memory.limit_in_bytes", err));
		gen_u64(g, "usage", num(mem, "memory.usage_in_bytes", err));
		gen_u64(g, "max", num(mem, "memory.max_usage_in_bytes", err));
		gen_u64(g, "failcnt", num(mem, "memory.failcnt", err));
	}
	yajl_gen_map_close(g);
	gen_u64(g, "cache", keyed(mem, "memory.stat", v2 ? "file" : "cache", err));
	/* No OOM count here: runc's stats have none, and tools find OOMs by
	 * grepping events for "oom" (its own event, emitted when it happens). */
	gen_raw(g, mem, "memory.stat", err);
	yajl_gen_map_close(g);

	S(g, "pids");
	yajl_gen_map_open(g);
	gen_u64(g, "current", num(pids, "pids.current", err));
	gen_u64(g, "limit", num(pids, "pids.max", err));
	yajl_gen_map_close(g);
	gen_blkio(cg, g, err);
	gen_hugetlb(cg, g, err);
	return yajl_gen_map_close(g) == yajl_gen_status_ok ? 0 : werr(err, ENOMEM, "stats");
}

void cgroup_figures(const struct cgroup *cg, struct cg_figures *f, struct werror *err)
{
	const struct cg_where w = where(cg);
	bool v2 = w.v2;
	const struct cg_hier *cpu = w.cpu, *thr = w.thr, *mem = w.mem, *pids = w.pids;
	uint64_t tick_us = 1000000ULL / (uint64_t)sysconf(_SC_CLK_TCK);
	char buf[64];

	memset(f, 0, sizeof(*f));
	if (v2) {
		f->cpu_user_us = keyed(cpu, "cpu.stat", "user_usec", err);
		f->cpu_system_us = keyed(cpu, "cpu.stat", "system_usec", err);
		f->memory_peak = num(mem, "memory.peak", err);
		f->memory_limit = num(mem, "memory.max", err);
		/* "max 100000" or "50000 100000" */
		if (read_file(thr, "cpu.max", buf, sizeof(buf), err) == 0) {
			unsigned long long q = 0, per = 0;

			if (sscanf(buf, "%llu %llu", &q, &per) == 2)
				f->cpu_quota_us = q;
			else
				sscanf(buf, "max %llu", &per);
			f->cpu_period_us = per;
		}
	} else {
		/* cpuacct.stat counts USER_HZ ticks. */
		f->cpu_user_us = keyed(cpu, "cpuacct.stat", "user", err) * tick_us;
		f->cpu_system_us = keyed(cpu, "cpuacct.stat", "system", err) * tick_us;
		f->memory_peak = num(mem, "memory.max_usage_in_bytes", err);
		f->memory_limit = num(mem, "memory.limit_in_bytes", err);
		/* v1 says "no limit" with a huge page-aligned number. */
		if (f->memory_limit >= (1ULL << 62))
			f->memory_limit = 0;
		if (read_file(thr, "cpu.cfs_quota_us", buf, sizeof(buf), err) == 0 && buf[0] != '-')
			f->cpu_quota_us = strtoull(buf, NULL, 10);
		f->cpu_period_us = num(thr, "cpu.cfs_period_us", err);
	}
	f->oom_kills = cgroup_oom_kills(cg, err);
	f->pids_max_hits = keyed(pids, "pids.events", "max", err);
	f->pids_limit = num(pids, "pids.max", err);
}
