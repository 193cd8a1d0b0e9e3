/* The host paths the policy decided on, handed to the init as detached
 * trees (issue #12): the rootfs, every bind source and every overlay layer
 * is cloned (open_tree OPEN_TREE_CLONE) from the very fd the policy checked,
 * so a rename between the check and the mount changes nothing, and the init
 * never looks a host path up by name again. The rootfs is cloned before the
 * init exists; the others when the init attaches them (tree_server.c). */
#include "container/create/trees.h"
#include "linux/sys_mount.h"
#include "lib/error.h"
#include "rootfs/idmap.h"
#include "rootfs/mount_opts.h"
#include "rootfs/rootfs.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

/* Every overlay layer was opened (a layer that was not is an error before
 * the init exists, as a bind source is). */
static int layers_check(const struct oci_config *cfg, const struct host_facts *h,
                        struct werror *err)
{
	for (size_t i = 0; i < cfg->n_mounts && i < h->n_mounts; i++)
		for (size_t k = 0; h->n_overlay && k < h->n_overlay[i]; k++)
			if (!h->overlay[i][k].resolved)
				return werr(err, h->overlay[i][k].err,
				            "mounts[%zu] (%s): overlay layer %zu", i,
				            cfg->mounts[i].destination, k);
	return 0;
}

/* An overlay's layers, read-only: the overlay covers the layers' mounts,
 * which are never the container's to write. */
static int layer_trees(const struct tree_plan *p, size_t i, int *fds, size_t n, struct werror *err)
{
	struct mount_attr ro = {.attr_set = MOUNT_ATTR_RDONLY};

	for (size_t k = 0; k < n; k++) {
		const struct host_path *hp = &p->facts->overlay[i][k];

		fds[k] = tree_clone(hp->fd, "", AT_EMPTY_PATH, false);
		if (fds[k] >= 0 &&
		    sys_mount_setattr(fds[k], "", AT_EMPTY_PATH, &ro, sizeof(ro)) < 0) {
			int e = errno;

			close(fds[k]);
			fds[k] = -1;
			errno = e;
		}
		if (fds[k] < 0) {
			int e = errno;

			while (k-- > 0)
				close(fds[k]);
			return werr(err, e, "mounts[%zu] (%s): overlay layer %s", i,
			            p->cfg->mounts[i].destination, hp->real);
		}
	}
	return 0;
}

int mount_trees(const struct tree_plan *p, size_t i, int **fds, size_t *n, struct werror *err)
{
	const struct oci_mount *m = &p->cfg->mounts[i];
	const struct host_facts *h = p->facts;
	bool bind = mount_is_bind(m);

	*fds = NULL;
	*n = 0;
	if (bind)
		*n = 1;
	else if (p->with_layers && m->type && strcmp(m->type, "overlay") == 0 && i < h->n_mounts &&
	         h->n_overlay)
		*n = h->n_overlay[i];
	if (*n == 0)
		return 0;
	*fds = malloc(*n * sizeof(int));
	if (*fds == NULL)
		return werr(err, ENOMEM, "out of memory");
	if (bind) {
		if (i >= h->n_mounts || !h->mounts[i].resolved)
			(*fds)[0] = werr(err, EBADF, "mounts[%zu] (%s): source not opened", i,
			                 m->destination);
		else
			(*fds)[0] = bind_tree(p->cfg, m, h->mounts[i].fd, i, p->peers_ok, err);
		if ((*fds)[0] >= 0)
			return 0;
	} else if (layer_trees(p, i, *fds, *n, err) == 0) {
		return 0;
	}
	free(*fds);
	*fds = NULL;
	*n = 0;
	return -1;
}

int parent_trees(const struct oci_config *cfg, const struct host_facts *h, const char *bundle,
                 int *root_tree, bool with_layers, struct werror *err)
{
	struct bind_source *src = calloc(cfg->n_mounts ? cfg->n_mounts : 1, sizeof(*src));
	int r;

	*root_tree = -1;
	if (src == NULL)
		return werr(err, ENOMEM, "out of memory");
	if (h == NULL || !h->root.resolved || !S_ISDIR(h->root.st.st_mode)) {
		free(src);
		return werr_k(err, WERR_INVALID, h && h->root.err ? h->root.err : ENOTDIR,
		              "config.json: .root.path: %s", cfg->root->path);
	}
	for (size_t i = 0; i < cfg->n_mounts; i++) {
		bool have = i < h->n_mounts && h->mounts[i].resolved;

		src[i].fd = have ? h->mounts[i].fd : -1;
		src[i].err = have                                  ? 0
		             : i < h->n_mounts && h->mounts[i].err ? h->mounts[i].err
		                                                   : ENOENT;
	}
	r = bind_sources_check(cfg, src, bundle, err);
	free(src);
	if (r < 0 || (with_layers && layers_check(cfg, h, err) < 0))
		return -1;
	/* Inside a user namespace the init is no longer host root: the mount
	 * points it needs are made now. */
	if (oci_config_namespace(cfg, CLONE_NEWUSER)) {
		bool *is_dir = calloc(cfg->n_mounts ? cfg->n_mounts : 1, sizeof(*is_dir));

		if (is_dir == NULL)
			return werr(err, ENOMEM, "out of memory");
		for (size_t i = 0; i < cfg->n_mounts; i++)
			is_dir[i] = !mount_is_bind(&cfg->mounts[i]) ||
			            (i < h->n_mounts && h->mounts[i].resolved &&
			             S_ISDIR(h->mounts[i].st.st_mode));
		rootfs_premake(h->root.fd, cfg, is_dir, err);
		free(is_dir);
	}
	*root_tree = rootfs_tree(h->root.fd, err);
	return *root_tree < 0 ? -1 : 0;
}
