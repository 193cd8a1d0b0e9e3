/* The egress plan and its map entries (egress_plan.h). */
#include "net/egress_plan.h"
#include "lib/error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int egress_plan_add(struct egress_plan *p, bool deny, const struct egress_rule *r,
                    struct werror *err)
{
	struct egress_rule **v = deny ? &p->deny : &p->allow;
	size_t *n = deny ? &p->n_deny : &p->n_allow;
	struct egress_rule *m = realloc(*v, (*n + 1) * sizeof(**v));

	if (m == NULL)
		return werr(err, ENOMEM, "out of memory");
	m[(*n)++] = *r;
	*v = m;
	return 0;
}

void egress_plan_free(struct egress_plan *p)
{
	free(p->allow);
	free(p->deny);
	memset(p, 0, sizeof(*p));
}

static bool same_prefix(const struct egress_key *k, const struct egress_rule *r)
{
	return k->prefixlen == r->prefix && memcmp(k->addr, r->addr, sizeof(k->addr)) == 0;
}

/* Add r's prefix to keys unless it is there. */
static void add_key(struct egress_key *keys, size_t *n, const struct egress_rule *r)
{
	for (size_t i = 0; i < *n; i++)
		if (same_prefix(&keys[i], r))
			return;
	keys[*n].prefixlen = r->prefix;
	memcpy(keys[*n].addr, r->addr, sizeof(keys[*n].addr));
	(*n)++;
}

void egress_ports_add(struct egress_ports *b, unsigned lo, unsigned hi)
{
	for (unsigned w = lo / 64; w <= hi / 64; w++) {
		unsigned a = w == lo / 64 ? lo % 64 : 0, z = w == hi / 64 ? hi % 64 : 63;

		b->w[w] |= (~0ULL >> (63 - z)) & (~0ULL << a);
	}
}

/* The index of set b in e->sets, added if new; -1 with werr past the cap. */
static int set_index(struct egress_entries *e, const struct egress_ports *b, struct werror *err)
{
	for (size_t i = 0; i < e->n_sets; i++)
		if (memcmp(&e->sets[i], b, sizeof(*b)) == 0)
			return (int)i;
	if (e->n_sets == EGRESS_MAX_SETS)
		return werr(err, E2BIG, "egress: more than %d distinct port sets (merge the rules)",
		            EGRESS_MAX_SETS);
	if (e->n_sets % 16 == 0) {
		struct egress_ports *m = realloc(e->sets, (e->n_sets + 16) * sizeof(*m));

		if (m == NULL)
			return werr(err, ENOMEM, "out of memory");
		e->sets = m;
	}
	e->sets[e->n_sets] = *b;
	return (int)e->n_sets++;
}

/* k's verdict: denied, or per protocol the union of the ports of the allow
 * rules that contain it. */
static int fill(const struct egress_plan *p, const struct egress_key *k, struct egress_verdict *v,
                struct egress_entries *e, struct egress_ports *b, struct werror *err)
{
	static const __u8 protos[3] = {EGRESS_TCP, EGRESS_UDP, EGRESS_OTHER};

	memset(v, 0, sizeof(*v));
	for (size_t i = 0; i < p->n_deny; i++)
		if (egress_prefix_within(k->addr, k->prefixlen, &p->deny[i]))
			v->deny = 1;
	for (size_t pi = 0; !v->deny && pi < 3; pi++) {
		int s;

		memset(b, 0, sizeof(*b));
		for (size_t i = 0; i < p->n_allow; i++) {
			const struct egress_rule *a = &p->allow[i];

			if ((a->protos & protos[pi]) &&
			    egress_prefix_within(k->addr, k->prefixlen, a))
				egress_ports_add(b, a->lo, a->hi);
		}
		if ((s = set_index(e, b, err)) < 0)
			return -1;
		v->set[pi] = (__u16)s;
	}
	return 0;
}

void egress_entries_free(struct egress_entries *e)
{
	free(e->keys);
	free(e->vals);
	free(e->sets);
	memset(e, 0, sizeof(*e));
}

int egress_plan_entries(const struct egress_plan *p, struct egress_entries *e, struct werror *err)
{
	size_t max = p->n_allow + p->n_deny;
	struct egress_ports *b = calloc(1, sizeof(*b));

	memset(e, 0, sizeof(*e));
	e->keys = calloc(max ? max : 1, sizeof(*e->keys));
	e->vals = calloc(max ? max : 1, sizeof(*e->vals));
	if (b == NULL || e->keys == NULL || e->vals == NULL || set_index(e, b, err) < 0) {
		free(b);
		egress_entries_free(e);
		return werr(err, ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < p->n_allow; i++)
		if (p->allow[i].kind == EGRESS_ADDR)
			add_key(e->keys, &e->n, &p->allow[i]);
	for (size_t i = 0; i < p->n_deny; i++)
		add_key(e->keys, &e->n, &p->deny[i]);
	if (e->n > EGRESS_MAX_ENTRIES) {
		werr(err, E2BIG, "egress: %zu address prefixes, more than the %d a map holds", e->n,
		     EGRESS_MAX_ENTRIES);
		goto fail;
	}
	for (size_t i = 0; i < e->n; i++)
		if (fill(p, &e->keys[i], &e->vals[i], e, b, err) < 0)
			goto fail;
	free(b);
	return 0;
fail:
	free(b);
	egress_entries_free(e);
	return -1;
}
