/* check's "reach": what the container would reach, as the policy leaves
 * it: mounts and host paths, namespaces, the process, devices, hooks,
 * limits and seccomp. */
#include "cgroup/dev_rules.h"
#include "container/query/q_check_reach.h"
#include "hooks/hooks.h"
#include "net/gate_map.h"
#include "oci/names.h"
#include "rootfs/mount_opts.h"

#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
static void reach_devices(struct rout *o, const struct oci_config *c, const struct policy_ctx *x,
                          struct werror *err)
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
	if (r && r->n_devices && cg_device_rules(r, l, &rules, &n, err) < 0)
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

/* The egress plan (policy_egress.c): what the programs would allow and deny,
 * and the names the supervisor's DNS gate would resolve (net/dns_gate.h). */
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
	rout_bool(o, "pasta", p->enforce && p->pasta);
	rout_bool(o, "dnsGate", p->enforce && x->supervise && gate_plan_has_names(p));
	rout_list(o, "names");
	for (size_t i = 0; p->enforce && i < p->n_allow; i++)
		if (p->allow[i].kind != EGRESS_ADDR) {
			egress_rule_format(&p->allow[i], d, sizeof(d));
			rout_item(o, d);
		}
	rout_list_end(o);
	rout_obj_end(o);
}

void check_reach(struct rout *o, const struct oci_config *cfg, const struct policy_ctx *x,
                 struct werror *err)
{
	rout_obj(o, "reach");
	reach_mounts(o, cfg, x);
	reach_namespaces(o, cfg);
	reach_process(o, cfg);
	reach_devices(o, cfg, x, err);
	reach_hooks(o, cfg, x);
	reach_limits(o, cfg, x);
	reach_egress(o, x);
	rout_obj_end(o);
}
