/* The trees the parent makes for the init, from the fds in the host facts. */
#ifndef WARD_CONTAINER_TREES_H
#define WARD_CONTAINER_TREES_H

#include <stddef.h>

#include "oci/config.h"
#include "facts/host_facts.h"

/* The rootfs and every bind source (trees[i], -1 for other mounts); for a
 * user namespace, the missing mount points are made first (as host root). */
int parent_trees(const struct oci_config *cfg, const struct host_facts *h, const char *bundle,
                 int *root_tree, int *trees, bool peers_ok);
/* Every overlay layer, read-only (layers[i]: NULL for other mounts). */
int layer_trees(const struct oci_config *cfg, const struct host_facts *h, int **layers,
                size_t *n_layers);
void free_layers(const struct oci_config *cfg, int **layers, const size_t *n_layers);

#endif
