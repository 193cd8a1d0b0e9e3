/* The egress plan and its map entries (egress_plan.h). */
#include "net/egress_plan.h"
#include "lib/error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int egress_plan_add(struct egress_plan *p, bool deny, const struct egress_rule *r)
{
	struct egress_rule **v = deny ? &p->deny : &p->allow;
	size_t *n = deny ? &p->n_deny : &p->n_allow;
	struct egress_rule *m = realloc(*v, (*n + 1) * sizeof(**v));

	if (m == NULL)
		return werr(ENOMEM, "out of memory");
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

static int fill(const struct egress_plan *p, const struct egress_key *k, struct egress_verdict *v)
{
	memset(v, 0, sizeof(*v));
	for (size_t i = 0; i < p->n_deny; i++)
		if (egress_prefix_within(k->addr, k->prefixlen, &p->deny[i]))
			v->deny = 1;
	for (size_t i = 0; !v->deny && i < p->n_allow; i++) {
		const struct egress_rule *a = &p->allow[i];
		bool dup = false;

		if (!egress_prefix_within(k->addr, k->prefixlen, a))
			continue;
		for (size_t j = 0; j < v->n; j++)
			dup |= v->r[j].lo == a->lo && v->r[j].hi == a->hi &&
			       v->r[j].protos == a->protos;
		if (dup)
			continue;
		if (v->n == EGRESS_MAX_RANGES)
			return werr(E2BIG,
			            "egress: more than %d port ranges cover one address prefix "
			            "(merge the rules)",
			            EGRESS_MAX_RANGES);
		v->r[v->n].lo = a->lo;
		v->r[v->n].hi = a->hi;
		v->r[v->n].protos = a->protos;
		v->n++;
	}
	return 0;
}

int egress_plan_entries(const struct egress_plan *p, struct egress_key **keys,
                        struct egress_verdict **vals, size_t *n)
{
	size_t max = p->n_allow + p->n_deny;
	struct egress_key *k = calloc(max ? max : 1, sizeof(*k));
	struct egress_verdict *v = calloc(max ? max : 1, sizeof(*v));
	size_t m = 0;

	if (k == NULL || v == NULL) {
		free(k);
		free(v);
		return werr(ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < p->n_allow; i++)
		if (p->allow[i].kind == EGRESS_ADDR)
			add_key(k, &m, &p->allow[i]);
	for (size_t i = 0; i < p->n_deny; i++)
		add_key(k, &m, &p->deny[i]);
	if (m > EGRESS_MAX_ENTRIES) {
		free(k);
		free(v);
		return werr(E2BIG, "egress: %zu address prefixes, more than the %d a map holds", m,
		            EGRESS_MAX_ENTRIES);
	}
	for (size_t i = 0; i < m; i++)
		if (fill(p, &k[i], &v[i]) < 0) {
			free(k);
			free(v);
			return -1;
		}
	*keys = k;
	*vals = v;
	*n = m;
	return 0;
}
