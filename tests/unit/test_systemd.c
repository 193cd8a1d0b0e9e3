/* The systemd cgroup driver's pure parts: runc's "slice:prefix:name" into
 * the unit and the cgroup path systemd gives it (systemd.slice(5)), and
 * linux.resources into unit properties (systemd.resource-control(5)). The
 * expected values are written here from those pages, not from the code. */
#include "cgroup/cg_systemd.h"
#include "lib/error.h"
#include "policy/policy.h"
#include "tap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void paths(void)
{
	static const struct {
		const char *in, *unit, *slice, *path;
	} good[] = {
	    {"machine.slice:libpod:abc", "libpod-abc.scope", "machine.slice",
	     "/machine.slice/libpod-abc.scope"},
	    {":cri-containerd:c1", "cri-containerd-c1.scope", "system.slice",
	     "/system.slice/cri-containerd-c1.scope"},
	    {"kubepods-burstable-pod1_2.slice:cri-containerd:c1", "cri-containerd-c1.scope",
	     "kubepods-burstable-pod1_2.slice",
	     "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1_2.slice/"
	     "cri-containerd-c1.scope"},
	    {"-.slice:x:y", "x-y.scope", "-.slice", "/x-y.scope"},
	    {"user.slice::name", "name.scope", "user.slice", "/user.slice/name.scope"},
	    {"", "ward-ID.scope", "system.slice", "/system.slice/ward-ID.scope"},
	};
	static const struct {
		const char *in, *why;
	} bad[] = {
	    {"/ward/c1", "not a cgroupfs path"},
	    {"a:b", "not a cgroupfs path"},
	    {"a.slice:b:c:d", "not a cgroupfs path"},
	    {"machine:libpod:x", "not a slice unit name"},
	    {"-machine.slice:p:x", "empty level"},
	    {"machine-.slice:p:x", "empty level"},
	    {"a--b.slice:p:x", "empty level"},
	    {".slice:p:x", "empty level"},
	    {"a/b.slice:p:x", "not a slice unit name"},
	    {"machine.slice:p/q:x", "letters, digits"},
	    {"machine.slice:p:../x", "letters, digits"},
	    {"machine.slice:p:", "is empty"},
	    {"machine.slice:p:pod.slice", "not supported"},
	};
	char path[4096], unit[SD_UNIT_MAX], slice[SD_UNIT_MAX];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		int r = sd_parse_path(good[i].in, "ID", path, sizeof(path), unit, sizeof(unit),
		                      slice, sizeof(slice), err);

		ok(r == 0 && strcmp(unit, good[i].unit) == 0 && strcmp(slice, good[i].slice) == 0 &&
		       strcmp(path, good[i].path) == 0,
		   "\"%s\" is %s in %s at %s (got %s %s %s)", good[i].in, good[i].unit,
		   good[i].slice, good[i].path, r == 0 ? unit : werr_msg(err), slice, path);
	}
	{
		/* A slice too long for a unit name is refused, not cut to
		 * another slice's name. */
		char longer[600];

		memset(longer, 'a', 300);
		snprintf(longer + 300, sizeof(longer) - 300, ".slice:p:x");
		int r = sd_parse_path(longer, "ID", path, sizeof(path), unit, sizeof(unit), slice,
		                      sizeof(slice), err);

		ok(r < 0 && strstr(werr_msg(err), "too long"),
		   "a 306-character slice is refused (%s)", werr_msg(err));
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int r = sd_parse_path(bad[i].in, "ID", path, sizeof(path), unit, sizeof(unit),
		                      slice, sizeof(slice), err);

		ok(r < 0 && strstr(werr_msg(err), bad[i].why) &&
		       strstr(werr_msg(err), ".linux.cgroupsPath"),
		   "\"%s\" is refused: %s (got: %s)", bad[i].in, bad[i].why,
		   r < 0 ? werr_msg(err) : "");
	}
}

static const struct sd_prop *prop(const struct sd_props *p, const char *name)
{
	for (size_t i = 0; i < p->n; i++)
		if (strcmp(p->p[i].name, name) == 0)
			return &p->p[i];
	return NULL;
}

static bool has_u(const struct sd_props *p, const char *name, uint64_t v)
{
	const struct sd_prop *q = prop(p, name);

	return q && q->type == 't' && q->u == v;
}

static void props(void)
{
	struct oci_memory mem = {.limit = 64 << 20,
	                         .has_limit = true,
	                         .swap = 96 << 20,
	                         .has_swap = true,
	                         .reservation = 32 << 20,
	                         .has_reservation = true};
	struct oci_cpu cpu = {.shares = 1024,
	                      .has_shares = true,
	                      .quota = 25000,
	                      .has_quota = true,
	                      .period = 100000,
	                      .has_period = true,
	                      .cpus = "0-2,9",
	                      .mems = "0"};
	struct oci_pids pids = {.limit = 100};
	struct oci_blockio bio = {.weight = 500, .has_weight = true};
	struct oci_resources r = {.memory = &mem, .cpu = &cpu, .pids = &pids, .block_io = &bio};
	struct oci_resources none = {0};
	struct sd_props p;
	const struct sd_prop *q;

	ok(sd_props_from_resources(&r, true, true, &p, err) == 0, "v2 properties");
	ok(has_u(&p, "MemoryMax", 64 << 20), "memory.limit is MemoryMax");
	ok(has_u(&p, "MemorySwapMax", 32 << 20),
	   "memory.swap (memory+swap) less the limit is MemorySwapMax");
	ok(has_u(&p, "MemoryLow", 32 << 20), "memory.reservation is MemoryLow");
	/* cgroup2's weight from shares: 1 + (shares - 2) * 9999 / 262142. */
	ok(has_u(&p, "CPUWeight", 39), "cpu.shares 1024 is CPUWeight 39");
	ok(has_u(&p, "CPUQuotaPerSecUSec", 250000), "a quarter CPU is 250000 us per second");
	ok(has_u(&p, "CPUQuotaPeriodUSec", 100000), "cpu.period is CPUQuotaPeriodUSec");
	ok(has_u(&p, "TasksMax", 100), "pids.limit is TasksMax");
	/* io weight from blkio: 1 + (w - 10) * 9999 / 990. */
	ok(has_u(&p, "IOWeight", 4950), "blockIO.weight 500 is IOWeight 4950");
	q = prop(&p, "AllowedCPUs");
	ok(q && q->type == 'y' && q->n_bytes == 2 && q->bytes[0] == 0x07 && q->bytes[1] == 0x02,
	   "cpus 0-2,9 is the bitmask 07 02");
	q = prop(&p, "AllowedMemoryNodes");
	ok(q && q->n_bytes == 1 && q->bytes[0] == 0x01, "mems 0 is the bitmask 01");
	ok(prop(&p, "Delegate") == NULL && prop(&p, "PIDs") == NULL,
	   "no unit identity among the resource properties");
	for (const char *const *a = (const char *const[]){"MemoryAccounting", "CPUAccounting",
	                                                  "TasksAccounting", "IOAccounting", NULL};
	     *a; a++)
		ok(prop(&p, *a) && prop(&p, *a)->type == 'b' && prop(&p, *a)->u == 1, "%s=yes", *a);
	sd_props_free(&p);

	ok(sd_props_from_resources(&r, false, true, &p, err) == 0, "v1 (legacy) properties");
	ok(has_u(&p, "MemoryLimit", 64 << 20) && !prop(&p, "MemoryMax"),
	   "memory.limit is MemoryLimit");
	ok(has_u(&p, "CPUShares", 1024) && !prop(&p, "CPUWeight"), "cpu.shares is CPUShares");
	ok(has_u(&p, "BlockIOWeight", 500) && prop(&p, "BlockIOAccounting"), "BlockIOWeight");
	ok(!prop(&p, "AllowedCPUs") && !prop(&p, "MemorySwapMax"), "no v2-only properties on v1");
	sd_props_free(&p);

	ok(sd_props_from_resources(&none, true, true, &p, err) == 0 &&
	       has_u(&p, "TasksMax", UINT64_MAX),
	   "no pids limit: TasksMax=infinity (not systemd's DefaultTasksMax)");
	sd_props_free(&p);
	ok(sd_props_from_resources(&none, true, false, &p, err) == 0 && p.n == 0,
	   "an update that names nothing sets nothing");
	sd_props_free(&p);

	cpu = (struct oci_cpu){
	    .quota = 1234, .has_quota = true, .period = 100000, .has_period = true};
	r = (struct oci_resources){.cpu = &cpu};
	ok(sd_props_from_resources(&r, true, false, &p, err) == 0 &&
	       has_u(&p, "CPUQuotaPerSecUSec", 20000) && !prop(&p, "TasksMax"),
	   "a quota systemd cannot hold (12340 us/s) is rounded up to its 10 ms steps");
	sd_props_free(&p);
	mem = (struct oci_memory){.limit = -1, .has_limit = true, .swap = -1, .has_swap = true};
	r = (struct oci_resources){.memory = &mem};
	ok(sd_props_from_resources(&r, true, false, &p, err) == 0 &&
	       has_u(&p, "MemoryMax", UINT64_MAX) && has_u(&p, "MemorySwapMax", UINT64_MAX),
	   "-1 is infinity");
	sd_props_free(&p);
	mem = (struct oci_memory){
	    .reservation = -1, .has_reservation = true, .swap = 1 << 20, .has_swap = true};
	r = (struct oci_resources){.memory = &mem};
	ok(sd_props_from_resources(&r, true, false, &p, err) == 0 &&
	       has_u(&p, "MemoryLow", UINT64_MAX) && has_u(&p, "MemorySwapMax", 1 << 20),
	   "reservation -1 is MemoryLow=infinity; swap without a limit is the swap itself");
	sd_props_free(&p);
	cpu = (struct oci_cpu){.quota = INT64_MAX, .has_quota = true};
	r = (struct oci_resources){.cpu = &cpu};
	ok(sd_props_from_resources(&r, true, false, &p, err) == 0 &&
	       has_u(&p, "CPUQuotaPerSecUSec", UINT64_MAX),
	   "a quota too large to convert is no quota (no overflow)");
	sd_props_free(&p);
	{
		struct jkv u[] = {{"memory.high", "50331648"},
		                  {"pids.max", "max"},
		                  {"memory.max", "1e9"},
		                  {"cpu.weight", "300"},
		                  {"io.max", "8:0 rbps=1"}};

		r = (struct oci_resources){.unified = u, .n_unified = 5};
		ok(sd_props_from_resources(&r, true, false, &p, err) == 0 &&
		       has_u(&p, "MemoryHigh", 50331648) && has_u(&p, "TasksMax", UINT64_MAX) &&
		       has_u(&p, "CPUWeight", 300) && !prop(&p, "MemoryMax") && p.n == 3,
		   "unified keys systemd also writes become its properties (not a bad number, "
		   "not what it has none for)");
		sd_props_free(&p);
	}
	cpu = (struct oci_cpu){.cpus = "0-3,x"};
	r = (struct oci_resources){.cpu = &cpu};
	werr_clear(err); /* ok()'s arguments: any order */
	ok(sd_props_from_resources(&r, true, true, &p, err) < 0 &&
	       strstr(werr_msg(err), "linux.resources.cpu.cpus"),
	   "a bad cpu list names its field (%s)", werr_msg(err));
}

static void masks(void)
{
	static const char *const bad[] = {"3-1", "8192", "1,", "a", "1-", "-1", "1;2", NULL};
	uint8_t *m;
	size_t n;

	ok(sd_cpuset_mask("0,8-9,15", "t", &m, &n, err) == 0 && n == 2 && m[0] == 0x01 &&
	       m[1] == 0x83,
	   "0,8-9,15 is 01 83");
	free(m);
	ok(sd_cpuset_mask("0-1\n", "t", &m, &n, err) == 0 && n == 1 && m[0] == 0x03,
	   "a list as the kernel prints it (a newline at the end)");
	free(m);
	ok(sd_cpuset_mask("1\n2", "t", &m, &n, err) < 0 && m == NULL,
	   "a newline inside the list is refused");
	for (size_t i = 0; bad[i]; i++)
		ok(sd_cpuset_mask(bad[i], "t", &m, &n, err) < 0 && m == NULL,
		   "\"%s\" is no cpu list", bad[i]);
}

static void policy_key(void)
{
	struct policy *p = policy_parse("{\"cgroupManager\": \"systemd\"}", 28, "policy.json", err);

	ok(p && policy_systemd_cgroup(p), "cgroupManager systemd selects the driver");
	policy_free(p);
	p = policy_parse("{}", 2, "policy.json", err);
	ok(p && !policy_systemd_cgroup(p), "cgroupfs by default");
	policy_free(p);
	p = policy_parse("{\"cgroupManager\": \"sd\"}", 23, "policy.json", err);
	ok(p == NULL && strstr(werr_msg(err), ".cgroupManager: must be cgroupfs or systemd"),
	   "another manager is refused (%s)", werr_msg(err));
}

int main(void)
{
	paths();
	props();
	masks();
	policy_key();
	return tap_done();
}
