/* What create hands on of the policy's decisions: the hooks pinned to the
 * fds the policy judged, and the run supervisor's plan. */
#include "container/ops/op_create_plan.h"
#include "hooks/hooks.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "lib/fileio.h"
#include "linux/pathres.h"
#include "net/gate_conf.h"
#include "net/gate_map.h"
#include "lib/sha256.h"
#include "supervisor/supervisor.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Outside compat each hook runs from the fd the policy judged, not from
 * whatever its path names when it runs (startContainer's resolve in the
 * container and are not opened here). */
int create_pin_hooks(const struct host_facts *h, struct hook_pins *pins, struct werror *err)
{
	for (int p = 0; p < HOOK_POINTS; p++)
		for (size_t i = 0; i < h->hooks.n[p]; i++)
			if (h->hooks.file[p][i].fd >= 0 &&
			    hooks_pin(pins, (enum oci_hook_point)p, i, h->hooks.file[p][i].fd,
			              err) < 0)
				return -1;
	return 0;
}

static void upstreams(const struct policy_run *pr, struct dns_upstreams *up);

/* What the supervisor is to do, as the policy decided. */
int create_sup_plan(const struct globals *g, const struct policy_run *pr,
                    const struct oci_config *cfg, const char *bundle, struct sup_plan *sp,
                    struct werror *err)
{
	const struct oci_seccomp *sc = cfg->linux ? cfg->linux->seccomp : NULL;

	memset(sp, 0, sizeof(*sp));
	sp->timeout_ms = pr->x.timeout_ms;
	sp->grace_ms = policy_timeout_grace_ms(pr->pol);
	snprintf(sp->timeout_from, sizeof(sp->timeout_from), "%s", pr->x.timeout_from);
	snprintf(sp->profile, sizeof(sp->profile), "%s", profile_name(pr->x.profile));
	if (pr->pol_text)
		sha256_hex(pr->pol_text, pr->pol_len, sp->policy_digest);
	if (sup_report_dir(pr->pol->report_dir, g->root, sp->report_dir, sizeof(sp->report_dir),
	                   err) < 0)
		return -1;
	sp->report_keep = policy_report_keep(pr->pol);
	sp->record_denied = pr->x.record_denied;
	sp->errno_ret = sc && sc->has_default_errno_ret ? (int)sc->default_errno_ret : EPERM;
	if (sc == NULL)
		snprintf(sp->denied_off, sizeof(sp->denied_off),
		         "the container has no seccomp filter");
	else if (sc->listener_path && sc->listener_path[0])
		snprintf(sp->denied_off, sizeof(sp->denied_off),
		         "the config's own seccomp agent (listenerPath) holds the listener");
	else if (!sp->record_denied)
		snprintf(sp->denied_off, sizeof(sp->denied_off),
		         "the filter's default action is %s, not SCMP_ACT_ERRNO",
		         sc->default_action);
	snprintf(sp->bundle, sizeof(sp->bundle), "%s", bundle);
	sp->pasta = pr->x.egress.pasta;
	if (sp->pasta) {
		struct dns_upstreams up;

		upstreams(pr, &up);
		for (size_t i = 0; i < up.n && !sp->pasta_dns[0]; i++)
			if (dns_upstream_loopback(&up.a[i]))
				dns_upstream_str(&up.a[i], sp->pasta_dns, sizeof(sp->pasta_dns));
	}
	return 0;
}

/* The resolvers the DNS gate asks: the operator's - the policy's
 * dnsUpstreams, else the host's /etc/resolv.conf - never the container's.
 * Its config's bind of /etc/resolv.conf or its image's file would let it
 * pick the resolver whose answers open the allow map (any address for an
 * allowed name). None usable: the gate answers SERVFAIL. */
static void upstreams(const struct policy_run *pr, struct dns_upstreams *up)
{
	_cleanup_close_ int fd = -1;
	_cleanup_free_ char *text = NULL;
	struct stat st;
	size_t n;

	memset(up, 0, sizeof(*up));
	if (pr->pol && pr->pol->n_dns_upstreams) {
		for (size_t i = 0; i < pr->pol->n_dns_upstreams; i++)
			dns_upstream_add(up, pr->pol->dns_upstreams[i]);
		return;
	}
	fd = open("/etc/resolv.conf", O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    read_fd(fd, "resolv.conf", 64 << 10, &text, &n, NULL) == 0)
		dns_resolv_parse(text, up);
}

/* Keep the upstreams the gate may ask from the container's network
 * namespace: one on loopback or unspecified (0.0.0.0, ::) would be the
 * container's own there (it could answer itself), except the host's own
 * resolver through pasta, which pasta forwards to (DNS_PASTA_FORWARD). */
static void upstreams_reachable(struct dns_upstreams *up, bool pasta)
{
	struct dns_upstreams kept = {0};
	bool forward = false;

	for (size_t i = 0; i < up->n; i++) {
		char s[64];

		if (pasta && dns_upstream_loopback(&up->a[i])) {
			forward = true;
			continue;
		}
		if (dns_upstream_local(&up->a[i]))
			continue;
		dns_upstream_str(&up->a[i], s, sizeof(s));
		dns_upstream_add(&kept, s);
	}
	if (forward || (pasta && kept.n == 0))
		dns_upstream_add(&kept, DNS_PASTA_FORWARD);
	*up = kept;
}

int create_gate_plan(const struct policy_run *pr, const char *id, struct gate_conf *gc, bool *on,
                     struct werror *err)
{
	int r = 0;

	memset(gc, 0, sizeof(*gc));
	*on = pr->x.egress.enforce && pr->x.supervise && gate_plan_has_names(&pr->x.egress);
	if (!*on)
		return 0;
	gate_listen_addr(id, &gc->listen);
	upstreams(pr, &gc->up);
	/* Through pasta, one on the host's loopback is its forwarding address
	 * (create_sup_plan names it to pasta). */
	upstreams_reachable(&gc->up, pr->x.egress.pasta);
	for (size_t i = 0; r == 0 && i < pr->x.egress.n_allow; i++)
		r = egress_plan_add(&gc->plan, false, &pr->x.egress.allow[i], err);
	for (size_t i = 0; r == 0 && i < pr->x.egress.n_deny; i++)
		r = egress_plan_add(&gc->plan, true, &pr->x.egress.deny[i], err);
	if (r < 0)
		egress_plan_free(&gc->plan);
	return r;
}
