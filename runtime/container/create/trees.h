/* The trees the parent makes for the init, from the fds in the host facts. */
#ifndef WARD_CONTAINER_TREES_H
#define WARD_CONTAINER_TREES_H

#include "lib/error.h"

#include <stdbool.h>
#include <stddef.h>

#include "oci/config.h"
#include "facts/host_facts.h"

/* Before the clone: the rootfs as a detached tree, and every bind source
 * and overlay layer (with_layers) checked to have been opened; for a user
 * namespace, the missing mount points are made first (as host root). */
int parent_trees(const struct oci_config *cfg, const struct host_facts *h, const char *bundle,
                 int *root_tree, bool with_layers, struct werror *err);

/* How the trees of one mount are made: the facts' fds, and what the
 * profile allows. */
struct tree_plan {
	const struct oci_config *cfg;
	const struct host_facts *facts;
	bool peers_ok;    /* a "shared" bind may be a peer of its source */
	bool with_layers; /* overlays get their layers as trees (not compat) */
};

/* The detached trees of mounts[i], cloned now: a bind's source (one), an
 * overlay's layers read-only in the order of its options, nothing for
 * other mounts. The count in *n, fds[] owned by the caller; -1 with werr. */
int mount_trees(const struct tree_plan *p, size_t i, int **fds, size_t *n, struct werror *err);

#endif
