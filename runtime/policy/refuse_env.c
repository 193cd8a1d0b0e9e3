/* Refusals (strict): secret-looking names in the environment. */
#include "policy/rules.h"

#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

int policy_refuse_secret_env(struct policy_ctx *x)
{
	const struct oci_process *p = x->cfg->process;
	const struct policy *pol = x->pol;
	char *const *pat =
	    pol && pol->has_secret_env ? pol->secret_env : (char *const *)policy_default_secret_env;

	for (size_t i = 0; p && i < p->n_env; i++) {
		char name[256], opt[300], field[64];
		size_t n = strcspn(p->env[i], "=");

		snprintf(name, sizeof(name), "%.*s", (int)(n < 255 ? n : 255), p->env[i]);
		snprintf(opt, sizeof(opt), "env.%s", name);
		if (policy_optout(x, opt))
			continue;
		for (size_t k = 0; pat[k]; k++)
			if (fnmatch(pat[k], name, 0) == 0) {
				snprintf(field, sizeof(field), ".process.env[%zu]", i);
				if (policy_refuse(
				        x, field, opt,
				        "%s looks like a secret (pattern %s): strict keeps "
				        "secrets out of untrusted code",
				        name, pat[k]) < 0)
					return -1;
				break;
			}
	}
	return 0;
}
