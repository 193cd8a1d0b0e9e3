/* What every command and main.c need of the runtime before an operation:
 * the state root, and the supervisor's own entry. */
#include "container/ops/ops.h"
#include "container/store.h"
#include "lib/error.h"
#include "policy/policy_file.h"
#include "rootless/rootless.h"
#include "supervisor/supervisor.h"

#include <stdlib.h>
#include <string.h>

int ops_root(struct globals *g, struct werror *err)
{
	if (g->rootfd < 0)
		g->rootfd = store_open_root(g->root, err);
	return g->rootfd;
}

bool ops_is_supervisor(const char *base)
{
	return strcmp(base, SUPERVISOR_ARGV0) == 0;
}

int ops_supervisor_main(int argc, char **argv, struct werror *err)
{
	return supervisor_main(argc, argv, err);
}

bool ops_ward_statuses(struct globals *g)
{
	const char *base;
	int p = g->profile_seen - 1;

	if (p < 0 && g->profile)
		p = profile_from_name(g->profile);
	base = strrchr(g->argv0, '/') ? strrchr(g->argv0, '/') + 1 : g->argv0;
	if (p < 0 && strncmp(base, "ward-", 5) == 0)
		p = profile_from_name(base + 5);
	if (p < 0) {
		/* Only on a failing path: the policy file's default profile
		 * (unreadable: not compat, the profile ward would not run). */
		struct policy *pol = policy_load(g->policy, NULL);

		p = pol && pol->profile ? profile_from_name(pol->profile) : PROFILE_BASELINE;
		policy_free(pol);
	}
	return p != PROFILE_COMPAT;
}

int ops_fail_status(struct globals *g, const char *cmd, const struct werror *err)
{
	static const char *const ward_cmds[] = {"create", "run", "exec", "start"};
	bool ours = false;

	if (g->fail_status)
		return g->fail_status;
	for (size_t i = 0; i < sizeof(ward_cmds) / sizeof(ward_cmds[0]); i++)
		ours = ours || strcmp(cmd, ward_cmds[i]) == 0;
	if (!ours || !ops_ward_statuses(g))
		return 1;
	switch (werr_kind_of(err)) {
	case WERR_INVALID:
	case WERR_REFUSED:
		return EXIT_REFUSED;
	default:
		return EXIT_WARD_FAILED;
	}
}

int ops_default_root(struct globals *g, const char *cmd, char *buf, size_t size, struct werror *err)
{
	/* Not root: the caller's runtime directory, as runc and crun use it
	 * (spec and features need no state); root inside another user
	 * namespace (rootless Podman's) too, when it is set and its own.
	 * Asked here, before any namespace is entered, and kept. */
	if (g->root == NULL && rootless_caller()) {
		if (rootless_state_root(buf, size, err) == 0)
			g->root = buf;
		else if (strcmp(cmd, "spec") != 0 && strcmp(cmd, "features") != 0)
			return -1;
	} else if (g->root == NULL && rootless_cgroups() && getenv("XDG_RUNTIME_DIR") &&
	           rootless_state_root(buf, size, err) == 0)
		g->root = buf;
	return 0;
}
