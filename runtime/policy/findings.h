/* The policy's working state and what its rules record: refusals,
 * adjustments and notes, each naming the JSON path. Below the rule files
 * (policy_refuse.c, policy_adjust.c, policy_caps.c) and the dispatcher
 * (policy.c) that runs them. */
#ifndef WARD_POLICY_FINDINGS_H
#define WARD_POLICY_FINDINGS_H

#include "lib/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "oci/config.h"
#include "facts/host_facts.h"
#include "net/egress_plan.h"
#include "policy/policy_file.h"

enum finding_kind { FIND_ADJUST, FIND_REFUSE, FIND_NOTE };

/* Each string is the finding's own, never NULL ("" when not given) and
 * never cut short: a path or an opt-out name may be as long as a config
 * makes it (a hook or mount path of PATH_MAX), and a cut one would name
 * another. Freed by policy_ctx_free. */
struct finding {
	enum finding_kind kind;
	char *field;  /* JSON path, ".process.capabilities.bounding" */
	char *old;    /* adjustments: the value before */
	char *now;    /* adjustments: the value after */
	char *rule;   /* the rule's name, as in ward-policy(7) */
	char *why;    /* refusals and notes: the reason */
	char *optout; /* the opt-out that would lift it, "" if none */
};

void finding_free(struct finding *f);

struct policy_ctx {
	const struct policy *pol;
	enum ward_profile profile;
	const char *profile_from; /* "--profile", "binary name", "policy file", ... */
	/* Where the config and the policy file are, for the refusal's words
	 * (refusal_text.c); NULL: not known (exec), the default path. */
	const char *bundle, *policy_path;
	bool privileged_shape; /* policy_privileged_shape of the config as given */
	/* The refusal is of an exec'd process (policy_refusal_since): the
	 * container's opt-outs are its create's, an annotation set now is
	 * too late. */
	bool at_exec;
	/* The host, as gathered before create (NULL at exec: the refusals
	 * were create's business, only the adjustments are made again). */
	const struct host_facts *facts;
	struct oci_config *cfg;
	char **optouts; /* active for this container */
	size_t n_optouts;
	struct finding *f;
	size_t n_f, n_refused;
	/* strict, not rootless: the host ids the container's map to, the range
	 * of the id pool it holds (prepare.c: leased at create, read back from
	 * create's record at exec; at check, preview: the range a create would
	 * take now). Not set: no range, and strict maps nothing. */
	struct {
		uint32_t host, size;
		bool set, preview;
	} userns;
	/* The run supervisor (policy_supervise.c): in, --timeout of run (0:
	 * none); out, whether one runs, the wall-clock limit (0: none) and
	 * whether the seccomp filter's denials go to it to be recorded. */
	long long cli_timeout_ms;
	bool supervise, record_denied;
	long long timeout_ms;
	char timeout_from[64];
	/* What the container may connect to (policy_egress.c). */
	struct egress_plan egress;
};

bool policy_optout(const struct policy_ctx *x, const char *name);
/* The two keys of an opt-out, each alone (refusal_text.c): the policy
 * file names it in "allow"; the config's annotation org.ward.allow.NAME
 * is "true". */
bool policy_file_allows(const struct policy_ctx *x, const char *name);
bool policy_annotation_asks(const struct policy_ctx *x, const char *name);
/* Turn an opt-out on (once). */
int policy_add_optout(struct policy_ctx *x, const char *name);
int policy_refuse(struct policy_ctx *x, const char *field, const char *optout, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int policy_adjusted(struct policy_ctx *x, const char *rule, const char *field, const char *old,
                    const char *now);
int policy_note(struct policy_ctx *x, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
