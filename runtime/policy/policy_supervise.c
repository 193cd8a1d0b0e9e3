/* The run supervisor's part of the policy (issue #14): whether one watches
 * the container (always in strict; in baseline when the container has a
 * wall-clock limit or the policy says "supervise": "always"; never in
 * compat), the limit itself, and whether the filter's denials are handed to
 * the supervisor to be recorded. */
#include "policy/rules.h"
#include "seccomp/seccomp_filter.h"
#include "lib/duration.h"
#include "net/gate_map.h"
#include "oci/config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define ANN_FIELD ".annotations[\"" ANN_TIMEOUT "\"]"

/* The tighter of the limit so far and ms (from where). */
static void tighten(struct policy_ctx *x, long long ms, const char *from)
{
	if (ms > 0 && (x->timeout_ms == 0 || ms < x->timeout_ms)) {
		x->timeout_ms = ms;
		snprintf(x->timeout_from, sizeof(x->timeout_from), "%s", from);
	}
}

/* Denials can be recorded when the filter denies by its default action
 * with an errno (the supervisor answers with that errno instead) and no
 * agent of the config's own holds the listener: a second listener on the
 * same filter chain is refused by the kernel (EBUSY). */
static bool can_record(const struct oci_config *cfg)
{
	const struct oci_seccomp *own = cfg->linux ? cfg->linux->seccomp : NULL;
	/* With ward's filter stacked, its denials are the ones recorded (not
	 * the floor's: the config's own then). */
	const struct oci_seccomp *s = own ? seccomp_recorded(own, cfg->linux->seccomp_base) : NULL;

	if (s == NULL || s->default_action == NULL ||
	    strcmp(s->default_action, "SCMP_ACT_ERRNO") != 0 ||
	    (own->listener_path && own->listener_path[0]))
		return false;
	/* Stacked: a listener of the config's own filter would be a second
	 * one on the chain. */
	for (size_t i = 0; s != own && i < own->n_syscalls; i++)
		if (own->syscalls[i].action &&
		    strcmp(own->syscalls[i].action, "SCMP_ACT_NOTIFY") == 0)
			return false;
	return true;
}

int policy_supervision(struct policy_ctx *x)
{
	const char *ann = oci_config_annotation(x->cfg, ANN_TIMEOUT);
	char limit[32], now[112];
	long long ms;

	x->supervise = x->record_denied = false;
	x->timeout_ms = 0;
	x->timeout_from[0] = '\0';
	/* (run --timeout under compat is the command line's error.) */
	if (x->profile == PROFILE_COMPAT) {
		if (ann)
			return policy_note(x, ANN_FIELD,
			                   "ignored: the compat profile runs no supervisor");
		return 0;
	}
	if (x->profile == PROFILE_STRICT)
		tighten(x, policy_strict_timeout_ms(x->pol), "strict.timeout");
	if (ann) {
		if (duration_parse_ms(ann, &ms) < 0)
			return policy_refuse(x, ANN_FIELD, NULL,
			                     "\"%s\" is not a duration (such as 90s, 10m or 1h)",
			                     ann);
		/* An annotation may only tighten: a longer one leaves the limit. */
		tighten(x, ms, "annotation");
	}
	tighten(x, x->cli_timeout_ms, "--timeout");
	/* Names in the egress list: the supervisor's DNS gate resolves them. */
	x->supervise = x->profile == PROFILE_STRICT || x->timeout_ms > 0 ||
	               policy_supervise_always(x->pol) ||
	               (x->egress.enforce && gate_plan_has_names(&x->egress));
	if (!x->supervise)
		return 0;
	x->record_denied = can_record(x->cfg);
	if (x->timeout_ms == 0)
		return 0;
	duration_format(x->timeout_ms, limit, sizeof(limit));
	snprintf(now, sizeof(now), "%s (%s)", limit, x->timeout_from);
	return policy_adjusted(x, "timeout", "(wall clock)", "none", now);
}
