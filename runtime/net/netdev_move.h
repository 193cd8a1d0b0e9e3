/* linux.netDevices applied (config-linux.md "Network Devices"): each host
 * device moved into the container's new network namespace, renamed when
 * asked, its permanent global addresses kept, and set up. The spec has
 * the runtime leave the device there at delete (the kernel gives a
 * physical device back to the host when the namespace goes and destroys
 * a virtual one); only a create that fails gives them back itself. */
#ifndef WARD_NET_NETDEV_MOVE_H
#define WARD_NET_NETDEV_MOVE_H

#include "lib/error.h"

#include <sys/types.h>

#include "oci/netdev.h"

struct netdev_addrs;

struct netdev_moved {
	const struct oci_net_device *dev;
	int inner_index;            /* its ifindex inside */
	unsigned host_flags;        /* IFF_UP as it was on the host */
	struct netdev_addrs *addrs; /* its permanent global addresses */
};

struct netdev_moves {
	struct netdev_moved *m;
	size_t n;
	int netns;  /* the container's network namespace, while moving */
	int hostns; /* ward's */
};

/* Move every device of d into pid's network namespace (which must not be
 * ward's own). Records what moved in *mv, also on failure. -1 with werr
 * naming the device's JSON path. */
int netdevs_move(const struct oci_net_devices *d, pid_t pid, struct netdev_moves *mv,
                 struct werror *err);
/* A failed create: the devices moved go back to ward's network namespace
 * under their host names. Best effort (the error already told is kept). */
void netdevs_give_back(struct netdev_moves *mv);
void netdevs_forget(struct netdev_moves *mv);

#endif
