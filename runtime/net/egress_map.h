/* The layout shared by the egress programs (net/bpf/egress.bpf.c) and the
 * code that fills their allow map and reads their events: plain fixed-size
 * types only, since both clang's BPF target and the host compiler read it.
 *
 * Addresses are 16 bytes, IPv4 ones as v4-mapped IPv6 (::ffff:a.b.c.d), so
 * one LPM trie serves both families and a v4-mapped IPv6 destination is
 * judged exactly as its IPv4 address. Ports and protocols are in the value:
 * an LPM key cannot hold both an address prefix and a port range. The value
 * names, per protocol, a port set: a bitmap of the 65536 ports in an array
 * map. A verdict is then two lookups and a bit test, with no loop for the
 * verifier to walk (a loop over port ranges cost it ~0.3 ms per program at
 * every create). */
#ifndef WARD_NET_EGRESS_MAP_H
#define WARD_NET_EGRESS_MAP_H

#include <linux/types.h>

#define EGRESS_MAX_ENTRIES 4096 /* distinct prefixes in one container's map */
#define EGRESS_MAX_SETS    1024 /* distinct port sets (8 KiB each) */
#define EGRESS_RING_BYTES  (64 * 1024)
#define EGRESS_PORT_WORDS  1024 /* 65536 ports, a bit each */

/* Protocol bits: TCP, UDP, and any other (ICMP "ping" sockets, ...). */
#define EGRESS_TCP   1
#define EGRESS_UDP   2
#define EGRESS_OTHER 4
#define EGRESS_ANY   (EGRESS_TCP | EGRESS_UDP | EGRESS_OTHER)
/* A protocol bit's index in egress_verdict.set. */
#define EGRESS_PI(bit) ((bit) == EGRESS_TCP ? 0 : (bit) == EGRESS_UDP ? 1 : 2)

struct egress_key {
	__u32 prefixlen; /* bits of addr that count (LPM trie) */
	__u8 addr[16];
};

/* A port set: port p is in it when bit p % 64 of w[p / 64] is set. Set 0
 * is the empty one (array maps start zeroed). */
struct egress_ports {
	__u64 w[EGRESS_PORT_WORDS];
};

/* deny: refused whatever the port (a deny rule covers the prefix);
 * otherwise allowed when the port is in set[EGRESS_PI(protocol)]. */
struct egress_verdict {
	__u8 deny;
	__u8 pad;
	__u16 set[3];
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

/* SOCKETS: sockets refused at socket(2) (egress.bpf.c, egress_sock_create). */
enum { EGRESS_CNT_ALLOWED, EGRESS_CNT_REFUSED, EGRESS_CNT_LOST, EGRESS_CNT_SOCKETS, EGRESS_CNT_N };

#endif
