/* linux.seccomp → a BPF program (libseccomp), loaded with seccomp(2). */
#ifndef WARD_SECCOMP_FILTER_H
#define WARD_SECCOMP_FILTER_H

#include "lib/error.h"

#include <linux/filter.h>
#include <stdbool.h>
#include <stddef.h>

#include "oci/seccomp_spec.h"

struct filter_prog {
	struct sock_filter *insns;
	size_t len;
	unsigned int flags; /* SECCOMP_FILTER_FLAG_* to load with */
	bool notify;        /* has SCMP_ACT_NOTIFY rules: needs a listener */
	/* A filter loaded after this one (owned by it): both apply. */
	struct filter_prog *next;
};

/* Whether a filter of the chain needs a listener (at most one may). */
bool filter_prog_listens(const struct filter_prog *p);

/* Translate and compile. Unknown syscall names are skipped in rules more
 * permissive than the default action and refused in stricter ones. */
int filter_compile(const struct oci_seccomp *s, struct filter_prog *out, struct werror *err);
/* filter_compile through a cache under the state root (cache_dirfd, or -1
 * for none), keyed by the section's canonical form and verified on use. */
int filter_compile_cached(const struct oci_seccomp *s, int cache_dirfd, struct filter_prog *out,
                          struct werror *err);
/* Install the filter (and those chained after it) on the calling thread.
 * *notify_fd gets the listener fd of the one with notify, -1 if none. */
int filter_load(const struct filter_prog *p, int *notify_fd, struct werror *err);
void filter_prog_free(struct filter_prog *p);

/* Canonical byte form of a seccomp section (the cache key). */
int filter_canonical(const struct oci_seccomp *s, char **out, size_t *len, struct werror *err);

/* The filter of a chain whose default-action denials the run supervisor
 * answers and records: ward's stacked base when it denies by default (the
 * built-in profile), else the config's own (under ward's floor, which
 * denies by rule only). */
const struct oci_seccomp *seccomp_recorded(const struct oci_seccomp *own,
                                           const struct oci_seccomp *base);

#endif
