#ifndef WARD_USERNS_H
#define WARD_USERNS_H

#include <sys/types.h>

#include "oci/config.h"

/* Write uid_map and gid_map of a child created in a new user namespace.
 * The parent does this: it is privileged in the parent namespace. */
int userns_write_maps(pid_t pid, const struct oci_linux *l);

#endif
