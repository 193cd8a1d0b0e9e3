/* Process identity that survives pid reuse: a pid is ours only while its
 * start time (/proc/PID/stat field 22) matches the one recorded at create. */
#ifndef WARD_PROC_H
#define WARD_PROC_H

#include "lib/error.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* Reads start time and state letter of pid. -1 with errno ESRCH if gone. */
int proc_stat(pid_t pid, uint64_t *start, char *state, struct werror *err);
/* A pidfd for pid if it is still the process that started at `start` and is
 * not a zombie; -1 with werr (ESRCH) otherwise. */
int proc_pidfd(pid_t pid, uint64_t start, struct werror *err);
/* True if pid is alive (not a zombie) and started at `start`. */
bool proc_alive(pid_t pid, uint64_t start, struct werror *err);
/* Wait up to timeout_ms for the process behind pidfd to exit (0 on exit). */
int proc_wait_exit(int pidfd, int timeout_ms, struct werror *err);

#endif
