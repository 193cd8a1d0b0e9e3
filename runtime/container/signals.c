#include "container/signals.h"
#include "lib/error.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int signal_parse(const char *s, struct werror *err)
{
	const char *given = s;
	char *end;
	long n;

	errno = 0;
	n = strtol(s, &end, 10);
	if (*s && *end == '\0' && errno == 0) {
		/* 0: is it there? (kill(2)'s null signal, as runc takes it) */
		if (n < 0 || n >= NSIG)
			return werr(err, 0, "invalid signal number %s", s);
		return (int)n;
	}
	if (strncasecmp(s, "SIG", 3) == 0)
		s += 3;
	for (int sig = 1; sig < NSIG; sig++) {
		const char *abbrev = sigabbrev_np(sig);

		if (abbrev && strcasecmp(abbrev, s) == 0)
			return sig;
	}
	return werr(err, 0, "unknown signal \"%s\"", given);
}
