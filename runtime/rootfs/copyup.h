/* tmpcopyup (a Podman/crun mount option): a tmpfs mounted over a directory
 * of the image starts with that directory's contents. */
#ifndef WARD_COPYUP_H
#define WARD_COPYUP_H

#include "lib/error.h"

/* Copy the tree under directory src_fd into directory dst_fd: files,
 * directories and symlinks, with their modes and owners; never following
 * a symlink (everything by fd, O_NOFOLLOW). The top directory's mode and
 * owner go to dst_fd too. */
int copyup_tree(int src_fd, int dst_fd, struct werror *err);

#endif
