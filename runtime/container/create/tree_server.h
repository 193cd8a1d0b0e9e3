/* The process that clones the trees of config.json's mounts for the init,
 * one mount at a time, when the init attaches it.
 *
 * runtime-spec config.md, "mounts": mounted in the listed order. Since
 * Linux 6.8 a namespace's mounts are kept (and /proc/self/mountinfo lists
 * them) by their unique id, allocated when a mount is made: a bind's tree
 * cloned before the init mounts /proc would be listed before it. The
 * clone needs privilege over the host's mount namespace, which the init
 * (in its own mount namespace, perhaps a user namespace) no longer has,
 * nor the parent once it joins a user namespace by path: so a child forked
 * before that serves the init's requests over a socketpair of its own, from
 * the fds the policy decided on (CVE-2021-30465 class: never a path). */
#ifndef WARD_CONTAINER_TREE_SERVER_H
#define WARD_CONTAINER_TREE_SERVER_H

#include "lib/error.h"

#include <sys/types.h>

#include "container/create/trees.h"

/* Fork the server; *init_end: the init's end of the channel (close-on-exec,
 * the caller's until the init inherits it). keep_closed: fds of the
 * parent's the server must not hold (n of them, -1 skipped). The pid, or
 * -1 with werr. */
pid_t tree_server_start(const struct tree_plan *p, int *init_end, const int *keep_closed, size_t n,
                        struct werror *err);
/* End and reap it (its work is done once the init reports READY, or failed). */
void tree_server_stop(pid_t pid);

#endif
