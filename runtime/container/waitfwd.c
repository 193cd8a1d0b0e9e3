#include "container/waitfwd.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "lib/fileio.h"
#include "linux/console.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/pidfd.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGWINCH};

void fwd_block(sigset_t *set, sigset_t *old)
{
	sigemptyset(set);
	for (size_t i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++)
		sigaddset(set, forwarded[i]);
	sigprocmask(SIG_BLOCK, set, old);
}

/* The terminal relay of a foreground run/exec whose process has a pty and
 * no --console-socket (as runc and crun do): ward's stdin goes to the
 * container's terminal, its output to ward's stdout, ward's own terminal
 * (if stdin is one) is raw meanwhile so that keys such as ^C reach the
 * container's line discipline, and window-size changes follow. */
struct relay {
	int master;
	bool in_open, master_open, raw;
	struct termios saved;
	char in[4096]; /* read from stdin, not yet taken by the pty */
	size_t in_len, in_off;
};

/* Ward's window size (stdin's, else stdout's) onto the container's pty; the
 * kernel then sends SIGWINCH to the container's foreground group. */
static void relay_winsize(const struct relay *r)
{
	struct winsize ws;

	/* The same size again sends nothing (the kernel compares). */
	if (console_caller_size(&ws) == 0)
		ioctl(r->master, TIOCSWINSZ, &ws);
}

static void relay_begin(struct relay *r, int master)
{
	struct termios raw;

	memset(r, 0, sizeof(*r));
	r->master = master;
	r->master_open = r->in_open = master >= 0;
	if (master < 0)
		return;
	fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);
	relay_winsize(r);
	if (isatty(0) && tcgetattr(0, &r->saved) == 0) {
		raw = r->saved;
		cfmakeraw(&raw);
		r->raw = tcsetattr(0, TCSANOW, &raw) == 0;
	}
}

/* The container's output, as much as is there now. False once the pty has
 * no peer left (EIO) or on another error. */
static bool relay_out(struct relay *r)
{
	char buf[8192];

	for (;;) {
		ssize_t n = read(r->master, buf, sizeof(buf));

		if (n > 0) {
			write_all(1, buf, (size_t)n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		return n < 0 && errno == EAGAIN;
	}
}

static void relay_in(struct relay *r)
{
	ssize_t n = read(0, r->in, sizeof(r->in));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n > 0) {
		r->in_len = (size_t)n;
		r->in_off = 0;
		return;
	}
	/* End of input: the pty's end-of-file character, so that a reader in
	 * the container sees it as on a terminal (^D). */
	r->in_open = false;
	{
		struct termios t;

		if (tcgetattr(r->master, &t) == 0 && t.c_cc[VEOF] != _POSIX_VDISABLE) {
			r->in[0] = (char)t.c_cc[VEOF];
			r->in_len = 1;
			r->in_off = 0;
		}
	}
}

static void relay_push(struct relay *r)
{
	ssize_t n = write(r->master, r->in + r->in_off, r->in_len - r->in_off);

	if (n > 0)
		r->in_off += (size_t)n;
	else if (n < 0 && errno != EAGAIN && errno != EINTR)
		r->in_off = r->in_len; /* the pty is gone: drop it */
	if (r->in_off == r->in_len)
		r->in_len = r->in_off = 0;
}

static void relay_end(struct relay *r)
{
	if (r->master < 0)
		return;
	if (r->master_open)
		relay_out(r); /* what the process wrote before it ended */
	if (r->raw)
		tcsetattr(0, TCSADRAIN, &r->saved);
	close(r->master);
}

int fwd_wait(int pidfd, const sigset_t *set, int master, bool leave_zombie, struct werror *err)
{
	_cleanup_close_ int sfd = signalfd(-1, set, SFD_CLOEXEC);
	struct relay r;
	siginfo_t si = {0};

	if (sfd < 0) {
		if (master >= 0)
			close(master);
		return werr(err, errno, "signalfd");
	}
	relay_begin(&r, master);
	for (;;) {
		struct pollfd pfd[4] = {{.fd = pidfd, .events = POLLIN},
		                        {.fd = sfd, .events = POLLIN},
		                        {.fd = -1, .events = POLLIN},
		                        {.fd = -1, .events = POLLIN}};

		if (r.in_open && r.in_len == 0)
			pfd[2].fd = 0;
		if (r.master_open) {
			pfd[3].fd = r.master;
			if (r.in_len)
				pfd[3].events |= POLLOUT;
		}
		if (poll(pfd, 4, -1) < 0) {
			if (errno == EINTR)
				continue;
			relay_end(&r);
			return werr(err, errno, "poll");
		}
		if (pfd[1].revents & POLLIN) {
			struct signalfd_siginfo ssi;

			if (read(sfd, &ssi, sizeof(ssi)) == sizeof(ssi)) {
				if (master >= 0 && ssi.ssi_signo == SIGWINCH)
					relay_winsize(&r);
				else
					pidfd_send_signal(pidfd, (int)ssi.ssi_signo, NULL, 0);
			}
		}
		if (pfd[2].revents)
			relay_in(&r);
		if (pfd[3].revents & POLLOUT)
			relay_push(&r);
		if (pfd[3].revents & (POLLIN | POLLHUP | POLLERR))
			r.master_open = relay_out(&r);
		if (pfd[0].revents & POLLIN)
			break;
	}
	relay_end(&r);
	close(TAKE_FD(sfd));
	while (waitid(P_PIDFD, (id_t)pidfd, &si, WEXITED | (leave_zombie ? WNOWAIT : 0)) < 0)
		if (errno != EINTR)
			return werr(err, errno, "waiting for the process");
	if (si.si_code == CLD_EXITED)
		return si.si_status;
	return 128 + si.si_status;
}
