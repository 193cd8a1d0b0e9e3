#ifndef WARD_SECCOMP_NOTIFY_H
#define WARD_SECCOMP_NOTIFY_H

#include "lib/error.h"

#include "oci/oci_state.h"

/* Hand a seccomp listener fd to the agent at listenerPath, with the
 * container process state as runc sends it: {"ociVersion", "fds":
 * ["seccompFd"], "pid", "metadata", "state"} and the fd as SCM_RIGHTS. */
int seccomp_notify_send(const char *path, const char *metadata, const struct oci_state *st,
                        int listener_fd, struct werror *err);

/* Hand the listener fd (the process's, received by the caller) to the
 * agent of section s. */
struct oci_seccomp;
int seccomp_notify_forward(int listener, const struct oci_seccomp *s, const struct oci_state *st,
                           struct werror *err);

#endif
