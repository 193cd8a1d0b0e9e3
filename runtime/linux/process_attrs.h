/* Process attributes beyond credentials: personality, scheduling, I/O
 * priority, CPU affinity, and the LSM labels. */
#ifndef WARD_PROCESS_ATTRS_H
#define WARD_PROCESS_ATTRS_H

#include "lib/error.h"

#include "oci/config.h"

/* Host-side checks before anything is created: LSM labels need their LSM. */
int attrs_check(const struct oci_config *c, struct werror *err);
/* execCPUAffinity.initial: as soon as the process exists. */
int attrs_initial_affinity(const struct oci_process *p, struct werror *err);
/* personality, scheduler, ioPriority: while still privileged. */
int attrs_apply(const struct oci_process *p, const struct oci_linux *l, struct werror *err);
/* execCPUAffinity.final and the LSM exec labels: just before execve,
 * through the container's own /proc. */
int attrs_before_exec(const struct oci_process *p, struct werror *err);
/* Open a /proc file for writing, refusing anything not on procfs. */
int attrs_open_proc(const char *path, const char *what, struct werror *err);

#endif
