/* run --report FILE: the report where a CI job archives it, also when
 * ward refused the config (op_create.c) or failed, and nothing ran. */
#ifndef WARD_OPS_REPORT_FILE_H
#define WARD_OPS_REPORT_FILE_H

#include "lib/error.h"

#include <stddef.h>

#include "container/ops/ops.h"
#include "policy/findings.h"

/* buf written to the path `to`, atomically (a temporary beside it, then
 * renamed), in its own directory. */
int report_file_write(const char *to, const char *buf, size_t len, struct werror *err);

/* The report of a run that did not run its job: ward refused the config
 * ("refused": true; with x, the policy ran: the profile and every refusal
 * with field, reason and opt-out), or ward failed before the job's
 * program ran ("refused": false: the host, the image's missing program).
 * The error line and its kind either way. A failure to write it is a
 * warning: the error is what is reported. */
void report_file_error(const struct create_request *cc, const char *bundle,
                       const struct policy_ctx *x, const struct werror *why);

#endif
