/* What every command and main.c need of the runtime before an operation:
 * the state root, and the supervisor's own entry. */
#include "container/ops/ops.h"
#include "container/store.h"
#include "lib/error.h"
#include "rootless/rootless.h"
#include "supervisor/supervisor.h"

#include <stdlib.h>
#include <string.h>

int ops_root(struct globals *g)
{
	if (g->rootfd < 0)
		g->rootfd = store_open_root(g->root);
	return g->rootfd;
}

bool ops_is_supervisor(const char *base)
{
	return strcmp(base, SUPERVISOR_ARGV0) == 0;
}

int ops_supervisor_main(int argc, char **argv)
{
	return supervisor_main(argc, argv);
}

int ops_default_root(struct globals *g, const char *cmd, char *buf, size_t size)
{
	/* Not root: the caller's runtime directory, as runc and crun use it
	 * (spec and features need no state); root inside another user
	 * namespace (rootless Podman's) too, when it is set and its own.
	 * Asked here, before any namespace is entered, and kept. */
	if (g->root == NULL && rootless_caller()) {
		if (rootless_state_root(buf, size) == 0)
			g->root = buf;
		else if (strcmp(cmd, "spec") != 0 && strcmp(cmd, "features") != 0)
			return -1;
	} else if (g->root == NULL && rootless_cgroups() && getenv("XDG_RUNTIME_DIR") &&
	           rootless_state_root(buf, size) == 0)
		g->root = buf;
	return 0;
}
