/* exec: the process comes from --process FILE (as the engines call it) or
 * from the container's own process with the command line's changes
 * (ops_exec). */
#include "cli/commands.h"
#include "container/ops/ops.h"
#include "lib/error.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int cmd_exec(struct globals *g, int argc, char **argv, struct werror *err)
{
	struct exec_request ec = {0};
	const struct opt opts[] = {
	    {"process", 'p', OPT_STR, &ec.process, "FILE",
	     "the process as a runtime-spec process JSON (the\noptions below are then not taken)"},
	    {"detach", 'd', OPT_FLAG, &ec.detach, NULL, "return once the process runs"},
	    {"pid-file", 0, OPT_STR, &ec.pid_file, "FILE",
	     "write the exec'd process's pid (host view) to FILE"},
	    {"tty", 't', OPT_FLAG, &ec.tty, NULL,
	     "give the process a terminal (with --console-socket,\nor relayed to ward's own "
	     "terminal)"},
	    {"console-socket", 0, OPT_STR, &ec.console_socket, "SOCK",
	     "send the pty master to the unix socket SOCK\n(SCM_RIGHTS), as engines ask"},
	    {"cwd", 0, OPT_STR, &ec.cwd, "DIR", "working directory, inside the container"},
	    {"env", 'e', OPT_LIST, &ec.env, "K=V",
	     "add or replace an environment variable (repeatable;\nstrict checks it as "
	     "config.json's)"},
	    {"user", 'u', OPT_STR, &ec.user, "UID[:GID]",
	     "the process's user, as the container sees it"},
	    {"additional-gids", 'g', OPT_LIST, &ec.gids, "GID",
	     "a supplementary group (repeatable)"},
	    {"cap", 'c', OPT_LIST, &ec.caps, "CAP",
	     "add a capability (repeatable; within the container's\nbounding set and the "
	     "policy's cap)"},
	    {"no-new-privs", 0, OPT_FLAG, &ec.no_new_privs, NULL,
	     "set no_new_privs (always set outside compat)"},
	    {"preserve-fds", 0, OPT_INT, &ec.preserve_fds, "N",
	     "pass the caller's fds 3..3+N-1 to the process"},
	    {"apparmor", 0, OPT_STR, &ec.apparmor, "PROFILE",
	     "an AppArmor profile: not supported yet (refused)"},
	    {"process-label", 0, OPT_STR, &ec.label, "LABEL",
	     "an SELinux label: not supported yet (refused)"},
	    {"ignore-paused", 0, OPT_FLAG, &ec.ignore_paused, NULL,
	     "exec even when the container is paused (the process\nstarts frozen until resume)"},
	    {"cgroup", 0, OPT_LIST, &ec.cgroups, "[CTRL:]PATH",
	     "run the process in an existing sub-cgroup of the\ncontainer's (repeatable)"},
	};
	char *pos[4096 + 1]; /* and the NULL after the command line */
	size_t n_pos;
	int r = -1;

	/* runc's exec exits 255 when it fails itself (its tests and engines
	 * tell that from the process's own status): compat does the same, by
	 * the --profile given until the container's own record says. */
	if (g->profile && strcmp(g->profile, "compat") == 0)
		g->fail_status = 255;
	if (cli_parse(argc, argv, opts, sizeof(opts) / sizeof(opts[0]), pos, 4096, &n_pos, true,
	              err) < 0)
		goto out;
	if (n_pos < 1) {
		cli_usage_err(err, "exec: expects a container id (see ward exec --help)");
		goto out;
	}
	ec.id = pos[0];
	ec.args = pos + 1;
	ec.n_args = n_pos - 1;
	pos[n_pos] = NULL;
	r = ops_exec(g, &ec, err);
out:
	free(ec.env.v);
	free(ec.caps.v);
	free(ec.gids.v);
	free(ec.cgroups.v);
	return r;
}
