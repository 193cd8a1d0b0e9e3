/* Resource figures of a container's cgroup, as runc's `events` prints them
 * (cpu, memory, pids), read from v1 or v2 files as the host has them. */
#include "cgroup_stats.h"
#include "error.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define S(g, s) yajl_gen_string((g), (const unsigned char *)(s), strlen(s))

static int read_file(const char *dir, const char *path, const char *file, char *buf, size_t len)
{
	return dir ? cg_read(dir, path, file, buf, len) : -1;
}

/* A single number; "max" reads as 0 (unlimited). */
static uint64_t num(const char *dir, const char *path, const char *file)
{
	char buf[64];

	if (read_file(dir, path, file, buf, sizeof(buf)) < 0 || strncmp(buf, "max", 3) == 0)
		return 0;
	return strtoull(buf, NULL, 10);
}

/* "key value" lines (cpu.stat, memory.stat, memory.events, ...). */
static uint64_t keyed(const char *dir, const char *path, const char *file, const char *key)
{
	char buf[8192];
	size_t klen = strlen(key);

	if (read_file(dir, path, file, buf, sizeof(buf)) < 0)
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

static void gen_raw(yajl_gen g, const char *dir, const char *path, const char *file)
{
	char buf[8192];

	S(g, "raw");
	yajl_gen_map_open(g);
	if (read_file(dir, path, file, buf, sizeof(buf)) == 0)
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

uint64_t cgroup_oom_kills(const struct cgroup *cg)
{
	if (cg->layout == CG_V2)
		return keyed(cg->unified, cg->path, "memory.events", "oom_kill");
	return keyed(cg_v1_dir(cg, "memory"), cg->path, "memory.oom_control", "oom_kill");
}

int cgroup_stats_gen(const struct cgroup *cg, yajl_gen g)
{
	bool v2 = cg->layout == CG_V2;
	const char *cpu = v2 ? cg->unified : cg_v1_dir(cg, "cpuacct");
	const char *thr = v2 ? cg->unified : cg_v1_dir(cg, "cpu");
	const char *mem = v2 ? cg->unified : cg_v1_dir(cg, "memory");
	const char *pids = v2 ? cg->unified : cg_v1_dir(cg, "pids");
	/* cpuacct.stat counts USER_HZ ticks. */
	uint64_t tick_ns = 1000000000ULL / (uint64_t)sysconf(_SC_CLK_TCK);

	yajl_gen_map_open(g);
	S(g, "cpu");
	yajl_gen_map_open(g);
	S(g, "usage");
	yajl_gen_map_open(g);
	if (v2) {
		gen_u64(g, "total", keyed(cpu, cg->path, "cpu.stat", "usage_usec") * 1000);
		gen_u64(g, "kernel", keyed(cpu, cg->path, "cpu.stat", "system_usec") * 1000);
		gen_u64(g, "user", keyed(cpu, cg->path, "cpu.stat", "user_usec") * 1000);
	} else {
		char buf[4096];

		gen_u64(g, "total", num(cpu, cg->path, "cpuacct.usage"));
		S(g, "percpu");
		yajl_gen_array_open(g);
		if (read_file(cpu, cg->path, "cpuacct.usage_percpu", buf, sizeof(buf)) == 0)
			for (char *save = NULL, *t = strtok_r(buf, " \n", &save); t;
			     t = strtok_r(NULL, " \n", &save))
				yajl_gen_number(g, t, strlen(t));
		yajl_gen_array_close(g);
		gen_u64(g, "kernel", keyed(cpu, cg->path, "cpuacct.stat", "system") * tick_ns);
		gen_u64(g, "user", keyed(cpu, cg->path, "cpuacct.stat", "user") * tick_ns);
	}
	yajl_gen_map_close(g);
	S(g, "throttling");
	yajl_gen_map_open(g);
	gen_u64(g, "periods", keyed(thr, cg->path, "cpu.stat", "nr_periods"));
	gen_u64(g, "throttledPeriods", keyed(thr, cg->path, "cpu.stat", "nr_throttled"));
	gen_u64(g, "throttledTime",
	        v2 ? keyed(thr, cg->path, "cpu.stat", "throttled_usec") * 1000
	           : keyed(thr, cg->path, "cpu.stat", "throttled_time"));
	yajl_gen_map_close(g);
	yajl_gen_map_close(g);

	S(g, "memory");
	yajl_gen_map_open(g);
	S(g, "usage");
	yajl_gen_map_open(g);
	if (v2) {
		gen_u64(g, "limit", num(mem, cg->path, "memory.max"));
		gen_u64(g, "usage", num(mem, cg->path, "memory.current"));
		gen_u64(g, "max", num(mem, cg->path, "memory.peak"));
		gen_u64(g, "failcnt", keyed(mem, cg->path, "memory.events", "max"));
	} else {
		gen_u64(g, "limit", num(mem, cg->path, "memory.limit_in_bytes"));
		gen_u64(g, "usage", num(mem, cg->path, "memory.usage_in_bytes"));
		gen_u64(g, "max", num(mem, cg->path, "memory.max_usage_in_bytes"));
		gen_u64(g, "failcnt", num(mem, cg->path, "memory.failcnt"));
	}
	yajl_gen_map_close(g);
	gen_u64(g, "cache", keyed(mem, cg->path, "memory.stat", v2 ? "file" : "cache"));
	gen_u64(g, "oomKills", cgroup_oom_kills(cg));
	gen_raw(g, mem, cg->path, "memory.stat");
	yajl_gen_map_close(g);

	S(g, "pids");
	yajl_gen_map_open(g);
	gen_u64(g, "current", num(pids, cg->path, "pids.current"));
	gen_u64(g, "limit", num(pids, cg->path, "pids.max"));
	yajl_gen_map_close(g);
	return yajl_gen_map_close(g) == yajl_gen_status_ok ? 0 : werr(ENOMEM, "stats");
}
