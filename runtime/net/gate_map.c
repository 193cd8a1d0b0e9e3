/* The DNS gate's part of the allow map (gate_map.h). */
#include "net/gate_map.h"
#include "lib/error.h"
#include "net/dns_msg.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t protos[3] = {EGRESS_TCP, EGRESS_UDP, EGRESS_OTHER};

bool gate_plan_has_names(const struct egress_plan *p)
{
	for (size_t i = 0; i < p->n_allow; i++)
		if (p->allow[i].kind != EGRESS_ADDR)
			return true;
	return false;
}

size_t gate_name_rules(const struct egress_plan *p, const char *name, size_t *rules, size_t max)
{
	size_t n = 0, ln = strlen(name);

	for (size_t i = 0; i < p->n_allow && n < max; i++) {
		const struct egress_rule *r = &p->allow[i];
		size_t lr = strlen(r->name);
		bool hit = false;

		if (r->kind == EGRESS_NAME)
			hit = strcmp(name, r->name) == 0;
		else if (r->kind == EGRESS_SUFFIX) /* strict subdomains: "x.NAME", never NAME */
			hit = ln > lr + 1 && name[ln - lr - 1] == '.' &&
			      strcmp(name + ln - lr, r->name) == 0;
		if (hit)
			rules[n++] = i;
	}
	return n;
}

int gate_map_init(struct gate_map *g, const struct egress_plan *p, const struct gate_map_ops *ops,
                  struct werror *err)
{
	struct egress_entries e;

	memset(g, 0, sizeof(*g));
	g->plan = p;
	g->ops = *ops;
	/* The same computation egress_load made: the same sets, in order. */
	if (egress_plan_entries(p, &e, err) < 0)
		return -1;
	g->sets = calloc(e.n_sets + GATE_SPARE_SETS, sizeof(*g->sets));
	g->addrs = calloc(GATE_MAX_ADDRS, sizeof(*g->addrs));
	g->grants = calloc(GATE_MAX_GRANTS, sizeof(*g->grants));
	if (g->sets == NULL || g->addrs == NULL || g->grants == NULL) {
		egress_entries_free(&e);
		gate_map_free(g);
		return werr(err, ENOMEM, "out of memory");
	}
	memcpy(g->sets, e.sets, e.n_sets * sizeof(*g->sets));
	g->n_static_sets = g->n_sets = e.n_sets;
	g->room = EGRESS_MAX_ENTRIES - e.n;
	egress_entries_free(&e);
	return 0;
}

void gate_map_free(struct gate_map *g)
{
	free(g->sets);
	free(g->addrs);
	free(g->grants);
	memset(g, 0, sizeof(*g));
}

static bool denied(const struct egress_plan *p, const uint8_t *addr)
{
	for (size_t i = 0; i < p->n_deny; i++)
		if (egress_prefix_within(addr, 128, &p->deny[i]))
			return true;
	return false;
}

static bool exact_static(const struct egress_plan *p, const uint8_t *addr)
{
	for (size_t i = 0; i < p->n_allow; i++)
		if (p->allow[i].kind == EGRESS_ADDR && p->allow[i].prefix == 128 &&
		    memcmp(p->allow[i].addr, addr, 16) == 0)
			return true;
	return false;
}

static struct gate_addr *find_addr(struct gate_map *g, const uint8_t *addr)
{
	for (size_t i = 0; i < g->n_addrs; i++)
		if (memcmp(g->addrs[i].addr, addr, 16) == 0)
			return &g->addrs[i];
	return NULL;
}

static struct gate_grant *find_grant(struct gate_map *g, const uint8_t *addr, size_t rule)
{
	for (size_t i = 0; i < g->n_grants; i++)
		if (g->grants[i].rule == rule && memcmp(g->grants[i].addr, addr, 16) == 0)
			return &g->grants[i];
	return NULL;
}

/* A slot no key of the gate's names (never one of the plan's). */
static int free_slot(const struct gate_map *g, const struct egress_ports *b, size_t *slot)
{
	for (size_t s = 0; s < g->n_sets; s++)
		if (memcmp(&g->sets[s], b, sizeof(*b)) == 0) {
			*slot = s;
			return 0;
		}
	for (size_t s = g->n_static_sets; s < g->n_static_sets + GATE_SPARE_SETS; s++) {
		bool used = false;

		if (s >= g->n_sets) {
			*slot = s;
			return 1;
		}
		for (size_t a = 0; a < g->n_addrs && !used; a++)
			for (size_t pi = 0; pi < 3; pi++)
				used = used || g->addrs[a].v.set[pi] == s;
		if (!used) {
			*slot = s;
			return 1;
		}
	}
	return -1;
}

/* The verdict addr gets now: the plan's address rules that contain it,
 * joined with its live grants' rules; each port set found or written. */
static int verdict(struct gate_map *g, const uint8_t *addr, struct egress_verdict *v)
{
	struct egress_ports *b = malloc(sizeof(*b));

	if (b == NULL)
		return -1;
	memset(v, 0, sizeof(*v));
	for (size_t pi = 0; pi < 3; pi++) {
		const struct egress_plan *p = g->plan;
		size_t slot;
		int r;

		memset(b, 0, sizeof(*b));
		for (size_t i = 0; i < p->n_allow; i++)
			if (p->allow[i].kind == EGRESS_ADDR && (p->allow[i].protos & protos[pi]) &&
			    egress_prefix_within(addr, 128, &p->allow[i]))
				egress_ports_add(b, p->allow[i].lo, p->allow[i].hi);
		for (size_t i = 0; i < g->n_grants; i++) {
			const struct egress_rule *n = &p->allow[g->grants[i].rule];

			if ((n->protos & protos[pi]) && memcmp(g->grants[i].addr, addr, 16) == 0)
				egress_ports_add(b, n->lo, n->hi);
		}
		r = free_slot(g, b, &slot);
		if (r < 0 || (r == 1 && g->ops.set_write(g->ops.ctx, (uint32_t)slot, b) < 0)) {
			free(b);
			return -1;
		}
		if (r == 1) {
			g->sets[slot] = *b;
			if (slot == g->n_sets)
				g->n_sets++;
		}
		v->set[pi] = (uint16_t)slot;
	}
	free(b);
	return 0;
}

static void key_of(const uint8_t *addr, struct egress_key *k)
{
	k->prefixlen = 128;
	memcpy(k->addr, addr, 16);
}

/* Write addr's verdict (a new entry when it has none yet). */
static int write_addr(struct gate_map *g, const uint8_t *addr)
{
	struct gate_addr *a = find_addr(g, addr);
	struct egress_key k;
	struct egress_verdict v;

	key_of(addr, &k);
	if (verdict(g, addr, &v) < 0 || g->ops.update(g->ops.ctx, &k, &v) < 0)
		return -1;
	if (a == NULL) {
		a = &g->addrs[g->n_addrs++];
		memcpy(a->addr, addr, 16);
		a->exact_static = exact_static(g->plan, addr);
		if (!a->exact_static)
			g->room--;
	}
	a->v = v;
	return 0;
}

int gate_map_grant(struct gate_map *g, const struct dns_addr *addrs, size_t n, const size_t *rules,
                   size_t nr, int64_t now, size_t *n_denied, char *why, size_t wlen)
{
	size_t new_addrs = 0, new_grants = 0;

	*n_denied = 0;
	for (size_t i = 0; i < n; i++) {
		bool dup = false;

		for (size_t k = 0; k < i && !dup; k++)
			dup = memcmp(addrs[k].addr, addrs[i].addr, 16) == 0;
		if (dup || denied(g->plan, addrs[i].addr))
			continue;
		if (find_addr(g, addrs[i].addr) == NULL)
			new_addrs++;
		for (size_t r = 0; r < nr; r++)
			new_grants += find_grant(g, addrs[i].addr, rules[r]) == NULL;
	}
	if (g->n_addrs + new_addrs > GATE_MAX_ADDRS || new_addrs > g->room ||
	    g->n_grants + new_grants > GATE_MAX_GRANTS) {
		snprintf(why, wlen, "the allow map is full (%zu addresses granted)", g->n_addrs);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t ttl = addrs[i].ttl < GATE_TTL_MIN   ? GATE_TTL_MIN
		               : addrs[i].ttl > GATE_TTL_MAX ? GATE_TTL_MAX
		                                             : addrs[i].ttl;

		if (denied(g->plan, addrs[i].addr)) {
			(*n_denied)++;
			continue;
		}
		for (size_t r = 0; r < nr; r++) {
			struct gate_grant *gr = find_grant(g, addrs[i].addr, rules[r]);

			if (gr == NULL) {
				gr = &g->grants[g->n_grants++];
				memcpy(gr->addr, addrs[i].addr, 16);
				gr->rule = rules[r];
				gr->expires = 0;
			}
			if (gr->expires < now + ttl)
				gr->expires = now + ttl;
		}
		if (write_addr(g, addrs[i].addr) < 0) {
			snprintf(why, wlen, "the allow map took no more (%s)",
			         errno == ENOMEM ? "out of memory" : "no port set left");
			/* What could not be written is not granted either. */
			gate_map_expire(g, INT64_MIN);
			return -1;
		}
	}
	return 0;
}

/* addr lost a grant: its verdict again; or, when nothing holds it (or no
 * port set is left for the narrower verdict: fail closed), its key gone
 * (the plan's own verdict back where the plan has this /128). */
static void rewrite(struct gate_map *g, size_t ai)
{
	struct gate_addr *a = &g->addrs[ai];
	struct egress_verdict v;
	struct egress_key k;
	bool held = false;
	size_t kept = 0;

	for (size_t i = 0; i < g->n_grants && !held; i++)
		held = memcmp(g->grants[i].addr, a->addr, 16) == 0;
	key_of(a->addr, &k);
	if ((held || a->exact_static) && verdict(g, a->addr, &v) == 0 &&
	    g->ops.update(g->ops.ctx, &k, &v) == 0) {
		a->v = v;
		if (held)
			return;
	} else if (!a->exact_static) {
		g->ops.remove(g->ops.ctx, &k);
		g->room++;
	}
	for (size_t i = 0; i < g->n_grants; i++)
		if (memcmp(g->grants[i].addr, a->addr, 16) != 0)
			g->grants[kept++] = g->grants[i];
	g->n_grants = kept;
	g->addrs[ai] = g->addrs[--g->n_addrs];
}

void gate_map_expire(struct gate_map *g, int64_t now)
{
	size_t kept = 0;

	/* INT64_MIN: only the grants of addresses never written (a failed
	 * grant's), whose key is not there. */
	for (size_t i = 0; i < g->n_grants; i++) {
		struct gate_addr *a = find_addr(g, g->grants[i].addr);
		bool gone = now == INT64_MIN ? a == NULL : g->grants[i].expires <= now;

		if (!gone)
			g->grants[kept++] = g->grants[i];
		else if (a)
			a->dirty = true;
	}
	g->n_grants = kept;
	/* Backwards: rewrite moves the last address into the place it frees. */
	for (size_t ai = g->n_addrs; ai-- > 0;)
		if (g->addrs[ai].dirty) {
			g->addrs[ai].dirty = false;
			rewrite(g, ai);
		}
}

int64_t gate_map_next(const struct gate_map *g)
{
	int64_t t = INT64_MAX;

	for (size_t i = 0; i < g->n_grants; i++)
		if (g->grants[i].expires < t)
			t = g->grants[i].expires;
	return t;
}
