#include "lib/trace.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define T0_ENV "WARD_TRACE_T0"

static bool on;
static uint64_t t0;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void trace_init(void)
{
	const char *v = getenv("WARD_TRACE"), *s;
	char buf[32];

	on = v && v[0] == '1';
	if (!on)
		return;
	/* The sealed re-exec starts main again: keep the first start. */
	s = getenv(T0_ENV);
	if (s && s[0]) {
		t0 = strtoull(s, NULL, 10);
		return;
	}
	t0 = now_ns();
	snprintf(buf, sizeof(buf), "%" PRIu64, t0);
	setenv(T0_ENV, buf, 1);
}

void trace_mark(const char *what)
{
	char line[256];
	int n;

	if (!on)
		return;
	n = snprintf(line, sizeof(line), "ward trace: +%.3f ms [%d] %s\n",
	             (double)(now_ns() - t0) / 1e6, (int)getpid(), what);
	if (n > 0 && write(2, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1) < 0)
		on = false;
}
