/* policy_prepare and the record create keeps for exec (see prepare.h). */
#include "policy/prepare.h"
#include "lib/error.h"
#include "lib/xalloc.h"
#include "lib/cleanup.h"
#include "lib/jwalk.h"
#include "policy/rules.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_gen.h>
#include <yajl/yajl_tree.h>

/* The record's fields. */
#define REC_PROFILE "profile"
#define REC_FROM    "profileFrom"
#define REC_OPTOUTS "optouts"
#define REC_SOURCE  "policySource"
#define REC_POLICY  "policy"
#define REC_USERNS  "usernsRange" /* [first host id, size]: strict's range */

static void gen_str(yajl_gen g, const char *s)
{
	if (s)
		yajl_gen_string(g, (const unsigned char *)s, strlen(s));
	else
		yajl_gen_null(g);
}

int policy_record_gen(const struct policy_run *run, char **out, size_t *len, struct werror *err)
{
	yajl_gen g = yajl_gen_alloc(NULL);
	const unsigned char *buf;
	int r = -1;

	if (g == NULL)
		return werr(err, ENOMEM, "out of memory");
	/* exec must be able to read the record back (the text was parsed as
	 * UTF-8 already; the path is any bytes). */
	if (run->pol_text && !json_utf8_ok(run->pol_source, strlen(run->pol_source))) {
		yajl_gen_free(g);
		return werr(err, EILSEQ,
		            "the policy's path \"%s\" is not UTF-8, which JSON must be",
		            run->pol_source);
	}
	yajl_gen_map_open(g);
	gen_str(g, REC_PROFILE);
	gen_str(g, profile_name(run->x.profile));
	gen_str(g, REC_FROM);
	gen_str(g, run->x.profile_from);
	gen_str(g, REC_OPTOUTS);
	yajl_gen_array_open(g);
	for (size_t i = 0; i < run->x.n_optouts; i++)
		gen_str(g, run->x.optouts[i]);
	yajl_gen_array_close(g);
	gen_str(g, REC_SOURCE);
	gen_str(g, run->pol_text ? run->pol_source : NULL);
	gen_str(g, REC_POLICY);
	if (run->pol_text)
		yajl_gen_string(g, (const unsigned char *)run->pol_text, run->pol_len);
	else
		yajl_gen_null(g);
	if (run->x.userns.set && !run->x.userns.preview) {
		gen_str(g, REC_USERNS);
		yajl_gen_array_open(g);
		yajl_gen_integer(g, run->x.userns.host);
		yajl_gen_integer(g, run->x.userns.size);
		yajl_gen_array_close(g);
	}
	yajl_gen_map_close(g);
	if (yajl_gen_get_buf(g, &buf, len) == yajl_gen_status_ok && (*out = malloc(*len + 1))) {
		memcpy(*out, buf, *len);
		(*out)[*len] = '\0';
		r = 0;
	}
	yajl_gen_free(g);
	return r < 0 ? werr(err, ENOMEM, "writing the policy record") : 0;
}

static const char *rec_string(yajl_val root, const char *key, bool nullable, bool *bad)
{
	const char *path[] = {key, NULL};
	yajl_val v = yajl_tree_get(root, path, yajl_t_any);

	if (v && YAJL_IS_STRING(v))
		return YAJL_GET_STRING(v);
	if (!(nullable && v && YAJL_IS_NULL(v)))
		*bad = true;
	return NULL;
}

/* The range create leased (exec applies the same mappings); a record
 * without one is a container that holds none. */
static int rec_userns(yajl_val root, struct policy_ctx *x, struct werror *err)
{
	const char *path[] = {REC_USERNS, NULL};
	yajl_val v = yajl_tree_get(root, path, yajl_t_array), a, b;

	if (v == NULL)
		return 0;
	if (YAJL_GET_ARRAY(v)->len != 2 || !YAJL_IS_INTEGER(a = YAJL_GET_ARRAY(v)->values[0]) ||
	    !YAJL_IS_INTEGER(b = YAJL_GET_ARRAY(v)->values[1]) || YAJL_GET_INTEGER(a) <= 0 ||
	    YAJL_GET_INTEGER(b) <= 0 || YAJL_GET_INTEGER(a) + YAJL_GET_INTEGER(b) > UINT32_MAX)
		return werr(err, 0, "the policy record is malformed");
	x->userns.host = (uint32_t)YAJL_GET_INTEGER(a);
	x->userns.size = (uint32_t)YAJL_GET_INTEGER(b);
	x->userns.set = true;
	return 0;
}

int policy_record_profile(const char *rec, size_t len)
{
	_cleanup_free_ char *copy = xmalloc(len + 1);
	yajl_val root;
	bool bad = false;
	int p = -1;

	memcpy(copy, rec, len);
	copy[len] = '\0';
	root = jparse_document(copy, len, 4, "the policy record", NULL);
	if (root && YAJL_IS_OBJECT(root)) {
		const char *prof = rec_string(root, REC_PROFILE, false, &bad);

		p = bad ? -1 : profile_from_name(prof);
	}
	yajl_tree_free(root);
	return p;
}

/* The profile, opt-outs and policy create decided. */
static int from_record(const struct policy_input *in, struct oci_config *cfg,
                       struct policy_run *run, struct werror *err)
{
	yajl_val root, opts;
	const char *optpath[] = {REC_OPTOUTS, NULL};
	const char *prof, *text;
	bool bad = false;
	int p, r = -1;
	char *copy = malloc(in->record_len + 1);

	if (copy == NULL)
		return werr(err, ENOMEM, "out of memory");
	memcpy(copy, in->record, in->record_len);
	copy[in->record_len] = '\0';
	/* The same guarded parser as every other document: NUL bytes refused,
	 * nesting capped (yajl_tree_free recurses). */
	root = jparse_document(copy, in->record_len, 4, "the policy record", err);
	free(copy);
	if (root == NULL) {
		/* ward's own record, not the user's input: broken state. */
		werr_as(err, WERR_SYSTEM);
		r = werr_ctx(err, "the policy record is not valid");
		goto out;
	}
	if (!YAJL_IS_OBJECT(root)) {
		r = werr(err, 0, "the policy record is not a JSON object");
		goto out;
	}
	prof = rec_string(root, REC_PROFILE, false, &bad);
	text = rec_string(root, REC_POLICY, true, &bad);
	opts = yajl_tree_get(root, optpath, yajl_t_array);
	if (bad || opts == NULL || (p = profile_from_name(prof)) < 0) {
		r = werr(err, 0, "the policy record is malformed");
		goto out;
	}
	run->pol = text ? policy_parse(text, strlen(text), "the policy record", err)
	                : calloc(1, sizeof(struct policy));
	if (run->pol == NULL) {
		r = text ? -1 : werr(err, ENOMEM, "out of memory");
		goto out;
	}
	memset(&run->x, 0, sizeof(run->x));
	run->x.pol = run->pol;
	run->x.cfg = cfg;
	run->x.profile = (enum ward_profile)p;
	run->x.profile_from = "create";
	for (size_t i = 0; i < YAJL_GET_ARRAY(opts)->len; i++) {
		yajl_val o = YAJL_GET_ARRAY(opts)->values[i];

		if (!YAJL_IS_STRING(o)) {
			r = werr(err, 0, "the policy record is malformed");
			goto out;
		}
		if (policy_add_optout(&run->x, YAJL_GET_STRING(o)) < 0)
			goto out;
	}
	r = rec_userns(root, &run->x, err);
out:
	yajl_tree_free(root);
	return r;
}

/* strict as root: the container's own range of the id pool, leased for
 * create, or (check) the one a create would take now. The state root of
 * check may not exist yet: no leases then. */
static int userns_range(const struct policy_input *in, struct policy_run *run, struct werror *err)
{
	struct idpool pool;
	uint32_t start;
	char root[PATH_MAX];

	if (run->x.profile != PROFILE_STRICT || in->rootless || in->state_root == NULL)
		return 0;
	policy_strict_idpool(run->pol, &pool);
	if (in->lease_id) {
		/* The lease names the state root whose state dir records it. */
		if (realpath(in->state_root, root) == NULL)
			return werr(err, errno, "the state root %s", in->state_root);
		if (id_lease_take(root, in->lease_id, &pool, &run->lease, err) < 0) {
			id_lease_drop(&run->lease);
			return -1;
		}
		run->has_lease = true;
		start = run->lease.range.start;
	} else if (id_lease_peek(&pool, &start, err) < 0) {
		/* check: a full pool is what a create would meet now. */
		run->x.userns.preview = true;
		return policy_refuse(&run->x, ".linux.namespaces", NULL, "%s", werr_msg(err));
	}
	run->x.userns.host = start;
	run->x.userns.size = pool.range_size;
	run->x.userns.set = true;
	run->x.userns.preview = in->lease_id == NULL;
	return 0;
}

int policy_prepare(const struct policy_input *in, struct oci_config *cfg, struct policy_run *run,
                   struct werror *err)
{
	*run = (struct policy_run)POLICY_RUN_INIT;
	if (in->record) {
		if (from_record(in, cfg, run, err) < 0)
			return -1;
	} else {
		run->pol_source = in->policy_path ? in->policy_path : POLICY_DEFAULT_PATH;
		if (in->pol) {
			run->pol = in->pol;
			run->pol_text = in->pol_text;
			run->pol_len = in->pol_len;
		} else {
			run->pol =
			    policy_load_text(in->policy_path, &run->pol_text, &run->pol_len, err);
		}
		if (run->pol == NULL ||
		    policy_ctx_init(&run->x, run->pol, in->cli_profile, in->argv0, cfg, err) < 0)
			return -1;
		run->x.cli_timeout_ms = in->cli_timeout_ms;
		run->x.bundle = in->bundle;
		run->x.policy_path = run->pol_source;
		if (userns_range(in, run, err) < 0)
			return -1;
		struct host_query q = {.bundle = in->bundle,
		                       .state_root = in->state_root,
		                       .no_magiclinks = run->x.profile != PROFILE_COMPAT,
		                       .rootless = in->rootless,
		                       .userns_foreign = in->userns_foreign,
		                       /* policy_apply runs no refusal under compat
		                        * (check included): nothing reads the judgement */
		                       .judge_paths = run->x.profile != PROFILE_COMPAT};

		if (run->x.profile == PROFILE_BASELINE)
			q.hooks_dirs = policy_hooks_dirs(run->pol, &q.n_hooks_dirs);

		if (host_facts_gather(&run->facts, cfg, &q, err) < 0)
			return -1;
		run->x.facts = &run->facts;
	}
	return policy_apply(&run->x, err);
}

void policy_run_free(struct policy_run *run)
{
	if (run->has_lease)
		id_lease_drop(&run->lease);
	policy_ctx_free(&run->x);
	host_facts_free(&run->facts);
	policy_free(run->pol);
	free(run->pol_text);
	*run = (struct policy_run)POLICY_RUN_INIT;
}
