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

/* x takes f's strings over; the ones not given become "". */
static int add_finding(struct policy_ctx *x, struct finding *f)
{
	char **strs[] = {&f->field, &f->old, &f->now, &f->rule, &f->why, &f->optout};

	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		if (*strs[i] == NULL)
			*strs[i] = xstrdup("");
	x->f = xreallocarray(x->f, x->n_f + 1, sizeof(*x->f));
	x->f[x->n_f++] = *f;
	if (f->kind == FIND_REFUSE)
		x->n_refused++;
	return 0;
}

void finding_free(struct finding *f)
{
	free(f->field);
	free(f->old);
	free(f->now);
	free(f->rule);
	free(f->why);
	free(f->optout);
}

static char *vformat(const char *fmt, va_list ap)
{
	char *s = NULL;

	if (vasprintf(&s, fmt, ap) < 0)
		xalloc_die();
	return s;
}

int policy_refuse(struct policy_ctx *x, const char *field, const char *optout, const char *fmt, ...)
{
	struct finding f = {.kind = FIND_REFUSE,
	                    .field = xstrdup(field),
	                    .optout = xstrdup(optout ? optout : ""),
	                    .rule = xstrdup("refuse")};
	va_list ap;

	va_start(ap, fmt);
	f.why = vformat(fmt, ap);
	va_end(ap);
	return add_finding(x, &f);
}

int policy_note(struct policy_ctx *x, const char *field, const char *fmt, ...)
{
	struct finding f = {.kind = FIND_NOTE, .field = xstrdup(field)};
	va_list ap;

	va_start(ap, fmt);
	f.why = vformat(fmt, ap);
	va_end(ap);
	return add_finding(x, &f);
}

int policy_adjusted(struct policy_ctx *x, const char *rule, const char *field, const char *old,
                    const char *now)
{
	struct finding f = {.kind = FIND_ADJUST,
	                    .field = xstrdup(field),
	                    .rule = xstrdup(rule),
	                    .old = xstrdup(old),
	                    .now = xstrdup(now)};

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
