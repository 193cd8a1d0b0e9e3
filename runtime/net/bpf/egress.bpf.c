/* The egress programs (issue 26): attached to the container's cgroup2
 * node, they judge every connect(2) and every addressed UDP sendmsg(2) of
 * its processes against the allow map alone. 1 lets the call go on, 0
 * fails it with EPERM. Where a supervisor reads them, each verdict is
 * counted and each refusal put into the ring buffer for its report. Built with
 * `clang -target bpf` at build time (Makefile.am). */
#include <linux/bpf.h>
#include <linux/in.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "net/egress_map.h"

/* The kernel's ABI values (the headers that name them are user space's). */
#define AF_INET     2
#define AF_INET6    10
#define SOCK_STREAM 1
#define SOCK_DGRAM  2

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__type(key, struct egress_key);
	__type(value, struct egress_verdict);
	__uint(max_entries, EGRESS_MAX_ENTRIES);
	__uint(map_flags, BPF_F_NO_PREALLOC); /* required for LPM tries */
} allow SEC(".maps");

/* The port sets the allow map's values name (egress_map.h); sized at
 * load to the plan's. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct egress_ports);
	__uint(max_entries, 1);
} ports SEC(".maps");

/* Set before load (net/egress_bpf.c): without a supervisor nobody reads
 * the counters and the ring buffer, so they are not made, and the verifier
 * drops the code that would use them (a constant of the frozen .rodata). */
const volatile __u8 recording = 0;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, EGRESS_RING_BYTES);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, EGRESS_CNT_N);
} counters SEC(".maps");

static __always_inline void count(__u32 which)
{
	__u64 *c;

	if (!recording)
		return;
	c = bpf_map_lookup_elem(&counters, &which);
	if (c)
		__sync_fetch_and_add(c, 1);
}

static __always_inline __u8 proto_of(const struct bpf_sock_addr *ctx)
{
	if (ctx->protocol == IPPROTO_TCP)
		return EGRESS_TCP;
	if (ctx->protocol == IPPROTO_UDP)
		return EGRESS_UDP;
	return EGRESS_OTHER;
}

static __always_inline int allowed(const struct egress_verdict *v, __u16 port, __u8 proto)
{
	const struct egress_ports *b;
	__u32 set;

	if (v == 0 || v->deny)
		return 0;
	set = v->set[EGRESS_PI(proto)];
	b = bpf_map_lookup_elem(&ports, &set);
	if (b == 0)
		return 0;
	return (b->w[(port >> 6) & (EGRESS_PORT_WORDS - 1)] >> (port & 63)) & 1;
}

static __always_inline void record(const struct egress_key *k, __u16 port, __u8 proto)
{
	struct egress_event *e;

	if (!recording)
		return;
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (e == 0) { /* ring full: the refusal still holds, only its detail is lost */
		count(EGRESS_CNT_LOST);
		return;
	}
	e->pid = (__u32)(bpf_get_current_pid_tgid() >> 32);
	e->port = port;
	e->proto = proto;
	e->pad = 0;
	__builtin_memcpy(e->addr, k->addr, sizeof(e->addr));
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	bpf_ringbuf_submit(e, 0);
}

static __always_inline int judge(const struct bpf_sock_addr *ctx, struct egress_key *k)
{
	/* user_port holds the port in network byte order in its low 16 bits. */
	__u16 port = bpf_ntohs((__u16)ctx->user_port);
	__u8 proto = proto_of(ctx);

	k->prefixlen = 128;
	if (allowed(bpf_map_lookup_elem(&allow, k), port, proto)) {
		count(EGRESS_CNT_ALLOWED);
		return 1;
	}
	count(EGRESS_CNT_REFUSED);
	record(k, port, proto);
	return 0;
}

static __always_inline int judge4(const struct bpf_sock_addr *ctx)
{
	struct egress_key k = {0};
	__u32 a = ctx->user_ip4;

	k.addr[10] = 0xff;
	k.addr[11] = 0xff;
	__builtin_memcpy(&k.addr[12], &a, 4);
	return judge(ctx, &k);
}

/* A v4-mapped destination (::ffff:a.b.c.d) lands on the IPv4 entries: the
 * map holds IPv4 prefixes in that form. */
static __always_inline int judge6(const struct bpf_sock_addr *ctx)
{
	struct egress_key k = {0};
	__u32 w[4];

	w[0] = ctx->user_ip6[0];
	w[1] = ctx->user_ip6[1];
	w[2] = ctx->user_ip6[2];
	w[3] = ctx->user_ip6[3];
	__builtin_memcpy(k.addr, w, sizeof(w));
	return judge(ctx, &k);
}

SEC("cgroup/connect4")
int egress_connect4(struct bpf_sock_addr *ctx)
{
	return judge4(ctx);
}

SEC("cgroup/connect6")
int egress_connect6(struct bpf_sock_addr *ctx)
{
	return judge6(ctx);
}

SEC("cgroup/sendmsg4")
int egress_sendmsg4(struct bpf_sock_addr *ctx)
{
	return judge4(ctx);
}

SEC("cgroup/sendmsg6")
int egress_sendmsg6(struct bpf_sock_addr *ctx)
{
	return judge6(ctx);
}

/* Attached only where an allow-list is in force (egress_plan.tcp_udp_only):
 * the sends of other sockets of the IP families pass no program above
 * (raw sockets, ICMP "ping" sockets' sendto), so they are refused at
 * socket(2). MPTCP, SCTP, UDP-Lite and the like go too: only what the
 * programs judge is made. (AF_PACKET needs CAP_NET_RAW, which the policy
 * leaves out where a list is in force.) */
SEC("cgroup/sock_create")
int egress_sock_create(struct bpf_sock *ctx)
{
	if (ctx->family != AF_INET && ctx->family != AF_INET6)
		return 1;
	if (ctx->type == SOCK_STREAM && ctx->protocol == IPPROTO_TCP)
		return 1;
	if (ctx->type == SOCK_DGRAM && ctx->protocol == IPPROTO_UDP)
		return 1;
	count(EGRESS_CNT_SOCKETS);
	return 0;
}

/* Options that send a packet somewhere else than the address the programs
 * above judged: an IPv6 routing header (a type 4 segment list names the
 * first hop; an attacker's review reached the metadata endpoint through
 * one) and IPv4 source routing (IP_OPTIONS, LSRR/SSRR). The sticky form,
 * IPV6_2292PKTOPTIONS, carries the same header. Refused with EPERM. The
 * same IPv4 options as a sendmsg control message (IP_RETOPTS) reach no
 * program: the kernel takes them only from CAP_NET_RAW, which a container
 * keeps only by the cap.NET_RAW opt-out (then ward check says it bypasses
 * the list, policy_egress.c). */
#define SOL_IP_NR              0
#define SOL_IPV6_NR            41
#define IP_OPTIONS_NR          4
#define IPV6_2292PKTOPTIONS_NR 6
#define IPV6_2292RTHDR_NR      5
#define IPV6_RTHDR_NR          57
#define PAGE_SIZE_NR           4096

SEC("cgroup/setsockopt")
int egress_setsockopt(struct bpf_sockopt *ctx)
{
	int level = ctx->level, name = ctx->optname;

	if ((level == SOL_IP_NR && name == IP_OPTIONS_NR) ||
	    (level == SOL_IPV6_NR && (name == IPV6_RTHDR_NR || name == IPV6_2292RTHDR_NR ||
	                              name == IPV6_2292PKTOPTIONS_NR))) {
		count(EGRESS_CNT_SOCKETS);
		return 0;
	}
	/* A value larger than the page the program sees: the kernel keeps
	 * the caller's own (the documented way to pass it through). */
	if (ctx->optlen > PAGE_SIZE_NR)
		ctx->optlen = 0;
	return 1;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
