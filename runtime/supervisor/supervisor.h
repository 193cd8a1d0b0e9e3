/* The run supervisor (issue #14; design "Supervisor, egress, report"): one
 * small process per container, the ward binary again as
 * `ward-supervisor <id>`, that enforces the wall-clock limit, answers and
 * records the syscalls the seccomp filter denies, and writes the run report
 * when the container's init is gone.
 *
 * It is invisible to the engines: not the init's parent (they reap the init
 * as before), double-forked into a session of its own, stdio on /dev/null,
 * none of the caller's fds, and outside the container's cgroup (it stays in
 * the caller's: the container's parent cgroup often has controllers enabled,
 * where cgroup2's no-internal-processes rule refuses a process). A guard
 * process it forks kills the container when the supervisor dies. */
#ifndef WARD_SUPERVISOR_H
#define WARD_SUPERVISOR_H

#include "lib/error.h"

#include <stdbool.h>
#include <sys/types.h>

#define SUPERVISOR_ARGV0 "ward-supervisor"
/* The supervisor's first word to create: "R<pid> <guard>" or "E<why>"; a
 * longer why ends in "[...]". */
#define SUP_READY_MAX   4096
#define SUP_PLAN_FILE   "supervisor.json" /* in the state dir: what it enforces */
#define SUP_DIED_FILE   "supervisor.died" /* written by the guard: why it is gone */
#define SUP_SOCKET_FILE "supervisor.sock" /* exec hands its listener over here */

/* What the policy decided for it. */
struct sup_plan {
	long long timeout_ms; /* 0: no wall-clock limit */
	long long grace_ms;   /* SIGTERM at the deadline, the cgroup killed this later */
	char timeout_from[64];
	char profile[16];
	char policy_digest[65]; /* sha256 of the policy file, "" for the defaults */
	char report_dir[4096];  /* absolute */
	long long report_keep;
	bool record_denied;   /* the filter's default action goes to the supervisor */
	int errno_ret;        /* what it answers a denied syscall with */
	char denied_off[160]; /* why denials are not recorded, when they are not */
	char bundle[4096];
	/* pasta connects the container's network namespace (sup_pasta.h);
	 * pasta_dns: the resolver it forwards DNS to ("": the host's). */
	bool pasta;
	char pasta_dns[64];
};

/* A started supervisor: a pidfd of it (taken while it was a child of
 * ward's, so never a recycled pid), its pid, and its guard's pid. */
struct sup_proc {
	int pidfd;
	pid_t pid, guard;
};

/* The fds a supervisor is handed (-1: none): the seccomp listener, the
 * egress programs' ring buffer and counters, and for its DNS gate their
 * allow map and port sets (net/egress_bpf.h). */
struct sup_fds {
	int notify, egress_events, egress_counters, egress_allow, egress_ports;
};

/* Start the supervisor of the container whose state dir (dirfd, under the
 * root rootfd, name id) holds the saved state and cgroup record. It gets a
 * copy of init_pidfd and of the fds. Waits until it is ready; 0, or -1
 * with werr (nothing left running). */
int sup_spawn(int rootfd, int dirfd, const char *id, int init_pidfd, const struct sup_fds *fds,
              const struct sup_plan *plan, struct sup_proc *out, struct werror *err);

/* While create waits for the init's READY, the filter may already deny the
 * init's own last calls: answer them (with errno_ret, unrecorded) so that
 * nothing blocks before the supervisor runs, until fd (the init's channel)
 * has something to read. */
int sup_answer_until(int fd, int notify_fd, int errno_ret, struct werror *err);

/* exec: hand the listener of an exec'd process's filter to the supervisor
 * of the container whose state dir is dirfd (it answers and records that
 * process's denials too). 0 once it has it; -1 with werr. */
int sup_hand_listener(int dirfd, int notify_fd, struct werror *err);

/* The process `ward-supervisor <id>` (main.c dispatches on argv[0]). */
int supervisor_main(int argc, char **argv, struct werror *err);

/* The report directory for a policy's reportDir (NULL: <root>/.reports). */
int sup_report_dir(const char *policy_dir, const char *root, char *out, size_t len,
                   struct werror *err);

/* A pidfd's pid, from its fdinfo (-1 once reaped). */
pid_t sup_pidfd_pid(int pidfd);

#endif
