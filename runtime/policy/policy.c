/* Profiles, opt-outs, findings and the audit log (see policy.h). */
#include "policy/policy.h"
#include "lib/error.h"
#include "lib/log.h"
#include "oci/names.h"
#include "policy/fields.h"
#include "policy/policy_caps.h"
#include "policy/rules.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yajl/yajl_gen.h>

const char *const policy_annotations[][2] = {
    {ANN_PROFILE, "compat|baseline|strict: may only tighten the runtime's profile"},
    {ANN_ALLOW "<name>", "true: turns on an opt-out the operator policy allows"},
    {ANN_TIMEOUT, "a duration (90s, 10m): the wall-clock limit; may only tighten"},
    {ANN_EGRESS, "destinations, comma-separated (ward-policy(7) EGRESS): may only narrow the "
                 "policy's egress list"},
    {NULL, NULL},
};

static bool listed(char *const *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i], name) == 0)
			return true;
	return false;
}

static int pick_profile(struct policy_ctx *x, const char *cli_profile, const char *argv0,
                        struct werror *err)
{
	const char *base = argv0 ? strrchr(argv0, '/') : NULL;
	const char *ann;
	int p;

	base = base ? base + 1 : argv0;
	x->profile = PROFILE_BASELINE;
	x->profile_from = "default";
	if (cli_profile) {
		if ((p = profile_from_name(cli_profile)) < 0)
			return werr_k(err, WERR_INVALID, 0,
			              "--profile %s: must be compat, baseline or strict",
			              cli_profile);
		x->profile = (enum ward_profile)p;
		x->profile_from = "--profile";
	} else if (base && strncmp(base, "ward-", 5) == 0 && profile_from_name(base + 5) >= 0) {
		x->profile = (enum ward_profile)profile_from_name(base + 5);
		x->profile_from = "binary name";
	} else if (x->pol && x->pol->profile) {
		x->profile = (enum ward_profile)profile_from_name(x->pol->profile);
		x->profile_from = "policy file";
	}
	/* The annotation is the container's own wish: it may only tighten. */
	ann = x->cfg ? oci_config_annotation(x->cfg, ANN_PROFILE) : NULL;
	if (ann) {
		p = profile_from_name(ann);
		if (p < 0)
			return werr_k(err, WERR_INVALID, 0,
			              "config.json: .annotations[\"" ANN_PROFILE
			              "\"]: \"%s\" is not "
			              "compat, baseline or strict",
			              ann);
		if (p > (int)x->profile) {
			x->profile = (enum ward_profile)p;
			x->profile_from = "annotation";
		} else if (p < (int)x->profile &&
		           policy_note(
		               x, ".annotations[\"" ANN_PROFILE "\"]",
		               "\"%s\" ignored: an annotation may only tighten the %s profile", ann,
		               profile_name(x->profile)) < 0) {
			return -1;
		}
	}
	return 0;
}

int policy_ctx_init(struct policy_ctx *x, const struct policy *pol, const char *cli_profile,
                    const char *argv0, struct oci_config *cfg, struct werror *err)
{
	memset(x, 0, sizeof(*x));
	x->pol = pol;
	x->cfg = cfg;
	if (pick_profile(x, cli_profile, argv0, err) < 0)
		return -1;
	for (size_t i = 0; pol && i < pol->n_allow_always; i++)
		if (policy_add_optout(x, pol->allow_always[i]) < 0)
			return -1;
	/* An annotation alone never loosens anything: only names the
	 * operator listed in "allow" count. */
	for (size_t i = 0; cfg && i < cfg->n_annotations; i++) {
		const struct jkv *a = &cfg->annotations[i];
		const char *name = a->key + strlen(ANN_ALLOW);
		char field[160];

		if (strncmp(a->key, ANN_ALLOW, strlen(ANN_ALLOW)) != 0)
			continue;
		snprintf(field, sizeof(field), ".annotations[\"%s\"]", a->key);
		if (strcmp(a->value, "true") != 0) {
			if (policy_note(x, field, "ignored: only \"true\" turns an opt-out on") < 0)
				return -1;
		} else if (pol && listed(pol->allow, pol->n_allow, name)) {
			if (policy_add_optout(x, name) < 0)
				return -1;
		} else if (policy_note(x, field,
		                       "ignored: the operator policy does not allow \"%s\"",
		                       name) < 0) {
			return -1;
		}
	}
	return 0;
}

void policy_ctx_free(struct policy_ctx *x)
{
	for (size_t i = 0; i < x->n_optouts; i++)
		free(x->optouts[i]);
	free(x->optouts);
	for (size_t i = 0; i < x->n_f; i++)
		finding_free(&x->f[i]);
	free(x->f);
	egress_plan_free(&x->egress);
	memset(x, 0, sizeof(*x));
}

int policy_apply(struct policy_ctx *x, struct werror *err)
{
	x->privileged_shape = policy_privileged_shape(x->cfg);
	/* The field table (fields.c): unknown fields logged, or refused by
	 * strict in process, linux, mounts and root. */
	if (x->facts && policy_fields_unknown(x) < 0)
		return -1;
	if (policy_egress(x, err) < 0)
		return -1;
	if (x->profile == PROFILE_COMPAT)
		return policy_supervision(x);
	/* Refusals need the host facts (create, check); exec has none. */
	if (x->facts &&
	    (policy_refuse_root(x) < 0 || policy_refuse_namespaces(x) < 0 ||
	     policy_refuse_hooks(x, err) < 0 || policy_refuse_devices(x) < 0 ||
	     policy_refuse_mounts(x, err) < 0 ||
	     policy_caps_refuse(x, x->cfg->process ? x->cfg->process->capabilities : NULL,
	                        ".process.capabilities") < 0 ||
	     (x->cfg->process && policy_refuse_process_attrs(x) < 0) ||
	     (x->profile == PROFILE_STRICT &&
	      (policy_refuse_userns(x) < 0 || policy_refuse_secret_env(x, err) < 0))))
		return -1;
	/* The field table's own rule (fields.c), after the rules it cites:
	 * strict refuses what the table refuses and no rule judged. */
	if (x->facts && policy_fields_refuse(x) < 0)
		return -1;
	if (policy_adjustments(x, err) < 0 || (x->facts && policy_refuse_unified(x) < 0))
		return -1;
	/* At exec too: its adjustments are create's (the limit itself is the
	 * supervisor's, which exec'd processes share). */
	return policy_supervision(x);
}

int policy_exec_caps(struct policy_ctx *x, struct oci_caps *caps, bool *no_new_privs,
                     struct werror *err)
{
	/* Only this call's refusals count: the findings from here on. */
	size_t first = x->n_f, refused = x->n_refused;

	if (x->profile == PROFILE_COMPAT)
		return 0;
	if (policy_caps_refuse(x, caps, "exec process.capabilities") < 0)
		return -1;
	if (policy_refusal_since(x, first, refused, err) < 0)
		return -1;
	*no_new_privs = true;
	return policy_caps_cap(x, caps, "exec process.capabilities");
}

int policy_exec_process_attrs(struct policy_ctx *x, const struct oci_process *p, struct werror *err)
{
	size_t first = x->n_f, refused = x->n_refused;
	struct host_limits h = {0};

	if (x->profile == PROFILE_COMPAT)
		return 0;
	host_limits_gather(&h);
	if (policy_caps_process_attrs(x, p, p->capabilities, &h, "exec process") < 0)
		return -1;
	return policy_refusal_since(x, first, refused, err);
}

/* strict: an exec'd process's environment is checked as create checks
 * config.json's (the same patterns, the opt-outs create recorded): the
 * --process file's env and the --env values (the container's own env was
 * checked at create). A refusal names the field, the reason and the
 * opt-out, and nothing runs. */
int policy_exec_env(struct policy_ctx *x, const struct oci_process *from_file, char *const *add,
                    size_t n_add, struct werror *err)
{
	size_t first = x->n_f, refused = x->n_refused;

	if (x->profile != PROFILE_STRICT)
		return 0;
	if ((from_file && policy_refuse_secret_env_list(x, from_file->env, from_file->n_env,
	                                                "exec process.env", err) < 0) ||
	    policy_refuse_secret_env_list(x, add, n_add, "exec --env", err) < 0)
		return -1;
	return policy_refusal_since(x, first, refused, err);
}

int policy_audit_write(const struct policy_ctx *x, int fd, struct werror *err)
{
	int r = 0;

	for (size_t i = 0; r == 0 && i < x->n_f; i++) {
		const struct finding *f = &x->f[i];
		yajl_gen g;
		const unsigned char *buf;
		size_t len;
		char ts[64];

		if (f->kind == FIND_REFUSE)
			continue;
		g = yajl_gen_alloc(NULL);
		if (g == NULL)
			return werr(err, ENOMEM, "out of memory");
		log_timestamp(ts, sizeof(ts));
#define KV(k, v)                                                                                   \
	(yajl_gen_string(g, (const unsigned char *)(k), strlen(k)),                                \
	 yajl_gen_string(g, (const unsigned char *)(v), strlen(v)))
		yajl_gen_map_open(g);
		KV("time", ts);
		KV("profile", profile_name(x->profile));
		KV("field", f->field);
		if (f->kind == FIND_ADJUST) {
			KV("old", f->old);
			KV("new", f->now);
			KV("rule", f->rule);
		} else {
			KV("note", f->why);
		}
		yajl_gen_map_close(g);
#undef KV
		yajl_gen_get_buf(g, &buf, &len);
		if (write(fd, buf, len) != (ssize_t)len || write(fd, "\n", 1) != 1)
			r = werr(err, errno, "writing the audit log");
		yajl_gen_free(g);
	}
	return r;
}
