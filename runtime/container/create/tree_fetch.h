/* The init's side of the tree channel (tree_server.h): the detached trees
 * of one config.json mount, asked for when it is mounted, so that mounts
 * are made in the listed order (runtime-spec config.md). rootfs/ calls
 * these through rootfs_args (fetch_trees, trees_done) and never speaks
 * the channel itself. */
#ifndef WARD_TREE_FETCH_H
#define WARD_TREE_FETCH_H

#include "lib/error.h"

#include <stddef.h>

struct tree_channel {
	int sock; /* -1: closed */
};

/* mounts[idx]'s trees into *fds (*n of them, none for a mount that has
 * none); the server's error becomes ours. chan: a struct tree_channel. */
int tree_fetch(void *chan, size_t idx, int **fds, size_t *n, struct werror *err);
/* No more trees will be asked for: the server ends with the channel. */
void tree_channel_close(void *chan);

#endif
