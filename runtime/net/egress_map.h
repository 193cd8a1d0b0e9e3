/* The layout shared by the egress programs (net/bpf/egress.bpf.c) and the
 * code that fills their allow map and reads their events: plain fixed-size
 * types only, since both clang's BPF target and the host compiler read it.
 *
 * Addresses are 16 bytes, IPv4 ones as v4-mapped IPv6 (::ffff:a.b.c.d), so
 * one LPM trie serves both families and a v4-mapped IPv6 destination is
 * judged exactly as its IPv4 address. Ports and protocols are in the value:
 * an LPM key cannot hold both an address prefix and a port range. */
#ifndef WARD_NET_EGRESS_MAP_H
#define WARD_NET_EGRESS_MAP_H

#include <linux/types.h>

#define EGRESS_MAX_ENTRIES 4096 /* distinct prefixes in one container's map */
#define EGRESS_MAX_RANGES  16   /* port ranges per prefix */
#define EGRESS_RING_BYTES  (64 * 1024)

/* Protocol bits: TCP, UDP, and any other (ICMP "ping" sockets, ...). */
#define EGRESS_TCP   1
#define EGRESS_UDP   2
#define EGRESS_OTHER 4
#define EGRESS_ANY   (EGRESS_TCP | EGRESS_UDP | EGRESS_OTHER)

struct egress_key {
	__u32 prefixlen; /* bits of addr that count (LPM trie) */
	__u8 addr[16];
};

struct egress_range {
	__u16 lo, hi; /* host byte order, inclusive */
	__u8 protos;  /* EGRESS_* bits */
	__u8 pad[3];
};

/* deny: refused whatever the port (a deny rule covers the prefix);
 * otherwise allowed when one of the n ranges matches. */
struct egress_verdict {
	__u8 deny;
	__u8 n;
	__u8 pad[2];
	struct egress_range r[EGRESS_MAX_RANGES];
};

/* One refused connection or datagram, as the ring buffer carries it. */
struct egress_event {
	__u32 pid; /* as the host sees it */
	__u16 port;
	__u8 proto; /* EGRESS_* bit */
	__u8 pad;
	__u8 addr[16];
	char comm[16];
};

enum { EGRESS_CNT_ALLOWED, EGRESS_CNT_REFUSED, EGRESS_CNT_LOST, EGRESS_CNT_N };

#endif
