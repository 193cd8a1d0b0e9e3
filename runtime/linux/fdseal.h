/* The file descriptors a container's process may see.
 *
 * CVE-2024-21626: an fd of the runtime's that is still open while the
 * container's cwd or executable is resolved can be named as
 * /proc/self/fd/N, and a directory fd from the host's mount tree then puts
 * the process outside its root. The class is closed by never having such an
 * fd open at that point (fds_close_except), by resolving without magic
 * links (linux/cwd.h), and by checking that what stays open cannot lead
 * anywhere (fds_check_channels). */
#ifndef WARD_FDSEAL_H
#define WARD_FDSEAL_H

#include "lib/error.h"

#include <stddef.h>

/* Close every fd from 3 up except those in keep[] (negative entries are
 * ignored) and the caller's preserved range 3..3+preserve-1. */
int fds_close_except(const int *keep, size_t n, int preserve, struct werror *err);
/* Each fd of fds[] (negative entries ignored) is a socket or a fifo: fail
 * closed, naming it, if one is a directory, a file or anything else that a
 * path through /proc/self/fd could enter or execute. */
int fds_check_channels(const int *fds, size_t n, struct werror *err);
/* At execve exactly fds 0-2 and the caller's passed fds of
 * 3..3+preserve-1 stay open; everything else is made close-on-exec. */
int fds_seal_for_exec(int preserve, struct werror *err);

#endif
