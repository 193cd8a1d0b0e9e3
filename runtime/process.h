/* The last steps before execve, inside the container. */
#ifndef WARD_PROCESS_H
#define WARD_PROCESS_H

#include <limits.h>
#include <stdbool.h>

#include "config.h"

/* rlimits and oomScoreAdj; while still privileged. */
int process_limits(const struct oci_process *p);
/* Groups, gid, uid, capabilities, no_new_privs, umask. */
int process_credentials(const struct oci_process *p, bool userns);
/* chdir to cwd and check the result is inside the container's root
 * (CVE-2024-21626: a leaked host fd as cwd shows as "(unreachable)"). */
int process_chdir(const struct oci_process *p);
/* Resolve args[0] against PATH from process.env; runc's wording, which the
 * engines map to exit codes 126/127. */
int process_find_exec(const struct oci_process *p, char out[PATH_MAX]);

#endif
