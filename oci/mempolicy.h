/* linux.memoryPolicy (runtime-spec 1.3, config-linux.md "Memory policy"):
 * the NUMA policy set with set_mempolicy(2) for the container's process. */
#ifndef WARD_OCI_MEMPOLICY_H
#define WARD_OCI_MEMPOLICY_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/jwalk.h"

/* Node numbers ward accepts: 0..OCI_MPOL_NODES-1 (the kernel's largest
 * MAX_NUMNODES, CONFIG_NODES_SHIFT=10). */
#define OCI_MPOL_NODES 1024
#define OCI_MPOL_WORDS (OCI_MPOL_NODES / (8 * sizeof(unsigned long)))

struct oci_memory_policy {
	char *mode;
	char *nodes; /* "0-3,7"; NULL or "" = none */
	char **flags;
	size_t n_flags;
	/* Resolved by the parse: */
	int mode_num;       /* MPOL_* */
	unsigned flag_bits; /* MPOL_F_* */
	bool has_nodes;     /* at least one node */
	unsigned long nodemask[OCI_MPOL_WORDS];
};

extern const struct jschema oci_memory_policy_schema;
/* Parse a node list ("0-3,7", "" = none) into mask; NULL, or why not. */
const char *oci_nodes_parse(const char *s, unsigned long mask[OCI_MPOL_WORDS]);
/* The names ward knows, NULL-terminated (for features). */
extern const char *const oci_mpol_modes[];
extern const char *const oci_mpol_flags[];

#endif
