#include "container/exec.h"
#include "rootless/rootless.h"
#include "cgroup/cgroup.h"
#include "linux/console.h"
#include "container/container.h"
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
		int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
		int r = root < 0
		            ? werr(err, errno, "/")
		            : console_setup(root, x->console_sock, x->o->proc, 0, x->relayed, err);

		if (root >= 0)
			close(root);
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

int container_exec(struct container *c, const struct oci_config *cfg, const struct exec_opts *o,
                   struct werror *err)
{
	const struct oci_seccomp *sc = cfg->linux ? cfg->linux->seccomp : NULL;
	struct filter_prog prog = {0};
	int flags = ns_flags_of(cfg);
	int sv[2] = {-1, -1}, init_pidfd, pidfd = -1, console = -1, r = -1;
	int relay[2] = {-1, -1}, master = -1;
	bool relayed = o->proc->terminal && !o->console_socket && o->relay_terminal && !o->detach;
	bool supervised = false;
	sigset_t set, old;
	pid_t pid;

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
	init_pidfd = proc_pidfd(c->st->pid, c->st->pid_start, err);
	if (init_pidfd < 0)
		return werr_ctx(err, "container \"%s\"", c->id);
	/* Under a run supervisor that records denials, the exec'd process's
	 * too (its filter is its own: nothing is inherited from the init). */
	if (sc) {
		struct sup_plan plan;
		bool record = sup_plan_read(c->dirfd, &plan, err) == 0 && plan.record_denied;

		werr_clear(err);
		if (container_seccomp_chain(c->rootfd, cfg->linux, record, &prog, &supervised,
		                            err) < 0)
			goto out;
	}
	if (o->console_socket && (console = console_connect(o->console_socket, err)) < 0)
		goto out;
	if (relayed) {
		if (console_pair(relay, err) < 0)
			goto out;
		console = relay[1];
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		werr(err, errno, "socketpair");
		goto out;
	}
	/* Rootless: the container's user namespace (create made it; the saved
	 * config does not list it) first, here: joining its pid namespace
	 * wants CAP_SYS_ADMIN where we are too. */
	if (rootless_caller()) {
		/* There the container's root has our uid and may hold
		 * CAP_SYS_PTRACE: not dumpable first (the child inherits it,
		 * until its execve), as create (rootless_enter). */
		if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0) {
			werr(err, errno, "PR_SET_DUMPABLE");
			goto out;
		}
		if (setns(init_pidfd, CLONE_NEWUSER) < 0) {
			werr(err, errno, "joining the container's user namespace");
			goto out;
		}
		flags &= ~CLONE_NEWUSER;
	}
	/* A pid namespace is entered by the children of whoever joins it: join
	 * it here, so that the process is our own child, to wait for. */
	if ((flags & CLONE_NEWPID) && setns(init_pidfd, CLONE_NEWPID) < 0) {
		werr(err, errno, "joining the container's pid namespace");
		goto out;
	}
	fwd_block(&set, &old);
	{
		struct exec_child x = {.o = o,
		                       .seccomp = sc ? &prog : NULL,
		                       .init_pidfd = init_pidfd,
		                       .ns_flags = flags & ~CLONE_NEWPID,
		                       .userns = (flags & CLONE_NEWUSER) != 0 || rootless_caller(),
		                       .sync_fd = sv[1],
		                       .console_sock = console,
		                       .relayed = relayed,
		                       .linux = cfg->linux};
		struct clone_args ca = {.flags = CLONE_PIDFD,
		                        .pidfd = (uint64_t)(uintptr_t)&pidfd,
		                        .exit_signal = SIGCHLD};

		trace_mark("exec: cloning the process");
		pid = (pid_t)syscall(SYS_clone3, &ca, sizeof(ca));
		if (pid == 0) {
			close(sv[0]);
			child(&x, err);
		}
	}
	if (pid < 0) {
		werr(err, errno, "clone3");
		goto unblock;
	}
	close(sv[1]);
	sv[1] = -1;
	/* Into the container's cgroups before it runs anything. */
	if (c->st->cgroup_path) {
		_cleanup_cgroup_ struct cgroup cg = {0};

		if (cgroup_open(&cg, c->st->cgroup_path, c->id, err) < 0 ||
		    cgroup_join(&cg, pid, o->sub_cgroups, o->n_sub_cgroups, c->st->pid, err) < 0)
			goto kill;
	} else if (o->n_sub_cgroups) {
		werr(err, 0, "exec --cgroup: container \"%s\" has no cgroup", c->id);
		goto kill;
	}
	trace_mark("exec: process in the container's cgroups");
	if (proto_mapped(sv[0], err) < 0)
		goto kill;
	if (filter_prog_listens(&prog) && supervised) {
		int nfd;

		/* Until the supervisor has it, the child's denied calls wait; if
		 * it cannot be had, the exec fails (and its process is killed). */
		if (proto_await_listener(sv[0], &nfd, err) < 0)
			goto kill;
		r = sup_hand_listener(c->dirfd, nfd, err);
		close(nfd);
		if (r < 0)
			goto kill;
		r = -1;
	} else if (filter_prog_listens(&prog)) {
		int nfd;

		if (proto_await_listener(sv[0], &nfd, err) < 0)
			goto kill;
		r = seccomp_notify_forward(nfd, sc, c->st, err);
		if (nfd >= 0)
			close(nfd);
		if (r < 0)
			goto kill;
		r = -1;
	}
	if (proto_await_exec(sv[0], err) < 0)
		goto kill;
	trace_mark("exec: process executed");
	log_debug("exec in %s: pid %d", c->id, (int)pid);
	if (o->pid_file && pid_file_write(o->pid_file, pid, err) < 0)
		goto kill;
	if (relayed) {
		close(console);
		console = -1;
		master = console_take_master(relay[0], err);
		relay[0] = -1;
		if (master < 0)
			goto kill;
	}
	r = o->detach ? 0 : fwd_wait(pidfd, &set, master, false, err);
	goto unblock;
kill : {
	siginfo_t si;

	pidfd_send_signal(pidfd, SIGKILL, NULL, 0);
	waitid(P_PIDFD, (id_t)pidfd, &si, WEXITED);
}
unblock:
	sigprocmask(SIG_SETMASK, &old, NULL);
out:
	for (int i = 0; i < 2; i++)
		if (sv[i] >= 0)
			close(sv[i]);
	if (pidfd >= 0)
		close(pidfd);
	close(init_pidfd);
	if (console >= 0)
		close(console);
	if (relay[0] >= 0)
		close(relay[0]);
	filter_prog_free(&prog);
	return r;
}
