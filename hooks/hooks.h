/* OCI hooks: each runs with the container state as JSON on its stdin, with
 * exactly the env it was given, killed when its timeout expires. */
#ifndef WARD_HOOKS_H
#define WARD_HOOKS_H

#include "lib/error.h"

#include <stdbool.h>

#include "oci/config.h"
#include "oci/oci_state.h"

/* Run the hooks of one point in order; the first failure stops them and is
 * returned as an error naming the point, index, path and why (exit status,
 * signal or timeout, with the end of the hook's stderr). */
int hooks_run(const struct oci_config *c, enum oci_hook_point point, const struct oci_state *st,
              struct werror *err);
/* The same for points whose failures the spec says to log only
 * (poststart, poststop): every hook runs; returns the number that failed. */
int hooks_run_logged(const struct oci_config *c, enum oci_hook_point point,
                     const struct oci_state *st, struct werror *err);
bool hooks_any(const struct oci_config *c, enum oci_hook_point point);
/* Run the hook at .hooks.<point>[index] from fd (an O_PATH fd of the file
 * the policy judged, hook_file.h; ward keeps a close-on-exec copy) rather
 * than by its path, which names whatever is there when it runs. For the
 * hooks of a create; hooks_unpin_all closes the copies. */
int hooks_pin(enum oci_hook_point point, size_t index, int fd, struct werror *err);
void hooks_unpin_all(void);
/* Whether create has a hook round: the init stops before pivot_root, the
 * parent runs prestart and createRuntime, then the init runs
 * createContainer (and learns its host pid for startContainer). The parent
 * and the init both decide with this one function: if they disagreed,
 * create would deadlock. */
bool hooks_create_round(const struct oci_config *c);
const char *hooks_point_name(enum oci_hook_point point);

#endif
