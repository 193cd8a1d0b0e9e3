/* The rule sets the dispatcher (policy.c) runs: what baseline and strict
 * refuse (refuse_*.c and policy_caps.c, from the config and the host facts
 * alone) and the gaps they fill (policy_adjust.c, from the config alone). */
#ifndef WARD_POLICY_RULES_H
#define WARD_POLICY_RULES_H

#include "policy/findings.h"

#include <stdint.h>

int policy_refuse_namespaces(struct policy_ctx *x);
int policy_refuse_devices(struct policy_ctx *x);
int policy_refuse_root(struct policy_ctx *x);
int policy_refuse_mounts(struct policy_ctx *x);
/* strict only */
int policy_refuse_secret_env(struct policy_ctx *x);
int policy_adjustments(struct policy_ctx *x);

/* The opt-out a device node needs (type 'c' or 'b'; minor -1: any), and
 * why; NULL if it is harmless. */
const char *policy_device_optout(char type, int64_t major, int64_t minor, const char **why);

#endif
