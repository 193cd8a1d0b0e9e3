/* Refused connections, recorded (sup_egress.h). */
#include "supervisor/sup_egress.h"
#include "lib/error.h"
#include "net/egress_map.h"

#include <arpa/inet.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void egress_addr_str(const uint8_t *addr, char *buf, size_t len)
{
	static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
	char a[INET6_ADDRSTRLEN];

	if (memcmp(addr, mapped, 12) == 0)
		inet_ntop(AF_INET, addr + 12, a, sizeof(a));
	else
		inet_ntop(AF_INET6, addr, a, sizeof(a));
	snprintf(buf, len, "%s", a);
}

const char *egress_proto_str(uint8_t proto)
{
	return proto == EGRESS_TCP ? "tcp" : proto == EGRESS_UDP ? "udp" : "other";
}

/* The command as the kernel gave it, made printable (the container names
 * its own threads). */
static void printable(const char *in, size_t n, char *out, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; i < n && in[i] && o + 5 < len; i++) {
		unsigned char c = (unsigned char)in[i];

		if (c >= 0x20 && c < 0x7f && c != '\\')
			out[o++] = (char)c;
		else
			o += (size_t)snprintf(out + o, len - o, "\\x%02x", c);
	}
	out[o] = '\0';
}

static int on_event(void *ctx, void *data, size_t size)
{
	struct egress_log *l = ctx;
	const struct egress_event *e = data;
	struct egress_dest d = {0};
	size_t i;

	if (size < sizeof(*e))
		return 0;
	memcpy(d.addr, e->addr, sizeof(d.addr));
	d.port = e->port;
	d.proto = e->proto;
	if (l->n_first < EGRESS_FIRST_MAX) {
		struct egress_refusal *r = &l->first[l->n_first++];

		r->d = d;
		r->pid = (pid_t)e->pid;
		printable(e->comm, sizeof(e->comm), r->comm, sizeof(r->comm));
	}
	for (i = 0; i < l->n_dests; i++)
		if (memcmp(l->dests[i].addr, d.addr, 16) == 0 && l->dests[i].port == d.port &&
		    l->dests[i].proto == d.proto)
			break;
	if (i == l->n_dests) {
		if (l->n_dests == EGRESS_DESTS_MAX) {
			l->uncounted++;
			return 0;
		}
		l->dests[l->n_dests++] = d;
	}
	l->dests[i].count++;
	return 0;
}

int sup_egress_open(struct egress_log *l, int events_fd, int counters_fd, struct werror *err)
{
	l->counters = counters_fd;
	l->events = events_fd;
	l->rb = ring_buffer__new(events_fd, on_event, l, NULL);
	if (l->rb == NULL)
		return werr(err, errno, "egress: reading the programs' ring buffer");
	l->recorded = true;
	return ring_buffer__epoll_fd(l->rb);
}

void sup_egress_drain(struct egress_log *l)
{
	if (l->rb)
		ring_buffer__consume(l->rb);
}

/* Most refused first: the report's summary names the top ones. */
static int by_count(const void *a, const void *b)
{
	const struct egress_dest *x = a, *y = b;

	return x->count < y->count ? 1 : x->count > y->count ? -1 : 0;
}

void sup_egress_close(struct egress_log *l)
{
	uint64_t *slot[EGRESS_CNT_N] = {&l->allowed, &l->refused, &l->lost, &l->sockets};

	sup_egress_drain(l);
	for (uint32_t k = 0; l->counters >= 0 && k < EGRESS_CNT_N; k++)
		bpf_map_lookup_elem(l->counters, &k, slot[k]);
	if (l->counters >= 0)
		close(l->counters);
	l->counters = -1;
	qsort(l->dests, l->n_dests, sizeof(l->dests[0]), by_count);
	ring_buffer__free(l->rb);
	l->rb = NULL;
	if (l->events >= 0)
		close(l->events);
	l->events = -1;
}
