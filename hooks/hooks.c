#include "hooks/hooks.h"
#include "lib/cleanup.h"
#include "lib/xalloc.h"
#include "lib/error.h"
#include "lib/sigreset.h"
#include "lib/log.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <poll.h>
#include <ctype.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <yajl/yajl_gen.h>

#define STDERR_KEEP 512 /* bytes of a failing hook's stderr in the message */

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

static const char *const point_names[HOOK_POINTS] = {
    "prestart", "createRuntime", "createContainer", "startContainer", "poststart", "poststop"};

const char *hooks_point_name(enum oci_hook_point point)
{
	return point_names[point];
}

bool hooks_any(const struct oci_config *c, enum oci_hook_point point)
{
	return c->hooks && c->hooks->point[point].n > 0;
}

bool hooks_create_round(const struct oci_config *c)
{
	return hooks_any(c, HOOK_PRESTART) || hooks_any(c, HOOK_CREATE_RUNTIME) ||
	       hooks_any(c, HOOK_CREATE_CONTAINER) || hooks_any(c, HOOK_START_CONTAINER);
}

static int state_json(const struct oci_state *st, char **out, size_t *len, struct werror *err)
{
	return oci_state_to_json(st, false, out, len, err);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int hooks_pin(struct hook_pins *p, enum oci_hook_point point, size_t index, int fd,
              struct werror *err)
{
	int own = fcntl(fd, F_DUPFD_CLOEXEC, 3);

	if (own < 0)
		return werr(err, errno, "%s hook %zu", point_names[point], index);
	p->v = xreallocarray(p->v, p->n + 1, sizeof(*p->v));
	p->v[p->n++] = (struct hook_pin){point, index, own};
	return 0;
}

void hook_pins_close(struct hook_pins *p)
{
	for (size_t i = 0; i < p->n; i++)
		close(p->v[i].fd);
	free(p->v);
	*p = (struct hook_pins){0};
}

static int pinned(const struct hook_pins *p, enum oci_hook_point point, size_t index)
{
	for (size_t i = 0; p && i < p->n; i++)
		if (p->v[i].point == point && p->v[i].index == index)
			return p->v[i].fd;
	return -1;
}

static _Noreturn void hook_child(const struct oci_hook *h, int file_fd, int in_fd, int err_fd)
{
	char *argv0[] = {h->path, NULL};
	char **argv = h->args ? h->args : argv0, **envp = h->env ? h->env : (char *[]){NULL};

	sig_reset_default();
	if (dup2(in_fd, 0) < 0 || dup2(err_fd, 2) < 0)
		_exit(126);
	/* The hook's stdout goes where ward's goes; nothing else is inherited:
	 * everything of ours is close-on-exec, and so are the fds ward's
	 * caller passed for the container (--preserve-fds). A pinned hook runs
	 * from its fd: the file the policy judged, whatever the path names by
	 * now (a script's interpreter reads it as /dev/fd/N, so that one fd
	 * stays open across the execve). */
	if (file_fd >= 0) {
		int fd = fcntl(file_fd, F_DUPFD, 3);

		if (fd < 0)
			_exit(126);
		if (fd > 3)
			close_range(3, (unsigned)fd - 1, CLOSE_RANGE_CLOEXEC);
		close_range((unsigned)fd + 1, ~0U, CLOSE_RANGE_CLOEXEC);
		execveat(fd, "", argv, envp, AT_EMPTY_PATH);
	} else {
		close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
		execve(h->path, argv, envp);
	}
	dprintf(2, "exec %s: %s", h->path, strerror(errno));
	_exit(127);
}

/* Run one hook to completion or timeout. */
/* One hook's process: its pidfd, and the parent's ends of its stdin (the
 * state) and stderr (kept for the error). */
struct hook_proc {
	int pidfd, in, er;
	const char *feed; /* the state not yet written to stdin */
	size_t feed_left;
};

static void hook_proc_close(struct hook_proc *p)
{
	cleanup_closep(&p->pidfd);
	cleanup_closep(&p->in);
	cleanup_closep(&p->er);
}

/* Fork the hook (hook_child runs it) with pipes for stdin and stderr. */
static int hook_spawn(const struct oci_hook *h, int file_fd, struct hook_proc *p,
                      struct werror *err)
{
	_cleanup_close_ int in0 = -1, er1 = -1;
	int in[2], er[2];
	pid_t pid;

	if (pipe2(in, O_CLOEXEC) < 0)
		return werr(err, errno, "pipe");
	in0 = in[0];
	p->in = in[1];
	if (pipe2(er, O_CLOEXEC | O_NONBLOCK) < 0)
		return werr(err, errno, "pipe");
	p->er = er[0];
	er1 = er[1];
	{
		struct clone_args ca = {.flags = CLONE_PIDFD,
		                        .pidfd = (uint64_t)(uintptr_t)&p->pidfd,
		                        .exit_signal = SIGCHLD};

		pid = (pid_t)syscall(SYS_clone3, &ca, sizeof(ca));
		/* startContainer hooks run under the container's filter, which
		 * may deny clone3 (Docker's profile answers ENOSYS): the older
		 * clone takes CLONE_PIDFD too (parent_tid third, as on x86-64
		 * and arm64). */
		if (pid < 0 && (errno == ENOSYS || errno == EPERM))
			pid = (pid_t)syscall(SYS_clone, CLONE_PIDFD | SIGCHLD, 0, &p->pidfd, 0, 0);
	}
	if (pid < 0)
		return werr(err, errno, "clone");
	if (pid == 0)
		hook_child(h, file_fd, in0, er1);
	return 0;
}

/* The state on the hook's stdin, then EOF, written as the pipe takes it
 * (hook_wait polls for room): a state larger than the pipe buffer (large
 * annotations) reaches the hook whole, as runc gives it. A hook that does
 * not read it cannot block us (non-blocking writes, its exit ends the
 * feed), and one that exits first gives EPIPE, not our death. */
static void hook_feed(const struct oci_hook *h, struct hook_proc *p)
{
	struct sigaction ign = {.sa_handler = SIG_IGN}, old;

	sigaction(SIGPIPE, &ign, &old);
	while (p->feed_left > 0) {
		ssize_t n = write(p->in, p->feed, p->feed_left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n < 0) {
			if (errno != EPIPE)
				log_debug("hook %s: writing state: %s", h->path, strerror(errno));
			p->feed_left = 0;
			break;
		}
		p->feed += n;
		p->feed_left -= (size_t)n;
	}
	sigaction(SIGPIPE, &old, NULL);
	if (p->feed_left == 0)
		cleanup_closep(&p->in);
}

/* Keep the last bytes of stderr: that is where the reason usually is. */
static void tail_add(char *tail, size_t size, size_t *len, const char *buf, ssize_t got)
{
	for (ssize_t i = 0; i < got; i++) {
		if (*len + 1 >= size) {
			memmove(tail, tail + 1, *len - 1);
			(*len)--;
		}
		tail[(*len)++] = buf[i];
	}
	tail[*len] = '\0';
}

/* Until the hook ends (stderr read meanwhile), or its timeout kills it. */
static int hook_wait(const struct oci_hook *h, struct hook_proc *p, char *tail, size_t tail_size,
                     siginfo_t *si, struct werror *err)
{
	long long deadline = h->has_timeout ? now_ms() + (long long)h->timeout * 1000 : -1;
	size_t tail_len = 0;

	for (;;) {
		struct pollfd pf[3] = {{.fd = p->pidfd, .events = POLLIN},
		                       {.fd = p->er, .events = POLLIN},
		                       {.fd = p->in, .events = POLLOUT}};
		int timeout = -1, n;

		if (deadline >= 0) {
			long long left = deadline - now_ms();

			if (left <= 0) {
				pidfd_send_signal(p->pidfd, SIGKILL, NULL, 0);
				waitid(P_PIDFD, (id_t)p->pidfd, si, WEXITED);
				return werr(err, 0, "timed out after %d s (killed)", h->timeout);
			}
			timeout = (int)left;
		}
		n = poll(pf, 3, timeout);
		if (n < 0 && errno != EINTR)
			return werr(err, errno, "poll");
		if (n > 0 && (pf[1].revents & (POLLIN | POLLHUP))) {
			char buf[512];
			ssize_t got = read(p->er, buf, sizeof(buf));

			tail_add(tail, tail_size, &tail_len, buf, got);
			if (got == 0)
				close(TAKE_FD(p->er));
		}
		if (n > 0 && (pf[2].revents & (POLLOUT | POLLERR | POLLHUP)))
			hook_feed(h, p);
		if (n > 0 && (pf[0].revents & POLLIN))
			break;
	}
	cleanup_closep(&p->in);
	if (waitid(P_PIDFD, (id_t)p->pidfd, si, WEXITED) < 0)
		return werr(err, errno, "waiting for the hook");
	return 0;
}

static int run_one(const struct oci_hook *h, int file_fd, const char *json, size_t json_len,
                   char *tail, size_t tail_size, struct werror *err)
{
	__attribute__((cleanup(hook_proc_close))) struct hook_proc p = {-1, -1, -1, NULL, 0};
	siginfo_t si = {0};
	char name[64];

	tail[0] = '\0';
	if (hook_spawn(h, file_fd, &p, err) < 0)
		return -1;
	fcntl(p.in, F_SETFL, O_NONBLOCK);
	p.feed = json;
	p.feed_left = json_len;
	hook_feed(h, &p);
	if (hook_wait(h, &p, tail, tail_size, &si, err) < 0)
		return -1;
	if (si.si_code == CLD_EXITED && si.si_status == 0)
		return 0;
	if (si.si_code == CLD_EXITED)
		return werr(err, 0, "exit status %d", si.si_status);
	/* In the words Go prints them (runc's output): "bad system call". */
	snprintf(name, sizeof(name), "%s", strsignal(si.si_status));
	name[0] = (char)tolower((unsigned char)name[0]);
	return werr(err, 0, "killed by signal %d (%s)", si.si_status, name);
}

static int run_point(const struct oci_config *c, enum oci_hook_point point,
                     const struct oci_state *st, const struct hook_pins *pins, bool stop_on_error,
                     struct werror *err)
{
	const struct oci_hook_list *l = &c->hooks->point[point];
	char errbuf[STDERR_KEEP + 1];
	char *json;
	size_t len;
	int failed = 0;

	if (state_json(st, &json, &len, err) < 0)
		return -1;
	for (size_t i = 0; i < l->n; i++) {
		const struct oci_hook *h = &l->hooks[i];

		log_debug("running %s hook %zu: %s", point_names[point], i, h->path);
		if (run_one(h, pinned(pins, point, i), json, len, errbuf, sizeof(errbuf), err) == 0)
			continue;
		for (size_t el = strlen(errbuf); el > 0 && errbuf[el - 1] == '\n';)
			errbuf[--el] = '\0';
		werr_ctx(err, "%s hook %zu (%s)", point_names[point], i, h->path);
		if (errbuf[0]) {
			_cleanup_free_ char *msg =
			    xasprintf("%s; stderr: %s", werr_msg(err), errbuf);

			werr_set(err, werr_kind_of(err), werr_errno(err), msg);
		}
		failed++;
		if (stop_on_error)
			break;
		log_warn("%s", werr_msg(err));
	}
	free(json);
	return stop_on_error ? (failed ? -1 : 0) : failed;
}

int hooks_run(const struct oci_config *c, enum oci_hook_point point, const struct oci_state *st,
              const struct hook_pins *pins, struct werror *err)
{
	return hooks_any(c, point) ? run_point(c, point, st, pins, true, err) : 0;
}

int hooks_run_logged(const struct oci_config *c, enum oci_hook_point point,
                     const struct oci_state *st)
{
	/* Each failure is logged where it happens: nobody's error. */
	_cleanup_werror_ struct werror logged = WERROR_INIT;

	return hooks_any(c, point) ? run_point(c, point, st, NULL, false, &logged) : 0;
}
