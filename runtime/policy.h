/* The hardening policy (issue #6, design "Hardening model"): profiles,
 * refusals, adjustments and opt-outs, applied to a parsed config.json.
 *
 * One analysis serves create (refuse or adjust, then record the
 * adjustments in the container's audit log), exec (the same adjustments
 * re-applied to the saved config, and to the exec'd process) and `ward
 * check` (everything listed, nothing created). */
#ifndef WARD_POLICY_H
#define WARD_POLICY_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "policy_file.h"

enum finding_kind { FIND_ADJUST, FIND_REFUSE, FIND_NOTE };

struct finding {
	enum finding_kind kind;
	char field[160];  /* JSON path, ".process.capabilities.bounding" */
	char old[256];    /* adjustments: the value before */
	char now[256];    /* adjustments: the value after */
	char rule[48];    /* the rule's name, as in ward-policy(7) */
	char why[256];    /* refusals and notes: the reason */
	char optout[160]; /* the opt-out that would lift it, "" if none */
};

struct policy_ctx {
	const struct policy *pol;
	enum ward_profile profile;
	const char *profile_from; /* "--profile", "binary name", "policy file", ... */
	const char *bundle;       /* relative paths of the config start here */
	struct oci_config *cfg;
	char **optouts; /* active for this container */
	size_t n_optouts;
	struct finding *f;
	size_t n_f, n_refused;
};

/* Which profile: --profile, then the binary's name (ward-strict), then the
 * policy file, then baseline; the annotation org.ward.profile may then
 * only tighten. And which opt-outs are on: the policy's allowAlways, and
 * org.ward.allow.<name>=true annotations for names the policy allows. */
int policy_ctx_init(struct policy_ctx *x, const struct policy *pol, const char *cli_profile,
                    const char *argv0, struct oci_config *cfg);
void policy_ctx_free(struct policy_ctx *x);

/* Every rule of the profile: refusals are recorded (x->n_refused), and
 * adjustments are made to x->cfg. -1 only on an internal error (ENOMEM). */
int policy_apply(struct policy_ctx *x);
/* werr() for the first refusal (naming field, reason and opt-out); -1. */
int policy_refusal_error(const struct policy_ctx *x);

/* The exec'd process: capabilities capped, no_new_privs forced, refused
 * capabilities refused (werr, -1). */
int policy_exec_caps(struct policy_ctx *x, struct oci_caps *caps, bool *no_new_privs);

/* Each adjustment as a JSON line (field, old, new, rule, time) into
 * the fd; and each one at debug level in the log. */
int policy_audit_write(const struct policy_ctx *x, int fd);

/* For the rules (policy_refuse.c, policy_adjust.c). */
bool policy_optout(const struct policy_ctx *x, const char *name);
int policy_refuse(struct policy_ctx *x, const char *field, const char *optout, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int policy_adjusted(struct policy_ctx *x, const char *rule, const char *field, const char *old,
                    const char *now);
int policy_note(struct policy_ctx *x, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int policy_refusals(struct policy_ctx *x);
int policy_adjustments(struct policy_ctx *x);

/* realpath() of a config path (relative ones from the bundle) into
 * real[PATH_MAX]; false if it does not resolve. */
bool policy_host_path(const struct policy_ctx *x, const char *path, char *real);

/* The annotations ward reads (for `features`). */
extern const char *const policy_annotations[][2];

#endif
