/* ward check [--profile P] [--format text|json] BUNDLE
 *
 * The policy's analysis without creating anything: what the container
 * would reach (mounts and host paths, devices, capabilities, namespaces,
 * network, environment names, limits, seccomp) and what ward would change
 * or refuse. Exit 0: allowed, 1: refused, 2: bad input. */
#include "cgroup/dev_rules.h"
#include "cli/commands.h"
#include "lib/error.h"
#include "lib/log.h"
#include "rootfs/mount_opts.h"
#include "oci/names.h"
#include "policy/fields.h"
#include "policy/prepare.h"
#include "rootless/rootless.h"
#include "container/report_out.h"
#include "hooks/hooks.h"
#include "linux/sysctl.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXIT_REFUSED  1
#define EXIT_BADINPUT 2

static const char *kind_name(enum finding_kind k)
{
	return k == FIND_ADJUST ? "adjust" : k == FIND_REFUSE ? "refuse" : "note";
}

static void findings(struct rout *o, const struct policy_ctx *x, enum finding_kind k,
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
		if (k == FIND_REFUSE)
			rout_str(o, "optOut", f->optout[0] ? f->optout : "(none)");
		rout_obj_end(o);
	}
	rout_list_end(o);
	(void)kind_name;
}

static bool adjusted(const struct policy_ctx *x, const char *field)
{
	for (size_t i = 0; i < x->n_f; i++)
		if (x->f[i].kind == FIND_ADJUST && strcmp(x->f[i].field, field) == 0)
			return true;
	return false;
}

static void limit(struct rout *o, const struct policy_ctx *x, const char *name, const char *field,
                  bool set, int64_t v)
{
	rout_obj(o, name);
	rout_str(o, "state", !set || v <= 0 ? "missing" : adjusted(x, field) ? "defaulted" : "set");
	if (set && v > 0)
		rout_int(o, "value", v);
	rout_obj_end(o);
}

static void reach_mounts(struct rout *o, const struct oci_config *c, const struct policy_ctx *x)
{
	rout_obj(o, "rootfs");
	rout_str(o, "path", c->root->path);
	rout_bool(o, "writable", !c->root->readonly);
	rout_obj_end(o);
	rout_list(o, "mounts");
	for (size_t i = 0; i < c->n_mounts; i++) {
		const struct oci_mount *m = &c->mounts[i];
		bool ro = false, bind = mount_is_bind(m);
		const struct host_path *src =
		    x->facts && i < x->facts->n_mounts ? &x->facts->mounts[i] : NULL;

		for (size_t k = 0; k < m->n_options; k++)
			ro = ro || strcmp(m->options[k], "ro") == 0 ||
			     strcmp(m->options[k], "rro") == 0;
		rout_obj(o, NULL);
		rout_str(o, "destination", m->destination);
		rout_str(o, "type", bind ? "bind" : m->type ? m->type : "(none)");
		if (bind && m->source)
			rout_str(o, "hostPath", src && src->resolved ? src->real : m->source);
		rout_bool(o, "writable", !ro);
		rout_obj_end(o);
	}
	rout_list_end(o);
}

static void reach_namespaces(struct rout *o, const struct oci_config *c)
{
	static const int all[] = {CLONE_NEWPID, CLONE_NEWNET,  CLONE_NEWIPC,   CLONE_NEWUTS,
	                          CLONE_NEWNS,  CLONE_NEWUSER, CLONE_NEWCGROUP};
	const struct oci_namespace *net = oci_config_namespace(c, CLONE_NEWNET);
	const struct oci_linux *l = c->linux;

	rout_obj(o, "namespaces");
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		const struct oci_namespace *n = oci_config_namespace(c, all[i]);
		char v[PATH_MAX + 16];

		if (n == NULL)
			snprintf(v, sizeof(v), "host (shared)");
		else if (n->path && n->path[0])
			snprintf(v, sizeof(v), "joined %s", n->path);
		else
			snprintf(v, sizeof(v), "new");
		rout_str(o, oci_ns_type(all[i]), v);
	}
	rout_obj_end(o);
	rout_str(o, "network",
	         net == NULL                 ? "the host's network"
	         : net->path && net->path[0] ? "another namespace's network (joined)"
	                                     : "none: a new namespace with only loopback");
	if (l && oci_config_namespace(c, CLONE_NEWUSER) && l->n_uid_mappings) {
		char m[96];

		snprintf(m, sizeof(m), "container 0 = host uid %u (%u ids)",
		         l->uid_mappings[0].host_id, l->uid_mappings[0].size);
		rout_str(o, "userMapping", m);
	}
}

static void reach_process(struct rout *o, const struct oci_config *c)
{
	const struct oci_process *p = c->process;
	static const char *const sets[] = {"bounding", "effective", "permitted", "inheritable",
	                                   "ambient"};

	rout_obj(o, "capabilities");
	for (int s = 0; s < 5; s++) {
		const struct oci_caps *cp = p->capabilities;
		uint64_t v = !cp      ? 0
		             : s == 0 ? cp->bounding
		             : s == 1 ? cp->effective
		             : s == 2 ? cp->permitted
		             : s == 3 ? cp->inheritable
		                      : cp->ambient;

		rout_list(o, sets[s]);
		for (int k = 0; k <= oci_cap_last(); k++)
			if (v & (1ULL << k))
				rout_item(o, oci_cap_name(k));
		rout_list_end(o);
	}
	rout_obj_end(o);
	rout_bool(o, "noNewPrivileges", p->no_new_privileges);
	rout_obj(o, "user");
	rout_int(o, "uid", p->user ? p->user->uid : 0);
	rout_int(o, "gid", p->user ? p->user->gid : 0);
	rout_obj_end(o);
	rout_list(o, "environmentNames");
	for (size_t i = 0; i < p->n_env; i++) {
		char name[256];

		snprintf(name, sizeof(name), "%.*s", (int)strcspn(p->env[i], "="), p->env[i]);
		rout_item(o, name);
	}
	rout_list_end(o);
}

/* One device rule as it is installed, and where it came from. */
static void device_rule(struct rout *o, const struct cg_dev_rule *d, const struct oci_linux *l,
                        bool ward_first)
{
	char maj[24] = "*", min[24] = "*", from[PATH_MAX + 64], line[PATH_MAX + 128];

	if (d->major >= 0)
		snprintf(maj, sizeof(maj), "%" PRId64, d->major);
	if (d->minor >= 0)
		snprintf(min, sizeof(min), "%" PRId64, d->minor);
	if (strcmp(d->field, "linux.devices") == 0)
		snprintf(from, sizeof(from), "linux.devices[%zu] %s", d->index,
		         l->devices[d->index].path);
	else if (strcmp(d->field, "linux.resources.devices") != 0)
		snprintf(from, sizeof(from), "ward's default");
	else if (ward_first && d->index == 0)
		snprintf(from, sizeof(from), "ward: devices-default-deny");
	else
		snprintf(from, sizeof(from), "linux.resources.devices[%zu]",
		         d->index - (ward_first ? 1 : 0));
	snprintf(line, sizeof(line), "%s %c %s:%s %s%s%s (%s)", d->allow ? "allow" : "deny",
	         d->type, maj, min, d->access & CG_DEV_READ ? "r" : "",
	         d->access & CG_DEV_WRITE ? "w" : "", d->access & CG_DEV_MKNOD ? "m" : "", from);
	rout_item(o, line);
}

/* The device cgroup in force: its default and the rules from the last
 * deny-all (or allow-all) on, in the order they are evaluated (later ones
 * win), as cgroup/dev_rules.c hands them to the v1 files and the eBPF
 * program. */
static void reach_devices(struct rout *o, const struct oci_config *c, const struct policy_ctx *x)
{
	const struct oci_linux *l = c->linux;
	const struct oci_resources *r = l ? l->resources : NULL;
	struct cg_dev_rule *rules = NULL;
	size_t n = 0, from = 0;
	int def = 0; /* 0: no rule for every device, 1: deny all, 2: allow all */

	rout_list(o, "devices");
	for (size_t i = 0; l && i < l->n_devices; i++) {
		char d[PATH_MAX + 48];

		snprintf(d, sizeof(d), "%s (%s %" PRId64 ":%" PRId64 ")", l->devices[i].path,
		         l->devices[i].type, l->devices[i].major, l->devices[i].minor);
		rout_item(o, d);
	}
	rout_list_end(o);
	/* As cgroup_apply: no rules, no device cgroup. */
	if (r && r->n_devices && cg_device_rules(r, l, &rules, &n) < 0)
		n = 0;
	for (size_t i = 0; i < n; i++)
		if (rules[i].type == 'a' && rules[i].major < 0 && rules[i].minor < 0 &&
		    (rules[i].access & 7u) == 7u) {
			def = rules[i].allow ? 2 : 1;
			from = i;
		}
	rout_str(o, "deviceCgroup",
	         n == 0     ? "none: every device node works"
	         : def == 1 ? "deny by default: only what deviceRules allow opens"
	         : def == 2 ? "allows every device"
	                    : "no rule denies every device: on cgroup v1 every device no rule "
	                      "denies opens");
	rout_list(o, "deviceRules");
	for (size_t i = from; i < n; i++)
		device_rule(o, &rules[i], l, adjusted(x, ".linux.resources.devices"));
	rout_list_end(o);
	free(rules);
}

/* The hooks ward would run as root in the host's namespaces, each with the
 * policy's verdict (compat: not judged). */
static void reach_hooks(struct rout *o, const struct oci_config *c, const struct policy_ctx *x)
{
	rout_list(o, "hooks");
	for (int p = 0; c->hooks && p < HOOK_POINTS; p++)
		for (size_t i = 0; i < c->hooks->point[p].n; i++) {
			char field[96];
			const char *verdict =
			    x->profile == PROFILE_COMPAT ? "runs (compat: not judged)" : "runs";

			snprintf(field, sizeof(field), ".hooks.%s[%zu].path",
			         hooks_point_name((enum oci_hook_point)p), i);
			for (size_t k = 0; k < x->n_f; k++)
				if (x->f[k].kind == FIND_REFUSE &&
				    strcmp(x->f[k].field, field) == 0)
					verdict = x->f[k].why;
			rout_obj(o, NULL);
			rout_str(o, "point", hooks_point_name((enum oci_hook_point)p));
			rout_str(o, "path", c->hooks->point[p].hooks[i].path);
			rout_str(o, "verdict", verdict);
			rout_obj_end(o);
		}
	rout_list_end(o);
}

static void reach_limits(struct rout *o, const struct oci_config *c, const struct policy_ctx *x)
{
	const struct oci_resources *r = c->linux ? c->linux->resources : NULL;
	const struct oci_seccomp *sc = c->linux ? c->linux->seccomp : NULL;

	rout_obj(o, "limits");
	limit(o, x, "memory", ".linux.resources.memory.limit",
	      r && r->memory && r->memory->has_limit, r && r->memory ? r->memory->limit : 0);
	limit(o, x, "cpuQuota", ".linux.resources.cpu.quota", r && r->cpu && r->cpu->has_quota,
	      r && r->cpu ? r->cpu->quota : 0);
	limit(o, x, "pids", ".linux.resources.pids.limit", r && r->pids,
	      r && r->pids ? r->pids->limit : 0);
	rout_obj_end(o);
	rout_str(o, "seccomp",
	         sc == NULL                      ? "none: every system call is allowed"
	         : adjusted(x, ".linux.seccomp") ? "ward's built-in profile (defaulted)"
	         : sc->default_action && strcmp(sc->default_action, "SCMP_ACT_ALLOW") == 0
	             ? "the config's (allows by default)"
	             : "the config's (denies by default)");
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

/* The egress plan (policy_egress.c): what the programs would allow and deny.
 * Names wait for the DNS gate: until then no address is allowed for them. */
static void reach_egress(struct rout *o, const struct policy_ctx *x)
{
	const struct egress_plan *p = &x->egress;
	char d[320];

	rout_obj(o, "egress");
	rout_bool(o, "enforced", p->enforce);
	rout_bool(o, "tcpUdpOnly", p->enforce && p->tcp_udp_only);
	rout_list(o, "allow");
	for (size_t i = 0; p->enforce && i < p->n_allow; i++) {
		egress_rule_format(&p->allow[i], d, sizeof(d));
		rout_item(o, d);
	}
	rout_list_end(o);
	rout_list(o, "deny");
	for (size_t i = 0; p->enforce && i < p->n_deny; i++) {
		egress_rule_format(&p->deny[i], d, sizeof(d));
		rout_item(o, d);
	}
	rout_list_end(o);
	rout_list(o, "namesNotEnforced");
	for (size_t i = 0; p->enforce && i < p->n_allow; i++)
		if (p->allow[i].kind != EGRESS_ADDR) {
			egress_rule_format(&p->allow[i], d, sizeof(d));
			rout_item(o, d);
		}
	rout_list_end(o);
	rout_obj_end(o);
}

int cmd_check(struct globals *g, int argc, char **argv)
{
	const char *format = "text", *profile = g->profile, *bundle_opt = NULL;
	const struct opt opts[] = {{"profile", 0, OPT_STR, &profile},
	                           {"format", 'f', OPT_STR, &format},
	                           {"bundle", 'b', OPT_STR, &bundle_opt}};
	struct policy_run pr = {0};
	struct policy_ctx *x = &pr.x;
	struct policy_input pin = {.policy_path = g->policy,
	                           .cli_profile = NULL,
	                           .argv0 = g->argv0,
	                           .rootless = rootless_caller(),
	                           .userns_foreign = rootless_cgroups(),
	                           .state_root = g->root};
	struct oci_config *cfg = NULL;
	char bundle[PATH_MAX];
	struct rout o;
	char *pos[1];
	size_t n_pos;
	int rc = EXIT_BADINPUT;

	if (cli_parse(argc, argv, opts, 3, pos, 1, &n_pos, false) < 0)
		goto bad;
	/* --bundle DIR as every other command takes it, or the directory as
	 * the one argument; not both. */
	if (bundle_opt && n_pos == 0)
		pos[n_pos++] = (char *)bundle_opt;
	else if (bundle_opt) {
		werr(0, "check: give the bundle with --bundle or as the argument, not both");
		goto bad;
	}
	if (n_pos != 1) {
		werr(0, "check: give one bundle directory (--bundle DIR, or DIR)");
		goto bad;
	}
	if (strcmp(format, "text") != 0 && strcmp(format, "json") != 0) {
		werr(0, "check: --format must be text or json");
		goto bad;
	}
	if (realpath(pos[0], bundle) == NULL) {
		werr(errno, "bundle %s", pos[0]);
		goto bad;
	}
	pin.cli_profile = profile;
	pin.bundle = bundle;
	/* Run by a user, the container is what create would make of it: the
	 * user namespace rootless_config adds (the caller as root), not the
	 * host's. */
	if ((cfg = oci_config_load(bundle)) == NULL ||
	    (rootless_caller() && rootless_config(cfg, bundle) < 0) ||
	    policy_prepare(&pin, cfg, &pr) < 0)
		goto bad;
	/* Refused in every profile (ward cannot apply it safely). */
	if (sysctl_check(cfg) < 0 && policy_refuse(x, ".linux->sysctl", NULL, "%s", werr_msg()) < 0)
		goto bad;
	if (rout_init(&o, strcmp(format, "json") == 0, stdout) < 0)
		goto bad;
	rout_str(&o, "bundle", bundle);
	rout_str(&o, "profile", profile_name(x->profile));
	rout_str(&o, "profileFrom", x->profile_from);
	rout_str(&o, "verdict", x->n_refused ? "refused" : "allowed");
	findings(&o, x, FIND_REFUSE, "refusals");
	findings(&o, x, FIND_ADJUST, "adjustments");
	findings(&o, x, FIND_NOTE, "notes");
	rout_list(&o, "optOuts");
	for (size_t i = 0; i < x->n_optouts; i++)
		rout_item(&o, x->optouts[i]);
	rout_list_end(&o);
	rout_obj(&o, "reach");
	reach_mounts(&o, cfg, x);
	reach_namespaces(&o, cfg);
	reach_process(&o, cfg);
	reach_devices(&o, cfg, x);
	reach_hooks(&o, cfg, x);
	reach_limits(&o, cfg, x);
	reach_egress(&o, x);
	rout_obj_end(&o);
	fields(&o, cfg, x->profile);
	rout_finish(&o);
	if (strcmp(format, "json") == 0)
		putchar('\n');
	rc = x->n_refused ? EXIT_REFUSED : 0;
	goto out;
bad:
	log_fatal(werr_msg());
out:
	policy_run_free(&pr);
	oci_config_free(cfg);
	return rc;
}
