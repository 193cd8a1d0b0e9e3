/* Minimal TAP producer for the C unit tests (read by automake's tap-driver). */
#ifndef WARD_TAP_H
#define WARD_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib/error.h"

/* The error object the code under test records into: a test reads what
 * was refused with werr_msg(err). */
static struct werror tap_err __attribute__((unused));
static struct werror *const err __attribute__((unused)) = &tap_err;

static int tap_n, tap_failed;

__attribute__((format(printf, 2, 3))) static int ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	printf("%sok %d - ", cond ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond)
		tap_failed++;
	return cond;
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#define diag(...)                                                                                  \
	do {                                                                                       \
		printf("# ");                                                                      \
		printf(__VA_ARGS__);                                                               \
		printf("\n");                                                                      \
	} while (0)

#endif
