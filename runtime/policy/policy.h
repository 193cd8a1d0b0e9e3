/* The hardening policy (issue #6, design "Hardening model"): profiles,
 * refusals, adjustments and opt-outs, applied to a parsed config.json.
 *
 * One analysis serves create (refuse or adjust, then record the
 * adjustments in the container's audit log), exec (the same adjustments
 * re-applied to the saved config, and to the exec'd process) and `ward
 * check` (everything listed, nothing created). */
#ifndef WARD_POLICY_H
#define WARD_POLICY_H

#include "lib/error.h"

#include <stdbool.h>
#include <stddef.h>

#include "oci/config.h"
#include "policy/findings.h"
#include "policy/policy_file.h"

/* Which profile: --profile, then the binary's name (ward-strict), then the
 * policy file, then baseline; the annotation org.ward.profile may then
 * only tighten. And which opt-outs are on: the policy's allowAlways, and
 * org.ward.allow.<name>=true annotations for names the policy allows. */
int policy_ctx_init(struct policy_ctx *x, const struct policy *pol, const char *cli_profile,
                    const char *argv0, struct oci_config *cfg, struct werror *err);
void policy_ctx_free(struct policy_ctx *x);

/* Every rule of the profile: refusals are recorded (x->n_refused), and
 * adjustments are made to x->cfg. -1 only on an internal error (ENOMEM). */
int policy_apply(struct policy_ctx *x, struct werror *err);
/* werr() for the first refusal (naming field, reason and opt-out); -1. */
int policy_refusal_error(const struct policy_ctx *x, struct werror *err);
/* How to lift the refusal f, in the refusal line's words (the JSON to add
 * to the policy file, the annotation, or which of the two is missing); NULL
 * when it has no opt-out. The caller frees it. */
char *policy_optout_howto(const struct policy_ctx *x, const struct finding *f);

/* policy_refusal_error for the refusals recorded since x had first
 * findings and refused refusals (0 when there are none). */
int policy_refusal_since(const struct policy_ctx *x, size_t first, size_t refused,
                         struct werror *err);

/* The exec'd process: capabilities capped, no_new_privs forced, refused
 * capabilities refused (werr, -1). */
int policy_exec_caps(struct policy_ctx *x, struct oci_caps *caps, bool *no_new_privs,
                     struct werror *err);

/* The exec'd process's scheduler, ioPriority, oomScoreAdj and rlimits
 * (policy_caps.c), judged with its own capabilities before they are
 * capped and ward's limits read now: werr for the first refusal, -1. */
int policy_exec_process_attrs(struct policy_ctx *x, const struct oci_process *p,
                              struct werror *err);

/* strict: the exec'd process's environment (the --process file's, and
 * the --env values add) checked as create checks config.json's: werr for
 * the first refusal, -1. */
int policy_exec_env(struct policy_ctx *x, const struct oci_process *from_file, char *const *add,
                    size_t n_add, struct werror *err);

/* Each adjustment as a JSON line (field, old, new, rule, time) into
 * the fd; and each one at debug level in the log. */
int policy_audit_write(const struct policy_ctx *x, int fd, struct werror *err);

/* The annotations ward reads (for `features`). */
extern const char *const policy_annotations[][2];

#endif
