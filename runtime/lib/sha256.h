/* SHA-256 (FIPS 180-4), for digests ward prints: the policy a run was
 * decided under, in the run report. Small enough that a crypto library
 * would only add a dependency. */
#ifndef WARD_LIB_SHA256_H
#define WARD_LIB_SHA256_H

#include <stddef.h>

/* The digest of buf as 64 lowercase hex digits and a NUL (hex: 65 bytes). */
void sha256_hex(const void *buf, size_t len, char hex[65]);

#endif
