#ifndef WARD_OCI_SPEC_H
#define WARD_OCI_SPEC_H

#include <stddef.h>

/* The default config.json `ward spec` writes: a busybox-style `sh` in new
 * namespaces with a read-only root, few capabilities and no_new_privs.
 * The caller frees *out. */
int oci_spec_default(char **out, size_t *len);

#endif
