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
#include "container/tree_server.h"
#include "container/trees.h"
#include "facts/host_facts.h"
#include "rootfs/idmap.h"
#include "rootfs/mount_opts.h"
#include "rootfs/rootfs.h"
#include "container/init.h"
#include "lib/log.h"
#include "container/proc.h"
#include "seccomp/seccomp_filter.h"
#include "seccomp/seccomp_notify.h"
#include "container/support.h"
#include "supervisor/supervisor.h"
#include "net/egress_bpf.h"
#include "net/netdev_move.h"
#include "net/gate_conf.h"
#include "container/gate_mount.h"
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

/* New namespaces: those listed without a path. A new time namespace is
 * made by the init itself (unshare, offsets, then execve enters it):
 * offsets can no longer change once a process is inside. */
static int clone_flags(const struct oci_config *c)
{
	int flags = 0;

	for (size_t i = 0; c->linux && i < c->linux->n_namespaces; i++)
		if (!c->linux->namespaces[i].path || !c->linux->namespaces[i].path[0])
			flags |= c->linux->namespaces[i].flag;
	/* The cgroup namespace too: the init unshares it once it is in its
	 * cgroups in every hierarchy (v1 ones are joined after the clone), so
	 * that the namespace is rooted at the container's own cgroup. */
	return flags & ~(CLONE_NEWTIME | CLONE_NEWCGROUP);
}

/* Open the namespaces to join, checking each is of the type it is listed
 * as; the user namespace goes first (the others may belong to it). A pid
 * namespace is joined here: it applies to our next child, the init. The
 * one the policy judged (the host facts' fd) is the one joined: the path
 * is not looked up again. */
static int open_joined(const struct oci_config *c, const struct host_facts *h, struct init_args *a,
                       bool userns_entered, struct werror *err)
{
	const struct oci_linux *l = c->linux;

	a->n_join = 0;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; l && i < l->n_namespaces; i++) {
			const struct oci_namespace *n = &l->namespaces[i];
			int fd, type;

			if (!n->path || !n->path[0] || (pass == 0) != (n->flag == CLONE_NEWUSER) ||
			    (userns_entered && n->flag == CLONE_NEWUSER))
				continue;
			if (h && i < h->n_ns && h->ns_fd && h->ns_fd[i] >= 0)
				fd = fcntl(h->ns_fd[i], F_DUPFD_CLOEXEC, 3);
			else
				fd = open(n->path, O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				return werr_k(err, WERR_INVALID, errno,
				              "config.json: .linux.namespaces[%zu].path %s", i,
				              n->path);
			type = ioctl(fd, NS_GET_NSTYPE);
			if (type != n->flag) {
				close(fd);
				return werr_k(
				    err, WERR_INVALID, 0,
				    "config.json: .linux.namespaces[%zu].path: %s is not a %s "
				    "namespace",
				    i, n->path, n->type);
			}
			if (n->flag == CLONE_NEWPID) {
				int r = setns(fd, CLONE_NEWPID);

				close(fd);
				if (r < 0)
					return werr(err, errno,
					            "config.json: .linux.namespaces[%zu]: "
					            "joining %s",
					            i, n->path);
				continue;
			}
			if (n->flag == CLONE_NEWUSER) {
				/* Joined by ward itself, last thing before the clone, so
				 * that the new namespaces belong to it. */
				a->join_user_fd = fd;
				continue;
			}
			a->join_fd[a->n_join] = fd;
			a->join_flag[a->n_join++] = n->flag;
		}
	return 0;
}

static void close_joined(struct init_args *a)
{
	for (int i = 0; i < a->n_join; i++)
		close(a->join_fd[i]);
	a->n_join = 0;
	if (a->join_user_fd >= 0)
		close(a->join_user_fd);
	a->join_user_fd = -1;
}

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
	int listener, r;

	if (proto_await_listener(sock, &listener, err) < 0)
		return -1;
	r = seccomp_notify_forward(listener, cfg->linux->seccomp, &st, err);
	if (listener >= 0)
		close(listener);
	return r;
}

static pid_t spawn_init(const struct init_args *a, int flags, int *pidfd, int close_in_child[2],
                        const struct cgroup *cg, int cgroup_fd, struct werror *err)
{
	/* Into its cgroup2 cgroup from the first instruction (Linux ≥ 5.7). */
	struct clone_args ca = {
	    .flags = (uint64_t)flags | CLONE_PIDFD | (cgroup_fd >= 0 ? CLONE_INTO_CGROUP : 0),
	    .pidfd = (uint64_t)(uintptr_t)pidfd,
	    .exit_signal = SIGCHLD,
	    .cgroup = cgroup_fd >= 0 ? (uint64_t)cgroup_fd : 0,
	};
	pid_t pid = (pid_t)syscall(SYS_clone3, &ca, sizeof(ca));

	if (pid < 0)
		return werr(err, errno, "clone3 of the container init");
	if (pid == 0) {
		/* The state lock must not outlive ward: init keeps nothing of ours
		 * beyond the sync socket and the fifo. */
		close(close_in_child[0]);
		close(close_in_child[1]);
		cgroup_close_fds(cg);
		init_run(a, err);
	}
	return pid;
}

static void kill_and_reap(int pidfd)
{
	siginfo_t si;

	pidfd_send_signal(pidfd, SIGKILL, NULL, 0);
	while (waitid(P_PIDFD, (id_t)pidfd, &si, WEXITED) < 0 && errno == EINTR)
		;
}

int container_seccomp_prog(int rootfd, const struct oci_seccomp *sc, struct filter_prog *prog,
                           struct werror *err)
{
	int cache = store_cache_dir(rootfd, "seccomp");
	int r = filter_compile_cached(sc, cache, prog, err);

	if (cache >= 0)
		close(cache);
	return r;
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
	int fd, r;

	if (store_write(c, POLICY_RECORD_FILE, o->policy_record, o->policy_record_len, err) < 0)
		return -1;
	fd = openat(c->dirfd, AUDIT_FILE, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC,
	            0600);
	if (fd < 0)
		return werr(err, errno, "audit log of \"%s\"", c->id);
	r = policy_audit_write(x, fd, err);
	close(fd);
	return r;
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

/* systemd's scope starts around a holder process, which counts against
 * pids.max while the init is made: a limit of 1 would fail the clone. It
 * starts at 2 then (the copies here), and is set once the holder is gone. */
static bool holder_limits(const struct oci_linux *l, struct oci_linux *ls, struct oci_resources *rs,
                          struct oci_pids *ps)
{
	if (!l || !l->resources || !l->resources->pids || l->resources->pids->limit != 1)
		return false;
	*ls = *l;
	*rs = *l->resources;
	*ps = (struct oci_pids){.limit = 2};
	rs->pids = ps;
	ls->resources = rs;
	return true;
}

/* The rootfs and every bind source as detached trees, cloned from the fds
 * the policy decided on (issue #12: a rename between the check and the
 * mount changes nothing, and the init never looks a host path up again);
 * the binds' when the init mounts them (tree_server.h: config.json order). */
int container_create(int rootfd, const struct create_opts *o, const struct oci_config *cfg,
                     struct container *c, int *pidfd_out, struct werror *err)
{
	char rootfs[PATH_MAX];
	int sv[2] = {-1, -1}, fifo = -1, pidfd = -1, console = -1, cgfd = -1, notify = -1;
	int sup_pidfd = -1;
	int root_tree = -1, tree_end = -1;
	pid_t tree_server = -1;
	struct egress_fds efds = {-1, -1, -1, -1};
	struct egress_loaded eg = {0};
	struct netdev_moves nd = {NULL, 0, -1, -1};
	struct gate_mount gm = {0};
	const struct host_facts *facts = o->facts;
	_cleanup_cgroup_ struct cgroup cg = {0};
	struct oci_linux lin_start;
	struct oci_resources res_start;
	struct oci_pids pids_start;
	const struct oci_linux *lin = cfg->linux;
	bool have_cg = false;
	const struct oci_seccomp *sc = cfg->linux ? cfg->linux->seccomp : NULL;
	struct filter_prog prog = {0};
	bool userns = oci_config_namespace(cfg, CLONE_NEWUSER) != NULL;
	int cflags = clone_flags(cfg) & ~(o->userns_entered ? CLONE_NEWUSER : 0);
	pid_t pid = -1;

	memset(c, 0, sizeof(*c));
	c->dirfd = -1;
	if (support_check(cfg, !o->policy || o->policy->profile == PROFILE_COMPAT, err) < 0 ||
	    support_rootfs(cfg, o->bundle, rootfs, err) < 0)
		return -1;
	/* Compiled before the clone: the init inherits the program. With the
	 * supervisor recording denials, the default action goes to it. */
	if (sc) {
		bool supervised;

		if (container_seccomp_chain(rootfd, cfg->linux, o->sup && o->sup->record_denied,
		                            &prog, &supervised, err) < 0) {
			filter_prog_free(&prog);
			return -1;
		}
	}
	trace_mark("create: seccomp filter ready");
	/* Egress rules (issue 26): loaded now, attached once the cgroup is
	 * made (egress_load says why not in between). */
	if (o->policy && o->policy->egress.enforce) {
		if (egress_load(&o->policy->egress, o->sup != NULL, &eg, err) < 0) {
			filter_prog_free(&prog);
			return -1;
		}
		trace_mark("create: egress programs loaded");
	}
	if (store_create(rootfd, o->id, c, err) < 0) {
		filter_prog_free(&prog);
		egress_unload(&eg);
		return -1;
	}
	if (o->lease && id_lease_commit(o->lease, c->dirfd, err) < 0)
		goto fail;
	if (o->config_json && store_write(c, CONFIG_FILE, o->config_json, o->config_len, err) < 0)
		goto fail;
	if (o->policy && save_policy(c, o, err) < 0)
		goto fail;
	/* The DNS gate's plan, and its resolv.conf as the last mount. */
	if (o->gate && (gate_conf_write(c->dirfd, o->gate, err) < 0 ||
	                gate_mount_add(c->dirfd, &cfg, &facts, &gm, err) < 0))
		goto fail;
	/* The cgroup and its limits exist before the init does (a rootless
	 * container may have none: rootless_cgroup_decide). */
	if (!o->no_cgroup) {
		if ((o->systemd_cgroup ? cgroup_init_systemd : cgroup_init)(
		        &cg, cfg->linux ? cfg->linux->cgroups_path : NULL, o->id, err) < 0)
			goto fail;
		/* Until systemd has made the scope, a unit of that name is nobody's
		 * to stop (delete --force of a create killed now leaves it alone). */
		cg.pending = cg.unit != NULL;
		if (cg.unit && holder_limits(cfg->linux, &lin_start, &res_start, &pids_start))
			lin = &lin_start;
		/* Recorded before anything is made: a create killed while making the
		 * cgroup leaves a container delete --force can clean up. */
		cgroup_plan(&cg);
		{
			char rec[PATH_MAX * 2 + 4];

			cgroup_record(&cg, rec, sizeof(rec));
			if (store_write(c, CGROUP_FILE, rec, strlen(rec), err) < 0)
				goto fail;
		}
		/* The systemd driver: the scope, with its limits, made by systemd. */
		if (cgroup_systemd_start(&cg, o->id, lin, err) < 0)
			goto fail;
		have_cg = cg.unit != NULL;
		/* compat joins a populated cgroup with a warning, as runc does. */
		if (cgroup_create(&cg, !o->policy || o->policy->profile == PROFILE_COMPAT, err) < 0)
			goto fail;
		have_cg = true;
		if (cgroup_pin(&cg, err) < 0)
			goto fail;
		/* Recorded again with what create found (the same, unless another
		 * create made a shared parent meanwhile). */
		{
			char rec[PATH_MAX * 2 + 4];

			cgroup_record(&cg, rec, sizeof(rec));
			if (store_write(c, CGROUP_FILE, rec, strlen(rec), err) < 0)
				goto fail;
		}
		trace_mark("create: cgroup made");
		if (cgroup_apply(&cg, lin, err) < 0)
			goto fail;
		trace_mark("create: cgroup limits written");
		cgfd = cgroup_unified_fd(&cg, err);
		if (cg.unified && cgfd < 0)
			goto fail;
	}
	/* Egress rules: on the cgroup2 node before the init exists, so nothing
	 * of the container ever runs unfiltered. */
	if (eg.skel) {
		if (cgfd < 0) {
			werr_k(err, WERR_UNSUPPORTED, EOPNOTSUPP,
			       "egress rules need the container's cgroup2 node (none here)");
			goto fail;
		}
		if (egress_attach(cgfd, &eg, &efds, err) < 0)
			goto fail;
		trace_mark("create: egress programs attached");
	}
	if (o->console_fd)
		console = *o->console_fd;
	else if (o->console_socket && (console = console_connect(o->console_socket, err)) < 0)
		goto fail;
	{
		/* Mounts that travel back to the host's: compat only, never
		 * from a user namespace's container. compat mounts an overlay
		 * by the options' paths, as runc does. */
		bool compat = !o->policy || o->policy->profile == PROFILE_COMPAT;
		struct tree_plan plan = {.cfg = cfg,
		                         .facts = facts,
		                         .peers_ok = !userns && compat,
		                         .with_layers = o->policy && !compat};
		int not_its[] = {rootfd, c->dirfd, console, cgfd, root_tree};

		if (parent_trees(cfg, facts, o->bundle, &root_tree, plan.with_layers, err) < 0)
			goto fail;
		not_its[4] = root_tree;
		/* Attached in the host's mount namespace: detached at delete. */
		if (!oci_config_namespace(cfg, CLONE_NEWNS) &&
		    host_mount_record(c, root_tree, rootfs, err) < 0)
			goto fail;
		/* Before a user namespace is joined below: the server stays
		 * privileged over the host's mount namespace. */
		tree_server = tree_server_start(&plan, &tree_end, not_its,
		                                sizeof(not_its) / sizeof(not_its[0]), err);
		if (tree_server < 0)
			goto fail;
	}
	if (mkfifoat(c->dirfd, EXEC_FIFO, 0600) < 0) {
		werr(err, errno, "creating the start fifo");
		goto fail;
	}
	/* O_RDWR: opening never blocks, and the init (which inherits it) stays
	 * a reader, so `start` can tell a waiting container from a dead one. */
	fifo = openat(c->dirfd, EXEC_FIFO, O_RDWR | O_CLOEXEC);

	if (fifo < 0 || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		werr(err, errno, "creating the start channel");
		goto fail;
	}
	{
		struct init_args a = {.cfg = cfg,
		                      .id = o->id,
		                      .bundle = o->bundle,
		                      .rootfs = rootfs,
		                      .sync_fd = sv[1],
		                      .fifo_fd = fifo,
		                      .no_pivot = o->no_pivot,
		                      /* Or in a user namespace already (root in
		                       * rootless Podman's): no mknod, no setgroups. */
		                      .userns = userns || rootless_cgroups(),
		                      .preserve_fds = o->preserve_fds,
		                      .console_sock = console,
		                      .relayed = o->console_fd != NULL,
		                      .root_tree = root_tree,
		                      .tree_fd = tree_end,
		                      .seccomp = sc ? &prog : NULL,
		                      .hook_pins = o->hook_pins};
		int close_in_child[2] = {sv[0], c->dirfd};

		a.join_user_fd = -1;
		if (open_joined(cfg, facts, &a, o->userns_entered, err) < 0) {
			close_joined(&a);
			goto fail;
		}
		/* Everything that needs the host's privileges is done by now (paths
		 * opened, idmapped trees made). What remains for this process -
		 * state files, the pid file - is owner-permitted to uid 0. */
		if (a.join_user_fd >= 0 && setns(a.join_user_fd, CLONE_NEWUSER) < 0) {
			werr(err, errno, "config.json: joining the user namespace");
			close_joined(&a);
			goto fail;
		}
		trace_mark("create: trees cloned, cloning the init");
		pid = spawn_init(&a, cflags, &pidfd, close_in_child, &cg, cgfd, err);
		close_joined(&a);
	}
	if (pid < 0)
		goto fail;
	close(sv[1]);
	sv[1] = -1;
	close(fifo);
	fifo = -1;
	if (console >= 0)
		close(console);
	console = -1;
	close(tree_end);
	tree_end = -1;
	close(root_tree);
	root_tree = -1;
	log_debug("container %s: init is pid %d", o->id, (int)pid);
	/* v1 hierarchies: before the init may run anything (it waits for
	 * MAPPED). */
	if (cgroup_add_pid(&cg, pid, cgfd >= 0, err) < 0)
		goto fail;
	cgroup_release_holder(&cg);
	if (lin == &lin_start) {
		struct oci_resources r = {.pids = cfg->linux->resources->pids};
		struct oci_linux l = {.resources = &r};

		if (cgroup_update(&cg, &l, err) < 0)
			goto fail;
	}
	if (cgfd >= 0)
		close(cgfd);
	cgfd = -1;
	if ((cflags & CLONE_NEWUSER) && userns_write_maps(pid, cfg->linux, err) < 0)
		goto fail;
	/* Sysctls of the pid namespace (vm.memfd_noexec): only the host's
	 * root can write them, before the init runs anything. */
	if (sysctl_apply_pidns(pidfd, cfg, err) < 0)
		goto fail;
	/* linux.netDevices: in the namespace before the hooks and the process. */
	if (cfg->linux && netdevs_move(&cfg->linux->net_devices, pid, &nd, err) < 0)
		goto fail;
	trace_mark("create: init in its cgroups");
	if (proto_mapped(sv[0], err) < 0)
		goto fail;
	if (run_create_hooks(sv[0], o, cfg, pid, err) < 0)
		goto fail;
	if (filter_prog_listens(&prog) && !(o->sup && o->sup->record_denied) &&
	    forward_listener(sv[0], o, cfg, pid, err) < 0)
		goto fail;
	/* The supervisor's listener: kept for it, and meanwhile answering
	 * the init's own last calls that the filter denies. */
	if (filter_prog_listens(&prog) && o->sup && o->sup->record_denied) {
		if (proto_await_listener(sv[0], &notify, err) < 0 ||
		    sup_answer_until(sv[0], notify, o->sup->errno_ret, err) < 0)
			goto fail;
	}
	if (proto_await_ready(sv[0], err) < 0)
		goto fail;
	trace_mark("create: init ready (rootfs built)");
	/* Mounts done: the init has closed its end. */
	tree_server_stop(tree_server);
	tree_server = -1;
	if (record_state(c, o, cfg, rootfs, pid, cg.path, err) < 0)
		goto fail;
	trace_mark("create: state recorded");
	if (o->sup) {
		struct sup_fds f = {notify, efds.events, efds.counters, efds.allow, efds.ports};

		if (start_supervisor(c, rootfd, o, pidfd, &f, &sup_pidfd, err) < 0)
			goto fail;
	}
	if (notify >= 0)
		close(notify);
	notify = -1;
	if (o->pid_file && pid_file_write(o->pid_file, pid, err) < 0)
		goto fail;
	/* Wait for the init to drop its parent-death signal (it then closes
	 * the channel): exiting earlier would kill it. */
	trace_mark("create: supervisor and pid file done");
	if (proto_release(sv[0], err) < 0)
		goto fail;
	trace_mark("create: init released");
	close(sv[0]);
	if (sup_pidfd >= 0)
		close(sup_pidfd);
	egress_fds_close(&efds);
	egress_unload(&eg);
	gate_mount_free(&gm);
	filter_prog_free(&prog);
	netdevs_forget(&nd);
	c->status = ST_CREATED;
	if (pidfd_out)
		*pidfd_out = pidfd;
	else
		close(pidfd);
	return 0;
fail : {
	/* The undo's own failures are not the error being returned. */
	_cleanup_werror_ struct werror undo_err = WERROR_INIT;

	/* No container: what it was given goes back (config-linux.md leaves
	 * the devices in the namespace only at delete). */
	netdevs_give_back(&nd);
	if (pidfd >= 0) {
		kill_and_reap(pidfd);
		close(pidfd);
	}
	if (notify >= 0)
		close(notify);
	if (sup_pidfd >= 0) {
		/* The guard first (else it would take the supervisor's end for a
		 * death and write into the state dir being removed). */
		container_supervisor_stop(c, sup_pidfd);
		close(sup_pidfd);
	}
	for (int i = 0; i < 2; i++)
		if (sv[i] >= 0)
			close(sv[i]);
	if (fifo >= 0)
		close(fifo);
	if (console >= 0)
		close(console);
	if (tree_end >= 0)
		close(tree_end);
	tree_server_stop(tree_server);
	if (root_tree >= 0)
		close(root_tree);
	if (o->pid_file && pid > 0)
		unlink(o->pid_file);
	/* The init is gone: what it attached on the host goes too. */
	host_mount_release(c, &undo_err);
	if (cgfd >= 0)
		close(cgfd);
	egress_fds_close(&efds);
	egress_unload(&eg);
	gate_mount_free(&gm);
	if (have_cg)
		cgroup_destroy(&cg, &undo_err);
	filter_prog_free(&prog);
	store_remove(c, &undo_err);
	store_close(c);
	return -1;
}
}
