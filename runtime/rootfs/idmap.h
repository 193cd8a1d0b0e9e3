/* The mounts the parent makes for the init (issue #12): a detached tree
 * (open_tree OPEN_TREE_CLONE) of every bind source and of the rootfs, cloned
 * from the very fd the policy decided on, so that the init never looks a
 * host path up by name again; idmapped where a mount asks for it
 * (mount_setattr MOUNT_ATTR_IDMAP: the parent is privileged over the
 * source's filesystem, the init may no longer be). */
#ifndef WARD_IDMAP_H
#define WARD_IDMAP_H

#include "lib/error.h"

#include "linux/mount_prim.h"
#include "oci/config.h"

/* A user namespace with these mappings, as an fd (a throwaway process is
 * created in it, mapped, and reaped). */
int idmap_userns(const struct oci_idmap *uid, size_t n_uid, const struct oci_idmap *gid,
                 size_t n_gid, struct werror *err);
/* A bind source as the parent opened it: fd (O_PATH), or -1 and why. */
struct bind_source {
	int fd;
	int err;
};

/* Every bind mount has a source the parent could open (bundle: where
 * relative sources start, for the message), and only binds are idmapped:
 * checked before the init exists. */
int bind_sources_check(const struct oci_config *c, const struct bind_source *src,
                       const char *bundle, struct werror *err);
/* The detached tree of bind mount m (mounts[idx]) from src, the fd the
 * policy decided on: a copy of the source (with its submounts for rbind),
 * idmapped if asked. A slave of its source, or with peers_ok and a
 * "shared"/"rshared" option, its peer. Made when the init attaches it
 * (container/tree_server.c), so mounts are made in config.json's order. */
int bind_tree(const struct oci_config *c, const struct oci_mount *m, int src, size_t idx,
              bool peers_ok, struct werror *err);
/* A detached copy of the rootfs (with its submounts) from the fd the policy
 * decided on. */
int rootfs_tree(int root_fd, struct werror *err);
bool idmap_wanted(const struct oci_mount *m, bool *recursive);

#endif
