/* create's path from the request to a created container, shared by
 * ops_create and ops_run (op_create.c). */
#ifndef WARD_OPS_CREATE_H
#define WARD_OPS_CREATE_H

#include "lib/error.h"

#include "container/container.h"
#include "container/ops/ops.h"

/* master: NULL for create and run -d; for a foreground run, where the pty
 * master of a process.terminal without --console-socket goes (-1 when the
 * config has no terminal): ward relays it. */
int create_from_request(struct globals *g, const struct create_request *r, struct container *c,
                        int *pidfd, int *master, struct werror *err);

#endif
