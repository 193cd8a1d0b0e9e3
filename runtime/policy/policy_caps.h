/* The capability rules of the policy (used at create and exec). */
#ifndef WARD_POLICY_CAPS_H
#define WARD_POLICY_CAPS_H

#include "lib/error.h"

#include "policy/findings.h"

/* Refuse capabilities that hand the container host authority (in any set),
 * unless the opt-out cap.<NAME> is on. prefix names the object in findings. */
int policy_caps_refuse(struct policy_ctx *x, const struct oci_caps *caps, const char *prefix);
/* Cap every set to the safe set (plus opted-in ones); clear inheritable
 * and ambient. Records each change. */
int policy_caps_cap(struct policy_ctx *x, struct oci_caps *caps, const char *prefix);

/* Process attributes ward sets as root that need a capability
 * (scheduler, ioPriority, oomScoreAdj, rlimits): strict refuses them,
 * baseline unless the container keeps that capability. Needs x->facts. */
int policy_refuse_process_attrs(struct policy_ctx *x);
/* The same rule on any process p with capabilities caps against ward's
 * limits h; fields are named from prefix (".process", "exec process"). */
int policy_caps_process_attrs(struct policy_ctx *x, const struct oci_process *p,
                              const struct oci_caps *caps, const struct host_limits *h,
                              const char *prefix);

#endif
