/* The container's init: cloned into its namespaces and cgroup (spawn.c). */
#ifndef WARD_CREATE_SPAWN_H
#define WARD_CREATE_SPAWN_H

#include "lib/error.h"

#include <stdbool.h>
#include <sys/types.h>

#include "cgroup/cgroup.h"
#include "container/create/init.h"
#include "facts/host_facts.h"
#include "oci/config.h"

/* The CLONE_NEW* flags of the namespaces the config lists without a path
 * (not time and cgroup: the init makes those itself). */
int spawn_clone_flags(const struct oci_config *c);
/* The namespaces to join, opened into a (the user namespace's kept apart:
 * ward joins it itself, last before the clone); each checked to be of its
 * listed type; a pid namespace joined now (it applies to the next child).
 * The fd the policy judged is the one used, never the path again. */
int spawn_open_joined(const struct oci_config *c, const struct host_facts *h, struct init_args *a,
                      bool userns_entered, struct werror *err);
void spawn_close_joined(struct init_args *a);
/* clone3 the init with flags, into its cgroup2 cgroup when cgroup_fd >= 0;
 * the child closes close_in_child and runs init_run(a). */
pid_t spawn_init(const struct init_args *a, int flags, int *pidfd, int close_in_child[2],
                 const struct cgroup *cg, int cgroup_fd, struct werror *err);
void spawn_kill_and_reap(int pidfd);

#endif
