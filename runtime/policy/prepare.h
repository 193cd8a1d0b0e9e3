/* One way in to the policy for create, exec and check: load the operator
 * policy (or, for exec, the record create saved), pick the profile and the
 * opt-outs, gather the host facts, apply the rules. */
#ifndef WARD_POLICY_PREPARE_H
#define WARD_POLICY_PREPARE_H

#include "lib/error.h"

#include <stddef.h>

#include "facts/host_facts.h"
#include "idpool/lease.h"
#include "policy/policy.h"

struct policy_input {
	const char *policy_path; /* --policy; NULL: the default path */
	const char *cli_profile; /* --profile; NULL if not given */
	const char *argv0;       /* the name ward was run by (ward-strict) */
	/* create, check: relative host paths start here; the host facts are
	 * gathered and the refusals checked. */
	const char *bundle;
	const char *state_root;   /* --root: never reachable from a container */
	long long cli_timeout_ms; /* run --timeout (0: none) */
	bool rootless;            /* ward was run by a user other than root */
	bool userns_foreign;      /* ward runs in a user namespace not the host's */
	/* create: the container's id, for which strict (as root) leases a
	 * range of the id pool (run->lease); NULL at check, which shows the
	 * range a create would take. */
	const char *lease_id;
	/* exec: the record create saved (policy_record_gen): its profile, its
	 * opt-outs and its copy of the policy file, applied as they were. */
	const char *record;
	size_t record_len;
	/* create, rootless: the policy file loaded (policy_load_text) before
	 * ward entered its user namespace, where the ids its ownership is
	 * judged by are mapped; policy_prepare takes it over (NULL: it loads
	 * policy_path itself). */
	struct policy *pol;
	char *pol_text;
	size_t pol_len;
};

/* What the policy decided for one container. A run not prepared yet is
 * POLICY_RUN_INIT (policy_run_free may be called on it; a zeroed one
 * would hold fd 0). */
struct policy_run {
	struct policy *pol;
	char *pol_text; /* the policy file as read, NULL for the defaults */
	size_t pol_len;
	const char *pol_source; /* where it came from, for the record */
	struct host_facts facts;
	struct policy_ctx x; /* profile, opt-outs, findings; x.cfg adjusted */
	/* create, strict as root: the range leased (x.userns), recorded in the
	 * state dir by container_create (id_lease_commit); set lease.keep once
	 * the container is made, else policy_run_free gives it back. */
	struct id_lease lease;
	bool has_lease;
};
#define POLICY_RUN_INIT                                                                            \
	{                                                                                          \
		.facts = {.root = {.fd = -1} }                                                     \
	}

/* cfg is adjusted in place. Refusals are in run->x (n_refused; see
 * policy_refusal_error); -1 with werr on anything else (an unreadable
 * policy file, a missing or malformed record). */
int policy_prepare(const struct policy_input *in, struct oci_config *cfg, struct policy_run *run,
                   struct werror *err);
void policy_run_free(struct policy_run *run);
#define _cleanup_policy_run_ __attribute__((cleanup(policy_run_free)))
/* The profile a policy record (policy_record_gen) names; -1: none. */
int policy_record_profile(const char *rec, size_t len);

/* The record exec reads back, as JSON (the caller frees *out). */
int policy_record_gen(const struct policy_run *run, char **out, size_t *len, struct werror *err);

#endif
