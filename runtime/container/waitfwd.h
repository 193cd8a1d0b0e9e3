/* Waiting for a process of ours while passing the caller's signals on to
 * it, as `run` and `exec` do in the foreground. */
#ifndef WARD_WAITFWD_H
#define WARD_WAITFWD_H

#include "lib/error.h"

#include <signal.h>
#include <stdbool.h>

/* Block the forwarded signals (before the clone: nothing gets lost; the
 * child resets its mask). */
void fwd_block(sigset_t *set, sigset_t *old);
/* Wait for the process behind pidfd, forwarding set; its exit status as a
 * shell reports it (128+N after signal N), or -1 with werr. With a pty
 * master (>= 0, taken and closed), relay it to ward's stdin and stdout
 * meanwhile, ward's terminal raw and window-size changes passed on instead
 * of SIGWINCH. leave_zombie: not reaped (the caller reaps it later), so
 * that the run supervisor reads its status from /proc on kernels before
 * 6.15, which keep none for others once it is reaped. */
int fwd_wait(int pidfd, const sigset_t *set, int master, bool leave_zombie, struct werror *err);

#endif
