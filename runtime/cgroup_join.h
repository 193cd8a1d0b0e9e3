/* Placing a process in the cgroups another is in: an exec'd process joins
 * its container's (every v1 hierarchy and the unified one). Until ward
 * manages cgroups itself (issue 4), the container's are its init's. */
#ifndef WARD_CGROUP_JOIN_H
#define WARD_CGROUP_JOIN_H

#include <sys/types.h>

int cgroup_join_like(pid_t target, pid_t pid);

#endif
