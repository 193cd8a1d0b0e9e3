/* Leases on the id pool's ranges: one file per range taken, in the host's
 * IDPOOL_DIR/<first host id>, holding "<container id> <token> <size>
 * <state root>" (one pool for every state root).
 * A lease is live while the create that took it still runs (it holds an
 * flock on the lease until the container's state dir records the range)
 * or while the container's state dir records that range with that token
 * (IDPOOL_RECORD); any other lease is a crashed create's or a deleted
 * container's, and is taken over. All taking is under one lock file
 * (IDPOOL_DIR/lock), so two creates never pick the same range. */
#ifndef WARD_IDPOOL_LEASE_H
#define WARD_IDPOOL_LEASE_H

#include "lib/error.h"

#include <stdbool.h>
#include <stdint.h>

#include "idpool/idpool.h"

#define IDPOOL_DIR    "/run/ward-idpool" /* the host's, whatever --root says */
#define IDPOOL_RECORD "userns"           /* in the state dir: "<start> <size> <token>" */
#define IDPOOL_TOKEN  16                 /* hex digits */

struct id_lease {
	int fd;    /* the lease file, flocked until committed; -1: none */
	int dirfd; /* IDPOOL_DIR */
	struct id_range range;
	char token[IDPOOL_TOKEN + 1];
	bool keep; /* committed, and the create succeeded: the lease stays */
};

#define ID_LEASE_INIT                                                                              \
	{                                                                                          \
		.fd = -1, .dirfd = -1                                                              \
	}

/* Lease a free range of the pool for container id: ENOSPC reads "no free
 * host id range in the pool ..." naming the pool and what fills it. */
int id_lease_take(const char *root, const char *id, const struct idpool *p, struct id_lease *l,
                  struct werror *err);
/* The range a create would take now (`ward check`): nothing is leased. */
int id_lease_peek(const struct idpool *p, uint32_t *start, struct werror *err);
/* Record the range in the container's state dir (statefd) and drop the
 * flock: from now on the record keeps the lease live. */
int id_lease_commit(struct id_lease *l, int statefd, struct werror *err);
/* The create failed (keep not set): the lease is removed. Always closes. */
void id_lease_drop(struct id_lease *l);
/* delete: the lease the state dir's record names is removed, if it is
 * still this container's (its token). A state dir without a record has
 * none (not strict, rootless, or a create killed before the record). */
int id_lease_release(int statefd, struct werror *err);
/* Unit tests: leases in dir instead of IDPOOL_DIR. */
void id_lease_use_dir(const char *dir);
/* The state dir's record: 0 and *r; -1 (no werr) when there is none. */
int id_lease_record(int statefd, struct id_range *r, char token[IDPOOL_TOKEN + 1],
                    struct werror *err);

#endif
