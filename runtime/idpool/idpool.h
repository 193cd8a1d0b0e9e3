/* The pool of host id ranges strict containers get one each of (design,
 * "Hardening model"): which range of the pool is free, given the ranges
 * already taken. Pure arithmetic; the leases that say what is taken are
 * idpool/lease.h, the host's own /etc/subuid ranges idpool/subid.h. */
#ifndef WARD_IDPOOL_H
#define WARD_IDPOOL_H

#include <stddef.h>
#include <stdint.h>

/* Host ids [start, start + size). 64-bit ends: start + size may be 2^32. */
struct id_range {
	uint32_t start;
	uint32_t size;
};

/* The operator policy's strict.idPool: ranges of range_size ids each, at
 * start, start + range_size, ... while they fit in [start, start + size). */
struct idpool {
	uint32_t start, size, range_size;
	/* The files whose entries the pool never hands out (NULL-terminated;
	 * NULL: /etc/subuid and /etc/subgid). Unit tests name their own. */
	const char *const *reserved;
};

/* The first range of the pool that overlaps none of busy[0..n): 0 and
 * *start; -1 with errno ENOSPC when there is none (no werr: the caller
 * names the pool). */
int idpool_pick(const struct idpool *p, const struct id_range *busy, size_t n, uint32_t *start);

/* How many ids of the pool v[0..n) cover (overlaps counted once); -1
 * with errno ENOMEM. */
int64_t idpool_covered(const struct idpool *p, const struct id_range *v, size_t n);

/* How many ranges the pool holds in all. */
uint64_t idpool_slots(const struct idpool *p);

#endif
