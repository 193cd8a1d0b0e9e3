/* Capabilities via capset/prctl directly (no libcap). */
#ifndef WARD_CAPS_H
#define WARD_CAPS_H

#include "lib/error.h"

#include <stdint.h>

#include "oci/config.h"

/* Drop every capability not in keep from the bounding set (needs
 * CAP_SETPCAP: call before changing uid). */
int caps_drop_bounding(uint64_t keep, struct werror *err);
/* Set effective, permitted and inheritable, then the ambient set. An absent
 * capabilities object means no capabilities at all. */
int caps_set(const struct oci_caps *c, struct werror *err);

#endif
