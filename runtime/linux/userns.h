#ifndef WARD_USERNS_H
#define WARD_USERNS_H

#include "lib/error.h"

#include <sys/types.h>

#include "oci/config.h"

/* Write uid_map and gid_map of a child created in a new user namespace.
 * The parent does this: as root, directly; as another user (rootless), the
 * caller's own id alone directly (setgroups then "deny"), more through the
 * setuid newuidmap/newgidmap. */
int userns_write_maps(pid_t pid, const struct oci_linux *l, struct werror *err);
/* A new user namespace with these mappings (its owner a short-lived child
 * of ours): an fd of it, or -1 with werr (errno from the clone when the
 * kernel refuses the namespace itself). */
int userns_make(const struct oci_idmap *uid, size_t n_uid, const struct oci_idmap *gid,
                size_t n_gid, struct werror *err);
/* The path of newuidmap or newgidmap in the system's directories, in the
 * caller's buf; NULL when there is none. */
const char *userns_map_helper(const char *name, char buf[64]);

#endif
