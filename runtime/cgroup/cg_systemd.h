/* The systemd cgroup driver (global --systemd-cgroup, or the policy's
 * "cgroupManager": "systemd"): the container's cgroup is a transient scope
 * unit that systemd makes with Delegate=yes, its limits set as unit
 * properties (so a daemon-reload keeps them) and written to the cgroup as
 * with cgroupfs. The path form is runc's "slice:prefix:name".
 *
 * sd_config.c (paths, properties) needs no systemd; sd_unit.c talks over
 * D-Bus (sd-bus), and without libsystemd says the driver is unavailable. */
#ifndef WARD_CG_SYSTEMD_H
#define WARD_CG_SYSTEMD_H

#include "lib/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "oci/resources.h"

#define SD_UNIT_MAX 256

/* "slice:prefix:name" → the unit ("prefix-name.scope", or "name.scope"
 * with no prefix), its slice (empty: system.slice) and the cgroup path
 * systemd gives it: each dash of a slice name is a level
 * ("a-b.slice" → "/a.slice/a-b.slice"). An empty cgroupsPath is
 * "system.slice:ward:ID". Errors name .linux.cgroupsPath. */
int sd_parse_path(const char *cgroups_path, const char *id, char *path, size_t path_len, char *unit,
                  size_t unit_len, char *slice, size_t slice_len, struct werror *err);

/* One unit property: 't' (uint64), 'b' (boolean) or 'y' (a byte array, as
 * AllowedCPUs' bitmask). */
struct sd_prop {
	const char *name;
	char type;
	uint64_t u;
	uint8_t *bytes;
	size_t n_bytes;
};

#define SD_PROPS_MAX 24
struct sd_props {
	struct sd_prop p[SD_PROPS_MAX];
	size_t n;
};

/* linux.resources as the properties systemd has for them (v2: cgroup2
 * names; else the legacy ones). At start also the accounting switches, and
 * TasksMax=infinity when no pids limit is asked for (systemd's
 * DefaultTasksMax would otherwise cap the container); for update only
 * what r names. */
int sd_props_from_resources(const struct oci_resources *r, bool v2, bool start,
                            struct sd_props *out, struct werror *err);
void sd_props_free(struct sd_props *p);
/* A cpuset list ("0-3,8") as systemd's bitmask (bit i of byte i/8); what
 * names the field in errors. */
int sd_cpuset_mask(const char *list, const char *what, uint8_t **mask, size_t *n,
                   struct werror *err);

/* The bus calls (sd_unit.c). Each waits for systemd's job, bounded. */
bool sd_available(void);
/* StartTransientUnit: the scope with pid in it, Delegate=yes, the slice,
 * and the resource properties. */
int sd_unit_start(const char *unit, const char *slice, const char *id, pid_t pid,
                  const struct oci_resources *r, bool v2, struct werror *err);
/* SetUnitProperties (runtime) with the resource properties (update). */
int sd_unit_set(const char *unit, const struct oci_resources *r, bool v2, struct werror *err);
/* StopUnit, then ResetFailedUnit; a unit already gone is not an error. */
int sd_unit_stop(const char *unit, struct werror *err);

#endif
