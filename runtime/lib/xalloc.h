/* ward's one out-of-memory policy: an allocation that fails ends the
 * process with one line on stderr and exit status 125 ("ward failed").
 * ward's processes are short-lived and what they leave on the host is
 * reclaimed by the paths that also cover `kill -9` of ward (the state
 * record, the supervisor, the cgroup's own lifetime), so there is nothing a
 * caller could do with ENOMEM that those do not already do. */
#ifndef WARD_LIB_XALLOC_H
#define WARD_LIB_XALLOC_H

#include <stddef.h>

__attribute__((noreturn)) void xalloc_die(void);
void *xmalloc(size_t n) __attribute__((malloc, returns_nonnull));
void *xcalloc(size_t n, size_t size) __attribute__((malloc, returns_nonnull));
/* n elements of size each, the product checked for overflow. */
void *xreallocarray(void *p, size_t n, size_t size) __attribute__((returns_nonnull));
char *xstrdup(const char *s) __attribute__((malloc, returns_nonnull));
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2), returns_nonnull));

#endif
