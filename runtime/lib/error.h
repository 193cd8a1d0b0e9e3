/* One error convention for all of ward.
 *
 * A failing function records what went wrong with werr() (errno + message) and
 * returns -1. Each caller that can say more prepends its context with
 * werr_ctx() and returns -1 in turn. Only the top level (main) prints the
 * message, once. */
#ifndef WARD_ERROR_H
#define WARD_ERROR_H

#include <stddef.h>

#define WERR_MAX 2048

/* Record an error. errnum is appended as ": strerror(errnum)" when non-zero.
 * Sets errno to errnum (EINVAL when 0) and returns -1. */
int werr(int errnum, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prepend "context: " to the recorded error. Keeps errno, returns -1. */
int werr_ctx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Replace the recorded message verbatim (used when an error arrives from the
 * container's init over the sync socket). Returns -1. */
int werr_set(int errnum, const char *msg);

const char *werr_msg(void);
int werr_errno(void);
void werr_clear(void);

#endif
