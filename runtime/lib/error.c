#include "lib/error.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void record(struct werror *err, enum werr_kind kind, int errnum, char *msg)
{
	free(err->msg);
	err->msg = msg;
	err->errnum = errnum ? errnum : EINVAL;
	err->kind = kind;
}

static int vrecord(struct werror *err, enum werr_kind kind, int errnum, const char *fmt, va_list ap)
{
	char *body = NULL, *msg;

	if (!err) {
		errno = errnum ? errnum : EINVAL;
		return -1;
	}
	if (vasprintf(&body, fmt, ap) < 0)
		xalloc_die();
	if (errnum) {
		msg = xasprintf("%s: %s", body, strerror(errnum));
		free(body);
	} else {
		msg = body;
	}
	record(err, kind, errnum, msg);
	errno = err->errnum;
	return -1;
}

int werr(struct werror *err, int errnum, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vrecord(err, WERR_SYSTEM, errnum, fmt, ap);
	va_end(ap);
	return r;
}

int werr_k(struct werror *err, enum werr_kind kind, int errnum, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vrecord(err, kind, errnum, fmt, ap);
	va_end(ap);
	return r;
}

int werr_ctx(struct werror *err, const char *fmt, ...)
{
	char *ctx = NULL, *msg;
	va_list ap;
	int n;

	if (!err) {
		if (!errno)
			errno = EINVAL;
		return -1;
	}
	va_start(ap, fmt);
	n = vasprintf(&ctx, fmt, ap);
	va_end(ap);
	if (n < 0)
		xalloc_die();
	msg = xasprintf("%s: %s", ctx, err->msg ? err->msg : "unknown error");
	free(ctx);
	record(err, err->kind, err->errnum, msg);
	errno = err->errnum;
	return -1;
}

int werr_set(struct werror *err, enum werr_kind kind, int errnum, const char *msg)
{
	if (!err) {
		errno = errnum ? errnum : EINVAL;
		return -1;
	}
	record(err, kind, errnum, xstrdup(msg));
	errno = err->errnum;
	return -1;
}

int werr_as(struct werror *err, enum werr_kind kind)
{
	if (err)
		err->kind = kind;
	return -1;
}

const char *werr_msg(const struct werror *err)
{
	if (!err || !err->errnum)
		return "unknown error";
	return err->msg ? err->msg : "unknown error";
}

int werr_errno(const struct werror *err)
{
	return err ? err->errnum : 0;
}

enum werr_kind werr_kind_of(const struct werror *err)
{
	return err ? err->kind : WERR_SYSTEM;
}

const char *werr_kind_name(enum werr_kind kind)
{
	static const char *const names[] = {
	    [WERR_SYSTEM] = "system",           [WERR_INVALID] = "invalid",
	    [WERR_REFUSED] = "refused",         [WERR_NOT_FOUND] = "not found",
	    [WERR_NOT_RUNNING] = "not running", [WERR_UNSUPPORTED] = "unsupported",
	};

	return (unsigned)kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "system";
}

void werr_clear(struct werror *err)
{
	if (!err)
		return;
	free(err->msg);
	*err = (struct werror)WERROR_INIT;
}
