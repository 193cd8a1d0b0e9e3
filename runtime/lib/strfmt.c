#include "lib/strfmt.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

int fmt_fit(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (len == 0) {
		errno = ENAMETOOLONG;
		return -1;
	}
	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len) {
		buf[0] = '\0';
		errno = n < 0 ? EINVAL : ENAMETOOLONG;
		return -1;
	}
	return 0;
}
