/* update: change the cgroup limits of a live container, from a
 * LinuxResources JSON (--resources FILE, or - for stdin, as Podman and
 * containerd call it) and/or runc's flags, which win over the file. */
#include "cli/commands.h"
#include "container/ops/ops.h"
#include "container/store.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "lib/fileio.h"
#include "lib/log.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define UPDATE_MAX_JSON (1u << 20)

struct update_cli {
	const char *resources, *memory, *memory_swap, *memory_reservation, *pids_limit, *cpu_shares,
	    *cpu_quota, *cpu_period, *cpuset_cpus, *cpuset_mems, *cpu_rt_period, *cpu_rt_runtime,
	    *cpu_idle, *blkio_weight, *kernel_memory, *kernel_memory_tcp;
};

/* "123", "64k", "512m", "2g"; -1 for unlimited. */
static int parse_size(const char *s, const char *opt, int64_t *out, struct werror *err)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || end == s)
		return cli_usage_err(err, "update: --%s \"%s\" is not a size", opt, s);
	switch (*end) {
	case 'k':
	case 'K':
		v *= 1024LL;
		end++;
		break;
	case 'm':
	case 'M':
		v *= 1024LL * 1024;
		end++;
		break;
	case 'g':
	case 'G':
		v *= 1024LL * 1024 * 1024;
		end++;
		break;
	default:
		break;
	}
	if (*end == 'b' || *end == 'B')
		end++;
	if (*end)
		return cli_usage_err(err, "update: --%s \"%s\" is not a size", opt, s);
	*out = v;
	return 0;
}

/* A plain integer (pids, CPU shares and times, weights); -1 for none. */
static int parse_num(const char *s, const char *opt, int64_t *out, struct werror *err)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || end == s || *end)
		return cli_usage_err(err, "update: --%s \"%s\" is not a number", opt, s);
	*out = v;
	return 0;
}

static int read_resources(const char *path, struct oci_resources **out, struct werror *err)
{
	_cleanup_free_ char *buf = NULL;
	size_t len = 0;

	if (read_input(path, UPDATE_MAX_JSON, &buf, &len, err) < 0)
		return werr_ctx(err, "update: --resources");
	*out = jdecode_document(&oci_resources_schema, buf, len, OCI_MAX_DEPTH,
	                        strcmp(path, "-") == 0 ? "resources (stdin)" : path, err);
	return *out ? 0 : -1;
}

static int apply_flags(const struct update_cli *u, struct oci_resources *r, struct werror *err)
{
	int64_t v;

	if (u->memory || u->memory_swap || u->memory_reservation || u->kernel_memory ||
	    u->kernel_memory_tcp) {
		if (r->memory == NULL)
			r->memory = calloc(1, sizeof(*r->memory));
		if (r->memory == NULL)
			return werr(err, ENOMEM, "out of memory");
		if (u->memory && (parse_size(u->memory, "memory", &v, err) < 0 ||
		                  (r->memory->limit = v, r->memory->has_limit = true, 0)))
			return -1;
		if (u->memory_swap && (parse_size(u->memory_swap, "memory-swap", &v, err) < 0 ||
		                       (r->memory->swap = v, r->memory->has_swap = true, 0)))
			return -1;
		if (u->memory_reservation &&
		    (parse_size(u->memory_reservation, "memory-reservation", &v, err) < 0 ||
		     (r->memory->reservation = v, r->memory->has_reservation = true, 0)))
			return -1;
		if (u->kernel_memory &&
		    (parse_size(u->kernel_memory, "kernel-memory", &v, err) < 0 ||
		     (r->memory->kernel = v, r->memory->has_kernel = true, 0)))
			return -1;
		if (u->kernel_memory_tcp &&
		    (parse_size(u->kernel_memory_tcp, "kernel-memory-tcp", &v, err) < 0 ||
		     (r->memory->kernel_tcp = v, r->memory->has_kernel_tcp = true, 0)))
			return -1;
	}
	if (u->pids_limit) {
		if (r->pids == NULL && (r->pids = calloc(1, sizeof(*r->pids))) == NULL)
			return werr(err, ENOMEM, "out of memory");
		if (parse_num(u->pids_limit, "pids-limit", &r->pids->limit, err) < 0)
			return -1;
	}
	if (u->blkio_weight) {
		if (r->block_io == NULL && (r->block_io = calloc(1, sizeof(*r->block_io))) == NULL)
			return werr(err, ENOMEM, "out of memory");
		if (parse_num(u->blkio_weight, "blkio-weight", &v, err) < 0)
			return -1;
		if (v < 10 || v > 1000)
			return werr(err, 0, "update: --blkio-weight %s: must be 10 to 1000",
			            u->blkio_weight);
		r->block_io->weight = (uint32_t)v;
		r->block_io->has_weight = true;
	}
	if (u->cpu_shares || u->cpu_quota || u->cpu_period || u->cpuset_cpus || u->cpuset_mems ||
	    u->cpu_rt_period || u->cpu_rt_runtime || u->cpu_idle) {
		if (r->cpu == NULL && (r->cpu = calloc(1, sizeof(*r->cpu))) == NULL)
			return werr(err, ENOMEM, "out of memory");
		if (u->cpu_shares && (parse_num(u->cpu_shares, "cpu-shares", &v, err) < 0 ||
		                      (r->cpu->shares = (uint64_t)v, r->cpu->has_shares = true, 0)))
			return -1;
		if (u->cpu_quota && (parse_num(u->cpu_quota, "cpu-quota", &v, err) < 0 ||
		                     (r->cpu->quota = v, r->cpu->has_quota = true, 0)))
			return -1;
		if (u->cpu_period && (parse_num(u->cpu_period, "cpu-period", &v, err) < 0 ||
		                      (r->cpu->period = (uint64_t)v, r->cpu->has_period = true, 0)))
			return -1;
		if (u->cpu_rt_period &&
		    (parse_num(u->cpu_rt_period, "cpu-rt-period", &v, err) < 0 ||
		     (r->cpu->realtime_period = (uint64_t)v, r->cpu->has_realtime_period = true,
		      0)))
			return -1;
		if (u->cpu_rt_runtime &&
		    (parse_num(u->cpu_rt_runtime, "cpu-rt-runtime", &v, err) < 0 ||
		     (r->cpu->realtime_runtime = v, r->cpu->has_realtime_runtime = true, 0)))
			return -1;
		if (u->cpu_idle && (parse_num(u->cpu_idle, "cpu-idle", &v, err) < 0 ||
		                    (r->cpu->idle = v, r->cpu->has_idle = true, 0)))
			return -1;
		/* Borrowed strings: cleared before the struct is freed. */
		if (u->cpuset_cpus)
			r->cpu->cpus = (char *)u->cpuset_cpus;
		if (u->cpuset_mems)
			r->cpu->mems = (char *)u->cpuset_mems;
	}
	return 0;
}

int cmd_update(struct globals *g, int argc, char **argv, struct werror *err)
{
	struct update_cli u = {0};
	const struct opt opts[] = {
	    {"resources", 'r', OPT_STR, &u.resources, "FILE|-",
	     "a runtime-spec linux.resources JSON (-: stdin); the\nflags below win over it"},
	    {"memory", 0, OPT_STR, &u.memory, "N", "memory limit in bytes (k/m/g; -1: none)"},
	    {"memory-swap", 0, OPT_STR, &u.memory_swap, "N",
	     "memory+swap limit in bytes (-1: none)"},
	    {"memory-reservation", 0, OPT_STR, &u.memory_reservation, "N",
	     "soft memory limit in bytes"},
	    {"kernel-memory", 0, OPT_STR, &u.kernel_memory, "N",
	     "kernel memory limit in bytes (cgroup v1 only)"},
	    {"kernel-memory-tcp", 0, OPT_STR, &u.kernel_memory_tcp, "N",
	     "kernel TCP buffer limit in bytes (cgroup v1 only)"},
	    {"pids-limit", 0, OPT_STR, &u.pids_limit, "N", "most tasks (-1: none)"},
	    {"cpu-shares", 0, OPT_STR, &u.cpu_shares, "N", "relative CPU weight"},
	    /* runc's own spelling */
	    {"cpu-share", 0, OPT_STR, &u.cpu_shares, "N", "the same as --cpu-shares (runc's name)"},
	    {"cpu-quota", 0, OPT_STR, &u.cpu_quota, "N",
	     "CPU time per period, in microseconds (-1: none)"},
	    {"cpu-period", 0, OPT_STR, &u.cpu_period, "N", "the CPU period, in microseconds"},
	    {"cpu-rt-period", 0, OPT_STR, &u.cpu_rt_period, "N",
	     "realtime period, in microseconds (cgroup v1)"},
	    {"cpu-rt-runtime", 0, OPT_STR, &u.cpu_rt_runtime, "N",
	     "realtime time per period, in microseconds (cgroup v1)"},
	    {"cpu-idle", 0, OPT_STR, &u.cpu_idle, "0|1",
	     "1: the cgroup runs at SCHED_IDLE weight (cgroup v2)"},
	    {"cpuset-cpus", 0, OPT_STR, &u.cpuset_cpus, "L", "CPUs the tasks may use (\"0-3,6\")"},
	    {"cpuset-mems", 0, OPT_STR, &u.cpuset_mems, "L", "memory nodes the tasks may use"},
	    {"blkio-weight", 0, OPT_STR, &u.blkio_weight, "N",
	     "relative block I/O weight, 10 to 1000"},
	};
	struct oci_resources *r = NULL;
	struct container c = {.dirfd = -1};
	char *pos[1];
	size_t n_pos;
	int ret = -1;

	if (cli_open_container(g, "update", argc, argv, opts, sizeof(opts) / sizeof(opts[0]), pos,
	                       1, &n_pos, true, &c, err) < 0)
		goto out;
	if (c.status != ST_CREATED && c.status != ST_RUNNING && c.status != ST_PAUSED) {
		werr(err, 0, "container \"%s\" is %s: only a live container can be updated", c.id,
		     status_name(c.status));
		goto out;
	}
	if (u.resources ? read_resources(u.resources, &r, err) < 0
	                : (r = calloc(1, sizeof(*r))) == NULL)
		goto out;
	if (apply_flags(&u, r, err) < 0)
		goto out;
	ret = ops_update(&c, r, err);
	/* cgroup v1 answers a memory limit below what the tasks use now with
	 * EBUSY; say what that means. */
	if (ret < 0 && werr_errno(err) == EBUSY && (u.memory || u.memory_swap))
		werr_ctx(err, "update: the memory limit is below the container's current usage");
out:
	if (r && r->cpu) {
		if (r->cpu->cpus == u.cpuset_cpus)
			r->cpu->cpus = NULL;
		if (r->cpu->mems == u.cpuset_mems)
			r->cpu->mems = NULL;
	}
	if (r) {
		jwalk_free(&oci_resources_schema, r);
		free(r);
	}
	store_close(&c);
	return ret;
}
