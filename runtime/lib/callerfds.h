/* The file descriptors ward's caller passed on (--preserve-fds N, and
 * systemd's LISTEN_FDS): of 3..3+N-1 only those that were open when ward
 * started may reach the container (issue #12).
 *
 * callerfds_take runs first in main, before ward opens anything (and again
 * after the sealed re-exec, which keeps exactly the caller's fds: ward's
 * own are close-on-exec). It records which fds of the range are open, and
 * occupies every other one with a close-on-exec /dev/null, so that no fd
 * ward opens later can land in the range. Before the container's process
 * runs, only the recorded fds lose close-on-exec (see process.c). */
#ifndef WARD_LIB_CALLERFDS_H
#define WARD_LIB_CALLERFDS_H

#include "lib/error.h"

#include <stdbool.h>

/* The most fds ward records and passes: the range is 3..3+CALLERFDS_MAX-1. */
#define CALLERFDS_MAX 65536

/* Record and reserve 3..3+n-1 (n is clamped to CALLERFDS_MAX; the
 * reservation stops 64 fds short of RLIMIT_NOFILE, so that ward can still
 * work). Once per process; -1 with errno only if /dev/null cannot be
 * opened. */
int callerfds_take(int n);
/* The size of the recorded range (0 before callerfds_take). */
int callerfds_range(void);
/* fd was open when ward started and lies in the recorded range. */
bool callerfds_passed(int fd);
/* The command's own count (its --preserve-fds, plus LISTEN_FDS) lies within
 * the recorded range; else -1 with werr. */
int callerfds_check(int n, struct werror *err);

#endif
