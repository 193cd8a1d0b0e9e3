/* check [--profile P] [--format text|json] BUNDLE
 *
 * The policy's analysis without creating anything: what the container
 * would reach (mounts and host paths, devices, capabilities, namespaces,
 * network, environment names, limits, seccomp) and what ward would change
 * or refuse. Exit 0: allowed, 1: refused, 2: bad input. */
#include "container/query/q_check_reach.h"
#include "container/query/query.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "linux/sysctl.h"
#include "policy/fields.h"
#include "rootless/rootless.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *kind_name(enum finding_kind k)
{
	return k == FIND_ADJUST ? "adjust" : k == FIND_REFUSE ? "refuse" : "note";
}

void query_findings(struct rout *o, const struct policy_ctx *x, enum finding_kind k,
                    const char *title)
{
	rout_list(o, title);
	for (size_t i = 0; i < x->n_f; i++) {
		const struct finding *f = &x->f[i];

		if (f->kind != k)
			continue;
		rout_obj(o, NULL);
		rout_str(o, "field", f->field);
		if (k == FIND_ADJUST) {
			rout_str(o, "old", f->old);
			rout_str(o, "new", f->now);
			rout_str(o, "rule", f->rule);
		} else {
			rout_str(o, "reason", f->why);
		}
		if (k == FIND_REFUSE) {
			_cleanup_free_ char *how = policy_optout_howto(x, f);

			rout_str(o, "optOut", f->optout[0] ? f->optout : "(none)");
			if (how)
				rout_str(o, "optOutHow", how);
		}
		rout_obj_end(o);
	}
	rout_list_end(o);
	(void)kind_name;
}

/* --- the field table (policy/fields.c): each field the config sets, with
 * its class under the profile, and the fields ward does not know. */
struct field_out {
	struct rout *o;
	enum ward_profile p;
};

static void field_one(const char *path, const struct field_rule *r, void *arg)
{
	struct field_out *fo = arg;
	char field[192];
	enum field_class c = r ? (enum field_class)r->cls[fo->p] : FC_REFUSE;

	snprintf(field, sizeof(field), ".%s", path);
	rout_obj(fo->o, NULL);
	rout_str(fo->o, "field", field);
	rout_str(fo->o, "class",
	         r == NULL && fo->p != PROFILE_STRICT ? "accept" : field_class_name(c));
	if (r == NULL || (r->why && c != FC_ACCEPT) || (r->why && r->rule))
		rout_str(fo->o, "reason", r ? r->why : "not in ward's field table");
	if (r && r->optout && c != FC_ACCEPT)
		rout_str(fo->o, "optOut", r->optout);
	if (r && r->rule)
		rout_str(fo->o, "rule", r->rule);
	rout_obj_end(fo->o);
}

static void fields(struct rout *o, const struct oci_config *c, enum ward_profile p)
{
	struct field_out fo = {o, p};

	rout_list(o, "fields");
	policy_fields_present(c, field_one, &fo);
	rout_list_end(o);
	rout_list(o, "unknownFields");
	for (size_t i = 0; i < c->seen.n_unknown; i++) {
		char line[JPATH_MAX + 64];

		snprintf(line, sizeof(line), "unknown field %s (%s)", c->seen.unknown[i],
		         policy_unknown_refused(p, c->seen.unknown[i]) ? "refused" : "ignored");
		rout_item(o, line);
	}
	rout_list_end(o);
}

int query_check(struct globals *g, const char *bundle_arg, const char *profile, bool json,
                struct werror *err)
{
	struct policy_run pr = POLICY_RUN_INIT;
	struct policy_ctx *x = &pr.x;
	struct policy_input pin = {.policy_path = g->policy,
	                           .cli_profile = NULL,
	                           .argv0 = g->argv0,
	                           .rootless = rootless_caller(),
	                           .userns_foreign = rootless_cgroups(),
	                           .state_root = g->root};
	struct oci_config *cfg = NULL;
	char bundle[PATH_MAX], owner[64];
	struct rout o;
	int rc = -1;

	if (realpath(bundle_arg, bundle) == NULL) {
		werr(err, errno, "bundle %s", bundle_arg);
		goto out;
	}
	pin.cli_profile = profile;
	pin.bundle = bundle;
	/* Run by a user, the container is what create would make of it: the
	 * user namespace rootless_config adds (the caller as root), not the
	 * host's. */
	rootless_owner(owner, sizeof(owner));
	if ((cfg = oci_config_load(bundle, err)) == NULL ||
	    (rootless_caller() && rootless_config(cfg, bundle, owner, err) < 0) ||
	    policy_prepare(&pin, cfg, &pr, err) < 0)
		goto out;
	/* Refused in every profile (ward cannot apply it safely). */
	if (sysctl_check(cfg, err) < 0 &&
	    policy_refuse(x, ".linux->sysctl", NULL, "%s", werr_msg(err)) < 0)
		goto out;
	if (rout_init(&o, json, stdout, err) < 0)
		goto out;
	rout_str(&o, "bundle", bundle);
	rout_str(&o, "profile", profile_name(x->profile));
	rout_str(&o, "profileFrom", x->profile_from);
	rout_str(&o, "verdict", x->n_refused ? "refused" : "allowed");
	query_findings(&o, x, FIND_REFUSE, "refusals");
	query_findings(&o, x, FIND_ADJUST, "adjustments");
	query_findings(&o, x, FIND_NOTE, "notes");
	rout_list(&o, "optOuts");
	for (size_t i = 0; i < x->n_optouts; i++)
		rout_item(&o, x->optouts[i]);
	rout_list_end(&o);
	check_reach(&o, cfg, x, err);
	fields(&o, cfg, x->profile);
	rout_finish(&o);
	if (json)
		putchar('\n');
	rc = x->n_refused ? 1 : 0;
out:
	policy_run_free(&pr);
	oci_config_free(cfg);
	return rc;
}
