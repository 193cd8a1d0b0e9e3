/* The egress programs loaded and attached (egress_bpf.h). The object is the
 * skeleton bpftool generated at build time from net/bpf/egress.bpf.c: it is
 * inside the ward binary, so nothing is read from disk at create. */
#include "net/egress_bpf.h"
#include "lib/error.h"
#include "lib/log.h"
#include "net/bpf/egress.skel.h"

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

static int fill_map(const struct egress_bpf *s, const struct egress_plan *p)
{
	struct egress_key *keys;
	struct egress_verdict *vals;
	size_t n;
	int fd = bpf_map__fd(s->maps.allow), r = 0;

	if (egress_plan_entries(p, &keys, &vals, &n) < 0)
		return -1;
	for (size_t i = 0; r == 0 && i < n; i++)
		if (bpf_map_update_elem(fd, &keys[i], &vals[i], BPF_NOEXIST) < 0)
			r = werr(errno, "egress: filling the allow map");
	free(keys);
	free(vals);
	return r;
}

int egress_attach(int cgfd, const struct egress_plan *p, struct egress_fds *out)
{
	struct egress_bpf *s;
	struct {
		struct bpf_program *prog;
		enum bpf_attach_type type;
	} at[4];
	size_t done = 0;
	int r = -1;

	out->events = out->counters = -1;
	libbpf_set_print(libbpf_log);
	s = egress_bpf__open_and_load();
	if (s == NULL)
		return werr(errno, "egress: loading the BPF programs (ward needs CAP_BPF and "
		                   "CAP_NET_ADMIN for them)");
	if (fill_map(s, p) < 0)
		goto out;
	at[0].prog = s->progs.egress_connect4;
	at[0].type = BPF_CGROUP_INET4_CONNECT;
	at[1].prog = s->progs.egress_connect6;
	at[1].type = BPF_CGROUP_INET6_CONNECT;
	at[2].prog = s->progs.egress_sendmsg4;
	at[2].type = BPF_CGROUP_UDP4_SENDMSG;
	at[3].prog = s->progs.egress_sendmsg6;
	at[3].type = BPF_CGROUP_UDP6_SENDMSG;
	for (; done < 4; done++)
		if (bpf_prog_attach(bpf_program__fd(at[done].prog), cgfd, at[done].type,
		                    BPF_F_ALLOW_MULTI) < 0) {
			werr(errno,
			     "egress: attaching the BPF programs to the container's cgroup2 node");
			goto out;
		}
	out->events = fcntl(bpf_map__fd(s->maps.events), F_DUPFD_CLOEXEC, 3);
	out->counters = fcntl(bpf_map__fd(s->maps.counters), F_DUPFD_CLOEXEC, 3);
	if (out->events < 0 || out->counters < 0) {
		werr(errno, "egress: keeping the event maps");
		goto out;
	}
	r = 0;
out:
	if (r < 0) {
		/* Nothing half-attached stays behind. */
		while (done-- > 0)
			bpf_prog_detach2(bpf_program__fd(at[done].prog), cgfd, at[done].type);
		egress_fds_close(out);
	}
	egress_bpf__destroy(s);
	return r;
}

void egress_fds_close(struct egress_fds *f)
{
	if (f->events >= 0)
		close(f->events);
	if (f->counters >= 0)
		close(f->counters);
	f->events = f->counters = -1;
}
