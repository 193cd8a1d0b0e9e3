/* create: from the request to a created container, through rootless
 * set-up, the policy, hook pinning, the supervisor plan and the cgroup
 * decision (container_create builds it). */
#include "container/ops/op_create.h"
#include "lib/strfmt.h"
#include "container/ops/op_create_plan.h"
#include "container/ops/report_file.h"
#include "lib/callerfds.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "lib/trace.h"
#include "net/gate_conf.h"
#include "linux/console.h"
#include "rootless/rootless.h"
#include "supervisor/supervisor.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

/* systemd socket activation (sd_listen_fds): when ward itself was started
 * with LISTEN_FDS=N, fds 3..3+N-1 go to the container too, before the
 * --preserve-fds ones, and its process is told so (it is pid 1 there).
 * As with --preserve-fds, only those of them that were open when ward
 * started (lib/callerfds.h). */
static int add_listen_fds(struct oci_config *cfg, int *preserve, struct werror *err)
{
	const char *lf = getenv("LISTEN_FDS");
	struct oci_process *p = cfg->process;
	char **env;
	char *end;
	long n;

	if (lf == NULL || lf[0] == '\0')
		return 0;
	n = strtol(lf, &end, 10);
	if (*end || n < 0 || n > 1024)
		return werr(err, 0, "LISTEN_FDS=\"%s\" is not a number of fds", lf);
	if (n == 0)
		return 0;
	env = realloc(p->env, (p->n_env + 3) * sizeof(*env));
	if (env == NULL)
		return werr(err, ENOMEM, "out of memory");
	p->env = env;
	env[p->n_env] = NULL;
	if (asprintf(&env[p->n_env], "LISTEN_FDS=%ld", n) < 0)
		return werr(err, ENOMEM, "out of memory");
	env[p->n_env + 1] = strdup("LISTEN_PID=1");
	env[p->n_env + 2] = NULL;
	if (env[p->n_env + 1] == NULL) {
		free(env[p->n_env]);
		env[p->n_env] = NULL;
		return werr(err, ENOMEM, "out of memory");
	}
	p->n_env += 2;
	*preserve += (int)n;
	return 0;
}

/* The bundle's config.json, parsed, and the checks of the request against
 * it (the terminal, the fds handed on). */
static int request_config(const struct create_request *cc, const char *bundle, bool relay_ok,
                          struct oci_config **cfg, char **json, size_t *len, int *preserve,
                          struct werror *err)
{
	char path[PATH_MAX + 16];

	if (fmt_fit(path, sizeof(path), "%s/config.json", bundle) < 0 ||
	    oci_read_file(path, json, len, err) < 0) {
		/* The bundle the caller names has no config: its error. */
		werr_as(err, WERR_INVALID);
		return werr_ctx(err, "bundle %s", bundle);
	}
	trace_mark("create: reading config.json");
	*cfg = oci_config_parse(*json, *len, "config.json", err);
	trace_mark("create: config parsed");
	if (*cfg == NULL)
		return werr_ctx(err, "bundle %s", bundle);
	if ((*cfg)->process->terminal && !cc->console_socket && !relay_ok)
		return werr_k(err, WERR_INVALID, 0,
		              "config.json: .process.terminal needs --console-socket when the "
		              "container is detached (only a foreground run relays the terminal)");
	if (!(*cfg)->process->terminal && cc->console_socket)
		return werr_k(err, WERR_INVALID, 0,
		              "--console-socket is for process.terminal, which config.json does "
		              "not set");
	if (add_listen_fds(*cfg, preserve, err) < 0 || callerfds_check(*preserve, err) < 0)
		return -1;
	return 0;
}

/* Not root: the user namespace the container needs, entered before
 * anything looks at host paths (the fds decided on must be of the mount
 * namespace ward then makes the mounts in). The policy file is judged by
 * its owners (root, or the caller), so it is read before: in the user
 * namespace the host's root is the overflow uid and the caller is 0. */
static int request_rootless(struct policy_input *pin, struct oci_config *cfg, const char *bundle,
                            const char *owner, struct werror *err)
{
	pin->pol = policy_load_text(pin->policy_path, &pin->pol_text, &pin->pol_len, err);
	if (pin->pol && rootless_config(cfg, bundle, owner, err) == 0 &&
	    rootless_enter(cfg, err) == 0)
		return 0;
	policy_free(pin->pol);
	free(pin->pol_text);
	pin->pol = NULL;
	pin->pol_text = NULL;
	return -1;
}

/* The hardening policy: refuse (a report written when asked), or fill the
 * gaps (recorded); what create is then told to make. */
static int request_policy(struct globals *g, const struct create_request *cc,
                          const struct policy_input *pin, struct oci_config *cfg,
                          struct policy_run *pr, struct create_opts *o, struct werror *err)
{
	int r;

	trace_mark("create: checks done, gathering host facts and applying the policy");
	r = policy_prepare(pin, cfg, pr, err);

	if (pr->x.profile_from)
		g->profile_seen = (int)pr->x.profile + 1;
	if (r < 0)
		return -1;
	if (pr->x.n_refused) {
		r = policy_refusal_error(&pr->x, err);
		if (cc->report) {
			report_file_error(cc, o->bundle, &pr->x, err);
			g->refusal_reported = true;
		}
		return r;
	}
	if (cc->timeout_ms && pr->x.profile == PROFILE_COMPAT)
		return werr_k(err, WERR_INVALID, 0,
		              "--timeout: a wall-clock limit needs the run supervisor, which the "
		              "compat profile never runs");
	return policy_record_gen(pr, &o->policy_record, &o->policy_record_len, err);
}

/* What the policy decided, as create's plan: the hooks pinned, the cgroup
 * (rootless: whether there is one), the supervisor and its DNS gate. */
struct request_plan {
	struct hook_pins pins;
	struct sup_plan sp;
	struct gate_conf gc;
};

static void request_plan_free(struct request_plan *p)
{
	hook_pins_close(&p->pins);
	egress_plan_free(&p->gc.plan);
}

static int request_plan(struct globals *g, const struct create_request *cc, struct oci_config *cfg,
                        struct policy_run *pr, struct request_plan *p, struct create_opts *o,
                        struct werror *err)
{
	bool gate_on = false;

	if (pr->x.profile != PROFILE_COMPAT) {
		o->hook_pins = &p->pins;
		if (create_pin_hooks(&pr->facts, &p->pins, err) < 0)
			return -1;
	}
	o->systemd_cgroup = g->systemd_cgroup || policy_systemd_cgroup(pr->pol);
	o->userns_entered = rootless_caller();
	if (rootless_cgroups()) {
		bool use;

		if (rootless_cgroup_decide(cfg, cc->id, o->systemd_cgroup,
		                           pr->x.profile == PROFILE_STRICT &&
		                               !policy_rootless_limits_warn(pr->pol),
		                           &use, err) < 0)
			return -1;
		o->no_cgroup = !use;
	}
	if (!pr->x.supervise)
		return 0;
	if (create_sup_plan(g, pr, cfg, o->bundle, &p->sp, err) < 0)
		return -1;
	o->sup = &p->sp;
	if (create_gate_plan(pr, cc->id, &p->gc, &gate_on, err) < 0)
		return -1;
	if (gate_on)
		o->gate = &p->gc;
	return 0;
}

/* The container made, and a foreground run's terminal relayed (*master):
 * a master that cannot be had undoes the container. relay: the caller's
 * pair, create takes its [1] over. */
static int request_create(struct globals *g, const struct create_request *cc,
                          struct oci_config *cfg, struct policy_run *pr, struct create_opts *o,
                          int relay[2], struct container *c, int *pidfd, int *master,
                          struct werror *err)
{
	_cleanup_close_ int relay_master = -1;
	int r;

	if (cfg->process->terminal && !cc->console_socket) {
		if (console_pair(relay, err) < 0)
			return -1;
		relay_master = relay[0];
		o->console_fd = &relay[1]; /* create takes it over */
	}
	o->policy = &pr->x;
	o->facts = &pr->facts;
	o->lease = pr->has_lease ? &pr->lease : NULL;
	trace_mark("create: policy applied");
	r = container_create(g->rootfd, o, cfg, c, pidfd, err);
	/* Made: the lease is the container's until delete. */
	pr->lease.keep = r == 0;
	if (r < 0 || relay_master < 0)
		return r;
	if ((*master = console_take_master(TAKE_FD(relay_master), err)) < 0) {
		_cleanup_werror_ struct werror undo_err = WERROR_INIT;

		container_destroy(c, true, &undo_err);
		store_close(c);
		if (pidfd)
			close(*pidfd);
		return -1;
	}
	return 0;
}

int create_from_request(struct globals *g, const struct create_request *cc, struct container *c,
                        int *pidfd, int *master, struct werror *err)
{
	_cleanup_oci_config_ struct oci_config *cfg = NULL;
	_cleanup_free_ char *json = NULL;
	__attribute__((cleanup(request_plan_free))) struct request_plan plan = {0};
	char bundle[PATH_MAX], owner[64];
	struct policy_input pin = {.policy_path = g->policy,
	                           .cli_profile = g->profile,
	                           .argv0 = g->argv0,
	                           .state_root = g->root,
	                           .cli_timeout_ms = cc->timeout_ms,
	                           .rootless = rootless_caller(),
	                           .userns_foreign = rootless_cgroups(),
	                           .lease_id = cc->id,
	                           .bundle = bundle};
	struct create_opts o = {.id = cc->id,
	                        .bundle = bundle,
	                        .owner = owner,
	                        .pid_file = cc->pid_file,
	                        .console_socket = cc->console_socket,
	                        .no_pivot = cc->no_pivot,
	                        .preserve_fds = cc->preserve_fds};
	struct policy_run pr;
	int relay[2] = {-1, -1};
	size_t len;
	int r;

	if (master)
		*master = -1;
	if (realpath(cc->bundle, bundle) == NULL)
		return werr_k(err, WERR_INVALID, errno, "bundle %s", cc->bundle);
	if (ops_root(g, err) < 0)
		return -1;
	/* Who asks, before a user namespace makes it root. */
	rootless_owner(owner, sizeof(owner));
	if (request_config(cc, bundle, master != NULL, &cfg, &json, &len, &o.preserve_fds, err) <
	        0 ||
	    (rootless_caller() && request_rootless(&pin, cfg, bundle, owner, err) < 0))
		return -1;
	o.config_json = json;
	o.config_len = len;
	/* From here the policy run owns what pin holds. */
	r = request_policy(g, cc, &pin, cfg, &pr, &o, err);
	if (r == 0)
		r = request_plan(g, cc, cfg, &pr, &plan, &o, err);
	if (r == 0)
		r = request_create(g, cc, cfg, &pr, &o, relay, c, pidfd, master, err);
	free(o.policy_record);
	policy_run_free(&pr);
	return r;
}

int ops_create(struct globals *g, const struct create_request *r, struct werror *err)
{
	struct container c;

	if (create_from_request(g, r, &c, NULL, NULL, err) < 0)
		return -1;
	store_close(&c);
	return 0;
}
