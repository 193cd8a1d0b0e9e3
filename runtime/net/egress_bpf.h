/* Loading the egress programs and attaching them to a container's cgroup2
 * node with libbpf (issue 26). They are attached with BPF_PROG_ATTACH,
 * never pinned and never through a bpf_link: the cgroup holds the only
 * reference to the programs (and they to their maps), so they live exactly
 * as long as the cgroup, whoever removes it and however ward ends. */
#ifndef WARD_NET_EGRESS_BPF_H
#define WARD_NET_EGRESS_BPF_H

#include "lib/error.h"

#include <stdbool.h>

#include "net/egress_plan.h"

struct egress_bpf; /* the skeleton (net/bpf/egress.skel.h) */

/* Programs loaded and their maps filled, not yet attached. */
struct egress_loaded {
	struct egress_bpf *skel; /* NULL: none */
	bool record;
	bool sockets; /* the socket gate too (egress_plan.tcp_udp_only) */
	bool gate;    /* names in the plan: the DNS gate writes the allow map */
};

/* What the supervisor reads: the ring buffer of refusals and the counters;
 * and what its DNS gate writes, the allow map and the port sets (-1:
 * none). */
struct egress_fds {
	int events, counters, allow, ports;
};

/* Load the programs and fill their maps from the plan. record: a
 * supervisor will read the refusals; else the programs keep no counters
 * or events. Done before the container's cgroup is made: the ~1 ms it
 * takes would otherwise lie between the cgroup's writes and the init's
 * (each such write, after a pause, waits for an RCU grace period: v1's
 * cgroup.procs). -1 with werr. */
int egress_load(const struct egress_plan *p, bool record, struct egress_loaded *out,
                struct werror *err);
/* Attach the four programs (with the socket gate, five) to the cgroup2
 * directory cgfd, alongside others there (BPF_F_ALLOW_MULTI). On success,
 * when recording, out holds the two maps' fds (the caller's), else -1
 * both; with the gate, the allow map's and the port sets' too. On failure nothing stays attached
 * (-1, werr). */
int egress_attach(int cgfd, const struct egress_loaded *l, struct egress_fds *out,
                  struct werror *err);
/* Drop what egress_load made (what is attached stays with the cgroup). */
void egress_unload(struct egress_loaded *l);
/* Close what is open; all -1 afterwards. */
void egress_fds_close(struct egress_fds *f);

#endif
