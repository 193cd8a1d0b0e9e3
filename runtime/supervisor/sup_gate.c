/* The supervisor's DNS gate (sup_gate.h). */
#include "supervisor/sup_gate.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "net/gate_conf.h"

#include <arpa/inet.h>
#include <bpf/bpf.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/bpf.h>
#include <poll.h>
#include <seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define READY_MS  5000
#define NOBODY    65534
#define GATE_PORT 53
#define FD_CHAN   3 /* the gate's own fds, once it has closed the rest */
#define FD_INIT   4
#define FD_ALLOW  5
#define FD_PORTS  6

struct bpf_maps {
	int allow, ports;
};

static int map_update(void *ctx, const struct egress_key *k, const struct egress_verdict *v)
{
	return bpf_map_update_elem(((struct bpf_maps *)ctx)->allow, k, v, BPF_ANY);
}

static int map_remove(void *ctx, const struct egress_key *k)
{
	return bpf_map_delete_elem(((struct bpf_maps *)ctx)->allow, k);
}

static int set_write(void *ctx, uint32_t idx, const struct egress_ports *p)
{
	return bpf_map_update_elem(((struct bpf_maps *)ctx)->ports, &idx, p, BPF_ANY);
}

/* A listener on the gate's address, port 53. IP_FREEBIND: a namespace
 * whose loopback is down still gets one (nothing reaches it there). */
static int listener(const struct in_addr *a, int type)
{
	struct sockaddr_in sa = {
	    .sin_family = AF_INET, .sin_port = htons(GATE_PORT), .sin_addr = *a};
	_cleanup_close_ int fd = socket(AF_INET, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	int one = 1;

	if (fd < 0 || setsockopt(fd, IPPROTO_IP, IP_FREEBIND, &one, sizeof(one)) < 0 ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    (type == SOCK_STREAM && listen(fd, 16) < 0))
		return -1;
	return TAKE_FD(fd);
}

/* The gate parses what the container sends: once it serves, a filter
 * leaves it only the calls it makes (a socket of the IP families, the two
 * map writes of bpf(2), ...); anything else kills it, and with it the
 * container (the supervisor's rule for a gate that dies). */
static int confine(void)
{
	static const char *const calls[] = {
	    "read",      "write",      "close",      "poll",          "ppoll",
	    "recvfrom",  "recvmsg",    "sendto",     "sendmsg",       "accept4",
	    "connect",   "getsockopt", "getrandom",  "clock_gettime", "clock_nanosleep",
	    "nanosleep", "exit",       "exit_group", "rt_sigreturn",  "restart_syscall",
	    "brk",       "mmap",       "munmap",     "mremap",        "madvise",
	    "mprotect",  "futex"};
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_KILL_PROCESS);
	int r = ctx ? 0 : -1;

	for (size_t i = 0; r == 0 && i < sizeof(calls) / sizeof(calls[0]); i++) {
		int nr = seccomp_syscall_resolve_name(calls[i]);

		if (nr != __NR_SCMP_ERROR)
			r = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0);
	}
	if (r == 0)
		r = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(socket), 1,
		                     SCMP_A0(SCMP_CMP_EQ, AF_INET));
	if (r == 0)
		r = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(socket), 1,
		                     SCMP_A0(SCMP_CMP_EQ, AF_INET6));
	if (r == 0)
		r = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(bpf), 1,
		                     SCMP_A0(SCMP_CMP_EQ, BPF_MAP_UPDATE_ELEM));
	if (r == 0)
		r = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(bpf), 1,
		                     SCMP_A0(SCMP_CMP_EQ, BPF_MAP_DELETE_ELEM));
	if (r == 0)
		r = seccomp_load(ctx);
	if (ctx)
		seccomp_release(ctx);
	return r;
}

static _Noreturn void fail(const char *what)
{
	char msg[200];
	int n = snprintf(msg, sizeof(msg), "Ethe DNS gate: %s: %s", what, strerror(errno));

	if (send(FD_CHAN, msg, (size_t)n, MSG_NOSIGNAL) < 0)
		_exit(1);
	_exit(1);
}

/* The gate process: only its four fds, the container's network namespace,
 * then nobody with nothing. */
static _Noreturn void gate_main(pid_t parent, int chan, int init, int allow, int ports,
                                struct gate_conf *c, struct werror *err)
{
	struct bpf_maps maps;
	struct gate_map_ops ops = {&maps, map_update, map_remove, set_write};
	struct dns_gate g = {.report = FD_CHAN, .up = c->up};
	int from[4] = {chan, init, allow, ports};
	gid_t nogroup = NOBODY;

	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	if (getppid() != parent)
		_exit(1);
	prctl(PR_SET_NAME, "ward-dns-gate", 0, 0, 0);
	for (int i = 0; i < 4; i++)
		if ((from[i] = fcntl(from[i], F_DUPFD_CLOEXEC, 64)) < 0)
			_exit(1);
	for (int i = 0; i < 4; i++)
		if (dup3(from[i], FD_CHAN + i, O_CLOEXEC) < 0)
			_exit(1);
	if (syscall(SYS_close_range, FD_PORTS + 1, ~0U, 0) < 0)
		_exit(1);
	if (setns(FD_INIT, CLONE_NEWNET) < 0)
		fail("entering the container's network namespace");
	close(FD_INIT);
	/* In the container's namespace now: an upstream it has an address of
	 * is one it would answer for itself. */
	dns_upstreams_drop_own(&g.up);
	if ((g.udp = listener(&c->listen, SOCK_DGRAM)) < 0 ||
	    (g.tcp = listener(&c->listen, SOCK_STREAM)) < 0)
		fail("binding its address (another container's gate in this network namespace?)");
	if (setgroups(1, &nogroup) < 0 || setresgid(NOBODY, NOBODY, NOBODY) < 0 ||
	    setresuid(NOBODY, NOBODY, NOBODY) < 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		fail("giving up root");
	maps.allow = FD_ALLOW;
	maps.ports = FD_PORTS;
	if (gate_map_init(&g.map, &c->plan, &ops, err) < 0)
		fail("its map");
	if (confine() < 0)
		fail("its seccomp filter");
	if (send(FD_CHAN, "R", 1, MSG_NOSIGNAL) != 1)
		_exit(1);
	dns_gate_serve(&g);
	_exit(0);
}

/* The gate's first word: "R" ready, or "E<why>". */
static int await_ready(struct gate_log *l, struct werror *err)
{
	struct pollfd p = {.fd = l->chan, .events = POLLIN};
	char msg[256];
	ssize_t n = 0;

	if (poll(&p, 1, READY_MS) == 1)
		n = recv(l->chan, msg, sizeof(msg) - 1, 0);
	if (n == 1 && msg[0] == 'R')
		return 0;
	msg[n > 0 ? n : 0] = '\0';
	return werr(err, 0, "%s", n > 1 && msg[0] == 'E' ? msg + 1 : "the DNS gate did not start");
}

int sup_gate_start(struct gate_log *l, int dirfd, int init_pidfd, int allow_fd, int ports_fd,
                   struct werror *err)
{
	_cleanup_close_ int allow = allow_fd, ports = ports_fd;
	struct gate_conf c;
	pid_t parent = getpid();
	int sp[2], r = gate_conf_read(dirfd, &c, err);

	memset(l, 0, sizeof(*l));
	l->chan = -1;
	l->pid = -1;
	if (r <= 0)
		return r;
	if (allow < 0 || ports < 0) {
		egress_plan_free(&c.plan);
		return werr(err, 0,
		            "the DNS gate has no allow map to write (names cannot be enforced)");
	}
	inet_ntop(AF_INET, &c.listen, l->listen, sizeof(l->listen));
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) < 0) {
		egress_plan_free(&c.plan);
		return werr(err, errno, "the DNS gate's channel");
	}
	l->pid = fork();
	if (l->pid == 0) {
		close(sp[0]);
		gate_main(parent, sp[1], init_pidfd, allow, ports, &c, err);
	}
	close(sp[1]);
	egress_plan_free(&c.plan);
	close(TAKE_FD(allow));
	close(TAKE_FD(ports));
	l->chan = sp[0];
	if (l->pid < 0 || await_ready(l, err) < 0) {
		if (l->pid < 0)
			werr(err, errno, "forking the DNS gate");
		sup_gate_stop(l);
		return -1;
	}
	l->on = true;
	return l->chan;
}

static void count_name(struct gate_log *l, const char *name)
{
	size_t i;

	for (i = 0; i < l->n_names && strcmp(l->names[i].name, name) != 0; i++)
		;
	if (i == l->n_names) {
		if (i == GATE_NAMES_MAX) {
			l->uncounted++;
			return;
		}
		snprintf(l->names[i].name, sizeof(l->names[i].name), "%s", name);
		l->n_names++;
	}
	l->names[i].count++;
}

static void take(struct gate_log *l, const struct gate_record *r)
{
	uint64_t *c = r->kind == GATE_ALLOWED   ? &l->allowed
	              : r->kind == GATE_REFUSED ? &l->refused
	              : r->kind == GATE_EMPTY   ? &l->empty
	              : r->kind == GATE_DENIED  ? &l->denied
	                                        : &l->failed;

	(*c)++;
	if (r->kind == GATE_ALLOWED || r->kind == GATE_EMPTY)
		return;
	if (r->kind == GATE_REFUSED)
		count_name(l, r->name);
	if (l->n_first < GATE_FIRST_MAX)
		l->first[l->n_first++] = *r;
}

void sup_gate_read(struct gate_log *l)
{
	struct gate_record r;
	ssize_t n;

	while (l->chan >= 0 && (n = recv(l->chan, &r, sizeof(r), MSG_DONTWAIT)) != 0) {
		if (n < 0) {
			if (errno != EAGAIN && errno != EINTR) {
				close(l->chan);
				l->chan = -1;
			}
			if (errno != EINTR)
				return;
			continue;
		}
		if ((size_t)n == sizeof(r)) {
			r.name[sizeof(r.name) - 1] = r.why[sizeof(r.why) - 1] = '\0';
			take(l, &r);
		}
	}
	/* The gate ended (0: its end closed). */
	if (l->chan >= 0) {
		close(l->chan);
		l->chan = -1;
	}
}

static int by_count(const void *a, const void *b)
{
	const struct gate_name_count *x = a, *y = b;

	return x->count < y->count ? 1 : x->count > y->count ? -1 : strcmp(x->name, y->name);
}

void sup_gate_stop(struct gate_log *l)
{
	sup_gate_read(l);
	if (l->pid > 0) {
		kill(l->pid, SIGKILL);
		waitpid(l->pid, NULL, 0);
	}
	l->pid = -1;
	if (l->chan >= 0)
		close(l->chan);
	l->chan = -1;
	qsort(l->names, l->n_names, sizeof(l->names[0]), by_count);
}
