/* The DNS gate's parts that need no network: which names a plan admits
 * (net/gate_map.c), what its grants write into the maps and take back when
 * they expire (through fake maps), exhaustion, the query it sends upstream
 * (net/dns_msg.c), resolv.conf (net/dns_upstream.c) and its plan file
 * (net/gate_conf.c), and the gate's answers that need no upstream
 * (net/dns_gate.c). */
#include "net/dns_gate.h"
#include "net/dns_msg.h"
#include "net/gate_conf.h"
#include "net/gate_map.h"
#include "tap.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <stdlib.h>
#include <unistd.h>

/* A fake allow map: what the gate wrote, by key. */
#define FAKE_MAX 2100
struct fake {
	struct egress_key k[FAKE_MAX];
	struct egress_verdict v[FAKE_MAX];
	size_t n;
	struct egress_ports *sets;
	size_t max_sets;
	int fail_sets; /* set_write fails */
};

static long find(struct fake *f, const struct egress_key *k)
{
	for (size_t i = 0; i < f->n; i++)
		if (memcmp(&f->k[i], k, sizeof(*k)) == 0)
			return (long)i;
	return -1;
}

static int f_update(void *ctx, const struct egress_key *k, const struct egress_verdict *v)
{
	struct fake *f = ctx;
	long i = find(f, k);

	if (i < 0) {
		if (f->n == FAKE_MAX)
			return -1;
		i = (long)f->n++;
		f->k[i] = *k;
	}
	f->v[i] = *v;
	return 0;
}

static int f_remove(void *ctx, const struct egress_key *k)
{
	struct fake *f = ctx;
	long i = find(f, k);

	if (i < 0)
		return -1;
	f->k[i] = f->k[--f->n];
	f->v[i] = f->v[f->n];
	return 0;
}

static int f_set(void *ctx, uint32_t idx, const struct egress_ports *p)
{
	struct fake *f = ctx;

	if (f->fail_sets || idx >= f->max_sets)
		return -1;
	f->sets[idx] = *p;
	return 0;
}

static void add(struct egress_plan *p, bool deny, const char *rule, uint8_t protos)
{
	struct egress_rule r;
	char why[160];

	if (egress_rule_parse(rule, &r, why, sizeof(why)) < 0) {
		ok(0, "rule %s: %s", rule, why);
		return;
	}
	if (protos)
		r.protos = protos;
	egress_plan_add(p, deny, &r, err);
}

static struct dns_addr addr4(const char *s, uint32_t ttl)
{
	struct dns_addr a = {.ttl = ttl};

	a.addr[10] = a.addr[11] = 0xff;
	inet_pton(AF_INET, s, a.addr + 12);
	return a;
}

/* Whether the fake map lets addr:port/proto through (as the programs
 * would: the /128 the gate wrote, else no entry of the gate's). */
static int lets(struct fake *f, const char *addr, unsigned port, uint8_t proto)
{
	struct dns_addr a = addr4(addr, 0);
	struct egress_key k = {.prefixlen = 128};
	long i;
	const struct egress_ports *b;

	memcpy(k.addr, a.addr, 16);
	i = find(f, &k);
	if (i < 0)
		return -1; /* no entry of the gate's */
	if (f->v[i].deny)
		return 0;
	b = &f->sets[f->v[i].set[EGRESS_PI(proto)]];
	return (int)(b->w[port / 64] >> (port % 64) & 1);
}

static void names(void)
{
	struct egress_plan p = {0};
	size_t r[8];

	add(&p, false, "10.0.0.0/8:443", 0);
	add(&p, false, "www.example.org:443", 0);
	add(&p, false, "*.example.org:80", 0);
	add(&p, false, "*.sub.example.org:8080", 0);
	ok(gate_plan_has_names(&p), "a plan with names needs the gate");
	ok(gate_name_rules(&p, "www.example.org", r, 8) == 2 && r[0] == 1 && r[1] == 2,
	   "www.example.org: its exact rule and *.example.org");
	ok(gate_name_rules(&p, "example.org", r, 8) == 0, "example.org: *. is subdomains only");
	ok(gate_name_rules(&p, "xexample.org", r, 8) == 0, "xexample.org is no subdomain");
	ok(gate_name_rules(&p, "a.b.sub.example.org", r, 8) == 2, "a.b.sub.example.org: both *.");
	ok(gate_name_rules(&p, "www.example.org.evil", r, 8) == 0, "a suffix after the name");
	ok(gate_name_rules(&p, "org", r, 8) == 0, "a shorter name");
	egress_plan_free(&p);
	add(&p, false, "10.0.0.0/8:443", 0);
	ok(!gate_plan_has_names(&p), "addresses only: no gate");
	egress_plan_free(&p);
}

static void grants(void)
{
	static struct fake f;
	struct egress_plan p = {0};
	struct gate_map g;
	struct gate_map_ops ops = {&f, f_update, f_remove, f_set};
	struct dns_addr a[3];
	size_t rules[1] = {1}, both[2] = {1, 2}, denied = 0;
	char why[160];
	struct egress_entries e;
	int r;

	memset(&f, 0, sizeof(f));
	add(&p, false, "10.1.0.0/16:22/tcp", 0); /* 0: a static prefix */
	add(&p, false, "a.example:443/tcp", 0);  /* 1 */
	add(&p, false, "*.example:53/udp", 0);   /* 2 */
	add(&p, false, "10.9.9.9:8000", 0);      /* 3: a static /128 */
	add(&p, true, "169.254.169.254:*", EGRESS_ANY);
	egress_plan_entries(&p, &e, err);
	f.max_sets = e.n_sets + GATE_SPARE_SETS;
	f.sets = calloc(f.max_sets, sizeof(*f.sets));
	memcpy(f.sets, e.sets, e.n_sets * sizeof(*f.sets));
	egress_entries_free(&e);
	ok(gate_map_init(&g, &p, &ops, err) == 0, "the gate's map from the plan");

	a[0] = addr4("192.0.2.1", 5);
	a[1] = addr4("10.1.2.3", 100000);
	a[2] = addr4("169.254.169.254", 300);
	r = gate_map_grant(&g, a, 3, rules, 1, 1000, &denied, why, sizeof(why));
	ok(r == 0 && denied == 1, "granted, the metadata address left out (%zu denied)", denied);
	ok(lets(&f, "192.0.2.1", 443, EGRESS_TCP) == 1, "the name's port over TCP");
	ok(lets(&f, "192.0.2.1", 443, EGRESS_UDP) == 0, "not over UDP");
	ok(lets(&f, "192.0.2.1", 80, EGRESS_TCP) == 0, "nor another port");
	ok(lets(&f, "10.1.2.3", 443, EGRESS_TCP) == 1 && lets(&f, "10.1.2.3", 22, EGRESS_TCP) == 1,
	   "inside a static prefix: the name's port and the prefix's (a /128 never narrows)");
	ok(lets(&f, "169.254.169.254", 443, EGRESS_TCP) == -1,
	   "no entry over the metadata endpoint's deny");
	ok(gate_map_next(&g) == 1000 + GATE_TTL_MIN, "a TTL of 5 s is held %d s", GATE_TTL_MIN);

	/* A second name on the same address joins its ports. */
	a[0] = addr4("192.0.2.1", 3000);
	ok(gate_map_grant(&g, a, 1, both + 1, 1, 1010, &denied, why, sizeof(why)) == 0 &&
	       lets(&f, "192.0.2.1", 53, EGRESS_UDP) == 1 &&
	       lets(&f, "192.0.2.1", 443, EGRESS_TCP) == 1,
	   "two names' ports on one address");
	gate_map_expire(&g, 1000 + GATE_TTL_MIN);
	ok(lets(&f, "192.0.2.1", 443, EGRESS_TCP) == 0 &&
	       lets(&f, "192.0.2.1", 53, EGRESS_UDP) == 1,
	   "the first expires: its port closes, the other's stays");
	gate_map_expire(&g, 1010 + 3000);
	ok(lets(&f, "192.0.2.1", 53, EGRESS_UDP) == -1, "all expired: the key is gone");
	ok(lets(&f, "10.1.2.3", 443, EGRESS_TCP) == 1, "a long TTL is held (bounded)");
	gate_map_expire(&g, 1000 + GATE_TTL_MAX);
	ok(lets(&f, "10.1.2.3", 443, EGRESS_TCP) == -1, "%d s at most", GATE_TTL_MAX);
	ok(g.n_addrs == 0 && g.n_grants == 0 && f.n == 0, "nothing left (%zu keys)", f.n);

	/* A static /128: restored, not removed. */
	a[0] = addr4("10.9.9.9", 60);
	gate_map_grant(&g, a, 1, rules, 1, 2000, &denied, why, sizeof(why));
	ok(lets(&f, "10.9.9.9", 443, EGRESS_TCP) == 1 &&
	       lets(&f, "10.9.9.9", 8000, EGRESS_UDP) == 1,
	   "a granted address the plan lists as /128: both");
	gate_map_expire(&g, 2100);
	ok(lets(&f, "10.9.9.9", 443, EGRESS_TCP) == 0 &&
	       lets(&f, "10.9.9.9", 8000, EGRESS_TCP) == 1,
	   "expired: the plan's own verdict again");

	/* No port set left: refused, nothing written. */
	f.fail_sets = 1;
	a[0] = addr4("198.51.100.7", 60);
	r = gate_map_grant(&g, a, 1, both, 2, 3000, &denied, why, sizeof(why));
	ok(r < 0 && lets(&f, "198.51.100.7", 53, EGRESS_UDP) == -1 && g.n_grants == 0,
	   "a port set that cannot be written: refused (%s)", why);
	f.fail_sets = 0;
	gate_map_free(&g);
	egress_plan_free(&p);
	free(f.sets);
}

static void exhaustion(void)
{
	static struct fake f;
	struct egress_plan p = {0};
	struct gate_map g;
	struct gate_map_ops ops = {&f, f_update, f_remove, f_set};
	size_t rules[1] = {0}, denied, granted = 0;
	char why[160] = "";
	int r = 0;

	memset(&f, 0, sizeof(f));
	add(&p, false, "*.many.example:80", 0);
	f.max_sets = 1 + GATE_SPARE_SETS;
	f.sets = calloc(f.max_sets, sizeof(*f.sets));
	gate_map_init(&g, &p, &ops, err);
	for (unsigned i = 0; r == 0 && i < GATE_MAX_ADDRS + 10; i++) {
		struct dns_addr a = addr4("10.0.0.0", 60);

		a.addr[14] = (uint8_t)(i >> 8);
		a.addr[15] = (uint8_t)i;
		r = gate_map_grant(&g, &a, 1, rules, 1, 0, &denied, why, sizeof(why));
		granted += r == 0;
	}
	ok(r < 0 && granted == GATE_MAX_ADDRS && f.n == GATE_MAX_ADDRS,
	   "%zu addresses granted, then a refusal (%s), nothing more written", granted, why);
	gate_map_expire(&g, GATE_TTL_MIN);
	ok(f.n == 0, "all expired, all gone");
	gate_map_free(&g);
	egress_plan_free(&p);
	free(f.sets);
}

static void query(void)
{
	struct dns_question q = {.qtype = DNS_TYPE_AAAA, .qclass = DNS_CLASS_IN}, back;
	uint8_t m[300];
	char why[160];
	size_t n;

	snprintf(q.name, sizeof(q.name), "www.example.org");
	n = dns_query_build(&q, 0xbeef, m, sizeof(m));
	ok(n == DNS_HDR + dns_name_wire_len(q.name) + 4 &&
	       dns_query_parse(m, n, &back, why, 160) == 0 && back.id == 0xbeef &&
	       strcmp(back.name, q.name) == 0 && back.qtype == DNS_TYPE_AAAA && m[2] == 0x01 &&
	       m[11] == 0,
	   "the upstream query: the gate's id, RD, the one question, no EDNS");
	ok(dns_query_build(&q, 1, m, 20) == 0, "no room: nothing");
}

static void resolv(void)
{
	struct dns_upstreams u = {0};
	char s[64];

	dns_resolv_parse("# comment\nsearch example\nnameserver 10.0.0.1\n  nameserver\tfd00::53\n"
	                 "nameserver 127.53.1.1\nnameserver fe80::1%eth0\nnameserver 10.0.0.2\n"
	                 "nameserver 10.0.0.3\n",
	                 &u);
	ok(u.n == 3, "three upstreams, the gate's own and a scoped one left out (%zu)", u.n);
	dns_upstream_str(&u.a[0], s, sizeof(s));
	ok(strcmp(s, "10.0.0.1") == 0, "the first: %s", s);
	dns_upstream_str(&u.a[1], s, sizeof(s));
	ok(strcmp(s, "fd00::53") == 0, "the second: %s", s);
}

static void conf(void)
{
	char dir[] = "/tmp/test_gate.XXXXXX";
	struct gate_conf c = {0}, back;
	struct egress_entries e1, e2;
	int dfd;

	if (mkdtemp(dir) == NULL)
		return;
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	gate_listen_addr("some-container", &c.listen);
	ok((ntohl(c.listen.s_addr) >> 16) == (127u << 8 | 53), "the gate's address is 127.53.x.y");
	dns_upstream_add(&c.up, "10.0.0.1");
	add(&c.plan, false, "127.0.0.0/8:*", EGRESS_ANY);
	add(&c.plan, false, "*.example:443/tcp", 0);
	add(&c.plan, true, "169.254.169.254:*", EGRESS_ANY);
	ok(gate_conf_write(dfd, &c, err) == 0 && gate_conf_read(dfd, &back, err) == 1,
	   "written, read back");
	egress_plan_entries(&c.plan, &e1, err);
	egress_plan_entries(&back.plan, &e2, err);
	ok(back.listen.s_addr == c.listen.s_addr && back.up.n == 1 && back.plan.n_allow == 2 &&
	       back.plan.n_deny == 1 && back.plan.allow[0].protos == EGRESS_ANY &&
	       e1.n_sets == e2.n_sets &&
	       memcmp(e1.sets, e2.sets, e1.n_sets * sizeof(*e1.sets)) == 0,
	   "the same plan: the same port sets, by index");
	egress_entries_free(&e1);
	egress_entries_free(&e2);
	egress_plan_free(&back.plan);
	unlinkat(dfd, GATE_CONF_FILE, 0);
	unlinkat(dfd, GATE_RESOLV_FILE, 0);
	ok(gate_conf_read(dfd, &back, err) == 0, "no file: no gate");
	close(dfd);
	rmdir(dir);
	egress_plan_free(&c.plan);
	egress_plan_free(&back.plan);
}

/* A query for name (type t) as a client sends it. */
static size_t client_query(uint8_t *m, const char *name, unsigned t)
{
	struct dns_question q = {.qtype = (uint16_t)t, .qclass = DNS_CLASS_IN};

	snprintf(q.name, sizeof(q.name), "%s", name);
	return dns_query_build(&q, 0x4242, m, 300);
}

/* The gate's answers that need no upstream: refusals, empty answers, and
 * what it tells the supervisor of each. */
static void answers(void)
{
	static struct fake f;
	struct egress_plan p = {0};
	struct gate_map_ops ops = {&f, f_update, f_remove, f_set};
	struct dns_gate g = {.udp = -1, .tcp = -1};
	struct gate_record r;
	uint8_t m[300], out[600];
	int sp[2];
	size_t n, len;

	memset(&f, 0, sizeof(f));
	add(&p, false, "www.example.org:443", 0);
	socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sp);
	g.report = sp[0];
	gate_map_init(&g.map, &p, &ops, err);

	n = client_query(m, "evil.example", DNS_TYPE_A);
	len = dns_gate_answer(&g, m, n, 0, out, sizeof(out));
	ok(len == n && (out[3] & 0x0f) == DNS_RCODE_REFUSED && out[0] == 0x42 && out[7] == 0,
	   "another name: REFUSED, no record");
	ok(recv(sp[1], &r, sizeof(r), 0) == sizeof(r) && r.kind == GATE_REFUSED &&
	       strcmp(r.name, "evil.example") == 0,
	   "recorded as refused: %s (%s)", r.name, r.why);
	n = client_query(m, "www.example.org", 16);
	len = dns_gate_answer(&g, m, n, 0, out, sizeof(out));
	ok(len == n && (out[3] & 0x0f) == 0 && out[7] == 0 && (out[2] & 0x80),
	   "TXT for an allowed name: an empty answer");
	ok(recv(sp[1], &r, sizeof(r), 0) == sizeof(r) && r.kind == GATE_EMPTY && r.qtype == 16,
	   "recorded as answered empty (%s)", r.why);
	n = client_query(m, "www.example.org", DNS_TYPE_A);
	/* The question's name as a pointer to a copy of itself past it. */
	memcpy(m + n, m + DNS_HDR, n - DNS_HDR - 4);
	m[DNS_HDR] = 0xc0;
	m[DNS_HDR + 1] = (uint8_t)n;
	ok(dns_gate_answer(&g, m, n + (n - DNS_HDR - 4), 0, out, sizeof(out)) == 0,
	   "a forward pointer: no answer");
	ok(recv(sp[1], &r, sizeof(r), 0) == sizeof(r) && r.kind == GATE_REFUSED && r.name[0] == 0,
	   "recorded as malformed (%s)", r.why);
	ok(dns_gate_answer(&g, m, 5, 1, out, sizeof(out)) == 0, "5 bytes: no answer");
	recv(sp[1], &r, sizeof(r), 0);
	n = client_query(m, "www.example.org", DNS_TYPE_A);
	m[2] |= 0x80;
	ok(dns_gate_answer(&g, m, n, 0, out, sizeof(out)) == 0,
	   "a response sent to the gate: none");
	ok(f.n == 0, "nothing was written into the map");
	close(sp[0]);
	close(sp[1]);
	gate_map_free(&g.map);
	egress_plan_free(&p);
	free(f.sets);
}

int main(void)
{
	names();
	grants();
	exhaustion();
	query();
	resolv();
	conf();
	answers();
	return tap_done();
}
