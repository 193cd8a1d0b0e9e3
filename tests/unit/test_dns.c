/* DNS messages for the DNS gate (net/dns_msg.c): queries it accepts and
 * refuses, its refusals, and what an upstream answer may and may not make
 * an address of the asked name. Messages are built byte by byte here. */
#include "net/dns_msg.h"
#include "tap.h"

#include <arpa/inet.h>
#include <stdbool.h>
#include <string.h>

/* A message under construction. */
struct msg {
	uint8_t b[1024];
	size_t n;
};

static void put8(struct msg *m, unsigned v)
{
	m->b[m->n++] = (uint8_t)v;
}

static void put16(struct msg *m, unsigned v)
{
	put8(m, v >> 8);
	put8(m, v & 0xff);
}

static void put32(struct msg *m, unsigned long v)
{
	put16(m, (unsigned)(v >> 16));
	put16(m, (unsigned)(v & 0xffff));
}

/* "a.b" as labels, then the root. */
static void put_name(struct msg *m, const char *name)
{
	while (*name) {
		const char *dot = strchr(name, '.');
		size_t l = dot ? (size_t)(dot - name) : strlen(name);

		put8(m, (unsigned)l);
		memcpy(m->b + m->n, name, l);
		m->n += l;
		name += l + (dot != NULL);
	}
	put8(m, 0);
}

static void put_ptr(struct msg *m, unsigned off)
{
	put16(m, 0xc000 | off);
}

/* Header: id, flags, then the four counts. */
static void header(struct msg *m, unsigned flags, unsigned qd, unsigned an, unsigned ns,
                   unsigned ar)
{
	m->n = 0;
	put16(m, 0x1234);
	put16(m, flags);
	put16(m, qd);
	put16(m, an);
	put16(m, ns);
	put16(m, ar);
}

static void query(struct msg *m, const char *name, unsigned type)
{
	header(m, 0x0100, 1, 0, 0, 0);
	put_name(m, name);
	put16(m, type);
	put16(m, DNS_CLASS_IN);
}

/* A reply to `name type` with an answers, the question at offset 12. */
static void reply(struct msg *m, const char *name, unsigned type, unsigned flags, unsigned an)
{
	header(m, flags, 1, an, 0, 0);
	put_name(m, name);
	put16(m, type);
	put16(m, DNS_CLASS_IN);
}

/* One record: owner by name (NULL: a pointer to the question's), type,
 * TTL; then the caller puts rdlength and data. */
static void rr(struct msg *m, const char *owner, unsigned type, unsigned long ttl)
{
	if (owner)
		put_name(m, owner);
	else
		put_ptr(m, 12);
	put16(m, type);
	put16(m, DNS_CLASS_IN);
	put32(m, ttl);
}

static void rr_a(struct msg *m, const char *owner, const char *v4, unsigned long ttl)
{
	uint8_t a[4];

	inet_pton(AF_INET, v4, a);
	rr(m, owner, DNS_TYPE_A, ttl);
	put16(m, 4);
	memcpy(m->b + m->n, a, 4);
	m->n += 4;
}

static void rr_cname(struct msg *m, const char *owner, const char *target, unsigned long ttl)
{
	size_t at;

	rr(m, owner, DNS_TYPE_CNAME, ttl);
	at = m->n;
	put16(m, 0);
	put_name(m, target);
	m->b[at] = (uint8_t)((m->n - at - 2) >> 8);
	m->b[at + 1] = (uint8_t)((m->n - at - 2) & 0xff);
}

static bool is_v4(const struct dns_addr *a, const char *v4)
{
	uint8_t want[16] = {[10] = 0xff, [11] = 0xff};

	inet_pton(AF_INET, v4, want + 12);
	return memcmp(a->addr, want, 16) == 0;
}

static void queries(void)
{
	struct msg m;
	struct dns_question q;
	char why[160];
	uint8_t out[512];
	size_t n;

	query(&m, "Registry.Example", DNS_TYPE_A);
	ok(dns_query_parse(m.b, m.n, &q, why, sizeof(why)) == 0 &&
	       strcmp(q.name, "registry.example") == 0 && q.qtype == DNS_TYPE_A && q.end == m.n,
	   "a query: its name in lower case, its type, where it ends");
	n = dns_reply_empty(m.b, &q, DNS_RCODE_REFUSED, out, sizeof(out));
	ok(n == m.n && out[0] == 0x12 && out[1] == 0x34 && out[2] == 0x81 && (out[3] & 0x0f) == 5 &&
	       out[5] == 1 && out[7] == 0 && memcmp(out + 12, m.b + 12, m.n - 12) == 0,
	   "the refusal: the query's id and question, QR, RD kept, REFUSED, no record");
	ok(dns_reply_empty(m.b, &q, DNS_RCODE_REFUSED, out, 8) == 0, "no room: no refusal");

	header(&m, 0x0100, 1, 0, 0, 1); /* an EDNS OPT record after the question */
	put_name(&m, "a.example");
	put16(&m, DNS_TYPE_AAAA);
	put16(&m, DNS_CLASS_IN);
	put8(&m, 0);
	put16(&m, 41);
	put16(&m, 1232);
	put32(&m, 0);
	put16(&m, 0);
	ok(dns_query_parse(m.b, m.n, &q, why, sizeof(why)) == 0 && q.end == m.n - 11,
	   "a query with EDNS's OPT record");

	query(&m, "a.example", DNS_TYPE_A);
	m.b[2] |= 0x80;
	ok(dns_query_parse(m.b, m.n, &q, why, sizeof(why)) < 0, "a response is no query (%s)", why);
	query(&m, "a.example", DNS_TYPE_A);
	m.b[2] |= 0x28; /* opcode 5, UPDATE */
	ok(dns_query_parse(m.b, m.n, &q, why, sizeof(why)) < 0, "UPDATE refused (%s)", why);
	query(&m, "a.example", DNS_TYPE_A);
	m.b[5] = 2;
	ok(dns_query_parse(m.b, m.n, &q, why, sizeof(why)) < 0, "two questions refused (%s)", why);
	query(&m, "a.example", DNS_TYPE_A);
	m.b[7] = 1;
	ok(dns_query_parse(m.b, m.n, &q, why, sizeof(why)) < 0, "a query with answers refused");
	query(&m, "a.example", DNS_TYPE_A);
	ok(dns_query_parse(m.b, m.n - 1, &q, why, sizeof(why)) < 0 &&
	       dns_query_parse(m.b, 11, &q, why, sizeof(why)) < 0,
	   "cut short: refused");
	query(&m, "a.example", DNS_TYPE_A);
	m.b[m.n - 1] = 3; /* class CH */
	ok(dns_query_parse(m.b, m.n, &q, why, sizeof(why)) < 0, "class CH refused (%s)", why);
	query(&m, "a\x01b.example", DNS_TYPE_A);
	ok(dns_query_parse(m.b, m.n, &q, why, sizeof(why)) < 0, "a control byte in a name refused");
	query(&m, "a.b", DNS_TYPE_A);
	m.b[12] = 0x41; /* label type 01 */
	ok(dns_query_parse(m.b, m.n, &q, why, sizeof(why)) < 0, "an extended label type refused");
	header(&m, 0x0100, 1, 0, 0, 0); /* a pointer to itself */
	put_ptr(&m, 12);
	put16(&m, 1);
	put16(&m, 1);
	ok(dns_query_parse(m.b, m.n, &q, why, sizeof(why)) < 0, "a pointer to itself refused");
	{
		char big[5 * 61];

		/* 5 labels of 60: 305 bytes on the wire, over 255 */
		for (int i = 0; i < 5; i++) {
			memset(big + i * 61, 'a', 60);
			big[i * 61 + 60] = i < 4 ? '.' : '\0';
		}
		query(&m, big, DNS_TYPE_A);
		ok(dns_query_parse(m.b, m.n, &q, why, sizeof(why)) < 0,
		   "a name over 255 bytes refused");
	}
}

static void answers(void)
{
	struct msg m, qm;
	struct dns_question q;
	struct dns_addr a[8];
	char why[160];
	size_t n;

	query(&qm, "www.example", DNS_TYPE_A);
	dns_query_parse(qm.b, qm.n, &q, why, sizeof(why));

	reply(&m, "www.example", DNS_TYPE_A, 0x8180, 2);
	rr_a(&m, NULL, "192.0.2.1", 300);
	rr_a(&m, "www.example", "192.0.2.2", 60);
	ok(dns_answer_addrs(m.b, m.n, &q, a, 8, &n, why, sizeof(why)) == 0 && n == 2 &&
	       is_v4(&a[0], "192.0.2.1") && a[0].ttl == 300 && is_v4(&a[1], "192.0.2.2") &&
	       a[1].ttl == 60,
	   "two A records (owner by pointer and by name), as v4-mapped, with their TTLs");

	reply(&m, "www.example", DNS_TYPE_A, 0x8180, 4);
	rr_cname(&m, NULL, "cdn.example.net", 30);
	rr_cname(&m, "cdn.example.net", "edge.example.net", 600);
	rr_a(&m, "edge.example.net", "198.51.100.7", 900);
	rr_a(&m, "evil.example", "203.0.113.9", 900);
	ok(dns_answer_addrs(m.b, m.n, &q, a, 8, &n, why, sizeof(why)) == 0 && n == 1 &&
	       is_v4(&a[0], "198.51.100.7") && a[0].ttl == 30,
	   "a CNAME chain: its end's address, the chain's smallest TTL; another owner's ignored");

	reply(&m, "www.example", DNS_TYPE_A, 0x8180, 3);
	rr_cname(&m, NULL, "b.example", 30);
	rr_cname(&m, "b.example", "www.example", 30);
	rr_a(&m, "b.example", "192.0.2.3", 30);
	ok(dns_answer_addrs(m.b, m.n, &q, a, 8, &n, why, sizeof(why)) < 0 && n == 0 &&
	       strstr(why, "loop"),
	   "a CNAME loop: an error, no address (%s)", why);

	reply(&m, "www.example", DNS_TYPE_A, 0x8180, DNS_MAX_CHAIN + 1);
	{
		char from[32], to[32];

		for (int i = 0; i <= DNS_MAX_CHAIN; i++) {
			snprintf(from, sizeof(from), "c%d.example", i);
			snprintf(to, sizeof(to), "c%d.example", i + 1);
			rr_cname(&m, i ? from : NULL, to, 30);
		}
	}
	ok(dns_answer_addrs(m.b, m.n, &q, a, 8, &n, why, sizeof(why)) < 0,
	   "a chain over %d CNAMEs: an error (%s)", DNS_MAX_CHAIN, why);

	reply(&m, "www.example", DNS_TYPE_A, 0x8180, 3);
	for (int i = 0; i < 3; i++)
		rr_a(&m, NULL, "192.0.2.4", 30);
	ok(dns_answer_addrs(m.b, m.n, &q, a, 2, &n, why, sizeof(why)) < 0,
	   "more addresses than room: an error, never cut short (%s)", why);

	/* Only the answer section: an additional record is no address. */
	reply(&m, "www.example", DNS_TYPE_A, 0x8180, 0);
	m.b[11] = 1;
	rr_a(&m, NULL, "169.254.169.254", 30);
	ok(dns_answer_addrs(m.b, m.n, &q, a, 8, &n, why, sizeof(why)) == 0 && n == 0,
	   "an additional section's A record is no address");

	reply(&m, "www.example", DNS_TYPE_A, 0x8180, 1);
	rr(&m, NULL, DNS_TYPE_AAAA, 30);
	put16(&m, 16);
	memset(m.b + m.n, 0, 16);
	m.n += 16;
	ok(dns_answer_addrs(m.b, m.n, &q, a, 8, &n, why, sizeof(why)) == 0 && n == 0,
	   "an AAAA record in an A answer is no address");

	reply(&m, "www.example", DNS_TYPE_A, 0x8183, 0); /* NXDOMAIN */
	ok(dns_answer_addrs(m.b, m.n, &q, a, 8, &n, why, sizeof(why)) == 0 && n == 0,
	   "NXDOMAIN: no address, no error");

	reply(&m, "www.example", DNS_TYPE_A, 0x8380, 0); /* TC */
	ok(dns_answer_addrs(m.b, m.n, &q, a, 8, &n, why, sizeof(why)) < 0,
	   "truncated: an error (%s)", why);

	reply(&m, "www.example", DNS_TYPE_A, 0x8180, 1);
	rr_a(&m, NULL, "192.0.2.1", 30);
	m.b[1] ^= 1;
	ok(dns_answer_addrs(m.b, m.n, &q, a, 8, &n, why, sizeof(why)) < 0, "another id: an error");

	reply(&m, "other.example", DNS_TYPE_A, 0x8180, 1);
	rr_a(&m, NULL, "192.0.2.1", 30);
	ok(dns_answer_addrs(m.b, m.n, &q, a, 8, &n, why, sizeof(why)) < 0,
	   "another question: an error (%s)", why);

	reply(&m, "www.example", DNS_TYPE_A, 0x8180, 1);
	rr_a(&m, NULL, "192.0.2.1", 30);
	m.b[m.n - 5] = 8; /* rdlength past the end */
	ok(dns_answer_addrs(m.b, m.n, &q, a, 8, &n, why, sizeof(why)) < 0,
	   "a record's data past the end: an error");

	reply(&m, "www.example", DNS_TYPE_A, 0x8180, 1);
	put_ptr(&m, (unsigned)m.n + 2); /* a forward pointer as the owner */
	ok(dns_answer_addrs(m.b, m.n, &q, a, 8, &n, why, sizeof(why)) < 0,
	   "a pointer forward: an error");

	/* A pointer loop through labels: two pointers, each backwards, with
	 * labels between them (the 255-byte cap ends it). */
	reply(&m, "www.example", DNS_TYPE_A, 0x8180, 1);
	{
		size_t start = m.n;

		put8(&m, 1);
		put8(&m, 'x');
		put_ptr(&m, (unsigned)start);
		put16(&m, DNS_TYPE_A);
		put16(&m, DNS_CLASS_IN);
		put32(&m, 30);
		put16(&m, 4);
		put32(&m, 0xc0000201);
	}
	ok(dns_answer_addrs(m.b, m.n, &q, a, 8, &n, why, sizeof(why)) < 0,
	   "a compression loop: an error, not a hang");
}

int main(void)
{
	queries();
	answers();
	return tap_done();
}
