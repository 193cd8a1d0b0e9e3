/* The egress programs loaded and attached (egress_bpf.h). The object is the
 * skeleton bpftool generated at build time from net/bpf/egress.bpf.c: it is
 * inside the ward binary, so nothing is read from disk at create. */
#include "net/egress_bpf.h"
#include "lib/error.h"
#include "lib/log.h"
#include "net/bpf/egress.skel.h"
#include "net/gate_map.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* libbpf's own messages go to ward's debug log, not to the caller's stderr. */
static int libbpf_log(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char line[512];

	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(line, sizeof(line), fmt, ap);
	log_debug("libbpf: %s", line);
	return 0;
}

/* The allow map's entries and the port sets they name (egress_plan.h). */
static int fill_maps(const struct egress_bpf *s, const struct egress_entries *e, struct werror *err)
{
	int fd = bpf_map__fd(s->maps.allow), sfd = bpf_map__fd(s->maps.ports);

	/* Set 0 is the empty one: the array map starts zeroed. */
	for (__u32 i = 1; i < e->n_sets; i++)
		if (bpf_map_update_elem(sfd, &i, &e->sets[i], BPF_ANY) < 0)
			return werr(err, errno, "egress: filling the port sets");
	for (size_t i = 0; i < e->n; i++)
		if (bpf_map_update_elem(fd, &e->keys[i], &e->vals[i], BPF_NOEXIST) < 0)
			return werr(err, errno, "egress: filling the allow map");
	return 0;
}

int egress_load(const struct egress_plan *p, bool record, struct egress_loaded *out,
                struct werror *err)
{
	struct egress_bpf *s;
	struct egress_entries e;
	int r = -1;

	out->skel = NULL;
	out->record = record;
	out->sockets = p->tcp_udp_only;
	out->gate = record && gate_plan_has_names(p);
	if (egress_plan_entries(p, &e, err) < 0)
		return -1;
	libbpf_set_print(libbpf_log);
	s = egress_bpf__open();
	if (s == NULL) {
		egress_entries_free(&e);
		return werr(err, errno, "egress: opening the BPF object");
	}
	/* The port sets' array as small as the plan (with the gate's spare
	 * slots); no counters or ring buffer when no supervisor reads them
	 * (egress.bpf.c, recording). */
	s->rodata->recording = record;
	/* The socket gate, verified only where it will be attached. */
	if (bpf_program__set_autoload(s->progs.egress_sock_create, p->tcp_udp_only) < 0 ||
	    bpf_map__set_max_entries(s->maps.ports,
	                             (__u32)(e.n_sets + (out->gate ? GATE_SPARE_SETS : 0))) < 0 ||
	    (!record && (bpf_map__set_autocreate(s->maps.events, false) < 0 ||
	                 bpf_map__set_autocreate(s->maps.counters, false) < 0)))
		werr(err, EINVAL, "egress: sizing the BPF maps");
	else if (egress_bpf__load(s) < 0)
		werr(err, errno,
		     "egress: loading the BPF programs (ward needs CAP_BPF and "
		     "CAP_NET_ADMIN for them)");
	else
		r = fill_maps(s, &e, err);
	egress_entries_free(&e);
	if (r < 0)
		egress_bpf__destroy(s);
	else
		out->skel = s;
	return r;
}

int egress_attach(int cgfd, const struct egress_loaded *l, struct egress_fds *out,
                  struct werror *err)
{
	const struct egress_bpf *s = l->skel;
	const struct {
		struct bpf_program *prog;
		enum bpf_attach_type type;
	} at[6] = {
	    {s->progs.egress_connect4, BPF_CGROUP_INET4_CONNECT},
	    {s->progs.egress_connect6, BPF_CGROUP_INET6_CONNECT},
	    {s->progs.egress_sendmsg4, BPF_CGROUP_UDP4_SENDMSG},
	    {s->progs.egress_sendmsg6, BPF_CGROUP_UDP6_SENDMSG},
	    {s->progs.egress_setsockopt, BPF_CGROUP_SETSOCKOPT},
	    {s->progs.egress_sock_create, BPF_CGROUP_INET_SOCK_CREATE},
	};
	size_t done = 0, n = l->sockets ? 6 : 5;

	out->events = out->counters = out->allow = out->ports = -1;
	for (; done < n; done++)
		if (bpf_prog_attach(bpf_program__fd(at[done].prog), cgfd, at[done].type,
		                    BPF_F_ALLOW_MULTI) < 0) {
			werr(err, errno,
			     "egress: attaching the BPF programs to the container's cgroup2 node");
			goto fail;
		}
	if (!l->record)
		return 0;
	out->events = fcntl(bpf_map__fd(s->maps.events), F_DUPFD_CLOEXEC, 3);
	out->counters = fcntl(bpf_map__fd(s->maps.counters), F_DUPFD_CLOEXEC, 3);
	if (l->gate) {
		out->allow = fcntl(bpf_map__fd(s->maps.allow), F_DUPFD_CLOEXEC, 3);
		out->ports = fcntl(bpf_map__fd(s->maps.ports), F_DUPFD_CLOEXEC, 3);
	}
	if (out->events >= 0 && out->counters >= 0 &&
	    (!l->gate || (out->allow >= 0 && out->ports >= 0)))
		return 0;
	werr(err, errno, "egress: keeping the event maps");
fail:
	/* Nothing half-attached stays behind. */
	while (done-- > 0)
		bpf_prog_detach2(bpf_program__fd(at[done].prog), cgfd, at[done].type);
	egress_fds_close(out);
	return -1;
}

void egress_unload(struct egress_loaded *l)
{
	egress_bpf__destroy(l->skel);
	l->skel = NULL;
}

void egress_fds_close(struct egress_fds *f)
{
	if (f->events >= 0)
		close(f->events);
	if (f->counters >= 0)
		close(f->counters);
	if (f->allow >= 0)
		close(f->allow);
	if (f->ports >= 0)
		close(f->ports);
	f->events = f->counters = f->allow = f->ports = -1;
}
