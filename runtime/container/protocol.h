/* The channel between ward (the parent) and the process it makes in the
 * container (create's init, exec's process): a SOCK_SEQPACKET socketpair,
 * one message per step. Only container/ speaks it; the layers below get
 * or give an fd through a callback and never see a message.
 *
 * create, in this order (create/create.c the parent, create/init.c the init):
 *   parent -> init   MAPPED       id maps written, cgroups joined: go on
 *   init -> parent   HOOKS        only when hooks_create_round(): the mounts
 *                                 are made; run prestart and createRuntime
 *   parent -> init   HOOKS_DONE   with the init's pid as the host sees it
 *                                 (the createContainer hooks' state)
 *   init -> parent   SECCOMP_FD   only with SCMP_ACT_NOTIFY: the listener
 *   init -> parent   READY        set up, waiting on the start fifo
 *   parent -> init   ACK          the state is saved
 *   init closes                   EOF: it dropped its parent-death signal
 * exec: MAPPED, SECCOMP_FD (with a listener), then EOF at its execve.
 * At any step the child may send ERROR instead (errno, kind, message) and
 * exit; the receiving side turns it into its own error (proto_expect*).
 * The tree channel (tree_server.c, tree_fetch.c) uses the same framing:
 * TREE, then TREE_FD... TREE_END, per mount. */
#ifndef WARD_CONTAINER_PROTOCOL_H
#define WARD_CONTAINER_PROTOCOL_H

#include <stdint.h>
#include <sys/types.h>

#include "lib/error.h"

enum sync_type {
	SYNC_EOF = 0, /* peer closed */
	SYNC_MAPPED,
	SYNC_READY,
	SYNC_ACK,
	SYNC_ERROR,
	SYNC_SECCOMP_FD, /* the fd by SCM_RIGHTS */
	SYNC_HOOKS,
	SYNC_HOOKS_DONE, /* err carries the init's host pid */
	/* On the tree channel (container/tree_server.c), not this one: */
	SYNC_TREE,     /* child → server: the trees of mounts[err], made now */
	SYNC_TREE_FD,  /* server → child: one of them (SCM_RIGHTS) */
	SYNC_TREE_END, /* server → child: that was the last (or none) */
};

#define SYNC_TEXT_MAX 4096

struct sync_msg {
	uint32_t type;
	int32_t err;
	uint32_t kind; /* SYNC_ERROR: the error's enum werr_kind */
	char text[SYNC_TEXT_MAX];
};

int sync_send(int fd, enum sync_type type, struct werror *err);
/* With a number in the err field (SYNC_HOOKS_DONE carries a pid). */
int sync_send_num(int fd, enum sync_type type, int32_t num, struct werror *err);
/* sync_expect, giving back the message. */
int sync_expect_msg(int fd, enum sync_type type, struct sync_msg *m, struct werror *err);
/* Send err (message, errno and kind) as SYNC_ERROR; a message longer than
 * the channel carries ends in "[...]". A failure to send is not recorded:
 * err is what the caller reports either way. */
void sync_send_error(int fd, struct werror *err);
/* passfd: where an fd sent along is stored (-1 if none); NULL closes any. */
int sync_recv(int fd, struct sync_msg *m, int *passfd, struct werror *err);
/* Receive and insist on one type; a SYNC_ERROR becomes err. */
int sync_expect(int fd, enum sync_type type, struct werror *err);
/* The same, with one fd passed along (SCM_RIGHTS). */
int sync_send_fd(int fd, enum sync_type type, int passfd, struct werror *err);
int sync_expect_fd(int fd, enum sync_type type, int *passfd, struct werror *err);

/* --- the steps of create, by name (the sequence above) */
static inline int proto_mapped(int fd, struct werror *err)
{
	return sync_send(fd, SYNC_MAPPED, err);
}
static inline int proto_await_mapped(int fd, struct werror *err)
{
	return sync_expect(fd, SYNC_MAPPED, err);
}
/* init: the mounts are made; the hooks run; *host_pid is the init's pid
 * as the host sees it. */
int proto_hooks(int fd, pid_t *host_pid, struct werror *err);
/* parent: await HOOKS, run(arg), answer HOOKS_DONE with host_pid. */
int proto_run_hooks(int fd, pid_t host_pid, int (*run)(void *arg, struct werror *err), void *arg,
                    struct werror *err);
static inline int proto_hand_listener(int fd, int listener, struct werror *err)
{
	return sync_send_fd(fd, SYNC_SECCOMP_FD, listener, err);
}
/* prepare_args.hand_listener (linux/process.h), chan an int * (the fd). */
static inline int proto_listener_to(void *chan, int listener, struct werror *err)
{
	return proto_hand_listener(*(const int *)chan, listener, err);
}
static inline int proto_await_listener(int fd, int *listener, struct werror *err)
{
	return sync_expect_fd(fd, SYNC_SECCOMP_FD, listener, err);
}
/* init: READY, then wait for the parent's ACK. */
int proto_ready(int fd, struct werror *err);
static inline int proto_await_ready(int fd, struct werror *err)
{
	return sync_expect(fd, SYNC_READY, err);
}
/* exec's parent: the child's execve closes its end (EOF): it runs. */
static inline int proto_await_exec(int fd, struct werror *err)
{
	return sync_expect(fd, SYNC_EOF, err);
}
/* parent: ACK, then wait for the init to close the channel. */
int proto_release(int fd, struct werror *err);
/* child: the step failed; err goes to the parent (sync_send_error). */
static inline void proto_fail(int fd, struct werror *err)
{
	sync_send_error(fd, err);
}

#endif
