/* The last steps before execve, inside the container. */
#ifndef WARD_PROCESS_H
#define WARD_PROCESS_H

#include "lib/error.h"

#include <limits.h>
#include <stdbool.h>

#include "oci/config.h"
#include "seccomp/seccomp_filter.h"

/* rlimits and oomScoreAdj; while still privileged. */
int process_limits(const struct oci_process *p, struct werror *err);
/* Groups, gid, uid, capabilities, no_new_privs, umask. */
int process_credentials(const struct oci_process *p, bool userns, struct werror *err);
/* Resolve args[0] against PATH from process.env; runc's wording, which the
 * engines map to exit codes 126/127. */
int process_find_exec(const struct oci_process *p, char out[PATH_MAX], struct werror *err);

/* The steps shared by a container's init and an exec'd process, once they
 * are in the container's namespaces and root. */
struct prepare_args {
	const struct oci_process *proc;
	const struct oci_linux *linux;     /* personality; may be NULL */
	const struct filter_prog *seccomp; /* NULL: no filter */
	int sync_fd; /* the channel to the parent: kept open (fdseal), never spoken here */
	/* With SCMP_ACT_NOTIFY rules: the listener, handed on as soon as the
	 * filter is in place (before anything it may hold up runs). */
	int (*hand_listener)(void *arg, int listener, struct werror *err);
	void *hand_arg;
	int fifo_fd; /* the start fifo (the init's), or -1 */
	bool userns;
	int preserve_fds;
	bool pdeathsig; /* re-arm the parent-death signal after setuid */
};

/* Every fd of ward's but sync_fd and fifo_fd closed (linux/fdseal.h),
 * rlimits, cwd (linux/cwd.h), seccomp (early when no_new_privs is off, or for NOTIFY),
 * credentials, the executable, and the fds the process may keep. Sets
 * *seccomp_loaded when the filter is already in place. */
int process_prepare(const struct prepare_args *a, char exe[PATH_MAX], bool *seccomp_loaded,
                    struct werror *err);
/* Load the filter if still due, then execve. Reports a failure on stderr
 * (the creator may be gone) and exits 127. */
_Noreturn void process_exec(const struct oci_process *p, const char *exe,
                            const struct filter_prog *seccomp_due, struct werror *err);

#endif
