/* dnsprobe: one DNS query, and what came back. Built static and copied
 * into test containers to attack the DNS gate from inside.
 *
 *   dnsprobe udp|tcp SERVER NAME [TYPE]
 *
 * TYPE is a number (1 A, the default; 28 AAAA; 16 TXT, ...). SERVER is an
 * IPv4 or IPv6 address (port 53); "-" is the first nameserver of
 * /etc/resolv.conf. Prints "rcode N", then one line per answer record:
 * "A 10.0.0.1", "AAAA fd00::1", "CNAME", or "TYPE n"; with TC set, "tc".
 * A failed call prints "errno N" (EPERM, 1, is the egress programs'
 * refusal), no reply in 3 s "timeout". */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static unsigned char q[512], r[65536];

static int fail(void)
{
	printf("errno %d\n", errno);
	return 1;
}

static int skip_name(const unsigned char *m, size_t len, size_t o, size_t *next)
{
	while (o < len) {
		if ((m[o] & 0xc0) == 0xc0) {
			*next = o + 2;
			return 0;
		}
		if (m[o] == 0) {
			*next = o + 1;
			return 0;
		}
		o += 1u + m[o];
	}
	return -1;
}

static void server_of(char *out, size_t len)
{
	char line[256], word[32];
	FILE *f = fopen("/etc/resolv.conf", "r");

	out[0] = '\0';
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%31s %63s", word, out) == 2 && strcmp(word, "nameserver") == 0)
			break;
	if (f)
		fclose(f);
	(void)len;
}

/* dnsprobe serve ADDR LIE: a resolver that lies (the attack the DNS gate's
 * upstream rules close): on ADDR:53/udp, every A question is answered with
 * LIE (TTL 3600), any other with no record. Serves until killed. */
static int serve(const char *addr, const char *lie)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(53)};
	struct in_addr a;
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0 || inet_pton(AF_INET, addr, &sa.sin_addr) != 1 ||
	    inet_pton(AF_INET, lie, &a) != 1 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perror("dnsprobe serve");
		return 1;
	}
	printf("serving %s\n", addr);
	fflush(stdout);
	for (;;) {
		unsigned char m[1024];
		struct sockaddr_storage from;
		socklen_t fl = sizeof(from);
		ssize_t got = recvfrom(fd, m, sizeof(m) - 16, 0, (struct sockaddr *)&from, &fl);
		size_t at = 12;
		int qtype;

		if (got < 17)
			continue;
		while (at < (size_t)got && m[at])
			at += (size_t)m[at] + 1;
		if (at + 5 > (size_t)got)
			continue;
		qtype = m[at + 1] << 8 | m[at + 2];
		at += 5;
		m[2] = (unsigned char)(0x84 | (m[2] & 1)); /* a reply, authoritative, RD kept */
		m[3] = 0x80;                               /* RA, no error */
		memset(m + 6, 0, 6);
		if (qtype == 1) {
			static const unsigned char rr[] = {0xc0, 12, 0,    1,    0, 1,
			                                   0,    0,  0x0e, 0x10, 0, 4};

			m[7] = 1;
			memcpy(m + at, rr, sizeof(rr));
			memcpy(m + at + sizeof(rr), &a, 4);
			at += sizeof(rr) + 4;
		}
		sendto(fd, m, at, 0, (struct sockaddr *)&from, fl);
	}
}

int main(int argc, char **argv)
{
	struct sockaddr_storage ss = {0};
	struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
	char server[64];
	const char *name;
	size_t n = 12, len, o;
	int tcp, fd, type;
	ssize_t got;
	struct pollfd p;

	if (argc == 4 && strcmp(argv[1], "serve") == 0)
		return serve(argv[2], argv[3]);
	if (argc < 4) {
		fprintf(stderr, "usage: dnsprobe udp|tcp SERVER NAME [TYPE] | serve ADDR LIE\n");
		return 2;
	}
	tcp = strcmp(argv[1], "tcp") == 0;
	type = argc > 4 ? atoi(argv[4]) : 1;
	snprintf(server, sizeof(server), "%s", argv[2]);
	if (strcmp(server, "-") == 0)
		server_of(server, sizeof(server));
	if (inet_pton(AF_INET, server, &s4->sin_addr) == 1) {
		s4->sin_family = AF_INET;
		s4->sin_port = htons(53);
	} else if (inet_pton(AF_INET6, server, &s6->sin6_addr) == 1) {
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons(53);
	} else {
		fprintf(stderr, "dnsprobe: %s is not an address\n", server);
		return 2;
	}
	q[0] = (unsigned char)getpid();
	q[1] = 0x5a;
	q[2] = 0x01; /* RD */
	q[5] = 1;
	for (name = argv[3]; *name;) {
		const char *dot = strchr(name, '.');
		size_t l = dot ? (size_t)(dot - name) : strlen(name);

		q[n++] = (unsigned char)l;
		memcpy(q + n, name, l);
		n += l;
		name += l + (dot != NULL);
	}
	q[n++] = 0;
	q[n++] = (unsigned char)(type >> 8);
	q[n++] = (unsigned char)type;
	q[n++] = 0;
	q[n++] = 1;
	fd = socket(ss.ss_family, tcp ? SOCK_STREAM : SOCK_DGRAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&ss,
	                      ss.ss_family == AF_INET ? sizeof(*s4) : sizeof(*s6)) < 0)
		return fail();
	if (tcp) {
		unsigned char l[2] = {(unsigned char)(n >> 8), (unsigned char)n};

		if (write(fd, l, 2) != 2 || write(fd, q, n) != (ssize_t)n)
			return fail();
	} else if (send(fd, q, n, 0) != (ssize_t)n) {
		return fail();
	}
	p = (struct pollfd){.fd = fd, .events = POLLIN};
	if (poll(&p, 1, 3000) != 1) {
		printf("timeout\n");
		return 1;
	}
	if (tcp) {
		size_t want, have = 0;

		for (want = 2; have < want;) {
			got = read(fd, r + have, want - have);
			if (got <= 0) {
				printf(got == 0 ? "closed\n" : "errno %d\n", errno);
				return 1;
			}
			have += (size_t)got;
			if (have == 2 && want == 2)
				want = 2 + ((size_t)r[0] << 8 | r[1]);
		}
		memmove(r, r + 2, have - 2);
		len = have - 2;
	} else {
		got = recv(fd, r, sizeof(r), 0);
		if (got < 12)
			return fail();
		len = (size_t)got;
	}
	printf("rcode %d\n", r[3] & 0x0f);
	if (r[2] & 0x02)
		printf("tc\n");
	if (skip_name(r, len, 12, &o) < 0)
		return 1;
	o += 4;
	for (unsigned i = 0, an = (unsigned)(r[6] << 8 | r[7]); i < an; i++) {
		unsigned t, dl;
		char a[INET6_ADDRSTRLEN];

		if (skip_name(r, len, o, &o) < 0 || o + 10 > len)
			return 1;
		t = (unsigned)(r[o] << 8 | r[o + 1]);
		dl = (unsigned)(r[o + 8] << 8 | r[o + 9]);
		o += 10;
		if (o + dl > len)
			return 1;
		if (t == 1 && dl == 4)
			printf("A %s\n", inet_ntop(AF_INET, r + o, a, sizeof(a)));
		else if (t == 28 && dl == 16)
			printf("AAAA %s\n", inet_ntop(AF_INET6, r + o, a, sizeof(a)));
		else if (t == 5)
			printf("CNAME\n");
		else
			printf("TYPE %u\n", t);
		o += dl;
	}
	return 0;
}
