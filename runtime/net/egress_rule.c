/* Parsing and comparing egress destinations (egress_rule.h). */
#include "net/egress_rule.h"
#include "net/egress_map.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WHY(...) (snprintf(why, len, __VA_ARGS__), -1)

static int parse_port(const char *s, size_t n, uint16_t *out)
{
	unsigned long v = 0;

	if (n == 0 || n > 5)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	if (v > 65535)
		return -1;
	*out = (uint16_t)v;
	return 0;
}

/* "N", "N-M" or "*", then an optional "/tcp" or "/udp". */
static int parse_ports(const char *s, struct egress_rule *r, char *why, size_t len)
{
	const char *slash = strchr(s, '/');
	size_t n = slash ? (size_t)(slash - s) : strlen(s);
	const char *dash = memchr(s, '-', n);

	r->protos = EGRESS_TCP | EGRESS_UDP;
	if (slash) {
		if (strcmp(slash + 1, "tcp") == 0)
			r->protos = EGRESS_TCP;
		else if (strcmp(slash + 1, "udp") == 0)
			r->protos = EGRESS_UDP;
		else
			return WHY("the protocol must be tcp or udp (got \"%s\")", slash + 1);
	}
	if (n == 1 && s[0] == '*') {
		r->lo = 0;
		r->hi = 65535;
		return 0;
	}
	if (dash ? parse_port(s, (size_t)(dash - s), &r->lo) < 0 ||
	               parse_port(dash + 1, n - (size_t)(dash - s) - 1, &r->hi) < 0
	         : parse_port(s, n, &r->lo) < 0)
		return WHY("the port must be N, N-M or * with N, M at most 65535 (got \"%.*s\")",
		           (int)n, s);
	if (!dash)
		r->hi = r->lo;
	if (r->lo > r->hi)
		return WHY("the port range %u-%u is empty", r->lo, r->hi);
	return 0;
}

/* "a.b.c.d[/n]" or "v6[/n]" (the brackets already gone). */
static int parse_addr(const char *s, bool v6, struct egress_rule *r, char *why, size_t len)
{
	char a[64];
	const char *slash = strchr(s, '/');
	size_t n = slash ? (size_t)(slash - s) : strlen(s);
	unsigned max = v6 ? 128 : 32;
	uint16_t bits = (uint16_t)max;

	if (n >= sizeof(a))
		return WHY("\"%s\" is not an address", s);
	memcpy(a, s, n);
	a[n] = '\0';
	memset(r->addr, 0, sizeof(r->addr));
	if (v6 ? inet_pton(AF_INET6, a, r->addr) != 1 : inet_pton(AF_INET, a, r->addr + 12) != 1)
		return WHY("\"%s\" is not an IPv%d address", a, v6 ? 6 : 4);
	if (!v6)
		r->addr[10] = r->addr[11] = 0xff;
	if (slash && (parse_port(slash + 1, strlen(slash + 1), &bits) < 0 || bits > max))
		return WHY("the prefix length must be 0 to %u (got \"%s\")", max, slash + 1);
	r->prefix = (v6 ? 0 : 96) + bits;
	/* Host bits set would be a typo for another network: refused. */
	for (unsigned i = r->prefix; i < 128; i++)
		if (r->addr[i / 8] & (0x80 >> (i % 8)))
			return WHY("%s has bits set past its /%u prefix", a, bits);
	r->kind = EGRESS_ADDR;
	return 0;
}

/* A DNS name: labels of letters, digits and '-', 1-63 each, 253 in all. */
static int parse_name(const char *s, size_t n, struct egress_rule *r, char *why, size_t len)
{
	size_t label = 0;

	if (n > 0 && s[n - 1] == '.')
		n--;
	if (n == 0 || n > 253)
		return WHY("\"%.*s\" is not a host name", (int)n, s);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		/* RFC 952/1123: no label starts or ends with '-'. */
		if ((c == '-' && label == 0) || (c == '.' && label && s[i - 1] == '-'))
			return WHY("\"%.*s\": a label starts or ends with '-'", (int)n, s);
		if (c == '.') {
			if (label == 0)
				return WHY("\"%.*s\" has an empty label", (int)n, s);
			label = 0;
			r->name[i] = '.';
			continue;
		}
		if (!isalnum(c) && c != '-')
			return WHY("\"%.*s\" is not a host name (letters, digits, '-' and '.')",
			           (int)n, s);
		if (++label > 63)
			return WHY("\"%.*s\" has a label longer than 63", (int)n, s);
		r->name[i] = (char)tolower(c);
	}
	if (label == 0 || s[n - 1] == '-')
		return WHY("\"%.*s\" has an empty label or ends with '-'", (int)n, s);
	r->name[n] = '\0';
	return 0;
}

int egress_rule_parse(const char *s, struct egress_rule *r, char *why, size_t len)
{
	struct egress_rule t;
	const char *colon;

	memset(&t, 0, sizeof(t));
	if (s[0] == '[') {
		const char *end = strchr(s, ']');
		char a[64];

		if (end == NULL || end[1] != ':' || (size_t)(end - s - 1) >= sizeof(a))
			return WHY("\"%s\": an IPv6 destination is [ADDRESS[/N]]:PORTS", s);
		memcpy(a, s + 1, (size_t)(end - s - 1));
		a[end - s - 1] = '\0';
		if (parse_addr(a, true, &t, why, len) < 0)
			return -1;
		colon = end + 1;
	} else {
		colon = strrchr(s, ':');
		if (colon == NULL)
			return WHY(
			    "\"%s\": a destination is HOST:PORTS (a port or range is required)", s);
		if (isdigit((unsigned char)s[0]) &&
		    strspn(s, "0123456789./") == (size_t)(colon - s)) {
			char a[64];

			if ((size_t)(colon - s) >= sizeof(a))
				return WHY("\"%s\" is not an address", s);
			memcpy(a, s, (size_t)(colon - s));
			a[colon - s] = '\0';
			if (parse_addr(a, false, &t, why, len) < 0)
				return -1;
		} else if (strncmp(s, "*.", 2) == 0) {
			t.kind = EGRESS_SUFFIX;
			if (parse_name(s + 2, (size_t)(colon - s - 2), &t, why, len) < 0)
				return -1;
		} else {
			t.kind = EGRESS_NAME;
			if (parse_name(s, (size_t)(colon - s), &t, why, len) < 0)
				return -1;
		}
	}
	if (parse_ports(colon + 1, &t, why, len) < 0)
		return -1;
	*r = t;
	return 0;
}

bool egress_prefix_within(const uint8_t *addr, unsigned bits, const struct egress_rule *r)
{
	if (r->kind != EGRESS_ADDR || bits < r->prefix)
		return false;
	for (unsigned i = 0; i < r->prefix; i++)
		if ((addr[i / 8] ^ r->addr[i / 8]) & (0x80 >> (i % 8)))
			return false;
	return true;
}

/* name is a strict subdomain of suffix. */
static bool subdomain(const char *name, const char *suffix)
{
	size_t n = strlen(name), s = strlen(suffix);

	return n > s + 1 && name[n - s - 1] == '.' && strcmp(name + n - s, suffix) == 0;
}

bool egress_rule_within(const struct egress_rule *in, const struct egress_rule *out)
{
	if ((in->protos & ~out->protos) || in->lo < out->lo || in->hi > out->hi)
		return false;
	switch (out->kind) {
	case EGRESS_ADDR:
		return in->kind == EGRESS_ADDR && egress_prefix_within(in->addr, in->prefix, out);
	case EGRESS_NAME:
		return in->kind == EGRESS_NAME && strcmp(in->name, out->name) == 0;
	case EGRESS_SUFFIX:
		return in->kind != EGRESS_ADDR &&
		       (subdomain(in->name, out->name) ||
		        (in->kind == EGRESS_SUFFIX && strcmp(in->name, out->name) == 0));
	}
	return false;
}

void egress_rule_format(const struct egress_rule *r, char *buf, size_t len)
{
	char host[300], ports[16];
	const char *proto = r->protos == EGRESS_TCP   ? "/tcp"
	                    : r->protos == EGRESS_UDP ? "/udp"
	                                              : "";
	static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

	if (r->kind == EGRESS_ADDR && r->prefix >= 96 && memcmp(r->addr, mapped, 12) == 0) {
		char a[INET_ADDRSTRLEN];

		inet_ntop(AF_INET, r->addr + 12, a, sizeof(a));
		if (r->prefix == 128)
			snprintf(host, sizeof(host), "%s", a);
		else
			snprintf(host, sizeof(host), "%s/%u", a, r->prefix - 96);
	} else if (r->kind == EGRESS_ADDR) {
		char a[INET6_ADDRSTRLEN];

		inet_ntop(AF_INET6, r->addr, a, sizeof(a));
		if (r->prefix == 128)
			snprintf(host, sizeof(host), "[%s]", a);
		else
			snprintf(host, sizeof(host), "[%s/%u]", a, r->prefix);
	} else {
		snprintf(host, sizeof(host), "%s%s", r->kind == EGRESS_SUFFIX ? "*." : "", r->name);
	}
	if (r->lo == 0 && r->hi == 65535)
		snprintf(ports, sizeof(ports), "*");
	else if (r->lo == r->hi)
		snprintf(ports, sizeof(ports), "%u", r->lo);
	else
		snprintf(ports, sizeof(ports), "%u-%u", r->lo, r->hi);
	snprintf(buf, len, "%s:%s%s", host, ports, proto);
}
