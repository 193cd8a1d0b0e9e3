/* The container lifecycle shared by the commands: create (parent side of
 * the protocol), start, signal and destroy. */
#ifndef WARD_CONTAINER_H
#define WARD_CONTAINER_H

#include "lib/error.h"

#include <stdbool.h>

#include "idpool/lease.h"
#include "oci/config.h"
#include "seccomp/seccomp_filter.h"
#include "container/store.h"

#include <sys/types.h>

struct policy_ctx;
struct sup_plan;
struct host_facts;

struct gate_conf;

struct create_opts {
	const char *id;
	const char *bundle; /* absolute */
	const char *pid_file;
	const char *console_socket;
	/* Instead of console_socket: an already connected socket for the
	 * terminal (ward's own relay), taken over and closed by create. */
	const int *console_fd;
	bool no_pivot;
	int preserve_fds;
	const char *config_json; /* the bytes cfg was parsed from, saved for exec */
	size_t config_len;
	const struct policy_ctx *policy; /* its audit entries are saved */
	char *policy_record;             /* saved for exec (policy_record_gen) */
	/* The host paths the policy decided on: the rootfs and bind sources
	 * are mounted from these very fds. */
	const struct host_facts *facts;
	/* Outside compat: the hooks, pinned to the files the policy judged
	 * (NULL: run by path). The init closes its copy once its own ran. */
	struct hook_pins *hook_pins;
	const char *owner; /* the caller's name, as the state records it */
	/* strict as root: the range of the id pool leased for this container,
	 * recorded in the state dir first thing (id_lease_commit), so that from
	 * then on the record keeps it live; NULL: none. */
	struct id_lease *lease;
	size_t policy_record_len;
	/* The run supervisor's plan (NULL: none, as in compat). */
	const struct sup_plan *sup;
	/* Its DNS gate's (NULL: none): written to the state dir, and its
	 * resolv.conf bound in once the root is built. */
	const struct gate_conf *gate;
	/* The systemd cgroup driver (--systemd-cgroup, or the policy's). */
	bool systemd_cgroup;
	/* Rootless (rootless/rootless.h): ward is in the container's user
	 * namespace already (it is neither made nor joined again), and the
	 * container may have no cgroup (none delegated to its user). */
	bool userns_entered, no_cgroup;
};

/* Build the container up to the start fifo and save its state. On success
 * c is open and locked; *pidfd (when pidfd != NULL) is a pidfd of the init,
 * whose parent is this process. On failure nothing is left behind. */
int container_create(int rootfd, const struct create_opts *o, const struct oci_config *cfg,
                     struct container *c, int *pidfd, struct werror *err);
/* Compile a seccomp section through the cache under the state root. */
int container_seccomp_prog(int rootfd, const struct oci_seccomp *sc, struct filter_prog *prog,
                           struct werror *err);
/* The filters of the container's processes (l->seccomp set): the config's,
 * after ward's built-in one when the policy stacked it (seccomp_base).
 * record: the supervisor records denials; *supervised: whose default
 * action goes to it (ward's filter's when stacked). */
int container_seccomp_chain(int rootfd, const struct oci_linux *l, bool record,
                            struct filter_prog *prog, bool *supervised, struct werror *err);
/* Release the init blocked on the start fifo. */
int container_start(struct container *c, struct werror *err);
/* The profile create recorded for c (enum ward_profile); -1: none. */
int container_profile(struct container *c);
/* Its name ("compat", "baseline", "strict"), for state and list; NULL:
 * no record (being created, or made by an older ward). */
const char *container_profile_name(struct container *c);
/* Signal the init (all: every process of the container). */
int container_signal(struct container *c, int sig, bool all, struct werror *err);
/* Kill (when force, or not yet started) and remove the container. */
int container_destroy(struct container *c, bool force, struct werror *err);
/* Freeze or thaw every process of the container (its cgroup). */
int container_pause(struct container *c, bool pause, struct werror *err);
/* Wait for the run supervisor (if any) to write its report and end; one
 * that does not is stopped. */
void container_supervisor_wait(struct container *c, struct werror *err);
/* Stop the run supervisor (its pidfd, or -1: from the record) and its
 * guard, the guard first. */
void container_supervisor_stop(struct container *c, int sup_pidfd);
/* The container's cgroup, from create's record (or its state's path). */
struct cgroup;
bool container_cgroup(struct container *c, struct cgroup *cg);
/* Every process of the container, from its cgroup; caller frees *pids. */
int container_pids(struct container *c, pid_t **pids, size_t *n, struct werror *err);

#endif
