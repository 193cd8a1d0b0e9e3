/* The views of the runtime the CLI prints: a container's state, the run
 * report, what a bundle would be allowed (check), what ward supports
 * (features), the default spec, a live container's figures (events). */
#ifndef WARD_QUERY_H
#define WARD_QUERY_H

#include "lib/error.h"

#include <stdbool.h>
#include <stddef.h>

#include "container/ops/ops.h"
#include "policy/findings.h"

struct container;
/* Print the state JSON of c (open). */
int query_state(struct container *c, struct werror *err);
/* The run report of container id, whole (the caller frees *buf). */
int query_report_read(struct globals *g, const char *id, char **buf, size_t *len,
                      struct werror *err);
/* Print it, as text or (json) as written. */
int query_report(struct globals *g, const char *id, bool json, struct werror *err);
/* ward report --list: every kept run report, the newest first. */
int query_report_list(struct globals *g, struct werror *err);

/* What the policy would make of the bundle, printed (text or json).
 * Returns 0: allowed, 1: refused, -1: bad input (werr says why). */
int query_check(struct globals *g, const char *bundle, const char *profile, bool json,
                struct werror *err);

/* Stats (once when stats, else every ms) and OOM events of c as JSON
 * lines, until it stops. */
int query_events(struct container *c, bool stats, long ms, struct werror *err);

/* What this build supports: the runtime-spec features JSON, on stdout. */
int query_features(struct werror *err);
/* One kind of the policy's findings as a list titled title (check's
 * refusals, adjustments and notes; a refused run's report). */
struct rout;
void query_findings(struct rout *o, const struct policy_ctx *x, enum finding_kind k,
                    const char *title);
/* Write a default config.json into bundle (rootless: for the caller's ids). */
int query_spec(const char *bundle, bool rootless, bool full, struct werror *err);

#endif
