/* What create hands on of the policy's decisions (create_plan.c). */
#ifndef WARD_OPS_CREATE_PLAN_H
#define WARD_OPS_CREATE_PLAN_H

#include "lib/error.h"

#include "container/ops/ops.h"
#include "policy/prepare.h"

struct sup_plan;

/* Outside compat: every hook runs from the fd the policy judged. */
int create_pin_hooks(const struct host_facts *h, struct werror *err);
/* What the supervisor is to do, as the policy decided. */
int create_sup_plan(const struct globals *g, const struct policy_run *pr,
                    const struct oci_config *cfg, const char *bundle, struct sup_plan *sp,
                    struct werror *err);

#endif
