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
		return werr(err, 0, "exec: %s \"%s\" is not a numeric id", what, s);
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

int ops_exec(struct globals *g, const struct exec_request *ec, struct werror *err)
{
	struct oci_process *from_file = NULL, proc;
	struct oci_user user;
	struct oci_caps caps = {0};
	struct oci_config *cfg = NULL;
	struct policy_run pr = {0};
	struct container c = {.dirfd = -1};
	char **env = NULL;
	uint32_t *gids = NULL;
	int r = -1;

	if (ec->apparmor || ec->label) {
		werr_k(err, WERR_UNSUPPORTED, 0,
		       "exec: AppArmor and SELinux labels are not supported by ward yet");
		goto out;
	}
	/* Only fds the caller passed reach the process (lib/callerfds.h). */
	if (callerfds_check(ec->preserve_fds, err) < 0)
		goto out;
	if (ops_root(g, err) < 0 || store_open(g->rootfd, ec->id, false, &c, err) < 0)
		goto out;
	if (c.st == NULL) {
		werr_k(err, WERR_NOT_RUNNING, 0, "container \"%s\" is still being created", c.id);
		goto out;
	}
	cfg = store_load_config(&c, err);
	trace_mark("exec: state and record read");
	if (cfg == NULL || exec_policy(&c, cfg, &pr, err) < 0)
		goto out;
	g->fail_status = pr.x.profile == PROFILE_COMPAT ? 255 : 0;
	g->profile_seen = (int)pr.x.profile + 1;
	if (ec->process) {
		char *json;
		size_t len;

		if (ec->n_args > 0) {
			werr(
			    err, 0,
			    "exec: give the command in --process or on the command line, not both");
			goto out;
		}
		if (read_input(ec->process, OCI_MAX_CONFIG_SIZE, &json, &len, err) < 0)
			goto out;
		from_file = oci_process_parse(json, len, ec->process, err);
		free(json);
		if (from_file == NULL)
			goto out;
		if (pr.x.profile != PROFILE_COMPAT &&
		    cfg_rlimit_set(from_file, "RLIMIT_CORE", RLIMIT_CORE, 0, 0, err) < 0)
			goto out;
		proc = *from_file;
	} else {
		if (ec->n_args < 1) {
			werr(err, 0, "exec: no command given (and no --process file)");
			goto out;
		}
		/* The container's process, with the command line's changes. */
		proc = *cfg->process;
		proc.args = ec->args;
		proc.n_args = ec->n_args;
		proc.terminal = ec->tty;
	}
	if (policy_exec_env(&pr.x, from_file, ec->env.v, ec->env.n, err) < 0)
		goto out;
	env = merged_env(&proc, &ec->env, &proc.n_env);
	user = *proc.user;
	if (env == NULL || (ec->gids.n && (gids = calloc(ec->gids.n, sizeof(*gids))) == NULL)) {
		werr(err, ENOMEM, "out of memory");
		goto out;
	}
	proc.env = env;
	if (ec->cwd)
		proc.cwd = (char *)ec->cwd;
	if (ec->cwd && ec->cwd[0] != '/') {
		werr(err, 0, "exec: --cwd %s: must be an absolute path", ec->cwd);
		goto out;
	}
	if (ec->user) {
		char *colon = strchr(ec->user, ':');

		if (colon)
			*colon = '\0';
		if (parse_u32(ec->user, "user", &user.uid, err) < 0 ||
		    (colon && parse_u32(colon + 1, "group", &user.gid, err) < 0))
			goto out;
	}
	for (size_t i = 0; i < ec->gids.n; i++)
		if (parse_u32(ec->gids.v[i], "additional gid", &gids[i], err) < 0)
			goto out;
	if (ec->gids.n) {
		user.additional_gids = gids;
		user.n_additional_gids = ec->gids.n;
	}
	proc.user = &user;
	if (proc.capabilities)
		caps = *proc.capabilities;
	/* --cap adds to bounding, effective and permitted; inheritable and
	 * ambient only when a process file asks (CVE-2022-29162). */
	for (size_t i = 0; i < ec->caps.n; i++) {
		int cap = oci_cap_from_name(ec->caps.v[i]);

		if (cap < 0) {
			werr_k(err, WERR_INVALID, 0, "exec: --cap: unknown capability \"%s\"",
			       ec->caps.v[i]);
			goto out;
		}
		caps.bounding |= 1ULL << cap;
		caps.effective |= 1ULL << cap;
		caps.permitted |= 1ULL << cap;
	}
	if (proc.capabilities || ec->caps.n)
		proc.capabilities = &caps;
	/* Judged with the process's own capabilities, before they are capped
	 * (a capability the policy caps away is not kept: policy_caps.c). */
	if (policy_exec_process_attrs(&pr.x, &proc, err) < 0 ||
	    policy_exec_caps(&pr.x, &caps, &proc.no_new_privileges, err) < 0)
		goto out;
	if (ec->no_new_privs)
		proc.no_new_privileges = true;
	{
		struct exec_opts o = {.proc = &proc,
		                      .detach = ec->detach,
		                      .pid_file = ec->pid_file,
		                      .preserve_fds = ec->preserve_fds,
		                      .console_socket = ec->console_socket,
		                      .relay_terminal = true,
		                      .ignore_paused = ec->ignore_paused,
		                      .sub_cgroups = ec->cgroups.v,
		                      .n_sub_cgroups = ec->cgroups.n};

		trace_mark("exec: policy applied");
		r = container_exec(&c, cfg, &o, err);
	}
out:
	free(env);
	free(gids);
	oci_process_free(from_file);
	policy_run_free(&pr);
	oci_config_free(cfg);
	store_close(&c);
	return r;
}
