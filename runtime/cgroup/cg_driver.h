/* The cgroup managers behind struct cgroup: what differs between cgroupfs
 * (ward makes and removes the directories itself) and systemd (a transient
 * scope systemd makes around a holder process, its limits as unit
 * properties, stopped at destroy). Everything else (the directories' fds,
 * the files, the processes, freezing, the figures) is the same code for
 * both, v1, v2 and hybrid alike. A record with a unit is systemd's. */
#ifndef WARD_CG_DRIVER_H
#define WARD_CG_DRIVER_H

#include "lib/error.h"

#include <stdbool.h>

#include "cgroup/cgroup.h"

struct cg_driver {
	const char *name; /* as --systemd-cgroup / the policy's cgroupManager say it */
	/* The manager makes the path's parents (a slice), and keeps them. */
	bool owns_parents;
	/* A holder process sits in the cgroup until the init is in it (it
	 * counts against pids.max meanwhile). */
	bool holder;
	/* Before the directories are made: systemd's scope, the limits as its
	 * properties (l may be NULL), checked to be at the cgroup's path. */
	int (*start)(struct cgroup *cg, const char *id, const struct oci_linux *l,
	             struct werror *err);
	/* The init is in the cgroup (or create gave up): the holder goes. */
	void (*release)(struct cgroup *cg);
	/* update, before the files are written: the unit's properties, only
	 * while the cgroup is still the container's. */
	int (*set)(const struct cgroup *cg, const struct oci_linux *l, struct werror *err);
	/* destroy, once the processes are killed and before the directories
	 * go: the unit stopped (not one collected or another's since). */
	int (*stop)(const struct cgroup *cg, struct werror *err);
};

extern const struct cg_driver cg_driver_fs, cg_driver_systemd;

static inline const struct cg_driver *cg_driver_of(const struct cgroup *cg)
{
	return cg->unit ? &cg_driver_systemd : &cg_driver_fs;
}

#endif
