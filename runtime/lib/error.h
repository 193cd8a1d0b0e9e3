/* One error convention for all of ward: an error object the caller owns.
 *
 * A function that can fail takes `struct werror *err` (last parameter),
 * records what went wrong with werr() (errno + message, and a kind) and
 * returns -1. Each caller that can say more prepends its context with
 * werr_ctx() and returns -1 in turn. Whoever owns the object decides: the
 * command's entry point prints it once and derives the exit status from its
 * kind; a cleanup path that must not disturb the error being returned passes
 * its own object (or NULL: the error is dropped). There is no global error
 * state, so nothing has to be saved and restored around a cleanup.
 *
 * Messages are allocated and never truncated (out of memory: lib/xalloc.h). */
#ifndef WARD_ERROR_H
#define WARD_ERROR_H

#include <stddef.h>

/* What the caller and the exit status can tell apart. */
enum werr_kind {
	WERR_SYSTEM = 0,  /* a system call or the host failed (the default) */
	WERR_INVALID,     /* the config, an argument or a file the user gave is invalid */
	WERR_REFUSED,     /* the operator's policy refuses the config */
	WERR_NOT_FOUND,   /* no such container */
	WERR_NOT_RUNNING, /* the container is not in a state the operation needs */
	WERR_UNSUPPORTED, /* the host lacks what the config asks for */
};

struct werror {
	enum werr_kind kind;
	int errnum; /* 0: none recorded */
	char *msg;  /* NULL: none recorded */
};

#define WERROR_INIT                                                                                \
	{                                                                                          \
		WERR_SYSTEM, 0, NULL                                                               \
	}

/* Record an error of kind system. errnum is appended as ": strerror(errnum)"
 * when non-zero. Sets errno to errnum (EINVAL when 0) and returns -1. err
 * may be NULL: nothing is recorded. Replaces what err held. */
int werr(struct werror *err, int errnum, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The same with a kind. */
int werr_k(struct werror *err, enum werr_kind kind, int errnum, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Prepend "context: " to the recorded message. Keeps errno and kind,
 * returns -1. */
int werr_ctx(struct werror *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Record a message verbatim, with a kind (an error that arrives from the
 * container's init over the sync socket). Returns -1. */
int werr_set(struct werror *err, enum werr_kind kind, int errnum, const char *msg);

/* Reclassify the recorded error (a caller that knows better: a file the
 * user named is missing). Returns -1. */
int werr_as(struct werror *err, enum werr_kind kind);

const char *werr_msg(const struct werror *err);
int werr_errno(const struct werror *err);
enum werr_kind werr_kind_of(const struct werror *err);
const char *werr_kind_name(enum werr_kind kind);

/* Drop the recorded error (the object stays usable). */
void werr_clear(struct werror *err);

#define _cleanup_werror_ __attribute__((cleanup(werr_clear)))

#endif
