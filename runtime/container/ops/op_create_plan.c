/* What create hands on of the policy's decisions: the hooks pinned to the
 * fds the policy judged, and the run supervisor's plan. */
#include "container/ops/op_create_plan.h"
#include "hooks/hooks.h"
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

static void upstreams(const struct policy_run *pr, const struct oci_config *cfg,
                      struct dns_upstreams *up, struct werror *err);

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

		upstreams(pr, cfg, &up, err);
		for (size_t i = 0; i < up.n && !sp->pasta_dns[0]; i++)
			if (dns_upstream_loopback(&up.a[i]))
				dns_upstream_str(&up.a[i], sp->pasta_dns, sizeof(sp->pasta_dns));
	}
	return 0;
}

/* The resolv.conf the container would have had, opened read-only: the
 * config's bind of /etc/resolv.conf (from the fd the policy judged), else
 * the rootfs's (resolved inside it), else the host's. -1 if none. */
static int resolv_source(const struct policy_run *pr, const struct oci_config *cfg)
{
	const struct host_facts *h = &pr->facts;
	char path[64];

	for (size_t i = cfg->n_mounts; i-- > 0;)
		if (i < h->n_mounts && h->mounts[i].resolved && S_ISREG(h->mounts[i].st.st_mode) &&
		    strcmp(cfg->mounts[i].destination, "/etc/resolv.conf") == 0) {
			snprintf(path, sizeof(path), "/proc/self/fd/%d", h->mounts[i].fd);
			return open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		}
	/* The image's: looked at before it is opened (a device node there
	 * is never opened by the host's root). */
	if (h->root.resolved) {
		int p = root_open(h->root.fd, "etc/resolv.conf", O_PATH), fd = -1;
		struct stat st;

		if (p >= 0 && fstat(p, &st) == 0 && S_ISREG(st.st_mode)) {
			snprintf(path, sizeof(path), "/proc/self/fd/%d", p);
			fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		}
		if (p >= 0)
			close(p);
		if (fd >= 0)
			return fd;
	}
	return open("/etc/resolv.conf", O_RDONLY | O_CLOEXEC | O_NONBLOCK);
}

/* The upstream resolvers the container would have had. */
static void upstreams(const struct policy_run *pr, const struct oci_config *cfg,
                      struct dns_upstreams *up, struct werror *err)
{
	int fd = resolv_source(pr, cfg);
	char *text = NULL;
	struct stat st;
	size_t n;

	memset(up, 0, sizeof(*up));
	/* None, or not a file: no upstream (the gate answers SERVFAIL and
	 * says why in the report). */
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    read_fd(fd, "resolv.conf", 64 << 10, &text, &n, err) == 0)
		dns_resolv_parse(text, up);
	else
		werr_clear(err);
	if (fd >= 0)
		close(fd);
	free(text);
}

int create_gate_plan(const struct policy_run *pr, const struct oci_config *cfg, const char *id,
                     struct gate_conf *gc, bool *on, struct werror *err)
{
	int r = 0;

	memset(gc, 0, sizeof(*gc));
	*on = pr->x.egress.enforce && pr->x.supervise && gate_plan_has_names(&pr->x.egress);
	if (!*on)
		return 0;
	gate_listen_addr(id, &gc->listen);
	upstreams(pr, cfg, &gc->up, err);
	/* Through pasta, one on the host's loopback is its forwarding address
	 * (create_sup_plan names it to pasta). */
	for (size_t i = 0; pr->x.egress.pasta && i < gc->up.n; i++)
		if (dns_upstream_loopback(&gc->up.a[i])) {
			gc->up.n = i;
			dns_upstream_add(&gc->up, DNS_PASTA_FORWARD);
			break;
		}
	if (pr->x.egress.pasta && gc->up.n == 0)
		dns_upstream_add(&gc->up, DNS_PASTA_FORWARD);
	for (size_t i = 0; r == 0 && i < pr->x.egress.n_allow; i++)
		r = egress_plan_add(&gc->plan, false, &pr->x.egress.allow[i], err);
	for (size_t i = 0; r == 0 && i < pr->x.egress.n_deny; i++)
		r = egress_plan_add(&gc->plan, true, &pr->x.egress.deny[i], err);
	if (r < 0)
		egress_plan_free(&gc->plan);
	return r;
}
