/* The field table and the rules that read it (see fields.h). */
#include "policy/fields.h"
#include "lib/log.h"
#include "oci/config.h"

#include <stdio.h>
#include <string.h>

#define A FC_ACCEPT
#define J FC_ADJUST
#define H FC_HOST
#define R FC_REFUSE
#define F(p, c, b, s, why, opt, rule)                                                              \
	{                                                                                          \
		p, {c, b, s}, why, opt, rule, NULL                                                 \
	}
#define AAA(p) F(p, A, A, A, NULL, NULL, NULL)

/* Reasons several entries share. */
#define W_CAPS                                                                                     \
	"capped to the safe set (caps-safe-set); SYS_ADMIN, NET_ADMIN, BPF, ... refused in any "   \
	"set"
#define W_NOINHERIT "cleared (caps-no-inherit); refused capabilities refused"
#define W_RLIMIT                                                                                   \
	"RLIMIT_CORE added or lowered to 0/0 (no-core-dumps); a hard limit above ward's own "      \
	"needs "                                                                                   \
	"CAP_SYS_RESOURCE (baseline: refused unless the container keeps it; strict: refused)"
#define W_SCHED                                                                                    \
	"ward sets it as root before the capabilities are dropped: nice below 0 and "              \
	"SCHED_FIFO, SCHED_RR, SCHED_DEADLINE need CAP_SYS_NICE (baseline: refused unless the "    \
	"container keeps it; strict: refused)"
#define W_IOPRIO                                                                                   \
	"ward sets it as root: IOPRIO_CLASS_RT needs CAP_SYS_NICE (baseline: refused unless the "  \
	"container keeps it; strict: refused)"
#define W_HOOK                                                                                     \
	"a host program ward runs as root: opened once and judged on the fd (root's, not "         \
	"writable by others, out of the container's reach), and only if the operator vouches for " \
	"it (the policy's hooks; baseline also a hooks directory's entry with the same args and "  \
	"env)"
#define W_IDMAP "an idmapped mount makes host files the container's own"
#define W_IDS                                                                                      \
	"strict: filled when missing (strict-userns); entries outside strict's host range refused"
#define W_RDT                                                                                      \
	"Intel RDT is not supported by ward (container/support.c refuses it at create, naming "    \
	"the "                                                                                     \
	"missing resctrl mount where there is none)"
#define W_LINUX  "ward is a Linux runtime"
#define W_NS_OPT "host-network, host-pid, host-ipc, host-uts, host-mount"
#define W_RT                                                                                       \
	"a real-time CPU budget for the container's cgroup: real-time scheduling needs "           \
	"CAP_SYS_NICE and no rule judges it"
#define W_CLASSID                                                                                  \
	"a net_cls class id, which the host's tc and firewall rules match on: no rule judges "     \
	"which one"
#define W_LISTENER                                                                                 \
	"ward connects to this host socket as root and hands it the container's notify fd: no "    \
	"rule judges the socket"
#define W_RDTPART "see linux.intelRdt"

#define HOOK_POINT(pt)                                                                             \
	F("hooks." pt, A, H, H, W_HOOK, "hook:PATH", "refuse_hooks.c"),                            \
	    F("hooks." pt "[].path", A, H, H, W_HOOK, "hook:PATH", "refuse_hooks.c"),              \
	    AAA("hooks." pt "[].args"), AAA("hooks." pt "[].env"), AAA("hooks." pt "[].timeout")
#define THROTTLE(n)                                                                                \
	AAA("linux.resources.blockIO." n), AAA("linux.resources.blockIO." n "[].major"),           \
	    AAA("linux.resources.blockIO." n "[].minor"),                                          \
	    AAA("linux.resources.blockIO." n "[].rate")

const struct field_rule policy_fields[] = {
    AAA("ociVersion"),
    AAA("root"),
    F("root.path", A, H, H,
      "opened once, judged on the fd (host paths, and every mount below it) and mounted from it",
      "mount:HOSTPATH", "refuse_mounts.c"),
    F("root.readonly", A, A, J,
      "strict: true (strict-readonly-root), and nodev (strict-nodev-root)", NULL,
      "policy_adjust.c"),
    AAA("process"),
    AAA("process.terminal"),
    AAA("process.consoleSize"),
    AAA("process.consoleSize.height"),
    AAA("process.consoleSize.width"),
    AAA("process.user"),
    AAA("process.user.uid"),
    AAA("process.user.gid"),
    AAA("process.user.umask"),
    AAA("process.user.additionalGids"),
    AAA("process.args"),
    AAA("process.commandLine"),
    F("process.env", A, A, A, "strict: secret-looking names refused (case-insensitive)", "env.NAME",
      "refuse_env.c"),
    AAA("process.cwd"),
    F("process.capabilities", A, J, J, W_CAPS, "cap.NAME", "policy_caps.c"),
    F("process.capabilities.bounding", A, J, J, W_CAPS, "cap.NAME", "policy_caps.c"),
    F("process.capabilities.effective", A, J, J, W_CAPS, "cap.NAME", "policy_caps.c"),
    F("process.capabilities.inheritable", A, J, J, W_NOINHERIT, "cap.NAME", "policy_caps.c"),
    F("process.capabilities.permitted", A, J, J, W_CAPS, "cap.NAME", "policy_caps.c"),
    F("process.capabilities.ambient", A, J, J, W_NOINHERIT, "cap.NAME", "policy_caps.c"),
    F("process.rlimits", A, J, J, W_RLIMIT, "cap.SYS_RESOURCE", "policy_adjust.c, policy_caps.c"),
    F("process.rlimits[].type", A, J, J, W_RLIMIT, "cap.SYS_RESOURCE",
      "policy_adjust.c, policy_caps.c"),
    F("process.rlimits[].hard", A, J, J, W_RLIMIT, "cap.SYS_RESOURCE",
      "policy_adjust.c, policy_caps.c"),
    F("process.rlimits[].soft", A, J, J, W_RLIMIT, "cap.SYS_RESOURCE",
      "policy_adjust.c, policy_caps.c"),
    F("process.noNewPrivileges", A, J, J,
      "forced true (no-new-privs); baseline keeps the config's false with the opt-out",
      "privilege-escalation", "policy_adjust.c"),
    AAA("process.apparmorProfile"),
    F("process.oomScoreAdj", A, A, A,
      "below ward's own: ward writes it as root, lowering it needs CAP_SYS_RESOURCE (baseline: "
      "refused unless the container keeps it; strict: refused)",
      "cap.SYS_RESOURCE", "policy_caps.c"),
    AAA("process.selinuxLabel"),
    F("process.scheduler", A, A, A, W_SCHED, "cap.SYS_NICE", "policy_caps.c"),
    F("process.scheduler.policy", A, A, A, W_SCHED, "cap.SYS_NICE", "policy_caps.c"),
    F("process.scheduler.nice", A, A, A, W_SCHED, "cap.SYS_NICE", "policy_caps.c"),
    F("process.scheduler.priority", A, A, A, W_SCHED, "cap.SYS_NICE", "policy_caps.c"),
    F("process.scheduler.flags", A, A, A, W_SCHED, "cap.SYS_NICE", "policy_caps.c"),
    F("process.scheduler.runtime", A, A, A, W_SCHED, "cap.SYS_NICE", "policy_caps.c"),
    F("process.scheduler.deadline", A, A, A, W_SCHED, "cap.SYS_NICE", "policy_caps.c"),
    F("process.scheduler.period", A, A, A, W_SCHED, "cap.SYS_NICE", "policy_caps.c"),
    F("process.ioPriority", A, A, A, W_IOPRIO, "cap.SYS_NICE", "policy_caps.c"),
    F("process.ioPriority.class", A, A, A, W_IOPRIO, "cap.SYS_NICE", "policy_caps.c"),
    F("process.ioPriority.priority", A, A, A, W_IOPRIO, "cap.SYS_NICE", "policy_caps.c"),
    AAA("process.execCPUAffinity"),
    AAA("process.execCPUAffinity.initial"),
    AAA("process.execCPUAffinity.final"),
    AAA("hostname"),
    AAA("domainname"),
    F("mounts", A, J, J,
      "ward's /dev mounted noexec (dev-noexec); strict: /tmp and /run scratch tmpfs added "
      "(strict-scratch)",
      NULL, "policy_adjust.c"),
    AAA("mounts[].destination"),
    F("mounts[].type", A, A, A,
      "values outside the allow-list (tmpfs, proc, sysfs, devpts, mqueue, cgroup, cgroup2, "
      "read-only overlay) refused",
      "mount-type.TYPE", "refuse_mounts.c"),
    F("mounts[].source", A, H, H,
      "bind sources and overlay layers opened once, judged on the fd and mounted from it",
      "mount:HOSTPATH", "refuse_mounts.c"),
    F("mounts[].options", A, J, J,
      "cgroup, cgroup2 and sysfs made read-only (cgroup-ro, sysfs-ro); remount and move "
      "refused; strict: scratch options (strict-scratch), idmap refused",
      "cgroup-rw, idmap", "policy_adjust.c, refuse_mounts.c"),
    F("mounts[].uidMappings", A, A, R, W_IDMAP, "idmap", "refuse_mounts.c"),
    F("mounts[].uidMappings[].containerID", A, A, R, W_IDMAP, "idmap", "refuse_mounts.c"),
    F("mounts[].uidMappings[].hostID", A, A, R, W_IDMAP, "idmap", "refuse_mounts.c"),
    F("mounts[].uidMappings[].size", A, A, R, W_IDMAP, "idmap", "refuse_mounts.c"),
    F("mounts[].gidMappings", A, A, R, W_IDMAP, "idmap", "refuse_mounts.c"),
    F("mounts[].gidMappings[].containerID", A, A, R, W_IDMAP, "idmap", "refuse_mounts.c"),
    F("mounts[].gidMappings[].hostID", A, A, R, W_IDMAP, "idmap", "refuse_mounts.c"),
    F("mounts[].gidMappings[].size", A, A, R, W_IDMAP, "idmap", "refuse_mounts.c"),
    F("hooks", A, H, H, W_HOOK, "hook:PATH", "refuse_hooks.c"),
    HOOK_POINT("prestart"),
    HOOK_POINT("createRuntime"),
    HOOK_POINT("createContainer"),
    HOOK_POINT("startContainer"),
    HOOK_POINT("poststart"),
    HOOK_POINT("poststop"),
    AAA("annotations"),
    F("annotations[\"org.ward.profile\"]", A, A, A, "may only tighten the profile", NULL,
      "policy.c"),
    F("annotations[\"org.ward.allow.*\"]", A, A, A,
      "turns on only an opt-out the operator policy allows", NULL, "policy.c"),
    F("annotations[\"org.ward.timeout\"]", A, A, A, "may only tighten the wall-clock limit", NULL,
      "policy_supervise.c"),
    F("annotations[\"org.ward.egress\"]", A, A, A,
      "may only narrow the policy's egress list (compat: ignored)", NULL, "policy_egress.c"),
    AAA("linux"),
    F("linux.namespaces", A, J, J,
      "a missing pid, ipc, uts or mount namespace refused, a missing network one refused or "
      "added (new-netns); strict: network, user, cgroup and time added (strict-userns, "
      "strict-namespaces)",
      W_NS_OPT, "refuse_ns.c, policy_adjust.c"),
    AAA("linux.namespaces[].type"),
    F("linux.namespaces[].path", A, H, H,
      "opened once and joined only when another container's; a mount namespace never; "
      "strict: no user namespace by path",
      W_NS_OPT ", host-user, host-cgroup", "refuse_ns.c"),
    F("linux.uidMappings", A, A, J, W_IDS, NULL, "policy_adjust.c, refuse_ns.c"),
    F("linux.uidMappings[].containerID", A, A, J, W_IDS, NULL, "policy_adjust.c, refuse_ns.c"),
    F("linux.uidMappings[].hostID", A, A, J, W_IDS, NULL, "policy_adjust.c, refuse_ns.c"),
    F("linux.uidMappings[].size", A, A, J, W_IDS, NULL, "policy_adjust.c, refuse_ns.c"),
    F("linux.gidMappings", A, A, J, W_IDS, NULL, "policy_adjust.c, refuse_ns.c"),
    F("linux.gidMappings[].containerID", A, A, J, W_IDS, NULL, "policy_adjust.c, refuse_ns.c"),
    F("linux.gidMappings[].hostID", A, A, J, W_IDS, NULL, "policy_adjust.c, refuse_ns.c"),
    F("linux.gidMappings[].size", A, A, J, W_IDS, NULL, "policy_adjust.c, refuse_ns.c"),
    F("linux.devices", A, A, A,
      "nodes for mem, kmem, port, kvm, fuse, tun, vhost, block devices, the host's console "
      "and terminals, and characters outside the standard set refused; more than 1024 "
      "refused (baseline, strict)",
      "device.NAME", "refuse_devices.c"),
    AAA("linux.devices[].type"),
    AAA("linux.devices[].path"),
    AAA("linux.devices[].major"),
    AAA("linux.devices[].minor"),
    AAA("linux.devices[].fileMode"),
    AAA("linux.devices[].uid"),
    AAA("linux.devices[].gid"),
    AAA("linux.cgroupsPath"),
    AAA("linux.rootfsPropagation"),
    F("linux.sysctl", A, A, J,
      "only namespaced keys, in every profile (linux/sysctl.c); strict: vm.memfd_noexec 2 "
      "(strict-memfd-noexec)",
      NULL, "policy_adjust.c"),
    F("linux.maskedPaths", A, J, J, "unioned with ward's list (masked-paths)", NULL,
      "policy_adjust.c"),
    F("linux.readonlyPaths", A, J, J, "unioned with ward's list (readonly-paths)", NULL,
      "policy_adjust.c"),
    AAA("linux.mountLabel"),
    AAA("linux.resources"),
    F("linux.resources.devices", A, J, J,
      "a deny-all rule put first (devices-default-deny); an allow of the host's console made "
      "a deny (device-console); wildcard allow rules refused; more than 1024 rules refused",
      "devices-all, device.NAME", "policy_adjust.c, refuse_devices.c"),
    AAA("linux.resources.devices[].allow"),
    AAA("linux.resources.devices[].type"),
    AAA("linux.resources.devices[].major"),
    AAA("linux.resources.devices[].minor"),
    AAA("linux.resources.devices[].access"),
    AAA("linux.resources.memory"),
    F("linux.resources.memory.limit", A, A, J,
      "strict: set when missing, lowered when higher (strict-limits)", NULL, "policy_adjust.c"),
    AAA("linux.resources.memory.reservation"),
    F("linux.resources.memory.swap", A, A, J,
      "strict: no swap beyond the memory limit (strict-limits)", NULL, "policy_adjust.c"),
    AAA("linux.resources.memory.kernel"),
    AAA("linux.resources.memory.kernelTCP"),
    AAA("linux.resources.memory.swappiness"),
    AAA("linux.resources.memory.disableOOMKiller"),
    AAA("linux.resources.memory.useHierarchy"),
    AAA("linux.resources.memory.checkBeforeUpdate"),
    AAA("linux.resources.cpu"),
    AAA("linux.resources.cpu.shares"),
    F("linux.resources.cpu.quota", A, A, J,
      "strict: set when missing, lowered when higher (strict-limits)", NULL, "policy_adjust.c"),
    AAA("linux.resources.cpu.burst"),
    F("linux.resources.cpu.period", A, A, J, "strict: set with the quota (strict-limits)", NULL,
      "policy_adjust.c"),
    F("linux.resources.cpu.realtimeRuntime", A, A, R, W_RT, NULL, NULL),
    F("linux.resources.cpu.realtimePeriod", A, A, R, W_RT, NULL, NULL),
    AAA("linux.resources.cpu.cpus"),
    AAA("linux.resources.cpu.mems"),
    AAA("linux.resources.cpu.idle"),
    F("linux.resources.pids", A, J, J, "added when missing (pids-default, strict-limits)", NULL,
      "policy_adjust.c"),
    F("linux.resources.pids.limit", A, J, J,
      "set when missing (pids-default); strict: lowered when higher (strict-limits)", NULL,
      "policy_adjust.c"),
    AAA("linux.resources.blockIO"),
    AAA("linux.resources.blockIO.weight"),
    AAA("linux.resources.blockIO.leafWeight"),
    AAA("linux.resources.blockIO.weightDevice"),
    AAA("linux.resources.blockIO.weightDevice[].major"),
    AAA("linux.resources.blockIO.weightDevice[].minor"),
    AAA("linux.resources.blockIO.weightDevice[].weight"),
    AAA("linux.resources.blockIO.weightDevice[].leafWeight"),
    THROTTLE("throttleReadBpsDevice"),
    THROTTLE("throttleWriteBpsDevice"),
    THROTTLE("throttleReadIOPSDevice"),
    THROTTLE("throttleWriteIOPSDevice"),
    AAA("linux.resources.hugepageLimits"),
    AAA("linux.resources.hugepageLimits[].pageSize"),
    AAA("linux.resources.hugepageLimits[].limit"),
    AAA("linux.resources.network"),
    F("linux.resources.network.classID", A, A, R, W_CLASSID, NULL, NULL),
    AAA("linux.resources.network.priorities"),
    AAA("linux.resources.network.priorities[].name"),
    AAA("linux.resources.network.priorities[].priority"),
    AAA("linux.resources.rdma"),
    F("linux.resources.unified", A, A, A,
      "strict: each key classified: memory.max, memory.high, memory.swap.max, pids.max and "
      "cpu.max may only tighten strict's limits; protection (memory.min, memory.low, "
      "io.latency, cpu.uclamp.min) and unknown keys refused",
      NULL, "refuse_devices.c"),
    F("linux.seccomp", A, J, J,
      "ward's built-in profile when none (seccomp-default), stacked on the config's when that "
      "is a blocklist (seccomp-stack), ward's floor under an allow-list (seccomp-floor); "
      "strict: always stacked, no opt-out",
      "seccomp-none", "policy_adjust.c"),
    AAA("linux.seccomp.defaultAction"),
    AAA("linux.seccomp.defaultErrnoRet"),
    AAA("linux.seccomp.architectures"),
    F("linux.seccomp.flags", A, A, R,
      "SECCOMP_FILTER_FLAG_SPEC_ALLOW turns the speculative store bypass mitigation off: no "
      "rule judges the flags",
      NULL, NULL),
    F("linux.seccomp.listenerPath", A, A, R, W_LISTENER, NULL, NULL),
    F("linux.seccomp.listenerMetadata", A, A, R, W_LISTENER, NULL, NULL),
    AAA("linux.seccomp.syscalls"),
    AAA("linux.seccomp.syscalls[].names"),
    AAA("linux.seccomp.syscalls[].action"),
    AAA("linux.seccomp.syscalls[].errnoRet"),
    AAA("linux.seccomp.syscalls[].args"),
    AAA("linux.seccomp.syscalls[].args[].index"),
    AAA("linux.seccomp.syscalls[].args[].value"),
    AAA("linux.seccomp.syscalls[].args[].valueTwo"),
    AAA("linux.seccomp.syscalls[].args[].op"),
    AAA("linux.timeOffsets"),
    AAA("linux.timeOffsets.monotonic"),
    AAA("linux.timeOffsets.monotonic.secs"),
    AAA("linux.timeOffsets.monotonic.nanosecs"),
    AAA("linux.timeOffsets.boottime"),
    AAA("linux.timeOffsets.boottime.secs"),
    AAA("linux.timeOffsets.boottime.nanosecs"),
    AAA("linux.personality"),
    AAA("linux.personality.domain"),
    F("linux.personality.flags", R, R, R,
      "not supported by ward yet (linux/process_attrs.c refuses it at create)", NULL, NULL),
    F("linux.intelRdt", R, R, R, W_RDT, NULL, NULL),
    F("linux.intelRdt.closID", R, R, R, W_RDTPART, NULL, NULL),
    F("linux.intelRdt.l3CacheSchema", R, R, R, W_RDTPART, NULL, NULL),
    F("linux.intelRdt.memBwSchema", R, R, R, W_RDTPART, NULL, NULL),
    F("linux.intelRdt.schemata", R, R, R, W_RDTPART, NULL, NULL),
    F("linux.intelRdt.enableCMT", R, R, R, W_RDTPART, NULL, NULL),
    F("linux.intelRdt.enableMBM", R, R, R, W_RDTPART, NULL, NULL),
    F("linux.intelRdt.enableMonitoring", R, R, R, W_RDTPART, NULL, NULL),
    /* The container's own allocations, within the nodes its cpuset
     * allows: nothing of the host's is handed over. */
    AAA("linux.memoryPolicy"),
    AAA("linux.memoryPolicy.mode"),
    AAA("linux.memoryPolicy.nodes"),
    AAA("linux.memoryPolicy.flags"),
    F("linux.netDevices", A, R, R,
      "moves a host network device into the container: only the devices the operator's "
      "policy lists in netDevices, by name",
      NULL, "refuse_ns.c"),
    F("windows", R, R, R, W_LINUX, NULL, "oci/config.c"),
    F("solaris", R, R, R, W_LINUX, NULL, "oci/config.c"),
    F("vm", R, R, R, "ward is not a VM-based runtime", NULL, "oci/config.c"),
    F("zos", R, R, R, W_LINUX, NULL, "oci/config.c"),
};
const size_t policy_n_fields = sizeof(policy_fields) / sizeof(policy_fields[0]);

const char *field_class_name(enum field_class c)
{
	static const char *const names[] = {"accept", "adjust", "host", "refuse"};

	return (unsigned)c < 4 ? names[c] : "?";
}

const struct field_rule *policy_field(const char *path)
{
	for (size_t i = 0; i < policy_n_fields; i++)
		if (strcmp(policy_fields[i].path, path) == 0)
			return &policy_fields[i];
	return NULL;
}

/* The table's name of an annotation key ward reads, or NULL. */
static const char *annotation_field(const char *key)
{
	if (strcmp(key, "org.ward.profile") == 0)
		return "annotations[\"org.ward.profile\"]";
	if (strcmp(key, "org.ward.timeout") == 0)
		return "annotations[\"org.ward.timeout\"]";
	if (strcmp(key, "org.ward.egress") == 0)
		return "annotations[\"org.ward.egress\"]";
	if (strncmp(key, "org.ward.allow.", 15) == 0)
		return "annotations[\"org.ward.allow.*\"]";
	return NULL;
}

void policy_fields_present(const struct oci_config *c,
                           void (*fn)(const char *path, const struct field_rule *r, void *arg),
                           void *arg)
{
	static const char *const ann[] = {
	    "annotations[\"org.ward.profile\"]", "annotations[\"org.ward.timeout\"]",
	    "annotations[\"org.ward.egress\"]", "annotations[\"org.ward.allow.*\"]"};

	for (size_t i = 0; i < c->seen.n_present; i++)
		fn(c->seen.present[i], policy_field(c->seen.present[i]), arg);
	for (size_t k = 0; k < sizeof(ann) / sizeof(ann[0]); k++)
		for (size_t i = 0; i < c->n_annotations; i++)
			if (annotation_field(c->annotations[i].key) == ann[k]) {
				fn(ann[k], policy_field(ann[k]), arg);
				break;
			}
}

/* Was field (".a.b") or a field above it refused already? Indexes in the
 * findings are ignored: ".mounts[2].type" counts for ".mounts[].type". */
static bool refused_at_or_above(const struct policy_ctx *x, const char *field)
{
	for (size_t i = 0; i < x->n_f; i++) {
		const char *f = x->f[i].field, *p = field;

		if (x->f[i].kind != FIND_REFUSE)
			continue;
		while (*f && *f == *p) {
			f++;
			p++;
			if (f[-1] == '[') {
				f += strspn(f, "0123456789");
				p += strspn(p, "0123456789");
			}
		}
		if (*f == '\0' && (*p == '\0' || *p == '.' || *p == '['))
			return true;
	}
	return false;
}

struct generic {
	struct policy_ctx *x;
	int r;
};

static void generic_one(const char *path, const struct field_rule *fr, void *arg)
{
	struct generic *g = arg;
	char field[192];

	snprintf(field, sizeof(field), ".%s", path);
	if (g->r < 0 || refused_at_or_above(g->x, field))
		return;
	if (fr == NULL) {
		g->r = policy_refuse(g->x, field, NULL,
		                     "no class in ward's field table: strict refuses a field "
		                     "without a rule");
		return;
	}
	if (fr->cls[PROFILE_STRICT] != FC_REFUSE || fr->rule != NULL ||
	    (fr->only_if && !fr->only_if(g->x->cfg)))
		return;
	g->r = policy_refuse(g->x, field, fr->optout, "%s", fr->why);
}

int policy_fields_refuse(struct policy_ctx *x)
{
	struct generic g = {x, 0};

	if (x->profile != PROFILE_STRICT)
		return 0;
	policy_fields_present(x->cfg, generic_one, &g);
	return g.r;
}

bool policy_unknown_refused(enum ward_profile p, const char *path)
{
	static const char *const inside[] = {".process.", ".linux.", ".mounts[", ".root."};

	for (size_t i = 0; p == PROFILE_STRICT && i < 4; i++)
		if (strncmp(path, inside[i], strlen(inside[i])) == 0)
			return true;
	return false;
}

int policy_fields_unknown(struct policy_ctx *x)
{
	for (size_t i = 0; i < x->cfg->seen.n_unknown; i++) {
		const char *u = x->cfg->seen.unknown[i];

		if (policy_unknown_refused(x->profile, u)) {
			if (policy_refuse(
			        x, u, NULL,
			        "unknown field: ward does not read it (strict refuses "
			        "unknown fields in process, linux, mounts and root: a "
			        "misspelt field must not pass for the one it looks like)") < 0)
				return -1;
			continue;
		}
		/* A debug line: runc ignores them silently, engines' configs carry
		 * fields of newer specs, and stderr is what engines show users;
		 * `ward check` lists them all. */
		log_debug("config.json: unknown field %s (ignored)", u);
	}
	return 0;
}
