#include "rootfs/idmap.h"
#include "linux/sys_mount.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "rootfs/mount_opts.h"
#include "linux/userns.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/pidfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

bool idmap_wanted(const struct oci_mount *m, bool *recursive)
{
	bool want = m->n_uid_mappings || m->n_gid_mappings;

	*recursive = false;
	for (size_t i = 0; i < m->n_options; i++) {
		if (strcmp(m->options[i], "ridmap") == 0)
			want = *recursive = true;
		else if (strcmp(m->options[i], "idmap") == 0)
			want = true;
	}
	return want;
}

int idmap_userns(const struct oci_idmap *uid, size_t n_uid, const struct oci_idmap *gid,
                 size_t n_gid, struct werror *err)
{
	int fd = userns_make(uid, n_uid, gid, n_gid, err);

	return fd < 0 ? werr_ctx(err, "a user namespace for an idmapped mount") : fd;
}

int bind_tree(const struct oci_config *c, const struct oci_mount *m, int src, size_t idx,
              bool peers_ok, struct werror *err)
{
	const struct oci_linux *l = c->linux;
	struct mount_attr attr = {.attr_set = MOUNT_ATTR_IDMAP};
	bool rec, rbind = false, shared = false;
	_cleanup_close_ int tree = -1, ns = -1;

	for (size_t i = 0; i < m->n_options; i++) {
		rbind = rbind || strcmp(m->options[i], "rbind") == 0;
		shared = shared || strcmp(m->options[i], "shared") == 0 ||
		         strcmp(m->options[i], "rshared") == 0;
	}
	/* "rshared" asks for mounts to travel both ways (CRI's Bidirectional,
	 * with rootfsPropagation shared, as runc): a peer of the source, where
	 * the caller allows it (compat without a user namespace: the tree is
	 * cloned in the host's namespace, so the kernel's demotion of shared
	 * mounts for a less privileged namespace would not apply). */
	tree = tree_clone(src, "", AT_EMPTY_PATH | (rbind ? AT_RECURSIVE : 0), shared && peers_ok);
	if (tree < 0)
		return werr(err, errno, "mounts[%zu] (%s): source %s", idx, m->destination,
		            m->source);
	if (!idmap_wanted(m, &rec))
		return TAKE_FD(tree);
	/* No mappings of its own: the container's user namespace's. */
	if (m->n_uid_mappings || m->n_gid_mappings)
		ns = idmap_userns(m->uid_mappings, m->n_uid_mappings, m->gid_mappings,
		                  m->n_gid_mappings, err);
	else if (l && l->n_uid_mappings)
		ns = idmap_userns(l->uid_mappings, l->n_uid_mappings, l->gid_mappings,
		                  l->n_gid_mappings, err);
	else
		ns = werr(err, 0, "mounts[%zu] (%s): idmap without mappings needs a user namespace",
		          idx, m->destination);
	if (ns < 0)
		return werr_ctx(err, "mounts[%zu] (%s)", idx, m->destination);
	attr.userns_fd = (uint64_t)ns;
	if (sys_mount_setattr(tree, "", AT_EMPTY_PATH | (rec ? AT_RECURSIVE : 0), &attr,
	                      sizeof(attr)) < 0)
		return werr(
		    err, errno,
		    "mounts[%zu] (%s): idmapping the mount (does the filesystem support it?)", idx,
		    m->destination);
	return TAKE_FD(tree);
}

int bind_sources_check(const struct oci_config *c, const struct bind_source *src,
                       const char *bundle, struct werror *err)
{
	for (size_t i = 0; i < c->n_mounts; i++) {
		const struct oci_mount *m = &c->mounts[i];
		bool rec;

		if (!mount_is_bind(m)) {
			if (idmap_wanted(m, &rec))
				return werr_k(
				    err, WERR_INVALID, 0,
				    "mounts[%zu] (%s): idmapped mounts must be bind mounts", i,
				    m->destination);
			continue;
		}
		if (m->source == NULL || m->source[0] == '\0')
			return werr_k(err, WERR_INVALID, EINVAL,
			              "mounts[%zu] (%s): a bind mount needs a source", i,
			              m->destination);
		if (src[i].fd < 0)
			return werr_k(err, WERR_INVALID, src[i].err,
			              "mounts[%zu] (%s): source %s%s%s", i, m->destination,
			              m->source[0] == '/' ? "" : bundle,
			              m->source[0] == '/' ? "" : "/", m->source);
	}
	return 0;
}

int rootfs_tree(int root_fd, struct werror *err)
{
	int tree = tree_clone(root_fd, "", AT_EMPTY_PATH | AT_RECURSIVE, false);

	return tree < 0 ? werr(err, errno, "config.json: .root.path: copying the rootfs mount")
	                : tree;
}
