/* Making the container's init: the namespaces it joins, opened and
 * checked, and the clone into its cgroup. */
#include "container/create/spawn.h"
#include "cgroup/cgroup.h"
#include "lib/cleanup.h"
#include "lib/error.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/nsfs.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/pidfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* New namespaces: those listed without a path. A new time namespace is
 * made by the init itself (unshare, offsets, then execve enters it):
 * offsets can no longer change once a process is inside. */
int spawn_clone_flags(const struct oci_config *c)
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
int spawn_open_joined(const struct oci_config *c, const struct host_facts *h, struct init_args *a,
                      bool userns_entered, struct werror *err)
{
	const struct oci_linux *l = c->linux;

	a->n_join = 0;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; l && i < l->n_namespaces; i++) {
			const struct oci_namespace *n = &l->namespaces[i];
			_cleanup_close_ int fd = -1;
			int type;

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
			if (type != n->flag)
				return werr_k(
				    err, WERR_INVALID, 0,
				    "config.json: .linux.namespaces[%zu].path: %s is not a %s "
				    "namespace",
				    i, n->path, n->type);
			if (n->flag == CLONE_NEWPID) {
				if (setns(fd, CLONE_NEWPID) < 0)
					return werr(err, errno,
					            "config.json: .linux.namespaces[%zu]: "
					            "joining %s",
					            i, n->path);
				continue;
			}
			if (n->flag == CLONE_NEWUSER) {
				/* Joined by ward itself, last thing before the clone, so
				 * that the new namespaces belong to it. */
				a->join_user_fd = TAKE_FD(fd);
				continue;
			}
			a->join_fd[a->n_join] = TAKE_FD(fd);
			a->join_flag[a->n_join++] = n->flag;
		}
	return 0;
}

void spawn_close_joined(struct init_args *a)
{
	for (int i = 0; i < a->n_join; i++)
		close(a->join_fd[i]);
	a->n_join = 0;
	if (a->join_user_fd >= 0)
		close(a->join_user_fd);
	a->join_user_fd = -1;
}

pid_t spawn_init(const struct init_args *a, int flags, int *pidfd, int close_in_child[2],
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

void spawn_kill_and_reap(int pidfd)
{
	siginfo_t si;

	pidfd_send_signal(pidfd, SIGKILL, NULL, 0);
	while (waitid(P_PIDFD, (id_t)pidfd, &si, WEXITED) < 0 && errno == EINTR)
		;
}
