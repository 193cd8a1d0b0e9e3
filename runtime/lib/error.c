#include "lib/error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static char err_msg[WERR_MAX];
static int err_num;

int werr(int errnum, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(err_msg, sizeof(err_msg), fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if (errnum != 0 && (size_t)n < sizeof(err_msg))
		snprintf(err_msg + n, sizeof(err_msg) - (size_t)n, ": %s", strerror(errnum));
	err_num = errnum ? errnum : EINVAL;
	errno = err_num;
	return -1;
}

int werr_ctx(const char *fmt, ...)
{
	char ctx[WERR_MAX];
	char old[WERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ctx, sizeof(ctx), fmt, ap);
	va_end(ap);
	memcpy(old, err_msg, sizeof(old));
	/* ctx + ": " + old, truncated to fit. */
	{
		size_t pos = 0;
		const char *parts[] = {ctx, ": ", old};

		for (size_t i = 0; i < 3; i++) {
			size_t n = strlen(parts[i]);

			if (n > sizeof(err_msg) - 1 - pos)
				n = sizeof(err_msg) - 1 - pos;
			memcpy(err_msg + pos, parts[i], n);
			pos += n;
		}
		err_msg[pos] = '\0';
	}
	errno = err_num ? err_num : EINVAL;
	return -1;
}

int werr_set(int errnum, const char *msg)
{
	snprintf(err_msg, sizeof(err_msg), "%s", msg);
	err_num = errnum ? errnum : EINVAL;
	errno = err_num;
	return -1;
}

const char *werr_msg(void)
{
	return err_msg[0] ? err_msg : "unknown error";
}

int werr_errno(void)
{
	return err_num;
}

void werr_clear(void)
{
	err_msg[0] = '\0';
	err_num = 0;
}
