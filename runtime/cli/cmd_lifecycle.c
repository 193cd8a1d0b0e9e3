/* start, kill, delete: the commands that act on one existing container. */
#include <errno.h>
#include "cli/commands.h"
#include "container/container.h"
#include "lib/error.h"
#include "container/signals.h"

#include <signal.h>
#include <string.h>

int cmd_start(struct globals *g, int argc, char **argv, struct werror *err)
{
	struct container c;
	char *pos[1];
	size_t n_pos;
	int r;

	if (cli_open_container(g, "start", argc, argv, NULL, 0, pos, 1, &n_pos, true, &c, err) < 0)
		return -1;
	g->profile_seen = container_profile(&c) + 1;
	r = container_start(&c, err);
	store_close(&c);
	return r;
}

int cmd_kill(struct globals *g, int argc, char **argv, struct werror *err)
{
	bool all = false;
	const struct opt opts[] = {{"all", 'a', OPT_FLAG, &all, NULL,
	                            "signal every process of the container, not only its\ninit"}};
	struct container c;
	char *pos[2];
	size_t n_pos;
	int sig = SIGTERM, r;

	if (cli_open_container(g, "kill", argc, argv, opts, 1, pos, 2, &n_pos, false, &c, err) < 0)
		return -1;
	if (n_pos == 2 && (sig = signal_parse(pos[1], err)) < 0) {
		store_close(&c);
		return -1;
	}
	r = container_signal(&c, sig, all, err);
	store_close(&c);
	return r;
}

int cmd_delete(struct globals *g, int argc, char **argv, struct werror *err)
{
	bool force = false;
	const struct opt opts[] = {
	    {"force", 'f', OPT_FLAG, &force, NULL,
	     "kill a running container first (its whole cgroup);\nalso removes what a create "
	     "killed midway left"}};
	struct container c;
	char *pos[1];
	size_t n_pos;
	int r;

	memset(&c, 0, sizeof(c));
	c.dirfd = -1;
	if (cli_parse(argc, argv, opts, 1, pos, 1, &n_pos, false, err) < 0)
		return -1;
	if (n_pos < 1)
		return cli_usage_err(err,
		                     "delete: expects a container id (see ward delete --help)");
	if (cli_root(g, err) < 0)
		return -1;
	/* --force removes a container whatever its files say: one whose state
	 * cannot be read goes by its other records (container_destroy). */
	if (store_open_any(g->rootfd, pos[0], true, &c, err) < 0) {
		store_close(&c);
		/* As runc: deleting what is not there is done, when forced
		 * (engines clean up after a failed create this way). An empty
		 * default cgroup /ward/ID left by an older ward or a lost state
		 * dir goes too, under a state dir of the id's made and locked
		 * for it: a create of the same id meanwhile either owns the
		 * name first (then there is nothing of ours to remove) or fails
		 * on it (container_destroy). */
		if (!(force && werr_errno(err) == ENOENT && n_pos == 1))
			return -1;
		werr_clear(err);
		if (store_create(g->rootfd, pos[0], &c, err) < 0) {
			store_close(&c);
			werr_clear(err);
			return 0;
		}
	}
	r = container_destroy(&c, force, err);
	store_close(&c);
	return r;
}
