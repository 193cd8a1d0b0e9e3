/* idpool_pick (see idpool.h). */
#include "idpool/idpool.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

uint64_t idpool_slots(const struct idpool *p)
{
	return p->range_size ? p->size / p->range_size : 0;
}

/* The first slot boundary at or after id (slots are aligned to the pool's
 * start, so that a range freed is a slot again). */
static uint64_t slot_at_or_after(const struct idpool *p, uint64_t id)
{
	uint64_t off = id - p->start;

	return p->start + (off + p->range_size - 1) / p->range_size * p->range_size;
}

int idpool_pick(const struct idpool *p, const struct id_range *busy, size_t n, uint32_t *start)
{
	uint64_t end = (uint64_t)p->start + p->size, s = p->start;

	if (p->range_size == 0) {
		errno = ENOSPC;
		return -1;
	}
	/* Each jump passes the end of the busy range it hit, and s only grows:
	 * at most n + 1 rounds, however many slots the pool has. */
	while (s + p->range_size <= end) {
		size_t i;

		for (i = 0; i < n; i++) {
			uint64_t lo = busy[i].start, hi = lo + busy[i].size;

			if (busy[i].size && lo < s + p->range_size && s < hi)
				break;
		}
		if (i == n) {
			*start = (uint32_t)s;
			return 0;
		}
		s = slot_at_or_after(p, (uint64_t)busy[i].start + busy[i].size);
	}
	errno = ENOSPC;
	return -1;
}

static int by_start(const void *a, const void *b)
{
	const struct id_range *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

int64_t idpool_covered(const struct idpool *p, const struct id_range *v, size_t n)
{
	uint64_t end = (uint64_t)p->start + p->size, upto = p->start, sum = 0;
	struct id_range *s = n ? malloc(n * sizeof(*s)) : NULL;

	if (n && s == NULL)
		return -1;
	if (n)
		memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), by_start);
	/* Sorted by start: each range counts from where the last one ended. */
	for (size_t i = 0; i < n; i++) {
		uint64_t lo = s[i].start, hi = lo + s[i].size;

		lo = lo < upto ? upto : lo;
		hi = hi > end ? end : hi;
		if (hi > lo) {
			sum += hi - lo;
			upto = hi;
		}
	}
	free(s);
	return (int64_t)sum;
}
