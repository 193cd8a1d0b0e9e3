/* Egress destinations (net/egress_rule.c) and the map entries a plan
 * becomes (net/egress_plan.c): what the policy and the programs rely on. */
#include "net/egress_plan.h"
#include "net/egress_rule.h"
#include "tap.h"

#include <stdlib.h>

static void round_trip(void)
{
	/* input, how it is printed back */
	static const char *const good[][2] = {
	    {"10.0.0.0/8:443", "10.0.0.0/8:443"},
	    {"192.0.2.1:80-90/tcp", "192.0.2.1:80-90/tcp"},
	    {"Name.Example.:443/udp", "name.example:443/udp"},
	    {"*.example.org:443", "*.example.org:443"},
	    {"[fd13::/64]:*", "[fd13::/64]:*"},
	    {"[::1]:53", "[::1]:53"},
	    {"0.0.0.0/0:1-65535", "0.0.0.0/0:1-65535"},
	};
	static const char *const bad[] = {
	    "10.0.0.1/8:443", "10.0.0.0/33:1", "10.0.0.0", "host",    "host:",    "host:65536",
	    "host:90-80",     "host:1/sctp",   "a..b:1",   "-:1",     "[fd13::]", "[fd13::/129]:1",
	    "a_b.example:1",  "*.:1",          ":80",      "1.2.3:80"};
	struct egress_rule r;
	char why[160], out[320];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		int p = egress_rule_parse(good[i][0], &r, why, sizeof(why));

		if (p == 0)
			egress_rule_format(&r, out, sizeof(out));
		ok(p == 0 && strcmp(out, good[i][1]) == 0, "%s parses and prints as %s (%s)",
		   good[i][0], good[i][1], p == 0 ? out : why);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ok(egress_rule_parse(bad[i], &r, why, sizeof(why)) < 0, "refused: %s (%s)", bad[i],
		   why);
}

static bool within(const char *in, const char *out)
{
	struct egress_rule a, b;
	char why[160];

	return egress_rule_parse(in, &a, why, sizeof(why)) == 0 &&
	       egress_rule_parse(out, &b, why, sizeof(why)) == 0 && egress_rule_within(&a, &b);
}

static void narrowing(void)
{
	ok(within("10.1.2.3:443/tcp", "10.0.0.0/8:443"), "a host and a protocol narrow a network");
	ok(within("10.1.0.0/16:80-81", "10.0.0.0/8:1-1000"), "a subnet and a sub-range narrow");
	ok(!within("10.0.0.0/7:443", "10.0.0.0/8:443"), "a wider prefix does not narrow");
	ok(!within("10.1.2.3:444", "10.0.0.0/8:443"), "another port does not narrow");
	ok(!within("10.1.2.3:443", "10.0.0.0/8:443/tcp"), "both protocols do not narrow tcp");
	ok(!within("11.0.0.1:443", "10.0.0.0/8:443"), "another network does not narrow");
	ok(within("a.example.org:443", "*.example.org:443"), "a subdomain narrows *.");
	ok(within("*.a.example.org:443", "*.example.org:443"), "a deeper *. narrows *.");
	ok(!within("example.org:443", "*.example.org:443"), "*.NAME does not cover NAME itself");
	ok(!within("badexample.org:443", "*.example.org:443"), "*. matches whole labels only");
	ok(!within("x.example.org:443", "example.org:443"), "an exact name covers no subdomain");
	ok(!within("10.0.0.1:443", "*.example.org:443"), "an address is not within a name");
	ok(within("[::ffff:10.0.0.1]:443", "10.0.0.0/8:443"),
	   "a v4-mapped IPv6 address is its IPv4 address");
}

/* The entry longest-prefix lookup would find for addr (as a rule string). */
static const struct egress_verdict *lookup(const struct egress_entries *e, const char *dest)
{
	struct egress_rule d;
	char why[160];
	const struct egress_verdict *best = NULL;
	unsigned best_len = 0;

	if (egress_rule_parse(dest, &d, why, sizeof(why)) < 0)
		return NULL;
	for (size_t i = 0; i < e->n; i++) {
		struct egress_rule r = {.kind = EGRESS_ADDR, .prefix = e->keys[i].prefixlen};

		memcpy(r.addr, e->keys[i].addr, 16);
		if (egress_prefix_within(d.addr, 128, &r) &&
		    (!best || e->keys[i].prefixlen >= best_len)) {
			best = &e->vals[i];
			best_len = e->keys[i].prefixlen;
		}
	}
	return best;
}

/* As the programs judge: the port's bit in the protocol's set. */
static bool port_ok(const struct egress_entries *e, const char *dest, unsigned port, unsigned proto)
{
	const struct egress_verdict *v = lookup(e, dest);
	unsigned s;

	if (v == NULL || v->deny)
		return false;
	s = v->set[EGRESS_PI(proto)];
	return s < e->n_sets && (e->sets[s].w[port / 64] >> (port % 64)) & 1;
}

static void entries(void)
{
	static const char *const allow[] = {"10.0.0.0/8:443/tcp", "10.1.0.0/16:80", "[::/0]:53/udp",
	                                    "169.254.0.0/16:*", "10.9.0.0/16:63-129/tcp"};
	struct egress_plan p = {0};
	struct egress_rule r;
	struct egress_entries e;
	char why[160];

	for (size_t i = 0; i < sizeof(allow) / sizeof(allow[0]); i++)
		if (egress_rule_parse(allow[i], &r, why, sizeof(why)) == 0)
			egress_plan_add(&p, false, &r, err);
	egress_rule_parse("169.254.169.254:*", &r, why, sizeof(why));
	egress_plan_add(&p, true, &r, err);
	ok(egress_plan_entries(&p, &e, err) == 0 && e.n == 6, "one entry per distinct prefix");
	ok(e.sets[0].w[0] == 0 && e.sets[0].w[EGRESS_PORT_WORDS - 1] == 0,
	   "set 0 is the empty one");
	/* A destination in the /16 still gets the /8's port 443: the narrower
	 * entry carries every rule that contains it. */
	ok(port_ok(&e, "10.1.2.3:1", 443, EGRESS_TCP), "10.1.2.3:443/tcp (from the /8)");
	ok(port_ok(&e, "10.1.2.3:1", 80, EGRESS_UDP), "10.1.2.3:80/udp (the /16)");
	ok(port_ok(&e, "10.1.2.3:1", 53, EGRESS_UDP), "10.1.2.3:53/udp (from ::/0)");
	ok(!port_ok(&e, "10.1.2.3:1", 443, EGRESS_UDP), "not 10.1.2.3:443/udp");
	ok(!port_ok(&e, "10.1.2.3:1", 80, EGRESS_OTHER), "not 10.1.2.3:80 by another protocol");
	ok(!port_ok(&e, "10.1.2.3:1", 81, EGRESS_TCP), "not 10.1.2.3:81");
	ok(!port_ok(&e, "10.2.0.1:1", 80, EGRESS_TCP), "not 10.2.0.1:80 (outside /16)");
	ok(port_ok(&e, "169.254.1.1:1", 8080, EGRESS_TCP) &&
	       port_ok(&e, "169.254.1.1:1", 0, EGRESS_UDP) &&
	       port_ok(&e, "169.254.1.1:1", 65535, EGRESS_TCP) &&
	       !port_ok(&e, "169.254.1.1:1", 80, EGRESS_OTHER),
	   "169.254.1.1 allowed, every port of tcp and udp (only they: *)");
	ok(lookup(&e, "169.254.169.254:1") && lookup(&e, "169.254.169.254:1")->deny,
	   "the deny prefix wins over the allow rule that contains it");
	/* A range across word boundaries: its ends in, their neighbours out. */
	ok(port_ok(&e, "10.9.1.1:1", 63, EGRESS_TCP) && port_ok(&e, "10.9.1.1:1", 64, EGRESS_TCP) &&
	       port_ok(&e, "10.9.1.1:1", 128, EGRESS_TCP) &&
	       port_ok(&e, "10.9.1.1:1", 129, EGRESS_TCP) &&
	       !port_ok(&e, "10.9.1.1:1", 62, EGRESS_TCP) &&
	       !port_ok(&e, "10.9.1.1:1", 130, EGRESS_TCP),
	   "63-129: 63, 64, 128, 129 in; 62, 130 out");
	egress_entries_free(&e);
	/* Many ranges on one prefix: one set holds them all. */
	for (unsigned i = 0; i < 100; i++) {
		egress_rule_parse("10.0.0.0/8:1", &r, why, sizeof(why));
		r.lo = r.hi = (uint16_t)(1000 + 2 * i);
		egress_plan_add(&p, false, &r, err);
	}
	ok(egress_plan_entries(&p, &e, err) == 0 && port_ok(&e, "10.3.0.1:1", 1198, EGRESS_TCP) &&
	       !port_ok(&e, "10.3.0.1:1", 1199, EGRESS_TCP),
	   "100 single-port rules on one prefix: each port, nothing between");
	egress_entries_free(&e);
	egress_plan_free(&p);
}

int main(void)
{
	round_trip();
	narrowing();
	entries();
	return tap_done();
}
