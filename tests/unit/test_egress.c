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
static const struct egress_verdict *
lookup(const struct egress_key *k, const struct egress_verdict *v, size_t n, const char *dest)
{
	struct egress_rule d;
	char why[160];
	const struct egress_verdict *best = NULL;
	unsigned best_len = 0;

	if (egress_rule_parse(dest, &d, why, sizeof(why)) < 0)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		struct egress_rule r = {.kind = EGRESS_ADDR, .prefix = k[i].prefixlen};

		memcpy(r.addr, k[i].addr, 16);
		if (egress_prefix_within(d.addr, 128, &r) &&
		    (!best || k[i].prefixlen >= best_len)) {
			best = &v[i];
			best_len = k[i].prefixlen;
		}
	}
	return best;
}

static bool port_ok(const struct egress_verdict *v, unsigned port, unsigned proto)
{
	for (unsigned i = 0; v && !v->deny && i < v->n; i++)
		if ((v->r[i].protos & proto) && port >= v->r[i].lo && port <= v->r[i].hi)
			return true;
	return false;
}

static void entries(void)
{
	static const char *const allow[] = {"10.0.0.0/8:443/tcp", "10.1.0.0/16:80", "[::/0]:53/udp",
	                                    "169.254.0.0/16:*"};
	struct egress_plan p = {0};
	struct egress_rule r;
	struct egress_key *k;
	struct egress_verdict *v;
	char why[160];
	size_t n;

	for (size_t i = 0; i < sizeof(allow) / sizeof(allow[0]); i++)
		if (egress_rule_parse(allow[i], &r, why, sizeof(why)) == 0)
			egress_plan_add(&p, false, &r);
	egress_rule_parse("169.254.169.254:*", &r, why, sizeof(why));
	egress_plan_add(&p, true, &r);
	ok(egress_plan_entries(&p, &k, &v, &n) == 0 && n == 5, "one entry per distinct prefix");
	/* A destination in the /16 still gets the /8's port 443: the narrower
	 * entry carries every rule that contains it. */
	ok(port_ok(lookup(k, v, n, "10.1.2.3:1"), 443, EGRESS_TCP),
	   "10.1.2.3:443/tcp (from the /8)");
	ok(port_ok(lookup(k, v, n, "10.1.2.3:1"), 80, EGRESS_UDP), "10.1.2.3:80/udp (the /16)");
	ok(port_ok(lookup(k, v, n, "10.1.2.3:1"), 53, EGRESS_UDP), "10.1.2.3:53/udp (from ::/0)");
	ok(!port_ok(lookup(k, v, n, "10.1.2.3:1"), 443, EGRESS_UDP), "not 10.1.2.3:443/udp");
	ok(!port_ok(lookup(k, v, n, "10.2.0.1:1"), 80, EGRESS_TCP),
	   "not 10.2.0.1:80 (outside /16)");
	ok(port_ok(lookup(k, v, n, "169.254.1.1:1"), 8080, EGRESS_TCP), "169.254.1.1 allowed");
	ok(lookup(k, v, n, "169.254.169.254:1") && lookup(k, v, n, "169.254.169.254:1")->deny,
	   "the deny prefix wins over the allow rule that contains it");
	free(k);
	free(v);
	/* More ranges on one prefix than an entry holds: refused, not cut. */
	for (unsigned i = 0; i < EGRESS_MAX_RANGES; i++) {
		egress_rule_parse("10.0.0.0/8:1", &r, why, sizeof(why));
		r.lo = r.hi = (uint16_t)(1000 + i);
		egress_plan_add(&p, false, &r);
	}
	ok(egress_plan_entries(&p, &k, &v, &n) < 0,
	   "too many port ranges for one prefix: an error");
	egress_plan_free(&p);
}

int main(void)
{
	round_trip();
	narrowing();
	entries();
	return tap_done();
}
