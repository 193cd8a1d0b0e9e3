/* Another process in a running (or created) container. */
#ifndef WARD_EXEC_H
#define WARD_EXEC_H

#include "lib/error.h"

#include <stdbool.h>

#include "oci/config.h"
#include "container/store.h"

struct exec_opts {
	const struct oci_process *proc; /* complete: args, env, cwd, user, caps... */
	bool detach;
	const char *pid_file;
	int preserve_fds;
	const char *console_socket; /* with proc->terminal */
	/* proc->terminal without console_socket, in the foreground: ward
	 * relays the terminal itself (runc exec -t). */
	bool relay_terminal;
	bool ignore_paused; /* a paused container too (the process starts frozen) */
	/* --cgroup, repeated: [CONTROLLER[,...]:]PATH, sub-cgroups of the
	 * container's (cgroup_join). */
	char *const *sub_cgroups;
	size_t n_sub_cgroups;
};

/* Start proc in every namespace of the container's init, under the
 * container's seccomp filter. Without detach, waits and returns the exit
 * status (128+N after signal N); with it, returns 0 once the process runs. */
int container_exec(struct container *c, const struct oci_config *cfg, const struct exec_opts *o,
                   struct werror *err);

#endif
