/* DNS messages for the DNS gate (dns_msg.h). */
#include "net/dns_msg.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define DNS_MAX_RRS 64 /* answer records looked at; more: refused */

#define WHY(...) (snprintf(why, wlen, __VA_ARGS__), -1)

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static bool name_char(uint8_t c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '-' || c == '_';
}

/* The name at off, dotted and lower case, into out; *next is the offset
 * just past it where it starts (after its first pointer, if any). A
 * pointer must point before itself: with the 255-byte cap on what is read,
 * no chain of pointers and labels can loop (the cap on hops is a second
 * guard). -1 when malformed. */
static int read_name(const uint8_t *m, size_t len, size_t off, char *out, size_t *next)
{
	size_t o = off, n = 0, wire = 1;
	unsigned hops = 0;
	bool jumped = false;

	for (;;) {
		uint8_t l;

		if (o >= len)
			return -1;
		l = m[o];
		if ((l & 0xc0) == 0xc0) {
			size_t p;

			if (o + 1 >= len)
				return -1;
			p = (size_t)(l & 0x3f) << 8 | m[o + 1];
			if (p >= o || ++hops > 127) /* 127: a name's most labels */
				return -1;
			if (!jumped)
				*next = o + 2;
			jumped = true;
			o = p;
			continue;
		}
		if (l & 0xc0) /* 0x40, 0x80: label types nobody uses */
			return -1;
		if (l == 0)
			break;
		wire += 1u + l;
		if (wire > 255 || o + 1 + l > len)
			return -1;
		if (n)
			out[n++] = '.';
		for (size_t i = 0; i < l; i++) {
			uint8_t c = m[o + 1 + i];

			if (!name_char(c))
				return -1;
			out[n++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
		}
		o += 1u + l;
	}
	if (!jumped)
		*next = o + 1;
	out[n] = '\0';
	return 0;
}

int dns_query_parse(const uint8_t *m, size_t len, struct dns_question *q, char *why, size_t wlen)
{
	size_t o;

	if (len < DNS_HDR)
		return WHY("shorter than a DNS header");
	if (m[2] & 0x80)
		return WHY("a response, not a query");
	if ((m[2] >> 3 & 0x0f) != 0)
		return WHY("opcode %u, not a standard query", (unsigned)(m[2] >> 3 & 0x0f));
	if (get16(m + 4) != 1 || get16(m + 6) != 0 || get16(m + 8) != 0 || get16(m + 10) > 1)
		return WHY("not one question alone (qd %u an %u ns %u ar %u)", get16(m + 4),
		           get16(m + 6), get16(m + 8), get16(m + 10));
	if (read_name(m, len, DNS_HDR, q->name, &o) < 0)
		return WHY("a malformed name");
	if (o + 4 > len)
		return WHY("the question is cut short");
	q->id = get16(m);
	q->qtype = get16(m + o);
	q->qclass = get16(m + o + 2);
	q->end = o + 4;
	if (q->qclass != DNS_CLASS_IN)
		return WHY("class %u, not IN", q->qclass);
	return 0;
}

size_t dns_reply_empty(const uint8_t *m, const struct dns_question *q, uint8_t rcode, uint8_t *out,
                       size_t cap)
{
	if (q->end > cap)
		return 0;
	memcpy(out, m, q->end);
	out[2] = (uint8_t)(0x80 | (m[2] & 0x01));  /* QR, opcode 0, RD as asked */
	out[3] = (uint8_t)(0x80 | (rcode & 0x0f)); /* RA */
	memset(out + 6, 0, 6);                     /* no record; the OPT dropped */
	return q->end;
}

size_t dns_name_wire_len(const char *name)
{
	return name[0] ? strlen(name) + 2 : 1;
}

size_t dns_query_build(const struct dns_question *q, uint16_t id, uint8_t *out, size_t cap)
{
	size_t o = DNS_HDR, len = DNS_HDR + dns_name_wire_len(q->name) + 4;
	const char *s = q->name;

	if (len > cap)
		return 0;
	memset(out, 0, DNS_HDR);
	out[0] = (uint8_t)(id >> 8);
	out[1] = (uint8_t)id;
	out[2] = 0x01; /* RD */
	out[5] = 1;    /* one question */
	while (*s) {
		const char *dot = strchr(s, '.');
		size_t l = dot ? (size_t)(dot - s) : strlen(s);

		out[o++] = (uint8_t)l;
		memcpy(out + o, s, l);
		o += l;
		s += l + (dot != NULL);
	}
	out[o++] = 0;
	out[o++] = (uint8_t)(q->qtype >> 8);
	out[o++] = (uint8_t)q->qtype;
	out[o++] = (uint8_t)(q->qclass >> 8);
	out[o++] = (uint8_t)q->qclass;
	return o;
}

/* One answer record: its owner, type, TTL and where its data lies. */
struct rr {
	char owner[DNS_NAME_BUF];
	uint16_t type;
	uint32_t ttl;
	size_t data, dlen;
};

static int read_rrs(const uint8_t *m, size_t len, size_t o, unsigned count, struct rr *rr)
{
	for (unsigned i = 0; i < count; i++) {
		if (read_name(m, len, o, rr[i].owner, &o) < 0 || o + 10 > len)
			return -1;
		rr[i].type = get16(m + o);
		if (get16(m + o + 2) != DNS_CLASS_IN)
			rr[i].type = 0; /* never counted */
		rr[i].ttl = get32(m + o + 4);
		rr[i].dlen = get16(m + o + 8);
		rr[i].data = o + 10;
		o = rr[i].data + rr[i].dlen;
		if (o > len)
			return -1;
	}
	return 0;
}

/* The chain of names from q's: each the target of a CNAME owned by the one
 * before, with the smallest TTL on the way to it. */
struct chain {
	char name[DNS_MAX_CHAIN + 1][DNS_NAME_BUF];
	uint32_t ttl[DNS_MAX_CHAIN + 1];
	size_t n;
};

static int follow(const uint8_t *m, const struct rr *rr, unsigned count, struct chain *c, char *why,
                  size_t wlen)
{
	for (;;) {
		const char *cur = c->name[c->n - 1];
		size_t i, end;

		for (i = 0; i < count; i++)
			if (rr[i].type == DNS_TYPE_CNAME && strcmp(rr[i].owner, cur) == 0)
				break;
		if (i == count)
			return 0;
		if (c->n == DNS_MAX_CHAIN + 1)
			return WHY("a CNAME chain longer than %d", DNS_MAX_CHAIN);
		/* The target must lie in the record's data (pointers may leave it). */
		if (read_name(m, rr[i].data + rr[i].dlen, rr[i].data, c->name[c->n], &end) < 0 ||
		    end != rr[i].data + rr[i].dlen)
			return WHY("a malformed CNAME target");
		for (size_t k = 0; k < c->n; k++)
			if (strcmp(c->name[k], c->name[c->n]) == 0)
				return WHY("a CNAME loop through %s", c->name[k]);
		c->ttl[c->n] = rr[i].ttl < c->ttl[c->n - 1] ? rr[i].ttl : c->ttl[c->n - 1];
		c->n++;
	}
}

int dns_answer_addrs(const uint8_t *m, size_t len, const struct dns_question *q,
                     struct dns_addr *out, size_t max, size_t *n, char *why, size_t wlen)
{
	struct rr rr[DNS_MAX_RRS]; /* ~19 KiB of stack: the supervisor's is ample */
	struct chain c;
	char qname[DNS_NAME_BUF];
	unsigned count;
	size_t o;
	uint16_t want = q->qtype == DNS_TYPE_AAAA ? DNS_TYPE_AAAA : DNS_TYPE_A;

	*n = 0;
	if (len < DNS_HDR || get16(m) != q->id || !(m[2] & 0x80))
		return WHY("not the reply to the query");
	if (m[2] & 0x02)
		return WHY("truncated (ask over TCP)");
	if (get16(m + 4) != 1 || read_name(m, len, DNS_HDR, qname, &o) < 0 || o + 4 > len ||
	    strcmp(qname, q->name) != 0 || get16(m + o) != q->qtype ||
	    get16(m + o + 2) != q->qclass)
		return WHY("the reply's question is not the query's");
	if ((m[3] & 0x0f) != 0)
		return 0;
	count = get16(m + 6);
	if (count > DNS_MAX_RRS)
		return WHY("more than %d answer records", DNS_MAX_RRS);
	if (read_rrs(m, len, o + 4, count, rr) < 0)
		return WHY("a malformed answer record");
	snprintf(c.name[0], sizeof(c.name[0]), "%s", q->name);
	c.ttl[0] = UINT32_MAX;
	c.n = 1;
	if (follow(m, rr, count, &c, why, wlen) < 0)
		return -1;
	for (unsigned i = 0; i < count; i++) {
		size_t k;

		if (rr[i].type != want || (q->qtype != DNS_TYPE_A && q->qtype != DNS_TYPE_AAAA))
			continue;
		for (k = 0; k < c.n && strcmp(rr[i].owner, c.name[k]) != 0; k++)
			;
		if (k == c.n)
			continue; /* another owner's: never an address of q's name */
		if (rr[i].dlen != (want == DNS_TYPE_A ? 4u : 16u))
			return WHY("an address record of %zu bytes", rr[i].dlen);
		if (*n == max)
			return WHY("more than %zu addresses", max);
		memset(out[*n].addr, 0, 16);
		if (want == DNS_TYPE_A) {
			out[*n].addr[10] = out[*n].addr[11] = 0xff;
			memcpy(out[*n].addr + 12, m + rr[i].data, 4);
		} else {
			memcpy(out[*n].addr, m + rr[i].data, 16);
		}
		out[*n].ttl = rr[i].ttl < c.ttl[k] ? rr[i].ttl : c.ttl[k];
		(*n)++;
	}
	return 0;
}
