/* DNS messages as the DNS gate (issue 26) reads and answers them: a
 * container's query (one question), the refusal ward sends back, and the
 * addresses an upstream answer gives for the question's name (RFC 1035;
 * AAAA: RFC 3596). Pure functions over bytes that trust none of them:
 * every length is checked, a compression pointer must point backwards and
 * a name stay within 255 bytes (no loops), and only the answer section's
 * records on the question's CNAME chain count: what the authority and
 * additional sections or other owners say is never an address. */
#ifndef WARD_NET_DNS_MSG_H
#define WARD_NET_DNS_MSG_H

#include <stddef.h>
#include <stdint.h>

#define DNS_HDR            12
#define DNS_NAME_BUF       256 /* a name in dotted form, with its NUL */
#define DNS_TYPE_A         1
#define DNS_TYPE_CNAME     5
#define DNS_TYPE_AAAA      28
#define DNS_CLASS_IN       1
#define DNS_RCODE_SERVFAIL 2
#define DNS_RCODE_REFUSED  5
#define DNS_MAX_CHAIN      8 /* CNAMEs followed from the question's name */

struct dns_question {
	uint16_t id;
	char name[DNS_NAME_BUF]; /* dotted, lower case, no final dot */
	uint16_t qtype, qclass;
	size_t end; /* offset just past the question */
};

/* One address an answer gives, with the smallest TTL on its way there.
 * IPv4 as ::ffff:a.b.c.d (as the allow map holds it). */
struct dns_addr {
	uint8_t addr[16];
	uint32_t ttl;
};

/* m is a standard query (QR 0, opcode 0) with one question of class IN,
 * no answer or authority records and at most one additional (EDNS's OPT);
 * names of letters, digits, '-' and '_' only. -1 with the reason in why. */
int dns_query_parse(const uint8_t *m, size_t len, struct dns_question *q, char *why, size_t wlen);

/* The reply to query m (parsed into q) that carries rcode and no record:
 * its length in out, 0 when cap is too small. */
size_t dns_reply_empty(const uint8_t *m, const struct dns_question *q, uint8_t rcode, uint8_t *out,
                       size_t cap);

/* The query the gate sends upstream for q: a header of its own (id, RD),
 * q's one question with its name as parsed (lower case, uncompressed),
 * and nothing else (no EDNS option of the container's travels on). Its
 * length, 0 when cap is too small. */
size_t dns_query_build(const struct dns_question *q, uint16_t id, uint8_t *out, size_t cap);
/* The bytes of q's name on the wire, uncompressed (its labels and the root). */
size_t dns_name_wire_len(const char *name);

/* The addresses answer m gives for q: m must be q's reply (same id, QR 1,
 * the same one question) and not truncated (TC: the caller asks again
 * over TCP). Records of q's type whose owner is q's name or a CNAME
 * reached from it count; a CNAME loop, a chain over DNS_MAX_CHAIN or more
 * than max addresses is an error (refused, never cut short). An rcode
 * other than 0 gives no address (*n 0, not an error). -1 with why. */
int dns_answer_addrs(const uint8_t *m, size_t len, const struct dns_question *q,
                     struct dns_addr *out, size_t max, size_t *n, char *why, size_t wlen);

#endif
