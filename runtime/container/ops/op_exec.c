/* exec: the process comes from --process FILE (as the engines call it) or
 * from the container's own process with the command line's changes; the
 * policy create recorded is applied to it. */
#include "container/exec.h"
#include "container/ops/ops.h"
#include "container/store.h"
#include "lib/callerfds.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "lib/fileio.h"
#include "lib/trace.h"
#include "oci/config_edit.h"
#include "oci/names.h"
#include "policy/prepare.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static int parse_u32(const char *s, const char *what, uint32_t *out, struct werror *err)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || end == s || v > UINT32_MAX)
		return werr_k(err, WERR_INVALID, 0, "exec: %s \"%s\" is not a numeric id", what, s);
	*out = (uint32_t)v;
	return 0;
}

/* env from the container, then --env values (which replace same names). */
static char **merged_env(const struct oci_process *base, const struct optlist *add, size_t *n)
{
	char **env = calloc(base->n_env + add->n + 1, sizeof(*env));
	size_t k = 0;

	if (env == NULL)
		return NULL;
	for (size_t i = 0; i < base->n_env; i++)
		env[k++] = base->env[i];
	for (size_t i = 0; i < add->n; i++) {
		size_t len = strcspn(add->v[i], "=");
		size_t j;

		for (j = 0; j < k; j++)
			if (strncmp(env[j], add->v[i], len + 1) == 0)
				break;
		env[j] = add->v[i];
		if (j == k)
			k++;
	}
	*n = k;
	return env;
}

/* What create decided (the profile, the opt-outs and the policy file as it
 * was), applied again to the saved config: the exec'd process gets the same
 * seccomp filter, caps, no_new_privs and rlimits. No record is an error,
 * never a fallback to a weaker profile. */
static int exec_policy(struct container *c, struct oci_config *cfg, struct policy_run *pr,
                       struct werror *err)
{
	struct policy_input in = {0};
	_cleanup_free_ char *rec = NULL;

	if (store_read_alloc(c, POLICY_RECORD_FILE, &rec, &in.record_len, err) < 0)
		return werr_ctx(err,
		                "container \"%s\": no policy record (made by an older ward? "
		                "delete and create it again)",
		                c->id);
	in.record = rec;
	if (policy_prepare(&in, cfg, pr, err) < 0)
		return werr_ctx(err, "container \"%s\"", c->id);
	return 0;
}

/* The process exec runs, as the request builds it, and what it owns. */
struct exec_proc {
	struct oci_process *from_file; /* --process FILE, parsed */
	struct oci_process proc;
	struct oci_user user;
	struct oci_caps caps;
	char **env;
	uint32_t *gids;
};

static void exec_proc_free(struct exec_proc *p)
{
	free(p->env);
	free(p->gids);
	oci_process_free(p->from_file);
}

/* The process file (with no core dumps outside compat), or the
 * container's process with the command line's. */
static int exec_base(const struct exec_request *ec, const struct oci_config *cfg,
                     const struct policy_run *pr, struct exec_proc *p, struct werror *err)
{
	_cleanup_free_ char *json = NULL;
	size_t len;

	if (ec->process == NULL) {
		if (ec->n_args < 1)
			return werr_k(err, WERR_INVALID, 0,
			              "exec: no command given (and no --process file)");
		p->proc = *cfg->process;
		p->proc.args = ec->args;
		p->proc.n_args = ec->n_args;
		p->proc.terminal = ec->tty;
		return 0;
	}
	if (ec->n_args > 0)
		return werr_k(
		    err, WERR_INVALID, 0,
		    "exec: give the command in --process or on the command line, not both");
	if (read_input(ec->process, OCI_MAX_CONFIG_SIZE, &json, &len, err) < 0)
		return -1;
	p->from_file = oci_process_parse(json, len, ec->process, err);
	if (p->from_file == NULL)
		return -1;
	if (pr->x.profile != PROFILE_COMPAT &&
	    cfg_rlimit_set(p->from_file, "RLIMIT_CORE", RLIMIT_CORE, 0, 0, err) < 0)
		return -1;
	p->proc = *p->from_file;
	return 0;
}

/* --env (judged by the policy), --cwd, --user and --additional-gids. */
static int exec_identity(const struct exec_request *ec, struct policy_run *pr, struct exec_proc *p,
                         struct werror *err)
{
	if (policy_exec_env(&pr->x, p->from_file, ec->env.v, ec->env.n, err) < 0)
		return -1;
	p->env = merged_env(&p->proc, &ec->env, &p->proc.n_env);
	p->user = *p->proc.user;
	if (p->env == NULL ||
	    (ec->gids.n && (p->gids = calloc(ec->gids.n, sizeof(*p->gids))) == NULL))
		return werr(err, ENOMEM, "out of memory");
	p->proc.env = p->env;
	if (ec->cwd && ec->cwd[0] != '/')
		return werr_k(err, WERR_INVALID, 0, "exec: --cwd %s: must be an absolute path",
		              ec->cwd);
	if (ec->cwd)
		p->proc.cwd = (char *)ec->cwd;
	if (ec->user) {
		char *colon = strchr(ec->user, ':');

		if (colon)
			*colon = '\0';
		if (parse_u32(ec->user, "user", &p->user.uid, err) < 0 ||
		    (colon && parse_u32(colon + 1, "group", &p->user.gid, err) < 0))
			return -1;
	}
	for (size_t i = 0; i < ec->gids.n; i++)
		if (parse_u32(ec->gids.v[i], "additional gid", &p->gids[i], err) < 0)
			return -1;
	if (ec->gids.n) {
		p->user.additional_gids = p->gids;
		p->user.n_additional_gids = ec->gids.n;
	}
	p->proc.user = &p->user;
	return 0;
}

/* --cap adds to bounding, effective and permitted; inheritable and ambient
 * only when a process file asks (CVE-2022-29162). Then the policy judges
 * the process with its own capabilities, before they are capped (a
 * capability the policy caps away is not kept: policy_caps.c). */
static int exec_privileges(const struct exec_request *ec, struct policy_run *pr,
                           struct exec_proc *p, struct werror *err)
{
	if (p->proc.capabilities)
		p->caps = *p->proc.capabilities;
	for (size_t i = 0; i < ec->caps.n; i++) {
		int cap = oci_cap_from_name(ec->caps.v[i]);

		if (cap < 0)
			return werr_k(err, WERR_INVALID, 0,
			              "exec: --cap: unknown capability \"%s\"", ec->caps.v[i]);
		p->caps.bounding |= 1ULL << cap;
		p->caps.effective |= 1ULL << cap;
		p->caps.permitted |= 1ULL << cap;
	}
	if (p->proc.capabilities || ec->caps.n)
		p->proc.capabilities = &p->caps;
	if (policy_exec_process_attrs(&pr->x, &p->proc, err) < 0 ||
	    policy_exec_caps(&pr->x, &p->caps, &p->proc.no_new_privileges, err) < 0)
		return -1;
	if (ec->no_new_privs)
		p->proc.no_new_privileges = true;
	return 0;
}

int ops_exec(struct globals *g, const struct exec_request *ec, struct werror *err)
{
	_cleanup_store_ struct container c = {.dirfd = -1};
	_cleanup_oci_config_ struct oci_config *cfg = NULL;
	_cleanup_policy_run_ struct policy_run pr = POLICY_RUN_INIT;
	__attribute__((cleanup(exec_proc_free))) struct exec_proc p = {0};

	if (ec->apparmor || ec->label)
		return werr_k(err, WERR_UNSUPPORTED, 0,
		              "exec: AppArmor and SELinux labels are not supported by ward yet");
	/* Only fds the caller passed reach the process (lib/callerfds.h). */
	if (callerfds_check(ec->preserve_fds, err) < 0 || ops_root(g, err) < 0 ||
	    store_open(g->rootfd, ec->id, false, &c, err) < 0)
		return -1;
	if (c.st == NULL)
		return werr_k(err, WERR_NOT_RUNNING, 0, "container \"%s\" is still being created",
		              c.id);
	cfg = store_load_config(&c, err);
	trace_mark("exec: state and record read");
	if (cfg == NULL || exec_policy(&c, cfg, &pr, err) < 0)
		return -1;
	g->fail_status = pr.x.profile == PROFILE_COMPAT ? 255 : 0;
	g->profile_seen = (int)pr.x.profile + 1;
	if (exec_base(ec, cfg, &pr, &p, err) < 0 || exec_identity(ec, &pr, &p, err) < 0 ||
	    exec_privileges(ec, &pr, &p, err) < 0)
		return -1;
	struct exec_opts o = {.proc = &p.proc,
	                      .detach = ec->detach,
	                      .pid_file = ec->pid_file,
	                      .preserve_fds = ec->preserve_fds,
	                      .console_socket = ec->console_socket,
	                      .relay_terminal = true,
	                      .ignore_paused = ec->ignore_paused,
	                      .sub_cgroups = ec->cgroups.v,
	                      .n_sub_cgroups = ec->cgroups.n};
	trace_mark("exec: policy applied");
	return container_exec(&c, cfg, &o, err);
}
