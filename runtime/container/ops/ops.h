/* The operations, one entry point per command: what the CLI calls once it
 * has parsed the options. Each takes the global options and a request
 * (what the user asked, nothing decided yet); container/ owns the rest
 * (rootless set-up, the policy, hooks, the supervisor plan, cgroups). */
#ifndef WARD_OPS_H
#define WARD_OPS_H

#include "lib/error.h"

#include <stdbool.h>
#include <stddef.h>

#include "oci/config.h"

/* The global options, as given before the command. */
struct globals {
	const char *root;
	const char *log;
	const char *log_format;
	const char *log_level;
	bool debug;
	const char *profile;   /* --profile: compat, baseline or strict */
	const char *policy;    /* --policy FILE (default /etc/ward/policy.json) */
	const char *argv0;     /* ward-strict selects strict */
	bool systemd_cgroup;   /* --systemd-cgroup: the systemd cgroup driver */
	int rootfd;            /* opened on demand by ops_root() */
	int fail_status;       /* the exit status when the command fails; 0: ops_fail_status */
	int profile_seen;      /* the container's profile + 1, once known (0: not yet) */
	bool refusal_reported; /* run --report: the refusal's report is written */
};

/* Exit statuses of create, run, exec and start outside compat (ward(1),
 * EXIT STATUS): a job's own status is passed on; these tell ward's own
 * outcomes from it, as timeout(1) and podman(1) do. compat keeps runc's. */
#define EXIT_TIMED_OUT   124 /* the wall-clock limit ended the job */
#define EXIT_WARD_FAILED 125 /* ward failed (the host, a system call, no such container) */
#define EXIT_REFUSED     126 /* the config is invalid or the policy refuses it */

/* The exit status of a command that failed with err: the profile is the
 * container's when it is known, else the operator's (--profile, the
 * binary's name, the policy file's default). */
int ops_fail_status(struct globals *g, const char *cmd, const struct werror *err);
/* Whether ward's own exit statuses apply (the profile is not compat). */
bool ops_ward_statuses(struct globals *g);

/* Values of a repeatable option, in order (argv strings, not copies). */
struct optlist {
	char **v;
	size_t n;
};

/* The state root fd (created 0700 on first use). */
int ops_root(struct globals *g, struct werror *err);

/* --- before a command (main.c) */
/* argv[0]'s base name runs the supervisor (supervisor/), not a command. */
bool ops_is_supervisor(const char *base);
int ops_supervisor_main(int argc, char **argv, struct werror *err);
/* The state root when --root is not given (cmd: the command's name; spec
 * and features need none). Sets g->root into buf, or leaves it NULL. */
int ops_default_root(struct globals *g, const char *cmd, char *buf, size_t size,
                     struct werror *err);

/* --- create and run */
struct create_request {
	const char *id;
	const char *bundle, *pid_file, *console_socket;
	bool no_pivot, no_new_keyring, detach, keep;
	int preserve_fds;
	long timeout_ms;    /* run --timeout (0: none) */
	const char *report; /* run --report FILE */
};

int ops_create(struct globals *g, const struct create_request *r, struct werror *err);
/* Create, start and (without detach) wait: returns the exit status. */
int ops_run(struct globals *g, const struct create_request *r, struct werror *err);

/* --- exec */
struct exec_request {
	const char *id;
	char **args; /* the command line (NULL-terminated), n_args of them */
	size_t n_args;
	const char *process, *pid_file, *console_socket, *cwd, *user, *apparmor, *label;
	bool detach, tty, no_new_privs, ignore_paused;
	int preserve_fds;
	struct optlist env, caps, gids, cgroups;
};

/* Without detach: the process's exit status. */
int ops_exec(struct globals *g, const struct exec_request *r, struct werror *err);

/* --- update */
struct container;
/* New limits (r: its device rules are dropped) for c's cgroup. */
int ops_update(struct container *c, struct oci_resources *r, struct werror *err);

#endif
