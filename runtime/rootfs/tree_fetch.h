/* The init's side of the tree channel (container/tree_server.h): the
 * detached trees of one config.json mount, asked for when it is mounted,
 * so that mounts are made in the listed order (runtime-spec config.md). */
#ifndef WARD_TREE_FETCH_H
#define WARD_TREE_FETCH_H

#include "lib/error.h"

#include <stddef.h>

/* mounts[idx]'s trees into *fds (*n of them, none for a mount that has
 * none); the server's error becomes ours. -1 with werr. */
int tree_fetch(int sock, size_t idx, int **fds, size_t *n, struct werror *err);
void trees_close(int *fds, size_t n);

#endif
