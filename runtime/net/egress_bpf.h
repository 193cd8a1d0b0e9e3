/* Loading the egress programs and attaching them to a container's cgroup2
 * node with libbpf (issue 26). They are attached with BPF_PROG_ATTACH,
 * never pinned and never through a bpf_link: the cgroup holds the only
 * reference to the programs (and they to their maps), so they live exactly
 * as long as the cgroup, whoever removes it and however ward ends. */
#ifndef WARD_NET_EGRESS_BPF_H
#define WARD_NET_EGRESS_BPF_H

#include <stdbool.h>

#include "net/egress_plan.h"

/* What the supervisor reads: the ring buffer of refusals and the counters
 * (-1: none). */
struct egress_fds {
	int events, counters;
};

/* Load the programs, fill the allow map from the plan, attach all four to
 * the cgroup2 directory cgfd (alongside other programs there:
 * BPF_F_ALLOW_MULTI). record: a supervisor will read the refusals; then on
 * success out holds the two maps' fds (the caller's), else the programs
 * keep no counters or events (-1 both). On failure nothing stays attached
 * (-1, werr). */
int egress_attach(int cgfd, const struct egress_plan *p, bool record, struct egress_fds *out);
/* Close what is open; both -1 afterwards. */
void egress_fds_close(struct egress_fds *f);

#endif
