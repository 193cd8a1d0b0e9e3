/* Starting the supervisor (create's side) and answering the filter until
 * it runs. */
#include "supervisor/supervisor.h"
#include "lib/cleanup.h"
#include "lib/strfmt.h"
#include "supervisor/sup_notify.h"
#include "supervisor/sup_plan.h"
#include "lib/error.h"
#include "lib/trace.h"
#include "lib/fdpass.h"
#include "lib/sigreset.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define READY_TIMEOUT_MS 10000

/* The fds the supervisor starts with (supervisor_main reads them). */
enum {
	SUP_FD_ROOT = 3,
	SUP_FD_INIT,
	SUP_FD_READY,
	SUP_FD_NOTIFY,
	SUP_FD_EG_EVENTS,
	SUP_FD_EG_COUNTERS,
	SUP_FD_EG_ALLOW,
	SUP_FD_EG_PORTS,
	SUP_FD_EXE
};
#define N_FROM (SUP_FD_EXE - SUP_FD_ROOT + 2) /* those, and /dev/null */

/* In the grandchild: the wanted fds at their numbers, nothing else of the
 * caller's (stdio on /dev/null), then the sealed ward binary again. */
static _Noreturn void exec_supervisor(int rootfd, int pidfd, int ready, const struct sup_fds *f,
                                      const char *id)
{
	/* Sources first moved above every target number, so that no dup2
	 * clobbers one still to be placed; the last two are not moved by
	 * number. */
	int from[N_FROM] = {rootfd,
	                    pidfd,
	                    ready,
	                    f->notify,
	                    f->egress_events,
	                    f->egress_counters,
	                    f->egress_allow,
	                    f->egress_ports,
	                    open("/proc/self/exe", O_RDONLY | O_CLOEXEC),
	                    open("/dev/null", O_RDWR | O_CLOEXEC)};
	int high[N_FROM];
	char *argv[] = {SUPERVISOR_ARGV0, (char *)id, NULL};
	char *envp[5] = {"PATH=/usr/sbin:/usr/bin:/sbin:/bin", NULL, NULL, NULL};
	int ne = 1;

	if (from[N_FROM - 2] < 0 || from[N_FROM - 1] < 0)
		_exit(127);
	for (int i = 0; i < N_FROM; i++)
		if (from[i] >= 0 && (high[i] = fcntl(from[i], F_DUPFD_CLOEXEC, 64)) < 0)
			_exit(127);
	for (int i = 0; i < SUP_FD_EXE - SUP_FD_ROOT; i++)
		if (from[i] >= 0 ? dup2(high[i], SUP_FD_ROOT + i) < 0
		                 : (close(SUP_FD_ROOT + i), false))
			_exit(127);
	if (dup2(high[N_FROM - 1], 0) < 0 || dup2(high[N_FROM - 1], 1) < 0 ||
	    dup2(high[N_FROM - 1], 2) < 0)
		_exit(127);
	/* The binary (the sealed copy create runs from) just above them, and
	 * nothing else of the caller's. */
	if (dup3(high[N_FROM - 2], SUP_FD_EXE, O_CLOEXEC) < 0 ||
	    syscall(SYS_close_range, SUP_FD_EXE + 1, ~0U, 0) < 0)
		_exit(127);
	if (f->notify >= 0)
		envp[ne++] = "WARD_SUPERVISOR_NOTIFY=1";
	if (f->egress_events >= 0 && f->egress_counters >= 0)
		envp[ne++] = "WARD_SUPERVISOR_EGRESS=1";
	if (f->egress_allow >= 0 && f->egress_ports >= 0)
		envp[ne++] = "WARD_SUPERVISOR_GATE=1";
	syscall(SYS_execveat, SUP_FD_EXE, "", argv, envp, AT_EMPTY_PATH);
	_exit(127);
}

/* create may have joined a config's pid namespace for its children (the
 * init): the supervisor must be in ward's own, where the container can
 * neither see nor signal it. Only when it was: setns wants CAP_SYS_ADMIN
 * in the user namespace we are in, which a rootless ward (in the
 * container's) lacks. */
static int own_pidns_for_children(struct werror *err)
{
	struct stat own, kids;
	_cleanup_close_ int ns = -1;

	if (stat("/proc/self/ns/pid", &own) == 0 &&
	    stat("/proc/self/ns/pid_for_children", &kids) == 0 && own.st_ino == kids.st_ino &&
	    own.st_dev == kids.st_dev)
		return 0;
	ns = open("/proc/self/ns/pid", O_RDONLY | O_CLOEXEC);
	if (ns < 0 || setns(ns, CLONE_NEWPID) < 0)
		return werr(err, errno, "the supervisor's pid namespace");
	return 0;
}

int sup_spawn(int rootfd, int dirfd, const char *id, int init_pidfd, const struct sup_fds *fds,
              const struct sup_plan *plan, struct sup_proc *out, struct werror *err)
{
	int p[2];
	pid_t mid;
	_cleanup_close_ int pidfd = -1;
	int status;
	char msg[SUP_READY_MAX];
	ssize_t n = 0;
	struct pollfd pfd;

	out->pidfd = -1;
	if (sup_plan_write(dirfd, plan, err) < 0)
		return -1;
	if (own_pidns_for_children(err) < 0)
		return -1;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, p) < 0)
		return werr(err, errno, "the supervisor's channel");
	mid = fork();
	if (mid < 0) {
		close(p[0]);
		close(p[1]);
		return werr(err, errno, "forking the supervisor");
	}
	if (mid == 0) {
		pid_t g;

		/* A session of its own, then the grandchild: its parent becomes the
		 * caller's subreaper (the shim, conmon) or pid 1, never the init's. */
		close(p[0]);
		/* Nothing the caller ignored or blocked (a foreground run blocks
		 * what it forwards) may reach the supervisor's signalfd. */
		sig_reset_default();
		if (setsid() < 0)
			_exit(127);
		g = fork();
		if (g < 0)
			_exit(127);
		if (g == 0)
			exec_supervisor(rootfd, init_pidfd, p[1], fds, id);
		/* Its pidfd, opened while it is our child (its pid cannot be
		 * reused before it is reaped): create never signals a pid. */
		int gfd = (int)syscall(SYS_pidfd_open, g, 0);

		_exit(gfd >= 0 && fdpass_send(p[1], "P", 1, gfd) == 0 ? 0 : 127);
	}
	close(p[1]);
	while (waitpid(mid, &status, 0) < 0 && errno == EINTR)
		;
	trace_mark("create: supervisor forked");
	if (fdpass_recv(p[0], msg, 1, &pidfd) != 1 || pidfd < 0) {
		close(p[0]);
		return werr(err, 0, "the run supervisor did not start (fork failed)");
	}
	/* "R<pid> <guard pid>" when it is ready, else the reason it gave up. */
	pfd = (struct pollfd){.fd = p[0], .events = POLLIN};
	if (poll(&pfd, 1, READY_TIMEOUT_MS) == 1)
		n = read(p[0], msg, sizeof(msg) - 1);
	close(p[0]);
	trace_mark("create: supervisor ready");
	msg[n > 0 ? n : 0] = '\0';
	if (n > 1 && msg[0] == 'R' && sscanf(msg + 1, "%d %d", &out->pid, &out->guard) == 2) {
		out->pidfd = TAKE_FD(pidfd);
		return 0;
	}
	/* (Its guard, if it got that far, sees it die and ends too.) */
	syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0);
	if (n > 1 && msg[0] == 'E')
		return werr(err, 0, "the run supervisor did not start: %s", msg + 1);
	return werr(err, 0, "the run supervisor did not start (it exited or did not answer)");
}

int sup_answer_until(int fd, int notify_fd, int errno_ret, struct werror *err)
{
	struct pollfd pfd[2] = {{.fd = fd, .events = POLLIN}, {.fd = notify_fd, .events = POLLIN}};

	for (;;) {
		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return werr(err, errno, "waiting for the container's init");
		}
		if (pfd[0].revents)
			return 0;
		if ((pfd[1].revents & POLLIN) &&
		    sup_notify_handle(notify_fd, errno_ret, NULL, err) < 0)
			return -1;
		if (pfd[1].revents & (POLLHUP | POLLERR | POLLNVAL))
			pfd[1].fd = -1;
	}
}

int sup_hand_listener(int dirfd, int notify_fd, struct werror *err)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	struct pollfd pfd;
	char b = 0;
	_cleanup_close_ int sock = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);

	if (sock < 0 ||
	    fmt_fit(sa.sun_path, sizeof(sa.sun_path), "/proc/self/fd/%d/%s", dirfd,
	            SUP_SOCKET_FILE) < 0 ||
	    connect(sock, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    fdpass_send(sock, "L", 1, notify_fd) < 0)
		return werr(err, errno, "handing the seccomp listener to the run supervisor");
	pfd = (struct pollfd){.fd = sock, .events = POLLIN};
	if (poll(&pfd, 1, READY_TIMEOUT_MS) == 1 && read(sock, &b, 1) == 1 && b == 'K')
		return 0;
	return werr(err, 0, "the run supervisor did not take the seccomp listener");
}
