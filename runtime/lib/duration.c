#include "lib/duration.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int duration_parse_ms(const char *s, long long *ms)
{
	static const char digits[] = "0123456789";
	const char *unit;
	double v, scale;
	size_t n;

	if (s == NULL)
		goto bad;
	/* Digits, at most one point, then a unit: no sign, exponent, hex or
	 * inf (strtod would take them). */
	n = strspn(s, digits);
	if (n > 0 && s[n] == '.')
		n += 1 + strspn(s + n + 1, digits);
	if (n == 0)
		goto bad;
	unit = s + n;
	scale = strcmp(unit, "ms") == 0                   ? 1
	        : *unit == '\0' || strcmp(unit, "s") == 0 ? 1000
	        : strcmp(unit, "m") == 0                  ? 60000
	        : strcmp(unit, "h") == 0                  ? 3600000
	                                                  : 0;
	v = strtod(s, NULL);
	/* Bounded so the product fits. */
	if (scale == 0 || !(v >= 0 && v * scale <= 1e12))
		goto bad;
	if (v * scale < 1) {
		errno = ERANGE;
		return -1;
	}
	*ms = (long long)(v * scale);
	return 0;
bad:
	errno = EINVAL;
	return -1;
}

void duration_format(long long ms, char *buf, size_t len)
{
	if (ms % 3600000 == 0)
		snprintf(buf, len, "%lldh", ms / 3600000);
	else if (ms % 60000 == 0)
		snprintf(buf, len, "%lldm", ms / 60000);
	else if (ms % 1000 == 0)
		snprintf(buf, len, "%llds", ms / 1000);
	else
		snprintf(buf, len, "%lldms", ms);
}
