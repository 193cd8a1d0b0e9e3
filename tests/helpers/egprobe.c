/* egprobe: one connection attempt, and what happened. Built static and
 * copied into test containers to check the egress programs from inside.
 *
 *   egprobe tcp|udp|udpc|icmp|raw|rthdr ADDRESS PORT
 *
 * tcp: connect(2) a stream socket; udp: sendto(2) one datagram from an
 * unconnected socket; udpc: connect(2) a datagram socket, then send(2);
 * icmp: sendto(2) an echo request from an ICMP "ping" socket (the
 * namespace's net.ipv4.ping_group_range must hold the caller's group);
 * raw: the same from a raw ICMP socket (CAP_NET_RAW). PORT is unused by
 * icmp and raw.
 * rthdr: an IPv6 datagram socket given a segment routing header (type 4)
 * whose one segment is ADDRESS, then sendto(2) ::1 PORT: the kernel would
 * send it to ADDRESS, which the programs never judge (the setsockopt is
 * what must be refused).
 * ADDRESS is IPv4 or IPv6 (a v4-mapped one, ::ffff:a.b.c.d, goes out of
 * an IPv6 socket). Prints "ok" or "errno N" (EPERM, 1, is the programs'
 * refusal; ECONNREFUSED, 111, a reachable host without a listener;
 * EINPROGRESS, 115, no answer to a TCP connect in 5 s). */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
	socklen_t len;
	int fd, r, type, icmp;

	if (argc != 4) {
		fprintf(stderr, "usage: egprobe tcp|udp|udpc|icmp|raw|rthdr ADDRESS PORT\n");
		return 2;
	}
	memset(&ss, 0, sizeof(ss));
	if (inet_pton(AF_INET, argv[2], &s4->sin_addr) == 1) {
		s4->sin_family = AF_INET;
		s4->sin_port = htons((unsigned short)atoi(argv[3]));
		len = sizeof(*s4);
	} else if (inet_pton(AF_INET6, argv[2], &s6->sin6_addr) == 1) {
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((unsigned short)atoi(argv[3]));
		len = sizeof(*s6);
	} else {
		fprintf(stderr, "egprobe: %s is not an address\n", argv[2]);
		return 2;
	}
	if (strcmp(argv[1], "rthdr") == 0) {
		/* nexthdr, hdrlen (8-byte units after the first 8), type 4,
		 * segments left 0, last entry 0, flags, tag; one segment. */
		unsigned char srh[24] = {0, 2, 4, 0, 0, 0, 0, 0};
		struct sockaddr_in6 lo = {.sin6_family = AF_INET6,
		                          .sin6_addr = IN6ADDR_LOOPBACK_INIT};

		if (ss.ss_family != AF_INET6) {
			fprintf(stderr, "egprobe: rthdr takes an IPv6 address\n");
			return 2;
		}
		memcpy(srh + 8, &s6->sin6_addr, 16);
		lo.sin6_port = s6->sin6_port;
		fd = socket(AF_INET6, SOCK_DGRAM, 0);
		r = fd < 0 ? -1 : setsockopt(fd, IPPROTO_IPV6, IPV6_RTHDR, srh, sizeof(srh));
		if (r == 0)
			r = (int)sendto(fd, "x", 1, 0, (struct sockaddr *)&lo, sizeof(lo));
		if (r < 0) {
			printf("errno %d\n", errno);
			return 1;
		}
		printf("ok\n");
		return 0;
	}
	type = strcmp(argv[1], "tcp") == 0   ? SOCK_STREAM
	       : strcmp(argv[1], "raw") == 0 ? SOCK_RAW
	                                     : SOCK_DGRAM;
	icmp = type == SOCK_RAW || strcmp(argv[1], "icmp") == 0;
	fd = socket(ss.ss_family, type,
	            !icmp                     ? 0
	            : ss.ss_family == AF_INET ? IPPROTO_ICMP
	                                      : IPPROTO_ICMPV6);
	if (fd < 0) {
		printf("errno %d\n", errno);
		return 1;
	}
	/* A TCP connect the programs let through to a host that never
	 * answers must not hold a test for the SYN retries' two minutes: after
	 * 5 s it ends with EINPROGRESS (115), which is not the refusal. */
	if (type == SOCK_STREAM) {
		struct timeval tv = {.tv_sec = 5};

		(void)setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	}
	if (icmp) {
		/* An echo request: type 8 (ICMPv6: 128), code 0; the kernel
		 * sets the rest for ping sockets, and the receiver's verdict
		 * on a raw one's checksum does not matter here. */
		unsigned char echo[8] = {ss.ss_family == AF_INET ? 8 : 128};

		s6->sin6_port = 0;
		s4->sin_port = 0;
		r = (int)sendto(fd, echo, sizeof(echo), 0, (struct sockaddr *)&ss, len);
	} else if (strcmp(argv[1], "udp") == 0)
		r = (int)sendto(fd, "x", 1, 0, (struct sockaddr *)&ss, len);
	else if ((r = connect(fd, (struct sockaddr *)&ss, len)) == 0 &&
	         strcmp(argv[1], "udpc") == 0)
		r = (int)send(fd, "x", 1, 0);
	if (r < 0) {
		printf("errno %d\n", errno);
		return 1;
	}
	printf("ok\n");
	return 0;
}
