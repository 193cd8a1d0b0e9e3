/* exec: the process comes from --process FILE (as the engines call it) or
 * from the container's own process with the command line's changes
 * (ops_exec). */
#include "cli/commands.h"
#include "container/ops/ops.h"
#include "lib/error.h"

#include <stdlib.h>
#include <string.h>

int cmd_exec(struct globals *g, int argc, char **argv, struct werror *err)
{
	struct exec_request ec = {0};
	const struct opt opts[] = {
	    {"process", 'p', OPT_STR, &ec.process},
	    {"detach", 'd', OPT_FLAG, &ec.detach},
	    {"pid-file", 0, OPT_STR, &ec.pid_file},
	    {"tty", 't', OPT_FLAG, &ec.tty},
	    {"console-socket", 0, OPT_STR, &ec.console_socket},
	    {"cwd", 0, OPT_STR, &ec.cwd},
	    {"env", 'e', OPT_LIST, &ec.env},
	    {"user", 'u', OPT_STR, &ec.user},
	    {"additional-gids", 'g', OPT_LIST, &ec.gids},
	    {"cap", 'c', OPT_LIST, &ec.caps},
	    {"no-new-privs", 0, OPT_FLAG, &ec.no_new_privs},
	    {"preserve-fds", 0, OPT_INT, &ec.preserve_fds},
	    {"apparmor", 0, OPT_STR, &ec.apparmor},
	    {"process-label", 0, OPT_STR, &ec.label},
	    {"ignore-paused", 0, OPT_FLAG, &ec.ignore_paused},
	    {"cgroup", 0, OPT_LIST, &ec.cgroups},
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
		werr_k(err, WERR_INVALID, 0, "exec: expects a container id (see ward --help)");
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
