/* linux.netDevices (runtime-spec 1.3, config-linux.md "Network Devices"):
 * host network devices moved into the container's network namespace, by
 * their host name, with an optional name inside. */
#ifndef WARD_OCI_NETDEV_H
#define WARD_OCI_NETDEV_H

#include "lib/error.h"

#include <stddef.h>

#include "lib/jwalk.h"

struct oci_net_device {
	char *host; /* the entry's key */
	char *name; /* inside the container; NULL: the host's */
};

struct oci_net_devices {
	struct oci_net_device *dev;
	size_t n;
};

/* JK_CUSTOM decoder of the object (dst: struct oci_net_devices). */
int oci_netdevs_decode(yajl_val v, const struct jpath *p, void *dst, struct werror *err);
void oci_netdevs_free(struct oci_net_devices *d);
/* The name the device gets inside (its "name", else the host's). */
const char *oci_netdev_inner(const struct oci_net_device *d);

#endif
