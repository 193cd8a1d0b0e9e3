/* The host's subordinate id ranges (/etc/subuid, /etc/subgid: what
 * newuidmap lets users map, and so ids real users' containers own). The
 * id pool of strict containers never hands these out. */
#ifndef WARD_IDPOOL_SUBID_H
#define WARD_IDPOOL_SUBID_H

#include "lib/error.h"

#include <stddef.h>

#include "idpool/idpool.h"

/* Append the ranges of "name:start:count" lines of text to *v (*n of them;
 * the caller frees *v). Comments, blank and malformed lines are skipped:
 * shadow's tools skip them too, so they give nobody ids. */
int subid_parse(const char *text, struct id_range **v, size_t *n, struct werror *err);
/* subid_parse of each file of files (NULL-terminated); a missing file has
 * no entries, one that cannot be read is an error (werr). */
int subid_read(const char *const *files, struct id_range **v, size_t *n, struct werror *err);

#endif
