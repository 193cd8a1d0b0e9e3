/* What create hands on of the policy's decisions (create_plan.c). */
#ifndef WARD_OPS_CREATE_PLAN_H
#define WARD_OPS_CREATE_PLAN_H

#include "lib/error.h"

#include "container/ops/ops.h"
#include "policy/prepare.h"
#include "hooks/hooks.h"

struct sup_plan;
struct gate_conf;

/* Outside compat: every hook runs from the fd the policy judged. */
int create_pin_hooks(const struct host_facts *h, struct hook_pins *pins, struct werror *err);
/* What the supervisor is to do, as the policy decided. */
int create_sup_plan(const struct globals *g, const struct policy_run *pr,
                    const struct oci_config *cfg, const char *bundle, struct sup_plan *sp,
                    struct werror *err);

/* The DNS gate's plan when the egress plan names hosts (*on false: none):
 * its address, the upstream resolvers of the resolv.conf the container
 * would have had (the config's bind of /etc/resolv.conf, else the
 * rootfs's, else the host's), the plan. -1 with werr. */
int create_gate_plan(const struct policy_run *pr, const char *id, struct gate_conf *gc, bool *on,
                     struct werror *err);

#endif
