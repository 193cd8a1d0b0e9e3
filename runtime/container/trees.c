/* The host paths the policy decided on, handed to the init as detached
 * trees (issue #12): the rootfs, every bind source and every overlay layer
 * is cloned (open_tree OPEN_TREE_CLONE) from the very fd the policy checked,
 * so a rename between the check and the mount changes nothing, and the init
 * never looks a host path up by name again. */
#include "container/trees.h"
#include "lib/error.h"
#include "rootfs/idmap.h"
#include "rootfs/mount_opts.h"
#include "rootfs/rootfs.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

/* Every overlay layer as a detached tree (layers[i]: NULL for mounts that
 * are not overlays). */
int layer_trees(const struct oci_config *cfg, const struct host_facts *h, int **layers,
                size_t *n_layers)
{
	struct mount_attr ro = {.attr_set = MOUNT_ATTR_RDONLY};

	for (size_t i = 0; i < cfg->n_mounts && i < h->n_mounts; i++) {
		size_t n = h->n_overlay ? h->n_overlay[i] : 0;

		if (n == 0)
			continue;
		layers[i] = malloc(n * sizeof(int));
		if (layers[i] == NULL)
			return werr(ENOMEM, "out of memory");
		for (size_t k = 0; k < n; k++)
			layers[i][k] = -1;
		n_layers[i] = n;
		for (size_t k = 0; k < n; k++) {
			const struct host_path *p = &h->overlay[i][k];

			if (!p->resolved)
				return werr(p->err, "mounts[%zu] (%s): overlay layer %zu", i,
				            cfg->mounts[i].destination, k);
			layers[i][k] = tree_clone(p->fd, "", AT_EMPTY_PATH, false);
			/* Read-only: the overlay covers the layers' mounts, which
			 * are never the container's to write. */
			if (layers[i][k] >= 0 &&
			    mount_setattr(layers[i][k], "", AT_EMPTY_PATH, &ro, sizeof(ro)) < 0) {
				close(layers[i][k]);
				layers[i][k] = -1;
			}
			if (layers[i][k] < 0)
				return werr(errno, "mounts[%zu] (%s): overlay layer %s", i,
				            cfg->mounts[i].destination, p->real);
		}
	}
	return 0;
}

void free_layers(const struct oci_config *cfg, int **layers, const size_t *n_layers)
{
	for (size_t i = 0; layers && i < cfg->n_mounts; i++) {
		for (size_t k = 0; layers[i] && k < n_layers[i]; k++)
			if (layers[i][k] >= 0)
				close(layers[i][k]);
		free(layers[i]);
	}
	free(layers);
}

int parent_trees(const struct oci_config *cfg, const struct host_facts *h, const char *bundle,
                 int *root_tree, int *trees, bool peers_ok)
{
	struct bind_source *src = calloc(cfg->n_mounts ? cfg->n_mounts : 1, sizeof(*src));
	int r;

	if (src == NULL)
		return werr(ENOMEM, "out of memory");
	if (h == NULL || !h->root.resolved || !S_ISDIR(h->root.st.st_mode)) {
		free(src);
		return werr(h && h->root.err ? h->root.err : ENOTDIR, "config.json: .root.path: %s",
		            cfg->root->path);
	}
	for (size_t i = 0; i < cfg->n_mounts; i++) {
		bool have = i < h->n_mounts && h->mounts[i].resolved;

		src[i].fd = have ? h->mounts[i].fd : -1;
		src[i].err = have                                  ? 0
		             : i < h->n_mounts && h->mounts[i].err ? h->mounts[i].err
		                                                   : ENOENT;
	}
	/* Inside a user namespace the init is no longer host root: the mount
	 * points it needs are made now. */
	if (oci_config_namespace(cfg, CLONE_NEWUSER)) {
		bool *is_dir = calloc(cfg->n_mounts ? cfg->n_mounts : 1, sizeof(*is_dir));

		if (is_dir == NULL) {
			free(src);
			return werr(ENOMEM, "out of memory");
		}
		for (size_t i = 0; i < cfg->n_mounts; i++)
			is_dir[i] = !mount_is_bind(&cfg->mounts[i]) ||
			            (i < h->n_mounts && h->mounts[i].resolved &&
			             S_ISDIR(h->mounts[i].st.st_mode));
		rootfs_premake(h->root.fd, cfg, is_dir);
		free(is_dir);
	}
	*root_tree = rootfs_tree(h->root.fd);
	r = *root_tree < 0 ? -1 : bind_trees_prepare(cfg, src, bundle, trees, peers_ok);
	free(src);
	if (r < 0 && *root_tree >= 0) {
		close(*root_tree);
		*root_tree = -1;
	}
	return r;
}
