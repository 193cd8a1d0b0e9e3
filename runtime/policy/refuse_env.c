/* Refusals (strict): secret-looking names in the environment, of the
 * container's process at create and of every exec'd process. */
#include "policy/rules.h"
#include "lib/error.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first pattern the name matches, NULL if none. The patterns are
 * matched without regard to case (api_token is as much a token as
 * API_TOKEN: a deny-list a lower-case letter gets past is no list), and
 * against the whole name, however long. */
static const char *secret_pattern(char *const *pat, const char *name)
{
	for (size_t k = 0; pat[k]; k++)
		if (fnmatch(pat[k], name, FNM_CASEFOLD) == 0)
			return pat[k];
	return NULL;
}

int policy_refuse_secret_env_list(struct policy_ctx *x, char *const *env, size_t n,
                                  const char *field, struct werror *err)
{
	const struct policy *pol = x->pol;
	char *const *pat =
	    pol && pol->has_secret_env ? pol->secret_env : (char *const *)policy_default_secret_env;

	for (size_t i = 0; i < n; i++) {
		char *name = strndup(env[i], strcspn(env[i], "="));
		char *opt = NULL;
		const char *hit;
		char where[160];
		int r = 0;

		if (name == NULL || asprintf(&opt, "env.%s", name) < 0) {
			free(name);
			return werr(err, ENOMEM, "out of memory");
		}
		hit = secret_pattern(pat, name);
		if (hit && !policy_optout(x, opt)) {
			snprintf(where, sizeof(where), "%s[%zu]", field, i);
			r = policy_refuse(x, where, opt,
			                  "%s looks like a secret (pattern %s): strict keeps "
			                  "secrets out of untrusted code",
			                  name, hit);
		}
		free(name);
		free(opt);
		if (r < 0)
			return -1;
	}
	return 0;
}

int policy_refuse_secret_env(struct policy_ctx *x, struct werror *err)
{
	const struct oci_process *p = x->cfg->process;

	return p ? policy_refuse_secret_env_list(x, p->env, p->n_env, ".process.env", err) : 0;
}
