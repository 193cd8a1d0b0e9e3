/* The operator policy file (default /etc/ward/policy.json; schema in
 * config-schema/policy.schema.json; rules in runtime/policy/ward-policy.7). */
#ifndef WARD_OCI_POLICY_FILE_H
#define WARD_OCI_POLICY_FILE_H

#include "lib/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define POLICY_DEFAULT_PATH "/etc/ward/policy.json"

enum ward_profile { PROFILE_COMPAT, PROFILE_BASELINE, PROFILE_STRICT };

/* strict.idPool: the host ids strict containers get a range each of
 * (refuse_ns.c policy_strict_idpool: the defaults and why). */
struct policy_idpool {
	uint32_t start, size, range_size;
	bool has_start, has_size, has_range_size;
};

struct policy_strict {
	int64_t memory_limit; /* bytes */
	int64_t cpu_quota;    /* µs per cpu_period */
	uint64_t cpu_period;
	int64_t pids_limit;
	char *tmpfs_size; /* "64m": size= of /tmp and /run */
	char *timeout;    /* the wall-clock limit ("10m") */
	/* A rootless container without a delegated cgroup: "require" (the
	 * default: refused) or "warn" (runs without the limits). */
	char *rootless_limits;
	uint32_t userns_host_id, userns_size;
	struct policy_idpool *id_pool;
	bool has_memory_limit, has_cpu_quota, has_cpu_period, has_pids_limit;
	bool has_userns_host_id, has_userns_size;
};

/* egress.<profile>: the destinations its containers may reach
 * (net/egress_rule.h notation; runtime/policy/ward-policy.7, EGRESS). */
struct policy_egress_list {
	char **allow;
	size_t n_allow;
	bool has_allow;
};

struct policy_egress {
	struct policy_egress_list *baseline, *strict;
};

struct policy {
	char *profile; /* the default profile's name, NULL = baseline */
	/* Opt-outs a container may turn on with org.ward.allow.<name>=true. */
	char **allow;
	size_t n_allow;
	/* Opt-outs on for every container. */
	char **allow_always;
	size_t n_allow_always;
	/* baseline, no network namespace listed (what engines write for
	 * --network host): "refuse" (default; opt-out host-network) or
	 * "isolate" (a fresh one is added). */
	char *missing_network;
	/* strict: the hooks that may run, as fnmatch patterns of their paths
	 * (a directory's files: the directory, a slash and a star); none by
	 * default. */
	char **hooks;
	size_t n_hooks;
	/* baseline also runs a hook an OCI hooks directory installs with the
	 * same stage, path, args and env (hooks/hooks_dir.h); absent: Podman's
	 * and CRI-O's defaults. */
	char **hooks_dirs;
	size_t n_hooks_dirs;
	bool has_hooks_dirs;
	/* The resolvers the DNS gate asks (IP addresses); none: the host's
	 * /etc/resolv.conf. Never the container's config or image. */
	char **dns_upstreams;
	size_t n_dns_upstreams;
	int64_t pids_limit; /* baseline's when the config sets none */
	bool has_pids_limit;
	struct policy_strict *strict;
	/* Glob patterns of environment variable names strict refuses. */
	char **secret_env;
	size_t n_secret_env;
	bool has_secret_env;
	/* The run supervisor (runtime/supervisor): "auto" (strict, and
	 * baseline containers with a time limit) or "always" (baseline too). */
	char *supervise;
	char *timeout_grace; /* SIGTERM at the deadline, the cgroup killed this later */
	char *report_dir;    /* run reports; default <root>/reports */
	int64_t report_keep; /* the newest this many reports are kept */
	bool has_report_keep;
	/* "cgroupfs" (default) or "systemd": the cgroup driver, as the global
	 * --systemd-cgroup selects systemd's. */
	char *cgroup_manager;
	struct policy_egress *egress;
	/* Host network devices a config's linux.netDevices may move into a
	 * container outside compat, by name. */
	char **net_devices;
	size_t n_net_devices;
};

/* The effective values, defaults filled in. */
bool policy_refuses_missing_network(const struct policy *p);
/* path matches one of the policy's "hooks" patterns. */
bool policy_hook_listed(const struct policy *p, const char *path);
/* name is listed in the policy's "netDevices". */
bool policy_netdev_listed(const struct policy *p, const char *name);
/* The OCI hooks directories baseline reads (defaults filled in). */
const char *const *policy_hooks_dirs(const struct policy *p, size_t *n);
int64_t policy_pids_limit(const struct policy *p);
bool policy_supervise_always(const struct policy *p);
bool policy_systemd_cgroup(const struct policy *p);
/* strict.rootlessLimits is "warn". */
bool policy_rootless_limits_warn(const struct policy *p);
long long policy_strict_timeout_ms(const struct policy *p); /* default 10 min */
long long policy_timeout_grace_ms(const struct policy *p);  /* default 5 s */
int64_t policy_report_keep(const struct policy *p);         /* default 1000 */
extern const char *const policy_default_secret_env[];
/* Every opt-out name; "prefix<what>" entries are families (NULL-terminated). */
extern const char *const policy_optouts[];

/* Load path (NULL: the default path, where a missing file means the
 * built-in defaults; a missing file given explicitly is an error). A
 * malformed file is an error naming the JSON path. */
struct policy *policy_load(const char *path, struct werror *err);
struct policy *policy_parse(const char *buf, size_t len, const char *what, struct werror *err);
/* policy_load, also handing back the file's text (NULL for the built-in
 * defaults; the caller frees it): create records it for exec. */
struct policy *policy_load_text(const char *path, char **text, size_t *len, struct werror *err);
void policy_free(struct policy *p);

/* "compat", "baseline", "strict" → the enum; -1 if unknown. */
int profile_from_name(const char *name);
const char *profile_name(enum ward_profile p);

#endif
