#ifndef WARD_FDPASS_H
#define WARD_FDPASS_H

#include <stddef.h>

/* Send data with one fd attached (SCM_RIGHTS) on a unix socket. 0, or -1
 * with errno set (callers word the error). */
int fdpass_send(int sock, const void *data, size_t len, int fd);

#endif
