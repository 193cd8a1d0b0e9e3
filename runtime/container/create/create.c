#include "container/container.h"
#include "rootless/rootless.h"
#include "policy/policy.h"
#include "lib/error.h"
#include "lib/trace.h"
#include "lib/fileio.h"
#include "cgroup/cgroup.h"
#include "linux/console.h"
#include "hooks/hooks.h"
#include "container/host_mount.h"
#include "container/create/tree_server.h"
#include "container/create/trees.h"
#include "facts/host_facts.h"
#include "rootfs/idmap.h"
#include "rootfs/mount_opts.h"
#include "rootfs/rootfs.h"
#include "container/create/init.h"
#include "container/create/spawn.h"
#include "cgroup/cg_manager.h"
#include "lib/cleanup.h"
#include "lib/log.h"
#include "container/proc.h"
#include "seccomp/seccomp_filter.h"
#include "seccomp/seccomp_notify.h"
#include "container/create/support.h"
#include "supervisor/supervisor.h"
#include "net/egress_bpf.h"
#include "net/netdev_move.h"
#include "net/gate_conf.h"
#include "container/create/gate_mount.h"
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

static int record_state(struct container *c, const struct create_opts *o,
                        const struct oci_config *cfg, const char *rootfs, pid_t pid,
                        const char *cgroup_path, struct werror *err)
{
	struct oci_state *s = calloc(1, sizeof(*s));

	if (s == NULL)
		return werr(err, ENOMEM, "out of memory");
	c->st = s;
	s->pid = pid;
	if (proc_stat(pid, &s->pid_start, NULL, err) < 0)
		return werr_ctx(err, "container init");
	s->oci_version = strdup(cfg->oci_version);
	s->id = strdup(o->id);
	s->bundle = strdup(o->bundle);
	s->rootfs = strdup(rootfs);
	{
		char ts[64];

		log_timestamp(ts, sizeof(ts));
		s->created = strdup(ts);
	}
	s->owner = strdup(o->owner ? o->owner : "");
	s->cgroup_path = cgroup_path ? strdup(cgroup_path) : NULL;
	s->annotations = calloc(cfg->n_annotations + 1, sizeof(*s->annotations));
	if (!s->oci_version || !s->id || !s->bundle || !s->rootfs || !s->created || !s->owner ||
	    !s->annotations || (cgroup_path && !s->cgroup_path))
		return werr(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < cfg->n_annotations; i++) {
		s->annotations[i].key = strdup(cfg->annotations[i].key);
		s->annotations[i].value = strdup(cfg->annotations[i].value);
		s->n_annotations = i + 1;
		if (!s->annotations[i].key || !s->annotations[i].value)
			return werr(err, ENOMEM, "out of memory");
	}
	return store_save(c, err);
}

/* The state hooks and seccomp agents see while the container is created. */
static struct oci_state creating_state(const struct create_opts *o, const struct oci_config *cfg,
                                       pid_t pid)
{
	return (struct oci_state){.oci_version = cfg->oci_version,
	                          .id = (char *)o->id,
	                          .status = "creating",
	                          .pid = pid,
	                          .bundle = (char *)o->bundle,
	                          .annotations = cfg->annotations,
	                          .n_annotations = cfg->n_annotations};
}

struct create_hooks {
	const struct oci_config *cfg;
	const struct oci_state *pre, *st;
	const struct hook_pins *pins;
};

static int parent_hooks(void *arg, struct werror *err)
{
	const struct create_hooks *h = arg;

	if (hooks_run(h->cfg, HOOK_PRESTART, h->pre, h->pins, err) < 0)
		return -1;
	return hooks_run(h->cfg, HOOK_CREATE_RUNTIME, h->st, h->pins, err);
}

/* With its mounts done the init asks for prestart and createRuntime, which
 * run here, in the runtime namespace; the answer tells it its host pid. */
static int run_create_hooks(int sock, const struct create_opts *o, const struct oci_config *cfg,
                            pid_t pid, struct werror *err)
{
	struct oci_state st = creating_state(o, cfg, pid);
	struct oci_state pre = st;

	if (!hooks_create_round(cfg))
		return 0;
	/* prestart (deprecated) sees "created", as crun shows it and the
	 * runtime-tools suite checks; createRuntime "creating" (spec). */
	pre.status = "created";
	struct create_hooks h = {cfg, &pre, &st, o->hook_pins};

	return proto_run_hooks(sock, pid, parent_hooks, &h, err);
}

/* The init sends its seccomp listener before READY; hand it to the agent. */
static int forward_listener(int sock, const struct create_opts *o, const struct oci_config *cfg,
                            pid_t pid, struct werror *err)
{
	struct oci_state st = creating_state(o, cfg, pid);
	_cleanup_close_ int listener = -1;

	if (proto_await_listener(sock, &listener, err) < 0)
		return -1;
	return seccomp_notify_forward(listener, cfg->linux->seccomp, &st, err);
}

int container_seccomp_prog(int rootfd, const struct oci_seccomp *sc, struct filter_prog *prog,
                           struct werror *err)
{
	_cleanup_close_ int cache = store_cache_dir(rootfd, "seccomp");

	return filter_compile_cached(sc, cache, prog, err);
}

int container_seccomp_chain(int rootfd, const struct oci_linux *l, bool record,
                            struct filter_prog *prog, bool *supervised, struct werror *err)
{
	struct oci_seccomp own = *l->seccomp;

	*supervised = false;
	memset(prog, 0, sizeof(*prog));
	if (l->seccomp_base == NULL) {
		own.supervised = *supervised = record;
		return container_seccomp_prog(rootfd, &own, prog, err);
	}
	/* ward's filter first, then the config's stacked after it: only one
	 * filter of a chain may have a listener (EBUSY), so the supervisor's
	 * is ward's filter's (the policy records nothing when the config's
	 * has an agent of its own). */
	{
		struct oci_seccomp base = *l->seccomp_base;

		*supervised = record;
		if (seccomp_recorded(l->seccomp, l->seccomp_base) == l->seccomp_base)
			base.supervised = record;
		else
			own.supervised = record;
		if (container_seccomp_prog(rootfd, &base, prog, err) < 0)
			return -1;
	}
	prog->next = calloc(1, sizeof(*prog->next));
	if (prog->next == NULL)
		return werr(err, ENOMEM, "out of memory");
	return container_seccomp_prog(rootfd, &own, prog->next, err);
}

/* What the policy decided (exec applies it again to the saved config) and
 * the audit log of what it changed. */
static int save_policy(struct container *c, const struct create_opts *o, struct werror *err)
{
	const struct policy_ctx *x = o->policy;
	_cleanup_close_ int fd = -1;

	if (store_write(c, POLICY_RECORD_FILE, o->policy_record, o->policy_record_len, err) < 0)
		return -1;
	fd = openat(c->dirfd, AUDIT_FILE, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC,
	            0600);
	if (fd < 0)
		return werr(err, errno, "audit log of \"%s\"", c->id);
	return policy_audit_write(x, fd, err);
}

/* The supervisor, and its identity in the state dir (pid and start time:
 * start and delete find it by them, never by a recycled pid). */
static int start_supervisor(struct container *c, int rootfd, const struct create_opts *o, int pidfd,
                            const struct sup_fds *fds, int *sup_pidfd, struct werror *err)
{
	uint64_t start, gstart = 0;
	char rec[96];
	struct sup_proc sp;

	if (sup_spawn(rootfd, c->dirfd, o->id, pidfd, fds, o->sup, &sp, err) < 0)
		return -1;
	*sup_pidfd = sp.pidfd;
	/* Start times read after the pidfd pinned the supervisor (its guard,
	 * its child, lives until it is told to end). */
	if (proc_stat(sp.pid, &start, NULL, err) < 0 || proc_stat(sp.guard, &gstart, NULL, err) < 0)
		return werr_ctx(err, "the run supervisor (pid %d)", (int)sp.pid);
	snprintf(rec, sizeof(rec), "%d %llu %d %llu\n", (int)sp.pid, (unsigned long long)start,
	         (int)sp.guard, (unsigned long long)gstart);
	return store_write(c, SUPERVISOR_FILE, rec, strlen(rec), err);
}

/* Everything a create holds while it makes the container, owned here:
 * handed on at the end (create_done) or undone (create_undo). */
struct create_run {
	int rootfd;
	const struct create_opts *o;
	const struct oci_config *cfg; /* with the DNS gate's mount, if any */
	const struct host_facts *facts;
	struct container *c;
	char rootfs[PATH_MAX];
	bool userns, compat;
	int cflags;
	/* made before the container exists */
	struct filter_prog prog;
	struct egress_loaded eg;
	struct egress_fds efds;
	struct gate_mount gm;
	/* the cgroup (cg_manager.h) */
	struct cgroup cg;
	bool have_cg;
	int cgfd;
	/* the init and what it is handed */
	int sv[2], fifo, console, root_tree, tree_end, pidfd, notify, sup_pidfd;
	pid_t tree_server, pid;
	struct netdev_moves nd;
};

/* Checks, the seccomp filter and the egress programs: nothing on the host
 * yet. */
static int create_check(struct create_run *r, struct werror *err)
{
	const struct create_opts *o = r->o;
	const struct oci_seccomp *sc = r->cfg->linux ? r->cfg->linux->seccomp : NULL;

	if (support_check(r->cfg, r->compat, err) < 0 ||
	    support_rootfs(r->cfg, o->bundle, r->rootfs, err) < 0)
		return -1;
	/* Compiled before the clone: the init inherits the program. With the
	 * supervisor recording denials, the default action goes to it. */
	if (sc) {
		bool supervised;

		if (container_seccomp_chain(r->rootfd, r->cfg->linux,
		                            o->sup && o->sup->record_denied, &r->prog, &supervised,
		                            err) < 0)
			return -1;
	}
	trace_mark("create: seccomp filter ready");
	/* Egress rules: loaded now, attached once the cgroup is made
	 * (egress_load says why not in between). */
	if (o->policy && o->policy->egress.enforce) {
		if (egress_load(&o->policy->egress, o->sup != NULL, &r->eg, err) < 0)
			return -1;
		trace_mark("create: egress programs loaded");
	}
	return 0;
}

/* The state dir and what it keeps from the start: from here a create
 * killed is one delete --force cleans up. */
static int create_store(struct create_run *r, struct werror *err)
{
	const struct create_opts *o = r->o;
	struct container *c = r->c;

	if (store_create(r->rootfd, o->id, c, err) < 0)
		return -1;
	if (o->lease && id_lease_commit(o->lease, c->dirfd, err) < 0)
		return -1;
	if (o->config_json && store_write(c, CONFIG_FILE, o->config_json, o->config_len, err) < 0)
		return -1;
	if (o->policy && save_policy(c, o, err) < 0)
		return -1;
	/* The DNS gate's plan, and its resolv.conf as the last mount. */
	if (o->gate && (gate_conf_write(c->dirfd, o->gate, err) < 0 ||
	                gate_mount_add(c->dirfd, &r->cfg, &r->facts, &r->gm, err) < 0))
		return -1;
	return 0;
}

static int record_cgroup(void *arg, const char *rec, struct werror *err)
{
	return store_write(arg, CGROUP_FILE, rec, strlen(rec), err);
}

/* The cgroup and its limits exist before the init does (a rootless
 * container may have none: rootless_cgroup_decide); the egress programs
 * on its cgroup2 node, so nothing of the container ever runs unfiltered. */
static int create_cgroup(struct create_run *r, struct werror *err)
{
	const struct create_opts *o = r->o;
	const struct oci_linux *l = r->cfg->linux;
	struct cgroup_request req = {.cgroups_path = l ? l->cgroups_path : NULL,
	                             .id = o->id,
	                             .systemd = o->systemd_cgroup,
	                             .shared_ok = r->compat,
	                             .limits = l,
	                             .record = record_cgroup,
	                             .record_arg = r->c};

	if (!o->no_cgroup) {
		if (cgroup_make(&r->cg, &req, &r->have_cg, err) < 0)
			return -1;
		r->cgfd = cgroup_unified_fd(&r->cg, err);
		if (r->cg.unified && r->cgfd < 0)
			return -1;
	}
	if (r->eg.skel) {
		if (r->cgfd < 0)
			return werr_k(err, WERR_UNSUPPORTED, EOPNOTSUPP,
			              "egress rules need the container's cgroup2 node (none here)");
		if (egress_attach(r->cgfd, &r->eg, &r->efds, err) < 0)
			return -1;
		trace_mark("create: egress programs attached");
	}
	return 0;
}

/* What the init is handed: its terminal, the trees of its root and its
 * mounts (from the fds the policy decided on: a rename between the check
 * and the mount changes nothing, and the init never looks a host path up
 * again; the binds' when it mounts them, in config.json order), the start
 * fifo and the channel. */
static int create_handover(struct create_run *r, struct werror *err)
{
	const struct create_opts *o = r->o;
	/* Mounts that travel back to the host's: compat only, never from a
	 * user namespace's container. compat mounts an overlay by the
	 * options' paths, as runc does. */
	struct tree_plan plan = {.cfg = r->cfg,
	                         .facts = r->facts,
	                         .peers_ok = !r->userns && r->compat,
	                         .with_layers = o->policy && !r->compat};
	int not_its[5];

	if (o->console_fd)
		r->console = *o->console_fd;
	else if (o->console_socket && (r->console = console_connect(o->console_socket, err)) < 0)
		return -1;
	if (parent_trees(r->cfg, r->facts, o->bundle, &r->root_tree, plan.with_layers, err) < 0)
		return -1;
	/* Attached in the host's mount namespace: detached at delete. */
	if (!oci_config_namespace(r->cfg, CLONE_NEWNS) &&
	    host_mount_record(r->c, r->root_tree, r->rootfs, err) < 0)
		return -1;
	/* Before a user namespace is joined: the server stays privileged over
	 * the host's mount namespace. */
	not_its[0] = r->rootfd, not_its[1] = r->c->dirfd, not_its[2] = r->console;
	not_its[3] = r->cgfd, not_its[4] = r->root_tree;
	r->tree_server = tree_server_start(&plan, &r->tree_end, not_its, 5, err);
	if (r->tree_server < 0)
		return -1;
	if (mkfifoat(r->c->dirfd, EXEC_FIFO, 0600) < 0)
		return werr(err, errno, "creating the start fifo");
	/* O_RDWR: opening never blocks, and the init (which inherits it) stays
	 * a reader, so `start` can tell a waiting container from a dead one. */
	r->fifo = openat(r->c->dirfd, EXEC_FIFO, O_RDWR | O_CLOEXEC);
	if (r->fifo < 0 || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, r->sv) < 0)
		return werr(err, errno, "creating the start channel");
	return 0;
}

/* The init, in its namespaces and cgroups, its ids mapped, the sysctls of
 * its pid namespace set and its network devices moved in. */
static int create_spawn(struct create_run *r, struct werror *err)
{
	const struct create_opts *o = r->o;
	const struct oci_config *cfg = r->cfg;
	struct init_args a = {.cfg = cfg,
	                      .id = o->id,
	                      .bundle = o->bundle,
	                      .rootfs = r->rootfs,
	                      .sync_fd = r->sv[1],
	                      .fifo_fd = r->fifo,
	                      .no_pivot = o->no_pivot,
	                      /* Or in a user namespace already (root in rootless
	                       * Podman's): no mknod, no setgroups. */
	                      .userns = r->userns || rootless_cgroups(),
	                      .preserve_fds = o->preserve_fds,
	                      .console_sock = r->console,
	                      .relayed = o->console_fd != NULL,
	                      .root_tree = r->root_tree,
	                      .tree_fd = r->tree_end,
	                      .seccomp = cfg->linux && cfg->linux->seccomp ? &r->prog : NULL,
	                      .hook_pins = o->hook_pins,
	                      .join_user_fd = -1};
	int close_in_child[2] = {r->sv[0], r->c->dirfd};
	__attribute__((cleanup(cgroup_self_close))) struct cg_self self = {.n = 0};

	if (!o->no_cgroup && cgroup_self_entry_ok(&r->cg)) {
		if (cgroup_self_open(&r->cg, &self, err) < 0)
			return -1;
		a.cg_self = &self;
	}
	if (spawn_open_joined(cfg, r->facts, &a, o->userns_entered, err) < 0) {
		spawn_close_joined(&a);
		return -1;
	}
	/* Everything that needs the host's privileges is done by now (paths
	 * opened, idmapped trees made). What remains for this process - state
	 * files, the pid file - is owner-permitted to uid 0. */
	if (a.join_user_fd >= 0 && setns(a.join_user_fd, CLONE_NEWUSER) < 0) {
		spawn_close_joined(&a);
		return werr(err, errno, "config.json: joining the user namespace");
	}
	trace_mark("create: trees cloned, cloning the init");
	r->pid = spawn_init(&a, r->cflags, &r->pidfd, close_in_child, &r->cg, r->cgfd, err);
	spawn_close_joined(&a);
	if (r->pid < 0)
		return -1;
	/* What the init got is its own now. */
	close(TAKE_FD(r->sv[1]));
	close(TAKE_FD(r->fifo));
	if (r->console >= 0)
		close(TAKE_FD(r->console));
	close(TAKE_FD(r->tree_end));
	close(TAKE_FD(r->root_tree));
	log_debug("container %s: init is pid %d", o->id, (int)r->pid);
	/* v1 hierarchies: before the init may run anything (it waits for
	 * MAPPED), unless it entered them itself (a.cg_self). */
	if (!o->no_cgroup &&
	    cgroup_admit(&r->cg, r->pid, r->cgfd >= 0, a.cg_self != NULL, cfg->linux, err) < 0)
		return -1;
	if (r->cgfd >= 0)
		close(TAKE_FD(r->cgfd));
	if ((r->cflags & CLONE_NEWUSER) && userns_write_maps(r->pid, cfg->linux, err) < 0)
		return -1;
	/* Sysctls of the pid namespace (vm.memfd_noexec): only the host's root
	 * can write them, before the init runs anything. */
	if (sysctl_apply_pidns(r->pidfd, cfg, err) < 0)
		return -1;
	/* linux.netDevices: in the namespace before the hooks and the process. */
	if (cfg->linux && netdevs_move(&cfg->linux->net_devices, r->pid, &r->nd, err) < 0)
		return -1;
	trace_mark("create: init in its cgroups");
	return 0;
}

/* The protocol with the init (container/protocol.h), the state saved, the
 * supervisor started and the init released. */
static int create_handshake(struct create_run *r, struct werror *err)
{
	const struct create_opts *o = r->o;
	bool listens = filter_prog_listens(&r->prog);
	int sock = r->sv[0];

	if (proto_mapped(sock, err) < 0 || run_create_hooks(sock, o, r->cfg, r->pid, err) < 0)
		return -1;
	if (listens && !(o->sup && o->sup->record_denied) &&
	    forward_listener(sock, o, r->cfg, r->pid, err) < 0)
		return -1;
	/* The supervisor's listener: kept for it, and meanwhile answering the
	 * init's own last calls that the filter denies. */
	if (listens && o->sup && o->sup->record_denied &&
	    (proto_await_listener(sock, &r->notify, err) < 0 ||
	     sup_answer_until(sock, r->notify, o->sup->errno_ret, err) < 0))
		return -1;
	if (proto_await_ready(sock, err) < 0)
		return -1;
	trace_mark("create: init ready (rootfs built)");
	/* Mounts done: the init has closed its end. */
	tree_server_stop(r->tree_server);
	r->tree_server = -1;
	if (record_state(r->c, o, r->cfg, r->rootfs, r->pid, r->cg.path, err) < 0)
		return -1;
	trace_mark("create: state recorded");
	if (o->sup) {
		struct sup_fds f = {r->notify, r->efds.events, r->efds.counters, r->efds.allow,
		                    r->efds.ports};

		if (start_supervisor(r->c, r->rootfd, o, r->pidfd, &f, &r->sup_pidfd, err) < 0)
			return -1;
	}
	if (r->notify >= 0)
		close(TAKE_FD(r->notify));
	if (o->pid_file && pid_file_write(o->pid_file, r->pid, err) < 0)
		return -1;
	/* Wait for the init to drop its parent-death signal (it then closes
	 * the channel): exiting earlier would kill it. */
	trace_mark("create: supervisor and pid file done");
	if (proto_release(sock, err) < 0)
		return -1;
	trace_mark("create: init released");
	return 0;
}

/* What stays with the container, or goes with this process. */
static void create_done(struct create_run *r, int *pidfd_out)
{
	close(TAKE_FD(r->sv[0]));
	if (r->sup_pidfd >= 0)
		close(TAKE_FD(r->sup_pidfd));
	egress_fds_close(&r->efds);
	egress_unload(&r->eg);
	gate_mount_free(&r->gm);
	filter_prog_free(&r->prog);
	netdevs_forget(&r->nd);
	cgroup_free(&r->cg);
	r->c->status = ST_CREATED;
	if (pidfd_out)
		*pidfd_out = TAKE_FD(r->pidfd);
	else
		close(TAKE_FD(r->pidfd));
}

/* A create that failed: everything it made goes, in reverse. The undo's own
 * failures are not the error being returned. */
static void create_undo(struct create_run *r)
{
	_cleanup_werror_ struct werror undo_err = WERROR_INIT;
	struct container *c = r->c;

	/* No container: what it was given goes back (config-linux.md leaves
	 * the devices in the namespace only at delete). */
	netdevs_give_back(&r->nd);
	if (r->pidfd >= 0) {
		spawn_kill_and_reap(r->pidfd);
		close(r->pidfd);
	}
	if (r->notify >= 0)
		close(r->notify);
	if (r->sup_pidfd >= 0) {
		/* The guard first (else it would take the supervisor's end for a
		 * death and write into the state dir being removed). */
		container_supervisor_stop(c, r->sup_pidfd);
		close(r->sup_pidfd);
	}
	for (int i = 0; i < 2; i++)
		if (r->sv[i] >= 0)
			close(r->sv[i]);
	if (r->fifo >= 0)
		close(r->fifo);
	if (r->console >= 0)
		close(r->console);
	if (r->tree_end >= 0)
		close(r->tree_end);
	tree_server_stop(r->tree_server);
	if (r->root_tree >= 0)
		close(r->root_tree);
	if (r->o->pid_file && r->pid > 0)
		unlink(r->o->pid_file);
	if (c->dirfd >= 0) {
		/* The init is gone: what it attached on the host goes too. */
		host_mount_release(c, &undo_err);
	}
	if (r->cgfd >= 0)
		close(r->cgfd);
	egress_fds_close(&r->efds);
	egress_unload(&r->eg);
	gate_mount_free(&r->gm);
	if (r->have_cg)
		cgroup_destroy(&r->cg, &undo_err);
	cgroup_free(&r->cg);
	filter_prog_free(&r->prog);
	if (c->dirfd >= 0)
		store_remove(c, &undo_err);
	store_close(c);
}

int container_create(int rootfd, const struct create_opts *o, const struct oci_config *cfg,
                     struct container *c, int *pidfd_out, struct werror *err)
{
	struct create_run r = {
	    .rootfd = rootfd,
	    .o = o,
	    .cfg = cfg,
	    .facts = o->facts,
	    .c = c,
	    .userns = oci_config_namespace(cfg, CLONE_NEWUSER) != NULL,
	    .compat = !o->policy || o->policy->profile == PROFILE_COMPAT,
	    .cflags = spawn_clone_flags(cfg) & ~(o->userns_entered ? CLONE_NEWUSER : 0),
	    .efds = {-1, -1, -1, -1},
	    .nd = {NULL, 0, -1, -1},
	    .cgfd = -1,
	    .sv = {-1, -1},
	    .fifo = -1,
	    .console = -1,
	    .root_tree = -1,
	    .tree_end = -1,
	    .pidfd = -1,
	    .notify = -1,
	    .sup_pidfd = -1,
	    .tree_server = -1,
	    .pid = -1,
	};

	memset(c, 0, sizeof(*c));
	c->dirfd = -1;
	if (create_check(&r, err) < 0 || create_store(&r, err) < 0 || create_cgroup(&r, err) < 0 ||
	    create_handover(&r, err) < 0 || create_spawn(&r, err) < 0 ||
	    create_handshake(&r, err) < 0) {
		create_undo(&r);
		return -1;
	}
	create_done(&r, pidfd_out);
	return 0;
}
