/* Idmapped bind mounts (mount_setattr MOUNT_ATTR_IDMAP), built by the parent:
 * it is privileged over the source's filesystem, the init may no longer be. */
#ifndef WARD_IDMAP_H
#define WARD_IDMAP_H

#include "oci/config.h"

/* A user namespace with these mappings, as an fd (a throwaway process is
 * created in it, mapped, and reaped). */
int idmap_userns(const struct oci_idmap *uid, size_t n_uid, const struct oci_idmap *gid,
                 size_t n_gid);
/* For each mount that asks for it, a detached, idmapped tree of its source
 * (trees[i], -1 elsewhere); the init attaches it. */
int idmap_prepare(const struct oci_config *c, const char *bundle, int *trees);
bool idmap_wanted(const struct oci_mount *m, bool *recursive);

#endif
