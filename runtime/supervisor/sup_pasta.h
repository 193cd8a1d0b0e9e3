/* pasta (Debian's passt) for a strict container run by hand with an egress
 * allow-list: the supervisor starts it, while still root, on the init's
 * network namespace (the container's own), with its interface configured,
 * no port forwarded either way (-t/-u/-T/-U none: the container's loopback
 * never reaches the host's) and the gateway not mapped to the host
 * (--no-map-gw); DNS only through its forwarding address, which only the
 * DNS gate may reach. It is the supervisor's child with a parent-death
 * signal, killed when the supervisor ends and by the guard when the
 * supervisor dies: it never outlives the container's run. */
#ifndef WARD_SUP_PASTA_H
#define WARD_SUP_PASTA_H

#include "lib/error.h"

#include <sys/types.h>

struct sup_pasta {
	pid_t pid;
	int pidfd; /* -1: none */
};

/* Start pasta on the network namespace of the process init_pidfd names and
 * wait until that namespace has its default route. dns: the resolver pasta
 * forwards to ("" or NULL: the host's). -1 with werr (nothing left). */
int sup_pasta_start(struct sup_pasta *p, int init_pidfd, const char *dns, struct werror *err);
/* Kill and reap it (none: nothing). */
void sup_pasta_stop(struct sup_pasta *p);

#endif
