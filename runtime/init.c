#include "init.h"
#include "error.h"
#include "process.h"
#include "rootfs.h"
#include "seccomp_filter.h"
#include "sync.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

/* A raw clone leaves glibc's cached thread id stale: never raise() or
 * abort() in here. Errors go to the parent, then _exit. */

static void reset_signals(void)
{
	struct sigaction sa = {.sa_handler = SIG_DFL};
	sigset_t all;

	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			sigaction(sig, &sa, NULL);
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
}

static int set_names(const struct oci_config *c)
{
	if (c->hostname && c->hostname[0] && sethostname(c->hostname, strlen(c->hostname)) < 0)
		return werr(errno, "config.json: .hostname \"%s\"", c->hostname);
	if (c->domainname && c->domainname[0] &&
	    setdomainname(c->domainname, strlen(c->domainname)) < 0)
		return werr(errno, "config.json: .domainname \"%s\"", c->domainname);
	return 0;
}

/* Exactly fds 0-2 and 3..3+preserve-1 reach the user process; everything
 * else ward or its caller had open is closed by execve. */
static int seal_fds(int preserve)
{
	for (int fd = 3; fd < 3 + preserve; fd++) {
		int fl = fcntl(fd, F_GETFD);

		if (fl >= 0 && fcntl(fd, F_SETFD, fl & ~FD_CLOEXEC) < 0)
			return werr(errno, "--preserve-fds: fd %d", fd);
	}
	if (close_range(3 + (unsigned int)preserve, ~0U, CLOSE_RANGE_CLOEXEC) < 0)
		return werr(errno, "close_range");
	return 0;
}

/* Install the filter now and, with SCMP_ACT_NOTIFY rules, hand the
 * listener to the parent, which forwards it to the agent. */
static int load_seccomp(const struct init_args *a, bool *loaded)
{
	int nfd = -1;

	if (a->seccomp == NULL || *loaded)
		return 0;
	if (filter_load(a->seccomp, &nfd) < 0)
		return -1;
	*loaded = true;
	if (nfd >= 0) {
		int r = sync_send_fd(a->sync_fd, SYNC_SECCOMP_FD, nfd);

		close(nfd);
		return r;
	}
	return 0;
}

static int setup(const struct init_args *a, char exe[PATH_MAX], bool *seccomp_loaded)
{
	const struct oci_config *c = a->cfg;
	struct rootfs_args ra = {.cfg = c,
	                         .rootfs = a->rootfs,
	                         .bundle = a->bundle,
	                         .no_pivot = a->no_pivot,
	                         .userns = a->userns};
	struct rootfs_handles h = {.rootfd = -1};

	if (rootfs_open(&ra, &h) < 0) {
		rootfs_handles_close(&h);
		return -1;
	}
	/* From here on, files we create belong to the container's root. */
	if (a->userns && (setresgid(0, 0, 0) < 0 || setresuid(0, 0, 0) < 0)) {
		rootfs_handles_close(&h);
		return werr(errno, "becoming root in the user namespace");
	}
	/* Not dumpable: nothing in the container may ptrace us or open our
	 * /proc entries (exe, fd, mem) before execve. */
	if (setsid() < 0 || prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0) {
		rootfs_handles_close(&h);
		return werr(errno, "setsid/PR_SET_DUMPABLE");
	}
	/* Device nodes and mount points get the modes asked for. */
	umask(0);
	if (rootfs_setup(&ra, &h) < 0 || set_names(c) < 0 || process_limits(c->process) < 0 ||
	    process_chdir(c->process) < 0)
		return -1;
	/* Without no_new_privs, loading a filter takes CAP_SYS_ADMIN: load it
	 * while we still have it (the filter then also covers the privilege
	 * drop, as with runc). */
	if (!c->process->no_new_privileges && load_seccomp(a, seccomp_loaded) < 0)
		return -1;
	if (process_credentials(c->process, a->userns) < 0)
		return -1;
	/* Changing credentials cleared the parent-death signal. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
		return werr(errno, "PR_SET_PDEATHSIG");
	if (process_chdir(c->process) < 0 || process_find_exec(c->process, exe) < 0)
		return -1;
	/* A listener must reach the agent through the parent, before READY. */
	if (a->seccomp && a->seccomp->notify && load_seccomp(a, seccomp_loaded) < 0)
		return -1;
	return seal_fds(a->preserve_fds);
}

static _Noreturn void die_after_start(const char *what, const char *why)
{
	char msg[WERR_MAX + 64];
	int len = snprintf(msg, sizeof(msg), "ward: %s: %s\n", what, why);

	/* The creator is gone: stderr is the only way left to say why. */
	if (len > 0 && write(2, msg, (size_t)len) < 0)
		_exit(127);
	_exit(127);
}

_Noreturn void init_run(const struct init_args *a)
{
	bool seccomp_loaded = false;
	char exe[PATH_MAX];
	char b;
	ssize_t n;

	reset_signals();
	/* Until the parent has saved our state, die with it. */
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	if (sync_expect(a->sync_fd, SYNC_MAPPED) < 0)
		_exit(1);
	if (setup(a, exe, &seccomp_loaded) < 0) {
		sync_send_error(a->sync_fd);
		_exit(1);
	}
	if (sync_send(a->sync_fd, SYNC_READY) < 0 || sync_expect(a->sync_fd, SYNC_ACK) < 0)
		_exit(1);
	prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0);
	/* Closing tells the parent it may exit now without taking us along. */
	close(a->sync_fd);

	/* The start channel: `ward start` writes one byte. */
	do
		n = read(a->fifo_fd, &b, 1);
	while (n < 0 && errno == EINTR);
	if (n != 1)
		_exit(1);
	close(a->fifo_fd);
	/* As late as possible: from here on only execve must be allowed. */
	if (!seccomp_loaded && a->seccomp && filter_load(a->seccomp, NULL) < 0)
		die_after_start("seccomp", werr_msg());
	execve(exe, a->cfg->process->args,
	       a->cfg->process->env ? a->cfg->process->env : (char *[]){NULL});
	die_after_start(exe, strerror(errno));
}
