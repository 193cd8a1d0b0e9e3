#include "create_cli.h"
#include "error.h"

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

/* Signals a foreground `run` passes on to the container's init. */
static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGWINCH};

/* Wait for the init, passing signals on; returns its exit status the way a
 * shell reports it (128+N for a signal). */
static int wait_forwarding(int pidfd, const sigset_t *set)
{
	int sfd = signalfd(-1, set, SFD_CLOEXEC);
	struct pollfd pfd[2] = {{.fd = pidfd, .events = POLLIN}, {.fd = sfd, .events = POLLIN}};
	siginfo_t si = {0};

	if (sfd < 0)
		return werr(errno, "signalfd");
	for (;;) {
		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			close(sfd);
			return werr(errno, "poll");
		}
		if (pfd[1].revents & POLLIN) {
			struct signalfd_siginfo ssi;

			if (read(sfd, &ssi, sizeof(ssi)) == sizeof(ssi))
				pidfd_send_signal(pidfd, (int)ssi.ssi_signo, NULL, 0);
		}
		if (pfd[0].revents & POLLIN)
			break;
	}
	close(sfd);
	while (waitid(P_PIDFD, (id_t)pidfd, &si, WEXITED) < 0)
		if (errno != EINTR)
			return werr(errno, "waiting for the container");
	if (si.si_code == CLD_EXITED)
		return si.si_status;
	return 128 + si.si_status;
}

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
	int pidfd = -1, status;

	if (cli_parse(argc, argv, opts, sizeof(opts) / sizeof(opts[0]), pos, 1, &n_pos, false) <
	        0 ||
	    cli_one_id("run", n_pos) < 0)
		return -1;
	/* Blocked before the clone so that no signal is lost; the init resets
	 * its mask before anything else. */
	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++)
		sigaddset(&set, forwarded[i]);
	sigprocmask(SIG_BLOCK, &set, &old);
	if (create_from_cli(g, &cc, pos[0], &c, &pidfd) < 0)
		return -1;
	if (container_start(&c) < 0) {
		char msg[WERR_MAX];
		int e = werr_errno();

		snprintf(msg, sizeof(msg), "%s", werr_msg());
		container_destroy(&c, true);
		store_close(&c);
		close(pidfd);
		return werr_set(e, msg);
	}
	if (cc.detach) {
		store_close(&c);
		close(pidfd);
		return 0;
	}
	store_unlock(&c);
	status = wait_forwarding(pidfd, &set);
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
