/* libFuzzer target: what the DNS gate reads from the container and from
 * the upstream must never crash it or read past a message (the gate runs
 * them in a process that, crashing, kills the container). The first byte
 * picks: '0' a container's query (parsed, refused, asked again as the
 * gate's own), '1' an upstream's answer to a fixed query for
 * www.example.org (its type from the second byte: A or AAAA), '2' a
 * resolv.conf's text. Build and run with `make fuzz-run`. */
#include "net/dns_msg.h"
#include "net/dns_upstream.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t out[600];
	struct dns_question q;
	struct dns_addr addrs[64];
	char why[160];
	size_t n;

	if (size < 1)
		return 0;
	if (data[0] == '0') {
		uint8_t *m = malloc(size - 1 ? size - 1 : 1);

		memcpy(m, data + 1, size - 1);
		if (dns_query_parse(m, size - 1, &q, why, sizeof(why)) == 0) {
			dns_reply_empty(m, &q, DNS_RCODE_REFUSED, out, sizeof(out));
			dns_query_build(&q, 7, out, sizeof(out));
		}
		free(m);
	} else if (data[0] == '1' && size >= 2) {
		uint8_t *m = malloc(size - 2 ? size - 2 : 1);

		memset(&q, 0, sizeof(q));
		strcpy(q.name, "www.example.org");
		q.qtype = data[1] & 1 ? DNS_TYPE_AAAA : DNS_TYPE_A;
		q.qclass = DNS_CLASS_IN;
		q.id = size > 4 ? (uint16_t)(data[2] << 8 | data[3]) : 0;
		memcpy(m, data + 2, size - 2);
		dns_answer_addrs(m, size - 2, &q, addrs, 64, &n, why, sizeof(why));
		free(m);
	} else if (data[0] == '2') {
		struct dns_upstreams u = {0};
		char *t = malloc(size);

		memcpy(t, data + 1, size - 1);
		t[size - 1] = '\0';
		dns_resolv_parse(t, &u);
		free(t);
	}
	return 0;
}
