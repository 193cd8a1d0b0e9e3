/* What one container may reach (issue 26): the plan the policy computes
 * (policy/policy_egress.c) and create enforces (net/egress_bpf.c).
 *
 * Allow rules say where connections may go; deny prefixes (the cloud
 * metadata endpoints) win over every allow rule. Names in the allow list
 * get no entry here: the DNS gate (net/gate_map.h) adds the addresses they
 * resolve to, while the answers' TTLs last. */
#ifndef WARD_NET_EGRESS_PLAN_H
#define WARD_NET_EGRESS_PLAN_H

#include "lib/error.h"

#include <stdbool.h>
#include <stddef.h>

#include "net/egress_map.h"
#include "net/egress_rule.h"

struct egress_plan {
	bool enforce; /* programs are attached (baseline, strict) */
	/* An allow-list is in force (strict; baseline with a list): sockets
	 * whose sends the address programs cannot judge (raw, ICMP, any
	 * protocol but TCP and UDP) are refused at socket(2). */
	bool tcp_udp_only;
	/* strict, an allow-list, a network namespace of the container's own
	 * (no engine's): the supervisor connects it with pasta. */
	bool pasta;
	struct egress_rule *allow, *deny;
	size_t n_allow, n_deny;
};

/* Append a copy of r; -1 with werr (ENOMEM). */
int egress_plan_add(struct egress_plan *p, bool deny, const struct egress_rule *r,
                    struct werror *err);
void egress_plan_free(struct egress_plan *p);
/* Ports lo..hi into b, a word at a time. */
void egress_ports_add(struct egress_ports *b, unsigned lo, unsigned hi);

/* The maps' contents that enforce a plan: one allow-map entry per distinct
 * address prefix, each holding every allow rule whose prefix contains it
 * (longest-prefix lookup then finds all the rules that cover a
 * destination) and denied when a deny prefix contains it; and the port sets
 * its values name, sets[0] the empty one. */
struct egress_entries {
	struct egress_key *keys;
	struct egress_verdict *vals;
	size_t n;
	struct egress_ports *sets;
	size_t n_sets;
};

/* -1 with werr when the map would need more than EGRESS_MAX_ENTRIES
 * entries or EGRESS_MAX_SETS port sets: refused, never cut short. */
int egress_plan_entries(const struct egress_plan *p, struct egress_entries *e, struct werror *err);
void egress_entries_free(struct egress_entries *e);

#endif
