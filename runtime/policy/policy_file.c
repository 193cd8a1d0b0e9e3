/* Decoding the operator policy file. Unlike config.json, unknown
 * properties are refused: a misspelt key must not silently mean "no
 * policy". */
#include "policy/policy_file.h"
#include "lib/strfmt.h"
#include "oci/config.h"
#include "lib/duration.h"
#include "lib/error.h"
#include "lib/fileio.h"
#include "oci/names.h"
#include "lib/jwalk_macros.h"
#include "hooks/hook_file.h"
#include "hooks/hooks_dir.h"
#include "net/egress_rule.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *const policy_default_secret_env[] = {"*TOKEN*",
                                                 "*SECRET*",
                                                 "*PASSWORD*",
                                                 "*PASSWD*",
                                                 "*_KEY",
                                                 "*_KEY_*",
                                                 "*APIKEY*",
                                                 "*CREDENTIAL*",
                                                 "AWS_*",
                                                 "AZURE_*",
                                                 "GOOGLE_APPLICATION_CREDENTIALS",
                                                 "GH_*",
                                                 "GITHUB_*",
                                                 "*PRIVATE*",
                                                 NULL};

static const char *const profiles[] = {"compat", "baseline", "strict"};

int profile_from_name(const char *name)
{
	for (int i = 0; i < 3; i++)
		if (strcmp(name, profiles[i]) == 0)
			return i;
	return -1;
}

const char *profile_name(enum ward_profile p)
{
	return profiles[p];
}

bool policy_refuses_missing_network(const struct policy *p)
{
	return !(p && p->missing_network && strcmp(p->missing_network, "isolate") == 0);
}

const char *const *policy_hooks_dirs(const struct policy *p, size_t *n)
{
	static const char *const defaults[] = HOOKS_DIRS_DEFAULT;

	if (p && p->has_hooks_dirs) {
		*n = p->n_hooks_dirs;
		return (const char *const *)p->hooks_dirs;
	}
	*n = sizeof(defaults) / sizeof(defaults[0]);
	return defaults;
}

bool policy_hook_listed(const struct policy *p, const char *path)
{
	/* "*" stays within one component and matches no leading ".": a
	 * pattern cannot be walked out of with "..". */
	for (size_t i = 0; p && i < p->n_hooks; i++)
		if (fnmatch(p->hooks[i], path, FNM_PATHNAME | FNM_PERIOD) == 0)
			return true;
	return false;
}

bool policy_netdev_listed(const struct policy *p, const char *name)
{
	for (size_t i = 0; p && i < p->n_net_devices; i++)
		if (strcmp(p->net_devices[i], name) == 0)
			return true;
	return false;
}

int64_t policy_pids_limit(const struct policy *p)
{
	return p && p->has_pids_limit ? p->pids_limit : 4096;
}

bool policy_supervise_always(const struct policy *p)
{
	return p && p->supervise && strcmp(p->supervise, "always") == 0;
}

bool policy_systemd_cgroup(const struct policy *p)
{
	return p && p->cgroup_manager && strcmp(p->cgroup_manager, "systemd") == 0;
}

bool policy_rootless_limits_warn(const struct policy *p)
{
	return p && p->strict && p->strict->rootless_limits &&
	       strcmp(p->strict->rootless_limits, "warn") == 0;
}

long long policy_strict_timeout_ms(const struct policy *p)
{
	long long ms;

	if (p && p->strict && p->strict->timeout && duration_parse_ms(p->strict->timeout, &ms) == 0)
		return ms;
	return 600000; /* nsjail's 600 s */
}

long long policy_timeout_grace_ms(const struct policy *p)
{
	long long ms;

	if (p && p->timeout_grace && duration_parse_ms(p->timeout_grace, &ms) == 0)
		return ms;
	return 5000;
}

int64_t policy_report_keep(const struct policy *p)
{
	return p && p->has_report_keep ? p->report_keep : 1000;
}

/* A duration field (checked here, read by the accessors above). */
static int check_duration(const struct jpath *p, const char *key, const char *v, struct werror *err)
{
	struct jpath fp = {p, key, 0};
	long long ms;

	if (v && duration_parse_ms(v, &ms) < 0)
		return jerr(err, &fp, "must be a duration such as 90s, 10m or 1h (got \"%s\")", v);
	return 0;
}

static const struct jfield idpool_fields[] = {
    FLD_HAS("start", JK_U32, struct policy_idpool, start, 0),
    FLD_HAS("size", JK_U32, struct policy_idpool, size, 0),
    FLD_HAS("rangeSize", JK_U32, struct policy_idpool, range_size, 0),
};

/* Host id 0 in a range would make container root host root; (uid_t)-1 is
 * no id at all (setuid(-1) changes nothing). */
static int check_idpool(void *obj, const struct jpath *p, struct werror *err)
{
	const struct policy_idpool *ip = obj;

	if (ip->has_start && ip->start == 0)
		return jerr(err, p, "start 0 would map container root to host root");
	if ((ip->has_range_size && ip->range_size == 0) || (ip->has_size && ip->size == 0))
		return jerr(err, p, "size and rangeSize must be at least 1");
	if (ip->has_start && ip->has_size && (uint64_t)ip->start + ip->size > UINT32_MAX)
		return jerr(err, p, "start + size must stay below 4294967295 ((uid_t)-1 is no id)");
	return 0;
}

static const struct jschema idpool_schema =
    SCHEMA(struct policy_idpool, idpool_fields, check_idpool, NULL);

static const struct jfield strict_fields[] = {
    FLD_HAS("memoryLimit", JK_I64, struct policy_strict, memory_limit, 0),
    FLD_HAS("cpuQuota", JK_I64, struct policy_strict, cpu_quota, 0),
    FLD_HAS("cpuPeriod", JK_U64, struct policy_strict, cpu_period, 0),
    FLD_HAS("pidsLimit", JK_I64, struct policy_strict, pids_limit, 0),
    FLD("tmpfsSize", JK_STR, struct policy_strict, tmpfs_size, JF_NONEMPTY),
    FLD("timeout", JK_STR, struct policy_strict, timeout, 0),
    FLD_HAS("usernsHostID", JK_U32, struct policy_strict, userns_host_id, 0),
    FLD_HAS("usernsSize", JK_U32, struct policy_strict, userns_size, 0),
    FLD_OBJ("idPool", struct policy_strict, id_pool, 0, &idpool_schema),
    FLD("rootlessLimits", JK_STR, struct policy_strict, rootless_limits, 0),
};

static int check_strict(void *obj, const struct jpath *p, struct werror *err)
{
	const struct policy_strict *s = obj;
	struct jpath fp = {p, NULL, 0};

	if ((s->has_memory_limit && s->memory_limit <= 0) ||
	    (s->has_pids_limit && s->pids_limit <= 0) || (s->has_cpu_quota && s->cpu_quota <= 0))
		return jerr(err, p, "limits must be positive");
	if (s->has_userns_size && s->userns_size == 0)
		return jerr(err, p, "usernsSize must be at least 1");
	if (s->has_userns_host_id && s->userns_host_id == 0)
		return jerr(err, p, "usernsHostID 0 would map container root to host root");
	if (s->id_pool && (s->has_userns_host_id || s->has_userns_size))
		return jerr(err, p,
		            "idPool and usernsHostID/usernsSize both name the host ids of "
		            "strict containers: keep idPool");
	if (s->rootless_limits && strcmp(s->rootless_limits, "require") != 0 &&
	    strcmp(s->rootless_limits, "warn") != 0) {
		fp.key = "rootlessLimits";
		return jerr(err, &fp, "must be \"require\" or \"warn\" (got \"%s\")",
		            s->rootless_limits);
	}
	if (s->tmpfs_size && strspn(s->tmpfs_size, "0123456789kmgKMG%") != strlen(s->tmpfs_size)) {
		fp.key = "tmpfsSize";
		return jerr(err, &fp, "must be a tmpfs size such as 64m");
	}
	return check_duration(p, "timeout", s->timeout, err);
}

static const struct jschema strict_schema =
    SCHEMA(struct policy_strict, strict_fields, check_strict, NULL);

/* Each destination parses (net/egress_rule.c says what is wrong). */
static int check_egress_list(void *obj, const struct jpath *p, struct werror *err)
{
	const struct policy_egress_list *l = obj;
	struct jpath ap = {p, "allow", 0};

	for (size_t i = 0; i < l->n_allow; i++) {
		struct jpath ip = {&ap, NULL, i};
		struct egress_rule r;
		char why[160];

		if (egress_rule_parse(l->allow[i], &r, why, sizeof(why)) < 0)
			return jerr(err, &ip, "%s", why);
	}
	return 0;
}

static const struct jfield egress_list_fields[] = {
    {.key = "allow",
     .kind = JK_STRV,
     .off = offsetof(struct policy_egress_list, allow),
     .has_off = offsetof(struct policy_egress_list, has_allow),
     .n_off = offsetof(struct policy_egress_list, n_allow)},
};
static const struct jschema egress_list_schema =
    SCHEMA(struct policy_egress_list, egress_list_fields, check_egress_list, NULL);

/* No "compat" key: compat never filters (a list there would mislead). */
static const struct jfield egress_fields[] = {
    FLD_OBJ("baseline", struct policy_egress, baseline, 0, &egress_list_schema),
    FLD_OBJ("strict", struct policy_egress, strict, 0, &egress_list_schema),
};
static const struct jschema egress_schema = SCHEMA(struct policy_egress, egress_fields, NULL, NULL);

/* Every opt-out: a name, or a family "prefix<what>" (one table for the
 * policy check and `ward features`; runtime/policy/ward-policy.7 explains each). */
const char *const policy_optouts[] = {"host-network",
                                      "host-pid",
                                      "host-ipc",
                                      "host-uts",
                                      "host-mount",
                                      "host-user",
                                      "host-cgroup",
                                      "devices-all",
                                      "cgroup-rw",
                                      "join-network",
                                      "seccomp-none",
                                      "privilege-escalation",
                                      "landlock-off",
                                      "cap.<NAME>",
                                      "device.<mem|kmem|port|kvm|fuse|tun|vhost-net|"
                                      "vhost-vsock|block|console|cMAJOR:*|cMAJOR:MINOR>",
                                      "mount:<host path>",
                                      "mount-type.<TYPE>",
                                      "idmap",
                                      "env.<NAME>",
                                      "hook:<host path>",
                                      "egress-metadata",
                                      NULL};

/* "<digits>" */
static bool number(const char *s, size_t n)
{
	if (n == 0 || n > 10)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* What a family admits after its prefix: capabilities and devices are
 * closed sets (cap.FLY or device.bogus would lift nothing and hide a
 * typo); paths, types and variable names are the operator's. */
static bool family_member(const char *fam, const char *what)
{
	static const char *const devices[] = {"mem",   "kmem",    "port",      "kvm",
	                                      "fuse",  "tun",     "vhost-net", "vhost-vsock",
	                                      "block", "console", NULL};

	if (strcmp(fam, "cap.") == 0) {
		char name[64];

		snprintf(name, sizeof(name), "CAP_%s", what);
		return strncmp(what, "CAP_", 4) != 0 && oci_cap_from_name(name) >= 0;
	}
	if (strcmp(fam, "device.") == 0) {
		size_t maj;

		for (size_t i = 0; devices[i]; i++)
			if (strcmp(what, devices[i]) == 0)
				return true;
		/* "cMAJ:MIN": nothing is read past an empty name (found by
		 * tests/fuzz/fuzz_policy: "device." read one byte too far). */
		if (what[0] != 'c')
			return false;
		maj = strcspn(what + 1, ":");
		return number(what + 1, maj) && what[1 + maj] == ':' &&
		       (strcmp(what + 2 + maj, "*") == 0 ||
		        number(what + 2 + maj, strlen(what + 2 + maj)));
	}
	return what[0] != '\0';
}

static bool known_optout(const char *n)
{
	for (size_t i = 0; policy_optouts[i]; i++) {
		const char *t = policy_optouts[i];
		size_t fam = strcspn(t, "<");
		char prefix[32];

		if (t[fam] == '\0') {
			if (strcmp(n, t) == 0)
				return true;
			continue;
		}
		snprintf(prefix, sizeof(prefix), "%.*s", (int)fam, t);
		if (strncmp(n, t, fam) == 0 && family_member(prefix, n + fam))
			return true;
	}
	return false;
}

static int check_names(char **v, size_t n, const struct jpath *p, const char *key,
                       struct werror *err)
{
	struct jpath kp = {p, key, 0};

	for (size_t i = 0; i < n; i++) {
		struct jpath ip = {&kp, NULL, i};

		if (!known_optout(v[i]))
			return jerr(err, &ip, "unknown opt-out \"%s\" (see ward-policy(7))", v[i]);
		if (strncmp(v[i], "mount:", 6) == 0 && v[i][6] != '/')
			return jerr(err, &ip, "a mount opt-out names an absolute host path");
		if (strncmp(v[i], "hook:", 5) == 0 && v[i][5] != '/')
			return jerr(err, &ip, "a hook opt-out names the hook's absolute path");
	}
	return 0;
}

static int check_policy(void *obj, const struct jpath *p, struct werror *err)
{
	const struct policy *pol = obj;

	if (pol->profile && profile_from_name(pol->profile) < 0) {
		struct jpath pp = {p, "profile", 0};

		return jerr(err, &pp, "must be compat, baseline or strict (got \"%s\")",
		            pol->profile);
	}
	if (pol->missing_network && strcmp(pol->missing_network, "isolate") != 0 &&
	    strcmp(pol->missing_network, "refuse") != 0) {
		struct jpath pp = {p, "missingNetwork", 0};

		return jerr(err, &pp, "must be isolate or refuse (got \"%s\")",
		            pol->missing_network);
	}
	for (size_t i = 0; i < pol->n_hooks; i++)
		if (pol->hooks[i][0] != '/') {
			struct jpath hp = {p, "hooks", 0}, ip = {&hp, NULL, i};

			return jerr(err, &ip, "must be an absolute path or pattern (got \"%s\")",
			            pol->hooks[i]);
		}
	for (size_t i = 0; i < pol->n_hooks_dirs; i++)
		if (pol->hooks_dirs[i][0] != '/') {
			struct jpath hp = {p, "hooksDirs", 0}, ip = {&hp, NULL, i};

			return jerr(err, &ip, "must be an absolute path (got \"%s\")",
			            pol->hooks_dirs[i]);
		}
	for (size_t i = 0; i < pol->n_dns_upstreams; i++) {
		struct in6_addr a6;
		struct in_addr a4;
		const char *u = pol->dns_upstreams[i];

		if (inet_pton(AF_INET, u, &a4) != 1 && inet_pton(AF_INET6, u, &a6) != 1) {
			struct jpath dp = {p, "dnsUpstreams", 0}, ip = {&dp, NULL, i};

			return jerr(err, &ip, "must be an IPv4 or IPv6 address (got \"%s\")", u);
		}
	}
	if (pol->has_pids_limit && pol->pids_limit <= 0) {
		struct jpath pp = {p, "pidsLimit", 0};

		return jerr(err, &pp, "must be positive");
	}
	for (size_t i = 0; i < pol->n_secret_env; i++)
		if (pol->secret_env[i][0] == '\0') {
			struct jpath sp = {p, "secretEnv", 0}, ip = {&sp, NULL, i};

			return jerr(err, &ip, "must not be empty");
		}
	if (pol->supervise && strcmp(pol->supervise, "auto") != 0 &&
	    strcmp(pol->supervise, "always") != 0) {
		struct jpath pp = {p, "supervise", 0};

		return jerr(err, &pp, "must be auto or always (got \"%s\")", pol->supervise);
	}
	if (pol->cgroup_manager && strcmp(pol->cgroup_manager, "cgroupfs") != 0 &&
	    strcmp(pol->cgroup_manager, "systemd") != 0) {
		struct jpath pp = {p, "cgroupManager", 0};

		return jerr(err, &pp, "must be cgroupfs or systemd (got \"%s\")",
		            pol->cgroup_manager);
	}
	if (pol->report_dir && pol->report_dir[0] != '/') {
		struct jpath pp = {p, "reportDir", 0};

		return jerr(err, &pp, "must be an absolute path (got \"%s\")", pol->report_dir);
	}
	if (pol->has_report_keep && pol->report_keep < 1) {
		struct jpath pp = {p, "reportKeep", 0};

		return jerr(err, &pp, "must be at least 1");
	}
	if (check_duration(p, "timeoutGrace", pol->timeout_grace, err) < 0)
		return -1;
	/* Exact host names: a pattern would hand over devices made later. */
	for (size_t i = 0; i < pol->n_net_devices; i++)
		if (pol->net_devices[i][0] == '\0' || strlen(pol->net_devices[i]) > 15 ||
		    strpbrk(pol->net_devices[i], "/: \t\n*?[%")) {
			struct jpath np = {p, "netDevices", 0}, ip = {&np, NULL, i};

			return jerr(err, &ip, "must be a network device's name (got \"%s\")",
			            pol->net_devices[i]);
		}
	if (check_names(pol->allow, pol->n_allow, p, "allow", err) < 0 ||
	    check_names(pol->allow_always, pol->n_allow_always, p, "allowAlways", err) < 0)
		return -1;
	return 0;
}

static const struct jfield policy_fields[] = {
    FLD("profile", JK_STR, struct policy, profile, 0),
    FLD_N("allow", JK_STRV, struct policy, allow, 0, NULL),
    FLD_N("allowAlways", JK_STRV, struct policy, allow_always, 0, NULL),
    FLD_HAS("pidsLimit", JK_I64, struct policy, pids_limit, 0),
    FLD("missingNetwork", JK_STR, struct policy, missing_network, 0),
    FLD_N("hooks", JK_STRV, struct policy, hooks, 0, NULL),
    {.key = "hooksDirs",
     .kind = JK_STRV,
     .off = offsetof(struct policy, hooks_dirs),
     .has_off = offsetof(struct policy, has_hooks_dirs),
     .n_off = offsetof(struct policy, n_hooks_dirs)},
    FLD_N("dnsUpstreams", JK_STRV, struct policy, dns_upstreams, 0, NULL),
    FLD_OBJ("strict", struct policy, strict, 0, &strict_schema),
    FLD("supervise", JK_STR, struct policy, supervise, 0),
    FLD("timeoutGrace", JK_STR, struct policy, timeout_grace, 0),
    FLD("reportDir", JK_STR, struct policy, report_dir, JF_NONEMPTY),
    FLD_HAS("reportKeep", JK_I64, struct policy, report_keep, 0),
    FLD("cgroupManager", JK_STR, struct policy, cgroup_manager, 0),
    FLD_OBJ("egress", struct policy, egress, 0, &egress_schema),
    FLD_N("netDevices", JK_STRV, struct policy, net_devices, 0, NULL),
    {.key = "secretEnv",
     .kind = JK_STRV,
     .off = offsetof(struct policy, secret_env),
     .has_off = offsetof(struct policy, has_secret_env),
     .n_off = offsetof(struct policy, n_secret_env)},
};
static const struct jschema policy_schema =
    SCHEMA(struct policy, policy_fields, check_policy, NULL);

struct policy *policy_parse(const char *buf, size_t len, const char *what, struct werror *err)
{
	yajl_val tree = jparse_document(buf, len, 16, what, err);
	struct policy *p;

	if (tree == NULL)
		return NULL;
	if (!YAJL_IS_OBJECT(tree)) {
		yajl_tree_free(tree);
		werr(err, 0, "%s: must be a JSON object", what);
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (p == NULL) {
		werr(err, ENOMEM, "out of memory");
	} else if (jcheck_known_keys(&policy_schema, tree, NULL, err) < 0 ||
	           jwalk_object(&policy_schema, tree, NULL, p, err) < 0) {
		werr_ctx(err, "%s", what);
		policy_free(p);
		p = NULL;
	}
	yajl_tree_free(tree);
	return p;
}

/* The operator's policy decides what every container may do: it is read
 * only if nobody but root (or the rootless caller itself) could have
 * written it or changed what its path names (hook_file_read). Ids are
 * compared as this process sees them: create loads the policy before
 * entering a rootless user namespace (where the host's root shows as the
 * overflow uid and the caller as 0; see cmd_create.c). */
static int read_trusted(const char *f, bool optional, char **text, size_t *len, bool *absent,
                        struct werror *err)
{
	char abs[PATH_MAX * 2], cwd[PATH_MAX];
	struct hook_text t;

	*absent = false;
	if (f[0] != '/' && getcwd(cwd, sizeof(cwd)) == NULL)
		return werr(err, errno, "policy file %s", f);
	if (fmt_fit(abs, sizeof(abs), "%s%s%s", f[0] == '/' ? "" : cwd, f[0] == '/' ? "" : "/", f) <
	    0)
		return werr(err, ENAMETOOLONG, "policy file %s", f);
	if (hook_file_read(abs, "policy file", f, OCI_MAX_CONFIG_SIZE, optional, &t, err) < 0)
		return -1;
	*text = t.text;
	*len = t.len;
	*absent = t.absent;
	return 0;
}

struct policy *policy_load_text(const char *path, char **text, size_t *len, struct werror *err)
{
	const char *f = path ? path : POLICY_DEFAULT_PATH;
	struct policy *p;
	bool absent;

	*text = NULL;
	*len = 0;
	if (read_trusted(f, path == NULL, text, len, &absent, err) < 0)
		return NULL;
	if (absent) {
		p = calloc(1, sizeof(struct policy));
		if (p == NULL)
			werr(err, ENOMEM, "out of memory");
		return p;
	}
	p = policy_parse(*text, *len, f, err);
	if (p == NULL) {
		werr_ctx(err, "policy file");
		free(*text);
		*text = NULL;
	}
	return p;
}

struct policy *policy_load(const char *path, struct werror *err)
{
	char *text;
	size_t len;
	struct policy *p = policy_load_text(path, &text, &len, err);

	free(text);
	return p;
}

void policy_free(struct policy *p)
{
	if (p == NULL)
		return;
	jwalk_free(&policy_schema, p);
	free(p);
}
