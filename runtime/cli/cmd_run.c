#include "cli/create_cli.h"
#include "lib/error.h"
#include "container/waitfwd.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/pidfd.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

int cmd_run(struct globals *g, int argc, char **argv)
{
	struct create_cli cc = {.bundle = "."};
	const struct opt opts[] = {
	    CREATE_CLI_OPTS(cc),
	    {"detach", 'd', OPT_FLAG, &cc.detach},
	    {"keep", 0, OPT_FLAG, &cc.keep},
	};
	struct container c;
	sigset_t set, old;
	char *pos[1];
	size_t n_pos;
	int pidfd = -1, master = -1, status;

	if (cli_parse(argc, argv, opts, sizeof(opts) / sizeof(opts[0]), pos, 1, &n_pos, false) <
	        0 ||
	    cli_one_id("run", n_pos) < 0)
		return -1;
	/* Blocked before the clone so that no signal is lost; the init resets
	 * its mask before anything else. */
	fwd_block(&set, &old);
	/* In the foreground, a terminal without --console-socket is relayed
	 * (runc's default config, and `ward run` of a shell by hand). */
	if (create_from_cli(g, &cc, pos[0], &c, &pidfd, cc.detach ? NULL : &master) < 0)
		return -1;
	if (container_start(&c) < 0) {
		char msg[WERR_MAX];
		int e = werr_errno();

		snprintf(msg, sizeof(msg), "%s", werr_msg());
		container_destroy(&c, true);
		store_close(&c);
		close(pidfd);
		if (master >= 0)
			close(master);
		return werr_set(e, msg);
	}
	if (cc.detach) {
		store_close(&c);
		close(pidfd);
		return 0;
	}
	store_unlock(&c);
	status = fwd_wait(pidfd, &set, master);
	close(pidfd);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (!cc.keep) {
		struct stat sb;

		/* Someone may have deleted it while it ran: then nothing is left
		 * to do. */
		if (fstatat(c.rootfd, c.id, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
		    (store_relock(&c) < 0 || (store_refresh(&c), container_destroy(&c, true) < 0)))
			status = -1;
	}
	store_close(&c);
	return status;
}
