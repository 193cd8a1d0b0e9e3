/* What create hands on of the policy's decisions: the hooks pinned to the
 * fds the policy judged, and the run supervisor's plan. */
#include "container/ops/op_create_plan.h"
#include "hooks/hooks.h"
#include "lib/sha256.h"
#include "supervisor/supervisor.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Outside compat each hook runs from the fd the policy judged, not from
 * whatever its path names when it runs (startContainer's resolve in the
 * container and are not opened here). */
int create_pin_hooks(const struct host_facts *h, struct werror *err)
{
	for (int p = 0; p < HOOK_POINTS; p++)
		for (size_t i = 0; i < h->hooks.n[p]; i++)
			if (h->hooks.file[p][i].fd >= 0 &&
			    hooks_pin((enum oci_hook_point)p, i, h->hooks.file[p][i].fd, err) < 0)
				return -1;
	return 0;
}

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
	return 0;
}
