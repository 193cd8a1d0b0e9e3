/* The run report (config-schema/report.schema.json): written by the
 * supervisor when the container's init is gone, into the report directory
 * (<root>/.reports: ids never start with a dot; or the policy's reportDir) as <id>.json, so that it
 * outlives `delete`; the newest reportKeep of them are kept. */
#ifndef WARD_SUP_REPORT_H
#define WARD_SUP_REPORT_H

#include "lib/error.h"

#include <stdbool.h>

#include "cgroup/cgroup_stats.h"
#include "supervisor/sup_egress.h"
#include "supervisor/sup_gate.h"
#include "supervisor/sup_notify.h"
#include "supervisor/supervisor.h"

enum run_exit { RUN_EXIT_UNKNOWN, RUN_EXITED, RUN_SIGNALED };

struct run_result {
	const char *id;
	const struct sup_plan *plan;
	int dirfd; /* the state dir: its audit log goes in */
	char created[64], started[64], ended[64];
	long long wall_ms; /* from create (where the deadline counts from) to the end */
	enum run_exit exit;
	int exit_code, exit_signal;
	const char *exit_why; /* RUN_EXIT_UNKNOWN */
	bool timed_out, killed_after_grace;
	struct cg_figures fig;
	bool have_fig;
	const struct denied_log *denied;
	const struct egress_log *egress; /* NULL: no egress programs */
	const struct gate_log *gate;     /* NULL, or off: no DNS gate */
	const char *supervisor_end;      /* "normally", or what ended it */
};

/* Write the report; -1 with werr. */
int sup_report_write(const struct run_result *r, struct werror *err);

#endif
