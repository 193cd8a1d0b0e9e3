#ifndef WARD_SIGNALS_H
#define WARD_SIGNALS_H

#include "lib/error.h"

/* "TERM", "SIGTERM", "sigterm" or "15" → 15; -1 with werr if unknown. */
int signal_parse(const char *s, struct werror *err);

#endif
