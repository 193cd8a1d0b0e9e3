/* What create tells the DNS gate, through a file of the state dir: the
 * address it listens on in the container's network namespace, the
 * upstream resolvers, and the egress plan (its name rules, and the
 * address rules a granted address's verdict joins). The container's
 * resolv.conf, naming the gate, is made beside it. */
#ifndef WARD_NET_GATE_CONF_H
#define WARD_NET_GATE_CONF_H

#include "lib/error.h"

#include <netinet/in.h>

#include "net/dns_upstream.h"
#include "net/egress_plan.h"

#define GATE_CONF_FILE   "dns-gate"    /* in the state dir */
#define GATE_RESOLV_FILE "resolv.conf" /* in the state dir, bound in */

struct gate_conf {
	struct in_addr listen;
	struct dns_upstreams up;
	struct egress_plan plan;
};

/* The gate's address for container id: 127.53.X.Y, X and Y from a hash of
 * the id (1-254), so that containers sharing a network namespace (a pod's)
 * rarely ask for the same one; a clash fails create, never shares. */
void gate_listen_addr(const char *id, struct in_addr *a);
/* Both files into dirfd; -1 with werr. */
int gate_conf_write(int dirfd, const struct gate_conf *c, struct werror *err);
/* 1 and c filled; 0 when dirfd has no gate file (no gate); -1 with werr. */
int gate_conf_read(int dirfd, struct gate_conf *c, struct werror *err);

#endif
