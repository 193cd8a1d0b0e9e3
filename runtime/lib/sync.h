/* The create-time channel between ward (parent) and the container's init
 * (child): a SOCK_SEQPACKET socketpair, one fixed-size message per step. */
#ifndef WARD_SYNC_H
#define WARD_SYNC_H

#include <stdint.h>

#include "lib/error.h"

enum sync_type {
	SYNC_EOF = 0,    /* peer closed */
	SYNC_MAPPED,     /* parent → child: id maps written, go on */
	SYNC_READY,      /* child → parent: set up, waiting on the start fifo */
	SYNC_ACK,        /* parent → child: state saved, keep waiting */
	SYNC_ERROR,      /* child → parent: setup failed, text says why */
	SYNC_SECCOMP_FD, /* child → parent: the seccomp listener fd (SCM_RIGHTS) */
	SYNC_HOOKS,      /* child → parent: mounts done, run prestart/createRuntime */
	SYNC_HOOKS_DONE, /* parent → child: done; err carries the init's host pid */
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

#endif
