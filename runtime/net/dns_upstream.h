/* The DNS gate's upstream resolvers: the operator's (the policy's
 * dnsUpstreams, else the host's resolv.conf; op_create_plan.c), asked
 * over TCP. The gate's sockets are made by the gate, outside the
 * container's cgroup: the egress programs never judge them
 * (net/dns_gate.h says why that is the point). */
#ifndef WARD_NET_DNS_UPSTREAM_H
#define WARD_NET_DNS_UPSTREAM_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define DNS_MAX_UPSTREAMS 3     /* as glibc's MAXNS */
#define DNS_UPSTREAM_MS   2000  /* each try's limit */
#define DNS_MSG_MAX       65535 /* a TCP message's most */
/* Where pasta forwards DNS to a resolver on the host's loopback (its
 * --dns-forward): the DNS gate's upstream then, when pasta connects the
 * container (an upstream elsewhere is asked through pasta as it is). */
#define DNS_PASTA_FORWARD "169.254.1.1"

struct dns_upstreams {
	struct sockaddr_in6 a[DNS_MAX_UPSTREAMS]; /* IPv4 ones as v4-mapped */
	size_t n;
};

/* The "nameserver" lines of a resolv.conf's text (addresses only; a
 * scoped IPv6 one and the gate's own 127.53.0.0/16 are left out). */
void dns_resolv_parse(const char *text, struct dns_upstreams *u);
/* a is on loopback (127.0.0.0/8, ::1): the host's own resolver. */
bool dns_upstream_loopback(const struct sockaddr_in6 *a);
/* a names the namespace it is asked from: loopback, or unspecified
 * (0.0.0.0/8, ::), which a connect takes as this host. */
bool dns_upstream_local(const struct sockaddr_in6 *a);
/* Drop from u every local one and every address an interface of the
 * current network namespace has: asked from the container's namespace,
 * those are the container's own (it could answer them itself). */
void dns_upstreams_drop_own(struct dns_upstreams *u);
/* One upstream as text ("10.0.0.1", "fd00::1"). */
void dns_upstream_str(const struct sockaddr_in6 *a, char *buf, size_t len);
/* Add one address in text form; -1 if it is none. */
int dns_upstream_add(struct dns_upstreams *u, const char *addr);

/* Send query q (qlen bytes, id id) to each upstream in turn until one
 * answers, over TCP (never UDP: dns_upstream.c says why).
 * The reply in out (cap bytes; DNS_MSG_MAX holds any), its length in
 * *len; -1 with why when none answered. */
int dns_upstream_ask(const struct dns_upstreams *u, const uint8_t *q, size_t qlen, uint8_t *out,
                     size_t cap, size_t *len, char *why, size_t wlen);

/* CLOCK_MONOTONIC in ms; exactly n bytes from or to a non-blocking fd
 * before the deadline (0, or -1). */
long long dns_now_ms(void);
int dns_read_full(int fd, uint8_t *b, size_t n, long long deadline);
int dns_write_full(int fd, const uint8_t *b, size_t n, long long deadline);

#endif
