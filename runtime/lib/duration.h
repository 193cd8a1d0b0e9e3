/* Durations as people write them: "250ms", "5s", "1.5m", "2h", plain
 * seconds. One parser for the command line (--timeout, --interval), the
 * policy file (strict.timeout) and the org.ward.timeout annotation. */
#ifndef WARD_LIB_DURATION_H
#define WARD_LIB_DURATION_H

#include <stddef.h>

/* s → milliseconds, at least 1 and at most 10^12 (31 years). -1 with
 * errno EINVAL (nothing recorded) when s is not such a duration, ERANGE when
 * it is shorter than 1 ms. */
int duration_parse_ms(const char *s, long long *ms);
/* ms as the shortest exact form ("10m", "2s", "1500ms"), into buf. */
void duration_format(long long ms, char *buf, size_t len);

#endif
