/* Changing a parsed config in memory (the policy's adjustments). Every
 * string and array is heap-allocated as the decoder does, so
 * oci_config_free() frees what these add. */
#ifndef WARD_CONFIG_EDIT_H
#define WARD_CONFIG_EDIT_H

#include "lib/error.h"

#include <stdbool.h>

#include "oci/config.h"

/* Append a copy of s to a NULL-terminated string vector. */
int cfg_strv_add(char ***v, size_t *n, const char *s, struct werror *err);
bool cfg_strv_has(char *const *v, size_t n, const char *s);
struct oci_linux *cfg_linux(struct oci_config *c, struct werror *err);
struct oci_resources *cfg_resources(struct oci_config *c, struct werror *err);
int cfg_ns_add(struct oci_config *c, int flag, struct werror *err);
/* opts: NULL-terminated. */
int cfg_mount_add(struct oci_config *c, const char *dest, const char *type, const char *source,
                  const char *const *opts, struct werror *err);
/* Set (or add) an rlimit. */
int cfg_rlimit_set(struct oci_process *p, const char *type, int resource, uint64_t soft,
                   uint64_t hard, struct werror *err);

#endif
