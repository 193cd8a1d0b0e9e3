#include "container/waitfwd.h"
#include "lib/error.h"

#include <errno.h>
#include <poll.h>
#include <sys/pidfd.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGWINCH};

void fwd_block(sigset_t *set, sigset_t *old)
{
	sigemptyset(set);
	for (size_t i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++)
		sigaddset(set, forwarded[i]);
	sigprocmask(SIG_BLOCK, set, old);
}

int fwd_wait(int pidfd, const sigset_t *set)
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
			return werr(errno, "waiting for the process");
	if (si.si_code == CLD_EXITED)
		return si.si_status;
	return 128 + si.si_status;
}
