/* The rule sets the dispatcher (policy.c) runs: what baseline and strict
 * refuse (refuse_*.c and policy_caps.c, from the config and the host facts
 * alone) and the gaps they fill (policy_adjust.c, from the config alone). */
#ifndef WARD_POLICY_RULES_H
#define WARD_POLICY_RULES_H

#include "lib/error.h"

#include "idpool/idpool.h"
#include "policy/findings.h"

#include <stdbool.h>
#include <stdint.h>

int policy_refuse_namespaces(struct policy_ctx *x);

/* The annotations a container turns the policy with: a tighter profile, an
 * opt-out the operator allows (org.ward.allow.<name>=true). */
#define ANN_PROFILE "org.ward.profile"
#define ANN_ALLOW   "org.ward.allow."
/* The config is what `--privileged` writes (refusal_text.c), judged
 * before the adjustments cap its capabilities. */
bool policy_privileged_shape(const struct oci_config *cfg);
/* Hooks: host programs ward runs as root (in refuse_ns.c: like the host's
 * namespaces, they hand the container's config the host). */
int policy_refuse_hooks(struct policy_ctx *x, struct werror *err);
int policy_refuse_devices(struct policy_ctx *x);
int policy_refuse_root(struct policy_ctx *x);
int policy_refuse_mounts(struct policy_ctx *x, struct werror *err);
/* strict only */
int policy_refuse_userns(struct policy_ctx *x);
/* The pool strict containers' host id ranges come from: the policy's
 * strict.idPool (or its older usernsHostID/usernsSize), defaults filled. */
void policy_strict_idpool(const struct policy *pol, struct idpool *p);
/* The host ids strict maps this container's to (x->userns); false when
 * no range was given it. */
bool policy_strict_userns_range(const struct policy_ctx *x, uint32_t *host, uint32_t *size);
int policy_refuse_secret_env(struct policy_ctx *x, struct werror *err);
/* The same rule on any environment list (exec's --env and --process env);
 * field names the list, "[i]" is appended. */
int policy_refuse_secret_env_list(struct policy_ctx *x, char *const *env, size_t n,
                                  const char *field, struct werror *err);
int policy_adjustments(struct policy_ctx *x, struct werror *err);
/* strict: linux.resources.unified may not undo a limit (refuse_devices.c,
 * after the adjustments: compared with the limits being written). */
int policy_refuse_unified(struct policy_ctx *x);
/* The device adjustments (refuse_devices.c): the host console's rules
 * dropped, ward's defaults without it. */
int policy_adjust_devices(struct policy_ctx *x, struct werror *err);
/* Whether a run supervisor watches the container, its wall-clock limit,
 * and whether denied syscalls are recorded (policy_supervise.c). */
#define ANN_TIMEOUT "org.ward.timeout"
/* strict: the container's host id range, "first-last", as ward set it. */
#define ANN_USERNS_RANGE "org.ward.userns.range"
int policy_supervision(struct policy_ctx *x);
/* The egress plan (x->egress): destinations allowed and the metadata
 * endpoints denied (policy_egress.c). */
#define ANN_EGRESS "org.ward.egress"
int policy_egress(struct policy_ctx *x, struct werror *err);

/* The opt-out a device node needs (type 'c' or 'b'; minor -1: any), and
 * why, in the caller's v; NULL if it is harmless. */
struct device_verdict {
	char opt[64];
	char reason[224];
	const char *why; /* reason, or a fixed text */
};
const char *policy_device_optout(char type, int64_t major, int64_t minor, struct device_verdict *v);

#endif
