/* The container's cgroup as one sequence, for whoever creates a container:
 * the driver (cgroupfs or systemd), the record kept before anything is
 * made, the systemd holder and its pids.max workaround, the limits, and
 * admitting the init. The steps (cgroup.h) stay the module's own. */
#ifndef WARD_CGROUP_MANAGER_H
#define WARD_CGROUP_MANAGER_H

#include "lib/error.h"

#include <stdbool.h>
#include <sys/types.h>

#include "cgroup/cgroup.h"

struct cgroup_request {
	const char *cgroups_path; /* the config's (NULL: the default /ward/<id>) */
	const char *id;
	bool systemd;   /* the systemd driver: a transient scope */
	bool shared_ok; /* compat: a cgroup others live in is joined with a warning */
	const struct oci_linux *limits;
	/* Where the cgroup is recorded (the container's state), once before
	 * anything is made and again once it is: a create killed in between
	 * leaves what delete --force can find and clean up. */
	int (*record)(void *arg, const char *rec, struct werror *err);
	void *record_arg;
};

/* Make the container's cgroup with its limits (cg starts as {0}; free it
 * with cgroup_free). *made: whether anything now exists that destroy must
 * remove, also on failure (the caller's undo calls cgroup_destroy then). */
int cgroup_make(struct cgroup *cg, const struct cgroup_request *r, bool *made, struct werror *err);

/* The init, pid, into the cgroups: the v1 hierarchies (unless v1_entered:
 * the init entered them itself, cgroup_self_enter; cgroup2 already took it
 * at the clone when in_unified: cgroup_unified_fd), the systemd holder let
 * go, and the pids limit the holder made wait. */
int cgroup_admit(struct cgroup *cg, pid_t pid, bool in_unified, bool v1_entered,
                 const struct oci_linux *limits, struct werror *err);
/* The init may enter the v1 hierarchies itself (cgroup_self_open): with
 * the cgroupfs driver (systemd's scope holds a holder until the parent has
 * put the init in). */
bool cgroup_self_entry_ok(const struct cgroup *cg);

#endif
