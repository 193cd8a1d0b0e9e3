/* The lifecycle after create: start, signal, destroy, pause, and the
 * processes of a container. */
#include "container/container.h"
#include "policy/policy.h"
#include "policy/prepare.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "lib/trace.h"
#include "lib/fileio.h"
#include "cgroup/cgroup.h"
#include "linux/console.h"
#include "hooks/hooks.h"
#include "container/create/trees.h"
#include "facts/host_facts.h"
#include "idpool/lease.h"
#include "rootfs/idmap.h"
#include "rootfs/mount_opts.h"
#include "rootfs/rootfs.h"
#include "container/create/init.h"
#include "lib/log.h"
#include "container/host_mount.h"
#include "container/proc.h"
#include "seccomp/seccomp_filter.h"
#include "seccomp/seccomp_notify.h"
#include "container/create/support.h"
#include "container/protocol.h"
#include "linux/userns.h"
#include "linux/sysctl.h"
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/socket.h>
#include <linux/nsfs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* How long delete waits for a killed init to be gone. */
#define KILL_TIMEOUT_MS 10000
/* And for the run supervisor to write its report (it waits up to 3 s for
 * the init's reaper). */
#define SUPERVISOR_WAIT_MS 8000

/* poststart and poststop: their failures are warnings (runtime-spec). They
 * come from the config saved at create. */
static void run_logged_hooks(struct container *c, enum oci_hook_point point, const char *status)
{
	_cleanup_werror_ struct werror why = WERROR_INIT;
	struct oci_config *cfg;
	struct oci_state st;
	struct stat sb;

	if (c->st == NULL || fstatat(c->dirfd, CONFIG_FILE, &sb, AT_SYMLINK_NOFOLLOW) < 0)
		return;
	cfg = store_load_config(c, &why);
	if (cfg == NULL) {
		log_warn("%s hooks not run: %s", hooks_point_name(point), werr_msg(&why));
		return;
	}
	st = *c->st;
	st.status = (char *)status;
	hooks_run_logged(cfg, point, &st);
	oci_config_free(cfg);
}

/* The run supervisor (which = 0) or its guard (which = 1), if create
 * started one and it still runs: pinned by a pidfd, then checked by its
 * start time; -1 otherwise. */
static int supervisor_pidfd(struct container *c, int which)
{
	char rec[96];
	unsigned long long start[2] = {0, 0};
	int pid[2] = {0, 0};

	if (store_read(c, SUPERVISOR_FILE, rec, sizeof(rec), NULL) < 0 ||
	    sscanf(rec, "%d %llu %d %llu", &pid[0], &start[0], &pid[1], &start[1]) != 4)
		return -1;
	return proc_pidfd((pid_t)pid[which], start[which], NULL);
}

/* Tell the supervisor the user process runs (the report's start). */
static void supervisor_started(struct container *c)
{
	_cleanup_close_ int fd = supervisor_pidfd(c, 0);

	if (fd >= 0)
		pidfd_send_signal(fd, SIGUSR1, NULL, 0);
}

void container_supervisor_stop(struct container *c, int sup_pidfd)
{
	_cleanup_close_ int g = supervisor_pidfd(c, 1);
	_cleanup_close_ int own = sup_pidfd >= 0 ? -1 : supervisor_pidfd(c, 0);
	int s = sup_pidfd >= 0 ? sup_pidfd : own;

	if (g >= 0) {
		pidfd_send_signal(g, SIGKILL, NULL, 0);
		proc_wait_exit(g, 1000, NULL);
	}
	if (s >= 0) {
		pidfd_send_signal(s, SIGKILL, NULL, 0);
		proc_wait_exit(s, 1000, NULL);
	}
}

/* Delete: the supervisor writes the report from the cgroup's figures, so
 * the cgroup stays until it is done (it ends once the init is gone). */
void container_supervisor_wait(struct container *c, struct werror *err)
{
	_cleanup_close_ int fd = supervisor_pidfd(c, 0);

	if (fd >= 0 && proc_wait_exit(fd, SUPERVISOR_WAIT_MS, err) < 0) {
		log_warn("container \"%s\": the run supervisor did not finish in %d ms: stopped",
		         c->id, SUPERVISOR_WAIT_MS);
		container_supervisor_stop(c, fd);
	}
}

int container_start(struct container *c, struct werror *err)
{
	_cleanup_close_ int fd = -1, rfd = -1;
	ssize_t n;

	if (c->status != ST_CREATED)
		return werr(err, 0,
		            "container \"%s\" is %s, not created: only a created container "
		            "can be started",
		            c->id, status_name(c->status));
	/* The write end first: without a reader (the init) it fails. */
	fd = openat(c->dirfd, EXEC_FIFO, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENXIO)
			return werr(err, ESRCH, "container \"%s\": init is no longer waiting",
			            c->id);
		return werr(err, errno, "container \"%s\": opening the start fifo", c->id);
	}
	/* A read end of our own, never read from: the init holds the fifo
	 * (close-on-exec) through the startContainer hooks until its execve,
	 * and then no writer is left: POLLHUP. poststart comes after that
	 * (runtime-spec: after the user process is executed). */
	rfd = openat(c->dirfd, EXEC_FIFO, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	n = write(fd, "0", 1);
	/* Closed now: the poll below waits for the last writer to go. */
	close(TAKE_FD(fd));
	if (n != 1)
		return werr(err, errno, "container \"%s\": releasing init", c->id);
	trace_mark("start: init released");
	unlinkat(c->dirfd, EXEC_FIFO, 0);
	if (rfd >= 0) {
		struct pollfd pfd = {.fd = rfd, .events = 0};
		char why[4096];

		while (poll(&pfd, 1, -1) < 0 && errno == EINTR)
			;
		/* The init says why when it stops instead of executing. */
		n = read(rfd, why, sizeof(why) - 1);
		close(TAKE_FD(rfd));
		if (n > 0) {
			c->status = ST_STOPPED;
			return werr(err, 0, "container \"%s\": %.*s", c->id, (int)n, why);
		}
	}
	trace_mark("start: process executed");
	c->status = ST_RUNNING;
	supervisor_started(c);
	run_logged_hooks(c, HOOK_POSTSTART, "running");
	return 0;
}

/* Every process in the container's pid namespace, found by comparing
 * /proc/N/ns/pid with the init's, each pinned by a pidfd before the check
 * (a recycled pid is never taken) and handed to fn with it. Without a
 * cgroup this is the complete set. */
static int each_in_pid_ns(pid_t init, void (*fn)(int pidfd, pid_t pid, void *arg), void *arg,
                          struct werror *err)
{
	char path[64];
	struct stat ns, st;
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/ns/pid", (int)init);
	if (stat(path, &ns) < 0)
		return werr(err, errno, "%s", path);
	d = opendir("/proc");
	if (d == NULL)
		return werr(err, errno, "/proc");
	while ((de = readdir(d)) != NULL) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		_cleanup_close_ int fd = -1;

		if (*end || pid <= 0)
			continue;
		fd = (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
		if (fd < 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/ns/pid", pid);
		if (stat(path, &st) == 0 && st.st_ino == ns.st_ino && st.st_dev == ns.st_dev)
			fn(fd, (pid_t)pid, arg);
	}
	closedir(d);
	return 0;
}

struct sig_arg {
	pid_t init;
	int sig;
};

static void signal_one(int pidfd, pid_t pid, void *arg)
{
	const struct sig_arg *a = arg;

	if (pid != a->init)
		syscall(SYS_pidfd_send_signal, pidfd, a->sig, NULL, 0);
}

/* 0 if the init's pid namespace is its own; -1 with werr if it is the one
 * ward is in (the config listed none): then its members cannot be told
 * from the host's. */
static int own_pid_ns(pid_t init, struct werror *err)
{
	struct stat own, its;
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/ns/pid", (int)init);
	if (stat("/proc/self/ns/pid", &own) < 0 || stat(path, &its) < 0)
		return werr(err, errno, "%s", path);
	if (own.st_ino == its.st_ino && own.st_dev == its.st_dev)
		return werr(err, 0,
		            "it has neither a cgroup nor a pid namespace of its own: its "
		            "processes cannot be told from the host's");
	return 0;
}

/* Never the host's pid namespace: every process the caller may signal
 * would be (a rootless container without a pid namespace of its own has
 * no cgroup either). */
static int signal_pid_ns(pid_t init, int sig, struct werror *err)
{
	struct sig_arg a = {init, sig};

	if (own_pid_ns(init, err) < 0)
		return -1;
	return each_in_pid_ns(init, signal_one, &a, err);
}

struct pid_list {
	pid_t *v;
	size_t n, cap;
	bool oom;
};

static void list_one(int pidfd, pid_t pid, void *arg)
{
	struct pid_list *l = arg;

	(void)pidfd;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		pid_t *v = realloc(l->v, cap * sizeof(*v));

		if (v == NULL) {
			l->oom = true;
			return;
		}
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = pid;
}

/* The container's processes without a cgroup (rootless): its pid
 * namespace's, when it has one of its own (else they cannot be told from
 * the host's). */
static int pid_ns_pids(pid_t init, pid_t **pids, size_t *n, struct werror *err)
{
	struct pid_list l = {0};

	if (own_pid_ns(init, err) < 0)
		return -1;
	if (each_in_pid_ns(init, list_one, &l, err) < 0 || l.oom) {
		free(l.v);
		return l.oom ? werr(err, ENOMEM, "out of memory") : -1;
	}
	*pids = l.v;
	*n = l.n;
	return 0;
}

int container_profile(struct container *c)
{
	_cleanup_free_ char *rec = NULL;
	size_t len;

	if (store_read_alloc(c, POLICY_RECORD_FILE, &rec, &len, NULL) < 0)
		return -1;
	return policy_record_profile(rec, len);
}

const char *container_profile_name(struct container *c)
{
	int p = container_profile(c);

	return p < 0 ? NULL : profile_name((enum ward_profile)p);
}

bool container_cgroup(struct container *c, struct cgroup *cg)
{
	_cleanup_werror_ struct werror why = WERROR_INIT;
	char rec[PATH_MAX * 2 + 4];

	if (store_read(c, CGROUP_FILE, rec, sizeof(rec), &why) == 0)
		return cgroup_from_record(cg, rec, c->id, NULL) == 0;
	/* A record that is there but cannot be read is said, not skipped:
	 * the state's path is then all there is to go by. */
	if (werr_errno(&why) != ENOENT)
		log_warn("container \"%s\": %s", c->id, werr_msg(&why));
	return c->st && c->st->cgroup_path && cgroup_open(cg, c->st->cgroup_path, c->id, NULL) == 0;
}

int container_signal(struct container *c, int sig, bool all, struct werror *err)
{
	_cleanup_cgroup_ struct cgroup cg = {0};
	_cleanup_close_ int pidfd = -1;
	int r = 0;

	/* As runc: --all of a stopped container signals what is left in its
	 * cgroup and succeeds; a plain kill fails with "container not
	 * running", the words containerd's shim and conmon take for "already
	 * finished" (anything else leaves them waiting). */
	if (c->status != ST_CREATED && c->status != ST_RUNNING && c->status != ST_PAUSED) {
		if (all && c->status == ST_STOPPED) {
			if (sig && container_cgroup(c, &cg))
				cgroup_signal_all(&cg, sig, err);
			return 0;
		}
		return werr_k(err, WERR_NOT_RUNNING, 0,
		              "container \"%s\" is %s: container not running", c->id,
		              status_name(c->status));
	}
	pidfd = proc_pidfd(c->st->pid, c->st->pid_start, err);
	if (pidfd < 0)
		return werr_k(err, WERR_NOT_RUNNING, 0, "container \"%s\": container not running",
		              c->id);
	/* --all: every process of the container's cgroup (exec'd ones too). */
	if (all)
		r = container_cgroup(c, &cg) ? cgroup_signal_all(&cg, sig, err)
		    : signal_pid_ns(c->st->pid, sig, err) < 0
		        ? werr_ctx(err, "container \"%s\": kill --all", c->id)
		        : 0;
	/* After --all the init may be gone already (cgroup.kill is
	 * immediate): that is what was asked for. */
	if (r == 0 && pidfd_send_signal(pidfd, sig, NULL, 0) < 0 && !(all && errno == ESRCH))
		r = errno == ESRCH ? werr_k(err, WERR_NOT_RUNNING, 0,
		                            "container \"%s\": container not running", c->id)
		                   : werr(err, errno, "container \"%s\": signal %d", c->id, sig);
	/* Frozen (v1) tasks die only once thawed: SIGKILL of a paused
	 * container ends it, as with runc. */
	if (r == 0 && sig == SIGKILL && c->status == ST_PAUSED &&
	    (cg.path || container_cgroup(c, &cg)))
		cgroup_freeze(&cg, false, err);
	return r;
}

/* delete --force of a container whose state.json cannot be read: what the
 * other records still say. The cgroup record names its cgroup (everything
 * in it is killed, the init with it); without one, only the default cgroup
 * goes, and only if empty (the name may be another state root's). */
static void kill_unreadable(struct container *c, struct cgroup *cg, bool have_cg)
{
	_cleanup_cgroup_ struct cgroup dflt = {0};
	_cleanup_werror_ struct werror why = WERROR_INIT;
	char rec[PATH_MAX * 2 + 4];

	if (have_cg) {
		log_warn("container \"%s\": %s: removed by its cgroup record", c->id, c->load_err);
		cgroup_signal_all(cg, SIGKILL, NULL);
		return;
	}
	if (store_read(c, CGROUP_FILE, rec, sizeof(rec), &why) == 0)
		werr(&why, EINVAL, "cgroup record: malformed");
	log_warn("container \"%s\": %s; and its cgroup record cannot be read (%s): its "
	         "processes, if any are left, are not known; an empty default cgroup is removed",
	         c->id, c->load_err, werr_msg(&why));
	if (cgroup_init(&dflt, NULL, c->id, NULL) == 0)
		cgroup_remove_empty(&dflt);
}

int container_destroy(struct container *c, bool force, struct werror *err)
{
	_cleanup_cgroup_ struct cgroup cg = {0};
	bool have_cg = container_cgroup(c, &cg);

	if ((c->status == ST_RUNNING || c->status == ST_PAUSED) && !force)
		return werr_k(err, WERR_NOT_RUNNING, 0,
		              "container \"%s\" is %s: stop it first, or use delete --force", c->id,
		              status_name(c->status));
	if (c->status == ST_UNKNOWN) {
		if (!force)
			return werr(err, 0, "container \"%s\": %s (delete --force removes it)",
			            c->id, c->load_err);
		kill_unreadable(c, &cg, have_cg);
	}
	/* Frozen (v1) tasks die only once thawed. */
	if (have_cg && c->status == ST_PAUSED && cgroup_freeze(&cg, false, err) < 0)
		return werr_ctx(err, "container \"%s\"", c->id);
	if (c->status == ST_CREATED || c->status == ST_RUNNING || c->status == ST_PAUSED) {
		_cleanup_close_ int pidfd = proc_pidfd(c->st->pid, c->st->pid_start, err);

		if (pidfd >= 0) {
			/* (Without a pid namespace of its own: the init alone.) */
			if (!have_cg)
				signal_pid_ns(c->st->pid, SIGKILL, NULL);
			if (pidfd_send_signal(pidfd, SIGKILL, NULL, 0) < 0 && errno != ESRCH)
				return werr(err, errno, "container \"%s\": killing init", c->id);
			if (proc_wait_exit(pidfd, KILL_TIMEOUT_MS, err) < 0)
				return werr_ctx(err, "container \"%s\"", c->id);
		}
	}
	/* A create killed before its cgroup record: the default cgroup, if
	 * empty. Under the lock of the state dir, no other create of this id
	 * can be making it now. */
	if (!have_cg && c->st == NULL && c->status != ST_UNKNOWN) {
		_cleanup_cgroup_ struct cgroup dflt = {0};

		if (cgroup_init(&dflt, NULL, c->id, NULL) == 0)
			cgroup_remove_empty(&dflt);
	}
	trace_mark("delete: processes gone");
	container_supervisor_wait(c, err);
	trace_mark("delete: supervisor gone");
	/* Whatever is left in the cgroup (processes outside the init's pid
	 * namespace, exec'd ones), then the cgroup itself, everywhere. */
	if (have_cg && cgroup_destroy(&cg, err) < 0)
		return werr_ctx(err, "container \"%s\"", c->id);
	trace_mark("delete: cgroup removed");
	run_logged_hooks(c, HOOK_POSTSTOP, "stopped");
	/* The range of the id pool back before the state dir goes: once that
	 * is gone a create of the same id could lease again, and only the
	 * lease's token (not its id) tells the two apart. Its processes are
	 * dead by now, so the next container to take it shares nothing live. */
	if (id_lease_release(c->dirfd, err) < 0)
		return werr_ctx(err, "container \"%s\"", c->id);
	/* Without a mount namespace: its mounts, off the host's. Said, not
	 * fatal: the state goes either way. */
	{
		_cleanup_werror_ struct werror why = WERROR_INIT;

		if (host_mount_release(c, &why) < 0)
			log_warn("container \"%s\": %s", c->id, werr_msg(&why));
	}
	return store_remove(c, err) < 0 ? -1 : 0;
}

int container_pause(struct container *c, bool pause, struct werror *err)
{
	_cleanup_cgroup_ struct cgroup cg = {0};

	if (c->status != (pause ? ST_RUNNING : ST_PAUSED))
		return werr(err, 0, "container \"%s\" is %s: only a %s container can be %s", c->id,
		            status_name(c->status), pause ? "running" : "paused",
		            pause ? "paused" : "resumed");
	if (!container_cgroup(c, &cg))
		return werr_k(err, WERR_UNSUPPORTED, 0,
		              "container \"%s\" has no cgroup (rootless, without a delegated "
		              "cgroup2 subtree): there is no freezer to %s it",
		              c->id, pause ? "pause" : "resume");
	if (cgroup_freeze(&cg, pause, err) < 0)
		return werr_ctx(err, "container \"%s\"", c->id);
	c->status = pause ? ST_PAUSED : ST_RUNNING;
	return 0;
}

int container_pids(struct container *c, pid_t **pids, size_t *n, struct werror *err)
{
	_cleanup_cgroup_ struct cgroup cg = {0};

	*pids = NULL;
	*n = 0;
	/* A stopped container has no process (runc's ps prints the header). */
	if (c->status == ST_STOPPED)
		return 0;
	if (c->status == ST_CREATING)
		return werr(err, 0, "container \"%s\" is %s", c->id, status_name(c->status));
	if (!container_cgroup(c, &cg))
		return pid_ns_pids(c->st->pid, pids, n, err) < 0
		           ? werr_ctx(err, "container \"%s\"", c->id)
		           : 0;
	return cgroup_pids(&cg, pids, n, err);
}
