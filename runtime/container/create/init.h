/* The container's init before execve: runs in the new namespaces, builds
 * the rootfs, drops privileges, reports READY and blocks on the start fifo. */
#ifndef WARD_INIT_H
#define WARD_INIT_H

#include "lib/error.h"

#include <stdbool.h>

#include "oci/config.h"
#include "seccomp/seccomp_filter.h"
#include "hooks/hooks.h"
#include "cgroup/cgroup.h"

struct init_args {
	const struct oci_config *cfg;
	const char *id;
	const char *bundle;
	const char *rootfs;
	int sync_fd;
	int fifo_fd;
	bool no_pivot;
	bool userns;
	int preserve_fds;
	int console_sock; /* --console-socket, connected by the parent; -1: none */
	bool relayed;     /* console_sock is ward's own relay (sized as its terminal) */
	int root_tree;    /* the rootfs, from the parent (idmap.c) */
	int tree_fd;      /* the tree channel: binds' and layers' trees, on request */
	const struct filter_prog *seccomp; /* NULL: no filter */
	/* createContainer's pinned hooks (the parent's, copied by the clone):
	 * closed once they ran. NULL: none. */
	struct hook_pins *hook_pins;
	/* Namespaces joined by path (user first), fds opened by the parent. */
	int join_fd[8];
	int join_flag[8];
	int n_join;
	int join_user_fd; /* joined by the parent itself, before the clone */
	/* The v1 cgroups the init enters itself, first thing (cgroup.h,
	 * cgroup_self_open); NULL: the parent puts it in. */
	struct cg_self *cg_self;
};

_Noreturn void init_run(const struct init_args *a, struct werror *err);

#endif
