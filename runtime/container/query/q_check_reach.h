/* check's "reach" object (q_check_reach.c). */
#ifndef WARD_Q_CHECK_REACH_H
#define WARD_Q_CHECK_REACH_H

#include "lib/error.h"

#include "container/query/report_out.h"
#include "policy/prepare.h"

void check_reach(struct rout *o, const struct oci_config *cfg, const struct policy_ctx *x,
                 struct werror *err);

#endif
