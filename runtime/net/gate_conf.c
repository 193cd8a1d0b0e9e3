/* The DNS gate's file in the state dir (gate_conf.h). One line a fact:
 *
 *   listen 127.53.1.2
 *   upstream 10.0.0.1
 *   allow 3 registry.example:443     (protocol bits, then the rule)
 *   deny 7 169.254.169.254:*
 *
 * The rules in the plan's order and with their exact protocol bits: the
 * gate computes the same port sets egress_load wrote, by index. */
#include "net/gate_conf.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "lib/fileio.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

void gate_listen_addr(const char *id, struct in_addr *a)
{
	uint32_t h = 2166136261u; /* FNV-1a */

	for (const char *s = id; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	a->s_addr = htonl(127u << 24 | 53u << 16 | (1 + (h >> 8) % 254) << 8 | (1 + h % 254));
}

static int put(char **buf, size_t *len, size_t *cap, const char *line, struct werror *err)
{
	size_t l = strlen(line);

	if (*len + l + 1 > *cap) {
		char *m = realloc(*buf, *cap + l + 4096);

		if (m == NULL)
			return werr(err, ENOMEM, "out of memory");
		*buf = m;
		*cap += l + 4096;
	}
	memcpy(*buf + *len, line, l + 1);
	*len += l;
	return 0;
}

int gate_conf_write(int dirfd, const struct gate_conf *c, struct werror *err)
{
	char line[400], a[INET6_ADDRSTRLEN], rule[300], *buf = NULL;
	size_t len = 0, cap = 0;
	int r = 0;

	inet_ntop(AF_INET, &c->listen, a, sizeof(a));
	snprintf(line, sizeof(line), "nameserver %s\n", a);
	if (atomic_write_at(dirfd, GATE_RESOLV_FILE,
	                    (struct iovec[]){{.iov_base = line, .iov_len = strlen(line)}}, 1, 0644,
	                    "the container's resolv.conf", err) < 0)
		return -1;
	/* Whatever ward's umask: the container's users read it (a user
	 * namespace's root too, to whom root's file is another's). */
	if (fchmodat(dirfd, GATE_RESOLV_FILE, 0644, 0) < 0)
		return werr(err, errno, "the container's resolv.conf");
	snprintf(line, sizeof(line), "listen %s\n", a);
	r = put(&buf, &len, &cap, line, err);
	for (size_t i = 0; r == 0 && i < c->up.n; i++) {
		dns_upstream_str(&c->up.a[i], a, sizeof(a));
		snprintf(line, sizeof(line), "upstream %s\n", a);
		r = put(&buf, &len, &cap, line, err);
	}
	for (int d = 0; d < 2; d++) {
		const struct egress_rule *v = d ? c->plan.deny : c->plan.allow;
		size_t n = d ? c->plan.n_deny : c->plan.n_allow;

		for (size_t i = 0; r == 0 && i < n; i++) {
			egress_rule_format(&v[i], rule, sizeof(rule));
			snprintf(line, sizeof(line), "%s %u %s\n", d ? "deny" : "allow",
			         (unsigned)v[i].protos, rule);
			r = put(&buf, &len, &cap, line, err);
		}
	}
	if (r == 0)
		r = atomic_write_at(dirfd, GATE_CONF_FILE,
		                    (struct iovec[]){{.iov_base = buf, .iov_len = len}}, 1, 0600,
		                    "the DNS gate's plan", err);
	free(buf);
	return r;
}

static int parse_line(struct gate_conf *c, char *l, struct werror *err)
{
	char *sp = strchr(l, ' '), *rest, why[160];
	struct egress_rule rule;
	unsigned protos;
	int off = 0;

	if (sp == NULL)
		return -1;
	*sp = '\0';
	rest = sp + 1;
	if (strcmp(l, "listen") == 0)
		return inet_pton(AF_INET, rest, &c->listen) == 1 ? 0 : -1;
	if (strcmp(l, "upstream") == 0)
		return dns_upstream_add(&c->up, rest);
	if ((strcmp(l, "allow") != 0 && strcmp(l, "deny") != 0) ||
	    sscanf(rest, "%u %n", &protos, &off) != 1 || off == 0 ||
	    egress_rule_parse(rest + off, &rule, why, sizeof(why)) < 0)
		return -1;
	rule.protos = (uint8_t)protos;
	return egress_plan_add(&c->plan, strcmp(l, "deny") == 0, &rule, err);
}

int gate_conf_read(int dirfd, struct gate_conf *c, struct werror *err)
{
	_cleanup_close_ int fd = openat(dirfd, GATE_CONF_FILE, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	char *buf = NULL, *save = NULL;
	size_t n;
	int r = 0;

	memset(c, 0, sizeof(*c));
	if (fd < 0)
		return errno == ENOENT ? 0 : werr(err, errno, "the DNS gate's plan");
	r = read_fd(fd, "the DNS gate's plan", 4 << 20, &buf, &n, err);
	if (r < 0)
		return -1;
	for (char *l = strtok_r(buf, "\n", &save); r == 0 && l; l = strtok_r(NULL, "\n", &save))
		if (parse_line(c, l, err) < 0)
			r = werr(err, EINVAL, "the DNS gate's plan: a malformed line");
	free(buf);
	if (r < 0) {
		egress_plan_free(&c->plan);
		return -1;
	}
	return 1;
}
