/* config.json parser: a full valid config, each error message, hostile input. */
#include "oci/config.h"
#include "lib/error.h"
#include "oci/names.h"
#include "tap.h"

#include <linux/capability.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#define MIN_HEAD "{\"ociVersion\":\"1.2.0\",\"root\":{\"path\":\"rootfs\"},"
#define MIN_PROC "\"process\":{\"user\":{\"uid\":0,\"gid\":0},\"args\":[\"sh\"],\"cwd\":\"/\"}"

static const char full[] =
    "{\"ociVersion\":\"1.2.0\","
    "\"process\":{\"terminal\":false,\"consoleSize\":{\"height\":24,\"width\":80},"
    "\"user\":{\"uid\":1000,\"gid\":1001,\"umask\":18,\"additionalGids\":[5,6]},"
    "\"args\":[\"sh\",\"-c\",\"true\"],\"env\":[\"PATH=/bin\",\"A=b=c\"],\"cwd\":\"/home\","
    "\"capabilities\":{\"bounding\":[\"CAP_KILL\",\"CAP_CHOWN\"],\"effective\":[\"CAP_KILL\"],"
    "\"inheritable\":[],\"permitted\":[\"CAP_KILL\"],\"ambient\":[]},"
    "\"rlimits\":[{\"type\":\"RLIMIT_NOFILE\",\"hard\":1024,\"soft\":512},"
    "{\"type\":\"RLIMIT_AS\",\"hard\":18446744073709551615,\"soft\":18446744073709551615}],"
    "\"noNewPrivileges\":true,\"apparmorProfile\":\"\",\"oomScoreAdj\":-500,"
    "\"selinuxLabel\":\"\",\"unknownFutureField\":{\"x\":[1,2]}},"
    "\"root\":{\"path\":\"rootfs\",\"readonly\":true},"
    "\"hostname\":\"h\",\"domainname\":\"d\","
    "\"mounts\":[{\"destination\":\"/proc\",\"type\":\"proc\",\"source\":\"proc\"},"
    "{\"destination\":\"/data\",\"type\":\"bind\",\"source\":\"/"
    "srv\",\"options\":[\"rbind\",\"ro\"]}],"
    "\"hooks\":{\"prestart\":[{\"path\":\"/bin/"
    "true\",\"args\":[\"true\"],\"env\":[\"X=1\"],\"timeout\":5}],"
    "\"poststop\":[{\"path\":\"/bin/false\"}]},"
    "\"annotations\":{\"a\":\"1\",\"b\":\"2\"},"
    "\"linux\":{\"namespaces\":[{\"type\":\"pid\"},{\"type\":\"mount\"},{\"type\":\"user\"},"
    "{\"type\":\"network\",\"path\":\"/var/run/netns/x\"}],"
    "\"uidMappings\":[{\"containerID\":0,\"hostID\":100000,\"size\":65536}],"
    "\"gidMappings\":[{\"containerID\":0,\"hostID\":100000,\"size\":65536}],"
    "\"devices\":[{\"type\":\"c\",\"path\":\"/dev/fuse\",\"major\":10,\"minor\":229,"
    "\"fileMode\":438,\"uid\":0,\"gid\":0}],"
    "\"cgroupsPath\":\"/ward/x\",\"rootfsPropagation\":\"rslave\","
    "\"sysctl\":{\"net.ipv4.ip_forward\":\"1\"},"
    "\"maskedPaths\":[\"/proc/kcore\"],\"readonlyPaths\":[\"/proc/sys\"],"
    "\"mountLabel\":\"\",\"resources\":{}}}";

static struct oci_config *parse(const char *s)
{
	werr_clear(err);
	return oci_config_parse(s, strlen(s), "config.json", err);
}

static void test_full(void)
{
	struct oci_config *c = parse(full);

	if (!ok(c != NULL, "full config parses")) {
		diag("%s", werr_msg(err));
		return;
	}
	ok(strcmp(c->oci_version, "1.2.0") == 0, "ociVersion");
	ok(c->process->user->uid == 1000 && c->process->user->gid == 1001, "user uid/gid");
	ok(c->process->user->has_umask && c->process->user->umask == 18, "umask");
	ok(c->process->user->n_additional_gids == 2 && c->process->user->additional_gids[1] == 6,
	   "additionalGids");
	ok(c->process->n_args == 3 && strcmp(c->process->args[2], "true") == 0 &&
	       c->process->args[3] == NULL,
	   "args NULL-terminated");
	ok(c->process->n_env == 2 && strcmp(c->process->env[1], "A=b=c") == 0, "env");
	ok(c->process->capabilities->bounding == ((1ULL << CAP_KILL) | (1ULL << CAP_CHOWN)),
	   "bounding set");
	ok(c->process->capabilities->has_inheritable && c->process->capabilities->inheritable == 0,
	   "empty inheritable set is present");
	ok(c->process->n_rlimits == 2 && c->process->rlimits[0].resource == RLIMIT_NOFILE &&
	       c->process->rlimits[0].soft == 512,
	   "rlimit");
	ok(c->process->rlimits[1].hard == UINT64_MAX, "uint64 max rlimit is exact");
	ok(c->process->no_new_privileges, "noNewPrivileges");
	ok(c->process->has_oom_score_adj && c->process->oom_score_adj == -500, "oomScoreAdj");
	ok(c->process->console_size && c->process->console_size->width == 80, "consoleSize");
	ok(c->root->readonly && strcmp(c->root->path, "rootfs") == 0, "root");
	ok(strcmp(c->hostname, "h") == 0 && strcmp(c->domainname, "d") == 0, "hostname/domain");
	ok(c->n_mounts == 2 && c->mounts[1].n_options == 2 &&
	       strcmp(c->mounts[1].options[0], "rbind") == 0,
	   "mounts");
	ok(c->hooks->point[HOOK_PRESTART].n == 1 &&
	       c->hooks->point[HOOK_PRESTART].hooks[0].timeout == 5 &&
	       c->hooks->point[HOOK_POSTSTOP].n == 1,
	   "hooks");
	ok(c->n_annotations == 2 && strcmp(oci_config_annotation(c, "b"), "2") == 0, "annotations");
	ok(oci_config_namespace(c, CLONE_NEWUSER) != NULL &&
	       strcmp(oci_config_namespace(c, CLONE_NEWNET)->path, "/var/run/netns/x") == 0,
	   "namespaces");
	ok(c->linux->n_uid_mappings == 1 && c->linux->uid_mappings[0].host_id == 100000,
	   "uidMappings");
	ok(c->linux->n_devices == 1 && c->linux->devices[0].major == 10 &&
	       c->linux->devices[0].file_mode == 438,
	   "devices");
	ok(strcmp(c->linux->cgroups_path, "/ward/x") == 0, "cgroupsPath");
	ok(c->linux->n_sysctl == 1 && strcmp(c->linux->sysctl[0].value, "1") == 0, "sysctl");
	ok(c->linux->n_masked_paths == 1 && c->linux->n_readonly_paths == 1, "masked/readonly");
	oci_config_free(c);
}

struct err_case {
	const char *json;
	const char *want; /* substring of the message */
};

static const struct err_case errors[] = {
    {"", "invalid JSON"},
    {"[]", "config.json: (top level): must be an object"},
    {"{\"ociVersion\":\"1.0.0\",\"root\":{\"path\":\"r\"}}", "\"process\" is required"},
    {"{}", ".ociVersion: required field is missing"},
    {"{\"ociVersion\":\"2.0.0\"," MIN_PROC ",\"root\":{\"path\":\"r\"}}",
     ".ociVersion: unsupported version \"2.0.0\""},
    {"{\"ociVersion\":1}", ".ociVersion: must be a non-empty string"},
    {MIN_HEAD "\"process\":{\"user\":{\"uid\":0,\"gid\":0},\"args\":[],\"cwd\":\"/\"}}",
     "config.json: .process.args: must be a non-empty array of strings"},
    {MIN_HEAD "\"process\":{\"user\":{\"uid\":0,\"gid\":0},\"args\":[\"a\",3],\"cwd\":\"/\"}}",
     ".process.args[1]: must be a string"},
    {MIN_HEAD "\"process\":{\"user\":{\"uid\":0,\"gid\":0},\"args\":[\"a\"],\"cwd\":\"x\"}}",
     ".process.cwd: must be an absolute path"},
    {MIN_HEAD "\"process\":{\"user\":{\"uid\":-1,\"gid\":0},\"args\":[\"a\"],\"cwd\":\"/\"}}",
     ".process.user.uid: must not be negative"},
    {MIN_HEAD
     "\"process\":{\"user\":{\"uid\":4294967296,\"gid\":0},\"args\":[\"a\"],\"cwd\":\"/\"}}",
     ".process.user.uid: out of range"},
    {MIN_HEAD "\"process\":{\"user\":{\"uid\":1.5,\"gid\":0},\"args\":[\"a\"],\"cwd\":\"/\"}}",
     ".process.user.uid: must be an integer, not 1.5"},
    {MIN_HEAD "\"process\":{\"user\":{\"uid\":1e3,\"gid\":0},\"args\":[\"a\"],\"cwd\":\"/\"}}",
     "must be an integer"},
    {MIN_HEAD "\"process\":{\"user\":{\"uid\":0},\"args\":[\"a\"],\"cwd\":\"/\"}}",
     ".process.user.gid: required field is missing"},
    {MIN_HEAD "\"process\":{\"user\":{\"uid\":0,\"gid\":0},\"args\":[\"a\"],\"cwd\":\"/\","
              "\"capabilities\":{\"bounding\":[\"CAP_FLY\"]}}}",
     ".process.capabilities.bounding[0]: unknown capability \"CAP_FLY\""},
    {MIN_HEAD "\"process\":{\"user\":{\"uid\":0,\"gid\":0},\"args\":[\"a\"],\"cwd\":\"/\","
              "\"rlimits\":[{\"type\":\"RLIMIT_FOO\",\"hard\":1,\"soft\":1}]}}",
     ".process.rlimits[0].type: unknown rlimit \"RLIMIT_FOO\""},
    {MIN_HEAD "\"process\":{\"user\":{\"uid\":0,\"gid\":0},\"args\":[\"a\"],\"cwd\":\"/\","
              "\"rlimits\":[{\"type\":\"RLIMIT_CORE\",\"hard\":1,\"soft\":2}]}}",
     ".process.rlimits[0].soft: soft limit 2 exceeds hard limit 1"},
    {MIN_HEAD "\"process\":{\"user\":{\"uid\":0,\"gid\":0},\"args\":[\"a\"],\"cwd\":\"/\","
              "\"rlimits\":[{\"type\":\"RLIMIT_CORE\",\"hard\":1,\"soft\":1},"
              "{\"type\":\"RLIMIT_CORE\",\"hard\":1,\"soft\":1}]}}",
     ".process.rlimits[1]: duplicate rlimit"},
    {MIN_HEAD "\"process\":{\"user\":{\"uid\":0,\"gid\":0},\"args\":[\"a\"],\"cwd\":\"/\","
              "\"oomScoreAdj\":1001}}",
     ".process.oomScoreAdj: must be between -1000 and 1000"},
    {MIN_HEAD "\"process\":{\"user\":{\"uid\":0,\"gid\":0},\"args\":[\"a\"],\"cwd\":\"/\","
              "\"env\":[\"NOEQUALS\"]}}",
     ".process.env[0]: must be of the form NAME=value"},
    {MIN_HEAD "\"process\":{\"user\":{\"uid\":0,\"gid\":0},\"args\":[\"a\"],\"cwd\":\"/\","
              "\"terminal\":\"yes\"}}",
     ".process.terminal: must be true or false"},
    {MIN_HEAD "\"process\":{\"user\":{\"uid\":0,\"gid\":0},\"args\":[\"a\"],\"cwd\":\"/\","
              "\"scheduler\":{\"policy\":\"SCHED_PANIC\"}}}",
     ".process.scheduler.policy: unknown value \"SCHED_PANIC\""},
    {MIN_HEAD "\"process\":{\"user\":{\"uid\":0,\"gid\":0},\"args\":[\"a\"],\"cwd\":\"/\","
              "\"ioPriority\":{\"class\":\"IOPRIO_CLASS_BE\",\"priority\":9}}}",
     ".process.ioPriority.priority: must be between 0 and 7 (got 9)"},
    {MIN_HEAD MIN_PROC ",\"linux\":{\"namespaces\":[{\"type\":\"pid\"},{\"type\":\"pid\"}]}}",
     ".linux.namespaces[1]: duplicate namespace \"pid\""},
    {MIN_HEAD MIN_PROC ",\"linux\":{\"namespaces\":[{\"type\":\"bogus\"}]}}",
     ".linux.namespaces[0].type: unknown namespace type \"bogus\""},
    {MIN_HEAD MIN_PROC
     ",\"linux\":{\"uidMappings\":[{\"containerID\":0,\"hostID\":1,\"size\":0}]}}",
     ".linux.uidMappings[0].size: must be greater than 0"},
    {MIN_HEAD MIN_PROC ",\"linux\":{\"rootfsPropagation\":\"sideways\"}}",
     ".linux.rootfsPropagation: unknown propagation \"sideways\""},
    {MIN_HEAD MIN_PROC ",\"linux\":{\"maskedPaths\":[\"proc/kcore\"]}}",
     ".linux.maskedPaths[0]: must be an absolute path"},
    {MIN_HEAD MIN_PROC ",\"linux\":{\"devices\":[{\"type\":\"x\",\"path\":\"/dev/x\"}]}}",
     ".linux.devices[0].type: must be one of c, b, u, p"},
    {MIN_HEAD MIN_PROC ",\"linux\":{\"devices\":[{\"type\":\"c\",\"path\":\"/dev/x\"}]}}",
     ".linux.devices[0]: major and minor are required"},
    {MIN_HEAD MIN_PROC ",\"linux\":{\"resources\":{\"pids\":{}}}}",
     ".linux.resources.pids.limit: required field is missing"},
    {MIN_HEAD MIN_PROC ",\"linux\":{\"resources\":{\"memory\":{\"swappiness\":101}}}}",
     ".linux.resources.memory.swappiness: must be between 0 and 100"},
    {MIN_HEAD MIN_PROC
     ",\"linux\":{\"resources\":{\"devices\":[{\"allow\":true,\"access\":\"r w\"}]}}}",
     ".linux.resources.devices[0].access: must be letters such as rwm"},
    {MIN_HEAD MIN_PROC ",\"linux\":{\"resources\":{\"blockIO\":{\"weight\":70000}}}}",
     ".linux.resources.blockIO.weight: out of range"},
    {MIN_HEAD MIN_PROC ",\"linux\":{\"resources\":{\"rdma\":{\"mlx\":{\"hcaHandles\":-1}}}}}",
     ".linux.resources.rdma.mlx.hcaHandles: must not be negative"},
    {MIN_HEAD MIN_PROC ",\"linux\":{\"seccomp\":{\"defaultAction\":\"SCMP_ACT_NOPE\"}}}",
     ".linux.seccomp.defaultAction: unknown action \"SCMP_ACT_NOPE\""},
    {MIN_HEAD MIN_PROC ",\"linux\":{\"seccomp\":{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":"
                       "[{\"names\":[\"read\"],\"action\":\"SCMP_ACT_LOG\"},{\"names\":[\"kill\"],"
                       "\"action\":\"SCMP_ACT_NOPE\"}]}}}",
     ".linux.seccomp.syscalls[1].action: unknown action \"SCMP_ACT_NOPE\""},
    {MIN_HEAD MIN_PROC ",\"linux\":{\"seccomp\":{\"defaultAction\":\"SCMP_ACT_ALLOW\","
                       "\"architectures\":[\"SCMP_ARCH_Z80\"]}}}",
     ".linux.seccomp.architectures[0]: unknown architecture \"SCMP_ARCH_Z80\""},
    {MIN_HEAD MIN_PROC ",\"linux\":{\"seccomp\":{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":"
                       "[{\"names\":[\"read\"],\"action\":\"SCMP_ACT_ERRNO\",\"args\":[{\"index\":"
                       "6,\"value\":1,\"op\":\"SCMP_CMP_EQ\"}]}]}}}",
     ".linux.seccomp.syscalls[0].args[0].index: must be between 0 and 5"},
    {MIN_HEAD MIN_PROC ",\"linux\":{\"seccomp\":{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":"
                       "[{\"names\":[\"read\"],\"action\":\"SCMP_ACT_ERRNO\",\"args\":[{\"index\":"
                       "0,\"value\":1,\"op\":\"SCMP_CMP_LIKE\"}]}]}}}",
     ".linux.seccomp.syscalls[0].args[0].op: unknown operator \"SCMP_CMP_LIKE\""},
    {MIN_HEAD MIN_PROC ",\"linux\":{\"seccomp\":{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":"
                       "[{\"names\":[],\"action\":\"SCMP_ACT_ERRNO\"}]}}}",
     ".linux.seccomp.syscalls[0].names: must be a non-empty array of strings"},
    {MIN_HEAD MIN_PROC ",\"linux\":{\"personality\":{\"domain\":\"BSD\"}}}",
     ".linux.personality.domain: must be LINUX or LINUX32"},
    {MIN_HEAD MIN_PROC
     ",\"linux\":{\"timeOffsets\":{\"boottime\":{\"secs\":1,\"nanosecs\":1000000000}}}}",
     ".linux.timeOffsets.boottime.nanosecs: must be below 1000000000"},
    {MIN_HEAD MIN_PROC ",\"mounts\":[{\"destination\":\"rel\",\"type\":\"tmpfs\"}]}",
     ".mounts[0].destination: must be an absolute path (got \"rel\")"},
    {MIN_HEAD MIN_PROC ",\"mounts\":[{\"type\":\"tmpfs\"}]}",
     ".mounts[0].destination: required field is missing"},
    {MIN_HEAD MIN_PROC ",\"mounts\":{}}", ".mounts: must be an array of objects"},
    {MIN_HEAD MIN_PROC ",\"hooks\":{\"prestart\":[{\"path\":\"/x\",\"timeout\":0}]}}",
     ".hooks.prestart[0].timeout: must be greater than 0"},
    {MIN_HEAD MIN_PROC ",\"annotations\":{\"a\":1}}", ".annotations.a: must be a string"},
    {MIN_HEAD MIN_PROC ",\"annotations\":{\"a\":\"1\",\"a\":\"2\"}}",
     ".annotations.a: duplicate key"},
    {MIN_HEAD MIN_PROC ",\"hostname\":\"a\",\"hostname\":\"b\"}", ".hostname: duplicate key"},
    {MIN_HEAD MIN_PROC ",\"windows\":{\"layerFolders\":[]}}", ".windows: not supported by ward"},
    {"{\"ociVersion\":\"1.0.0\",\"root\":{\"path\":\"\"}," MIN_PROC "}",
     ".root.path: must be a non-empty string"},
    {"{\"ociVersion\":\"1.0.0\",\"root\":{\"path\":\"r\"}," MIN_PROC ",\"x\":\"\\u0000\"}",
     "strings must not contain NUL"},
    {"{\"ociVersion\":\"1.0.0\",\"hostname\":\"\xff\xfe\"}", "not UTF-8"},
};

static void test_errors(void)
{
	for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++) {
		struct oci_config *c = parse(errors[i].json);

		if (!ok(c == NULL && strstr(werr_msg(err), errors[i].want) != NULL, "error %zu: %s",
		        i, errors[i].want))
			diag("got: %s", c ? "(accepted)" : werr_msg(err));
		oci_config_free(c);
	}
}

static void test_linux_sections(void)
{
	struct oci_config *c = parse(
	    MIN_HEAD MIN_PROC
	    ",\"linux\":{"
	    "\"resources\":{\"devices\":[{\"allow\":false,\"access\":\"rwm\"},{\"allow\":true,\""
	    "type\":\"c\",\"major\":1,\"minor\":3,\"access\":\"rw\"}],\"memory\":{\"limit\":-1,\"sw"
	    "ap\":536870912,\"swappiness\":10,\"disableOOMKiller\":true},\"cpu\":{\"shares\""
	    ":1024,\"quota\":50000,\"period\":100000,\"cpus\":\"0-1\",\"idle\":1},\"pids\":{\"li"
	    "mit\":32},\"blockIO\":{\"weight\":500,\"throttleReadBpsDevice\":[{\"major\":8,\""
	    "minor\":0,\"rate\":1048576}]},\"hugepageLimits\":[{\"pageSize\":\"2MB\",\"limit\""
	    ":0}],\"network\":{\"classID\":1048577,\"priorities\":[{\"name\":\"eth0\",\"priori"
	    "ty\":5}]},\"rdma\":{\"mlx5_1\":{\"hcaHandles\":3,\"hcaObjects\":10000}},\"unifie"
	    "d\":{\"memory.high\":\"1G\"}},\"seccomp\":{\"defaultAction\":\"SCMP_ACT_ERRNO\",\""
	    "defaultErrnoRet\":1,\"architectures\":[\"SCMP_ARCH_X86_64\",\"SCMP_ARCH_X86\""
	    "],\"flags\":[\"SECCOMP_FILTER_FLAG_LOG\"],\"listenerPath\":\"/run/agent.sock\""
	    ",\"listenerMetadata\":\"m\",\"syscalls\":[{\"names\":[\"read\",\"write\"],\"action\""
	    ":\"SCMP_ACT_ALLOW\"},{\"names\":[\"personality\"],\"action\":\"SCMP_ACT_ALLOW\","
	    "\"args\":[{\"index\":0,\"value\":4294967295,\"valueTwo\":0,\"op\":\"SCMP_CMP_MASK"
	    "ED_EQ\"}]}]},\"personality\":{\"domain\":\"LINUX32\",\"flags\":[]},\"timeOffsets"
	    "\":{\"monotonic\":{\"secs\":-5,\"nanosecs\":7}},\"intelRdt\":{\"closID\":\"g\",\"ena"
	    "bleCMT\":true}"
	    "}}");
	const struct oci_resources *r;
	const struct oci_seccomp *s;

	if (!ok(c != NULL, "all linux sections parse")) {
		diag("%s", werr_msg(err));
		return;
	}
	r = c->linux->resources;
	ok(r->n_devices == 2 && !r->devices[0].allow && r->devices[1].has_major &&
	       !r->devices[0].has_major && strcmp(r->devices[1].type, "c") == 0,
	   "device rules, wildcards absent");
	ok(r->memory->has_limit && r->memory->limit == -1 && r->memory->swap == 536870912 &&
	       r->memory->disable_oom_killer && !r->memory->has_reservation,
	   "memory");
	ok(r->cpu->shares == 1024 && r->cpu->quota == 50000 && strcmp(r->cpu->cpus, "0-1") == 0 &&
	       r->cpu->has_idle,
	   "cpu");
	ok(r->pids->limit == 32, "pids");
	ok(r->block_io->weight == 500 && r->block_io->n_throttle_read_bps == 1 &&
	       r->block_io->throttle_read_bps[0].rate == 1048576,
	   "blockIO");
	ok(r->n_hugepage_limits == 1 && strcmp(r->hugepage_limits[0].page_size, "2MB") == 0,
	   "hugepage limits");
	ok(r->network->class_id == 1048577 && r->network->n_priorities == 1, "network");
	ok(r->n_rdma == 1 && strcmp(r->rdma[0].device, "mlx5_1") == 0 &&
	       r->rdma[0].hca_objects == 10000,
	   "rdma keyed by device");
	ok(r->n_unified == 1 && strcmp(r->unified[0].key, "memory.high") == 0, "unified");
	ok(!oci_resources_empty(r), "resources not empty");
	s = c->linux->seccomp;
	ok(strcmp(s->default_action, "SCMP_ACT_ERRNO") == 0 && s->has_default_errno_ret &&
	       s->default_errno_ret == 1,
	   "seccomp default");
	ok(s->n_architectures == 2 && s->n_flags == 1 &&
	       strcmp(s->listener_path, "/run/agent.sock") == 0,
	   "seccomp arches, flags, listener");
	ok(s->n_syscalls == 2 && s->syscalls[0].n_names == 2 && s->syscalls[1].n_args == 1 &&
	       s->syscalls[1].args[0].value == 4294967295u &&
	       strcmp(s->syscalls[1].args[0].op, "SCMP_CMP_MASKED_EQ") == 0,
	   "seccomp rules and args");
	ok(strcmp(c->linux->personality->domain, "LINUX32") == 0, "personality");
	ok(c->linux->time_offsets->monotonic->secs == -5 &&
	       c->linux->time_offsets->boottime == NULL,
	   "time offsets");
	ok(c->linux->intel_rdt->enable_cmt && strcmp(c->linux->intel_rdt->clos_id, "g") == 0,
	   "intelRdt");
	oci_config_free(c);
}

static void test_null_and_unknown(void)
{
	struct oci_config *c =
	    parse(MIN_HEAD MIN_PROC ",\"hostname\":null,\"linux\":null,"
	                            "\"someExtension\":{\"deep\":[1,{\"x\":null}]}}");

	ok(c && c->hostname == NULL && c->linux == NULL, "null reads as absent; unknown ignored");
	oci_config_free(c);
	c = parse(MIN_HEAD MIN_PROC ",\"linux\":{\"resources\":{},\"seccomp\":null}}");
	ok(c != NULL && oci_resources_empty(c->linux->resources) && c->linux->seccomp == NULL,
	   "empty resources and null seccomp read as unset");
	oci_config_free(c);
}

/* yajl_tree grows arrays one element per realloc: fine with glibc (large
 * blocks grow by mremap), quadratic under ASan, whose build sets a smaller
 * size. */
#ifndef HOSTILE_N
#define HOSTILE_N 1000000
#endif

static void test_many_keys(void)
{
	size_t n = HOSTILE_N / 5;
	char *buf = malloc(n * 24 + 256);
	struct oci_config *c;
	size_t len;

	len = (size_t)sprintf(buf, MIN_HEAD MIN_PROC ",\"annotations\":{");
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(buf + len, "\"k%zu\":\"v\",", i);
	len += (size_t)sprintf(buf + len - 1, "}}") - 1;
	c = parse(buf);
	ok(c != NULL && c->n_annotations == n, "%zu distinct annotation keys", n);
	oci_config_free(c);
	/* The same with one duplicate at the very end. */
	len = (size_t)sprintf(buf, MIN_HEAD MIN_PROC ",\"annotations\":{");
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(buf + len, "\"k%zu\":\"v\",", i);
	sprintf(buf + len, "\"k7\":\"w\"}}");
	c = parse(buf);
	ok(c == NULL && strstr(werr_msg(err), ".annotations.k7: duplicate key"),
	   "a duplicate among %zu keys is found", n + 1);
	oci_config_free(c);
	free(buf);
}

static void test_hostile(void)
{
	size_t n = HOSTILE_N;
	char *buf = malloc(n * 4 + 256);
	struct oci_config *c;
	size_t len;

	/* Deep nesting: refused before yajl (whose tree free recurses). */
	len = (size_t)sprintf(buf, MIN_HEAD MIN_PROC ",\"x\":");
	for (size_t i = 0; i < n; i++)
		buf[len++] = '[';
	for (size_t i = 0; i < n; i++)
		buf[len++] = ']';
	buf[len++] = '}';
	buf[len] = '\0';
	c = parse(buf);
	ok(c == NULL && strstr(werr_msg(err), "nested deeper than"), "%zu-deep nesting refused", n);
	oci_config_free(c);

	/* A million-element array of a known field: parsed, not slow. */
	len = (size_t)sprintf(buf, MIN_HEAD "\"process\":{\"user\":{\"uid\":0,\"gid\":0},"
	                                    "\"cwd\":\"/\",\"args\":[");
	for (size_t i = 0; i < n; i++) {
		memcpy(buf + len, "\"a\",", 4);
		len += 4;
	}
	strcpy(buf + len - 1, "]}}");
	c = parse(buf);
	ok(c != NULL && c->process->n_args == n, "%zu-element args array", n);
	oci_config_free(c);

	/* A million-element array of the wrong type: the error names the index. */
	len = (size_t)sprintf(buf, MIN_HEAD "\"process\":{\"user\":{\"uid\":0,\"gid\":0},"
	                                    "\"cwd\":\"/\",\"args\":[");
	for (size_t i = 0; i + 1 < n; i++) {
		memcpy(buf + len, "\"a\",", 4);
		len += 4;
	}
	strcpy(buf + len, "7]}}");
	c = parse(buf);
	{
		char want[64];

		snprintf(want, sizeof(want), ".process.args[%zu]: must be a string", n - 1);
		ok(c == NULL && strstr(werr_msg(err), want),
		   "bad element deep in a huge array is located");
	}
	oci_config_free(c);

	/* A NUL byte inside the text. */
	strcpy(buf, MIN_HEAD MIN_PROC "}");
	len = strlen(buf);
	buf[10] = '\0';
	werr_clear(err);
	c = oci_config_parse(buf, len, "config.json", err);
	ok(c == NULL && strstr(werr_msg(err), "NUL byte"), "NUL byte in the text refused");
	oci_config_free(c);

	/* Bytes that are not UTF-8, even where yajl does not look (a comment):
	 * a policy's text is kept in create's record as a JSON string. */
	c = parse(MIN_HEAD MIN_PROC "} // \x96\x96\n");
	ok(c == NULL && strstr(werr_msg(err), "not UTF-8"), "invalid UTF-8 in a comment refused");
	oci_config_free(c);
	c = parse(MIN_HEAD MIN_PROC ",\"hostname\":\"\xed\xa0\x80\"}");
	ok(c == NULL && strstr(werr_msg(err), "not UTF-8"), "a UTF-8 surrogate refused");
	oci_config_free(c);
	c = parse(MIN_HEAD MIN_PROC ",\"hostname\":\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"}");
	ok(c != NULL, "two-, three- and four-byte UTF-8 taken");
	oci_config_free(c);
	/* \u escapes: yajl decodes a lone low surrogate into bytes that are
	 * not UTF-8 (which ward would then write into state.json). */
	c = parse(MIN_HEAD MIN_PROC ",\"hostname\":\"a\\udc00\"}");
	ok(c == NULL && strstr(werr_msg(err), "a lone UTF-16 surrogate (\\udc00)"),
	   "a lone low surrogate escape refused");
	oci_config_free(c);
	c = parse(MIN_HEAD MIN_PROC ",\"hostname\":\"\\uD83D x\"}");
	ok(c == NULL && strstr(werr_msg(err), "a lone UTF-16 surrogate (\\ud83d)"),
	   "a lone high surrogate escape refused");
	oci_config_free(c);
	c = parse(MIN_HEAD MIN_PROC ",\"hostname\":\"\\ud83d\\ude00\\u00e9\"}");
	ok(c != NULL && strcmp(c->hostname, "\xf0\x9f\x98\x80\xc3\xa9") == 0,
	   "a surrogate pair escape taken, as its code point");
	oci_config_free(c);

	/* Huge numbers. */
	c = parse(MIN_HEAD "\"process\":{\"user\":{\"uid\":0,\"gid\":0},\"args\":[\"a\"],"
	                   "\"cwd\":\"/\",\"oomScoreAdj\":"
	                   "99999999999999999999999999999999999999999}}");
	ok(c == NULL && strstr(werr_msg(err), ".process.oomScoreAdj: out of range"),
	   "huge number refused");
	oci_config_free(c);
	c = parse(MIN_HEAD "\"process\":{\"user\":{\"uid\":0,\"gid\":0},\"args\":[\"a\"],"
	                   "\"cwd\":\"/\",\"rlimits\":[{\"type\":\"RLIMIT_AS\","
	                   "\"hard\":18446744073709551616,\"soft\":1}]}}");
	ok(c == NULL && strstr(werr_msg(err), ".process.rlimits[0].hard: out of range"),
	   "2^64 refused for a uint64");
	oci_config_free(c);
	free(buf);
}

static void test_names(void)
{
	ok(oci_cap_from_name("CAP_SYS_ADMIN") == CAP_SYS_ADMIN, "cap name → number");
	ok(strcmp(oci_cap_name(CAP_BPF), "CAP_BPF") == 0, "cap number → name");
	ok(oci_cap_last() >= CAP_CHECKPOINT_RESTORE, "all current caps known");
	ok(oci_rlimit_from_name("RLIMIT_RTTIME") == RLIMIT_RTTIME, "rlimit name");
	ok(oci_ns_flag("network") == CLONE_NEWNET && oci_ns_flag("net") == 0, "namespace names");
}

/* Device access as runc reads it: r, w and m; nothing else counts. */
static void test_device_access(void)
{
	ok(oci_device_access(NULL) == 7 && oci_device_access("") == 7, "absent access is rwm");
	ok(oci_device_access("rwa") == 3, "rwa is rw (runc's deny rule in its update tests)");
	ok(oci_device_access("a") == 0 && oci_device_access("x") == 0, "a and x are nothing");
	ok(oci_device_access("m") == 4 && oci_device_access("mr") == 5, "m and r");
}

int main(void)
{
	test_full();
	test_device_access();
	test_errors();
	test_linux_sections();
	test_null_and_unknown();
	test_hostile();
	test_many_keys();
	test_names();
	return tap_done();
}
