/* config.json schema tables and the checks that cross fields. */
#include "oci/config.h"
#include "lib/error.h"
#include "lib/fileio.h"
#include "lib/jwalk_macros.h"
#include "oci/names.h"
#include "oci/resources.h"
#include "oci/seccomp_spec.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int check_abs(const char *s, const struct jpath *p, struct werror *err)
{
	if (s[0] != '/')
		return jerr(err, p, "must be an absolute path (got \"%s\")", s);
	return 0;
}

/* --- process.user ------------------------------------------------------ */

static int decode_gids(yajl_val v, const struct jpath *p, void *dst, struct werror *err)
{
	struct oci_user *u =
	    (struct oci_user *)((char *)dst - offsetof(struct oci_user, additional_gids));
	size_t n;

	if (!YAJL_IS_ARRAY(v))
		return jerr(err, p, "must be an array of integers");
	n = v->u.array.len;
	u->additional_gids = calloc(n ? n : 1, sizeof(uint32_t));
	if (u->additional_gids == NULL)
		return werr(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		struct jpath ep = {p, NULL, i};
		uint64_t g;

		if (jget_u64(v->u.array.values[i], &ep, UINT32_MAX, &g, err) < 0)
			return -1;
		u->additional_gids[i] = (uint32_t)g;
	}
	u->n_additional_gids = n;
	return 0;
}

static int check_user(void *obj, const struct jpath *p, struct werror *err)
{
	struct oci_user *u = obj;

	if (u->has_umask && u->umask > 07777) {
		struct jpath up = {p, "umask", 0};

		return jerr(err, &up, "must be a file mode no larger than 07777");
	}
	return 0;
}

static void free_user(void *obj)
{
	free(((struct oci_user *)obj)->additional_gids);
}

static const struct jfield user_fields[] = {
    FLD("uid", JK_U32, struct oci_user, uid, JF_REQUIRED),
    FLD("gid", JK_U32, struct oci_user, gid, JF_REQUIRED),
    FLD_HAS("umask", JK_U32, struct oci_user, umask, 0),
    {.key = "additionalGids",
     .kind = JK_CUSTOM,
     .off = offsetof(struct oci_user, additional_gids),
     .has_off = -1,
     .custom = decode_gids},
};
static const struct jschema user_schema =
    SCHEMA(struct oci_user, user_fields, check_user, free_user);

/* --- process.capabilities ---------------------------------------------- */

static int decode_capset(yajl_val v, const struct jpath *p, void *dst, struct werror *err)
{
	uint64_t *mask = dst;

	if (!YAJL_IS_ARRAY(v))
		return jerr(err, p, "must be an array of capability names");
	*mask = 0;
	for (size_t i = 0; i < v->u.array.len; i++) {
		struct jpath ep = {p, NULL, i};
		yajl_val e = v->u.array.values[i];
		int cap;

		if (!YAJL_IS_STRING(e))
			return jerr(err, &ep, "must be a capability name");
		cap = oci_cap_from_name(e->u.string);
		if (cap < 0)
			return jerr(err, &ep, "unknown capability \"%s\"", e->u.string);
		*mask |= 1ULL << cap;
	}
	return 0;
}

static const struct jfield caps_fields[] = {
    FLD_CUSTOM("bounding", struct oci_caps, bounding, decode_capset),
    FLD_CUSTOM("effective", struct oci_caps, effective, decode_capset),
    FLD_CUSTOM("inheritable", struct oci_caps, inheritable, decode_capset),
    FLD_CUSTOM("permitted", struct oci_caps, permitted, decode_capset),
    FLD_CUSTOM("ambient", struct oci_caps, ambient, decode_capset),
};
static const struct jschema caps_schema = SCHEMA(struct oci_caps, caps_fields, NULL, NULL);

/* --- process.rlimits ---------------------------------------------------- */

static int check_rlimit(void *obj, const struct jpath *p, struct werror *err)
{
	struct oci_rlimit *r = obj;
	struct jpath tp = {p, "type", 0};

	r->resource = oci_rlimit_from_name(r->type);
	if (r->resource < 0)
		return jerr(err, &tp, "unknown rlimit \"%s\"", r->type);
	if (r->soft > r->hard) {
		struct jpath sp = {p, "soft", 0};

		return jerr(err, &sp, "soft limit %llu exceeds hard limit %llu",
		            (unsigned long long)r->soft, (unsigned long long)r->hard);
	}
	return 0;
}

static const struct jfield rlimit_fields[] = {
    FLD("type", JK_STR, struct oci_rlimit, type, JF_REQUIRED | JF_NONEMPTY),
    FLD("hard", JK_U64, struct oci_rlimit, hard, JF_REQUIRED),
    FLD("soft", JK_U64, struct oci_rlimit, soft, JF_REQUIRED),
};
static const struct jschema rlimit_schema =
    SCHEMA(struct oci_rlimit, rlimit_fields, check_rlimit, NULL);

/* --- process ------------------------------------------------------------ */

static const struct jfield console_fields[] = {
    FLD("height", JK_U32, struct oci_console_size, height, JF_REQUIRED),
    FLD("width", JK_U32, struct oci_console_size, width, JF_REQUIRED),
};
static const struct jschema console_schema =
    SCHEMA(struct oci_console_size, console_fields, NULL, NULL);

static int check_process(void *obj, const struct jpath *p, struct werror *err)
{
	struct oci_process *pr = obj;
	struct jpath cp = {p, "cwd", 0};

	if (check_abs(pr->cwd, &cp, err) < 0)
		return -1;
	if (pr->has_oom_score_adj && (pr->oom_score_adj < -1000 || pr->oom_score_adj > 1000)) {
		struct jpath op = {p, "oomScoreAdj", 0};

		return jerr(err, &op, "must be between -1000 and 1000 (got %d)", pr->oom_score_adj);
	}
	for (size_t i = 0; i < pr->n_env; i++) {
		struct jpath ep = {p, "env", 0};
		struct jpath ip = {&ep, NULL, i};

		if (strchr(pr->env[i], '=') == NULL || pr->env[i][0] == '=')
			return jerr(err, &ip, "must be of the form NAME=value (got \"%s\")",
			            pr->env[i]);
	}
	for (size_t i = 0; i < pr->n_rlimits; i++)
		for (size_t j = 0; j < i; j++)
			if (pr->rlimits[i].resource == pr->rlimits[j].resource) {
				struct jpath rp = {p, "rlimits", 0};
				struct jpath ip = {&rp, NULL, i};

				return jerr(err, &ip, "duplicate rlimit \"%s\"",
				            pr->rlimits[i].type);
			}
	return 0;
}

static const char *const sched_policies[] = {"SCHED_OTHER",    "SCHED_FIFO", "SCHED_RR",
                                             "SCHED_BATCH",    "SCHED_ISO",  "SCHED_IDLE",
                                             "SCHED_DEADLINE", NULL};
static const char *const ioprio_classes[] = {"IOPRIO_CLASS_RT", "IOPRIO_CLASS_BE",
                                             "IOPRIO_CLASS_IDLE", NULL};

static int check_one_of(const char *v, const char *const *allowed, const struct jpath *p,
                        const char *key, struct werror *err)
{
	struct jpath kp = {p, key, 0};

	for (; *allowed; allowed++)
		if (strcmp(v, *allowed) == 0)
			return 0;
	return jerr(err, &kp, "unknown value \"%s\"", v);
}

static int check_scheduler(void *obj, const struct jpath *p, struct werror *err)
{
	struct oci_scheduler *s = obj;

	if (check_one_of(s->policy, sched_policies, p, "policy", err) < 0)
		return -1;
	if (s->nice < -20 || s->nice > 19) {
		struct jpath np = {p, "nice", 0};

		return jerr(err, &np, "must be between -20 and 19 (got %d)", s->nice);
	}
	return 0;
}

static const struct jfield scheduler_fields[] = {
    FLD("policy", JK_STR, struct oci_scheduler, policy, JF_REQUIRED | JF_NONEMPTY),
    FLD("nice", JK_I32, struct oci_scheduler, nice, 0),
    FLD("priority", JK_I32, struct oci_scheduler, priority, 0),
    FLD_N("flags", JK_STRV, struct oci_scheduler, flags, 0, NULL),
    FLD("runtime", JK_U64, struct oci_scheduler, runtime, 0),
    FLD("deadline", JK_U64, struct oci_scheduler, deadline, 0),
    FLD("period", JK_U64, struct oci_scheduler, period, 0),
};
static const struct jschema scheduler_schema =
    SCHEMA(struct oci_scheduler, scheduler_fields, check_scheduler, NULL);

static int check_io_priority(void *obj, const struct jpath *p, struct werror *err)
{
	struct oci_io_priority *io = obj;

	if (check_one_of(io->klass, ioprio_classes, p, "class", err) < 0)
		return -1;
	if (io->priority < 0 || io->priority > 7) {
		struct jpath pp = {p, "priority", 0};

		return jerr(err, &pp, "must be between 0 and 7 (got %d)", io->priority);
	}
	return 0;
}

static const struct jfield io_priority_fields[] = {
    FLD("class", JK_STR, struct oci_io_priority, klass, JF_REQUIRED | JF_NONEMPTY),
    FLD("priority", JK_I32, struct oci_io_priority, priority, 0),
};
static const struct jschema io_priority_schema =
    SCHEMA(struct oci_io_priority, io_priority_fields, check_io_priority, NULL);

static const struct jfield affinity_fields[] = {
    FLD("initial", JK_STR, struct oci_cpu_affinity, initial, 0),
    FLD("final", JK_STR, struct oci_cpu_affinity, final, 0),
};
static const struct jschema affinity_schema =
    SCHEMA(struct oci_cpu_affinity, affinity_fields, NULL, NULL);

static const struct jfield process_fields[] = {
    FLD("terminal", JK_BOOL, struct oci_process, terminal, 0),
    FLD_OBJ("consoleSize", struct oci_process, console_size, 0, &console_schema),
    /* Required in config.json (check_config); exec's process file may leave
     * it out for 0:0, as runc's does. */
    FLD_OBJ("user", struct oci_process, user, 0, &user_schema),
    FLD_N("args", JK_STRV, struct oci_process, args, JF_REQUIRED | JF_NONEMPTY, NULL),
    FLD("commandLine", JK_STR, struct oci_process, command_line, 0),
    FLD_N("env", JK_STRV, struct oci_process, env, 0, NULL),
    FLD("cwd", JK_STR, struct oci_process, cwd, JF_REQUIRED | JF_NONEMPTY),
    FLD_OBJ("capabilities", struct oci_process, capabilities, 0, &caps_schema),
    FLD_N("rlimits", JK_ARR, struct oci_process, rlimits, 0, &rlimit_schema),
    FLD("noNewPrivileges", JK_BOOL, struct oci_process, no_new_privileges, 0),
    FLD("apparmorProfile", JK_STR, struct oci_process, apparmor_profile, 0),
    FLD_HAS("oomScoreAdj", JK_I32, struct oci_process, oom_score_adj, 0),
    FLD("selinuxLabel", JK_STR, struct oci_process, selinux_label, 0),
    FLD_OBJ("scheduler", struct oci_process, scheduler, 0, &scheduler_schema),
    FLD_OBJ("ioPriority", struct oci_process, io_priority, 0, &io_priority_schema),
    FLD_OBJ("execCPUAffinity", struct oci_process, exec_cpu_affinity, 0, &affinity_schema),
};
static const struct jschema process_schema =
    SCHEMA(struct oci_process, process_fields, check_process, NULL);

/* --- root, mounts ------------------------------------------------------- */

static const struct jfield root_fields[] = {
    FLD("path", JK_STR, struct oci_root, path, JF_REQUIRED | JF_NONEMPTY),
    FLD("readonly", JK_BOOL, struct oci_root, readonly, 0),
};
static const struct jschema root_schema = SCHEMA(struct oci_root, root_fields, NULL, NULL);

static int check_idmap(void *obj, const struct jpath *p, struct werror *err)
{
	struct oci_idmap *m = obj;

	if (m->size == 0) {
		struct jpath sp = {p, "size", 0};

		return jerr(err, &sp, "must be greater than 0");
	}
	if ((uint64_t)m->container_id + m->size > (1ULL << 32) ||
	    (uint64_t)m->host_id + m->size > (1ULL << 32))
		return jerr(err, p, "range exceeds the 32-bit id space");
	return 0;
}

static const struct jfield idmap_fields[] = {
    FLD("containerID", JK_U32, struct oci_idmap, container_id, JF_REQUIRED),
    FLD("hostID", JK_U32, struct oci_idmap, host_id, JF_REQUIRED),
    FLD("size", JK_U32, struct oci_idmap, size, JF_REQUIRED),
};
static const struct jschema idmap_schema =
    SCHEMA(struct oci_idmap, idmap_fields, check_idmap, NULL);

static int check_mount(void *obj, const struct jpath *p, struct werror *err)
{
	struct oci_mount *m = obj;
	struct jpath dp = {p, "destination", 0};

	return check_abs(m->destination, &dp, err);
}

static const struct jfield mount_fields[] = {
    FLD("destination", JK_STR, struct oci_mount, destination, JF_REQUIRED | JF_NONEMPTY),
    FLD("type", JK_STR, struct oci_mount, type, 0),
    FLD("source", JK_STR, struct oci_mount, source, 0),
    FLD_N("options", JK_STRV, struct oci_mount, options, 0, NULL),
    FLD_N("uidMappings", JK_ARR, struct oci_mount, uid_mappings, 0, &idmap_schema),
    FLD_N("gidMappings", JK_ARR, struct oci_mount, gid_mappings, 0, &idmap_schema),
};
static const struct jschema mount_schema =
    SCHEMA(struct oci_mount, mount_fields, check_mount, NULL);

/* --- hooks -------------------------------------------------------------- */

static int check_hook(void *obj, const struct jpath *p, struct werror *err)
{
	struct oci_hook *h = obj;
	struct jpath pp = {p, "path", 0};

	if (check_abs(h->path, &pp, err) < 0)
		return -1;
	if (h->has_timeout && h->timeout <= 0) {
		struct jpath tp = {p, "timeout", 0};

		return jerr(err, &tp, "must be greater than 0 (got %d)", h->timeout);
	}
	return 0;
}

static const struct jfield hook_fields[] = {
    FLD("path", JK_STR, struct oci_hook, path, JF_REQUIRED | JF_NONEMPTY),
    FLD_N("args", JK_STRV, struct oci_hook, args, 0, NULL),
    FLD_N("env", JK_STRV, struct oci_hook, env, 0, NULL),
    FLD_HAS("timeout", JK_I32, struct oci_hook, timeout, 0),
};
static const struct jschema hook_schema = SCHEMA(struct oci_hook, hook_fields, check_hook, NULL);

#define HOOK_FLD(k, i)                                                                             \
	{                                                                                          \
		.key = k, .kind = JK_ARR, .off = offsetof(struct oci_hooks, point[i].hooks),       \
		.has_off = -1, .n_off = offsetof(struct oci_hooks, point[i].n),                    \
		.sub = &hook_schema                                                                \
	}
static const struct jfield hooks_fields[] = {
    HOOK_FLD("prestart", HOOK_PRESTART),
    HOOK_FLD("createRuntime", HOOK_CREATE_RUNTIME),
    HOOK_FLD("createContainer", HOOK_CREATE_CONTAINER),
    HOOK_FLD("startContainer", HOOK_START_CONTAINER),
    HOOK_FLD("poststart", HOOK_POSTSTART),
    HOOK_FLD("poststop", HOOK_POSTSTOP),
};
static const struct jschema hooks_schema = SCHEMA(struct oci_hooks, hooks_fields, NULL, NULL);

/* --- linux -------------------------------------------------------------- */

static int check_namespace(void *obj, const struct jpath *p, struct werror *err)
{
	struct oci_namespace *ns = obj;

	ns->flag = oci_ns_flag(ns->type);
	if (ns->flag == 0) {
		struct jpath tp = {p, "type", 0};

		return jerr(err, &tp, "unknown namespace type \"%s\"", ns->type);
	}
	if (ns->path != NULL && ns->path[0] != '\0') {
		struct jpath pp = {p, "path", 0};

		return check_abs(ns->path, &pp, err);
	}
	return 0;
}

static const struct jfield namespace_fields[] = {
    FLD("type", JK_STR, struct oci_namespace, type, JF_REQUIRED | JF_NONEMPTY),
    FLD("path", JK_STR, struct oci_namespace, path, 0),
};
static const struct jschema namespace_schema =
    SCHEMA(struct oci_namespace, namespace_fields, check_namespace, NULL);

static int check_device(void *obj, const struct jpath *p, struct werror *err)
{
	struct oci_device *d = obj;
	struct jpath tp = {p, "type", 0};
	struct jpath pp = {p, "path", 0};

	if (strcmp(d->type, "c") != 0 && strcmp(d->type, "b") != 0 && strcmp(d->type, "u") != 0 &&
	    strcmp(d->type, "p") != 0)
		return jerr(err, &tp, "must be one of c, b, u, p (got \"%s\")", d->type);
	if (d->type[0] != 'p' && (!d->has_major || !d->has_minor))
		return jerr(err, p, "major and minor are required for a type \"%s\" device",
		            d->type);
	if ((d->has_major && (d->major < 0 || d->major > 4095)) ||
	    (d->has_minor && (d->minor < 0 || d->minor > 1048575)))
		return jerr(err, p, "major/minor out of range");
	/* Engines pass st_mode as they stat'ed the host node (Podman's
	 * --privileged and --device do): file-type bits are accepted when they
	 * agree with type, and dropped; only the permission bits are used. */
	if (d->has_file_mode && d->file_mode > 07777) {
		uint32_t fmt = d->file_mode & S_IFMT;
		uint32_t want = d->type[0] == 'b' ? S_IFBLK : d->type[0] == 'p' ? S_IFIFO : S_IFCHR;

		if (fmt != want || (d->file_mode & ~(uint32_t)(S_IFMT | 07777)) != 0)
			return jerr(err, p,
			            "fileMode must be a permission mode no larger than 07777 (or "
			            "one with the file type bits of a type \"%s\" device)",
			            d->type);
		d->file_mode &= 07777;
	}
	return check_abs(d->path, &pp, err);
}

static const struct jfield device_fields[] = {
    FLD("type", JK_STR, struct oci_device, type, JF_REQUIRED | JF_NONEMPTY),
    FLD("path", JK_STR, struct oci_device, path, JF_REQUIRED | JF_NONEMPTY),
    FLD_HAS("major", JK_I64, struct oci_device, major, 0),
    FLD_HAS("minor", JK_I64, struct oci_device, minor, 0),
    FLD_HAS("fileMode", JK_U32, struct oci_device, file_mode, 0),
    FLD_HAS("uid", JK_U32, struct oci_device, uid, 0),
    FLD_HAS("gid", JK_U32, struct oci_device, gid, 0),
};
static const struct jschema device_schema =
    SCHEMA(struct oci_device, device_fields, check_device, NULL);

static const char *const propagations[] = {"private",    "rprivate",    "shared",
                                           "rshared",    "slave",       "rslave",
                                           "unbindable", "runbindable", NULL};

static int check_linux(void *obj, const struct jpath *p, struct werror *err)
{
	struct oci_linux *l = obj;

	for (size_t i = 0; i < l->n_namespaces; i++)
		for (size_t j = 0; j < i; j++)
			if (l->namespaces[i].flag == l->namespaces[j].flag) {
				struct jpath np = {p, "namespaces", 0};
				struct jpath ip = {&np, NULL, i};

				return jerr(err, &ip, "duplicate namespace \"%s\"",
				            l->namespaces[i].type);
			}
	if (l->rootfs_propagation && l->rootfs_propagation[0]) {
		bool ok = false;

		for (size_t i = 0; propagations[i]; i++)
			ok = ok || strcmp(propagations[i], l->rootfs_propagation) == 0;
		if (!ok) {
			struct jpath rp = {p, "rootfsPropagation", 0};

			return jerr(err, &rp, "unknown propagation \"%s\"", l->rootfs_propagation);
		}
	}
	for (size_t i = 0; i < l->n_masked_paths; i++) {
		struct jpath mp = {p, "maskedPaths", 0};
		struct jpath ip = {&mp, NULL, i};

		if (check_abs(l->masked_paths[i], &ip, err) < 0)
			return -1;
	}
	for (size_t i = 0; i < l->n_readonly_paths; i++) {
		struct jpath mp = {p, "readonlyPaths", 0};
		struct jpath ip = {&mp, NULL, i};

		if (check_abs(l->readonly_paths[i], &ip, err) < 0)
			return -1;
	}
	return 0;
}

static int check_personality(void *obj, const struct jpath *p, struct werror *err)
{
	struct oci_personality *pe = obj;

	if (strcmp(pe->domain, "LINUX") != 0 && strcmp(pe->domain, "LINUX32") != 0) {
		struct jpath dp = {p, "domain", 0};

		return jerr(err, &dp, "must be LINUX or LINUX32 (got \"%s\")", pe->domain);
	}
	return 0;
}

static const struct jfield personality_fields[] = {
    FLD("domain", JK_STR, struct oci_personality, domain, JF_REQUIRED | JF_NONEMPTY),
    FLD_N("flags", JK_STRV, struct oci_personality, flags, 0, NULL),
};
static const struct jschema personality_schema =
    SCHEMA(struct oci_personality, personality_fields, check_personality, NULL);

static int check_time_offset(void *obj, const struct jpath *p, struct werror *err)
{
	struct oci_time_offset *t = obj;

	if (t->nanosecs >= 1000000000u) {
		struct jpath np = {p, "nanosecs", 0};

		return jerr(err, &np, "must be below 1000000000");
	}
	return 0;
}

static const struct jfield time_offset_fields[] = {
    FLD("secs", JK_I64, struct oci_time_offset, secs, 0),
    FLD("nanosecs", JK_U32, struct oci_time_offset, nanosecs, 0),
};
static const struct jschema time_offset_schema =
    SCHEMA(struct oci_time_offset, time_offset_fields, check_time_offset, NULL);

static const struct jfield time_offsets_fields[] = {
    FLD_OBJ("monotonic", struct oci_time_offsets, monotonic, 0, &time_offset_schema),
    FLD_OBJ("boottime", struct oci_time_offsets, boottime, 0, &time_offset_schema),
};
static const struct jschema time_offsets_schema =
    SCHEMA(struct oci_time_offsets, time_offsets_fields, NULL, NULL);

static const struct jfield linux_fields[] = {
    FLD_N("namespaces", JK_ARR, struct oci_linux, namespaces, 0, &namespace_schema),
    FLD_N("uidMappings", JK_ARR, struct oci_linux, uid_mappings, 0, &idmap_schema),
    FLD_N("gidMappings", JK_ARR, struct oci_linux, gid_mappings, 0, &idmap_schema),
    FLD_N("devices", JK_ARR, struct oci_linux, devices, 0, &device_schema),
    FLD("cgroupsPath", JK_STR, struct oci_linux, cgroups_path, 0),
    FLD("rootfsPropagation", JK_STR, struct oci_linux, rootfs_propagation, 0),
    FLD_N("sysctl", JK_MAP, struct oci_linux, sysctl, 0, NULL),
    FLD_N("maskedPaths", JK_STRV, struct oci_linux, masked_paths, 0, NULL),
    FLD_N("readonlyPaths", JK_STRV, struct oci_linux, readonly_paths, 0, NULL),
    FLD("mountLabel", JK_STR, struct oci_linux, mount_label, 0),
    FLD_OBJ("resources", struct oci_linux, resources, 0, &oci_resources_schema),
    FLD_OBJ("seccomp", struct oci_linux, seccomp, 0, &oci_seccomp_schema),
    FLD_OBJ("timeOffsets", struct oci_linux, time_offsets, 0, &time_offsets_schema),
    FLD_OBJ("personality", struct oci_linux, personality, 0, &personality_schema),
    FLD_OBJ("intelRdt", struct oci_linux, intel_rdt, 0, &oci_intel_rdt_schema),
    FLD_OBJ("memoryPolicy", struct oci_linux, memory_policy, 0, &oci_memory_policy_schema),
    {.key = "netDevices",
     .kind = JK_CUSTOM,
     .off = offsetof(struct oci_linux, net_devices),
     .has_off = -1,
     .custom = oci_netdevs_decode},
};

static void free_linux(void *obj)
{
	oci_netdevs_free(&((struct oci_linux *)obj)->net_devices);
}

static const struct jschema linux_schema =
    SCHEMA(struct oci_linux, linux_fields, check_linux, free_linux);

/* --- top level ---------------------------------------------------------- */

static int check_config(void *obj, const struct jpath *p, struct werror *err)
{
	struct oci_config *c = obj;
	struct jpath vp = {p, "ociVersion", 0};

	/* The spec is semver: accept any 1.x; a new major may change meanings. */
	if (strncmp(c->oci_version, "1.", 2) != 0)
		return jerr(err, &vp,
		            "unsupported version \"%s\": ward implements runtime-spec 1.x",
		            c->oci_version);
	if (c->process == NULL)
		return jerr(err, NULL, "\"process\" is required to create a container");
	if (c->process->user == NULL) {
		struct jpath pp = {p, "process", 0};
		struct jpath up = {&pp, "user", 0};

		return jerr(err, &up, "required field is missing");
	}
	if (c->root == NULL)
		return jerr(err, NULL, "\"root\" is required on Linux");
	return 0;
}

static const struct jfield config_fields[] = {
    FLD("ociVersion", JK_STR, struct oci_config, oci_version, JF_REQUIRED | JF_NONEMPTY),
    FLD_OBJ("root", struct oci_config, root, 0, &root_schema),
    FLD_OBJ("process", struct oci_config, process, 0, &process_schema),
    FLD("hostname", JK_STR, struct oci_config, hostname, 0),
    FLD("domainname", JK_STR, struct oci_config, domainname, 0),
    FLD_N("mounts", JK_ARR, struct oci_config, mounts, 0, &mount_schema),
    FLD_OBJ("hooks", struct oci_config, hooks, 0, &hooks_schema),
    FLD_N("annotations", JK_MAP, struct oci_config, annotations, 0, NULL),
    FLD_OBJ("linux", struct oci_config, linux, 0, &linux_schema),
    FLD_REFUSE("windows", "this is a Linux runtime"),
    FLD_REFUSE("solaris", "this is a Linux runtime"),
    FLD_REFUSE("vm", "this is not a VM-based runtime"),
    FLD_REFUSE("zos", "this is a Linux runtime"),
};
static const struct jschema config_schema =
    SCHEMA(struct oci_config, config_fields, check_config, NULL);

struct oci_config *oci_config_parse(const char *buf, size_t len, const char *what,
                                    struct werror *err)
{
	yajl_val tree = jparse_document(buf, len, OCI_MAX_DEPTH, what, err);
	struct oci_config *c;

	if (tree == NULL)
		return NULL;
	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		werr(err, ENOMEM, "out of memory");
	} else if (jwalk_object(&config_schema, tree, NULL, c, err) < 0) {
		werr_ctx(err, "%s", what);
		oci_config_free(c);
		c = NULL;
	} else if (jcollect_keys(&config_schema, tree, NULL, &c->seen, err) < 0) {
		oci_config_free(c);
		c = NULL;
	}
	yajl_tree_free(tree);
	return c;
}

const struct jschema *oci_config_schema(void)
{
	return &config_schema;
}

void oci_config_free(struct oci_config *c)
{
	if (c == NULL)
		return;
	if (c->linux && c->linux->seccomp_base) {
		jwalk_free(&oci_seccomp_schema, c->linux->seccomp_base);
		free(c->linux->seccomp_base);
	}
	jwalk_free(&config_schema, c);
	jkeys_free(&c->seen);
	free(c);
}

int oci_read_file(const char *path, char **out, size_t *out_len, struct werror *err)
{
	return read_file(path, OCI_MAX_CONFIG_SIZE, out, out_len, err);
}

struct oci_config *oci_config_load(const char *bundle, struct werror *err)
{
	char path[PATH_MAX];
	struct oci_config *c;
	char *buf;
	size_t len;

	if ((size_t)snprintf(path, sizeof(path), "%s/config.json", bundle) >= sizeof(path)) {
		werr_k(err, WERR_INVALID, ENAMETOOLONG, "bundle path %s", bundle);
		return NULL;
	}
	if (oci_read_file(path, &buf, &len, err) < 0)
		return NULL;
	c = oci_config_parse(buf, len, "config.json", err);
	free(buf);
	return c;
}

struct oci_process *oci_process_parse(const char *buf, size_t len, const char *what,
                                      struct werror *err)
{
	struct oci_process *p =
	    jdecode_document(&process_schema, buf, len, OCI_MAX_DEPTH, what, err);

	if (p && p->user == NULL && (p->user = calloc(1, sizeof(*p->user))) == NULL) {
		oci_process_free(p);
		werr(err, ENOMEM, "out of memory");
		return NULL;
	}
	return p;
}

void oci_process_free(struct oci_process *p)
{
	if (p == NULL)
		return;
	jwalk_free(&process_schema, p);
	free(p);
}
