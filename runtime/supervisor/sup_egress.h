/* Refused connections, recorded (issue 26): the supervisor reads the
 * egress programs' ring buffer (net/bpf/egress.bpf.c) as refusals happen,
 * counts them per destination, keeps the first ones in full, and at the
 * end reads the programs' counters (allowed, refused, lost, sockets). */
#ifndef WARD_SUP_EGRESS_H
#define WARD_SUP_EGRESS_H

#include "lib/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define EGRESS_FIRST_MAX 100 /* recorded in full; the rest only counted */
#define EGRESS_DESTS_MAX 512 /* distinct destinations counted */

struct egress_dest {
	uint8_t addr[16]; /* IPv4 as ::ffff:a.b.c.d */
	uint16_t port;
	uint8_t proto; /* EGRESS_TCP, _UDP, _OTHER */
	uint64_t count;
};

struct egress_refusal {
	struct egress_dest d; /* count unused */
	pid_t pid;            /* as the host sees it */
	char comm[64];        /* printable ASCII, other bytes as \xNN */
};

struct egress_log {
	bool recorded; /* the programs' maps were handed to the supervisor */
	uint64_t allowed, refused, lost;
	uint64_t sockets; /* raw, ICMP, ... sockets refused at socket(2) */
	struct egress_refusal first[EGRESS_FIRST_MAX];
	size_t n_first;
	struct egress_dest dests[EGRESS_DESTS_MAX];
	size_t n_dests;
	uint64_t uncounted; /* refusals past EGRESS_DESTS_MAX destinations */
	void *rb;           /* the libbpf ring buffer */
	int events, counters;
};

/* Start reading from the maps' fds (taken over); the fd to poll, or -1 with
 * werr. */
int sup_egress_open(struct egress_log *l, int events_fd, int counters_fd, struct werror *err);
/* Read what the ring buffer holds (poll said so, or at the end). */
void sup_egress_drain(struct egress_log *l);
/* The last refusals and the counters; the maps closed. */
void sup_egress_close(struct egress_log *l);
/* "10.0.0.1" or "fd13::1" (a v4-mapped address as IPv4); "tcp", "udp" or
 * "other". */
void egress_addr_str(const uint8_t *addr, char *buf, size_t len);
const char *egress_proto_str(uint8_t proto);

#endif
