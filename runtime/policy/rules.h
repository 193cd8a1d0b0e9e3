/* The rule sets the dispatcher (policy.c) runs: what baseline and strict
 * refuse (policy_refuse.c, from the config and the host facts alone) and
 * the gaps they fill (policy_adjust.c, from the config alone). */
#ifndef WARD_POLICY_RULES_H
#define WARD_POLICY_RULES_H

#include "policy/findings.h"

int policy_refusals(struct policy_ctx *x);
int policy_adjustments(struct policy_ctx *x);

#endif
