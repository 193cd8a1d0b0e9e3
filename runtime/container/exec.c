#include "container/exec.h"
#include "rootless/rootless.h"
#include "cgroup/cgroup.h"
#include "linux/console.h"
#include "container/container.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "lib/trace.h"
#include "lib/fileio.h"
#include "lib/sigreset.h"
#include "lib/log.h"
#include "linux/process.h"
#include "linux/process_attrs.h"
#include "container/proc.h"
#include "seccomp/seccomp_filter.h"
#include "seccomp/seccomp_notify.h"
#include "container/protocol.h"
#include "container/waitfwd.h"
#include "supervisor/sup_plan.h"
#include "supervisor/supervisor.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/pidfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

struct exec_child {
	const struct exec_opts *o;
	const struct filter_prog *seccomp;
	int init_pidfd;
	int ns_flags; /* namespaces to join, CLONE_NEWPID aside */
	bool userns;
	int sync_fd;
	int console_sock;
	bool relayed; /* the pty is relayed by this ward: sized as its terminal */
	const struct oci_linux *linux;
};

static _Noreturn void child(const struct exec_child *x, struct werror *err)
{
	struct prepare_args pa = {.proc = x->o->proc,
	                          .linux = x->linux,
	                          .seccomp = x->seccomp,
	                          .sync_fd = x->sync_fd,
	                          .hand_listener = proto_listener_to,
	                          .hand_arg = (void *)&x->sync_fd,
	                          .fifo_fd = -1,
	                          .userns = x->userns,
	                          .preserve_fds = x->o->preserve_fds};
	bool seccomp_loaded;
	char exe[PATH_MAX];

	sig_reset_default();
	if (attrs_initial_affinity(x->o->proc, err) < 0)
		goto fail;
	/* Nothing runs before the parent has put us in the container's cgroups. */
	if (proto_await_mapped(x->sync_fd, err) < 0)
		goto fail;
	/* All namespaces at once through the init's pidfd (Linux ≥ 5.8): the
	 * kernel joins the user namespace first. The mount namespace brings the
	 * container's root and cwd with it. */
	if (x->ns_flags && setns(x->init_pidfd, x->ns_flags) < 0) {
		werr(err, errno, "joining the container's namespaces");
		goto fail;
	}
	close(x->init_pidfd);
	/* Not dumpable until execve (CVE-2016-9962): the container's processes
	 * must not ptrace us or read our /proc entries, fds included. */
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0) {
		werr(err, errno, "PR_SET_DUMPABLE");
		goto fail;
	}
	umask(022);
	if (x->console_sock >= 0 && setsid() < 0) {
		werr(err, errno, "setsid");
		goto fail;
	}
	if (x->console_sock >= 0) {
		/* Paths resolved inside the container's root: /dev/pts is theirs. */
		_cleanup_close_ int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
		int r = root < 0
		            ? werr(err, errno, "/")
		            : console_setup(root, x->console_sock, x->o->proc, 0, x->relayed, err);

		if (r < 0)
			goto fail;
		close(x->console_sock);
	}
	if (process_prepare(&pa, exe, &seccomp_loaded, err) < 0)
		goto fail;
	process_exec(x->o->proc, exe, seccomp_loaded ? NULL : x->seccomp, err);
fail:
	proto_fail(x->sync_fd, err);
	_exit(1);
}

static int ns_flags_of(const struct oci_config *cfg)
{
	int flags = 0;

	for (size_t i = 0; cfg->linux && i < cfg->linux->n_namespaces; i++)
		flags |= cfg->linux->namespaces[i].flag;
	return flags;
}

/* What one exec holds while it runs, released on every way out. */
struct exec_run {
	struct filter_prog prog;
	bool supervised; /* the filter's listener goes to the run supervisor */
	bool relayed;    /* the pty is relayed by this ward */
	int ns_flags;    /* the namespaces the process joins */
	int init_pidfd, pidfd;
	int sync[2];    /* [0] ours, [1] the child's */
	int console;    /* the console socket the child sets its pty up on */
	int relay_read; /* relayed: where the pty's master comes back */
	pid_t pid;
};

static void exec_run_free(struct exec_run *x)
{
	int *fds[] = {&x->init_pidfd, &x->pidfd,   &x->sync[0],
	              &x->sync[1],    &x->console, &x->relay_read};

	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		cleanup_closep(fds[i]);
	filter_prog_free(&x->prog);
}

/* What the container's state and the options allow, before anything. */
static int exec_refusal(const struct container *c, const struct exec_opts *o, bool relayed,
                        struct werror *err)
{
	if (c->status != ST_CREATED && c->status != ST_RUNNING &&
	    !(c->status == ST_PAUSED && o->ignore_paused))
		return werr(err, 0, "container \"%s\" is %s: %s", c->id, status_name(c->status),
		            c->status == ST_PAUSED
		                ? "cannot exec in a paused container (without --ignore-paused)"
		                : "exec needs a created or running container");
	if (cgroup_sub_check(o->sub_cgroups, o->n_sub_cgroups, err) < 0)
		return -1;
	if (o->proc->terminal && !o->console_socket && !relayed)
		return werr_k(err, WERR_INVALID, 0,
		              "exec: a detached process with a terminal needs --console-socket");
	if (!o->proc->terminal && o->console_socket)
		return werr(err, 0, "exec: --console-socket is for --tty");
	return 0;
}

/* The process's filter. Under a run supervisor that records denials, the
 * exec'd process's too (its filter is its own: nothing is inherited from
 * the init). */
static int exec_filter(const struct container *c, const struct oci_config *cfg, struct exec_run *x,
                       struct werror *err)
{
	struct sup_plan plan;
	bool record;

	if (cfg->linux == NULL || cfg->linux->seccomp == NULL)
		return 0;
	record = sup_plan_read(c->dirfd, &plan, err) == 0 && plan.record_denied;
	werr_clear(err);
	return container_seccomp_chain(c->rootfd, cfg->linux, record, &x->prog, &x->supervised,
	                               err);
}

/* The console (a socket given, or a pair whose master comes back to be
 * relayed) and the protocol's channel. */
static int exec_channels(const struct exec_opts *o, struct exec_run *x, struct werror *err)
{
	int relay[2];

	if (o->console_socket && (x->console = console_connect(o->console_socket, err)) < 0)
		return -1;
	if (x->relayed) {
		if (console_pair(relay, err) < 0)
			return -1;
		x->relay_read = relay[0];
		x->console = relay[1];
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, x->sync) < 0)
		return werr(err, errno, "socketpair");
	return 0;
}

/* The namespaces ward itself joins before the clone. */
static int exec_enter(struct exec_run *x, struct werror *err)
{
	/* Rootless: the container's user namespace (create made it; the saved
	 * config does not list it) first, here: joining its pid namespace
	 * wants CAP_SYS_ADMIN where we are too. */
	if (rootless_caller()) {
		/* There the container's root has our uid and may hold
		 * CAP_SYS_PTRACE: not dumpable first (the child inherits it,
		 * until its execve), as create (rootless_enter). */
		if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
			return werr(err, errno, "PR_SET_DUMPABLE");
		if (setns(x->init_pidfd, CLONE_NEWUSER) < 0)
			return werr(err, errno, "joining the container's user namespace");
		x->ns_flags &= ~CLONE_NEWUSER;
	}
	/* A pid namespace is entered by the children of whoever joins it: join
	 * it here, so that the process is our own child, to wait for. */
	if ((x->ns_flags & CLONE_NEWPID) && setns(x->init_pidfd, CLONE_NEWPID) < 0)
		return werr(err, errno, "joining the container's pid namespace");
	return 0;
}

static int exec_spawn(const struct exec_opts *o, const struct oci_config *cfg, struct exec_run *x,
                      struct werror *err)
{
	bool sc = cfg->linux && cfg->linux->seccomp;
	struct exec_child ch = {.o = o,
	                        .seccomp = sc ? &x->prog : NULL,
	                        .init_pidfd = x->init_pidfd,
	                        .ns_flags = x->ns_flags & ~CLONE_NEWPID,
	                        .userns = (x->ns_flags & CLONE_NEWUSER) != 0 || rootless_caller(),
	                        .sync_fd = x->sync[1],
	                        .console_sock = x->console,
	                        .relayed = x->relayed,
	                        .linux = cfg->linux};
	struct clone_args ca = {
	    .flags = CLONE_PIDFD, .pidfd = (uint64_t)(uintptr_t)&x->pidfd, .exit_signal = SIGCHLD};

	trace_mark("exec: cloning the process");
	x->pid = (pid_t)syscall(SYS_clone3, &ca, sizeof(ca));
	if (x->pid == 0) {
		close(x->sync[0]);
		child(&ch, err);
	}
	if (x->pid < 0)
		return werr(err, errno, "clone3");
	close(TAKE_FD(x->sync[1]));
	return 0;
}

/* Into the container's cgroups before it runs anything. */
static int exec_join_cgroups(const struct container *c, const struct exec_opts *o, pid_t pid,
                             struct werror *err)
{
	_cleanup_cgroup_ struct cgroup cg = {0};

	if (c->st->cgroup_path == NULL)
		return o->n_sub_cgroups
		           ? werr(err, 0, "exec --cgroup: container \"%s\" has no cgroup", c->id)
		           : 0;
	if (cgroup_open(&cg, c->st->cgroup_path, c->id, err) < 0 ||
	    cgroup_join(&cg, pid, o->sub_cgroups, o->n_sub_cgroups, c->st->pid, err) < 0)
		return -1;
	trace_mark("exec: process in the container's cgroups");
	return 0;
}

/* A filter that notifies: its listener to the run supervisor, or to the
 * config's agent. Until it is had, the child's denied calls wait; if it
 * cannot be had, the exec fails (and its process is killed). */
static int exec_listener(const struct container *c, const struct oci_config *cfg,
                         const struct exec_run *x, struct werror *err)
{
	_cleanup_close_ int nfd = -1;

	if (!filter_prog_listens(&x->prog))
		return 0;
	if (proto_await_listener(x->sync[0], &nfd, err) < 0)
		return -1;
	if (x->supervised)
		return sup_hand_listener(c->dirfd, nfd, err);
	return seccomp_notify_forward(nfd, cfg->linux->seccomp, c->st, err);
}

/* The process has executed: its pid given out, the relayed pty's master
 * taken (*master). */
static int exec_started(const struct container *c, const struct exec_opts *o, struct exec_run *x,
                        int *master, struct werror *err)
{
	if (proto_await_exec(x->sync[0], err) < 0)
		return -1;
	trace_mark("exec: process executed");
	log_debug("exec in %s: pid %d", c->id, (int)x->pid);
	if (o->pid_file && pid_file_write(o->pid_file, x->pid, err) < 0)
		return -1;
	if (x->relayed) {
		close(TAKE_FD(x->console));
		*master = console_take_master(TAKE_FD(x->relay_read), err);
		if (*master < 0)
			return -1;
	}
	return 0;
}

int container_exec(struct container *c, const struct oci_config *cfg, const struct exec_opts *o,
                   struct werror *err)
{
	__attribute__((cleanup(exec_run_free))) struct exec_run x = {
	    .relayed = o->proc->terminal && !o->console_socket && o->relay_terminal && !o->detach,
	    .ns_flags = ns_flags_of(cfg),
	    .init_pidfd = -1,
	    .pidfd = -1,
	    .sync = {-1, -1},
	    .console = -1,
	    .relay_read = -1};
	sigset_t set, old;
	int master = -1, r;

	if (exec_refusal(c, o, x.relayed, err) < 0)
		return -1;
	x.init_pidfd = proc_pidfd(c->st->pid, c->st->pid_start, err);
	if (x.init_pidfd < 0)
		return werr_ctx(err, "container \"%s\"", c->id);
	if (exec_filter(c, cfg, &x, err) < 0 || exec_channels(o, &x, err) < 0 ||
	    exec_enter(&x, err) < 0)
		return -1;
	fwd_block(&set, &old);
	r = exec_spawn(o, cfg, &x, err);
	if (r == 0 &&
	    (exec_join_cgroups(c, o, x.pid, err) < 0 || proto_mapped(x.sync[0], err) < 0 ||
	     exec_listener(c, cfg, &x, err) < 0 || exec_started(c, o, &x, &master, err) < 0)) {
		siginfo_t si;

		pidfd_send_signal(x.pidfd, SIGKILL, NULL, 0);
		waitid(P_PIDFD, (id_t)x.pidfd, &si, WEXITED);
		r = -1;
	} else if (r == 0) {
		/* fwd_wait owns the master from here. */
		r = o->detach ? 0 : fwd_wait(x.pidfd, &set, TAKE_FD(master), false, err);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return r;
}
