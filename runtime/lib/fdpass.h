#ifndef WARD_FDPASS_H
#define WARD_FDPASS_H

#include <stddef.h>

/* Send data with one fd attached (SCM_RIGHTS) on a unix socket. 0, or -1
 * with errno set (callers word the error). */
int fdpass_send(int sock, const void *data, size_t len, int fd);

/* Receive up to len bytes and at most one fd (close-on-exec; *fd = -1
 * when none came; any further fds are closed). The byte count (0: the
 * peer closed), or -1 with errno set. */
#include <sys/types.h>
ssize_t fdpass_recv(int sock, void *data, size_t len, int *fd);

#endif
