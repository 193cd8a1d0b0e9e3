/* The cgroup writers (cg_files.h, cgroup_v1.c, cgroup_v2.c, cgroup_res.c's
 * cgroup_apply) against fake cgroup directories in a scratch dir: every
 * control file is a fifo whose read end this test holds, so what a writer
 * wrote is read back byte for byte, every write in order (a file written
 * twice shows both), and a file never written reads empty. No cgroupfs,
 * no root. */
#include "cgroup/cg_files.h"
#include "cgroup/cgroup.h"
#include "cgroup/cgroup_v1.h"
#include "cgroup/cgroup_v2.h"
#include "lib/error.h"
#include "tap.h"
#include "tmptree.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FAKE_MAX 48

/* A struct oci_resources made where it is used. */
#define RES(...) (&(struct oci_resources){__VA_ARGS__})

/* One hierarchy: <base>/<tag> is its mount point, ward/c1 the cgroup. */
struct fake {
	struct cg_hier h;
	char mnt[PATH_MAX], dir[PATH_MAX + 16], opts[64];
	char wdir[PATH_MAX + 16];
	size_t n;
	char names[FAKE_MAX][64];
	int rd[FAKE_MAX], wr[FAKE_MAX];
	char got[FAKE_MAX][1024];
};

static char base[PATH_MAX];

static int fake_make(struct fake *f, const char *tag, const char *opts, const char *const *files)
{
	int dfd;

	memset(f, 0, sizeof(*f));
	snprintf(f->mnt, sizeof(f->mnt), "%.3000s/%s", base, tag);
	snprintf(f->dir, sizeof(f->dir), "%.3000s/ward/c1", f->mnt);
	snprintf(f->opts, sizeof(f->opts), "%s", opts);
	snprintf(f->wdir, sizeof(f->wdir), "%.3000s/ward", f->mnt);
	if (mkdir(f->mnt, 0755) < 0 || mkdir(f->wdir, 0755) < 0 || mkdir(f->dir, 0755) < 0)
		return -1;
	if ((dfd = open(f->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -1;
	for (; files[f->n]; f->n++) {
		size_t i = f->n;

		snprintf(f->names[i], sizeof(f->names[i]), "%s", files[i]);
		/* The reader first, so that neither open blocks; the test's own
		 * writer keeps a writer's O_RDONLY probe from blocking. */
		if (mkfifoat(dfd, files[i], 0600) < 0 ||
		    (f->rd[i] = openat(dfd, files[i], O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0 ||
		    (f->wr[i] = openat(dfd, files[i], O_WRONLY | O_CLOEXEC)) < 0) {
			close(dfd);
			return -1;
		}
	}
	close(dfd);
	f->h = (struct cg_hier){.mnt = f->mnt, .opts = f->opts, .name = f->dir, .err = 0};
	f->h.fd = open(f->dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return f->h.fd < 0 ? -1 : 0;
}

static void fake_free(struct fake *f)
{
	for (size_t i = 0; i < f->n; i++) {
		close(f->rd[i]);
		close(f->wr[i]);
	}
	if (f->h.fd >= 0)
		close(f->h.fd);
	f->h.fd = -1;
	f->n = 0;
}

/* Take what was written since the last look (drained: each look sees the
 * writes since the one before). */
static void fake_collect(struct fake *f)
{
	for (size_t i = 0; i < f->n; i++) {
		size_t got = 0;
		ssize_t r;

		while (got < sizeof(f->got[i]) - 1 &&
		       (r = read(f->rd[i], f->got[i] + got, sizeof(f->got[i]) - 1 - got)) > 0)
			got += (size_t)r;
		f->got[i][got] = '\0';
	}
}

/* What file got, or "<no such file>". */
static const char *W(const struct fake *f, const char *file)
{
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->names[i], file) == 0)
			return f->got[i];
	return "<no such file>";
}

/* The files written, in the order of the list ("a b c"). */
static const char *written(const struct fake *f)
{
	static char buf[1024];

	buf[0] = '\0';
	for (size_t i = 0; i < f->n; i++)
		if (f->got[i][0]) {
			if (buf[0])
				strcat(buf, " ");
			strcat(buf, f->names[i]);
		}
	return buf;
}

/* Compare, and say what differed. */
static int is(const struct fake *f, const char *file, const char *want)
{
	const char *g = W(f, file);

	if (strcmp(g, want) == 0)
		return 1;
	diag("%s: got \"%s\", want \"%s\"", file, g, want);
	return 0;
}

static int is_written(const struct fake *f, const char *want)
{
	if (strcmp(written(f), want) == 0)
		return 1;
	diag("written: \"%s\", want \"%s\"", written(f), want);
	return 0;
}

static const char *const v2_files[] = {
    "memory.max",    "memory.low",      "memory.swap.max", "memory.high", "cpu.weight", "cpu.max",
    "cpu.max.burst", "cpu.idle",        "cpuset.cpus",     "cpuset.mems", "pids.max",   "io.weight",
    "io.max",        "hugetlb.2MB.max", "hugetlb.1GB.max", "rdma.max",    NULL};

static int apply_v2(struct fake *f, struct oci_resources *r, struct werror *e)
{
	struct cgroup cg = {.layout = CG_V2, .unified = &f->h};
	struct oci_linux l = {.resources = r};
	int rc;

	r->skip_devices = true; /* the device program needs BPF: not here */
	rc = cgroup_apply(&cg, &l, e);
	fake_collect(f);
	return rc;
}

static void test_v2(void)
{
	struct fake f;

	if (!ok(fake_make(&f, "v2", "", v2_files) == 0, "fake cgroup2 dir"))
		return;
	werr_clear(err);
	{
		struct oci_memory m = {.limit = 1073741824,
		                       .has_limit = true,
		                       .reservation = 536870912,
		                       .has_reservation = true,
		                       .swap = 2147483648,
		                       .has_swap = true};

		ok(apply_v2(&f, RES(.memory = &m), err) == 0 &&
		       is(&f, "memory.max", "1073741824") && is(&f, "memory.low", "536870912") &&
		       is(&f, "memory.swap.max", "1073741824") &&
		       is_written(&f, "memory.max memory.low memory.swap.max"),
		   "v2 memory: limit, reservation -> low, swap.max = memory+swap - memory");
		m = (struct oci_memory){
		    .limit = -1, .has_limit = true, .swap = -1, .has_swap = true};
		ok(apply_v2(&f, RES(.memory = &m), err) == 0 && is(&f, "memory.max", "max") &&
		       is(&f, "memory.swap.max", "max"),
		   "v2 memory: -1 is \"max\"");
		m = (struct oci_memory){.swap = 1000, .has_swap = true};
		ok(apply_v2(&f, RES(.memory = &m), err) == 0 && is_written(&f, "memory.swap.max") &&
		       is(&f, "memory.swap.max", "1000"),
		   "v2 memory: swap without a limit is written as it is");
		m = (struct oci_memory){
		    .limit = 2000, .has_limit = true, .swap = 1000, .has_swap = true};
		ok(apply_v2(&f, RES(.memory = &m), err) < 0 &&
		       strstr(werr_msg(err), "must not be below"),
		   "v2 memory: swap below the limit is refused");
		werr_clear(err);
		m = (struct oci_memory){.swappiness = 10, .has_swappiness = true};
		ok(apply_v2(&f, RES(.memory = &m), err) < 0 &&
		       strstr(werr_msg(err), "no per-cgroup swappiness") && is_written(&f, ""),
		   "v2 memory: swappiness refused, nothing written");
		werr_clear(err);
		m = (struct oci_memory){.disable_oom_killer = true};
		ok(apply_v2(&f, RES(.memory = &m), err) < 0 &&
		       strstr(werr_msg(err), "disableOOMKiller"),
		   "v2 memory: disableOOMKiller refused");
		werr_clear(err);
	}
	{
		struct oci_cpu c = {.shares = 1024,
		                    .has_shares = true,
		                    .quota = 50000,
		                    .has_quota = true,
		                    .period = 100000,
		                    .has_period = true,
		                    .burst = 1000,
		                    .has_burst = true,
		                    .idle = 1,
		                    .has_idle = true,
		                    .cpus = "0-1",
		                    .mems = "0"};

		ok(apply_v2(&f, RES(.cpu = &c), err) == 0 && is(&f, "cpu.weight", "39") &&
		       is(&f, "cpu.max", "50000 100000") && is(&f, "cpu.max.burst", "1000") &&
		       is(&f, "cpu.idle", "1") && is(&f, "cpuset.cpus", "0-1") &&
		       is(&f, "cpuset.mems", "0"),
		   "v2 cpu: shares 1024 -> weight 39, quota/period -> cpu.max, burst, idle, "
		   "cpuset");
		c = (struct oci_cpu){
		    .quota = -1, .has_quota = true, .period = 200000, .has_period = true};
		ok(apply_v2(&f, RES(.cpu = &c), err) == 0 && is(&f, "cpu.max", "max 200000") &&
		       is_written(&f, "cpu.max"),
		   "v2 cpu: quota -1 -> \"max PERIOD\"");
		c = (struct oci_cpu){.quota = 25000, .has_quota = true};
		ok(apply_v2(&f, RES(.cpu = &c), err) == 0 && is(&f, "cpu.max", "25000 100000"),
		   "v2 cpu: a quota alone takes the default period");
		c = (struct oci_cpu){.period = 50000, .has_period = true};
		ok(apply_v2(&f, RES(.cpu = &c), err) == 0 && is(&f, "cpu.max", "max 50000"),
		   "v2 cpu: a period alone is \"max PERIOD\"");
		c = (struct oci_cpu){.shares = 2, .has_shares = true};
		ok(apply_v2(&f, RES(.cpu = &c), err) == 0 && is(&f, "cpu.weight", "1"),
		   "v2 cpu: shares 2 -> 1");
		c = (struct oci_cpu){.shares = 262144, .has_shares = true};
		ok(apply_v2(&f, RES(.cpu = &c), err) == 0 && is(&f, "cpu.weight", "10000"),
		   "v2 cpu: shares 262144 -> 10000");
		c = (struct oci_cpu){.realtime_runtime = 1, .has_realtime_runtime = true};
		ok(apply_v2(&f, RES(.cpu = &c), err) < 0 && strstr(werr_msg(err), "real-time") &&
		       is_written(&f, ""),
		   "v2 cpu: real-time refused");
		werr_clear(err);
		c = (struct oci_cpu){.cpus = "", .mems = "1"};
		ok(apply_v2(&f, RES(.cpu = &c), err) == 0 && is_written(&f, "cpuset.mems"),
		   "v2 cpuset: an empty cpus is not written");
	}
	{
		struct oci_pids p = {.limit = 100};

		ok(apply_v2(&f, RES(.pids = &p), err) == 0 && is(&f, "pids.max", "100"),
		   "v2 pids: 100");
		p.limit = -1;
		ok(apply_v2(&f, RES(.pids = &p), err) == 0 && is(&f, "pids.max", "max"),
		   "v2 pids: -1 -> \"max\"");
		p.limit = 0;
		ok(apply_v2(&f, RES(.pids = &p), err) == 0 && is(&f, "pids.max", "max"),
		   "v2 pids: 0 -> \"max\"");
	}
	{
		struct oci_weight_device wd[] = {
		    {.major = 8, .minor = 0, .weight = 100, .has_weight = true},
		    {.major = 8, .minor = 16}};
		struct oci_throttle_device rb[] = {{8, 0, 1048576}},
		                           wi[] = {{8, 16, 100}, {253, 1, 7}};
		struct oci_blockio b = {.weight = 500,
		                        .has_weight = true,
		                        .weight_device = wd,
		                        .n_weight_device = 2,
		                        .throttle_read_bps = rb,
		                        .n_throttle_read_bps = 1,
		                        .throttle_write_iops = wi,
		                        .n_throttle_write_iops = 2};

		ok(apply_v2(&f, RES(.block_io = &b), err) == 0 &&
		       is(&f, "io.weight", "default 49508:0 910") &&
		       is(&f, "io.max", "8:0 rbps=10485768:16 wiops=100253:1 wiops=7"),
		   "v2 io: weights mapped (500 -> 4950, 100 -> 910), one write per device line");
		b = (struct oci_blockio){.leaf_weight = 10, .has_leaf_weight = true};
		ok(apply_v2(&f, RES(.block_io = &b), err) < 0 &&
		       strstr(werr_msg(err), "no leaf weights"),
		   "v2 io: leafWeight refused");
		werr_clear(err);
	}
	{
		struct oci_hugepage_limit hl[] = {{"2MB", 1073741824}, {"1GB", 0}};
		struct oci_rdma rd[] = {{"mlx5_0", 3, 4, true, true},
		                        {"mlx4_0", 0, 9, false, true}};
		struct jkv un[] = {{"memory.high", "500M"}};

		ok(apply_v2(&f,
		            RES(.hugepage_limits = hl, .n_hugepage_limits = 2, .rdma = rd,
		                .n_rdma = 2, .unified = un, .n_unified = 1),
		            err) == 0 &&
		       is(&f, "hugetlb.2MB.max", "1073741824") && is(&f, "hugetlb.1GB.max", "0") &&
		       is(&f, "rdma.max", "mlx5_0 hca_handle=3 hca_object=4mlx4_0 hca_object=9") &&
		       is(&f, "memory.high", "500M"),
		   "v2 hugetlb.<size>.max, rdma.max lines, a unified key verbatim");
		un[0] = (struct jkv){"memory.oom.group", "1"};
		ok(apply_v2(&f, RES(.unified = un, .n_unified = 1), err) < 0 &&
		       strstr(werr_msg(err), "invalid configuration") &&
		       strstr(werr_msg(err), "memory.oom.group: no such file"),
		   "v2 unified: a key with no file is an invalid configuration");
		werr_clear(err);
	}
	{
		struct oci_network n = {.class_id = 1, .has_class_id = true};

		ok(apply_v2(&f, RES(.network = &n), err) < 0 &&
		       strstr(werr_msg(err), "cgroup2 has no net_cls"),
		   "v2: network.classID refused (no net_cls on cgroup2)");
		werr_clear(err);
	}
	/* Errors name the file: a missing one, one that is a symlink. */
	{
		struct fake g;
		const char *none[] = {NULL};
		struct oci_pids p = {.limit = 5};

		if (fake_make(&g, "v2bare", "", none) == 0) {
			char victim[PATH_MAX + 16], want[PATH_MAX + 64], back[64];

			snprintf(want, sizeof(want),
			         "linux.resources.pids.limit: %s/pids.max: ", g.dir);
			ok(apply_v2(&g, RES(.pids = &p), err) < 0 && werr_errno(err) == ENOENT &&
			       strncmp(werr_msg(err), want, strlen(want)) == 0,
			   "a missing file: ENOENT, the field and the file named");
			werr_clear(err);
			snprintf(victim, sizeof(victim), "%s/victim", base);
			put_file(AT_FDCWD, victim, "untouched");
			symlinkat(victim, g.h.fd, "pids.max");
			ok(apply_v2(&g, RES(.pids = &p), err) < 0 && werr_errno(err) == ELOOP &&
			       strstr(werr_msg(err), "/pids.max") &&
			       get_file(AT_FDCWD, victim, back, sizeof(back)) == 0 &&
			       strcmp(back, "untouched") == 0,
			   "a control file that is a symlink is refused (O_NOFOLLOW), its target "
			   "untouched");
			werr_clear(err);
			fake_free(&g);
		}
	}
	fake_free(&f);
}

static struct cgroup v1cg;
static struct fake v1[9];

static int apply_v1(struct oci_resources *r, const struct oci_linux *l0, struct werror *e)
{
	struct oci_linux l = l0 ? *l0 : (struct oci_linux){0};
	struct cg_hier hs[9];
	int rc;

	for (size_t i = 0; i < 9; i++)
		hs[i] = v1[i].h;
	v1cg = (struct cgroup){.layout = CG_V1, .v1 = hs, .n_v1 = 9};
	l.resources = r;
	rc = cgroup_apply(&v1cg, &l, e);
	for (size_t i = 0; i < 9; i++)
		fake_collect(&v1[i]);
	return rc;
}

#define MEM  (&v1[0])
#define CPU  (&v1[1])
#define CSET (&v1[2])
#define PIDS (&v1[3])
#define BLK  (&v1[4])
#define HUGE (&v1[5])
#define NET  (&v1[6])
#define RDMA (&v1[7])
#define DEVS (&v1[8])

/* ward's default nodes, as devices.allow gets them (one write each). */
#define DEV_DEFAULTS                                                                               \
	"c *:* mb *:* mc 1:3 rwmc 1:5 rwmc 1:7 rwmc 1:8 rwmc 1:9 rwmc 5:0 rwmc 5:2 rwmc 136:* rwm"

static void test_v1(void)
{
	const char *mem[] = {"memory.limit_in_bytes",      "memory.memsw.limit_in_bytes",
	                     "memory.soft_limit_in_bytes", "memory.kmem.tcp.limit_in_bytes",
	                     "memory.swappiness",          "memory.oom_control",
	                     "memory.use_hierarchy",       NULL};
	const char *cpu[] = {
	    "cpu.shares",       "cpu.cfs_period_us", "cpu.cfs_quota_us", "cpu.cfs_burst_us",
	    "cpu.rt_period_us", "cpu.rt_runtime_us", "cpu.idle",         NULL};
	const char *cset[] = {"cpuset.cpus", "cpuset.mems", NULL};
	const char *pids[] = {"pids.max", NULL};
	const char *blk[] = {"blkio.weight",
	                     "blkio.leaf_weight",
	                     "blkio.weight_device",
	                     "blkio.leaf_weight_device",
	                     "blkio.throttle.read_bps_device",
	                     "blkio.throttle.write_bps_device",
	                     "blkio.throttle.read_iops_device",
	                     "blkio.throttle.write_iops_device",
	                     NULL};
	const char *huge[] = {"hugetlb.2MB.limit_in_bytes", NULL};
	const char *net[] = {"net_cls.classid", "net_prio.ifpriomap", NULL};
	const char *rdma[] = {"rdma.max", NULL};
	const char *devs[] = {"devices.allow", "devices.deny", NULL};
	int made = 0;

	made += fake_make(MEM, "memory", "memory", mem) == 0;
	made += fake_make(CPU, "cpu,cpuacct", "cpu,cpuacct", cpu) == 0;
	made += fake_make(CSET, "cpuset", "cpuset", cset) == 0;
	made += fake_make(PIDS, "pids", "pids", pids) == 0;
	made += fake_make(BLK, "blkio", "blkio", blk) == 0;
	made += fake_make(HUGE, "hugetlb", "hugetlb", huge) == 0;
	made += fake_make(NET, "net_cls,net_prio", "net_cls,net_prio", net) == 0;
	made += fake_make(RDMA, "rdma", "rdma", rdma) == 0;
	made += fake_make(DEVS, "devices", "devices", devs) == 0;
	if (!ok(made == 9, "nine fake v1 hierarchies"))
		return;
	werr_clear(err);
	{
		ok(apply_v1(RES(.no_console = false), NULL, err) == 0 &&
		       is(DEVS, "devices.deny", "a") &&
		       is(DEVS, "devices.allow", DEV_DEFAULTS "c 10:200 rwm") &&
		       is_written(MEM, "") && is_written(CPU, ""),
		   "v1 no resources: deny all, then runc's default nodes (tun included)");
		ok(apply_v1(RES(.no_console = true), NULL, err) == 0 &&
		       is(DEVS, "devices.allow", DEV_DEFAULTS),
		   "v1 no_console: no c 10:200");
	}
	{
		struct oci_device_rule dr[] = {
		    {.allow = false, .access = "rwm"},
		    {.allow = true,
		     .type = "c",
		     .major = 4,
		     .has_major = true,
		     .minor = 64,
		     .has_minor = true,
		     .access = "rw"},
		    {.allow = true, .type = "b", .major = 8, .has_major = true, .access = "r"}};
		struct oci_device dev = {.type = "c", .major = 10, .minor = 229};
		struct oci_linux l = {.devices = &dev, .n_devices = 1};

		ok(apply_v1(
		       RES(.devices = dr, .n_devices = 3, .no_console = true, .allow_listed = true),
		       &l, err) == 0 &&
		       is(DEVS, "devices.deny", "a") &&
		       is(DEVS, "devices.allow", "c 4:64 rwb 8:* r" DEV_DEFAULTS "c 10:229 rwm"),
		   "v1 devices: the config's rules, the defaults, linux.devices when allow-listed");
	}
	{
		struct oci_memory m = {.limit = 1073741824,
		                       .has_limit = true,
		                       .swap = 2147483648,
		                       .has_swap = true,
		                       .reservation = 536870912,
		                       .has_reservation = true,
		                       .kernel_tcp = 1000,
		                       .has_kernel_tcp = true,
		                       .swappiness = 60,
		                       .has_swappiness = true,
		                       .disable_oom_killer = true,
		                       .use_hierarchy = true};

		ok(apply_v1(RES(.memory = &m, .skip_devices = true), NULL, err) == 0 &&
		       is(MEM, "memory.limit_in_bytes", "1073741824") &&
		       is(MEM, "memory.memsw.limit_in_bytes", "2147483648") &&
		       is(MEM, "memory.soft_limit_in_bytes", "536870912") &&
		       is(MEM, "memory.kmem.tcp.limit_in_bytes", "1000") &&
		       is(MEM, "memory.swappiness", "60") && is(MEM, "memory.oom_control", "1") &&
		       is(MEM, "memory.use_hierarchy", "1") && is_written(DEVS, ""),
		   "v1 memory: limit, memsw = memory+swap as given, soft limit, kmem.tcp, "
		   "swappiness, oom_control, use_hierarchy; skip_devices writes no rule");
		m = (struct oci_memory){.limit = -1, .has_limit = true};
		ok(apply_v1(RES(.memory = &m, .skip_devices = true), NULL, err) == 0 &&
		       is(MEM, "memory.limit_in_bytes", "-1") &&
		       is(MEM, "memory.memsw.limit_in_bytes", "-1"),
		   "v1 memory: limit -1 without swap lifts memsw too");
		m = (struct oci_memory){.kernel = 5, .has_kernel = true};
		ok(apply_v1(RES(.memory = &m, .skip_devices = true), NULL, err) == 0 &&
		       is_written(MEM, ""),
		   "v1 memory: a kmem limit with no kmem file is only a warning");
	}
	{
		struct oci_cpu c = {.shares = 512,
		                    .has_shares = true,
		                    .quota = 50000,
		                    .has_quota = true,
		                    .period = 100000,
		                    .has_period = true,
		                    .burst = 20,
		                    .has_burst = true,
		                    .realtime_period = 1000000,
		                    .has_realtime_period = true,
		                    .realtime_runtime = 950000,
		                    .has_realtime_runtime = true,
		                    .idle = 0,
		                    .has_idle = true,
		                    .cpus = "3",
		                    .mems = "0-1"};

		ok(apply_v1(RES(.cpu = &c, .skip_devices = true), NULL, err) == 0 &&
		       is(CPU, "cpu.shares", "512") && is(CPU, "cpu.cfs_period_us", "100000") &&
		       is(CPU, "cpu.cfs_quota_us", "50000") && is(CPU, "cpu.cfs_burst_us", "20") &&
		       is(CPU, "cpu.rt_period_us", "1000000") &&
		       is(CPU, "cpu.rt_runtime_us", "950000") && is(CPU, "cpu.idle", "0") &&
		       is(CSET, "cpuset.cpus", "3") && is(CSET, "cpuset.mems", "0-1"),
		   "v1 cpu: shares as they are, CFS and RT pairs, burst, idle; cpuset");
		c = (struct oci_cpu){.quota = -1, .has_quota = true};
		ok(apply_v1(RES(.cpu = &c, .skip_devices = true), NULL, err) == 0 &&
		       is_written(CPU, "cpu.cfs_quota_us") && is(CPU, "cpu.cfs_quota_us", "-1"),
		   "v1 cpu: a quota alone, -1 as it is");
	}
	{
		struct oci_pids p = {.limit = -1};

		ok(apply_v1(RES(.pids = &p, .skip_devices = true), NULL, err) == 0 &&
		       is(PIDS, "pids.max", "max"),
		   "v1 pids: -1 -> max");
		p.limit = 4096;
		ok(apply_v1(RES(.pids = &p, .skip_devices = true), NULL, err) == 0 &&
		       is(PIDS, "pids.max", "4096"),
		   "v1 pids: 4096");
	}
	{
		struct oci_weight_device wd[] = {{8, 0, 100, 50, true, true}};
		struct oci_throttle_device rb[] = {{8, 0, 1048576}}, wb[] = {{8, 16, 2}},
		                           ri[] = {{8, 0, 300}}, wi[] = {{8, 0, 400}, {8, 16, 500}};
		struct oci_blockio b = {.weight = 500,
		                        .has_weight = true,
		                        .leaf_weight = 300,
		                        .has_leaf_weight = true,
		                        .weight_device = wd,
		                        .n_weight_device = 1,
		                        .throttle_read_bps = rb,
		                        .n_throttle_read_bps = 1,
		                        .throttle_write_bps = wb,
		                        .n_throttle_write_bps = 1,
		                        .throttle_read_iops = ri,
		                        .n_throttle_read_iops = 1,
		                        .throttle_write_iops = wi,
		                        .n_throttle_write_iops = 2};

		ok(apply_v1(RES(.block_io = &b, .skip_devices = true), NULL, err) == 0 &&
		       is(BLK, "blkio.weight", "500") && is(BLK, "blkio.leaf_weight", "300") &&
		       is(BLK, "blkio.weight_device", "8:0 100") &&
		       is(BLK, "blkio.leaf_weight_device", "8:0 50") &&
		       is(BLK, "blkio.throttle.read_bps_device", "8:0 1048576") &&
		       is(BLK, "blkio.throttle.write_bps_device", "8:16 2") &&
		       is(BLK, "blkio.throttle.read_iops_device", "8:0 300") &&
		       is(BLK, "blkio.throttle.write_iops_device", "8:0 4008:16 500"),
		   "v1 blkio: weights as they are (no mapping), one line per device");
	}
	{
		struct oci_hugepage_limit hl[] = {{"2MB", 4194304}};
		struct oci_net_priority pr[] = {{"eth0", 5}, {"lo", 2}};
		struct oci_network n = {.class_id = 0x100001,
		                        .has_class_id = true,
		                        .priorities = pr,
		                        .n_priorities = 2};
		struct oci_rdma rd[] = {{"mlx5_0", 1, 0, true, false}};

		ok(apply_v1(RES(.hugepage_limits = hl, .n_hugepage_limits = 1, .network = &n,
		                .rdma = rd, .n_rdma = 1, .skip_devices = true),
		            NULL, err) == 0 &&
		       is(HUGE, "hugetlb.2MB.limit_in_bytes", "4194304") &&
		       is(NET, "net_cls.classid", "1048577") &&
		       is(NET, "net_prio.ifpriomap", "eth0 5lo 2") &&
		       is(RDMA, "rdma.max", "mlx5_0 hca_handle=1"),
		   "v1 hugetlb limit_in_bytes, net_cls classid in decimal, ifpriomap lines, rdma");
		hl[0].page_size = "64KB";
		ok(apply_v1(RES(.hugepage_limits = hl, .n_hugepage_limits = 1, .network = &n,
		                .rdma = rd, .n_rdma = 1, .skip_devices = true),
		            NULL, err) < 0 &&
		       strstr(werr_msg(err), "hugepageLimits[0]") &&
		       strstr(werr_msg(err), "hugetlb.64KB.limit_in_bytes"),
		   "v1 hugetlb: a size with no file fails, naming the field and the file");
		werr_clear(err);
	}
	{
		struct jkv un[] = {{"memory.high", "1"}};

		ok(apply_v1(RES(.unified = un, .n_unified = 1, .skip_devices = true), NULL, err) <
		           0 &&
		       strstr(werr_msg(err), "no cgroup2 hierarchy"),
		   "v1 host: unified keys refused");
		werr_clear(err);
	}
}

/* Weights by BFQ's files where CFQ's are gone, and neither: said so. */
static void test_blkio_weights(void)
{
	struct fake bfq, none;
	const char *bf[] = {"blkio.bfq.weight", "blkio.bfq.weight_device", NULL};
	const char *nf[] = {"blkio.throttle.read_bps_device", NULL};
	struct oci_weight_device wd[] = {{8, 0, 100, 0, true, false}};
	struct oci_blockio b = {
	    .weight = 700, .has_weight = true, .weight_device = wd, .n_weight_device = 1};

	if (!ok(fake_make(&bfq, "bfq", "blkio", bf) == 0 &&
	            fake_make(&none, "nosched", "blkio", nf) == 0,
	        "fake blkio dirs without CFQ's files"))
		return;
	ok(cg1_blkio(&(struct cg_res){.h = &bfq.h, .r = RES(.block_io = &b)}, err) == 0 &&
	       (fake_collect(&bfq), 1) && is(&bfq, "blkio.bfq.weight", "700") &&
	       is(&bfq, "blkio.bfq.weight_device", "8:0 100"),
	   "v1 blkio: BFQ's weight files when CFQ's are not there");
	ok(cg1_blkio(&(struct cg_res){.h = &none.h, .r = RES(.block_io = &b)}, err) < 0 &&
	       strstr(werr_msg(err), "takes no weights"),
	   "v1 blkio: no weight file at all is said so (not ENOENT)");
	werr_clear(err);
	b.has_weight = false;
	ok(cg1_blkio(&(struct cg_res){.h = &none.h, .r = RES(.block_io = &b)}, err) < 0 &&
	       strstr(werr_msg(err), "weightDevice[0]") &&
	       strstr(werr_msg(err), "takes no weights"),
	   "and for weightDevice");
	werr_clear(err);
	fake_free(&bfq);
	fake_free(&none);
}

/* Hybrid: a controller with no v1 hierarchy goes to cgroup2 only when the
 * cgroup2 root lists it; one neither has is not available. */
static void test_hybrid(void)
{
	struct fake h1, u;
	const char *pf[] = {"pids.max", NULL};
	const char *uf[] = {"hugetlb.2MB.max", "pids.max", NULL};
	char p[PATH_MAX + 32];
	struct oci_pids pl = {.limit = 7};
	struct oci_hugepage_limit hl[] = {{"2MB", 2097152}};
	struct oci_rdma rd[] = {{"mlx5_0", 1, 0, true, false}};
	struct cgroup cg = {.layout = CG_HYBRID, .n_v1 = 1};

	if (!ok(fake_make(&h1, "hy-pids", "pids", pf) == 0 &&
	            fake_make(&u, "hy-unified", "", uf) == 0,
	        "fake hybrid host"))
		return;
	snprintf(p, sizeof(p), "%s/cgroup.controllers", u.mnt);
	put_file(AT_FDCWD, p, "cpu hugetlb\n");
	cg.v1 = &h1.h;
	cg.unified = &u.h;
	ok(cgroup_apply(
	       &cg,
	       &(struct oci_linux){.resources = RES(.pids = &pl, .hugepage_limits = hl,
	                                            .n_hugepage_limits = 1, .skip_devices = true)},
	       err) == 0 &&
	       (fake_collect(&h1), fake_collect(&u), 1) && is(&h1, "pids.max", "7") &&
	       is(&u, "hugetlb.2MB.max", "2097152") && is(&u, "pids.max", ""),
	   "hybrid: pids to its v1 hierarchy, hugetlb to cgroup2 (listed there)");
	ok(cgroup_apply(
	       &cg,
	       &(struct oci_linux){.resources = RES(.rdma = rd, .n_rdma = 1, .skip_devices = true)},
	       err) < 0 &&
	       werr_errno(err) == ENOENT &&
	       strstr(werr_msg(err), "the rdma cgroup controller is not available"),
	   "hybrid: a controller neither hierarchy has is not available");
	werr_clear(err);
	cg.unified = NULL;
	ok(cgroup_apply(&cg, &(struct oci_linux){.resources = RES(.skip_devices = false)}, err) <
	           0 &&
	       strstr(werr_msg(err), "no devices cgroup controller and no cgroup2"),
	   "no devices controller and no cgroup2: device rules cannot be set");
	werr_clear(err);
	fake_free(&h1);
	fake_free(&u);
}

/* The file primitives themselves, on plain files. */
static void test_files(void)
{
	char d[PATH_MAX + 16], buf[16];
	struct cg_hier h = {.name = d, .fd = -1, .err = EACCES};
	int dfd;

	snprintf(d, sizeof(d), "%s/plain", base);
	mkdir(d, 0755);
	dfd = open(d, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	put_file(dfd, "f", "");
	ok(cg_write_at(dfd, d, "f", "12345", err) == 0 &&
	       get_file(dfd, "f", buf, sizeof(buf)) == 0 && strcmp(buf, "12345") == 0,
	   "cg_write_at writes the value, no newline");
	ok(cg_write_at(dfd, d, "nofile", "1", err) < 0 && !exists_at(dfd, "nofile") &&
	       werr_errno(err) == ENOENT,
	   "cg_write_at never creates a file");
	werr_clear(err);
	ok(cg_read_at(dfd, "f", buf, sizeof(buf), err) == 0 && strcmp(buf, "12345") == 0,
	   "cg_read_at reads it");
	ok(cg_read_at(dfd, "f", buf, 5, err) < 0 && werr_errno(err) == EFBIG,
	   "cg_read_at of a value longer than the buffer: an error, not cut");
	werr_clear(err);
	ok(cg_write(&h, "pids.max", "1", err) < 0 && werr_errno(err) == EACCES &&
	       strstr(werr_msg(err), "/plain/pids.max"),
	   "a hierarchy that could not be opened: its reason, the file named");
	werr_clear(err);
	ok(cg_read(&h, "x", buf, sizeof(buf), err) < 0 && cg_open(&h, "x", O_RDONLY) < 0 &&
	       errno == EACCES,
	   "cg_read / cg_open of it fail with that reason");
	{
		const struct {
			uint64_t in, out;
		} sw[] = {{0, 1}, {1, 1}, {2, 1}, {1024, 39}, {262144, 10000}, {1000000, 10000}};
		const struct {
			uint32_t in;
			uint64_t out;
		} bw[] = {{10, 1}, {100, 910}, {500, 4950}, {1000, 10000}};
		int fails = 0;

		for (size_t i = 0; i < sizeof(sw) / sizeof(sw[0]); i++)
			fails += cg2_shares_to_weight(sw[i].in) != sw[i].out;
		for (size_t i = 0; i < sizeof(bw) / sizeof(bw[0]); i++)
			fails += cg2_blkio_to_io_weight(bw[i].in) != bw[i].out;
		ok(fails == 0, "shares -> weight (clamped to 2..262144), blkio -> io weights");
	}
	close(dfd);
}

int main(void)
{
	umask(022);
	if (!ok(tmp_make(base, sizeof(base), "cgwrite") != NULL, "scratch dir"))
		return tap_done();
	test_v2();
	test_v1();
	for (size_t i = 0; i < 9; i++)
		fake_free(&v1[i]);
	test_blkio_weights();
	test_hybrid();
	test_files();
	tmp_remove(base);
	werr_clear(err);
	return tap_done();
}
