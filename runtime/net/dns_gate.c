/* The DNS gate (dns_gate.h). One query at a time: the gate serves one
 * container, which can only slow its own lookups. */
#include "net/dns_gate.h"
#include "lib/cleanup.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#define UDP_MAX          512 /* a reply over UDP: no EDNS is offered */
#define TCP_QUERIES      8   /* on one connection, then it is closed */
#define TCP_IDLE_MS      2000
#define MAX_RULES        64
#define MAX_ANSWER_ADDRS 64

static void tell(struct dns_gate *g, char kind, const struct dns_question *q, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void tell(struct dns_gate *g, char kind, const struct dns_question *q, const char *fmt, ...)
{
	struct gate_record r = {.kind = kind};
	va_list ap;

	if (q) {
		r.qtype = q->qtype;
		snprintf(r.name, sizeof(r.name), "%s", q->name);
	}
	va_start(ap, fmt);
	vsnprintf(r.why, sizeof(r.why), fmt, ap);
	va_end(ap);
	/* A full channel loses the record, never the answer. */
	if (send(g->report, &r, sizeof(r), MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
		(void)errno;
}

static size_t refuse(const uint8_t *m, const struct dns_question *q, uint8_t rcode, uint8_t *out,
                     size_t cap)
{
	return dns_reply_empty(m, q, rcode, out, cap);
}

/* The upstream reply, as the client's: its id, its question's bytes (the
 * same length: the question was uncompressed, only its case may differ);
 * over UDP one too long for 512 bytes becomes an empty truncated reply. */
static size_t relay(const uint8_t *m, const struct dns_question *q, const uint8_t *up, size_t n,
                    int tcp, uint8_t *out, size_t cap)
{
	if (!tcp && n > UDP_MAX) {
		size_t l = dns_reply_empty(m, q, 0, out, cap);

		if (l)
			out[2] |= 0x02; /* TC: ask again over TCP */
		return l;
	}
	if (n > cap)
		return 0;
	memcpy(out, up, n);
	memcpy(out, m, 2);
	memcpy(out + DNS_HDR, m + DNS_HDR, q->end - DNS_HDR);
	return n;
}

static int64_t now_s(void)
{
	return dns_now_ms() / 1000;
}

/* Ask upstream for q, grant the addresses, relay the answer. */
static size_t forward(struct dns_gate *g, const uint8_t *m, const struct dns_question *q,
                      const size_t *rules, size_t nr, int tcp, uint8_t *out, size_t cap)
{
	static uint8_t up[DNS_MSG_MAX];
	struct dns_addr addrs[MAX_ANSWER_ADDRS];
	struct dns_question uq = *q;
	uint8_t query[DNS_HDR + DNS_NAME_BUF + 4];
	size_t qlen, n, na, denied;
	char why[160];

	if (getrandom(&uq.id, sizeof(uq.id), 0) != sizeof(uq.id) ||
	    (qlen = dns_query_build(&uq, uq.id, query, sizeof(query))) == 0) {
		tell(g, GATE_FAILED, q, "the gate could not make its query");
		return refuse(m, q, DNS_RCODE_SERVFAIL, out, cap);
	}
	if (dns_upstream_ask(&g->up, query, qlen, up, sizeof(up), &n, why, sizeof(why)) < 0 ||
	    dns_answer_addrs(up, n, &uq, addrs, MAX_ANSWER_ADDRS, &na, why, sizeof(why)) < 0) {
		tell(g, GATE_FAILED, q, "%s", why);
		return refuse(m, q, DNS_RCODE_SERVFAIL, out, cap);
	}
	gate_map_expire(&g->map, now_s());
	/* Map exhaustion is a refusal: the name gets no answer at all. */
	if (gate_map_grant(&g->map, addrs, na, rules, nr, now_s(), &denied, why, sizeof(why)) < 0) {
		tell(g, GATE_FAILED, q, "%s", why);
		return refuse(m, q, DNS_RCODE_REFUSED, out, cap);
	}
	if (denied)
		tell(g, GATE_DENIED, q,
		     "%zu of its addresses lie in a denied prefix (left refused)", denied);
	tell(g, GATE_ALLOWED, q, "%zu addresses", na - denied);
	return relay(m, q, up, n, tcp, out, cap);
}

size_t dns_gate_answer(struct dns_gate *g, const uint8_t *m, size_t len, int tcp, uint8_t *out,
                       size_t cap)
{
	struct dns_question q;
	size_t rules[MAX_RULES], nr;
	char why[160];

	if (dns_query_parse(m, len, &q, why, sizeof(why)) < 0) {
		tell(g, GATE_REFUSED, NULL, "a malformed query: %s", why);
		return 0;
	}
	if (q.end != DNS_HDR + dns_name_wire_len(q.name) + 4) {
		tell(g, GATE_REFUSED, &q, "a compressed question");
		return refuse(m, &q, DNS_RCODE_REFUSED, out, cap);
	}
	nr = gate_name_rules(g->map.plan, q.name, rules, MAX_RULES);
	if (nr == 0) {
		tell(g, GATE_REFUSED, &q, "no egress rule names it");
		return refuse(m, &q, DNS_RCODE_REFUSED, out, cap);
	}
	if (q.qtype != DNS_TYPE_A && q.qtype != DNS_TYPE_AAAA) {
		tell(g, GATE_EMPTY, &q, "type %u answered empty (only A and AAAA are forwarded)",
		     q.qtype);
		return refuse(m, &q, 0, out, cap);
	}
	return forward(g, m, &q, rules, nr, tcp, out, cap);
}

static void serve_udp(struct dns_gate *g)
{
	uint8_t in[4096], out[4096];
	struct sockaddr_storage from;
	socklen_t fl = sizeof(from);
	ssize_t n = recvfrom(g->udp, in, sizeof(in), MSG_DONTWAIT, (struct sockaddr *)&from, &fl);
	size_t r;

	if (n <= 0)
		return;
	r = dns_gate_answer(g, in, (size_t)n, 0, out, sizeof(out));
	if (r)
		sendto(g->udp, out, r, MSG_DONTWAIT, (struct sockaddr *)&from, fl);
}

/* One connection: length-prefixed queries until it ends, idles or has
 * asked TCP_QUERIES. */
static void serve_tcp(struct dns_gate *g)
{
	static uint8_t in[DNS_MSG_MAX], out[DNS_MSG_MAX + 2];
	_cleanup_close_ int c = accept4(g->tcp, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

	if (c < 0)
		return;
	for (int i = 0; i < TCP_QUERIES; i++) {
		long long deadline = dns_now_ms() + TCP_IDLE_MS;
		uint8_t l[2];
		size_t n, r;

		if (dns_read_full(c, l, 2, deadline) < 0)
			break;
		n = (size_t)l[0] << 8 | l[1];
		if (dns_read_full(c, in, n, deadline) < 0)
			break;
		r = dns_gate_answer(g, in, n, 1, out + 2, sizeof(out) - 2);
		if (r == 0)
			break;
		out[0] = (uint8_t)(r >> 8);
		out[1] = (uint8_t)r;
		if (dns_write_full(c, out, r + 2, deadline) < 0)
			break;
	}
}

void dns_gate_serve(struct dns_gate *g)
{
	for (;;) {
		struct pollfd p[3] = {{.fd = g->udp, .events = POLLIN},
		                      {.fd = g->tcp, .events = POLLIN},
		                      {.fd = g->report, .events = POLLIN}};
		int64_t next = gate_map_next(&g->map), now = now_s();
		int wait =
		    next == INT64_MAX ? -1
		    : next <= now
		        ? 0
		        : (int)((next - now) * 1000 > 3600000 ? 3600000 : (next - now) * 1000);

		if (poll(p, 3, wait) < 0 && errno != EINTR)
			return;
		if (p[2].revents)
			return; /* the supervisor is gone or ending it */
		gate_map_expire(&g->map, now_s());
		if (p[0].revents & POLLIN)
			serve_udp(g);
		if (p[1].revents & POLLIN)
			serve_tcp(g);
	}
}
