/* The working directory of a container's process, entered by fd.
 *
 * CVE-2024-21626: a cwd named through /proc/self/fd/N (or any other magic
 * link) can be a directory of the host's mount tree, and getcwd(2) is no
 * check - a path in another mount namespace reads as absolute. The cwd is
 * resolved with openat2(RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS) from the
 * process's own root, entered with fchdir on that same fd, and then proven
 * to lie below that root by walking ".." up to it (mount id, device and
 * inode at every step): a detached tree, another namespace's tree or the
 * host's never reaches it. */
#ifndef WARD_CWD_H
#define WARD_CWD_H

#include "lib/error.h"

/* Enter cwd (absolute, inside the process's root). -1 with werr naming
 * what, errno kept from the failing call (EACCES: the caller may try again
 * as another user). */
int cwd_enter(const char *what, const char *cwd, struct werror *err);
/* The current directory lies below the process's root, in its mount
 * namespace; -1 with werr (EPERM) otherwise. */
int cwd_check_inside(const char *what, struct werror *err);

#endif
