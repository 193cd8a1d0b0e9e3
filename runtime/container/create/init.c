#include "container/create/init.h"
#include "rootfs/cgroup_mount.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "lib/sigreset.h"
#include "container/create/tree_fetch.h"
#include "linux/console.h"
#include "hooks/hooks.h"
#include "oci/names.h"
#include "linux/process_attrs.h"
#include "linux/process.h"
#include "rootfs/rootfs.h"
#include "seccomp/seccomp_filter.h"
#include "container/protocol.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
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

static int set_names(const struct oci_config *c, struct werror *err)
{
	if (c->hostname && c->hostname[0] && sethostname(c->hostname, strlen(c->hostname)) < 0)
		return werr(err, errno, "config.json: .hostname \"%s\"", c->hostname);
	if (c->domainname && c->domainname[0] &&
	    setdomainname(c->domainname, strlen(c->domainname)) < 0)
		return werr(err, errno, "config.json: .domainname \"%s\"", c->domainname);
	return 0;
}

/* What the init learns on its way, beside what it was given. */
struct init_state {
	const struct init_args *a;
	pid_t host_pid; /* as the host sees it (the parent's HOOKS_DONE): the hooks' state */
	struct tree_channel trees;
	struct cgroup_self cg; /* read before the cgroup namespace is unshared */
};

static void hook_state(const struct init_state *s, const char *status, struct oci_state *st)
{
	const struct init_args *a = s->a;

	*st = (struct oci_state){.oci_version = a->cfg->oci_version,
	                         .id = (char *)a->id,
	                         .status = (char *)status,
	                         .pid = s->host_pid,
	                         .bundle = (char *)a->bundle,
	                         .annotations = a->cfg->annotations,
	                         .n_annotations = a->cfg->n_annotations};
}

/* A new time namespace, with its offsets: entered at execve. */
static int time_namespace(const struct oci_config *c, struct werror *err)
{
	const struct oci_namespace *ns = oci_config_namespace(c, CLONE_NEWTIME);
	const struct oci_time_offsets *t = c->linux ? c->linux->time_offsets : NULL;
	char buf[128];
	_cleanup_close_ int fd = -1;
	int n = 0;

	if (ns == NULL || (ns->path && ns->path[0]))
		return 0;
	if (unshare(CLONE_NEWTIME) < 0)
		return werr(err, errno, "creating the time namespace");
	if (t == NULL)
		return 0;
	if (t->monotonic)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "monotonic %lld %u\n",
		              (long long)t->monotonic->secs, t->monotonic->nanosecs);
	if (t->boottime)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "boottime %lld %u\n",
		              (long long)t->boottime->secs, t->boottime->nanosecs);
	fd = open("/proc/self/timens_offsets", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, buf, (size_t)n) != n)
		return werr(err, errno, "config.json: .linux.timeOffsets");
	return 0;
}

/* Mounts done, pivot_root next: the terminal, from the container's devpts;
 * then the parent runs prestart and createRuntime in the runtime namespace,
 * then createContainer hooks run here, in the container's namespaces, where
 * host paths still resolve. */
static int before_pivot(void *arg, int rootfd, struct werror *err)
{
	struct init_state *s = arg;
	const struct init_args *a = s->a;
	struct oci_state st;

	if (a->console_sock >= 0) {
		if (console_setup(rootfd, a->console_sock, a->cfg->process, 1, a->relayed, err) < 0)
			return -1;
		close(a->console_sock);
	}
	if (!hooks_create_round(a->cfg))
		return 0;
	if (proto_hooks(a->sync_fd, &s->host_pid, err) < 0)
		return -1;
	/* As runc: createContainer hooks run in the container's root
	 * directory (not yet pivoted to), not in ward's. */
	if (fchdir(rootfd) < 0)
		return werr(err, errno, "chdir to the rootfs for the createContainer hooks");
	hook_state(s, "creating", &st);
	return hooks_run(a->cfg, HOOK_CREATE_CONTAINER, &st, a->hook_pins, err);
}

static int setup(struct init_state *s, char exe[PATH_MAX], bool *seccomp_loaded, struct werror *err)
{
	const struct init_args *a = s->a;
	const struct oci_config *c = a->cfg;
	struct rootfs_args ra = {.cfg = c,
	                         .rootfs = a->rootfs,
	                         .bundle = a->bundle,
	                         .no_pivot = a->no_pivot,
	                         .host_mntns = oci_config_namespace(c, CLONE_NEWNS) == NULL,
	                         .userns = a->userns,
	                         .root_tree = a->root_tree,
	                         .fetch_trees = tree_fetch,
	                         .trees_done = tree_channel_close,
	                         .trees_arg = &s->trees,
	                         .cg_self = &s->cg,
	                         .before_pivot = before_pivot,
	                         .before_pivot_arg = s};
	struct rootfs_handles h = {.rootfd = -1};

	if (time_namespace(c, err) < 0)
		return -1;
	if (rootfs_open(&ra, &h, err) < 0) {
		rootfs_handles_close(&h);
		return -1;
	}
	/* From here on, files we create belong to the container's root. */
	if (a->userns && (setresgid(0, 0, 0) < 0 || setresuid(0, 0, 0) < 0)) {
		rootfs_handles_close(&h);
		return werr(err, errno, "becoming root in the user namespace");
	}
	/* Not dumpable: nothing in the container may ptrace us or open our
	 * /proc entries (exe, fd, mem) before execve. */
	if (setsid() < 0 || prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0) {
		rootfs_handles_close(&h);
		return werr(err, errno, "setsid/PR_SET_DUMPABLE");
	}
	/* Device nodes and mount points get the modes asked for. */
	umask(0);
	if (rootfs_setup(&ra, &h, err) < 0 || set_names(c, err) < 0)
		return -1;
	/* The createContainer hooks have run: their pinned files go now
	 * (process_prepare closes every other fd of ward's as well). */
	if (a->hook_pins)
		hook_pins_close(a->hook_pins);
	{
		struct prepare_args pa = {.proc = c->process,
		                          .linux = c->linux,
		                          .seccomp = a->seccomp,
		                          .sync_fd = a->sync_fd,
		                          .hand_listener = proto_listener_to,
		                          .hand_arg = (void *)&a->sync_fd,
		                          .fifo_fd = a->fifo_fd,
		                          .userns = a->userns,
		                          .preserve_fds = a->preserve_fds,
		                          .pdeathsig = true};

		return process_prepare(&pa, exe, seccomp_loaded, err);
	}
}

/* The runtime-spec: a failing startContainer hook is an error, and the
 * container stops. `start` is still waiting on the fifo: the reason goes
 * there (it reads what is left once the init is gone) and start says it. */
static _Noreturn void start_failed(const struct init_args *a, const char *what, struct werror *err)
{
	dprintf(a->fifo_fd, "%s: %s", what, werr_msg(err));
	_exit(1);
}

_Noreturn void init_run(const struct init_args *a, struct werror *err)
{
	struct init_state s = {.a = a, .trees = {.sock = a->tree_fd}};
	bool seccomp_loaded = false;
	char exe[PATH_MAX];
	char b;
	ssize_t n;

	sig_reset_default();
	if (attrs_initial_affinity(a->cfg->process, err) < 0) {
		proto_fail(a->sync_fd, err);
		_exit(1);
	}
	/* Into the v1 cgroups by ourselves, before anything runs here (see
	 * cgroup_self_open); a failure is told once the parent listens. */
	_cleanup_werror_ struct werror entry = WERROR_INIT;
	int entered = a->cg_self ? cgroup_self_enter(a->cg_self, &entry) : 0;

	/* Until the parent has saved our state, die with it. */
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	if (proto_await_mapped(a->sync_fd, err) < 0)
		_exit(1);
	if (entered < 0) {
		proto_fail(a->sync_fd, &entry);
		_exit(1);
	}
	/* In our cgroups everywhere by now (we entered the v1 ones, the parent
	 * saw to the rest before MAPPED). */
	{
		const struct oci_namespace *cns = oci_config_namespace(a->cfg, CLONE_NEWCGROUP);

		cgroup_self_read(&s.cg, cns != NULL, a->userns && cns == NULL);
		if (cns && (!cns->path || !cns->path[0]) && unshare(CLONE_NEWCGROUP) < 0) {
			werr(err, errno, "creating the cgroup namespace");
			proto_fail(a->sync_fd, err);
			_exit(1);
		}
	}
	for (int i = 0; i < a->n_join; i++) {
		if (setns(a->join_fd[i], a->join_flag[i]) < 0) {
			werr(err, errno, "joining the %s namespace given by path",
			     oci_ns_type(a->join_flag[i]));
			proto_fail(a->sync_fd, err);
			_exit(1);
		}
		close(a->join_fd[i]);
	}
	if (setup(&s, exe, &seccomp_loaded, err) < 0) {
		proto_fail(a->sync_fd, err);
		_exit(1);
	}
	if (proto_ready(a->sync_fd, err) < 0)
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
	/* a->fifo_fd stays open (close-on-exec) until the execve: `start`
	 * waits for it to go before it runs the poststart hooks. */
	if (hooks_any(a->cfg, HOOK_START_CONTAINER)) {
		struct oci_state st;

		/* As runc: the hooks run under the container's filter. */
		if (!seccomp_loaded && a->seccomp && filter_load(a->seccomp, NULL, err) < 0)
			start_failed(a, "loading the seccomp filter", err);
		seccomp_loaded = true;
		hook_state(&s, "running", &st);
		if (hooks_run(a->cfg, HOOK_START_CONTAINER, &st, NULL, err) < 0)
			start_failed(a, "error running hook", err);
	}
	process_exec(a->cfg->process, exe, seccomp_loaded ? NULL : a->seccomp, err);
}
