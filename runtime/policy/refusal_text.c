/* A refusal as its reader needs it. Most readers see ward through an engine
 * (Podman, containerd, the kubelet), which shows one line and no bundle:
 * so the line says what the engine asked for in the engine's own words
 * (--privileged, --network host), the opt-out as the exact JSON to add to
 * the policy file and the annotation to set (the dotted "allow.NAME" was
 * read as a key), whether the policy already allows it, and where the
 * config is, for `ward check --bundle`. The whole list goes to the log
 * file the engine gave (--log), whose last error line it shows. */
#include "policy/policy.h"
#include "lib/cleanup.h"
#include "lib/log.h"
#include "lib/xalloc.h"
#include "policy/rules.h"

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The engine flags that write the field an opt-out lifts. A prefix entry
 * ends in '.' or ':' (a family of opt-outs). */
static const struct {
	const char *optout, *asks;
} engine_asks[] = {
    {"host-network", "`--network host` (Kubernetes: hostNetwork: true)"},
    {"join-network", "`--network container:ID` of a host process's namespace"},
    {"host-pid", "`--pid host` (Kubernetes: hostPID: true)"},
    {"host-ipc", "`--ipc host` (Kubernetes: hostIPC: true)"},
    {"host-uts", "`--uts host`"},
    {"host-cgroup", "`--cgroupns host`"},
    {"host-user", "`--userns host` with a user namespace path"},
    {"devices-all", "`--privileged` or `--device-cgroup-rule 'a *:* rwm'`"},
    {"cgroup-rw", "`--privileged` (a writable cgroup mount)"},
    {"cap.", "`--cap-add` (Kubernetes: securityContext.capabilities.add)"},
    {"device.", "`--device` (or `--privileged`)"},
    {"mount:", "`-v HOSTPATH:...` (Kubernetes: a hostPath volume)"},
    {"mount-type.", "`--mount type=...`"},
    {"env.", "`-e` / `--env` (Kubernetes: env)"},
};

static const char *asks_of(const char *optout)
{
	for (size_t i = 0; i < sizeof(engine_asks) / sizeof(engine_asks[0]); i++) {
		const char *o = engine_asks[i].optout;
		size_t n = strlen(o);
		bool family = o[n - 1] == '.' || o[n - 1] == ':';

		if (family ? strncmp(optout, o, n) == 0 : strcmp(optout, o) == 0)
			return engine_asks[i].asks;
	}
	return NULL;
}

/* What `--privileged` (and Kubernetes' privileged: true) writes: every
 * capability the engine holds, and the host's devices or no masked paths.
 * "Every" is all of 0..CAP_AUDIT_READ (37, in every kernel engines
 * support) but two at most: an engine gives what its own bounding set has,
 * and a host (this one, without CAP_SYS_RESOURCE) may lack one. Told apart
 * so the one line says so, instead of naming the first of a hundred
 * devices. */
bool policy_privileged_shape(const struct oci_config *cfg)
{
	const uint64_t every = (1ull << 38) - 1;
	const struct oci_caps *c = cfg && cfg->process ? cfg->process->capabilities : NULL;

	if (!c || !c->has_bounding || !cfg->linux || __builtin_popcountll(c->bounding & every) < 36)
		return false;
	return cfg->linux->n_devices >= 8 || cfg->linux->n_masked_paths == 0;
}

bool policy_file_allows(const struct policy_ctx *x, const char *name)
{
	for (size_t i = 0; x->pol && i < x->pol->n_allow; i++)
		if (strcmp(x->pol->allow[i], name) == 0)
			return true;
	return false;
}

bool policy_annotation_asks(const struct policy_ctx *x, const char *name)
{
	_cleanup_free_ char *key = xasprintf(ANN_ALLOW "%s", name);
	const char *v = x->cfg ? oci_config_annotation(x->cfg, key) : NULL;

	return v && strcmp(v, "true") == 0;
}

/* A name a policy file and an annotation take as written: printable
 * ASCII but " and \ (a path may hold anything; the JSON the line offers
 * must be the one name, never what a crafted name makes of it). */
static bool plain_name(const char *name)
{
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		if (*p < 0x20 || *p >= 0x7f || *p == '"' || *p == '\\')
			return false;
	return true;
}

/* "; opt-out: ..." for f, said for where the operator and the user stand. */
static char *optout_text(const struct policy_ctx *x, const struct finding *f)
{
	const char *pol = x->policy_path ? x->policy_path : "the policy file";
	const char *name = f->optout;

	if (!name[0])
		return xstrdup("");
	if (!plain_name(name))
		return xstrdup(
		    "; opt-out: its name holds characters a policy file and an annotation "
		    "do not take as written (ward check --format json gives it)");
	/* A running container's opt-outs are those it was created with. */
	if (x->at_exec)
		return xasprintf(
		    "; opt-out: a container created with both keys, \"%s\" in \"allow\" "
		    "in %s ({\"allow\": [\"%s\"]}) and the annotation " ANN_ALLOW
		    "%s=true in its config (this one was created without the opt-out, "
		    "which an exec cannot add)",
		    name, pol, name, name);
	if (policy_file_allows(x, name))
		return xasprintf("; opt-out: %s allows \"%s\", and only the annotation " ANN_ALLOW
		                 "%s=true is missing",
		                 pol, name, name);
	if (policy_annotation_asks(x, name))
		return xasprintf("; opt-out: the annotation " ANN_ALLOW
		                 "%s=true is set, but %s does not allow it: add {\"allow\": "
		                 "[\"%s\"]} there",
		                 name, pol, name);
	return xasprintf("; opt-out: add \"%s\" to \"allow\" in %s ({\"allow\": [\"%s\"]}) and "
	                 "set the annotation " ANN_ALLOW "%s=true",
	                 name, pol, name, name);
}

char *policy_optout_howto(const struct policy_ctx *x, const struct finding *f)
{
	static const char lead[] = "; opt-out: ";
	_cleanup_free_ char *t = optout_text(x, f);

	if (strncmp(t, lead, sizeof(lead) - 1) != 0)
		return NULL;
	return xstrdup(t + sizeof(lead) - 1);
}

/* A path as a shell word: as it is when plain, else in single quotes
 * (a quote inside as '\''), so that the command can be pasted. */
static char *shell_word(const char *s)
{
	size_t n = strlen(s), q = 0;
	bool plain = n > 0;
	char *out, *o;

	for (const char *c = s; *c; c++) {
		plain = plain && (strchr("/._-+:,=@", *c) || (*c >= '0' && *c <= '9') ||
		                  (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z'));
		q += *c == '\'';
	}
	if (plain)
		return xstrdup(s);
	o = out = xmalloc(n + 3 * q + 3);
	*o++ = '\'';
	for (const char *c = s; *c; c++) {
		if (*c == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = *c;
		}
	}
	*o++ = '\'';
	*o = '\0';
	return out;
}

/* " [and N more: ward check --profile P [--policy FILE] --bundle DIR]":
 * the command that lists them all as this run judged them (the same
 * profile and policy file), the bundle as an absolute path (an engine's,
 * which its user never typed). */
static char *more_text(const struct policy_ctx *x)
{
	char abs[PATH_MAX];
	const char *b = x->bundle;
	_cleanup_free_ char *pol = NULL, *bw = NULL;

	if (x->n_refused <= 1)
		return xstrdup("");
	if (b == NULL)
		return xasprintf(" [and %zu more: see ward check]", x->n_refused - 1);
	if (realpath(b, abs) != NULL)
		b = abs;
	bw = shell_word(b);
	/* The default file is read without the flag (and may be absent). */
	if (x->policy_path != NULL && strcmp(x->policy_path, POLICY_DEFAULT_PATH) != 0) {
		char pabs[PATH_MAX];
		_cleanup_free_ char *pw =
		    shell_word(realpath(x->policy_path, pabs) ? pabs : x->policy_path);

		pol = xasprintf(" --policy %s", pw);
	}
	return xasprintf(" [and %zu more: ward --profile %s%s check --bundle %s]", x->n_refused - 1,
	                 profile_name(x->profile), pol ? pol : "", bw);
}

static const struct finding *first_refusal(const struct policy_ctx *x)
{
	for (size_t i = 0; i < x->n_f; i++)
		if (x->f[i].kind == FIND_REFUSE)
			return &x->f[i];
	return NULL;
}

/* Each refusal, as `ward check` lists them, into the log file only (the
 * engine's, which keeps it; stderr gets the one line). At info level, and
 * whatever --log-level says: without it the one line names one field of
 * many and nobody has the bundle. */
static void log_refusals(const struct policy_ctx *x)
{
	for (size_t i = 0; i < x->n_f; i++) {
		const struct finding *f = &x->f[i];

		if (f->kind == FIND_REFUSE)
			log_file_msg(LOG_INFO, "refused by the %s profile: %s: %s (opt-out: %s)",
			             profile_name(x->profile), f->field, f->why,
			             f->optout[0] ? f->optout : "none");
	}
}

int policy_refusal_error(const struct policy_ctx *x, struct werror *err)
{
	const struct finding *f = first_refusal(x);
	_cleanup_free_ char *opt = NULL, *more = NULL;
	const char *asks, *shape = "";

	if (f == NULL)
		return 0;
	log_refusals(x);
	/* One opt-out of a hundred would mislead: say what the shape needs. */
	if (x->privileged_shape)
		shape = "; the config asks for every capability and host device, as `--privileged` "
		        "(Kubernetes: privileged: true) does, which only the compat profile runs "
		        "(ward --profile compat; Podman: --runtime-flag profile=compat)";
	opt = shape[0] ? xstrdup("") : optout_text(x, f);
	more = more_text(x);
	asks = f->optout[0] && !shape[0] ? asks_of(f->optout) : NULL;
	return werr_k(err, WERR_REFUSED, 0, "%s%s: %s (refused by the %s profile%s%s%s%s)%s",
	              x->at_exec ? "" : "config.json: ", f->field, f->why, profile_name(x->profile),
	              shape, asks ? "; engines write it for " : "", asks ? asks : "", opt, more);
}

int policy_refusal_since(const struct policy_ctx *x, size_t first, size_t refused,
                         struct werror *err)
{
	struct policy_ctx one = *x;

	if (x->n_refused <= refused)
		return 0;
	one.f = x->f + first;
	one.n_f = x->n_f - first;
	one.n_refused = x->n_refused - refused;
	one.bundle = NULL;
	one.at_exec = true;
	return policy_refusal_error(&one, err);
}
