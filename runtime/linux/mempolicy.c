#include "linux/mempolicy.h"
#include "lib/error.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The memory nodes this process may use (its cpuset's), as the kernel
 * lists them in /proc/self/status; "" when it cannot be read. */
static void mems_allowed(char *out, size_t len)
{
	char line[512];
	FILE *f = fopen("/proc/self/status", "re");

	out[0] = '\0';
	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, "Mems_allowed_list:", 18) == 0) {
			snprintf(out, len, "%s", line + 18 + strspn(line + 18, " \t"));
			out[strcspn(out, "\n")] = '\0';
			break;
		}
	if (f)
		fclose(f);
}

static void flag_list(const struct oci_memory_policy *m, char *out, size_t len)
{
	size_t n = 0;

	out[0] = '\0';
	for (size_t i = 0; i < m->n_flags && n < len; i++)
		n += (size_t)snprintf(out + n, len - n, "%s%s", i ? "," : " with ", m->flags[i]);
}

/* The nodes asked for that the container may not use, as a list. */
static bool outside(const struct oci_memory_policy *m, const char *allowed, char *out, size_t len)
{
	const size_t bits = 8 * sizeof(unsigned long);
	unsigned long ok[OCI_MPOL_WORDS];
	size_t n = 0;

	out[0] = '\0';
	if (!m->has_nodes || oci_nodes_parse(allowed, ok) != NULL)
		return false;
	for (unsigned i = 0; i < OCI_MPOL_NODES && n < len; i++)
		if ((m->nodemask[i / bits] >> (i % bits) & 1) && !(ok[i / bits] >> (i % bits) & 1))
			n += (size_t)snprintf(out + n, len - n, "%s%u", n ? "," : "", i);
	return n > 0;
}

/* What EINVAL means here: the parse has ruled out what no host accepts
 * (config-linux.md "Memory policy" and set_mempolicy(2)), so it is a node
 * the container may not use (offline, or outside its cpuset's mems), or a
 * mode or flag this kernel lacks or does not take with this mode. */
static int explain(const struct oci_memory_policy *m, int e, struct werror *err)
{
	char allowed[256], flags[160], bad[128];

	flag_list(m, flags, sizeof(flags));
	mems_allowed(allowed, sizeof(allowed));
	if (e == EINVAL && outside(m, allowed, bad, sizeof(bad)))
		return werr(err, e,
		            "config.json: .linux.memoryPolicy.nodes: the kernel refused %s on "
		            "nodes \"%s\": node %s is not among the container's memory nodes "
		            "(%s)",
		            m->mode, m->nodes, bad, allowed);
	if (e == EINVAL)
		return werr(
		    err, e,
		    "config.json: .linux.memoryPolicy: the kernel refused %s%s: this kernel "
		    "does not take that mode with those flags (set_mempolicy(2))",
		    m->mode, flags);
	return werr(err, e, "config.json: .linux.memoryPolicy: the kernel refused %s%s", m->mode,
	            flags);
}

int mempolicy_apply(const struct oci_linux *l, struct werror *err)
{
	const struct oci_memory_policy *m = l ? l->memory_policy : NULL;

	if (m == NULL)
		return 0;
	/* maxnode is one more than the bits the kernel reads (it counts
	 * maxnode - 1: set_mempolicy(2) BUGS). */
	if (syscall(SYS_set_mempolicy, m->mode_num | (int)m->flag_bits,
	            m->has_nodes ? m->nodemask : NULL,
	            m->has_nodes ? (unsigned long)OCI_MPOL_NODES + 1 : 0UL) < 0)
		return explain(m, errno, err);
	return 0;
}
