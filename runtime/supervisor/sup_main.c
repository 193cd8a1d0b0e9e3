/* The supervisor process: `ward-supervisor <id>`, started by sup_spawn
 * with fd 3 the state root, 4 a pidfd of the container's init, 5 the pipe
 * that says it is ready, 6 the seccomp listener (WARD_SUPERVISOR_NOTIFY=1).
 *
 * Events: SIGUSR1 from `ward start` (the user process runs: the deadline
 * starts), the deadline (SIGTERM to the init, then after the grace the
 * whole cgroup is killed), a denied syscall (answered, recorded), the
 * init's exit (figures, exit status, report, done). SIGTERM/SIGINT/SIGHUP
 * and the guard's death end it the fail-closed way: the container is
 * killed first. */
#include "supervisor/supervisor.h"
#include "lib/cleanup.h"
#include "lib/strfmt.h"
#include "supervisor/sup_notify.h"
#include "supervisor/sup_egress.h"
#include "supervisor/sup_gate.h"
#include "supervisor/sup_pasta.h"
#include "supervisor/sup_plan.h"
#include "supervisor/sup_report.h"
#include "cgroup/cgroup.h"
#include "lib/fileio.h"
#include "lib/error.h"
#include "lib/fdpass.h"
#include "lib/log.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum {
	FD_ROOT = 3,
	FD_INIT,
	FD_READY,
	FD_NOTIFY,
	FD_EG_EVENTS,
	FD_EG_COUNTERS,
	FD_EG_ALLOW,
	FD_EG_PORTS
};

/* PIDFD_GET_INFO (Linux 6.15): a pidfd's exit status, once the process
 * has been reaped (by the engine, or by a foreground `ward run`). The
 * first version of the struct is enough. */
struct pidfd_info_v0 {
	uint64_t mask, cgroupid;
	uint32_t pid, tgid, ppid, ruid, rgid, euid, egid, suid, sgid, fsuid, fsgid;
	int32_t exit_code;
};
#define PIDFD_GET_INFO_V0 _IOWR(0xFF, 11, struct pidfd_info_v0)
#define PIDFD_INFO_EXIT_  (1ULL << 3)

#define EXIT_TRIES 10 /* 20 ms apart: the init between exit and zombie */

#define MAX_LISTENERS 64 /* the init's and exec'd processes' filters */

struct sup {
	const char *id;
	int dirfd, pidfd, sigfd, timer, guard, handover;
	int notify[MAX_LISTENERS];
	int n_notify;
	pid_t guard_pid;
	struct sup_plan plan;
	struct cgroup cg;
	bool have_cg;
	struct run_result res;
	struct denied_log *denied;
	struct egress_log *egress; /* NULL: no egress programs handed over */
	int egress_fd;             /* its ring buffer's, to poll */
	struct gate_log *gate;     /* the DNS gate's records (net/dns_gate.h) */
	struct sup_pasta pasta;    /* the container's network, run by hand */
	struct timespec t0;        /* create: the wall time and the deadline count from it */
	int phase;                 /* 0 no deadline armed, 1 armed, 2 SIGTERM sent, 3 killed */
};

static long long ms_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t0->tv_sec) * 1000LL + (now.tv_nsec - t0->tv_nsec) / 1000000;
}

static void arm(int timer, long long ms)
{
	struct itimerspec it = {
	    .it_value = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000}};

	timerfd_settime(timer, 0, &it, NULL);
}

static void kill_container(struct sup *s, struct werror *err)
{
	if (s->have_cg)
		cgroup_signal_all(&s->cg, SIGKILL, err);
	syscall(SYS_pidfd_send_signal, s->pidfd, SIGKILL, NULL, 0);
}

/* The deadline: SIGTERM first (an init in its own pid namespace ignores
 * it unless it handles it), the whole cgroup after the grace period. */
static void deadline(struct sup *s, struct werror *err)
{
	if (s->phase == 1) {
		s->res.timed_out = true;
		syscall(SYS_pidfd_send_signal, s->pidfd, SIGTERM, NULL, 0);
		s->phase = 2;
		arm(s->timer, s->plan.grace_ms);
	} else if (s->phase == 2) {
		s->res.killed_after_grace = true;
		kill_container(s, err);
		s->phase = 3;
	}
}

/* What the supervisor keeps of root: CAP_KILL in effect (the container's
 * processes may belong to an unprivileged host uid), and CAP_SYS_PTRACE
 * only permitted, raised for the one read of a zombie's exit status (a
 * ptrace-read check). Its files (state dir, cgroups, reports) are root's
 * own; no_new_privs on top. The guard inherits both. */
static int set_caps(bool ptrace_read, struct werror *err)
{
	struct __user_cap_header_struct h = {.version = _LINUX_CAPABILITY_VERSION_3};
	struct __user_cap_data_struct d[2] = {{0}};

	d[0].permitted = 1U << CAP_KILL | 1U << CAP_SYS_PTRACE;
	d[0].effective = 1U << CAP_KILL | (ptrace_read ? 1U << CAP_SYS_PTRACE : 0);
	return syscall(SYS_capset, &h, d) < 0 ? werr(err, errno, "setting capabilities") : 0;
}

static int drop_privileges(struct werror *err)
{
	if (set_caps(false, err) < 0)
		return -1;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return werr(err, errno, "PR_SET_NO_NEW_PRIVS");
	return 0;
}

/* A zombie's wait status: field 52 of /proc/PID/stat (Linux ≥ 3.5). The
 * pidfd pins the pid, so this is the init's until it is reaped. */
static int zombie_status(pid_t pid, int *status, struct werror *err)
{
	char path[64], buf[1024], *p;
	ssize_t n;
	_cleanup_close_ int fd = -1;
	int field = 3;

	if (pid <= 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	/* Without ptrace-read access the kernel shows the status as 0. */
	if (set_caps(true, err) < 0)
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	set_caps(false, err);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* The command name may hold anything: fields start after its ')'. */
	p = strrchr(buf, ')');
	if (p == NULL || p[1] != ' ' || p[2] != 'Z')
		return -1;
	for (p += 2; *p && field < 52; p++)
		if (*p == ' ')
			field++;
	if (field != 52 || *p == '\0')
		return -1;
	*status = atoi(p);
	return 0;
}

/* The init's wait status: from the kernel's pidfd once it is reaped (Linux
 * 6.15's PIDFD_INFO_EXIT), or from /proc while it is a zombie (no reaper
 * needs to have run: ward create's init is an orphan). */
static void exit_status(struct sup *s, struct werror *err)
{
	int status = -1;

	for (int tries = 0; tries < EXIT_TRIES; tries++) {
		struct pidfd_info_v0 info = {.mask = PIDFD_INFO_EXIT_};
		int r = ioctl(s->pidfd, PIDFD_GET_INFO_V0, &info);

		if (r == 0 && (info.mask & PIDFD_INFO_EXIT_)) {
			status = info.exit_code;
			break;
		}
		if (zombie_status(r == 0 ? (pid_t)info.pid : sup_pidfd_pid(s->pidfd), &status,
		                  err) == 0)
			break;
		usleep(20000);
	}
	if (status < 0) {
		s->res.exit = RUN_EXIT_UNKNOWN;
		s->res.exit_why = "its reaper took it and this kernel (< 6.15) keeps no status for "
		                  "others";
	} else if (WIFSIGNALED(status)) {
		s->res.exit = RUN_SIGNALED;
		s->res.exit_signal = WTERMSIG(status);
	} else {
		s->res.exit = RUN_EXITED;
		s->res.exit_code = WEXITSTATUS(status);
	}
}

static int finish(struct sup *s, const char *how, bool guard, struct werror *err)
{
	s->res.wall_ms = ms_since(&s->t0);
	log_timestamp(s->res.ended, sizeof(s->res.ended));
	if (s->have_cg) {
		cgroup_figures(&s->cg, &s->res.fig, err);
		s->res.have_fig = true;
	}
	exit_status(s, err);
	if (s->egress)
		sup_egress_close(s->egress);
	if (s->gate)
		sup_gate_stop(s->gate);
	if (!guard)
		sup_pasta_stop(&s->pasta);
	s->res.supervisor_end = how;
	/* The guard's word that this was no death (the init is gone by now,
	 * whatever becomes of the report). */
	if (!guard && write(s->guard, "d", 1) != 1)
		log_debug("supervisor: the guard is gone");
	return sup_report_write(&s->res, err);
}

/* The guard: when the supervisor dies (its pipe ends without the word),
 * the container dies too, and the state dir and the report say why (the
 * report from what the guard knows: no denials after its fork). */
static _Noreturn void guard(struct sup *s, int rfd, struct werror *err)
{
	const char why[] = "the run supervisor died: the container was killed";
	sigset_t all;
	char b = 0;
	ssize_t n;
	int fd;

	prctl(PR_SET_NAME, "ward-sup-guard", 0, 0, 0);
	sigfillset(&all);
	sigprocmask(SIG_UNBLOCK, &all, NULL);
	close(FD_READY);
	close(FD_EG_EVENTS);
	close(FD_EG_COUNTERS);
	close(s->sigfd);
	close(s->timer);
	close(s->handover);
	/* The gate is the supervisor's child, not the guard's: it ends with
	 * the supervisor (its parent death signal), never signalled here. */
	if (s->gate && s->gate->chan >= 0)
		close(s->gate->chan);
	if (s->gate)
		s->gate->chan = s->gate->pid = -1;
	for (int i = 0; i < s->n_notify; i++)
		close(s->notify[i]);
	do
		n = read(rfd, &b, 1);
	while (n < 0 && errno == EINTR);
	if (n == 1 && b == 'd')
		_exit(0);
	kill_container(s, err);
	/* pasta is the supervisor's child: by its pidfd, never a pid. */
	if (s->pasta.pidfd >= 0)
		syscall(SYS_pidfd_send_signal, s->pasta.pidfd, SIGKILL, NULL, 0);
	fd = openat(s->dirfd, SUP_DIED_FILE, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
	            0600);
	if (fd >= 0) {
		if (write(fd, why, sizeof(why) - 1) < 0)
			_exit(1);
		close(fd);
	}
	s->res.started[0] = '\0';
	_exit(finish(s, why, true, err) < 0 ? 1 : 0);
}

/* The socket exec hands its process's listener to (supervisor.sock in
 * the state dir: root's, 0700; bound through the dir's fd, so that a long
 * state root path does not matter). */
static int open_handover(struct sup *s, struct werror *err)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};

	if (fmt_fit(sa.sun_path, sizeof(sa.sun_path), "/proc/self/fd/%d/%s", s->dirfd,
	            SUP_SOCKET_FILE) < 0)
		return werr(err, errno, "the supervisor's socket name");
	unlinkat(s->dirfd, SUP_SOCKET_FILE, 0);
	s->handover = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (s->handover < 0 || bind(s->handover, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(s->handover, 16) < 0)
		return werr(err, errno, "the supervisor's socket");
	return 0;
}

/* One exec'd process's listener: from root only, then answered like the
 * init's. */
static void take_listener(struct sup *s)
{
	struct pollfd pfd;
	struct ucred cr;
	socklen_t len = sizeof(cr);
	char b;
	_cleanup_close_ int fd = -1, c = accept4(s->handover, NULL, NULL, SOCK_CLOEXEC);

	if (c < 0)
		return;
	pfd = (struct pollfd){.fd = c, .events = POLLIN};
	if (getsockopt(c, SOL_SOCKET, SO_PEERCRED, &cr, &len) == 0 && cr.uid == 0 &&
	    poll(&pfd, 1, 2000) == 1 && fdpass_recv(c, &b, 1, &fd) == 1 && fd >= 0 &&
	    s->n_notify < MAX_LISTENERS) {
		s->notify[s->n_notify++] = TAKE_FD(fd);
		if (write(c, "K", 1) != 1)
			log_debug("supervisor: exec's peer left before the answer");
	}
}

static void drop_listener(struct sup *s, int i)
{
	close(s->notify[i]);
	s->notify[i] = s->notify[--s->n_notify];
}

/* The cgroup record create left in the state dir; *absent when there is
 * none. */
static ssize_t read_record(int dirfd, char *rec, size_t size, bool *absent, struct werror *err)
{
	_cleanup_close_ int fd = openat(dirfd, "cgroup", O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	*absent = fd < 0 && errno == ENOENT;
	if (fd < 0 || read_fd_into(fd, "the cgroup record", rec, size, NULL, err) != 0)
		return -1;
	return (ssize_t)strlen(rec);
}

static int setup(struct sup *s, struct werror *err)
{
	char rec[PATH_MAX * 2 + 4];
	int p[2];
	bool no_record;
	ssize_t n;
	sigset_t set;

	s->dirfd = openat(FD_ROOT, s->id, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (s->dirfd < 0)
		return werr(err, errno, "state of \"%s\"", s->id);
	if (sup_plan_read(s->dirfd, &s->plan, err) < 0)
		return -1;
	n = read_record(s->dirfd, rec, sizeof(rec), &no_record, err);
	if (n > 0)
		s->have_cg = cgroup_from_record(&s->cg, rec, s->id, err) == 0;
	/* No record at all: a rootless container create made without a
	 * cgroup (none delegated); the figures then come without the
	 * cgroup's, and killing the init ends its pid namespace. */
	if (!s->have_cg && !no_record)
		return werr_ctx(err, "the container's cgroup");
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGPIPE);
	sigprocmask(SIG_BLOCK, &set, NULL);
	sigdelset(&set, SIGPIPE);
	s->sigfd = signalfd(-1, &set, SFD_CLOEXEC);
	s->timer = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	if (s->sigfd < 0 || s->timer < 0)
		return werr(err, errno, "signalfd/timerfd");
	/* pasta and the DNS gate enter the container's network namespace:
	 * started while this process may still do that; pasta first (the
	 * gate's upstream is its DNS forwarding address). */
	if (s->plan.pasta && sup_pasta_start(&s->pasta, FD_INIT, s->plan.pasta_dns, err) < 0)
		return -1;
	s->gate = calloc(1, sizeof(*s->gate));
	if (s->gate == NULL)
		return werr(err, ENOMEM, "out of memory");
	s->res.gate = s->gate;
	if (sup_gate_start(s->gate, s->dirfd, FD_INIT,
	                   getenv("WARD_SUPERVISOR_GATE") ? FD_EG_ALLOW : -1,
	                   getenv("WARD_SUPERVISOR_GATE") ? FD_EG_PORTS : -1, err) < 0)
		return -1;
	if (drop_privileges(err) < 0)
		return -1;
	s->denied = calloc(1, sizeof(*s->denied));
	if (s->denied == NULL)
		return werr(err, ENOMEM, "out of memory");
	s->res.dirfd = s->dirfd;
	s->res.denied = s->denied;
	if (open_handover(s, err) < 0)
		return -1;
	if (pipe2(p, O_CLOEXEC) < 0)
		return werr(err, errno, "the guard's pipe");
	s->guard_pid = fork();
	if (s->guard_pid < 0)
		return werr(err, errno, "forking the guard");
	if (s->guard_pid == 0) {
		close(p[1]);
		guard(s, p[0], err);
	}
	close(p[0]);
	s->guard = p[1];
	return 0;
}

/* One pass of the event loop; 1 when the supervisor's work is done. */
static int on_signal(struct sup *s, const char **how, struct werror *err)
{
	struct signalfd_siginfo si;

	if (read(s->sigfd, &si, sizeof(si)) != sizeof(si))
		return 0;
	switch (si.ssi_signo) {
	case SIGUSR1:
		if (s->res.started[0] == '\0')
			log_timestamp(s->res.started, sizeof(s->res.started));
		return 0;
	case SIGCHLD:
		if (waitpid(s->guard_pid, NULL, WNOHANG) != s->guard_pid)
			return 0;
		*how = "the guard died: the container was killed";
		break;
	default:
		*how = "the supervisor was stopped by a signal: the container was killed";
	}
	kill_container(s, err);
	return 1;
}

/* The gate's records; 1 when it ended while the container runs: the
 * addresses it granted would stay allowed past their time (only the gate
 * holds the allow map), so the container is killed (fail closed). */
static int gate_gone(struct sup *s, const char **how, struct werror *err)
{
	sup_gate_read(s->gate);
	if (s->gate->chan >= 0)
		return 0;
	*how = "the DNS gate died: the container was killed";
	kill_container(s, err);
	return 1;
}

/* The egress programs' maps, when create handed them over (net/egress_bpf.h):
 * their refusals are read as they come. */
static int egress_setup(struct sup *s, struct werror *err)
{
	if (getenv("WARD_SUPERVISOR_EGRESS") == NULL)
		return 0;
	s->egress = calloc(1, sizeof(*s->egress));
	if (s->egress == NULL)
		return werr(err, ENOMEM, "out of memory");
	s->res.egress = s->egress;
	s->egress_fd = sup_egress_open(s->egress, FD_EG_EVENTS, FD_EG_COUNTERS, err);
	return s->egress_fd < 0 ? -1 : 0;
}

/* Tell create how the set-up went ("E<message>", cut to what the
 * channel carries, or "R<pid> <guard pid>"). */
static int say_ready(const struct sup *s, const struct werror *failed)
{
	char msg[SUP_READY_MAX];
	int n = failed ? snprintf(msg, sizeof(msg), "E%s", werr_msg(failed))
	               : snprintf(msg, sizeof(msg), "R%d %d", (int)getpid(), (int)s->guard_pid);

	if (n >= (int)sizeof(msg)) {
		n = (int)sizeof(msg) - 1;
		memcpy(msg + n - 5, "[...]", 5);
	}
	return write(FD_READY, msg, (size_t)n) == n ? 0 : -1;
}

/* One round of the event loop: true once the init is gone (or the loop
 * must end: *how says why). */
static bool sup_round(struct sup *s, const char **how, struct werror *err)
{
	struct pollfd pfd[6 + MAX_LISTENERS] = {
	    {.fd = s->pidfd, .events = POLLIN},     {.fd = s->sigfd, .events = POLLIN},
	    {.fd = s->timer, .events = POLLIN},     {.fd = s->handover, .events = POLLIN},
	    {.fd = s->egress_fd, .events = POLLIN}, {.fd = s->gate->chan, .events = POLLIN}};
	int n = s->n_notify;
	bool gone = false;

	for (int i = 0; i < n; i++)
		pfd[6 + i] = (struct pollfd){.fd = s->notify[i], .events = POLLIN};
	if (poll(pfd, (nfds_t)(6 + n), -1) < 0) {
		if (errno == EINTR)
			return false;
		/* Nothing would enforce the limit any more: fail closed. */
		*how = "the supervisor's event loop failed: the container was killed";
		kill_container(s, err);
		return true;
	}
	/* Backwards: dropping one moves the last into its place. */
	for (int i = n - 1; i >= 0; i--) {
		if (pfd[6 + i].revents & POLLIN)
			sup_notify_handle(s->notify[i], s->plan.errno_ret,
			                  s->plan.record_denied ? s->denied : NULL, err);
		else if (pfd[6 + i].revents & (POLLHUP | POLLERR | POLLNVAL))
			drop_listener(s, i);
	}
	if (pfd[4].revents & POLLIN)
		sup_egress_drain(s->egress);
	if (pfd[5].revents && gate_gone(s, how, err))
		gone = true;
	if (pfd[3].revents & POLLIN)
		take_listener(s);
	if (pfd[2].revents & POLLIN) {
		uint64_t ticks;

		if (read(s->timer, &ticks, sizeof(ticks)) == sizeof(ticks))
			deadline(s, err);
	}
	if ((pfd[1].revents & POLLIN) && on_signal(s, how, err) == 1)
		gone = true;
	return gone || (pfd[0].revents & POLLIN);
}

int supervisor_main(int argc, char **argv, struct werror *err)
{
	struct sup s = {.pidfd = FD_INIT,
	                .guard = -1,
	                .dirfd = -1,
	                .handover = -1,
	                .egress_fd = -1,
	                .pasta = {-1, -1}};
	const char *how = "normally";

	prctl(PR_SET_NAME, SUPERVISOR_ARGV0, 0, 0, 0);
	if (argc != 2) {
		fprintf(stderr, "ward-supervisor is started by ward create\n");
		return 2;
	}
	s.id = argv[1];
	if (getenv("WARD_SUPERVISOR_NOTIFY"))
		s.notify[s.n_notify++] = FD_NOTIFY;
	clock_gettime(CLOCK_MONOTONIC, &s.t0);
	log_timestamp(s.res.created, sizeof(s.res.created));
	s.res.id = s.id;
	s.res.plan = &s.plan;
	s.res.dirfd = -1;
	if (setup(&s, err) < 0 || egress_setup(&s, err) < 0) {
		sup_pasta_stop(&s.pasta);
		(void)say_ready(&s, err);
		return 1;
	}
	/* The limit counts from create: exec'd processes may run before (or
	 * without) a start. */
	if (s.plan.timeout_ms > 0) {
		s.phase = 1;
		arm(s.timer, s.plan.timeout_ms);
	}
	if (say_ready(&s, NULL) < 0)
		return 1;
	close(FD_READY);
	while (!sup_round(&s, &how, err))
		;
	/* With a wall-clock limit nothing outlives the init: processes of the
	 * cgroup outside its pid namespace (a joined one, or the host's) or
	 * daemons that left it are not let run on unlimited. */
	if (s.plan.timeout_ms > 0)
		kill_container(&s, err);
	/* Denials still queued are answered (unrecorded) by the kernel's
	 * ENOSYS once the listeners close. */
	while (s.n_notify > 0)
		drop_listener(&s, 0);
	close(s.handover);
	unlinkat(s.dirfd, SUP_SOCKET_FILE, 0);
	return finish(&s, how, false, err) < 0 ? 1 : 0;
}
