#include "lib/strfmt.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

char *str_one_line(const char *msg)
{
	char *out = xmalloc(4 * strlen(msg) + 1), *o = out;

	for (const unsigned char *p = (const unsigned char *)msg; *p; p++) {
		if (*p == '\n' || *p == '\r') {
			*o++ = '\\';
			*o++ = *p == '\n' ? 'n' : 'r';
		} else if ((*p < 0x20 && *p != '\t') || *p == 0x7f) {
			o += sprintf(o, "\\x%02x", *p);
		} else {
			*o++ = (char)*p;
		}
	}
	*o = '\0';
	return out;
}
