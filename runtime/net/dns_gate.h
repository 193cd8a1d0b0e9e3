/* The DNS gate: the container's resolver, served by the supervisor's gate
 * process on 127.53.X.Y:53 (UDP and TCP) in the container's network
 * namespace. A query for a name the egress plan allows (exact, or a
 * strict subdomain of a *.NAME rule) of type A or AAAA is asked upstream
 * as a query of the gate's own; the answer's addresses along the name's
 * CNAME chain (dns_msg.h) go into the allow map for the name rules' ports
 * (gate_map.h) before the answer goes back. Every other name: REFUSED.
 * Another type for an allowed name: an empty answer (NOERROR, no record),
 * never forwarded: clients that ask for HTTPS or SVCB records beside the
 * addresses take a refusal for a failed lookup, and nothing of types that
 * carry data (TXT, ...) passes either way.
 *
 * The gate's sockets, its listeners and its upstream ones, are made by the
 * gate process, which is in the supervisor's cgroup and never in the
 * container's: the egress programs judge a socket by the cgroup of the
 * process that made it, so the gate's upstream queries pass them while the
 * container's own packets to the upstream resolver (an address no rule
 * allows) are refused like any other. */
#ifndef WARD_NET_DNS_GATE_H
#define WARD_NET_DNS_GATE_H

#include <stdint.h>

#include "net/dns_msg.h"
#include "net/dns_upstream.h"
#include "net/gate_map.h"

/* What the gate tells the supervisor, one message each. */
enum gate_kind {
	GATE_ALLOWED = 'A', /* an allowed name resolved, its addresses granted */
	GATE_REFUSED = 'R', /* a name no rule allows, or a malformed query */
	GATE_EMPTY = 'T',   /* another type than A/AAAA for an allowed name */
	GATE_FAILED = 'F',  /* upstream failed, its answer was refused, or no room */
	GATE_DENIED = 'D',  /* an answer's address in a deny prefix, not granted */
};

struct gate_record {
	char kind;
	uint16_t qtype;
	char name[DNS_NAME_BUF];
	char why[160];
};

struct dns_gate {
	int udp, tcp; /* the listeners (non-blocking) */
	int report;   /* SOCK_SEQPACKET to the supervisor: its end ends the gate */
	struct dns_upstreams up;
	struct gate_map map;
};

/* Serve until the supervisor's end closes; returns then. */
void dns_gate_serve(struct dns_gate *g);

/* One query (len bytes): the reply into out (cap bytes), its length (0:
 * none); tcp says how it came (a UDP reply is cut to 512 bytes, with TC).
 * What happened goes to g->report. */
size_t dns_gate_answer(struct dns_gate *g, const uint8_t *m, size_t len, int tcp, uint8_t *out,
                       size_t cap);

#endif
