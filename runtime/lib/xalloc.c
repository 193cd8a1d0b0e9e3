#include "lib/xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void xalloc_die(void)
{
	static const char msg[] = "ward: out of memory\n";

	if (write(2, msg, sizeof(msg) - 1) < 0) {
		/* nothing more to say */
	}
	_exit(125);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		xalloc_die();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		xalloc_die();
	return p;
}

void *xreallocarray(void *p, size_t n, size_t size)
{
	void *q = reallocarray(p, n ? n : 1, size ? size : 1);

	if (!q)
		xalloc_die();
	return q;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		xalloc_die();
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		xalloc_die();
	return s;
}
