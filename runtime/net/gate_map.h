/* The DNS gate's part of the allow map: the addresses allowed names
 * resolved to, each allowed for the ports and protocols of the name rules
 * that admitted the name, until the answer's TTL (bounded) runs out.
 *
 * An address's entry is a /128 key, which the LPM lookup prefers to every
 * static prefix that contains it: its verdict is therefore the static
 * plan's for that address (the address rules that contain it) joined with
 * the live grants' ports, so that a grant never narrows what the policy
 * allowed by address. An address inside a deny prefix (the cloud metadata
 * endpoints) is never granted: the deny stays the only verdict there.
 *
 * The maps are written through ops (the BPF maps, or a test's fakes). A
 * new verdict's port set is written into a free slot before any key names
 * it; a slot is free when no key the gate wrote names it. No room (map,
 * grants or spare port sets): the grant is refused, nothing is added. */
#ifndef WARD_NET_GATE_MAP_H
#define WARD_NET_GATE_MAP_H

#include "lib/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net/egress_plan.h"

#define GATE_MAX_ADDRS  1024 /* addresses granted at once (the map holds the rest) */
#define GATE_MAX_GRANTS 2048 /* (address, name rule) pairs live at once */
#define GATE_SPARE_SETS 32   /* port sets the gate may add to the plan's */
#define GATE_TTL_MIN    60   /* seconds: a client may connect a while after asking */
#define GATE_TTL_MAX    3600

struct gate_map_ops {
	void *ctx;
	int (*update)(void *ctx, const struct egress_key *k, const struct egress_verdict *v);
	int (*remove)(void *ctx, const struct egress_key *k);
	int (*set_write)(void *ctx, uint32_t idx, const struct egress_ports *p);
};

struct gate_addr {
	uint8_t addr[16];
	struct egress_verdict v; /* as written */
	bool exact_static;       /* the plan has this /128: restored, not removed */
	bool dirty;              /* lost a grant: its verdict to be written again */
};

struct gate_grant {
	uint8_t addr[16];
	size_t rule; /* index in the plan's allow list (a name rule) */
	int64_t expires;
};

struct gate_map {
	const struct egress_plan *plan;
	struct gate_map_ops ops;
	struct egress_ports *sets; /* the plan's sets, then the gate's */
	size_t n_static_sets, n_sets;
	size_t room; /* addresses the allow map still takes */
	struct gate_addr *addrs;
	size_t n_addrs;
	struct gate_grant *grants;
	size_t n_grants;
};

/* The sets and room from the plan (as egress_load filled the maps). -1
 * with werr. */
int gate_map_init(struct gate_map *g, const struct egress_plan *p, const struct gate_map_ops *ops,
                  struct werror *err);
void gate_map_free(struct gate_map *g);

/* Allow addrs[0..n) for the ports of rules[0..nr) until now + ttl
 * (bounded by GATE_TTL_MIN/MAX per address). Addresses in a deny prefix
 * are skipped and counted in *denied. All or nothing for the rest: -1
 * with why when they do not fit (nothing added). */
struct dns_addr;
int gate_map_grant(struct gate_map *g, const struct dns_addr *addrs, size_t n, const size_t *rules,
                   size_t nr, int64_t now, size_t *denied, char *why, size_t wlen);
/* Drop the grants expired at now, and the keys nothing holds any more. */
void gate_map_expire(struct gate_map *g, int64_t now);
/* The earliest expiry (INT64_MAX: none). */
int64_t gate_map_next(const struct gate_map *g);

/* The plan's name rules that admit name (exact, or a strict subdomain for
 * *.NAME) into rules (at most max); their count. */
size_t gate_name_rules(const struct egress_plan *p, const char *name, size_t *rules, size_t max);
/* Any name rule in the plan (the gate is needed). */
bool gate_plan_has_names(const struct egress_plan *p);

#endif
