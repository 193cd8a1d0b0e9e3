/* Refusals: namespaces that are the host's, by path or by absence. */
#include "oci/names.h"
#include "policy/rules.h"

#include <sched.h>
#include <stdio.h>
#include <string.h>

static const char *optout_of_ns(int flag)
{
	switch (flag) {
	case CLONE_NEWNET:
		return "host-network";
	case CLONE_NEWPID:
		return "host-pid";
	case CLONE_NEWIPC:
		return "host-ipc";
	case CLONE_NEWUTS:
		return "host-uts";
	case CLONE_NEWNS:
		return "host-mount";
	case CLONE_NEWUSER:
		return "host-user";
	case CLONE_NEWCGROUP:
		return "host-cgroup";
	default:
		return NULL;
	}
}

int policy_refuse_namespaces(struct policy_ctx *x)
{
	static const int must_have[] = {CLONE_NEWPID, CLONE_NEWIPC, CLONE_NEWUTS, CLONE_NEWNS};
	const struct oci_linux *l = x->cfg->linux;

	for (size_t i = 0; l && i < l->n_namespaces; i++) {
		const struct oci_namespace *n = &l->namespaces[i];
		const char *opt = optout_of_ns(n->flag);
		char field[96];

		if (n->path == NULL || n->path[0] == '\0')
			continue;
		snprintf(field, sizeof(field), ".linux.namespaces[%zu].path", i);
		if (i < x->facts->n_ns && x->facts->ns_host[i]) {
			if (opt && !policy_optout(x, opt) &&
			    policy_refuse(x, field, opt, "%s is the host's %s namespace", n->path,
			                  n->type) < 0)
				return -1;
		} else if (n->flag == CLONE_NEWNET && x->profile == PROFILE_STRICT &&
		           !policy_optout(x, "join-network") &&
		           policy_refuse(x, field, "join-network",
		                         "strict allows no network namespace but a fresh one") <
		               0) {
			return -1;
		}
	}
	/* An absent network namespace is the host network (engines write
	 * that for --network host): baseline refuses it (opt-out
	 * host-network), or adds a fresh one when the policy says
	 * "missingNetwork": "isolate"; strict always adds one (new_netns). */
	if (!oci_config_namespace(x->cfg, CLONE_NEWNET) && x->profile == PROFILE_BASELINE &&
	    policy_refuses_missing_network(x->pol) && !policy_optout(x, "host-network") &&
	    policy_refuse(x, ".linux.namespaces", "host-network",
	                  "no network namespace: the container would share the host's "
	                  "network") < 0)
		return -1;
	/* An absent namespace is the host's, shared. (user and cgroup: absent
	 * is the norm.) */
	for (size_t k = 0; k < sizeof(must_have) / sizeof(must_have[0]); k++) {
		const char *opt = optout_of_ns(must_have[k]);

		if (!oci_config_namespace(x->cfg, must_have[k]) && !policy_optout(x, opt) &&
		    policy_refuse(x, ".linux.namespaces", opt,
		                  "no %s namespace: the container would share the host's",
		                  oci_ns_type(must_have[k])) < 0)
			return -1;
	}
	return 0;
}
