/* The DNS gate's upstream resolvers (dns_upstream.h). */
#include "net/dns_upstream.h"
#include "lib/cleanup.h"
#include "net/dns_msg.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define WHY(...) (snprintf(why, wlen, __VA_ARGS__), -1)

int dns_upstream_add(struct dns_upstreams *u, const char *addr)
{
	struct sockaddr_in6 *a;
	struct in_addr v4;

	if (u->n == DNS_MAX_UPSTREAMS)
		return 0;
	a = &u->a[u->n];
	memset(a, 0, sizeof(*a));
	a->sin6_family = AF_INET6;
	a->sin6_port = htons(53);
	if (inet_pton(AF_INET, addr, &v4) == 1) {
		/* The gate's own addresses are never an upstream. */
		if ((ntohl(v4.s_addr) >> 16) == (127u << 8 | 53))
			return 0;
		a->sin6_addr.s6_addr[10] = a->sin6_addr.s6_addr[11] = 0xff;
		memcpy(&a->sin6_addr.s6_addr[12], &v4, 4);
	} else if (inet_pton(AF_INET6, addr, &a->sin6_addr) != 1) {
		return -1;
	}
	u->n++;
	return 0;
}

void dns_resolv_parse(const char *text, struct dns_upstreams *u)
{
	const char *l = text;

	while (l && *l) {
		const char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) : strlen(l);
		char line[256], word[16], addr[64];

		if (n < sizeof(line)) {
			memcpy(line, l, n);
			line[n] = '\0';
			if (sscanf(line, " %15s %63s", word, addr) == 2 &&
			    strcmp(word, "nameserver") == 0)
				dns_upstream_add(u, addr);
		}
		l = nl ? nl + 1 : NULL;
	}
}

bool dns_upstream_loopback(const struct sockaddr_in6 *a)
{
	const uint8_t *b = a->sin6_addr.s6_addr;

	return IN6_IS_ADDR_LOOPBACK(&a->sin6_addr) ||
	       (IN6_IS_ADDR_V4MAPPED(&a->sin6_addr) && b[12] == 127);
}

bool dns_upstream_local(const struct sockaddr_in6 *a)
{
	const uint8_t *b = a->sin6_addr.s6_addr;

	return dns_upstream_loopback(a) || IN6_IS_ADDR_UNSPECIFIED(&a->sin6_addr) ||
	       (IN6_IS_ADDR_V4MAPPED(&a->sin6_addr) && b[12] == 0);
}

void dns_upstreams_drop_own(struct dns_upstreams *u)
{
	struct ifaddrs *ifs = NULL;
	size_t k = 0;

	/* Unknown addresses: nothing is asked (fail closed). */
	if (getifaddrs(&ifs) < 0) {
		u->n = 0;
		return;
	}
	for (size_t i = 0; i < u->n; i++) {
		const uint8_t *b = u->a[i].sin6_addr.s6_addr;
		bool own = dns_upstream_local(&u->a[i]);

		for (struct ifaddrs *f = ifs; f && !own; f = f->ifa_next) {
			if (f->ifa_addr && f->ifa_addr->sa_family == AF_INET)
				own = IN6_IS_ADDR_V4MAPPED(&u->a[i].sin6_addr) &&
				      memcmp(b + 12, &((struct sockaddr_in *)f->ifa_addr)->sin_addr,
				             4) == 0;
			else if (f->ifa_addr && f->ifa_addr->sa_family == AF_INET6)
				own = memcmp(b, &((struct sockaddr_in6 *)f->ifa_addr)->sin6_addr,
				             16) == 0;
		}
		if (!own)
			u->a[k++] = u->a[i];
	}
	u->n = k;
	freeifaddrs(ifs);
}

void dns_upstream_str(const struct sockaddr_in6 *a, char *buf, size_t len)
{
	static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
	char s[INET6_ADDRSTRLEN] = "?";

	if (memcmp(a->sin6_addr.s6_addr, mapped, 12) == 0)
		inet_ntop(AF_INET, &a->sin6_addr.s6_addr[12], s, sizeof(s));
	else
		inet_ntop(AF_INET6, &a->sin6_addr, s, sizeof(s));
	snprintf(buf, len, "%s", s);
}

long long dns_now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000LL + t.tv_nsec / 1000000;
}

/* Wait for ev on fd until the deadline; 0 when ready, -1 on timeout. */
static int wait_fd(int fd, short ev, long long deadline)
{
	for (;;) {
		struct pollfd p = {.fd = fd, .events = ev};
		long long left = deadline - dns_now_ms();
		int r;

		if (left <= 0)
			return -1;
		r = poll(&p, 1, (int)left);
		if (r > 0)
			return 0;
		if (r < 0 && errno != EINTR)
			return -1;
	}
}

int dns_read_full(int fd, uint8_t *b, size_t n, long long deadline)
{
	for (size_t got = 0; got < n;) {
		ssize_t r;

		if (wait_fd(fd, POLLIN, deadline) < 0)
			return -1;
		r = read(fd, b + got, n - got);
		if (r <= 0 && !(r < 0 && (errno == EINTR || errno == EAGAIN)))
			return -1;
		if (r > 0)
			got += (size_t)r;
	}
	return 0;
}

int dns_write_full(int fd, const uint8_t *b, size_t n, long long deadline)
{
	for (size_t put = 0; put < n;) {
		ssize_t r;

		if (wait_fd(fd, POLLOUT, deadline) < 0)
			return -1;
		r = write(fd, b + put, n - put);
		if (r < 0 && errno != EINTR && errno != EAGAIN)
			return -1;
		if (r > 0)
			put += (size_t)r;
	}
	return 0;
}

/* A v4-mapped address from an IPv4 socket (a namespace may have no IPv6). */
static int sock(const struct sockaddr_in6 *a, int type)
{
	static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
	struct sockaddr_in a4 = {.sin_family = AF_INET, .sin_port = a->sin6_port};
	bool v4 = memcmp(a->sin6_addr.s6_addr, mapped, 12) == 0;
	_cleanup_close_ int fd =
	    socket(v4 ? AF_INET : AF_INET6, type | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

	memcpy(&a4.sin_addr, &a->sin6_addr.s6_addr[12], 4);
	if (fd >= 0 &&
	    (v4 ? connect(fd, (const struct sockaddr *)&a4, sizeof(a4))
	        : connect(fd, (const struct sockaddr *)a, sizeof(*a))) < 0 &&
	    errno != EINPROGRESS)
		return -1;
	return TAKE_FD(fd);
}

/* Over TCP: two bytes of length, then the message, each way. */
static ssize_t ask_tcp(const struct sockaddr_in6 *a, const uint8_t *q, size_t qlen, uint8_t *out,
                       size_t cap)
{
	long long deadline = dns_now_ms() + DNS_UPSTREAM_MS;
	uint8_t l[2] = {(uint8_t)(qlen >> 8), (uint8_t)qlen};
	_cleanup_close_ int fd = sock(a, SOCK_STREAM);
	int err = 0;
	socklen_t el = sizeof(err);
	size_t n;
	ssize_t r = -1;

	if (fd < 0)
		return -1;
	if (wait_fd(fd, POLLOUT, deadline) == 0 &&
	    getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) == 0 && err == 0 &&
	    dns_write_full(fd, l, 2, deadline) == 0 && dns_write_full(fd, q, qlen, deadline) == 0 &&
	    dns_read_full(fd, l, 2, deadline) == 0) {
		n = (size_t)l[0] << 8 | l[1];
		if (n <= cap && dns_read_full(fd, out, n, deadline) == 0)
			r = (ssize_t)n;
	}
	return r;
}

int dns_upstream_ask(const struct dns_upstreams *u, const uint8_t *q, size_t qlen, uint8_t *out,
                     size_t cap, size_t *len, char *why, size_t wlen)
{
	if (u->n == 0)
		return WHY("no upstream resolver (none the operator gave that the container could "
		           "not answer itself)");
	/* Over TCP only. The gate asks from the container's network
	 * namespace, where the container can send from any address (IPv6's
	 * IP_FREEBIND needs no capability) to the gate's port: a UDP answer is
	 * taken on its 16-bit id alone, which it can spray; a TCP one needs
	 * the connection's sequence numbers, which it cannot see. */
	for (size_t i = 0; i < u->n; i++) {
		ssize_t n = ask_tcp(&u->a[i], q, qlen, out, cap);

		if (n >= DNS_HDR) {
			*len = (size_t)n;
			return 0;
		}
	}
	return WHY("no upstream resolver answered");
}
