/* What this build of ward can run: a parsed config.json that asks for a
 * feature ward does not implement yet is refused here, naming the field,
 * rather than run without it. Also the checks that need the host (rootfs). */
#ifndef WARD_SUPPORT_H
#define WARD_SUPPORT_H

#include "lib/error.h"

#include <limits.h>
#include <stdbool.h>

#include "oci/config.h"

/* compat: what runc runs, runs (a config without a mount namespace). */
int support_check(const struct oci_config *c, bool compat, struct werror *err);
/* root.path made absolute (relative paths are bundle-relative) and checked
 * to be a directory. */
int support_rootfs(const struct oci_config *c, const char *bundle, char out[PATH_MAX],
                   struct werror *err);

#endif
