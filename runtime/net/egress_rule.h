/* One egress destination as the operator policy and the org.ward.egress
 * annotation write it (runtime/policy/ward-policy.7, EGRESS):
 *
 *   HOST:PORTS[/tcp|/udp]
 *
 * HOST is an address with an optional prefix (10.0.0.0/8, [fd13::/64]),
 * an exact name (registry.example) or *.NAME (NAME's subdomains, not NAME
 * itself); PORTS is N, N-M or * (all). Without /tcp or /udp both count. */
#ifndef WARD_NET_EGRESS_RULE_H
#define WARD_NET_EGRESS_RULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum egress_kind { EGRESS_ADDR, EGRESS_NAME, EGRESS_SUFFIX };

struct egress_rule {
	enum egress_kind kind;
	uint8_t addr[16]; /* EGRESS_ADDR: IPv4 as ::ffff:a.b.c.d */
	unsigned prefix;  /* bits of addr, 0-128 (IPv4 /n is 96 + n) */
	char name[254];   /* EGRESS_NAME, EGRESS_SUFFIX (without "*."): lower case */
	uint16_t lo, hi;  /* ports, inclusive */
	uint8_t protos;   /* EGRESS_TCP | EGRESS_UDP (| EGRESS_OTHER for ward's own) */
};

/* Parse s; -1 with the reason in why (nothing else set). */
int egress_rule_parse(const char *s, struct egress_rule *r, char *why, size_t len);
/* Every destination inner admits, outer admits too. */
bool egress_rule_within(const struct egress_rule *inner, const struct egress_rule *outer);
/* Back to the policy's notation ("10.0.0.0/8:443/tcp"). */
void egress_rule_format(const struct egress_rule *r, char *buf, size_t len);
/* addr lies in r's prefix (r an EGRESS_ADDR rule; bits = addr's own
 * prefix length: the whole of addr's prefix must lie in r's). */
bool egress_prefix_within(const uint8_t *addr, unsigned bits, const struct egress_rule *r);

#endif
