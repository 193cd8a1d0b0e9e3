/* Capabilities via capset/prctl directly (no libcap). */
#ifndef WARD_CAPS_H
#define WARD_CAPS_H

#include <stdint.h>

#include "oci/config.h"

/* Drop every capability not in keep from the bounding set (needs
 * CAP_SETPCAP: call before changing uid). */
int caps_drop_bounding(uint64_t keep);
/* Set effective, permitted and inheritable, then the ambient set. An absent
 * capabilities object means no capabilities at all. */
int caps_set(const struct oci_caps *c);

#endif
