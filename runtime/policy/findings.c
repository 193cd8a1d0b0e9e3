/* Findings and opt-outs (see findings.h). */
#include "policy/findings.h"
#include "lib/error.h"
#include "lib/log.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int add_finding(struct policy_ctx *x, const struct finding *f)
{
	x->f = xreallocarray(x->f, x->n_f + 1, sizeof(*x->f));
	x->f[x->n_f++] = *f;
	if (f->kind == FIND_REFUSE)
		x->n_refused++;
	return 0;
}

int policy_refuse(struct policy_ctx *x, const char *field, const char *optout, const char *fmt, ...)
{
	struct finding f = {.kind = FIND_REFUSE};
	va_list ap;

	snprintf(f.field, sizeof(f.field), "%s", field);
	snprintf(f.optout, sizeof(f.optout), "%s", optout ? optout : "");
	snprintf(f.rule, sizeof(f.rule), "refuse");
	va_start(ap, fmt);
	vsnprintf(f.why, sizeof(f.why), fmt, ap);
	va_end(ap);
	return add_finding(x, &f);
}

int policy_note(struct policy_ctx *x, const char *field, const char *fmt, ...)
{
	struct finding f = {.kind = FIND_NOTE};
	va_list ap;

	snprintf(f.field, sizeof(f.field), "%s", field);
	va_start(ap, fmt);
	vsnprintf(f.why, sizeof(f.why), fmt, ap);
	va_end(ap);
	return add_finding(x, &f);
}

int policy_adjusted(struct policy_ctx *x, const char *rule, const char *field, const char *old,
                    const char *now)
{
	struct finding f = {.kind = FIND_ADJUST};

	snprintf(f.field, sizeof(f.field), "%s", field);
	snprintf(f.rule, sizeof(f.rule), "%s", rule);
	snprintf(f.old, sizeof(f.old), "%s", old);
	snprintf(f.now, sizeof(f.now), "%s", now);
	log_debug("policy %s: %s: %s -> %s (%s)", profile_name(x->profile), field, old, now, rule);
	return add_finding(x, &f);
}

bool policy_optout(const struct policy_ctx *x, const char *name)
{
	for (size_t i = 0; i < x->n_optouts; i++)
		if (strcmp(x->optouts[i], name) == 0)
			return true;
	return false;
}

int policy_add_optout(struct policy_ctx *x, const char *name)
{
	if (policy_optout(x, name))
		return 0;
	x->optouts = xreallocarray(x->optouts, x->n_optouts + 1, sizeof(*x->optouts));
	x->optouts[x->n_optouts++] = xstrdup(name);
	return 0;
}
