/* linux.memoryPolicy: mode, nodes and flags as set_mempolicy(2) takes
 * them. What the spec and the man page rule out for any host is refused
 * here, naming the JSON path; what depends on the host (which nodes are
 * online and allowed) is the kernel's answer (linux/mempolicy_apply.c). */
#include "oci/mempolicy.h"
#include "lib/error.h"
#include "lib/jwalk_macros.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The kernel's uapi numbers (include/uapi/linux/mempolicy.h), spelt out:
 * older headers lack MPOL_WEIGHTED_INTERLEAVE. */
const char *const oci_mpol_modes[] = {
    "MPOL_DEFAULT",        "MPOL_PREFERRED",           "MPOL_BIND", "MPOL_INTERLEAVE", "MPOL_LOCAL",
    "MPOL_PREFERRED_MANY", "MPOL_WEIGHTED_INTERLEAVE", NULL};
const char *const oci_mpol_flags[] = {"MPOL_F_NUMA_BALANCING", "MPOL_F_RELATIVE_NODES",
                                      "MPOL_F_STATIC_NODES", NULL};
static const unsigned flag_bits[] = {1u << 13, 1u << 14, 1u << 15};

enum { M_DEFAULT, M_PREFERRED, M_BIND, M_INTERLEAVE, M_LOCAL };

static int lookup(const char *const *names, const char *s)
{
	for (int i = 0; names[i]; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	return -1;
}

static const char *parse_node(const char **s, unsigned long *out)
{
	char *end;
	unsigned long v;

	if (**s < '0' || **s > '9')
		return "must be a list of node numbers and ranges such as \"0-3,7\"";
	errno = 0;
	v = strtoul(*s, &end, 10);
	if (errno || v >= OCI_MPOL_NODES)
		return "node numbers must be below 1024";
	*s = end;
	*out = v;
	return NULL;
}

/* The kernel's bitmap list format (cpuset(7)): "0-3,7". */
const char *oci_nodes_parse(const char *s, unsigned long mask[OCI_MPOL_WORDS])
{
	const size_t bits = 8 * sizeof(unsigned long);
	const char *why;

	memset(mask, 0, OCI_MPOL_WORDS * sizeof(unsigned long));
	while (*s) {
		unsigned long a, b;

		if ((why = parse_node(&s, &a)) != NULL)
			return why;
		b = a;
		if (*s == '-') {
			s++;
			if ((why = parse_node(&s, &b)) != NULL)
				return why;
			if (b < a)
				return "a range runs backwards";
		}
		for (unsigned long n = a; n <= b; n++)
			mask[n / bits] |= 1UL << (n % bits);
		if (*s == ',' && s[1] != '\0')
			s++;
		else if (*s != '\0')
			return "must be a list of node numbers and ranges such as \"0-3,7\"";
	}
	return NULL;
}

static int parse_nodes(struct oci_memory_policy *m, const struct jpath *p, struct werror *err)
{
	const char *why = oci_nodes_parse(m->nodes, m->nodemask);

	if (why)
		return jerr(err, p, "%s (got \"%s\")", why, m->nodes);
	for (size_t i = 0; i < OCI_MPOL_WORDS; i++)
		m->has_nodes = m->has_nodes || m->nodemask[i] != 0;
	return 0;
}

static int check_memory_policy(void *obj, const struct jpath *p, struct werror *err)
{
	struct oci_memory_policy *m = obj;
	struct jpath mp = {p, "mode", 0}, np = {p, "nodes", 0}, fp = {p, "flags", 0};

	m->mode_num = lookup(oci_mpol_modes, m->mode);
	if (m->mode_num < 0)
		return jerr(err, &mp, "unknown mode \"%s\"", m->mode);
	if (m->nodes && parse_nodes(m, &np, err) < 0)
		return -1;
	for (size_t i = 0; i < m->n_flags; i++) {
		struct jpath ip = {&fp, NULL, i};
		int f = lookup(oci_mpol_flags, m->flags[i]);

		if (f < 0)
			return jerr(err, &ip, "unknown flag \"%s\"", m->flags[i]);
		m->flag_bits |= flag_bits[f];
	}
	/* set_mempolicy(2): MPOL_DEFAULT and MPOL_LOCAL take no nodes;
	 * MPOL_PREFERRED may have none (= local); the others need one. */
	if ((m->mode_num == M_DEFAULT || m->mode_num == M_LOCAL) && m->has_nodes)
		return jerr(err, &np, "%s takes no nodes (got \"%s\")", m->mode, m->nodes);
	if (m->mode_num != M_DEFAULT && m->mode_num != M_LOCAL && m->mode_num != M_PREFERRED &&
	    !m->has_nodes)
		return jerr(err, &np, "%s needs at least one node", m->mode);
	if ((m->flag_bits & flag_bits[1]) && (m->flag_bits & flag_bits[2]))
		return jerr(err, &fp,
		            "MPOL_F_STATIC_NODES and MPOL_F_RELATIVE_NODES exclude each other");
	return 0;
}

static const struct jfield memory_policy_fields[] = {
    FLD("mode", JK_STR, struct oci_memory_policy, mode, JF_REQUIRED | JF_NONEMPTY),
    FLD("nodes", JK_STR, struct oci_memory_policy, nodes, 0),
    FLD_N("flags", JK_STRV, struct oci_memory_policy, flags, 0, NULL),
};
const struct jschema oci_memory_policy_schema =
    SCHEMA(struct oci_memory_policy, memory_policy_fields, check_memory_policy, NULL);
