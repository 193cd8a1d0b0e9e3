/* The policy's rules (runtime/policy/ward-policy.7), as the pure function they are:
 * configs and operator policies from JSON strings, the host faked in a
 * struct host_facts. Needs no root and touches nothing on the host.
 *
 * Every expected value here is written from the manual and the
 * runtime-spec (and runc's defaults, which the manual names), never taken
 * from the tables of the code under test. */
#include "cgroup/dev_rules.h"
#include "hooks/hook_file.h"
#include "hooks/hooks_dir.h"
#include "lib/error.h"
#include "oci/config.h"
#include "facts/host_facts.h"
#include "policy/policy.h"
#include "policy/prepare.h"
#include "policy/rules.h"
#include "tap.h"

#include <errno.h>
#include <inttypes.h>
#include <linux/capability.h>
#include <linux/magic.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "fake_sens.h"

#define BIT(c) (1ULL << (c))
#define MiB    (1024LL * 1024)

/* The namespaces of a normal container (what Podman and `ward spec` write). */
#define NS_ALL                                                                                     \
	"{\"type\":\"pid\"},{\"type\":\"ipc\"},{\"type\":\"uts\"},{\"type\":\"mount\"},"           \
	"{\"type\":\"network\"}"

/* ---- building configs, policies and host facts ---- */

/* The parts of a config.json that vary. "Members" strings are added to an
 * object and start with a comma; "elements" strings fill an array. */
struct spec {
	const char *root;   /* members of root */
	const char *proc;   /* members of process */
	const char *mounts; /* elements of mounts */
	const char *ann;    /* members of annotations */
	const char *ns;     /* elements of linux.namespaces; NULL: NS_ALL */
	const char *lin;    /* members of linux */
	const char *hooks;  /* members of hooks (the first without a comma) */
};

#define S(x) ((x) ? (x) : "")

static struct oci_config *cfg_new(const struct spec *s)
{
	struct oci_config *c;
	char *j;

	if (asprintf(
	        &j,
	        "{\"ociVersion\":\"1.2.0\",\"root\":{\"path\":\"rootfs\"%s},"
	        "\"process\":{\"user\":{\"uid\":0,\"gid\":0},\"args\":[\"sh\"],\"cwd\":\"/\"%s},"
	        "\"mounts\":[%s],\"annotations\":{%s},\"hooks\":{%s},"
	        "\"linux\":{\"namespaces\":[%s]%s}}",
	        S(s->root), S(s->proc), S(s->mounts), S(s->ann), S(s->hooks),
	        s->ns ? s->ns : NS_ALL, S(s->lin)) < 0)
		return NULL;
	werr_clear(err);
	c = oci_config_parse(j, strlen(j), "config.json", err);
	if (c == NULL)
		diag("config.json: %s\n# %s", werr_msg(err), j);
	free(j);
	return c;
}

static struct policy *pol_new(const char *json)
{
	struct policy *p;

	werr_clear(err);
	p = policy_parse(json, strlen(json), "policy.json", err);
	if (p == NULL)
		diag("policy.json: %s", werr_msg(err));
	return p;
}

/* A host: the sensitive paths below, a harmless rootfs, and whatever a test
 * puts in mounts[], overlay layers and ns_host[] (indexed as the config's
 * mounts and namespaces). */
struct fake {
	struct host_facts h;
	struct host_sensitive sens[N_FAKE_SENS];
	struct host_path mounts[8];
	struct host_path layers[8][4];
	struct host_path *overlay[8];
	size_t n_overlay[8];
	bool ns_host[8];
	enum ns_owner ns_owner[8];
	int ns_fd[8], ns_err[8];
};

static ino_t next_ino = 1000;

/* p's relations, as if it were the object at `as` (its real path, or the
 * one it is an alias of: a bind mount, the same inode). */
static void fake_relate(struct host_path *p, const char *as)
{
	for (size_t k = 0; k < N_FAKE_SENS; k++)
		p->rel[k] = fake_relation(as, fake_sens[k].real);
}

/* A host path that resolves to real, of type (S_IFDIR, ...); rdev for
 * device nodes. A fresh inode on an ext4 disk, related to the sensitive
 * paths by where it is; no socket in it. */
static void fake_path(struct host_path *p, const char *real, mode_t type, dev_t rdev)
{
	memset(p, 0, sizeof(*p));
	p->resolved = true;
	p->fd = -1;
	snprintf(p->real, sizeof(p->real), "%s", real);
	p->st.st_mode = type | 0755;
	p->st.st_dev = makedev(8, 1);
	p->st.st_ino = next_ino++;
	p->st.st_rdev = rdev;
	p->fs_type = EXT4_SUPER_MAGIC;
	fake_relate(p, real);
}

/* A host path that could not be opened (err). */
static void fake_unresolved(struct host_path *p, int errnum)
{
	memset(p, 0, sizeof(*p));
	p->fd = -1;
	p->err = errnum;
}

static void fake_init(struct fake *f)
{
	memset(f, 0, sizeof(*f));
	f->h.mounts = f->mounts;
	f->h.overlay = f->overlay;
	f->h.n_overlay = f->n_overlay;
	f->h.ns_host = f->ns_host;
	f->h.ns_owner = f->ns_owner;
	f->h.ns_fd = f->ns_fd;
	f->h.ns_err = f->ns_err;
	/* Namespaces joined by path are another container's unless a test
	 * says whose they are. */
	for (size_t i = 0; i < 8; i++) {
		f->ns_owner[i] = NS_OWNER_CONTAINER;
		f->ns_fd[i] = -1;
	}
	for (size_t k = 0; k < N_FAKE_SENS; k++) {
		f->sens[k].path = (char *)fake_sens[k].path;
		f->sens[k].kind = fake_sens[k].kind;
	}
	f->h.sensitive = f->sens;
	f->h.n_sensitive = N_FAKE_SENS;
	/* Root of the host's user namespace on a host with cgroup2: the egress
	 * programs can be attached. */
	f->h.userns_host = true;
	f->h.cgroup2 = true;
	/* ward itself: oom_score_adj 0, no hard limit but 1048576 open files
	 * and RLIMIT_RTPRIO 0 (a root shell's). */
	f->h.limits.has = true;
	for (int r = 0; r < RLIM_NLIMITS; r++)
		f->h.limits.rlimit_hard[r] = UINT64_MAX;
	f->h.limits.rlimit_hard[RLIMIT_NOFILE] = 1048576;
	f->h.limits.rlimit_hard[RLIMIT_RTPRIO] = 0;
	/* The bundle's rootfs, and (for binds a test does not set up) plain
	 * data directories. */
	fake_path(&f->h.root, "/srv/bundle/rootfs", S_IFDIR, 0);
	for (size_t i = 0; i < 8; i++) {
		char d[32];

		snprintf(d, sizeof(d), "/srv/data/%zu", i);
		fake_path(&f->mounts[i], d, S_IFDIR, 0);
		f->overlay[i] = f->layers[i];
	}
}

/* One analysis: config, policy (NULL: "{}"), --profile, argv0 and the host
 * (NULL: exec, only adjustments). rc: policy_ctx_init's or policy_apply's
 * result, -2 if the test's own JSON did not parse. */
struct run {
	struct oci_config *cfg;
	struct policy *pol;
	struct policy_ctx x;
	int rc;
};

static int run(struct run *r, const struct spec *s, const char *pol, const char *cli,
               struct fake *f)
{
	memset(r, 0, sizeof(*r));
	r->cfg = cfg_new(s);
	r->pol = pol_new(pol ? pol : "{}");
	if (r->cfg == NULL || r->pol == NULL)
		return r->rc = -2;
	werr_clear(err);
	if (policy_ctx_init(&r->x, r->pol, cli, "ward", r->cfg, err) < 0)
		return r->rc = -1;
	/* As prepare.c: a strict container holds a range of the id pool (here
	 * the pool's first, as a fresh state root's first create gets). */
	if (r->x.profile == PROFILE_STRICT) {
		struct idpool p;

		policy_strict_idpool(r->pol, &p);
		r->x.userns.host = p.start;
		r->x.userns.size = p.range_size;
		r->x.userns.set = true;
	}
	if (f) {
		if (r->cfg->n_mounts > 8 || (r->cfg->linux && r->cfg->linux->n_namespaces > 8))
			return r->rc = -2;
		f->h.n_mounts = r->cfg->n_mounts;
		f->h.n_ns = r->cfg->linux ? r->cfg->linux->n_namespaces : 0;
		r->x.facts = &f->h;
	}
	return r->rc = policy_apply(&r->x, err);
}

static void run_free(struct run *r)
{
	policy_ctx_free(&r->x);
	oci_config_free(r->cfg);
	policy_free(r->pol);
	memset(r, 0, sizeof(*r));
}

/* ---- reading the findings ---- */

static void dump(const struct policy_ctx *x)
{
	static const char *const kinds[] = {"adjust", "refuse", "note"};

	for (size_t i = 0; i < x->n_f; i++) {
		const struct finding *f = &x->f[i];

		diag("  %s %s opt-out=%s rule=%s: %s %s -> %s", kinds[f->kind], f->field, f->optout,
		     f->rule, f->why, f->old, f->now);
	}
}

static const struct finding *find(const struct policy_ctx *x, enum finding_kind kind,
                                  const char *field, const char *optout_or_rule)
{
	for (size_t i = 0; i < x->n_f; i++) {
		const struct finding *f = &x->f[i];

		if (f->kind != kind || (field && strcmp(f->field, field) != 0))
			continue;
		if (optout_or_rule &&
		    strcmp(kind == FIND_REFUSE ? f->optout : f->rule, optout_or_rule) != 0)
			continue;
		return f;
	}
	return NULL;
}

static bool refused_as(const struct policy_ctx *x, const char *field, const char *optout)
{
	return find(x, FIND_REFUSE, field, optout) != NULL;
}

static const struct finding *adjusted(const struct policy_ctx *x, const char *rule,
                                      const char *field)
{
	return find(x, FIND_ADJUST, field, rule);
}

static size_t n_kind(const struct policy_ctx *x, enum finding_kind kind)
{
	size_t n = 0;

	for (size_t i = 0; i < x->n_f; i++)
		n += x->f[i].kind == kind;
	return n;
}

static bool noted(const struct policy_ctx *x, const char *field)
{
	return find(x, FIND_NOTE, field, NULL) != NULL;
}

/* ---- the shapes of most tests ---- */

/* Exactly one refusal, of field with optout. */
static void expect_refusal(const char *what, const struct spec *s, const char *pol, const char *cli,
                           struct fake *f, const char *field, const char *optout)
{
	struct run r;

	run(&r, s, pol, cli, f);
	if (!ok(r.rc == 0 && r.x.n_refused == 1 && refused_as(&r.x, field, optout),
	        "refused: %s (%s, opt-out %s)", what, field, optout))
		dump(&r.x);
	run_free(&r);
}

static void expect_allowed(const char *what, const struct spec *s, const char *pol, const char *cli,
                           struct fake *f)
{
	struct run r;

	run(&r, s, pol, cli, f);
	if (!ok(r.rc == 0 && r.x.n_refused == 0, "allowed: %s", what))
		dump(&r.x);
	run_free(&r);
}

/* "{extra,"key":["name"]}" */
static char *pol_with(const char *extra, const char *key, const char *name)
{
	char *p;

	if (asprintf(&p, "{%s%s\"%s\":[\"%s\"]}", S(extra), extra ? "," : "", key, name) < 0)
		abort();
	return p;
}

/* The refusal (field, optout) of s is lifted only when the policy's "allow"
 * lists the opt-out and the annotation org.ward.allow.<optout>=true is set,
 * or when "allowAlways" lists it. pol_extra: more members of the policy. */
static void expect_optout(const char *what, const struct spec *s, const char *pol_extra,
                          const char *cli, struct fake *f, const char *field, const char *optout)
{
	struct spec sa = *s, sy = *s;
	char ann[256], yes[256], note[256];
	char *base = NULL, *allow = pol_with(pol_extra, "allow", optout),
	     *always = pol_with(pol_extra, "allowAlways", optout);
	struct run r;

	if (pol_extra && asprintf(&base, "{%s}", pol_extra) < 0)
		abort();
	snprintf(ann, sizeof(ann), "\"org.ward.allow.%s\":\"true\"", optout);
	snprintf(yes, sizeof(yes), "\"org.ward.allow.%s\":\"yes\"", optout);
	snprintf(note, sizeof(note), ".annotations[\"org.ward.allow.%s\"]", optout);
	sa.ann = ann;
	sy.ann = yes;

	run(&r, &sa, base, cli, f);
	if (!ok(r.rc == 0 && refused_as(&r.x, field, optout) && noted(&r.x, note),
	        "%s: the annotation alone does not lift %s (and is noted)", what, optout))
		dump(&r.x);
	run_free(&r);

	run(&r, s, allow, cli, f);
	if (!ok(r.rc == 0 && refused_as(&r.x, field, optout),
	        "%s: \"allow\" alone does not lift %s", what, optout))
		dump(&r.x);
	run_free(&r);

	run(&r, &sy, allow, cli, f);
	if (!ok(r.rc == 0 && refused_as(&r.x, field, optout) && noted(&r.x, note),
	        "%s: \"allow\" and an annotation other than \"true\" do not lift %s", what, optout))
		dump(&r.x);
	run_free(&r);

	run(&r, &sa, allow, cli, f);
	if (!ok(r.rc == 0 && r.x.n_refused == 0, "%s: \"allow\" and the annotation lift %s", what,
	        optout))
		dump(&r.x);
	run_free(&r);

	run(&r, s, always, cli, f);
	if (!ok(r.rc == 0 && r.x.n_refused == 0, "%s: \"allowAlways\" lifts %s", what, optout))
		dump(&r.x);
	run_free(&r);

	free(base);
	free(allow);
	free(always);
}

/* ---- profiles ---- */

static void test_profiles(void)
{
	static const struct {
		const char *cli, *argv0, *pol, *ann;
		enum ward_profile want;
		bool note;
		const char *what;
	} c[] = {
	    {NULL, "ward", "{}", NULL, PROFILE_BASELINE, false, "nothing chosen: baseline"},
	    {NULL, NULL, "{}", NULL, PROFILE_BASELINE, false, "no argv0: baseline"},
	    {"strict", "ward", "{}", NULL, PROFILE_STRICT, false, "--profile strict"},
	    {"compat", "ward", "{}", NULL, PROFILE_COMPAT, false, "--profile compat"},
	    {"baseline", "ward-strict", "{\"profile\":\"strict\"}", NULL, PROFILE_BASELINE, false,
	     "--profile before the binary name and the policy file"},
	    {NULL, "ward-strict", "{}", NULL, PROFILE_STRICT, false, "invoked as ward-strict"},
	    {NULL, "/usr/local/bin/ward-strict", "{}", NULL, PROFILE_STRICT, false,
	     "invoked as /usr/local/bin/ward-strict"},
	    {NULL, "ward-compat", "{\"profile\":\"strict\"}", NULL, PROFILE_COMPAT, false,
	     "the binary name (ward-compat) before the policy file"},
	    {NULL, "ward-baseline", "{\"profile\":\"strict\"}", NULL, PROFILE_BASELINE, false,
	     "the binary name (ward-baseline) before the policy file"},
	    {NULL, "/usr/bin/ward", "{\"profile\":\"strict\"}", NULL, PROFILE_STRICT, false,
	     "the policy file's profile"},
	    {NULL, "ward", "{\"profile\":\"compat\"}", NULL, PROFILE_COMPAT, false,
	     "the policy file's profile (compat)"},
	    {NULL, "ward", "{}", "strict", PROFILE_STRICT, false,
	     "the annotation tightens baseline to strict"},
	    {"compat", "ward", "{}", "baseline", PROFILE_BASELINE, false,
	     "the annotation tightens compat to baseline"},
	    {NULL, "ward-compat", "{}", "strict", PROFILE_STRICT, false,
	     "the annotation tightens compat to strict"},
	    {NULL, "ward", "{\"profile\":\"strict\"}", "strict", PROFILE_STRICT, false,
	     "the annotation asking for the same profile: nothing to note"},
	    {NULL, "ward", "{}", "compat", PROFILE_BASELINE, true,
	     "a loosening annotation (baseline to compat) is ignored and noted"},
	    {"strict", "ward", "{}", "baseline", PROFILE_STRICT, true,
	     "a loosening annotation (strict to baseline) is ignored and noted"},
	    {NULL, "ward-strict", "{}", "compat", PROFILE_STRICT, true,
	     "a loosening annotation (strict to compat) is ignored and noted"},
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char ann[128];
		struct spec s = {.ann = NULL};
		struct oci_config *cfg;
		struct policy *pol = pol_new(c[i].pol);
		struct policy_ctx x = {.pol = NULL};
		int rc;

		snprintf(ann, sizeof(ann), "\"org.ward.profile\":\"%s\"", S(c[i].ann));
		s.ann = c[i].ann ? ann : NULL;
		cfg = cfg_new(&s);
		rc = cfg && pol ? policy_ctx_init(&x, pol, c[i].cli, c[i].argv0, cfg, err) : -2;
		if (!ok(rc == 0 && x.profile == c[i].want &&
		            noted(&x, ".annotations[\"org.ward.profile\"]") == c[i].note,
		        "profile: %s", c[i].what))
			diag("rc %d, profile %s: %s", rc, rc == 0 ? profile_name(x.profile) : "-",
			     werr_msg(err));
		if (rc != -2)
			policy_ctx_free(&x);
		oci_config_free(cfg);
		policy_free(pol);
	}

	/* Errors: an unknown profile, asked for either way. */
	{
		struct spec s = {.ann = "\"org.ward.profile\":\"lax\""};
		struct oci_config *cfg = cfg_new(&s);
		struct policy *pol = pol_new("{}");
		struct policy_ctx x = {.pol = NULL};

		werr_clear(err);
		ok(cfg && pol && policy_ctx_init(&x, pol, NULL, "ward", cfg, err) < 0 &&
		       strstr(werr_msg(err), "org.ward.profile") && strstr(werr_msg(err), "lax"),
		   "profile: an invalid org.ward.profile annotation is an error (%s)",
		   werr_msg(err));
		policy_ctx_free(&x);
		oci_config_free(cfg);

		s.ann = NULL;
		cfg = cfg_new(&s);
		werr_clear(err);
		ok(cfg && policy_ctx_init(&x, pol, "lax", "ward", cfg, err) < 0 &&
		       strstr(werr_msg(err), "--profile"),
		   "profile: an invalid --profile is an error (%s)", werr_msg(err));
		policy_ctx_free(&x);
		oci_config_free(cfg);
		policy_free(pol);
	}
}

/* Which opt-outs are on (the rules' own tests check what each one lifts). */
static void test_optout_gate(void)
{
	struct spec s = {.ann = "\"org.ward.allow.host-pid\":\"true\","
	                        "\"org.ward.allow.cap.NET_RAW\":\"TRUE\","
	                        "\"org.ward.allow.device.fuse\":\"true\","
	                        "\"org.ward.allow.nonsense\":\"true\""};
	struct run r;

	run(&r, &s,
	    "{\"allow\":[\"host-pid\",\"cap.NET_RAW\",\"host-ipc\"],"
	    "\"allowAlways\":[\"seccomp-none\",\"mount:/srv/data\"]}",
	    NULL, NULL);
	ok(r.rc == 0 && policy_optout(&r.x, "host-pid"),
	   "opt-outs: allowed and annotated \"true\": on");
	ok(!policy_optout(&r.x, "cap.NET_RAW") &&
	       noted(&r.x, ".annotations[\"org.ward.allow.cap.NET_RAW\"]"),
	   "opt-outs: annotated \"TRUE\" (not \"true\"): off, noted");
	ok(!policy_optout(&r.x, "host-ipc"), "opt-outs: allowed, not annotated: off");
	ok(!policy_optout(&r.x, "device.fuse") &&
	       noted(&r.x, ".annotations[\"org.ward.allow.device.fuse\"]"),
	   "opt-outs: annotated, not allowed: off, noted");
	ok(!policy_optout(&r.x, "nonsense") &&
	       noted(&r.x, ".annotations[\"org.ward.allow.nonsense\"]"),
	   "opt-outs: an unknown name annotated: off, noted");
	ok(policy_optout(&r.x, "seccomp-none") && policy_optout(&r.x, "mount:/srv/data") &&
	       r.x.n_optouts == 3,
	   "opt-outs: allowAlways: on without any annotation (3 on in all)");
	run_free(&r);
}

/* ---- refusals: namespaces ---- */

static void test_namespaces(void)
{
	static const struct {
		const char *type, *optout;
	} ns[] = {
	    {"network", "host-network"}, {"pid", "host-pid"},     {"ipc", "host-ipc"},
	    {"uts", "host-uts"},         {"mount", "host-mount"}, {"user", "host-user"},
	    {"cgroup", "host-cgroup"},
	};
	struct fake f;

	/* Each namespace joined by the path of the host's own. The host's
	 * namespace goes last, after the usual five (replacing one of them). */
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		static const char *const usual[] = {"pid", "ipc", "uts", "mount", "network"};
		char list[512] = "", what[128], field[64];
		size_t n = 0, len = 0;
		struct spec s = {.ns = list};

		for (size_t k = 0; k < 5; k++)
			if (strcmp(usual[k], ns[i].type) != 0) {
				len += (size_t)snprintf(list + len, sizeof(list) - len,
				                        "{\"type\":\"%s\"},", usual[k]);
				n++;
			}
		snprintf(list + len, sizeof(list) - len,
		         "{\"type\":\"%s\",\"path\":\"/proc/1/ns/%s\"}", ns[i].type, ns[i].type);
		snprintf(field, sizeof(field), ".linux.namespaces[%zu].path", n);
		snprintf(what, sizeof(what), "the host's %s namespace by path", ns[i].type);
		if (strcmp(ns[i].type, "mount") == 0) {
			/* Never joined outside compat, anyone's: no opt-out. */
			fake_init(&f);
			f.ns_host[n] = true;
			f.ns_owner[n] = NS_OWNER_HOST;
			expect_refusal(what, &s, NULL, NULL, &f, field, "");
			expect_refusal(what, &s, "{\"allowAlways\":[\"host-mount\"]}", NULL, &f,
			               field, "");
			fake_init(&f);
			expect_refusal("another container's mount namespace by path (baseline)", &s,
			               NULL, NULL, &f, field, "");
			expect_refusal("another container's mount namespace by path (strict)", &s,
			               NULL, "strict", &f, field, "");
			f.ns_owner[n] = NS_OWNER_NSFS_MOUNT;
			expect_refusal("an nsfs-mounted mount namespace (baseline)", &s, NULL, NULL,
			               &f, field, "");
			expect_allowed("compat: another process's mount namespace, as runc", &s,
			               NULL, "compat", &f);
			continue;
		}
		fake_init(&f);
		f.ns_host[n] = true;
		f.ns_owner[n] = NS_OWNER_HOST;
		expect_refusal(what, &s, NULL, NULL, &f, field, ns[i].optout);
		fake_init(&f);
		f.ns_host[n] = true;
		f.ns_owner[n] = NS_OWNER_HOST;
		expect_optout(what, &s, NULL, NULL, &f, field, ns[i].optout);
		/* A host service's (a process in the host's pid namespace with a
		 * namespace of its own): host authority too. */
		snprintf(what, sizeof(what), "a host process's own %s namespace by path",
		         ns[i].type);
		fake_init(&f);
		f.ns_owner[n] = NS_OWNER_HOST_PROC;
		expect_refusal(what, &s, NULL, NULL, &f, field, ns[i].optout);
		expect_optout(what, &s, NULL, NULL, &f, field, ns[i].optout);
		if (strcmp(ns[i].type, "user") != 0)
			expect_refusal(what, &s, NULL, "strict", &f, field, ns[i].optout);
		/* Neither /proc/PID/ns of a container's process nor an nsfs
		 * mount, or not opened at all: whose it is cannot be told. */
		snprintf(what, sizeof(what), "a %s namespace no one can place", ns[i].type);
		fake_init(&f);
		f.ns_owner[n] = NS_OWNER_UNKNOWN;
		expect_refusal(what, &s, NULL, NULL, &f, field, ns[i].optout);
		f.ns_owner[n] = NS_OWNER_WRONG_TYPE;
		expect_allowed("a path that is not a namespace of its type (create fails on it)",
		               &s, NULL, NULL, &f);
		f.ns_owner[n] = NS_OWNER_UNKNOWN;
		f.ns_err[n] = ENOENT;
		expect_refusal("a namespace path that cannot be opened", &s, NULL, NULL, &f, field,
		               ns[i].optout);
		/* Another container's: as pods do; or an engine's nsfs mount. */
		snprintf(what, sizeof(what), "another container's %s namespace by path (baseline)",
		         ns[i].type);
		fake_init(&f);
		expect_allowed(what, &s, NULL, NULL, &f);
		snprintf(what, sizeof(what), "an engine's nsfs-mounted %s namespace (baseline)",
		         ns[i].type);
		f.ns_owner[n] = NS_OWNER_NSFS_MOUNT;
		expect_allowed(what, &s, NULL, NULL, &f);
		if (strcmp(ns[i].type, "user") == 0) {
			/* Its maps cannot be judged on the namespace: strict
			 * refuses the join, without an opt-out. */
			fake_init(&f);
			expect_refusal("strict: another container's user namespace by path", &s,
			               NULL, "strict", &f, field, "");
		} else if (strcmp(ns[i].type, "network") != 0) {
			snprintf(what, sizeof(what),
			         "another container's %s namespace by path (strict)", ns[i].type);
			fake_init(&f);
			expect_allowed(what, &s, NULL, "strict", &f);
		}
	}

	/* No pid, ipc, uts or mount namespace at all: the host's, shared. */
	{
		static const struct {
			const char *list, *optout, *what;
		} missing[] = {
		    {"{\"type\":\"ipc\"},{\"type\":\"uts\"},{\"type\":\"mount\"},{\"type\":"
		     "\"network\"}",
		     "host-pid", "no pid namespace"},
		    {"{\"type\":\"pid\"},{\"type\":\"uts\"},{\"type\":\"mount\"},{\"type\":"
		     "\"network\"}",
		     "host-ipc", "no ipc namespace"},
		    {"{\"type\":\"pid\"},{\"type\":\"ipc\"},{\"type\":\"mount\"},{\"type\":"
		     "\"network\"}",
		     "host-uts", "no uts namespace"},
		    {"{\"type\":\"pid\"},{\"type\":\"ipc\"},{\"type\":\"uts\"},{\"type\":"
		     "\"network\"}",
		     "host-mount", "no mount namespace"},
		};

		for (size_t i = 0; i < sizeof(missing) / sizeof(missing[0]); i++) {
			struct spec s = {.ns = missing[i].list};

			fake_init(&f);
			expect_refusal(missing[i].what, &s, NULL, NULL, &f, ".linux.namespaces",
			               missing[i].optout);
			expect_refusal(missing[i].what, &s, NULL, "strict", &f, ".linux.namespaces",
			               missing[i].optout);
			expect_optout(missing[i].what, &s, NULL, NULL, &f, ".linux.namespaces",
			              missing[i].optout);
		}
	}
	{
		struct spec s = {.ns = ""};
		struct run r;

		fake_init(&f);
		run(&r, &s, NULL, NULL, &f);
		if (!ok(r.rc == 0 && r.x.n_refused == 5 &&
		            refused_as(&r.x, ".linux.namespaces", "host-pid") &&
		            refused_as(&r.x, ".linux.namespaces", "host-ipc") &&
		            refused_as(&r.x, ".linux.namespaces", "host-uts") &&
		            refused_as(&r.x, ".linux.namespaces", "host-mount") &&
		            refused_as(&r.x, ".linux.namespaces", "host-network"),
		        "refused: no namespaces at all: pid, ipc, uts, mount and network (5 "
		        "refusals)"))
			dump(&r.x);
		run_free(&r);
	}
	fake_init(&f);
	expect_allowed("a normal config (pid, ipc, uts, mount, network; no user, no cgroup)",
	               &(struct spec){.ns = NULL}, NULL, NULL, &f);
	expect_allowed("a normal config under strict", &(struct spec){.ns = NULL}, NULL, "strict",
	               &f);
	expect_allowed("all seven namespaces, fresh",
	               &(struct spec){.ns = NS_ALL ",{\"type\":\"user\"},"
	                                           "{\"type\":\"cgroup\"}"},
	               NULL, NULL, &f);

	/* No network namespace (engines' --network host). */
	{
		struct spec s = {.ns = "{\"type\":\"pid\"},{\"type\":\"ipc\"},{\"type\":\"uts\"},"
		                       "{\"type\":\"mount\"}"};
		struct run r;

		/* baseline refuses it by default (issue #12: the host's network is
		 * a host namespace like the others). */
		fake_init(&f);
		expect_refusal("no network namespace (default missingNetwork: refuse)", &s, NULL,
		               NULL, &f, ".linux.namespaces", "host-network");
		expect_optout("no network namespace (default missingNetwork: refuse)", &s, NULL,
		              NULL, &f, ".linux.namespaces", "host-network");
		run(&r, &s, NULL, NULL, &f);
		ok(r.rc == 0 && !adjusted(&r.x, "new-netns", NULL) &&
		       !oci_config_namespace(r.cfg, CLONE_NEWNET),
		   "no network namespace, refused: no network namespace added either");
		run_free(&r);
		expect_refusal("no network namespace, missingNetwork refuse", &s,
		               "{\"missingNetwork\":\"refuse\"}", NULL, &f, ".linux.namespaces",
		               "host-network");
		expect_optout("no network namespace, missingNetwork refuse", &s,
		              "\"missingNetwork\":\"refuse\"", NULL, &f, ".linux.namespaces",
		              "host-network");

		/* "isolate": the old behaviour, a fresh one. */
		run(&r, &s, "{\"missingNetwork\":\"isolate\"}", NULL, &f);
		if (!ok(r.rc == 0 && r.x.n_refused == 0 && adjusted(&r.x, "new-netns", NULL) &&
		            oci_config_namespace(r.cfg, CLONE_NEWNET) &&
		            oci_config_namespace(r.cfg, CLONE_NEWNET)->path == NULL,
		        "no network namespace, missingNetwork isolate: a fresh one, not a refusal"))
			dump(&r.x);
		run_free(&r);
		run(&r, &s, NULL, "strict", &f);
		if (!ok(r.rc == 0 && r.x.n_refused == 0 && adjusted(&r.x, "new-netns", NULL) &&
		            oci_config_namespace(r.cfg, CLONE_NEWNET),
		        "strict, no network namespace, default policy: a fresh one, not a refusal"))
			dump(&r.x);
		run_free(&r);

		run(&r, &s, "{\"missingNetwork\":\"refuse\"}", "strict", &f);
		if (!ok(r.rc == 0 && r.x.n_refused == 0 && adjusted(&r.x, "new-netns", NULL) &&
		            oci_config_namespace(r.cfg, CLONE_NEWNET),
		        "strict, no network namespace: a fresh one (missingNetwork is baseline's)"))
			dump(&r.x);
		run_free(&r);

		run(&r, &s, "{\"missingNetwork\":\"refuse\",\"allowAlways\":[\"host-network\"]}",
		    NULL, &f);
		ok(r.rc == 0 && r.x.n_refused == 0 && !oci_config_namespace(r.cfg, CLONE_NEWNET),
		   "missingNetwork refuse with host-network on: the host's network, as asked");
		run_free(&r);
	}

	/* strict: a network namespace joined by path, even another container's. */
	{
		struct spec s = {.ns = "{\"type\":\"pid\"},{\"type\":\"ipc\"},{\"type\":\"uts\"},"
		                       "{\"type\":\"mount\"},"
		                       "{\"type\":\"network\",\"path\":\"/run/netns/pod1\"}"};

		fake_init(&f);
		expect_refusal("strict: another container's network namespace", &s, NULL, "strict",
		               &f, ".linux.namespaces[4].path", "join-network");
		expect_optout("strict: another container's network namespace", &s, NULL, "strict",
		              &f, ".linux.namespaces[4].path", "join-network");
		expect_allowed("baseline: another container's network namespace", &s, NULL, NULL,
		               &f);
	}
}

/* strict: the config's own user namespace mappings lie inside the host
 * range the container holds of the id pool (run() gives it the pool's
 * first: 1879048192-1879113727 by default, or 200000-... of a policy's
 * strict.usernsHostID), never host root. */
static void test_strict_userns(void)
{
	static const struct {
		const char *lin, *field, *what;
	} bad[] = {
	    {",\"uidMappings\":[{\"containerID\":0,\"hostID\":0,\"size\":65536}],"
	     "\"gidMappings\":[{\"containerID\":0,\"hostID\":1879048192,\"size\":65536}]",
	     ".linux.uidMappings[0]", "container root is host root (0 -> 0)"},
	    {",\"uidMappings\":[{\"containerID\":0,\"hostID\":1879048192,\"size\":65536}],"
	     "\"gidMappings\":[{\"containerID\":0,\"hostID\":0,\"size\":1}]",
	     ".linux.gidMappings[0]", "gid 0 -> host gid 0"},
	    {",\"uidMappings\":[{\"containerID\":0,\"hostID\":1879048192,\"size\":1},"
	     "{\"containerID\":1,\"hostID\":1000,\"size\":1}],"
	     "\"gidMappings\":[{\"containerID\":0,\"hostID\":1879048192,\"size\":65536}]",
	     ".linux.uidMappings[1]", "a second mapping to a host user's uid"},
	    {",\"uidMappings\":[{\"containerID\":0,\"hostID\":1879108192,\"size\":10000}],"
	     "\"gidMappings\":[{\"containerID\":0,\"hostID\":1879048192,\"size\":65536}]",
	     ".linux.uidMappings[0]", "a mapping running past the range's end"},
	    {",\"uidMappings\":[{\"containerID\":0,\"hostID\":1879048191,\"size\":2}],"
	     "\"gidMappings\":[{\"containerID\":0,\"hostID\":1879048192,\"size\":65536}]",
	     ".linux.uidMappings[0]", "a mapping starting below the range"},
	};
	const char *ns = NS_ALL ",{\"type\":\"user\"}";
	struct fake f;
	struct run r;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char what[128];
		struct spec s = {.ns = ns, .lin = bad[i].lin};

		snprintf(what, sizeof(what), "strict: %s", bad[i].what);
		fake_init(&f);
		expect_refusal(what, &s, NULL, "strict", &f, bad[i].field, "");
		/* No opt-out lifts it: host root is never strict's to give. */
		run(&r, &s, "{\"allowAlways\":[\"host-user\"]}", "strict", &f);
		ok(r.rc == 0 && refused_as(&r.x, bad[i].field, ""),
		   "strict: %s: refused whatever the policy allows", bad[i].what);
		run_free(&r);
		snprintf(what, sizeof(what), "baseline: %s (the config's own namespace)",
		         bad[i].what);
		expect_allowed(what, &s, NULL, NULL, &f);
	}
	{
		struct spec s = {.ns = ns, .lin = bad[0].lin};

		fake_init(&f);
		f.h.rootless = true;
		expect_allowed("strict, rootless: the kernel keeps the maps to the caller's ids",
		               &s, NULL, "strict", &f);
	}
	{
		struct spec s = {
		    .ns = ns,
		    .lin = ",\"uidMappings\":[{\"containerID\":0,\"hostID\":1879048192,\"size\":"
		           "1000},{\"containerID\":1000,\"hostID\":1879113192,\"size\":536}],"
		           "\"gidMappings\":[{\"containerID\":0,\"hostID\":1879048192,\"size\":"
		           "65536}]"};

		fake_init(&f);
		expect_allowed("strict: mappings inside the range", &s, NULL, "strict", &f);
		run(&r, &s, NULL, "strict", &f);
		ok(r.rc == 0 && r.cfg->linux->n_uid_mappings == 2 &&
		       r.cfg->linux->uid_mappings[1].host_id == 1879113192,
		   "strict: the config's mappings inside the range are kept");
		run_free(&r);
		s.lin = ",\"uidMappings\":[{\"containerID\":0,\"hostID\":200000,\"size\":"
		        "65536}],\"gidMappings\":[{\"containerID\":0,\"hostID\":200000,"
		        "\"size\":65536}]";
		run(&r, &s, NULL, "strict", &f);
		ok(r.rc == 0 && r.x.n_refused == 2 &&
		       refused_as(&r.x, ".linux.uidMappings[0]", "") &&
		       refused_as(&r.x, ".linux.gidMappings[0]", ""),
		   "strict: uid and gid mappings outside the default range: both refused");
		run_free(&r);
		run(&r, &s, "{\"strict\":{\"usernsHostID\":200000,\"usernsSize\":65536}}", "strict",
		    &f);
		if (!ok(r.rc == 0 && r.x.n_refused == 0,
		        "strict: inside the range the policy's strict.userns names"))
			dump(&r.x);
		run_free(&r);
	}
	{
		/* Listed without mappings: strict's own range, not the host's ids. */
		struct spec s = {.ns = ns};

		fake_init(&f);
		run(&r, &s, NULL, "strict", &f);
		if (!ok(r.rc == 0 && r.x.n_refused == 0 && r.cfg->linux->n_uid_mappings == 1 &&
		            r.cfg->linux->uid_mappings[0].host_id == 1879048192 &&
		            r.cfg->linux->n_gid_mappings == 1 &&
		            r.cfg->linux->gid_mappings[0].host_id == 1879048192 &&
		            adjusted(&r.x, "strict-userns", ".linux.uidMappings"),
		        "strict: a user namespace listed without mappings gets strict's range"))
			dump(&r.x);
		run_free(&r);
	}
}

/* ---- refusals: devices ---- */

/* Whether the rules the cgroup writers install for a config (rule i of
 * linux.resources.devices as cgroup/dev_rules.c hands it on) let a process
 * read or write the node type major:minor. */
static bool installed_opens(const char *lin, char type, int64_t major, int64_t minor)
{
	struct oci_config *c = cfg_new(&(struct spec){.lin = lin});
	struct cg_dev_rule *v = NULL;
	size_t n = 0;
	bool opens = false;

	if (c == NULL || c->linux->resources == NULL ||
	    cg_device_rules(c->linux->resources, NULL, &v, &n, err) < 0)
		abort();
	for (size_t i = 0; i < c->linux->resources->n_devices; i++)
		if (v[i].allow && (v[i].type == 'a' || v[i].type == type) &&
		    (v[i].major < 0 || v[i].major == major) &&
		    (v[i].minor < 0 || v[i].minor == minor) &&
		    (v[i].access & (CG_DEV_READ | CG_DEV_WRITE)))
			opens = true;
	free(v);
	oci_config_free(c);
	return opens;
}

static void test_devices(void)
{
	static const struct {
		const char *json, *optout, *what;
	} nodes[] = {
	    {"{\"type\":\"c\",\"path\":\"/dev/mem\",\"major\":1,\"minor\":1}", "device.mem",
	     "/dev/mem (c 1:1)"},
	    {"{\"type\":\"c\",\"path\":\"/dev/kmem\",\"major\":1,\"minor\":2}", "device.kmem",
	     "/dev/kmem (c 1:2)"},
	    {"{\"type\":\"c\",\"path\":\"/dev/port\",\"major\":1,\"minor\":4}", "device.port",
	     "/dev/port (c 1:4)"},
	    {"{\"type\":\"c\",\"path\":\"/dev/kvm\",\"major\":10,\"minor\":232}", "device.kvm",
	     "/dev/kvm (c 10:232)"},
	    {"{\"type\":\"c\",\"path\":\"/dev/fuse\",\"major\":10,\"minor\":229}", "device.fuse",
	     "/dev/fuse (c 10:229)"},
	    {"{\"type\":\"c\",\"path\":\"/dev/net/tun\",\"major\":10,\"minor\":200}", "device.tun",
	     "/dev/net/tun (c 10:200)"},
	    {"{\"type\":\"c\",\"path\":\"/dev/vhost-net\",\"major\":10,\"minor\":238}",
	     "device.vhost-net", "/dev/vhost-net (c 10:238)"},
	    {"{\"type\":\"c\",\"path\":\"/dev/vhost-vsock\",\"major\":10,\"minor\":241}",
	     "device.vhost-vsock", "/dev/vhost-vsock (c 10:241)"},
	    /* Misc minors the kernel gives out at boot: userfaultfd was 10:257
	     * on the host this was written on (6.x numbers them from 256; older
	     * kernels from 127 down). Every other misc device: by number. */
	    {"{\"type\":\"c\",\"path\":\"/dev/userfaultfd\",\"major\":10,\"minor\":257}",
	     "device.c10:257", "/dev/userfaultfd (c 10:257, numbered at boot)"},
	    {"{\"type\":\"c\",\"path\":\"/dev/userfaultfd\",\"major\":10,\"minor\":125}",
	     "device.c10:125", "/dev/userfaultfd as an older kernel numbers it (c 10:125)"},
	    {"{\"type\":\"c\",\"path\":\"/dev/uinput\",\"major\":10,\"minor\":223}",
	     "device.c10:223", "/dev/uinput (c 10:223, another misc device)"},
	    {"{\"type\":\"c\",\"path\":\"/dev/loop-control\",\"major\":10,\"minor\":237}",
	     "device.c10:237", "/dev/loop-control (c 10:237)"},
	    {"{\"type\":\"c\",\"path\":\"/dev/x\",\"major\":10,\"minor\":0}", "device.c10:0",
	     "c 10:0 (misc minor 0)"},
	    {"{\"type\":\"b\",\"path\":\"/dev/sda\",\"major\":8,\"minor\":0}", "device.block",
	     "/dev/sda (b 8:0)"},
	    {"{\"type\":\"b\",\"path\":\"/dev/loop0\",\"major\":7,\"minor\":0}", "device.block",
	     "/dev/loop0 (b 7:0)"},
	    {"{\"type\":\"u\",\"path\":\"/dev/physmem\",\"major\":1,\"minor\":1}", "device.mem",
	     "an unbuffered node of mem under another name (u 1:1)"},
	    {"{\"type\":\"c\",\"path\":\"/dev/null\",\"major\":1,\"minor\":3}", NULL,
	     "/dev/null (c 1:3)"},
	    {"{\"type\":\"c\",\"path\":\"/dev/zero\",\"major\":1,\"minor\":5}", NULL,
	     "/dev/zero (c 1:5)"},
	    {"{\"type\":\"c\",\"path\":\"/dev/urandom\",\"major\":1,\"minor\":9}", NULL,
	     "/dev/urandom (c 1:9)"},
	    {"{\"type\":\"c\",\"path\":\"/dev/tty\",\"major\":5,\"minor\":0}", NULL,
	     "/dev/tty (c 5:0)"},
	    /* Outside the standard set: the operator allows them node by node. */
	    {"{\"type\":\"c\",\"path\":\"/dev/ttyS0\",\"major\":4,\"minor\":64}", "device.c4:64",
	     "/dev/ttyS0 (c 4:64)"},
	    /* The host's console and terminals (issue 25): whoever is logged in
	     * there, the kernel's messages. */
	    {"{\"type\":\"c\",\"path\":\"/dev/console\",\"major\":5,\"minor\":1}", "device.console",
	     "/dev/console (c 5:1, the host's console)"},
	    {"{\"type\":\"c\",\"path\":\"/dev/hostcon\",\"major\":5,\"minor\":1}", "device.console",
	     "the host's console under another name (c 5:1)"},
	    {"{\"type\":\"c\",\"path\":\"/dev/tty1\",\"major\":4,\"minor\":1}", "device.c4:1",
	     "/dev/tty1 (c 4:1, a virtual console)"},
	    {"{\"type\":\"c\",\"path\":\"/dev/tty0\",\"major\":4,\"minor\":0}", "device.c4:0",
	     "/dev/tty0 (c 4:0, the current virtual console)"},
	    {"{\"type\":\"c\",\"path\":\"/dev/ttyAMA0\",\"major\":204,\"minor\":64}",
	     "device.c204:64", "/dev/ttyAMA0 (c 204:64, a serial port)"},
	    {"{\"type\":\"c\",\"path\":\"/dev/dri/card0\",\"major\":226,\"minor\":0}",
	     "device.c226:0", "/dev/dri/card0 (c 226:0, a GPU)"},
	    {"{\"type\":\"c\",\"path\":\"/dev/nvidia0\",\"major\":195,\"minor\":0}",
	     "device.c195:0", "/dev/nvidia0 (c 195:0, a GPU)"},
	    {"{\"type\":\"c\",\"path\":\"/dev/sg0\",\"major\":21,\"minor\":0}", "device.c21:0",
	     "/dev/sg0 (c 21:0, raw SCSI: SG_IO reads and writes the disk)"},
	    {"{\"type\":\"c\",\"path\":\"/dev/input/event0\",\"major\":13,\"minor\":64}",
	     "device.c13:64", "/dev/input/event0 (c 13:64, a keyboard)"},
	    {"{\"type\":\"c\",\"path\":\"/dev/kmsg\",\"major\":1,\"minor\":11}", "device.c1:11",
	     "/dev/kmsg (c 1:11)"},
	    {"{\"type\":\"c\",\"path\":\"/dev/pts/0\",\"major\":136,\"minor\":0}", NULL,
	     "/dev/pts/0 (c 136:0)"},
	    {"{\"type\":\"p\",\"path\":\"/dev/myfifo\"}", NULL, "a fifo"},
	};
	static const struct {
		const char *json, *optout, *what;
	} rules[] = {
	    {"{\"allow\":true,\"access\":\"rwm\"}", "devices-all", "allow, no type: every device"},
	    {"{\"allow\":true,\"type\":\"a\",\"access\":\"rwm\"}", "devices-all", "allow a"},
	    {"{\"allow\":true,\"type\":\"c\",\"access\":\"rwm\"}", "devices-all",
	     "allow c, any major"},
	    {"{\"allow\":true,\"type\":\"b\",\"access\":\"r\"}", "devices-all",
	     "allow b, any major"},
	    {"{\"allow\":true,\"type\":\"c\",\"minor\":1,\"access\":\"rwm\"}", "devices-all",
	     "allow c *:1 (any major)"},
	    {"{\"allow\":true,\"type\":\"c\",\"major\":1,\"minor\":1,\"access\":\"rwm\"}",
	     "device.mem", "allow c 1:1"},
	    {"{\"allow\":true,\"type\":\"c\",\"major\":1,\"minor\":2,\"access\":\"r\"}",
	     "device.kmem", "allow c 1:2"},
	    {"{\"allow\":true,\"type\":\"c\",\"major\":1,\"minor\":4,\"access\":\"rw\"}",
	     "device.port", "allow c 1:4"},
	    {"{\"allow\":true,\"type\":\"c\",\"major\":10,\"minor\":232,\"access\":\"rwm\"}",
	     "device.kvm", "allow c 10:232"},
	    {"{\"allow\":true,\"type\":\"c\",\"major\":10,\"minor\":229,\"access\":\"rwm\"}",
	     "device.fuse", "allow c 10:229"},
	    {"{\"allow\":true,\"type\":\"c\",\"major\":10,\"minor\":200,\"access\":\"rwm\"}",
	     "device.tun", "allow c 10:200"},
	    {"{\"allow\":true,\"type\":\"b\",\"major\":8,\"minor\":0,\"access\":\"rw\"}",
	     "device.block", "allow b 8:0"},
	    {"{\"allow\":true,\"type\":\"b\",\"major\":253,\"access\":\"r\"}", "device.block",
	     "allow b 253:* (one major, any minor)"},
	    /* A wildcard minor: allowed only as the pty slaves (c 136:*);
	     * any other major's every minor is refused by major. */
	    {"{\"allow\":true,\"type\":\"c\",\"major\":1,\"access\":\"rwm\"}", "device.c1:*",
	     "allow c 1:* (mem, kmem, port among them)"},
	    {"{\"allow\":true,\"type\":\"c\",\"major\":1,\"access\":\"r\"}", "device.c1:*",
	     "allow c 1:* r (read alone is /dev/mem's contents)"},
	    {"{\"allow\":true,\"type\":\"c\",\"major\":10,\"access\":\"rwm\"}", "device.c10:*",
	     "allow c 10:* (kvm, fuse, tun, userfaultfd, ...)"},
	    {"{\"allow\":true,\"type\":\"c\",\"major\":10,\"minor\":-1,\"access\":\"rw\"}",
	     "device.c10:*", "allow c 10:-1 (a negative minor is a wildcard)"},
	    {"{\"allow\":true,\"type\":\"c\",\"major\":10,\"minor\":-7,\"access\":\"rw\"}",
	     "device.c10:*", "allow c 10:-7 (any negative minor)"},
	    {"{\"allow\":true,\"type\":\"c\",\"major\":10}", "device.c10:*",
	     "allow c 10:* without access (rwm)"},
	    {"{\"allow\":true,\"type\":\"c\",\"major\":195,\"access\":\"rw\"}", "device.c195:*",
	     "allow c 195:* (a GPU's every minor)"},
	    {"{\"allow\":true,\"type\":\"c\",\"major\":137,\"access\":\"rwm\"}", "device.c137:*",
	     "allow c 137:* (not the standard pty major)"},
	    {"{\"allow\":true,\"type\":\"c\",\"major\":-1,\"minor\":5,\"access\":\"rwm\"}",
	     "devices-all", "allow c -1:5 (a negative major is any major)"},
	    /* mknod alone of every node: standard only for c and b, exactly m. */
	    {"{\"allow\":true,\"type\":\"c\",\"access\":\"rm\"}", "devices-all", "allow c *:* rm"},
	    {"{\"allow\":true,\"type\":\"b\",\"access\":\"mw\"}", "devices-all", "allow b *:* mw"},
	    {"{\"allow\":true,\"type\":\"c\",\"access\":\"\"}", "devices-all",
	     "allow c *:* with an empty access (rwm)"},
	    {"{\"allow\":true,\"type\":\"a\",\"access\":\"m\"}", "devices-all",
	     "allow a *:* m (type a is no standard entry)"},
	    {"{\"allow\":true,\"access\":\"m\"}", "devices-all", "allow *:* m without a type"},
	    {"{\"allow\":true,\"type\":\"c\",\"minor\":3,\"access\":\"m\"}", "devices-all",
	     "allow c *:3 m (a wildcard major with a minor)"},
	    {"{\"allow\":true,\"type\":\"c\",\"major\":5,\"access\":\"m\"}", "device.c5:*",
	     "allow c 5:* m (mknod alone, but one major's: not a standard entry)"},
	    /* New nodes: exact rules. */
	    {"{\"allow\":true,\"type\":\"c\",\"major\":10,\"minor\":238,\"access\":\"rw\"}",
	     "device.vhost-net", "allow c 10:238"},
	    {"{\"allow\":true,\"type\":\"c\",\"major\":10,\"minor\":241,\"access\":\"r\"}",
	     "device.vhost-vsock", "allow c 10:241"},
	    {"{\"allow\":true,\"type\":\"c\",\"major\":10,\"minor\":257,\"access\":\"rwm\"}",
	     "device.c10:257", "allow c 10:257 (userfaultfd on the host this was written on)"},
	    {"{\"allow\":true,\"type\":\"b\",\"major\":7,\"minor\":0,\"access\":\"m\"}",
	     "device.block", "allow b 7:0 m (a block node, even mknod alone)"},
	    {"{\"allow\":false,\"access\":\"rwm\"}", NULL, "deny everything"},
	    {"{\"allow\":false,\"type\":\"c\",\"major\":1,\"minor\":1,\"access\":\"rwm\"}", NULL,
	     "deny c 1:1"},
	    {"{\"allow\":true,\"type\":\"c\",\"major\":1,\"minor\":3,\"access\":\"rwm\"}", NULL,
	     "allow c 1:3 (null)"},
	    {"{\"allow\":true,\"type\":\"c\",\"major\":136,\"access\":\"rwm\"}", NULL,
	     "allow c 136:* (ptys)"},
	    {"{\"allow\":true,\"type\":\"c\",\"major\":136}", NULL,
	     "allow c 136:* without access (ptys, rwm)"},
	    {"{\"allow\":true,\"type\":\"c\",\"major\":136,\"minor\":-1,\"access\":\"rw\"}", NULL,
	     "allow c 136:-1 rw (ptys)"},
	    {"{\"allow\":true,\"type\":\"c\",\"major\":136,\"minor\":-2,\"access\":\"rw\"}", NULL,
	     "allow c 136:-2 rw (ptys; not every device)"},
	    {"{\"allow\":true,\"type\":\"c\",\"access\":\"m\"}", NULL,
	     "allow c *:* m (runc's mknod-only default)"},
	    {"{\"allow\":true,\"type\":\"b\",\"access\":\"m\"}", NULL,
	     "allow b *:* m (runc's mknod-only default)"},
	    {"{\"allow\":true,\"type\":\"c\",\"major\":-1,\"minor\":-1,\"access\":\"m\"}", NULL,
	     "allow c -1:-1 m (negative numbers: wildcards)"},
	    {"{\"allow\":true,\"type\":\"c\",\"major\":195,\"minor\":0,\"access\":\"rw\"}",
	     "device.c195:0", "allow c 195:0 (one GPU node: the operator's to allow)"},
	    {"{\"allow\":false,\"type\":\"c\",\"major\":10,\"access\":\"rwm\"}", NULL,
	     "deny c 10:* (a deny rule only narrows)"},
	    {"{\"allow\":true,\"type\":\"c\",\"major\":5,\"minor\":2,\"access\":\"rwm\"}", NULL,
	     "allow c 5:2 (ptmx)"},
	};
	struct fake f;

	fake_init(&f);
	for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
		char lin[256], what[160];
		struct spec s = {.lin = lin};

		snprintf(lin, sizeof(lin), ",\"devices\":[%s]", nodes[i].json);
		snprintf(what, sizeof(what), "linux.devices: %s", nodes[i].what);
		if (nodes[i].optout)
			expect_refusal(what, &s, NULL, NULL, &f, ".linux.devices[0]",
			               nodes[i].optout);
		else
			expect_allowed(what, &s, NULL, NULL, &f);
	}
	/* Each device opt-out, once. */
	for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
		char lin[256], what[160];
		struct spec s = {.lin = lin};

		if (nodes[i].optout == NULL)
			continue;
		snprintf(lin, sizeof(lin), ",\"devices\":[%s]", nodes[i].json);
		snprintf(what, sizeof(what), "linux.devices: %s", nodes[i].what);
		expect_optout(what, &s, NULL, NULL, &f, ".linux.devices[0]", nodes[i].optout);
	}
	expect_refusal("linux.devices: the index is the refused entry's",
	               &(struct spec){.lin = ",\"devices\":[{\"type\":\"c\",\"path\":\"/dev/null\","
	                                     "\"major\":1,\"minor\":3},{\"type\":\"c\","
	                                     "\"path\":\"/dev/kvm\",\"major\":10,\"minor\":232}]"},
	               NULL, NULL, &f, ".linux.devices[1]", "device.kvm");
	expect_refusal("linux.devices under strict too",
	               &(struct spec){.lin = ",\"devices\":[{\"type\":\"b\",\"path\":\"/dev/"
	                                     "vda\",\"major\":252,\"minor\":0}]"},
	               NULL, "strict", &f, ".linux.devices[0]", "device.block");

	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		char lin[256], what[160];
		struct spec s = {.lin = lin};

		snprintf(lin, sizeof(lin), ",\"resources\":{\"devices\":[%s]}", rules[i].json);
		snprintf(what, sizeof(what), "resources.devices: %s", rules[i].what);
		if (rules[i].optout) {
			expect_refusal(what, &s, NULL, NULL, &f, ".linux.resources.devices[0]",
			               rules[i].optout);
			continue;
		}
		expect_allowed(what, &s, NULL, NULL, &f);
		/* What is allowed, once installed, opens none of the refused
		 * nodes (negative numbers are read the same way). */
		ok(!installed_opens(lin, 'c', 1, 1) && !installed_opens(lin, 'c', 10, 232) &&
		       !installed_opens(lin, 'c', 10, 257) && !installed_opens(lin, 'b', 8, 0) &&
		       !installed_opens(lin, 'c', 4, 0),
		   "%s: installed, it opens no mem, kvm, misc or block node", what);
	}
	expect_optout("resources.devices: allow a",
	              &(struct spec){.lin = ",\"resources\":{"
	                                    "\"devices\":[{\"allow\":"
	                                    "true,\"type\":\"a\"}]}"},
	              NULL, NULL, &f, ".linux.resources.devices[0]", "devices-all");
	expect_optout("resources.devices: allow c 10:200",
	              &(struct spec){.lin = ",\"resources\":{\"devices\":[{\"allow\":true,\"type\":"
	                                    "\"c\",\"major\":10,\"minor\":200}]}"},
	              NULL, NULL, &f, ".linux.resources.devices[0]", "device.tun");
	/* What runc and Podman write: deny all, then the harmless ones. */
	expect_allowed(
	    "resources.devices: deny all, then null, zero, full, random, urandom, tty, ptmx, pts",
	    &(struct spec){
	        .lin = ",\"resources\":{\"devices\":[{\"allow\":false,\"access\":\"rwm\"},"
	               "{\"allow\":true,\"type\":\"c\",\"major\":1,\"minor\":3,\"access\":\"rwm\"},"
	               "{\"allow\":true,\"type\":\"c\",\"major\":1,\"minor\":5,\"access\":\"rwm\"},"
	               "{\"allow\":true,\"type\":\"c\",\"major\":1,\"minor\":7,\"access\":\"rwm\"},"
	               "{\"allow\":true,\"type\":\"c\",\"major\":1,\"minor\":8,\"access\":\"rwm\"},"
	               "{\"allow\":true,\"type\":\"c\",\"major\":1,\"minor\":9,\"access\":\"rwm\"},"
	               "{\"allow\":true,\"type\":\"c\",\"major\":5,\"minor\":0,\"access\":\"rwm\"},"
	               "{\"allow\":true,\"type\":\"c\",\"major\":5,\"minor\":2,\"access\":\"rwm\"},"
	               "{\"allow\":true,\"type\":\"c\",\"major\":136,\"access\":\"rwm\"}]}"},
	    NULL, NULL, &f);
	expect_refusal("resources.devices: the index is the refused rule's",
	               &(struct spec){.lin = ",\"resources\":{\"devices\":[{\"allow\":false,"
	                                     "\"access\":\"rwm\"},{\"allow\":true,\"type\":\"c\","
	                                     "\"major\":1,\"minor\":3},{\"allow\":true,\"type\":"
	                                     "\"c\",\"major\":10,\"minor\":229}]}"},
	               NULL, NULL, &f, ".linux.resources.devices[2]", "device.fuse");

	expect_optout("resources.devices: allow c 10:*",
	              &(struct spec){.lin = ",\"resources\":{\"devices\":[{\"allow\":true,\"type\":"
	                                    "\"c\",\"major\":10,\"access\":\"rwm\"}]}"},
	              NULL, NULL, &f, ".linux.resources.devices[0]", "device.c10:*");
	expect_optout("linux.devices: c 10:257 (userfaultfd here)",
	              &(struct spec){.lin = ",\"devices\":[{\"type\":\"c\",\"path\":\"/dev/"
	                                    "userfaultfd\",\"major\":10,\"minor\":257}]"},
	              NULL, NULL, &f, ".linux.devices[0]", "device.c10:257");
	/* A named node's opt-out does not lift the wildcard over its major. */
	expect_refusal("resources.devices: allow c 1:* with device.mem, kmem and port allowed",
	               &(struct spec){.lin = ",\"resources\":{\"devices\":[{\"allow\":true,"
	                                     "\"type\":\"c\",\"major\":1,\"access\":\"rwm\"}]}"},
	               "{\"allowAlways\":[\"device.mem\",\"device.kmem\",\"device.port\"]}", NULL,
	               &f, ".linux.resources.devices[0]", "device.c1:*");
	expect_refusal("resources.devices: allow c 10:* with device.kvm, fuse and tun allowed",
	               &(struct spec){.lin = ",\"resources\":{\"devices\":[{\"allow\":true,"
	                                     "\"type\":\"c\",\"major\":10,\"access\":\"rwm\"}]}"},
	               "{\"allowAlways\":[\"device.kvm\",\"device.fuse\",\"device.tun\"]}", NULL,
	               &f, ".linux.resources.devices[0]", "device.c10:*");
	/* What containerd's WithDefaultUnixDevices writes, less tun (refused as
	 * before): deny all, the standard nodes, console, c 136:*, ptmx; and
	 * what runc adds to every container (c/b *:* m). */
	expect_allowed(
	    "resources.devices: containerd's default rules and runc's mknod-only ones",
	    &(struct spec){
	        .lin =
	            ",\"resources\":{\"devices\":[{\"allow\":false,\"access\":\"rwm\"},"
	            "{\"allow\":true,\"type\":\"c\",\"access\":\"m\"},"
	            "{\"allow\":true,\"type\":\"b\",\"access\":\"m\"},"
	            "{\"allow\":true,\"type\":\"c\",\"major\":1,\"minor\":3,\"access\":\"rwm\"},"
	            "{\"allow\":true,\"type\":\"c\",\"major\":1,\"minor\":8,\"access\":\"rwm\"},"
	            "{\"allow\":true,\"type\":\"c\",\"major\":1,\"minor\":7,\"access\":\"rwm\"},"
	            "{\"allow\":true,\"type\":\"c\",\"major\":5,\"minor\":0,\"access\":\"rwm\"},"
	            "{\"allow\":true,\"type\":\"c\",\"major\":1,\"minor\":5,\"access\":\"rwm\"},"
	            "{\"allow\":true,\"type\":\"c\",\"major\":1,\"minor\":9,\"access\":\"rwm\"},"
	            "{\"allow\":true,\"type\":\"c\",\"major\":5,\"minor\":1,\"access\":\"rwm\"},"
	            "{\"allow\":true,\"type\":\"c\",\"major\":136,\"access\":\"rwm\"},"
	            "{\"allow\":true,\"type\":\"c\",\"major\":5,\"minor\":2,\"access\":\"rwm\"}]}"},
	    NULL, NULL, &f);
	expect_refusal("resources.devices: strict refuses c 10:* too",
	               &(struct spec){.lin = ",\"resources\":{\"devices\":[{\"allow\":true,"
	                                     "\"type\":\"c\",\"major\":10}]}"},
	               NULL, "strict", &f, ".linux.resources.devices[0]", "device.c10:*");
}

/* ---- refusals: host paths (bind sources, root.path, overlay layers),
 * filesystem types, mount options, cgroup mounts ---- */

static char *bind_json(const char *source)
{
	char *j;

	if (asprintf(&j,
	             "{\"destination\":\"/mnt\",\"type\":\"bind\",\"source\":\"%s\","
	             "\"options\":[\"rbind\",\"ro\"]}",
	             source) < 0)
		abort();
	return j;
}

/* A bind source as config.json writes it and as the fake host has it. */
static const struct bind_case {
	const char *source; /* as written */
	const char *real;   /* what it resolves to; NULL: source */
	mode_t type;
	unsigned int maj, min; /* device nodes */
	const char *as;        /* by identity it is this path (a bind-mount alias, the same
	                        * inode under another name); NULL: real */
	unsigned long fs;      /* its filesystem; 0: ext4 */
	const char *socket;    /* an engine-named socket found in the tree */
	bool incomplete;       /* the tree was too large to search */
	const char *optout;    /* NULL: allowed */
	const char *what;
} binds[] = {
    /* / (is; everything is inside it) */
    {"/", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, "mount:/", "the host's /"},
    {"/var/..", "/", S_IFDIR, 0, 0, NULL, 0, NULL, false, "mount:/",
     "/var/.. (/ spelled otherwise)"},
    {"/srv/root-link", "/", S_IFDIR, 0, 0, NULL, 0, NULL, false, "mount:/", "a symlink to /"},
    {"/mnt/hostroot", NULL, S_IFDIR, 0, 0, "/", 0, NULL, false, "mount:/mnt/hostroot",
     "a bind-mount alias of /"},
    /* System directories: is or contains; what is inside them is not refused */
    {"/usr", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, "mount:/usr", "/usr"},
    {"/bin", "/usr/bin", S_IFDIR, 0, 0, NULL, 0, NULL, false, "mount:/usr/bin",
     "/bin (merged /usr: /usr/bin)"},
    {"/usr/bin", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, "mount:/usr/bin",
     "/usr/bin (which /bin is)"},
    {"/sbin", "/usr/sbin", S_IFDIR, 0, 0, NULL, 0, NULL, false, "mount:/usr/sbin", "/sbin"},
    {"/lib", "/usr/lib", S_IFDIR, 0, 0, NULL, 0, NULL, false, "mount:/usr/lib",
     "/lib (merged /usr: /usr/lib)"},
    {"/usr/lib", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, "mount:/usr/lib",
     "/usr/lib (which /lib is)"},
    {"/lib64", "/usr/lib64", S_IFDIR, 0, 0, NULL, 0, NULL, false, "mount:/usr/lib64", "/lib64"},
    {"/run", NULL, S_IFDIR, 0, 0, NULL, TMPFS_MAGIC, NULL, false, "mount:/run", "/run"},
    {"/var/run", "/run", S_IFDIR, 0, 0, NULL, TMPFS_MAGIC, NULL, false, "mount:/run",
     "/var/run (a symlink to /run)"},
    {"/opt/ward/bin", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, "mount:/opt/ward/bin",
     "the directory ward runs from"},
    {"/opt/ward", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, "mount:/opt/ward",
     "a directory containing ward's binary's"},
    {"/srv/usr-alias", NULL, S_IFDIR, 0, 0, "/usr", 0, NULL, false, "mount:/srv/usr-alias",
     "a bind-mount alias of /usr"},
    {"/usr/share/zoneinfo", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, NULL,
     "a directory inside /usr"},
    {"/run/user/1000", NULL, S_IFDIR, 0, 0, NULL, TMPFS_MAGIC, NULL, false, NULL,
     "a directory inside /run (no engine socket in it)"},
    /* Kernel and state trees: is, contains or inside */
    {"/proc", NULL, S_IFDIR, 0, 0, NULL, PROC_SUPER_MAGIC, NULL, false, "mount:/proc", "/proc"},
    {"/proc/sys", NULL, S_IFDIR, 0, 0, NULL, PROC_SUPER_MAGIC, NULL, false, "mount:/proc/sys",
     "a directory inside /proc"},
    {"/proc/sysrq-trigger", NULL, S_IFREG, 0, 0, NULL, PROC_SUPER_MAGIC, NULL, false,
     "mount:/proc/sysrq-trigger", "a file inside /proc"},
    {"/sys", NULL, S_IFDIR, 0, 0, NULL, SYSFS_MAGIC, NULL, false, "mount:/sys", "/sys"},
    {"/sys/fs/cgroup", NULL, S_IFDIR, 0, 0, NULL, CGROUP2_SUPER_MAGIC, NULL, false,
     "mount:/sys/fs/cgroup", "a directory inside /sys"},
    {"/sys/kernel/uevent_helper", NULL, S_IFREG, 0, 0, NULL, SYSFS_MAGIC, NULL, false,
     "mount:/sys/kernel/uevent_helper", "a file inside /sys"},
    {"/boot", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, "mount:/boot", "/boot"},
    {"/boot/vmlinuz", NULL, S_IFREG, 0, 0, NULL, 0, NULL, false, "mount:/boot/vmlinuz",
     "a file inside /boot"},
    {"/root", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, "mount:/root", "/root"},
    {"/root/.ssh", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, "mount:/root/.ssh",
     "a directory inside /root"},
    {"/run/ward", NULL, S_IFDIR, 0, 0, NULL, TMPFS_MAGIC, NULL, false, "mount:/run/ward",
     "/run/ward"},
    {"/run/ward/c1", NULL, S_IFDIR, 0, 0, NULL, TMPFS_MAGIC, NULL, false, "mount:/run/ward/c1",
     "a container's state directory inside /run/ward"},
    {"/srv/ward-state", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, "mount:/srv/ward-state",
     "ward's state root (--root)"},
    {"/srv/ward-state/c1", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, "mount:/srv/ward-state/c1",
     "a container's state directory (its config.json)"},
    {"/srv/ward-state/c1/config.json", NULL, S_IFREG, 0, 0, NULL, 0, NULL, false,
     "mount:/srv/ward-state/c1/config.json", "a container's saved config.json"},
    {"/srv", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, "mount:/srv",
     "a directory containing ward's state root"},
    /* /etc: is or contains; inside: directories, and files not allowed by name */
    {"/etc", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, "mount:/etc", "/etc"},
    {"/etc/", "/etc", S_IFDIR, 0, 0, NULL, 0, NULL, false, "mount:/etc", "/etc/"},
    {"/srv/etc-alias", NULL, S_IFDIR, 0, 0, "/etc", 0, NULL, false, "mount:/srv/etc-alias",
     "a bind-mount alias of /etc (another path, the same directory)"},
    {"/etc/ssl", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, "mount:/etc/ssl",
     "a directory inside /etc"},
    {"/etc/kubernetes/pki", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, "mount:/etc/kubernetes/pki",
     "a directory two levels inside /etc"},
    {"/etc/shadow", NULL, S_IFREG, 0, 0, NULL, 0, NULL, false, "mount:/etc/shadow",
     "the file /etc/shadow"},
    {"/etc/sudoers", NULL, S_IFREG, 0, 0, NULL, 0, NULL, false, "mount:/etc/sudoers",
     "the file /etc/sudoers"},
    {"/etc/ssh/sshd_config", NULL, S_IFREG, 0, 0, NULL, 0, NULL, false,
     "mount:/etc/ssh/sshd_config", "a file two levels inside /etc"},
    {"/srv/etc-alias/hosts", NULL, S_IFREG, 0, 0, "/etc/hosts", 0, NULL, false,
     "mount:/srv/etc-alias/hosts", "/etc/hosts through an alias of /etc (not its name)"},
    {"/etc/hosts", NULL, S_IFREG, 0, 0, NULL, 0, NULL, false, NULL, "the file /etc/hosts"},
    {"/etc/resolv.conf", NULL, S_IFREG, 0, 0, NULL, 0, NULL, false, NULL,
     "the file /etc/resolv.conf"},
    {"/etc/hostname", NULL, S_IFREG, 0, 0, NULL, 0, NULL, false, NULL, "the file /etc/hostname"},
    {"/srv/hosts-link", "/etc/hosts", S_IFREG, 0, 0, NULL, 0, NULL, false, NULL,
     "a symlink to /etc/hosts"},
    {"/etcetera", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, NULL,
     "/etcetera (only a prefix of /etc)"},
    /* /dev: is or contains; inside: directories */
    {"/dev", NULL, S_IFDIR, 0, 0, NULL, TMPFS_MAGIC, NULL, false, "mount:/dev", "/dev"},
    {"/dev/shm", NULL, S_IFDIR, 0, 0, NULL, TMPFS_MAGIC, NULL, false, "mount:/dev/shm",
     "a directory inside /dev"},
    {"/dev/dri", NULL, S_IFDIR, 0, 0, NULL, TMPFS_MAGIC, NULL, false, "mount:/dev/dri",
     "another directory inside /dev"},
    {"/dev/shm/data", NULL, S_IFREG, 0, 0, NULL, TMPFS_MAGIC, NULL, false, NULL,
     "a regular file inside /dev"},
    {"/devel", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, NULL, "/devel (only a prefix of /dev)"},
    /* Engines' state: is or contains; their volumes inside are allowed */
    {"/var/lib/docker", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, "mount:/var/lib/docker",
     "/var/lib/docker"},
    {"/var/lib/containerd", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, "mount:/var/lib/containerd",
     "/var/lib/containerd"},
    {"/var/lib/containers", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, "mount:/var/lib/containers",
     "/var/lib/containers"},
    {"/var/lib/kubelet", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, "mount:/var/lib/kubelet",
     "/var/lib/kubelet"},
    {"/run/containerd", NULL, S_IFDIR, 0, 0, NULL, TMPFS_MAGIC, NULL, false,
     "mount:/run/containerd", "/run/containerd"},
    {"/var/lib", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, "mount:/var/lib",
     "/var/lib (contains /var/lib/docker)"},
    {"/var", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, "mount:/var",
     "/var (contains /var/lib/kubelet)"},
    {"/var/lib/docker/volumes/data/_data", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, NULL,
     "a docker volume inside /var/lib/docker"},
    {"/var/lib/docker/containers/abc/hosts", NULL, S_IFREG, 0, 0, NULL, 0, NULL, false, NULL,
     "the hosts file docker writes for a container"},
    {"/var/lib/containers/storage/volumes/v/_data", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, NULL,
     "a podman volume inside /var/lib/containers"},
    {"/var/lib/kubelet/pods/0f1e/volumes/kubernetes.io~empty-dir/cache", NULL, S_IFDIR, 0, 0, NULL,
     0, NULL, false, NULL, "a kubelet emptyDir inside /var/lib/kubelet"},
    {"/run/containerd/io.containerd.grpc.v1.cri/sandboxes/abc/shm", NULL, S_IFDIR, 0, 0, NULL,
     TMPFS_MAGIC, NULL, false, NULL, "a pod's shm inside /run/containerd"},
    {"/var/lib/docker-data", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, NULL,
     "/var/lib/docker-data (only a prefix of /var/lib/docker)"},
    /* Plain data */
    {"/var/lib/data", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, NULL, "/var/lib/data"},
    {"/srv/www", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, NULL, "/srv/www"},
    {"/home/alice/project", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, NULL, "a home directory"},
    {"/system", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, NULL, "/system (only a prefix of /sys)"},
    {"/srv/ward-state-old", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, NULL,
     "/srv/ward-state-old (only a prefix of ward's state root)"},
    /* Engine sockets: by identity, by name, in the tree */
    {"/run/docker.sock", NULL, S_IFSOCK, 0, 0, NULL, TMPFS_MAGIC, NULL, false,
     "mount:/run/docker.sock", "/run/docker.sock"},
    {"/var/run/docker.sock", "/run/docker.sock", S_IFSOCK, 0, 0, NULL, TMPFS_MAGIC, NULL, false,
     "mount:/run/docker.sock", "/var/run/docker.sock"},
    {"/srv/api.sock", NULL, S_IFSOCK, 0, 0, "/run/docker.sock", 0, NULL, false,
     "mount:/srv/api.sock", "docker's socket under another name (same inode)"},
    {"/srv/c.sock", NULL, S_IFSOCK, 0, 0, "/run/containerd/containerd.sock", 0, NULL, false,
     "mount:/srv/c.sock", "containerd's socket under another name (same inode)"},
    {"/run/podman", NULL, S_IFDIR, 0, 0, NULL, TMPFS_MAGIC, NULL, false, "mount:/run/podman",
     "/run/podman (contains podman.sock)"},
    {"/home/alice/.docker/run/docker.sock", NULL, S_IFSOCK, 0, 0, NULL, 0, NULL, false,
     "mount:/home/alice/.docker/run/docker.sock", "a socket named docker.sock"},
    {"/srv/e/containerd.sock", NULL, S_IFSOCK, 0, 0, NULL, 0, NULL, false,
     "mount:/srv/e/containerd.sock", "a socket named containerd.sock"},
    {"/run/user/1000/podman/podman.sock", NULL, S_IFSOCK, 0, 0, NULL, TMPFS_MAGIC, NULL, false,
     "mount:/run/user/1000/podman/podman.sock", "a socket named podman.sock"},
    {"/srv/e/crio.sock", NULL, S_IFSOCK, 0, 0, NULL, 0, NULL, false, "mount:/srv/e/crio.sock",
     "a socket named crio.sock"},
    {"/srv/e/dockershim.sock", NULL, S_IFSOCK, 0, 0, NULL, 0, NULL, false,
     "mount:/srv/e/dockershim.sock", "a socket named dockershim.sock"},
    {"/srv/sock-link", "/srv/e/docker.sock", S_IFSOCK, 0, 0, NULL, 0, NULL, false,
     "mount:/srv/e/docker.sock", "a symlink to a socket named docker.sock"},
    /* Any socket: the service behind it takes the container's root as a
     * client (an attacker's review: systemd's, D-Bus's). */
    {"/srv/app.sock", NULL, S_IFSOCK, 0, 0, NULL, 0, NULL, false, "mount:/srv/app.sock",
     "another socket (other inode, other name)"},
    {"/srv/docker.sock", NULL, S_IFREG, 0, 0, NULL, 0, NULL, false, NULL,
     "a regular file named docker.sock"},
    {"/srv/e", NULL, S_IFDIR, 0, 0, NULL, 0, "/x/containerd.sock", false, "mount:/srv/e",
     "a directory with a socket named containerd.sock two levels down"},
    {"/home/alice", NULL, S_IFDIR, 0, 0, NULL, 0, "/.docker/run/docker.sock", false,
     "mount:/home/alice", "a home directory holding a docker.sock"},
    {"/srv/big", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, true, "mount:/srv/big",
     "a directory too large to search for sockets"},
    /* Filesystems: storage only */
    {"/mnt/p", NULL, S_IFDIR, 0, 0, NULL, PROC_SUPER_MAGIC, NULL, false, "mount:/mnt/p",
     "a procfs mounted elsewhere"},
    {"/mnt/p/sysrq-trigger", NULL, S_IFREG, 0, 0, NULL, PROC_SUPER_MAGIC, NULL, false,
     "mount:/mnt/p/sysrq-trigger", "a file of a procfs mounted elsewhere"},
    {"/mnt/s", NULL, S_IFDIR, 0, 0, NULL, SYSFS_MAGIC, NULL, false, "mount:/mnt/s",
     "a sysfs mounted elsewhere"},
    {"/mnt/cg", NULL, S_IFDIR, 0, 0, NULL, CGROUP2_SUPER_MAGIC, NULL, false, "mount:/mnt/cg",
     "a cgroup2 mounted elsewhere"},
    {"/mnt/cg1", NULL, S_IFDIR, 0, 0, NULL, CGROUP_SUPER_MAGIC, NULL, false, "mount:/mnt/cg1",
     "a cgroup v1 hierarchy mounted elsewhere"},
    {"/mnt/dbg", NULL, S_IFDIR, 0, 0, NULL, DEBUGFS_MAGIC, NULL, false, "mount:/mnt/dbg",
     "a debugfs mounted elsewhere"},
    {"/mnt/trace", NULL, S_IFDIR, 0, 0, NULL, TRACEFS_MAGIC, NULL, false, "mount:/mnt/trace",
     "a tracefs"},
    {"/mnt/sec", NULL, S_IFDIR, 0, 0, NULL, SECURITYFS_MAGIC, NULL, false, "mount:/mnt/sec",
     "a securityfs"},
    {"/mnt/bpf", NULL, S_IFDIR, 0, 0, NULL, BPF_FS_MAGIC, NULL, false, "mount:/mnt/bpf",
     "a bpf filesystem"},
    {"/mnt/ns", NULL, S_IFREG, 0, 0, NULL, NSFS_MAGIC, NULL, false, "mount:/mnt/ns",
     "a namespace file (nsfs)"},
    {"/srv/ext4", NULL, S_IFDIR, 0, 0, NULL, EXT4_SUPER_MAGIC, NULL, false, NULL, "on ext4"},
    {"/srv/tmp", NULL, S_IFDIR, 0, 0, NULL, TMPFS_MAGIC, NULL, false, NULL, "on tmpfs"},
    {"/srv/xfs", NULL, S_IFDIR, 0, 0, NULL, XFS_SUPER_MAGIC, NULL, false, NULL, "on xfs"},
    {"/srv/9p", NULL, S_IFDIR, 0, 0, NULL, V9FS_MAGIC, NULL, false, NULL, "on 9p"},
    {"/srv/btrfs", NULL, S_IFDIR, 0, 0, NULL, BTRFS_SUPER_MAGIC, NULL, false, NULL, "on btrfs"},
    /* Device nodes: the device rules (on devtmpfs) */
    {"/dev/mem", NULL, S_IFCHR, 1, 1, NULL, TMPFS_MAGIC, NULL, false, "device.mem",
     "the node /dev/mem"},
    {"/dev/kmem", NULL, S_IFCHR, 1, 2, NULL, TMPFS_MAGIC, NULL, false, "device.kmem",
     "the node /dev/kmem"},
    {"/dev/port", NULL, S_IFCHR, 1, 4, NULL, TMPFS_MAGIC, NULL, false, "device.port",
     "the node /dev/port"},
    {"/dev/kvm", NULL, S_IFCHR, 10, 232, NULL, TMPFS_MAGIC, NULL, false, "device.kvm",
     "the node /dev/kvm"},
    {"/dev/fuse", NULL, S_IFCHR, 10, 229, NULL, TMPFS_MAGIC, NULL, false, "device.fuse",
     "the node /dev/fuse"},
    {"/dev/net/tun", NULL, S_IFCHR, 10, 200, NULL, TMPFS_MAGIC, NULL, false, "device.tun",
     "the node /dev/net/tun"},
    {"/dev/vhost-net", NULL, S_IFCHR, 10, 238, NULL, TMPFS_MAGIC, NULL, false, "device.vhost-net",
     "the node /dev/vhost-net"},
    {"/dev/vhost-vsock", NULL, S_IFCHR, 10, 241, NULL, TMPFS_MAGIC, NULL, false,
     "device.vhost-vsock", "the node /dev/vhost-vsock"},
    {"/dev/userfaultfd", NULL, S_IFCHR, 10, 257, NULL, TMPFS_MAGIC, NULL, false, "device.c10:257",
     "the node /dev/userfaultfd (c 10:257, numbered at boot)"},
    {"/srv/nodes/uffd", NULL, S_IFCHR, 10, 125, NULL, 0, NULL, false, "device.c10:125",
     "a misc node made elsewhere (c 10:125)"},
    {"/dev/sda1", NULL, S_IFBLK, 8, 1, NULL, TMPFS_MAGIC, NULL, false, "device.block",
     "the block node /dev/sda1"},
    {"/srv/nodes/m", NULL, S_IFCHR, 1, 1, NULL, 0, NULL, false, "device.mem",
     "a node of mem made elsewhere"},
    {"/srv/nodes/disk", NULL, S_IFBLK, 259, 0, NULL, 0, NULL, false, "device.block",
     "a block node made elsewhere"},
    {"/dev/null", NULL, S_IFCHR, 1, 3, NULL, TMPFS_MAGIC, NULL, false, NULL, "the node /dev/null"},
    {"/dev/urandom", NULL, S_IFCHR, 1, 9, NULL, TMPFS_MAGIC, NULL, false, NULL,
     "the node /dev/urandom"},
    {"/dev/tty", NULL, S_IFCHR, 5, 0, NULL, TMPFS_MAGIC, NULL, false, NULL, "the node /dev/tty"},
};

static void fake_bind(struct host_path *p, const struct bind_case *b)
{
	fake_path(p, b->real ? b->real : b->source, b->type, makedev(b->maj, b->min));
	if (b->as)
		fake_relate(p, b->as);
	if (b->fs)
		p->fs_type = b->fs;
	if (b->socket)
		snprintf(p->socket, sizeof(p->socket), "%s", b->socket);
	p->scan_incomplete = b->incomplete;
}

static const struct bind_case *bind_case_of(const char *source)
{
	for (size_t i = 0; i < sizeof(binds) / sizeof(binds[0]); i++)
		if (strcmp(binds[i].source, source) == 0)
			return &binds[i];
	abort();
}

/* The refusal of field, with no opt-out at all; the reason names written. */
static void expect_refusal_no_optout(const char *what, const struct spec *s, const char *cli,
                                     struct fake *f, const char *field, const char *written)
{
	char pol[512];
	struct run r;
	const struct finding *fd;

	run(&r, s, NULL, cli, f);
	fd = find(&r.x, FIND_REFUSE, field, NULL);
	if (!ok(r.rc == 0 && r.x.n_refused == 1 && fd && fd->optout[0] == '\0' &&
	            strstr(fd->why, written),
	        "refused: %s (%s, no opt-out)", what, field))
		dump(&r.x);
	run_free(&r);
	/* Not even an opt-out naming the path as written. */
	if (written[0] == '/') {
		snprintf(pol, sizeof(pol), "{\"allowAlways\":[\"mount:%s\"]}", written);
		run(&r, s, pol, cli, f);
		if (!ok(r.rc == 0 && r.x.n_refused == 1 && find(&r.x, FIND_REFUSE, field, NULL),
		        "%s: \"mount:%s\" does not lift it", what, written))
			dump(&r.x);
		run_free(&r);
	}
}

/* Each kind of sensitive path (ward-policy(7), issue #12) against each
 * relation, alone: which ones the kind refuses. */
static void test_kinds(void)
{
	enum { IS_DIR, CONTAINS_DIR, INSIDE_DIR, INSIDE_FILE, IS_SOCK, NREL };
	static const unsigned rel_bit[NREL] = {REL_IS, REL_CONTAINS, REL_INSIDE, REL_INSIDE,
	                                       REL_IS};
	static const mode_t rel_type[NREL] = {S_IFDIR, S_IFDIR, S_IFDIR, S_IFREG, S_IFSOCK};
	static const char *const rel_name[NREL] = {"is it", "contains it", "a directory inside it",
	                                           "a file (not /etc/hosts...) inside it",
	                                           "a socket that is it"};
	/* 1: refused, 0: allowed, -1: cannot happen */
	static const struct {
		const char *sens;
		int refused[NREL];
	} kinds[] = {
	    {"/", {1, 0, 0, 0, -1}},                  /* root: is */
	    {"/usr", {1, 1, 0, 0, -1}},               /* system: is, contains */
	    {"/run", {1, 1, 0, 0, -1}},               /* system */
	    {"/opt/ward/bin", {1, 1, 0, 0, -1}},      /* binary: ward's binary's directory */
	    {"/proc", {1, 1, 1, 1, -1}},              /* tree: is, contains, inside */
	    {"/root", {1, 1, 1, 1, -1}},              /* tree */
	    {"/srv/ward-state", {1, 1, 1, 1, -1}},    /* tree: ward's state root */
	    {"/run/ward", {1, 1, 1, 1, -1}},          /* tree */
	    {"/etc", {1, 1, 1, 1, -1}},               /* etc: inside, dirs and unlisted files */
	    {"/dev", {1, 1, 1, 0, -1}},               /* dev: inside, dirs */
	    {"/var/lib/docker", {1, 1, 0, 0, -1}},    /* engine: is, contains */
	    {"/run/containerd", {1, 1, 0, 0, -1}},    /* engine */
	    {"/run/docker.sock", {-1, 1, -1, -1, 1}}, /* socket: is, contains */
	};
	struct fake f;

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		size_t k = 0;

		while (k < N_FAKE_SENS && strcmp(fake_sens[k].path, kinds[i].sens) != 0)
			k++;
		if (k == N_FAKE_SENS)
			abort();
		for (int r = 0; r < NREL; r++) {
			char *m = bind_json("/srv/x"), what[192];
			struct spec s = {.mounts = m};

			if (kinds[i].refused[r] < 0) {
				free(m);
				continue;
			}
			fake_init(&f);
			fake_path(&f.mounts[0], "/srv/x", rel_type[r], 0);
			memset(f.mounts[0].rel, 0, sizeof(f.mounts[0].rel));
			f.mounts[0].rel[k] = rel_bit[r];
			snprintf(what, sizeof(what), "bind source /srv/x that (by identity) %s: %s",
			         rel_name[r], kinds[i].sens);
			if (kinds[i].refused[r])
				expect_refusal(what, &s, NULL, NULL, &f, ".mounts[0].source",
				               "mount:/srv/x");
			else
				expect_allowed(what, &s, NULL, NULL, &f);
			/* The same for root.path (a directory). */
			if (rel_type[r] == S_IFDIR) {
				fake_init(&f);
				fake_path(&f.h.root, "/srv/x", S_IFDIR, 0);
				memset(f.h.root.rel, 0, sizeof(f.h.root.rel));
				f.h.root.rel[k] = rel_bit[r];
				snprintf(what, sizeof(what), "root.path /srv/x that %s: %s",
				         rel_name[r], kinds[i].sens);
				/* A root filesystem is written (its mount points): inside
				 * the system's trees or an engine's state (but where the
				 * engine mounts roots) it is refused as a writable bind
				 * is. */
				if (kinds[i].refused[r] ||
				    (r == INSIDE_DIR && strcmp(kinds[i].sens, "/") != 0 &&
				     strcmp(kinds[i].sens, "/opt/ward/bin") != 0))
					expect_refusal(what, &(struct spec){.ns = NULL}, NULL, NULL,
					               &f, ".root.path", "mount:/srv/x");
				else
					expect_allowed(what, &(struct spec){.ns = NULL}, NULL, NULL,
					               &f);
			}
			free(m);
		}
	}
}

/* "rbind" plus "ro" or not. */
static char *bind_rw_json(const char *source, bool ro)
{
	char *j;

	if (asprintf(&j,
	             "{\"destination\":\"/mnt\",\"type\":\"bind\",\"source\":\"%s\","
	             "\"options\":[\"rbind\"%s]}",
	             source, ro ? ",\"ro\"" : "") < 0)
		abort();
	return j;
}

/* issue 25: host authority by use. A writable bind of what the host's
 * root runs or trusts (package databases, cron and at spools, systemd's
 * and the journal's state), of a home directory or one of its dot-entries
 * (.ssh, shell start-up files), or of a tree holding a program owned by
 * root (the class: the next package manager's scripts are found by what
 * they are, not by a name) is refused in baseline and strict; read-only
 * it is allowed; compat takes it. */
static void test_root_trusts(void)
{
	struct fake rl;
	static const struct {
		const char *real, *as; /* as: by identity it is, or is inside, this */
		mode_t type;
		unsigned rel_as; /* its relation to as; 0: from the path */
		const char *root_exec;
		bool refused;
		const char *what;
	} c[] = {
	    {"/var/lib/dpkg", NULL, S_IFDIR, 0, NULL, true, "/var/lib/dpkg"},
	    {"/var/lib/dpkg/info", NULL, S_IFDIR, 0, NULL, true, "dpkg's maintainer scripts"},
	    {"/var/lib/dpkg/status", NULL, S_IFREG, 0, NULL, true, "dpkg's status file"},
	    {"/var/log", NULL, S_IFDIR, 0, NULL, true, "/var/log (contains the journal)"},
	    {"/srv/pkgdb", "/var/lib/dpkg", S_IFDIR, REL_IS, NULL, true,
	     "a bind-mount alias of /var/lib/dpkg"},
	    {"/var/spool/cron/crontabs", NULL, S_IFDIR, 0, NULL, true, "cron's spool"},
	    {"/var/spool/at", NULL, S_IFDIR, 0, NULL, true, "at's spool"},
	    {"/var/lib/systemd/timers", NULL, S_IFDIR, 0, NULL, true, "systemd's state"},
	    {"/var/log/journal", NULL, S_IFDIR, 0, NULL, true, "the journal"},
	    {"/home/alice", NULL, S_IFDIR, 0, NULL, true, "a home directory"},
	    {"/home", NULL, S_IFDIR, 0, NULL, true, "/home (contains the homes)"},
	    {"/home/alice/.ssh", NULL, S_IFDIR, 0, NULL, true, "~/.ssh"},
	    {"/home/alice/.bashrc", NULL, S_IFREG, 0, NULL, true, "~/.bashrc"},
	    {"/home/alice/.config/autostart", NULL, S_IFDIR, 0, NULL, true, "~/.config/autostart"},
	    {"/srv/h", "/home/alice", S_IFDIR, REL_INSIDE, NULL, true,
	     "inside the home by identity, not by name (an alias): fails closed"},
	    {"/home/alice/project", NULL, S_IFDIR, 0, NULL, false, "a project in a home"},
	    {"/home/alice/project/.git", NULL, S_IFDIR, 0, NULL, false,
	     "a dot-directory of a project, not of the home"},
	    {"/opt/tool", NULL, S_IFDIR, 0, "/bin/run", true,
	     "a tree holding a program owned by root (the class)"},
	    {"/var/lib/newpm", NULL, S_IFDIR, 0, "/scripts/p.postinst", true,
	     "an unnamed package database with root's scripts"},
	    {"/opt/tool/bin/run", NULL, S_IFREG, 0, "/opt/tool/bin/run", true,
	     "a program owned by root itself"},
	    {"/var/lib/containers/storage/volumes/v/_data", NULL, S_IFDIR, 0, "/bin/x", false,
	     "an engine's volume holding root's programs (the container's)"},
	    {"/var/lib/containers/storage/volumes/v/_data/sub", NULL, S_IFDIR, 0, NULL, false,
	     "a directory inside an engine's volume"},
	    {"/var/lib/containers/storage/volumes/v", NULL, S_IFDIR, 0, NULL, true,
	     "a volume's own directory (not its _data)"},
	    {"/var/lib/containers/storage/overlay/abc/diff", NULL, S_IFDIR, 0, NULL, true,
	     "an image layer in an engine's state (no program needed)"},
	    {"/var/lib/containers/storage/overlay-containers/c1/userdata", NULL, S_IFDIR, 0, NULL,
	     true, "a container's userdata (its config.json, read as root at the next start)"},
	    {"/var/lib/containers/storage/overlay-containers/c1/userdata/hosts", NULL, S_IFREG, 0,
	     NULL, false, "a container's hosts file the engine makes"},
	    {"/var/lib/containers/storage/overlay-containers/c1/userdata/../../c2/userdata/hosts",
	     NULL, S_IFREG, 0, NULL, true, "a path that is not the canonical one fails closed"},
	    {"/var/lib/data", NULL, S_IFDIR, 0, NULL, false, "plain data"},
	    {"/var/lib/dpkg-old", NULL, S_IFDIR, 0, NULL, false, "only a prefix of /var/lib/dpkg"},
	};
	struct fake f;

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		for (int ro = 0; ro < 2; ro++)
			for (int p = 0; p < 3; p++) {
				static const char *const prof[] = {NULL, "strict", "compat"};
				char *m = bind_rw_json(c[i].real, ro), what[256];
				struct spec s = {.mounts = m};
				bool refused = c[i].refused && !ro && p < 2;

				fake_init(&f);
				fake_path(&f.mounts[0], c[i].real, c[i].type, 0);
				if (c[i].as) {
					fake_relate(&f.mounts[0], c[i].as);
					for (size_t k = 0; k < N_FAKE_SENS; k++)
						if (strcmp(fake_sens[k].path, c[i].as) == 0)
							f.mounts[0].rel[k] = c[i].rel_as;
				}
				if (c[i].root_exec)
					snprintf(f.mounts[0].root_exec,
					         sizeof(f.mounts[0].root_exec), "%s",
					         c[i].root_exec);
				snprintf(what, sizeof(what), "%s %s bind of %s: %s",
				         prof[p] ? prof[p] : "baseline",
				         ro ? "read-only" : "writable", c[i].real, c[i].what);
				if (refused) {
					char opt[PATH_MAX];

					snprintf(opt, sizeof(opt), "mount:%s", c[i].real);
					expect_refusal(what, &s, NULL, prof[p], &f,
					               ".mounts[0].source", opt);
				} else {
					expect_allowed(what, &s, NULL, prof[p], &f);
				}
				free(m);
			}
	/* Rootless, root's files are the caller's own (the user namespace's
	 * ids): a project with its scripts stays writable. */
	fake_init(&rl);
	rl.h.rootless = true;
	fake_path(&rl.mounts[0], "/home/bob/src", S_IFDIR, 0);
	snprintf(rl.mounts[0].root_exec, sizeof(rl.mounts[0].root_exec), "/build.sh");
	{
		char *m = bind_rw_json("/home/bob/src", false);

		expect_allowed("rootless: a writable bind holding the caller's own programs",
		               &(struct spec){.mounts = m}, NULL, NULL, &rl);
		free(m);
	}
}

/* issue 25: process attributes ward sets as root before dropping the
 * capabilities. strict refuses each (no opt-out); baseline unless the
 * container keeps the capability it needs (in its bounding set, and not
 * capped away: cap.SYS_NICE / cap.SYS_RESOURCE); compat takes them. */
static void test_process_attrs(void)
{
	static const struct {
		const char *proc, *field, *cap;
		const char *what;
	} bad[] = {
	    {",\"scheduler\":{\"policy\":\"SCHED_OTHER\",\"nice\":-20}", ".process.scheduler.nice",
	     "SYS_NICE", "nice -20"},
	    {",\"scheduler\":{\"policy\":\"SCHED_FIFO\",\"priority\":50}",
	     ".process.scheduler.policy", "SYS_NICE", "SCHED_FIFO"},
	    {",\"scheduler\":{\"policy\":\"SCHED_RR\",\"priority\":1}", ".process.scheduler.policy",
	     "SYS_NICE", "SCHED_RR"},
	    {",\"scheduler\":{\"policy\":\"SCHED_DEADLINE\",\"runtime\":1000000,"
	     "\"deadline\":2000000,\"period\":2000000}",
	     ".process.scheduler.policy", "SYS_NICE", "SCHED_DEADLINE"},
	    {",\"ioPriority\":{\"class\":\"IOPRIO_CLASS_RT\",\"priority\":0}",
	     ".process.ioPriority.class", "SYS_NICE", "IOPRIO_CLASS_RT"},
	    {",\"oomScoreAdj\":-1", ".process.oomScoreAdj", "SYS_RESOURCE",
	     "oomScoreAdj below ward's own (0)"},
	    {",\"oomScoreAdj\":-1000", ".process.oomScoreAdj", "SYS_RESOURCE", "oomScoreAdj -1000"},
	    {",\"rlimits\":[{\"type\":\"RLIMIT_NOFILE\",\"soft\":1024,\"hard\":2097152}]",
	     ".process.rlimits[0]", "SYS_RESOURCE", "RLIMIT_NOFILE hard above the host's"},
	    {",\"rlimits\":[{\"type\":\"RLIMIT_NOFILE\",\"soft\":1024,\"hard\":1024},"
	     "{\"type\":\"RLIMIT_RTPRIO\",\"soft\":99,\"hard\":99}]",
	     ".process.rlimits[1]", "SYS_RESOURCE", "RLIMIT_RTPRIO above the host's 0"},
	};
	static const struct {
		const char *proc, *what;
	} good[] = {
	    {",\"scheduler\":{\"policy\":\"SCHED_OTHER\",\"nice\":10}", "nice 10"},
	    {",\"scheduler\":{\"policy\":\"SCHED_BATCH\"}", "SCHED_BATCH"},
	    {",\"scheduler\":{\"policy\":\"SCHED_IDLE\"}", "SCHED_IDLE"},
	    {",\"ioPriority\":{\"class\":\"IOPRIO_CLASS_BE\",\"priority\":4}", "IOPRIO_CLASS_BE"},
	    {",\"ioPriority\":{\"class\":\"IOPRIO_CLASS_IDLE\",\"priority\":7}",
	     "IOPRIO_CLASS_IDLE"},
	    {",\"oomScoreAdj\":0", "oomScoreAdj equal to ward's"},
	    {",\"oomScoreAdj\":1000", "oomScoreAdj 1000 (Kubernetes' BestEffort)"},
	    {",\"rlimits\":[{\"type\":\"RLIMIT_NOFILE\",\"soft\":1048576,\"hard\":1048576}]",
	     "RLIMIT_NOFILE at the host's hard limit (Podman's default)"},
	    {",\"rlimits\":[{\"type\":\"RLIMIT_CORE\",\"soft\":0,\"hard\":0}]", "RLIMIT_CORE 0"},
	};
	struct fake f;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char what[160], opt[64], keep[256], nokeep[256], *pol;
		struct spec s = {.proc = bad[i].proc}, sk = s, sn = s;
		struct run r;

		snprintf(opt, sizeof(opt), "cap.%s", bad[i].cap);
		snprintf(
		    keep, sizeof(keep),
		    "%s,\"capabilities\":{\"bounding\":[\"CAP_%s\"],\"permitted\":[\"CAP_%s\"],"
		    "\"effective\":[\"CAP_%s\"]}",
		    bad[i].proc, bad[i].cap, bad[i].cap, bad[i].cap);
		snprintf(nokeep, sizeof(nokeep),
		         "%s,\"capabilities\":{\"bounding\":[\"CAP_CHOWN\"]}", bad[i].proc);
		sk.proc = keep;
		sn.proc = nokeep;
		snprintf(what, sizeof(what), "process: %s", bad[i].what);
		fake_init(&f);
		expect_refusal(what, &s, NULL, NULL, &f, bad[i].field, opt);
		fake_init(&f);
		expect_refusal(what, &sn, NULL, NULL, &f, bad[i].field, opt);
		/* Kept (listed, and the opt-out lets the capping keep it). */
		if (asprintf(&pol, "{\"allowAlways\":[\"%s\"]}", opt) < 0)
			abort();
		fake_init(&f);
		snprintf(what, sizeof(what), "process: %s with CAP_%s kept", bad[i].what,
		         bad[i].cap);
		expect_allowed(what, &sk, pol, NULL, &f);
		/* The opt-out without the capability in the bounding set. */
		fake_init(&f);
		snprintf(what, sizeof(what), "process: %s, %s on but CAP_%s not listed",
		         bad[i].what, opt, bad[i].cap);
		expect_refusal(what, &sn, pol, NULL, &f, bad[i].field, opt);
		/* strict: refused, no opt-out, even with the capability. */
		fake_init(&f);
		run(&r, &sk, pol, "strict", &f);
		if (!ok(r.rc == 0 && refused_as(&r.x, bad[i].field, ""),
		        "strict refuses process: %s (no opt-out)", bad[i].what))
			dump(&r.x);
		run_free(&r);
		fake_init(&f);
		snprintf(what, sizeof(what), "compat: process: %s", bad[i].what);
		expect_allowed(what, &s, NULL, "compat", &f);
		free(pol);
	}
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		char what[160];

		snprintf(what, sizeof(what), "process: %s", good[i].what);
		fake_init(&f);
		expect_allowed(what, &(struct spec){.proc = good[i].proc}, NULL, NULL, &f);
		fake_init(&f);
		expect_allowed(what, &(struct spec){.proc = good[i].proc}, NULL, "strict", &f);
	}
	/* Below ward's own oom_score_adj, not below 0: a shim at -999 may
	 * start Kubernetes' Guaranteed pods (-997). */
	fake_init(&f);
	f.h.limits.oom_score_adj = -999;
	expect_allowed("process: oomScoreAdj -997 under a ward at -999",
	               &(struct spec){.proc = ",\"oomScoreAdj\":-997"}, NULL, NULL, &f);
}

/* issue 25: under strict, linux.resources.unified (written after the
 * structured limits) may not undo a limit: each key is classified, a key
 * strict does not know is refused, each refusal names the key. strict's
 * limits here: memory 512 MiB, no swap, 256 pids, one CPU. baseline and
 * compat take them (their limits are the config's own). */
static void test_unified(void)
{
	static const struct {
		const char *key, *value;
		bool refused;
		const char *what;
	} c[] = {
	    {"memory.max", "max", true, "memory.max max"},
	    {"memory.max", "1073741824", true, "memory.max 1 GiB (above 512 MiB)"},
	    {"memory.max", "1G", true, "memory.max 1G (the kernel's suffix)"},
	    {"memory.max", "268435456", false, "memory.max 256 MiB (tighter)"},
	    {"memory.max", "256M", false, "memory.max 256M"},
	    {"memory.max", "536870912", false, "memory.max at strict's limit"},
	    {"memory.max", "lots", true, "memory.max not a number"},
	    {"memory.max", "99999999999999999999", true, "memory.max out of range"},
	    {"memory.high", "max", true, "memory.high max"},
	    {"memory.high", "100M", false, "memory.high 100M"},
	    {"memory.swap.max", "max", true, "memory.swap.max max"},
	    {"memory.swap.max", "1048576", true, "memory.swap.max 1 MiB (strict: no swap)"},
	    {"memory.swap.max", "0", false, "memory.swap.max 0"},
	    {"pids.max", "max", true, "pids.max max"},
	    {"pids.max", "100000", true, "pids.max above 256"},
	    {"pids.max", "64", false, "pids.max 64"},
	    {"cpu.max", "max", true, "cpu.max max"},
	    {"cpu.max", "max 100000", true, "cpu.max max 100000"},
	    {"cpu.max", "400000 100000", true, "cpu.max four CPUs"},
	    {"cpu.max", "200000", true, "cpu.max 200000 (default period: two CPUs)"},
	    {"cpu.max", "50000 100000", false, "cpu.max half a CPU"},
	    {"cpu.max", "x y", true, "cpu.max malformed"},
	    {"cpu.weight", "10000", false, "cpu.weight (a share within the parent's)"},
	    {"io.max", "8:0 rbps=1048576", false, "io.max (only limits)"},
	    {"memory.oom.group", "1", false, "memory.oom.group"},
	    {"hugetlb.2MB.max", "0", false, "hugetlb.2MB.max"},
	    {"memory.min", "536870912", true, "memory.min (reclaim protection)"},
	    {"memory.low", "1", true, "memory.low"},
	    {"io.latency", "8:0 target=10", true, "io.latency"},
	    {"cpu.uclamp.min", "100", true, "cpu.uclamp.min"},
	    {"memory.reclaim", "1G", true, "memory.reclaim (unknown to strict)"},
	    {"foo.bar", "1", true, "an unknown controller's file"},
	};
	struct fake f;

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char lin[256], field[128], what[192];
		struct spec s = {.lin = lin};
		struct run r;

		snprintf(lin, sizeof(lin), ",\"resources\":{\"unified\":{\"%s\":\"%s\"}}", c[i].key,
		         c[i].value);
		snprintf(field, sizeof(field), ".linux.resources.unified[\"%s\"]", c[i].key);
		snprintf(what, sizeof(what), "strict, unified: %s", c[i].what);
		fake_init(&f);
		run(&r, &s, NULL, "strict", &f);
		if (!ok(r.rc == 0 &&
		            (c[i].refused ? r.x.n_refused == 1 && refused_as(&r.x, field, "")
		                          : r.x.n_refused == 0),
		        "%s: %s", what, c[i].refused ? "refused, naming the key" : "allowed"))
			dump(&r.x);
		run_free(&r);
		fake_init(&f);
		snprintf(what, sizeof(what), "baseline, unified: %s", c[i].what);
		expect_allowed(what, &s, NULL, NULL, &f);
	}
	/* A config limit tighter than strict's is the one compared with. */
	fake_init(&f);
	expect_refusal("strict, unified memory.max above the config's own tighter memory.limit",
	               &(struct spec){.lin = ",\"resources\":{\"memory\":{\"limit\":104857600},"
	                                     "\"unified\":{\"memory.max\":\"200M\"}}"},
	               NULL, "strict", &f, ".linux.resources.unified[\"memory.max\"]", "");
	/* The policy's own strict limits. */
	fake_init(&f);
	expect_allowed(
	    "strict, unified memory.max 1G under a policy's 2 GiB limit",
	    &(struct spec){.lin = ",\"resources\":{\"unified\":{\"memory.max\":\"1G\"}}"},
	    "{\"strict\":{\"memoryLimit\":2147483648}}", "strict", &f);
}

static void test_binds(void)
{
	struct fake f;

	for (size_t i = 0; i < sizeof(binds) / sizeof(binds[0]); i++) {
		const struct bind_case *b = &binds[i];
		char *m = bind_json(b->source), what[192];
		struct spec s = {.mounts = m};

		fake_init(&f);
		fake_bind(&f.mounts[0], b);
		snprintf(what, sizeof(what), "bind source %s: %s", b->source, b->what);
		if (b->optout) {
			expect_refusal(what, &s, NULL, NULL, &f, ".mounts[0].source", b->optout);
			expect_refusal(what, &s, NULL, "strict", &f, ".mounts[0].source",
			               b->optout);
		} else {
			expect_allowed(what, &s, NULL, NULL, &f);
			expect_allowed(what, &s, NULL, "strict", &f);
		}
		free(m);
	}

	/* The opt-outs, for one of each kind. */
	{
		static const char *const some[] = {"/",
		                                   "/var/..",
		                                   "/etc",
		                                   "/srv/etc-alias",
		                                   "/etc/shadow",
		                                   "/var/lib",
		                                   "/usr",
		                                   "/var/run",
		                                   "/sys/fs/cgroup",
		                                   "/srv/ward-state/c1",
		                                   "/srv/api.sock",
		                                   "/run/podman",
		                                   "/home/alice/.docker/run/docker.sock",
		                                   "/srv/e",
		                                   "/srv/big",
		                                   "/mnt/p",
		                                   "/mnt/dbg",
		                                   "/dev/shm",
		                                   "/dev/mem",
		                                   "/srv/nodes/disk"};

		for (size_t k = 0; k < sizeof(some) / sizeof(some[0]); k++) {
			const struct bind_case *b = bind_case_of(some[k]);
			char *m = bind_json(b->source), what[192];
			struct spec s = {.mounts = m};

			if (!b->optout)
				abort();
			fake_init(&f);
			fake_bind(&f.mounts[0], b);
			snprintf(what, sizeof(what), "bind source %s", b->source);
			expect_optout(what, &s, NULL, NULL, &f, ".mounts[0].source", b->optout);
			free(m);
		}
	}

	/* The opt-out may name the path as written or as resolved; the refusal
	 * names the resolved one. */
	{
		char *m = bind_json("/srv/etc-link");
		struct spec s = {.mounts = m};
		struct spec sa = s;
		struct run r;

		fake_init(&f);
		fake_path(&f.mounts[0], "/etc", S_IFDIR, 0);
		expect_refusal("bind source /srv/etc-link, a symlink to /etc", &s, NULL, NULL, &f,
		               ".mounts[0].source", "mount:/etc");
		sa.ann = "\"org.ward.allow.mount:/etc\":\"true\"";
		run(&r, &sa, "{\"allow\":[\"mount:/etc\"]}", NULL, &f);
		ok(r.rc == 0 && r.x.n_refused == 0,
		   "mount:/etc (the resolved path) lifts the refusal of /srv/etc-link");
		run_free(&r);
		sa.ann = "\"org.ward.allow.mount:/srv/etc-link\":\"true\"";
		run(&r, &sa, "{\"allow\":[\"mount:/srv/etc-link\"]}", NULL, &f);
		ok(r.rc == 0 && r.x.n_refused == 0,
		   "mount:/srv/etc-link (the path as written) lifts it too");
		run_free(&r);
		run(&r, &s, "{\"allowAlways\":[\"mount:/srv\"]}", NULL, &f);
		ok(r.rc == 0 && r.x.n_refused == 1,
		   "mount:/srv (a parent of the path as written) does not lift it");
		run_free(&r);
		free(m);
	}

	/* A relative source (it starts at the bundle): only the resolved path
	 * is an opt-out (the policy file takes absolute ones only). */
	{
		char *m = bind_json("hostetc");
		struct spec s = {.mounts = m};
		struct run r;

		fake_init(&f);
		fake_path(&f.mounts[0], "/etc", S_IFDIR, 0);
		expect_refusal("relative bind source hostetc resolving to /etc", &s, NULL, NULL, &f,
		               ".mounts[0].source", "mount:/etc");
		expect_optout("relative bind source hostetc resolving to /etc", &s, NULL, NULL, &f,
		              ".mounts[0].source", "mount:/etc");
		r.pol = pol_new("{\"allowAlways\":[\"mount:hostetc\"]}");
		ok(r.pol == NULL, "a policy file cannot name the relative mount:hostetc");
		policy_free(r.pol);
		fake_init(&f);
		fake_path(&f.mounts[0], "/srv/bundle/hostdata", S_IFDIR, 0);
		expect_allowed("relative bind source resolving to the bundle's own data", &s, NULL,
		               NULL, &f);
		free(m);
	}

	/* What cannot be opened: a missing source is create's error (it fails
	 * there, with no fd to mount); anything else is refused, with no
	 * opt-out. */
	{
		static const struct {
			const char *source;
			int err;
			const char *what;
		} un[] = {
		    {"/proc/1/root/etc", ELOOP, "a magic link (/proc/<pid>/root/...)"},
		    {"/srv/moved", ESTALE, "a path that cannot be placed (moved while checked)"},
		    {"/srv/private/x", EACCES, "a path ward may not open"},
		};

		for (size_t i = 0; i < sizeof(un) / sizeof(un[0]); i++) {
			char *m = bind_json(un[i].source), what[192];
			struct spec s = {.mounts = m};

			snprintf(what, sizeof(what), "bind source %s: %s", un[i].source,
			         un[i].what);
			fake_init(&f);
			fake_unresolved(&f.mounts[0], un[i].err);
			expect_refusal_no_optout(what, &s, NULL, &f, ".mounts[0].source",
			                         un[i].source);
			expect_refusal_no_optout(what, &s, "strict", &f, ".mounts[0].source",
			                         un[i].source);
			free(m);
		}
		{
			char *m = bind_json("/srv/missing");
			struct spec s = {.mounts = m};

			fake_init(&f);
			fake_unresolved(&f.mounts[0], ENOENT);
			expect_allowed("bind source /srv/missing: does not exist (create's error)",
			               &s, NULL, NULL, &f);
			expect_allowed("... strict", &s, NULL, "strict", &f);
			free(m);
		}
		/* ESTALE with the path read back before it could not be placed:
		 * mount:<that path> does not lift it either. */
		{
			char *m = bind_json("/srv/moved");
			struct spec s = {.mounts = m};
			struct run r;

			fake_init(&f);
			fake_path(&f.mounts[0], "/srv/moved-to", S_IFDIR, 0);
			f.mounts[0].resolved = false;
			f.mounts[0].err = ESTALE;
			run(&r, &s, "{\"allowAlways\":[\"mount:/srv/moved-to\"]}", NULL, &f);
			if (!ok(r.rc == 0 && r.x.n_refused == 1 &&
			            refused_as(&r.x, ".mounts[0].source", ""),
			        "ESTALE: mount:<path read back> does not lift it"))
				dump(&r.x);
			run_free(&r);
			free(m);
		}
	}

	/* The field names the refused mount; "bind" as an option counts. */
	{
		struct spec s = {
		    .mounts =
		        "{\"destination\":\"/tmp\",\"type\":\"tmpfs\",\"source\":\"tmpfs\"},"
		        "{\"destination\":\"/data\",\"type\":\"bind\",\"source\":\"/srv/data\"},"
		        "{\"destination\":\"/host-etc\",\"type\":\"none\",\"source\":\"/etc/"
		        "pki\",\"options\":[\"bind\",\"ro\"]}"};

		fake_init(&f);
		fake_path(&f.mounts[1], "/srv/data", S_IFDIR, 0);
		fake_path(&f.mounts[2], "/etc/pki", S_IFDIR, 0);
		expect_refusal("a \"bind\" option on the third mount", &s, NULL, NULL, &f,
		               ".mounts[2].source", "mount:/etc/pki");
		expect_refusal("... under strict too", &s, NULL, "strict", &f, ".mounts[2].source",
		               "mount:/etc/pki");
	}

	/* root.path: the same rules. */
	{
		static const struct bind_case roots[] = {
		    {"/", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, "mount:/", "the host's /"},
		    {"/etc", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, "mount:/etc", "/etc"},
		    {"/usr", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, "mount:/usr", "/usr"},
		    {"/srv/root-link", "/", S_IFDIR, 0, 0, NULL, 0, NULL, false, "mount:/",
		     "a symlink to /"},
		    {"/mnt/hostroot", NULL, S_IFDIR, 0, 0, "/", 0, NULL, false,
		     "mount:/mnt/hostroot", "a bind-mount alias of /"},
		    {"/srv/ward-state/c1", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false,
		     "mount:/srv/ward-state/c1", "a container's state directory"},
		    {"/mnt/s", NULL, S_IFDIR, 0, 0, NULL, SYSFS_MAGIC, NULL, false, "mount:/mnt/s",
		     "a sysfs"},
		    {"/srv/c/rootfs", NULL, S_IFDIR, 0, 0, NULL, 0, "/run/docker.sock", false,
		     "mount:/srv/c/rootfs", "a rootfs with a docker.sock in it"},
		    {"/srv/c/huge", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, true, "mount:/srv/c/huge",
		     "a rootfs too large to search"},
		    {"/srv/bundle/rootfs", NULL, S_IFDIR, 0, 0, NULL, 0, NULL, false, NULL,
		     "a bundle's rootfs"},
		    {"/var/lib/containers/storage/overlay/abc/merged", NULL, S_IFDIR, 0, 0, NULL,
		     OVERLAYFS_SUPER_MAGIC, NULL, false, NULL, "podman's rootfs"},
		    {"/run/containerd/io.containerd.runtime.v2.task/k8s.io/abc/rootfs", NULL,
		     S_IFDIR, 0, 0, NULL, OVERLAYFS_SUPER_MAGIC, NULL, false, NULL,
		     "containerd's rootfs"},
		};
		struct spec s = {.ns = NULL};

		for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
			char what[192];

			fake_init(&f);
			fake_bind(&f.h.root, &roots[i]);
			snprintf(what, sizeof(what), "root.path %s: %s", roots[i].source,
			         roots[i].what);
			if (roots[i].optout) {
				expect_refusal(what, &s, NULL, NULL, &f, ".root.path",
				               roots[i].optout);
				expect_refusal(what, &s, NULL, "strict", &f, ".root.path",
				               roots[i].optout);
			} else {
				expect_allowed(what, &s, NULL, NULL, &f);
				expect_allowed(what, &s, NULL, "strict", &f);
			}
		}
		fake_init(&f);
		fake_path(&f.h.root, "/", S_IFDIR, 0);
		expect_optout("root.path resolving to the host's /", &s, NULL, NULL, &f,
		              ".root.path", "mount:/");
		fake_init(&f);
		fake_unresolved(&f.h.root, ELOOP);
		expect_refusal_no_optout("root.path through a magic link", &s, NULL, &f,
		                         ".root.path", "rootfs");
		fake_init(&f);
		fake_unresolved(&f.h.root, ENOENT);
		expect_allowed("root.path that does not exist (create's error)", &s, NULL, NULL,
		               &f);
	}

	/* Writable cgroup mounts: refused only on a host with v1 hierarchies. */
	{
		struct spec rw = {.mounts =
		                      "{\"destination\":\"/sys/fs/cgroup\",\"type\":\"cgroup\","
		                      "\"source\":\"cgroup\",\"options\":[\"nosuid\",\"noexec\","
		                      "\"nodev\",\"rw\"]}"},
		            rw2 = {.mounts =
		                       "{\"destination\":\"/proc\",\"type\":\"proc\",\"source\":"
		                       "\"proc\"},{\"destination\":\"/sys/fs/cgroup\",\"type\":"
		                       "\"cgroup2\",\"source\":\"cgroup2\",\"options\":[\"rw\"]}"},
		            ro = {.mounts =
		                      "{\"destination\":\"/sys/fs/cgroup\",\"type\":\"cgroup\","
		                      "\"source\":\"cgroup\",\"options\":[\"nosuid\",\"noexec\","
		                      "\"nodev\",\"relatime\",\"ro\"]}"};
		struct run r;
		const struct finding *fd;

		fake_init(&f);
		f.h.cgroup_v1 = true;
		run(&r, &rw, NULL, NULL, &f);
		fd = find(&r.x, FIND_REFUSE, NULL, "cgroup-rw");
		if (!ok(r.rc == 0 && r.x.n_refused == 1 && fd &&
		            strncmp(fd->field, ".mounts[0]", 10) == 0,
		        "refused: a writable cgroup mount on a v1 host (%s, opt-out cgroup-rw)",
		        fd ? fd->field : "-"))
			dump(&r.x);
		run_free(&r);
		run(&r, &rw2, NULL, "strict", &f);
		fd = find(&r.x, FIND_REFUSE, NULL, "cgroup-rw");
		if (!ok(r.rc == 0 && r.x.n_refused == 1 && fd &&
		            strncmp(fd->field, ".mounts[1]", 10) == 0,
		        "refused: a writable cgroup2 mount on a hybrid (v1) host, strict (%s)",
		        fd ? fd->field : "-"))
			dump(&r.x);
		run_free(&r);
		expect_optout("a writable cgroup mount on a v1 host", &rw, NULL, NULL, &f,
		              ".mounts[0].source", "cgroup-rw");
		expect_allowed("a read-only cgroup mount on a v1 host", &ro, NULL, NULL, &f);
		fake_init(&f);
		f.h.cgroup_v1 = false;
		expect_allowed("a writable cgroup mount on a v2-only host", &rw, NULL, NULL, &f);
		expect_allowed("a writable cgroup2 mount on a v2-only host", &rw2, NULL, NULL, &f);
	}
}

/* A non-bind mount of type at dest; opts: elements of its options. */
static char *fs_json(const char *dest, const char *type, const char *source, const char *opts)
{
	char *j;

	if (asprintf(&j,
	             "{\"destination\":\"%s\",\"type\":\"%s\",\"source\":\"%s\","
	             "\"options\":[%s]}",
	             dest, type, source, S(opts)) < 0)
		abort();
	return j;
}

/* Filesystem types: what a container needs; mount options that act on
 * existing mounts; overlay layers; strict's idmapped binds. */
static void test_mount_types(void)
{
	static const char *const profiles[] = {NULL, "strict"};
	struct fake f;

	/* Allowed types, where they belong. */
	{
		static const struct {
			const char *dest, *type, *source, *opts;
		} good[] = {
		    {"/tmp", "tmpfs", "tmpfs", "\"nosuid\",\"size=64m\""},
		    {"/proc", "proc", "proc", NULL},
		    {"/sys", "sysfs", "sysfs", "\"ro\",\"nosuid\""},
		    {"/dev/pts", "devpts", "devpts", "\"newinstance\",\"ptmxmode=0666\""},
		    {"/dev/mqueue", "mqueue", "mqueue", NULL},
		    {"/sys/fs/cgroup", "cgroup", "cgroup", "\"ro\""},
		    {"/sys/fs/cgroup", "cgroup2", "cgroup2", "\"ro\""},
		};

		for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
			for (size_t p = 0; p < 2; p++) {
				char *m = fs_json(good[i].dest, good[i].type, good[i].source,
				                  good[i].opts),
				     what[128];
				struct spec s = {.mounts = m};

				snprintf(what, sizeof(what), "%s at %s (%s)", good[i].type,
				         good[i].dest, profiles[p] ? profiles[p] : "baseline");
				fake_init(&f);
				expect_allowed(what, &s, NULL, profiles[p], &f);
				free(m);
			}
	}

	/* Any other type: the host's disks, devices, kernel interfaces. */
	{
		static const struct {
			const char *type, *source;
		} bad[] = {
		    {"ext4", "/dev/sda1"},
		    {"xfs", "/dev/nvme0n1p2"},
		    {"ramfs", "ramfs"},
		    {"devtmpfs", "devtmpfs"},
		    {"debugfs", "debugfs"},
		    {"tracefs", "tracefs"},
		    {"securityfs", "securityfs"},
		    {"bpf", "bpf"},
		    {"binfmt_misc", "binfmt_misc"},
		    {"configfs", "configfs"},
		    {"efivarfs", "efivarfs"},
		    {"pstore", "pstore"},
		    {"fusectl", "fusectl"},
		    {"hugetlbfs", "hugetlbfs"},
		    {"nfs", "srv:/export"},
		    {"9p", "hostshare"},
		    {"fuse.sshfs", "u@h:/"},
		    {"TMPFS", "tmpfs"},
		};

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			char *m = fs_json("/mnt", bad[i].type, bad[i].source, NULL), what[128],
			     opt[64];
			struct spec s = {.mounts = m};

			snprintf(opt, sizeof(opt), "mount-type.%s", bad[i].type);
			for (size_t p = 0; p < 2; p++) {
				snprintf(what, sizeof(what), "filesystem type %s at /mnt (%s)",
				         bad[i].type, profiles[p] ? profiles[p] : "baseline");
				fake_init(&f);
				expect_refusal(what, &s, NULL, profiles[p], &f, ".mounts[0].type",
				               opt);
			}
			if (strcmp(bad[i].type, "ext4") == 0 || strcmp(bad[i].type, "ramfs") == 0 ||
			    strcmp(bad[i].type, "debugfs") == 0) {
				snprintf(what, sizeof(what), "filesystem type %s", bad[i].type);
				fake_init(&f);
				expect_optout(what, &s, NULL, NULL, &f, ".mounts[0].type", opt);
			}
			free(m);
		}
	}

	/* proc: only at /proc, only in a pid namespace of the container's own. */
	{
		char *at_mnt = fs_json("/mnt/proc", "proc", "proc", NULL),
		     *at_proc = fs_json("/proc", "proc", "proc", NULL);
		struct spec mnt = {.mounts = at_mnt},
		            nopid = {.mounts = at_proc,
		                     .ns = "{\"type\":\"ipc\"},{\"type\":\"uts\"},{\"type\":"
		                           "\"mount\"},{\"type\":\"network\"}"},
		            hostpid = {.mounts = at_proc,
		                       .ns = "{\"type\":\"ipc\"},{\"type\":\"uts\"},{\"type\":"
		                             "\"mount\"},{\"type\":\"network\"},{\"type\":\"pid\","
		                             "\"path\":\"/proc/1/ns/pid\"}"},
		            podpid = {.mounts = at_proc,
		                      .ns = "{\"type\":\"ipc\"},{\"type\":\"uts\"},{\"type\":"
		                            "\"mount\"},{\"type\":\"network\"},{\"type\":\"pid\","
		                            "\"path\":\"/proc/4242/ns/pid\"}"};
		struct run r;

		for (size_t p = 0; p < 2; p++) {
			char what[128];

			snprintf(what, sizeof(what), "a second proc at /mnt/proc (%s)",
			         profiles[p] ? profiles[p] : "baseline");
			fake_init(&f);
			expect_refusal(what, &mnt, NULL, profiles[p], &f, ".mounts[0].type",
			               "mount-type.proc");
		}
		fake_init(&f);
		expect_optout("a second proc at /mnt/proc", &mnt, NULL, NULL, &f, ".mounts[0].type",
		              "mount-type.proc");

		fake_init(&f);
		run(&r, &nopid, NULL, NULL, &f);
		if (!ok(r.rc == 0 && refused_as(&r.x, ".mounts[0].type", "mount-type.proc") &&
		            refused_as(&r.x, ".linux.namespaces", "host-pid"),
		        "refused: proc without a pid namespace (mount-type.proc, and host-pid)"))
			dump(&r.x);
		run_free(&r);

		fake_init(&f);
		f.ns_host[4] = true;
		f.ns_owner[4] = NS_OWNER_HOST;
		run(&r, &hostpid, NULL, NULL, &f);
		if (!ok(r.rc == 0 && refused_as(&r.x, ".mounts[0].type", "mount-type.proc") &&
		            refused_as(&r.x, ".linux.namespaces[4].path", "host-pid"),
		        "refused: proc in the host's pid namespace joined by path "
		        "(mount-type.proc, and host-pid)"))
			dump(&r.x);
		run_free(&r);

		fake_init(&f);
		expect_allowed("proc at /proc in another container's pid namespace", &podpid, NULL,
		               NULL, &f);
		free(at_mnt);
		free(at_proc);
	}

	/* remount, move, rmove act on the host's existing mounts: never. */
	{
		static const char *const acts[] = {"remount", "move", "rmove"};

		for (size_t i = 0; i < 3; i++) {
			char opts[64], *tm, *bm, what[128];

			snprintf(opts, sizeof(opts), "\"%s\",\"size=1g\"", acts[i]);
			tm = fs_json("/dev/shm", "tmpfs", "shm", opts);
			snprintf(opts, sizeof(opts), "\"rbind\",\"%s\"", acts[i]);
			bm = fs_json("/data", "bind", "/srv/data", opts);
			for (size_t p = 0; p < 2; p++) {
				const char *pn = profiles[p] ? profiles[p] : "baseline";

				snprintf(what, sizeof(what), "\"%s\" on a tmpfs (%s)", acts[i], pn);
				fake_init(&f);
				expect_refusal_no_optout(what, &(struct spec){.mounts = tm},
				                         profiles[p], &f, ".mounts[0].options",
				                         acts[i]);
				snprintf(what, sizeof(what), "\"%s\" on a bind mount (%s)", acts[i],
				         pn);
				fake_init(&f);
				fake_path(&f.mounts[0], "/srv/data", S_IFDIR, 0);
				expect_refusal_no_optout(what, &(struct spec){.mounts = bm},
				                         profiles[p], &f, ".mounts[0].options",
				                         acts[i]);
			}
			free(tm);
			free(bm);
		}
	}

	/* overlay: every layer is a host path like a bind source; only
	 * read-only overlays (lowerdir alone: upperdir and workdir would be
	 * looked up by name when overlayfs mounts). */
	{
		char *etc = fs_json("/mnt", "overlay", "overlay", "\"lowerdir=/srv/o/l1:/etc\""),
		     *good =
		         fs_json("/mnt", "overlay", "overlay", "\"lowerdir=/srv/o/l1:/srv/o/l2\""),
		     *upper = fs_json("/mnt", "overlay", "overlay",
		                      "\"lowerdir=/srv/o/l1\",\"upperdir=/srv/o/u\","
		                      "\"workdir=/srv/o/w\""),
		     *none = fs_json("/mnt", "overlay", "overlay", "\"ro\"");
		struct spec se = {.mounts = etc}, sg = {.mounts = good}, su = {.mounts = upper},
		            sn = {.mounts = none};

		for (size_t p = 0; p < 2; p++) {
			const char *pn = profiles[p] ? profiles[p] : "baseline";
			char what[128];

			fake_init(&f);
			f.n_overlay[0] = 2;
			fake_path(&f.layers[0][0], "/srv/o/l1", S_IFDIR, 0);
			fake_path(&f.layers[0][1], "/etc", S_IFDIR, 0);
			snprintf(what, sizeof(what), "overlay with a lower layer /etc (%s)", pn);
			expect_refusal(what, &se, NULL, profiles[p], &f, ".mounts[0].options",
			               "mount:/etc");
			if (p == 0)
				expect_optout("overlay with a lower layer /etc", &se, NULL, NULL,
				              &f, ".mounts[0].options", "mount:/etc");

			fake_init(&f);
			f.n_overlay[0] = 2;
			fake_path(&f.layers[0][0], "/srv/o/l1", S_IFDIR, 0);
			fake_path(&f.layers[0][1], "/srv/o/l2", S_IFDIR, 0);
			snprintf(what, sizeof(what), "read-only overlay, layers on storage (%s)",
			         pn);
			expect_allowed(what, &sg, NULL, profiles[p], &f);

			/* A layer in /usr, one on sysfs, one that is a magic link:
			 * refused like bind sources; a missing one is create's
			 * error. */
			fake_path(&f.layers[0][1], "/usr", S_IFDIR, 0);
			snprintf(what, sizeof(what), "overlay with a layer /usr (%s)", pn);
			expect_refusal(what, &sg, NULL, profiles[p], &f, ".mounts[0].options",
			               "mount:/usr");
			fake_path(&f.layers[0][1], "/mnt/s", S_IFDIR, 0);
			f.layers[0][1].fs_type = SYSFS_MAGIC;
			snprintf(what, sizeof(what), "overlay with a layer on sysfs (%s)", pn);
			expect_refusal(what, &sg, NULL, profiles[p], &f, ".mounts[0].options",
			               "mount:/mnt/s");
			fake_path(&f.layers[0][1], "/srv/o/l2", S_IFDIR, 0);
			snprintf(f.layers[0][1].socket, sizeof(f.layers[0][1].socket),
			         "/run/docker.sock");
			snprintf(what, sizeof(what),
			         "overlay with a layer holding docker.sock (%s)", pn);
			expect_refusal(what, &sg, NULL, profiles[p], &f, ".mounts[0].options",
			               "mount:/srv/o/l2");
			fake_unresolved(&f.layers[0][1], ELOOP);
			snprintf(what, sizeof(what),
			         "overlay with a layer that cannot be opened (%s)", pn);
			expect_refusal(what, &sg, NULL, profiles[p], &f, ".mounts[0].options", "");
			fake_unresolved(&f.layers[0][1], ENOENT);
			snprintf(what, sizeof(what),
			         "overlay with a missing layer (create's error, %s)", pn);
			expect_allowed(what, &sg, NULL, profiles[p], &f);

			fake_init(&f);
			f.n_overlay[0] = 3;
			fake_path(&f.layers[0][0], "/srv/o/l1", S_IFDIR, 0);
			fake_path(&f.layers[0][1], "/srv/o/u", S_IFDIR, 0);
			fake_path(&f.layers[0][2], "/srv/o/w", S_IFDIR, 0);
			snprintf(what, sizeof(what), "overlay with an upper layer (%s)", pn);
			expect_refusal(what, &su, NULL, profiles[p], &f, ".mounts[0].options",
			               "mount-type.overlay");
			fake_init(&f);
			snprintf(what, sizeof(what), "overlay without layers (%s)", pn);
			expect_refusal(what, &sn, NULL, profiles[p], &f, ".mounts[0].type",
			               "mount-type.overlay");
		}
		free(etc);
		free(good);
		free(upper);
		free(none);
	}

	/* strict: idmapped binds (host files become the container's own). */
	{
		static const char *const idm[] = {"\"rbind\",\"idmap\"", "\"rbind\",\"ridmap\"",
		                                  NULL};

		for (size_t i = 0; idm[i]; i++) {
			char *m = fs_json("/data", "bind", "/srv/data", idm[i]), what[128];
			struct spec s = {.mounts = m};

			fake_init(&f);
			fake_path(&f.mounts[0], "/srv/data", S_IFDIR, 0);
			snprintf(what, sizeof(what), "strict: an idmapped bind (%s)", idm[i]);
			expect_refusal(what, &s, NULL, "strict", &f, ".mounts[0].options", "idmap");
			snprintf(what, sizeof(what), "baseline: an idmapped bind (%s)", idm[i]);
			expect_allowed(what, &s, NULL, NULL, &f);
			if (i == 0)
				expect_optout("strict: an idmapped bind", &s, NULL, "strict", &f,
				              ".mounts[0].options", "idmap");
			free(m);
		}
		/* A mount with its own uidMappings/gidMappings is idmapped too
		 * (runtime-spec), "idmap" option or not. */
		{
			struct spec s = {
			    .mounts =
			        "{\"destination\":\"/data\",\"type\":\"bind\",\"source\":"
			        "\"/srv/data\",\"options\":[\"rbind\"],\"uidMappings\":[{"
			        "\"containerID\":0,\"hostID\":0,\"size\":1}],\"gidMappings\":[{"
			        "\"containerID\":0,\"hostID\":0,\"size\":1}]}"};

			fake_init(&f);
			fake_path(&f.mounts[0], "/srv/data", S_IFDIR, 0);
			expect_refusal("strict: a bind with uidMappings (idmapped, no \"idmap\" "
			               "option)",
			               &s, NULL, "strict", &f, ".mounts[0].options", "idmap");
		}
	}
}

/* ---- refusals: capabilities ---- */

static const struct {
	const char *name;
	int cap;
} refused_caps[] = {
    {"SYS_ADMIN", CAP_SYS_ADMIN}, {"SYS_MODULE", CAP_SYS_MODULE},
    {"SYS_RAWIO", CAP_SYS_RAWIO}, {"SYS_PTRACE", CAP_SYS_PTRACE},
    {"SYS_BOOT", CAP_SYS_BOOT},   {"SYS_TIME", CAP_SYS_TIME},
    {"NET_ADMIN", CAP_NET_ADMIN}, {"BPF", CAP_BPF},
    {"PERFMON", CAP_PERFMON},     {"DAC_READ_SEARCH", CAP_DAC_READ_SEARCH},
    {"MAC_ADMIN", CAP_MAC_ADMIN}, {"MAC_OVERRIDE", CAP_MAC_OVERRIDE},
    {"SYSLOG", CAP_SYSLOG},       {"CHECKPOINT_RESTORE", CAP_CHECKPOINT_RESTORE},
};

/* ward-policy(7)'s safe set. */
static const uint64_t safe_set = BIT(CAP_CHOWN) | BIT(CAP_DAC_OVERRIDE) | BIT(CAP_FOWNER) |
                                 BIT(CAP_FSETID) | BIT(CAP_KILL) | BIT(CAP_SETGID) |
                                 BIT(CAP_SETUID) | BIT(CAP_SETPCAP) | BIT(CAP_NET_BIND_SERVICE) |
                                 BIT(CAP_SYS_CHROOT) | BIT(CAP_SETFCAP);

#define SAFE_NAMES                                                                                 \
	"\"CAP_CHOWN\",\"CAP_DAC_OVERRIDE\",\"CAP_FOWNER\",\"CAP_FSETID\",\"CAP_KILL\","           \
	"\"CAP_SETGID\",\"CAP_SETUID\",\"CAP_SETPCAP\",\"CAP_NET_BIND_SERVICE\","                  \
	"\"CAP_SYS_CHROOT\",\"CAP_SETFCAP\""
/* Neither safe nor refused: capped away, not refused. */
#define OTHER_NAMES                                                                                \
	"\"CAP_LINUX_IMMUTABLE\",\"CAP_NET_BROADCAST\",\"CAP_NET_RAW\",\"CAP_IPC_LOCK\","          \
	"\"CAP_IPC_OWNER\",\"CAP_SYS_PACCT\",\"CAP_SYS_NICE\",\"CAP_SYS_RESOURCE\","               \
	"\"CAP_SYS_TTY_CONFIG\",\"CAP_MKNOD\",\"CAP_LEASE\",\"CAP_AUDIT_WRITE\","                  \
	"\"CAP_AUDIT_CONTROL\",\"CAP_WAKE_ALARM\",\"CAP_BLOCK_SUSPEND\",\"CAP_AUDIT_READ\""

static void test_caps(void)
{
	static const char *const sets[] = {"bounding", "effective", "inheritable", "permitted",
	                                   "ambient"};
	struct fake f;

	fake_init(&f);
	for (size_t i = 0; i < sizeof(refused_caps) / sizeof(refused_caps[0]); i++) {
		char proc[256], what[96], opt[64];
		struct spec s = {.proc = proc};

		snprintf(proc, sizeof(proc),
		         ",\"capabilities\":{\"bounding\":[\"CAP_CHOWN\",\"CAP_%s\"]}",
		         refused_caps[i].name);
		snprintf(what, sizeof(what), "CAP_%s in bounding", refused_caps[i].name);
		snprintf(opt, sizeof(opt), "cap.%s", refused_caps[i].name);
		expect_refusal(what, &s, NULL, NULL, &f, ".process.capabilities.bounding", opt);
		expect_optout(what, &s, NULL, NULL, &f, ".process.capabilities.bounding", opt);
	}
	/* In any set. */
	for (size_t i = 0; i < 5; i++) {
		char proc[256], what[96], field[64];
		struct spec s = {.proc = proc};

		snprintf(proc, sizeof(proc), ",\"capabilities\":{\"%s\":[\"CAP_SYS_ADMIN\"]}",
		         sets[i]);
		snprintf(what, sizeof(what), "CAP_SYS_ADMIN in %s only", sets[i]);
		snprintf(field, sizeof(field), ".process.capabilities.%s", sets[i]);
		expect_refusal(what, &s, NULL, NULL, &f, field, "cap.SYS_ADMIN");
		expect_refusal(what, &s, NULL, "strict", &f, field, "cap.SYS_ADMIN");
	}
	{
		struct spec s = {.proc =
		                     ",\"capabilities\":{\"bounding\":[\"CAP_SYS_PTRACE\","
		                     "\"CAP_NET_ADMIN\",\"CAP_KILL\"],\"ambient\":[\"CAP_BPF\"]}"};
		struct run r;

		run(&r, &s, NULL, NULL, &f);
		if (!ok(r.rc == 0 && r.x.n_refused == 3 &&
		            refused_as(&r.x, ".process.capabilities.bounding", "cap.SYS_PTRACE") &&
		            refused_as(&r.x, ".process.capabilities.bounding", "cap.NET_ADMIN") &&
		            refused_as(&r.x, ".process.capabilities.ambient", "cap.BPF"),
		        "refused: three capabilities, three refusals"))
			dump(&r.x);
		run_free(&r);
	}
	expect_allowed("every capability but the refused ones, in every set",
	               &(struct spec){.proc = ",\"capabilities\":{"
	                                      "\"bounding\":[" SAFE_NAMES "," OTHER_NAMES "],"
	                                      "\"effective\":[" SAFE_NAMES "," OTHER_NAMES "],"
	                                      "\"inheritable\":[" SAFE_NAMES "," OTHER_NAMES "],"
	                                      "\"permitted\":[" SAFE_NAMES "," OTHER_NAMES "],"
	                                      "\"ambient\":[" SAFE_NAMES "," OTHER_NAMES "]}"},
	               NULL, NULL, &f);
	/* Opted out, the capability is kept, not capped away. */
	{
		struct spec s = {.proc = ",\"capabilities\":{\"bounding\":[\"CAP_CHOWN\","
		                         "\"CAP_SYS_PTRACE\"],\"effective\":[\"CAP_SYS_PTRACE\"],"
		                         "\"permitted\":[\"CAP_SYS_PTRACE\"]}",
		                 .ann = "\"org.ward.allow.cap.SYS_PTRACE\":\"true\""};
		struct run r;
		const struct oci_caps *c;

		run(&r, &s, "{\"allow\":[\"cap.SYS_PTRACE\"]}", NULL, &f);
		c = r.cfg ? r.cfg->process->capabilities : NULL;
		ok(r.rc == 0 && r.x.n_refused == 0 && c &&
		       c->bounding == (BIT(CAP_CHOWN) | BIT(CAP_SYS_PTRACE)) &&
		       c->effective == BIT(CAP_SYS_PTRACE) && c->permitted == BIT(CAP_SYS_PTRACE),
		   "cap.SYS_PTRACE on: SYS_PTRACE kept in bounding, effective and permitted");
		run_free(&r);
	}
}

/* ---- refusals: strict's secrets in the environment ---- */

static void test_secret_env(void)
{
	static const struct {
		const char *name;
		bool refused;
	} names[] = {
	    {"API_TOKEN", true},       /* *TOKEN* */
	    {"TOKENIZER_MODEL", true}, /* *TOKEN* */
	    {"CLIENT_SECRET", true},   /* *SECRET* */
	    {"DB_PASSWORD", true},     /* *PASSWORD* */
	    {"MYSQL_PASSWD", true},    /* *PASSWD* */
	    {"SSH_KEY", true},         /* *_KEY */
	    {"SIGNING_KEY_ID", true},  /* *_KEY_* */
	    {"STRIPE_APIKEY", true},   /* *APIKEY* */
	    {"GIT_CREDENTIALS", true}, /* *CREDENTIAL* */
	    {"AWS_REGION", true},      /* AWS_* */
	    {"AZURE_TENANT_ID", true}, /* AZURE_* */
	    {"GOOGLE_APPLICATION_CREDENTIALS", true},
	    {"GH_HOST", true},         /* GH_* */
	    {"GITHUB_SHA", true},      /* GITHUB_* */
	    {"TLS_PRIVATE_PEM", true}, /* *PRIVATE* */
	    {"PATH", false},
	    {"HOME", false},
	    {"HOSTNAME", false},
	    {"TERM", false},
	    {"KEYBOARD_LAYOUT", false}, /* no _KEY_, does not end in _KEY */
	    {"MONKEY", false},          /* ends in KEY, not _KEY */
	    {"GHOST", false},           /* not GH_ */
	    {"MY_AWS_REGION", false},   /* AWS_ is a prefix pattern */
	    /* The patterns are fnmatch(3) patterns of the name, matched in any
	     * case: api_token is a token too (issue #12). */
	    {"api_token", true},
	    {"Db_Password", true},
	    {"aws_region", true},
	    {"ssh_key", true},
	    {"github_sha", true},
	    {"keyboard_layout", false},
	    {"monkey", false},
	    {"ghost", false},
	};
	struct fake f;

	fake_init(&f);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char proc[256], what[128], opt[96];
		struct spec s = {.proc = proc};

		snprintf(proc, sizeof(proc), ",\"env\":[\"PATH=/usr/bin:/bin\",\"%s=x=y\"]",
		         names[i].name);
		snprintf(opt, sizeof(opt), "env.%s", names[i].name);
		snprintf(what, sizeof(what), "strict, default secretEnv: %s", names[i].name);
		if (names[i].refused)
			expect_refusal(what, &s, NULL, "strict", &f, ".process.env[1]", opt);
		else
			expect_allowed(what, &s, NULL, "strict", &f);
	}
	{
		struct spec s = {.proc = ",\"env\":[\"API_TOKEN=1\",\"LANG=C\",\"AWS_SECRET=2\"]"};
		struct run r;

		run(&r, &s, NULL, "strict", &f);
		if (!ok(r.rc == 0 && r.x.n_refused == 2 &&
		            refused_as(&r.x, ".process.env[0]", "env.API_TOKEN") &&
		            refused_as(&r.x, ".process.env[2]", "env.AWS_SECRET"),
		        "strict: two secrets, two refusals naming each entry"))
			dump(&r.x);
		run_free(&r);
		expect_allowed("baseline: secret-looking names are strict's business", &s, NULL,
		               NULL, &f);
		expect_optout("strict: API_TOKEN",
		              &(struct spec){.proc = ",\"env\":[\"PATH=/bin\",\"API_TOKEN=1\"]"},
		              NULL, "strict", &f, ".process.env[1]", "env.API_TOKEN");
		/* The opt-out names the variable as written. */
		expect_optout("strict: api_token",
		              &(struct spec){.proc = ",\"env\":[\"PATH=/bin\",\"api_token=1\"]"},
		              NULL, "strict", &f, ".process.env[1]", "env.api_token");
	}
	/* The whole name is matched, however long. */
	{
		char proc[700], name[400];
		struct run r;

		memset(name, 'A', 300);
		snprintf(name + 300, sizeof(name) - 300, "_TOKEN");
		snprintf(proc, sizeof(proc), ",\"env\":[\"PATH=/bin\",\"%s=1\"]", name);
		run(&r, &(struct spec){.proc = proc}, NULL, "strict", &f);
		if (!ok(r.rc == 0 && r.x.n_refused == 1 &&
		            find(&r.x, FIND_REFUSE, ".process.env[1]", NULL),
		        "strict, default secretEnv: a 306-character name ending in _TOKEN is "
		        "refused"))
			dump(&r.x);
		run_free(&r);
	}
	/* The policy's own list replaces the defaults. */
	{
		static const char pol[] = "{\"secretEnv\":[\"*token*\",\"INTERNAL_*\"]}";

		expect_refusal("strict, secretEnv [*token*, INTERNAL_*]: api_token",
		               &(struct spec){.proc = ",\"env\":[\"PATH=/bin\",\"api_token=1\"]"},
		               pol, "strict", &f, ".process.env[1]", "env.api_token");
		expect_refusal(
		    "strict, secretEnv [*token*, INTERNAL_*]: INTERNAL_URL",
		    &(struct spec){.proc = ",\"env\":[\"PATH=/bin\",\"INTERNAL_URL=1\"]"}, pol,
		    "strict", &f, ".process.env[1]", "env.INTERNAL_URL");
		expect_refusal("strict, secretEnv [*token*, INTERNAL_*]: API_TOKEN (any case)",
		               &(struct spec){.proc = ",\"env\":[\"PATH=/bin\",\"API_TOKEN=1\"]"},
		               pol, "strict", &f, ".process.env[1]", "env.API_TOKEN");
		expect_refusal(
		    "strict, secretEnv [*token*, INTERNAL_*]: internal_url (any case)",
		    &(struct spec){.proc = ",\"env\":[\"PATH=/bin\",\"internal_url=1\"]"}, pol,
		    "strict", &f, ".process.env[1]", "env.internal_url");
		expect_allowed(
		    "strict, secretEnv [*token*, INTERNAL_*]: DB_PASSWORD (defaults replaced)",
		    &(struct spec){.proc = ",\"env\":[\"PATH=/bin\",\"DB_PASSWORD=1\"]"}, pol,
		    "strict", &f);
		expect_allowed("strict, secretEnv []: nothing is a secret",
		               &(struct spec){.proc = ",\"env\":[\"API_TOKEN=1\"]"},
		               "{\"secretEnv\":[]}", "strict", &f);
	}
}

/* exec (issue #12): the exec'd process's environment - the --env values
 * and a --process file's env - goes through the same rule, with the
 * opt-outs create recorded; exec has no host facts. */
static void test_exec_env(void)
{
	char *env[] = {"LANG=C", "api_token=x", "PATH=/bin", NULL};
	char *opted[] = {"GH_TOKEN=1", NULL};
	struct run r;
	size_t n;

	run(&r, &(struct spec){.ns = NULL}, "{\"allowAlways\":[\"env.GH_TOKEN\"]}", "strict", NULL);
	n = r.x.n_refused;
	if (!ok(r.rc == 0 && policy_refuse_secret_env_list(&r.x, env, 3, "exec --env", err) == 0 &&
	            r.x.n_refused == n + 1 && refused_as(&r.x, "exec --env[1]", "env.api_token"),
	        "exec --env api_token=x (strict): refused, naming the entry and env.api_token"))
		dump(&r.x);
	n = r.x.n_refused;
	ok(policy_refuse_secret_env_list(&r.x, opted, 1, "exec process.env", err) == 0 &&
	       r.x.n_refused == n,
	   "exec process.env GH_TOKEN with env.GH_TOKEN turned on at create: allowed");
	run_free(&r);
}

/* ---- adjustments ---- */

static bool has_all(char *const *v, size_t n, const char *const *want)
{
	for (size_t i = 0; want[i]; i++) {
		bool found = false;

		for (size_t k = 0; k < n && !found; k++)
			found = strcmp(v[k], want[i]) == 0;
		if (!found) {
			diag("missing %s", want[i]);
			return false;
		}
	}
	return true;
}

static bool no_dups(char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < i; k++)
			if (strcmp(v[i], v[k]) == 0)
				return false;
	return true;
}

static const struct oci_rlimit *rlimit(const struct oci_config *c, int res, size_t *count)
{
	const struct oci_rlimit *found = NULL;

	*count = 0;
	for (size_t i = 0; i < c->process->n_rlimits; i++)
		if (c->process->rlimits[i].resource == res) {
			found = &c->process->rlimits[i];
			(*count)++;
		}
	return found;
}

static const struct oci_mount *mount_at(const struct oci_config *c, const char *dest, size_t *count)
{
	const struct oci_mount *found = NULL;

	*count = 0;
	for (size_t i = 0; i < c->n_mounts; i++)
		if (strcmp(c->mounts[i].destination, dest) == 0) {
			found = &c->mounts[i];
			(*count)++;
		}
	return found;
}

static bool has_opt(const struct oci_mount *m, const char *o)
{
	for (size_t i = 0; m && i < m->n_options; i++)
		if (strcmp(m->options[i], o) == 0)
			return true;
	return false;
}

static bool cfg_has_path(const struct oci_linux *l, const char *p)
{
	for (size_t i = 0; i < l->n_readonly_paths; i++)
		if (strcmp(l->readonly_paths[i], p) == 0)
			return true;
	return false;
}

/* runc's maskedPaths and readonlyPaths (its `runc spec`), plus the two
 * ward-policy(7) adds. */
static const char *const want_masked[] = {"/proc/acpi",
                                          "/proc/asound",
                                          "/proc/kcore",
                                          "/proc/keys",
                                          "/proc/latency_stats",
                                          "/proc/timer_list",
                                          "/proc/timer_stats",
                                          "/proc/sched_debug",
                                          "/proc/scsi",
                                          "/sys/firmware",
                                          "/proc/interrupts",
                                          "/sys/devices/virtual/powercap",
                                          NULL};
static const char *const want_readonly[] = {
    "/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger", NULL};

/* {"allow": false, "access": "rwm"}, as the manual writes it (an absent
 * access is rwm, as the runtime-spec says). */
static bool denies_all(const struct oci_device_rule *d)
{
	return !d->allow && (d->type == NULL || strcmp(d->type, "a") == 0) && !d->has_major &&
	       !d->has_minor && (d->access == NULL || strcmp(d->access, "rwm") == 0);
}

/* The device cgroup denies by default in baseline and strict: a deny-all
 * rule first wherever the config has none, its own rules kept after it. */
static void test_adjust_devices(void)
{
	static const struct {
		const char *cli, *lin;
		size_t n;   /* rules afterwards */
		bool added; /* a deny-all put first */
		const char *what;
	} c[] = {
	    {NULL, "", 1, true, "baseline, no linux.resources at all"},
	    {"strict", "", 1, true, "strict, no linux.resources at all"},
	    {NULL, ",\"resources\":{\"pids\":{\"limit\":100}}", 1, true,
	     "linux.resources without devices"},
	    {NULL, ",\"resources\":{\"devices\":[]}", 1, true, "an empty devices list"},
	    {NULL,
	     ",\"resources\":{\"devices\":[{\"allow\":true,\"type\":\"c\",\"major\":1,"
	     "\"minor\":3,\"access\":\"rwm\"}]}",
	     2, true, "allow rules only (v1 would keep allowing every device)"},
	    {NULL, ",\"resources\":{\"devices\":[{\"allow\":false,\"access\":\"rw\"}]}", 2, true,
	     "a deny of every device without m"},
	    {NULL,
	     ",\"resources\":{\"devices\":[{\"allow\":false,\"type\":\"a\",\"major\":1,"
	     "\"minor\":3,\"access\":\"rwm\"}]}",
	     2, true, "a type a deny with numbers"},
	    {NULL, ",\"resources\":{\"devices\":[{\"allow\":false,\"access\":\"rwm\"}]}", 1, false,
	     "Podman's and runc's deny-all first: left alone"},
	    {NULL, ",\"resources\":{\"devices\":[{\"allow\":false,\"type\":\"a\"}]}", 1, false,
	     "deny a without access (rwm): left alone"},
	    {NULL,
	     ",\"resources\":{\"devices\":[{\"allow\":true,\"type\":\"c\",\"major\":1,"
	     "\"minor\":3,\"access\":\"rwm\"},{\"allow\":false,\"access\":\"rwm\"}]}",
	     2, false, "a deny-all after an allow (it wins over it): left alone"},
	};
	struct fake f;

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct spec s = {.lin = c[i].lin};
		const struct oci_resources *res;
		struct run r;

		fake_init(&f);
		run(&r, &s, NULL, c[i].cli, &f);
		res = r.rc == 0 ? r.cfg->linux->resources : NULL;
		if (!ok(res && r.x.n_refused == 0 && res->n_devices == c[i].n &&
		            denies_all(&res->devices[0]) == (c[i].added || c[i].n == 1) &&
		            (c[i].added ? adjusted(&r.x, "devices-default-deny",
		                                   ".linux.resources.devices") != NULL
		                        : !adjusted(&r.x, "devices-default-deny", NULL)),
		        "devices-default-deny: %s: %s", c[i].what,
		        c[i].added ? "deny-all put first" : "no adjustment"))
			dump(&r.x);
		/* The config's own rules follow, unchanged. */
		if (c[i].added && c[i].n == 2)
			ok(res && !denies_all(&res->devices[1]),
			   "devices-default-deny: %s: the config's rule kept after it", c[i].what);
		run_free(&r);
	}
	/* compat: no rules stay no rules (no device cgroup, as runc). */
	{
		struct run r;

		fake_init(&f);
		run(&r, &(struct spec){0}, NULL, "compat", &f);
		ok(r.rc == 0 && r.cfg->linux->resources == NULL && r.x.n_f == 0,
		   "compat: no device rules added");
		run_free(&r);
	}
}

/* Whether the device rules the cgroup writers install for c (as
 * cgroup/dev_rules.c hands them on, the last matching rule deciding; no
 * rule: v1's inherited allow) let a process read or write type major:minor. */
static bool cg_opens(const struct oci_config *c, char type, int64_t major, int64_t minor)
{
	const struct oci_resources *res = c->linux ? c->linux->resources : NULL;
	struct cg_dev_rule *v = NULL;
	size_t n = 0;
	bool opens = true;

	if (res == NULL || res->n_devices == 0)
		return true;
	if (cg_device_rules(res, c->linux, &v, &n, err) < 0)
		abort();
	for (size_t i = 0; i < n; i++)
		if ((v[i].type == 'a' || v[i].type == type) &&
		    (v[i].major < 0 || v[i].major == major) &&
		    (v[i].minor < 0 || v[i].minor == minor) &&
		    (v[i].access & (CG_DEV_READ | CG_DEV_WRITE)))
			opens = v[i].allow;
	free(v);
	return opens;
}

/* Podman's and runc's generated rules: deny all, then the standard nodes,
 * the console (c 5:1) among them. */
#define ENGINE_RULES                                                                               \
	"{\"allow\":false,\"access\":\"rwm\"},"                                                    \
	"{\"allow\":true,\"type\":\"c\",\"major\":1,\"minor\":3,\"access\":\"rwm\"},"              \
	"{\"allow\":true,\"type\":\"c\",\"major\":5,\"minor\":1,\"access\":\"rwm\"},"              \
	"{\"allow\":true,\"type\":\"c\",\"major\":136,\"access\":\"rwm\"}"

/* issue 25: the host console (c 5:1) never opens in baseline and strict:
 * not from ward's defaults, not from an engine's rule (dropped, not
 * refused: engines write it into every config), not from a node in the
 * image; compat installs what runc does. linux.devices nodes are allowed
 * only where the policy's own deny-all came first (runc allows none). */
static void test_console_devices(void)
{
	const char *engine = ",\"resources\":{\"devices\":[" ENGINE_RULES "]}";
	struct fake f;
	struct run r;

	for (int p = 0; p < 2; p++) {
		const char *cli = p ? "strict" : NULL;

		fake_init(&f);
		run(&r, &(struct spec){.lin = engine}, NULL, cli, &f);
		if (!ok(r.rc == 0 && r.x.n_refused == 0 &&
		            adjusted(&r.x, "device-console", ".linux.resources.devices[2]") &&
		            r.cfg->linux->resources->n_devices == 4 &&
		            !r.cfg->linux->resources->devices[2].allow &&
		            !cg_opens(r.cfg, 'c', 5, 1) && cg_opens(r.cfg, 'c', 1, 3) &&
		            cg_opens(r.cfg, 'c', 136, 4),
		        "%s: the engine's c 5:1 rule becomes a deny (a finding), null and ptys "
		        "open",
		        p ? "strict" : "baseline"))
			dump(&r.x);
		run_free(&r);
		/* No rules at all: ward's deny-all and its defaults, no console. */
		fake_init(&f);
		run(&r, &(struct spec){0}, NULL, cli, &f);
		ok(r.rc == 0 && !cg_opens(r.cfg, 'c', 5, 1) && cg_opens(r.cfg, 'c', 1, 9) &&
		       !cg_opens(r.cfg, 'c', 4, 64) && !cg_opens(r.cfg, 'c', 4, 1),
		   "%s: ward's default rules leave out the console (an image's node stays shut)",
		   p ? "strict" : "baseline");
		run_free(&r);
	}
	/* The opt-out keeps the config's rule. */
	fake_init(&f);
	run(&r, &(struct spec){.lin = engine}, "{\"allowAlways\":[\"device.console\"]}", NULL, &f);
	ok(r.rc == 0 && r.x.n_refused == 0 && !adjusted(&r.x, "device-console", NULL) &&
	       cg_opens(r.cfg, 'c', 5, 1),
	   "allow.device.console keeps the config's c 5:1 rule");
	run_free(&r);
	/* compat: what config.json says plus runc's defaults. */
	fake_init(&f);
	run(&r, &(struct spec){.lin = engine}, NULL, "compat", &f);
	ok(r.rc == 0 && r.x.n_f == 0 && cg_opens(r.cfg, 'c', 5, 1),
	   "compat: the config's c 5:1 rule stays");
	run_free(&r);
	/* linux.devices: no implicit rule under compat (runc 1.1); baseline
	 * allows them only after a deny-all of its own. */
	{
		static const char *const kmsg_deny =
		    ",\"resources\":{\"devices\":[{\"allow\":false,\"access\":\"rwm\"}]},"
		    "\"devices\":[{\"type\":\"c\",\"path\":\"/dev/"
		    "kmsg\",\"major\":1,\"minor\":11}]";
		static const char *const zero_deny =
		    ",\"resources\":{\"devices\":[{\"allow\":false,\"access\":\"rwm\"}]},"
		    "\"devices\":[{\"type\":\"c\",\"path\":\"/dev/"
		    "zero2\",\"major\":1,\"minor\":5}]";
		static const char *const zero_only = ",\"devices\":[{\"type\":\"c\",\"path\":\"/"
		                                     "dev/zero2\",\"major\":1,\"minor\":5}]";
		static const char *const fuse_deny =
		    ",\"resources\":{\"devices\":[{\"allow\":false,\"access\":\"rwm\"}]},"
		    "\"devices\":[{\"type\":\"c\",\"path\":\"/dev/"
		    "fuse\",\"major\":10,\"minor\":229}]";

		fake_init(&f);
		run(&r, &(struct spec){.lin = kmsg_deny}, NULL, "compat", &f);
		ok(r.rc == 0 && !cg_opens(r.cfg, 'c', 1, 11) && cg_opens(r.cfg, 'c', 1, 3),
		   "compat: deny-all and /dev/kmsg in linux.devices: kmsg does not open (as runc)");
		run_free(&r);
		fake_init(&f);
		run(&r, &(struct spec){.lin = zero_deny}, NULL, NULL, &f);
		ok(r.rc == 0 && r.x.n_refused == 0 && !r.cfg->linux->resources->allow_listed,
		   "baseline: the config's own deny-all: its linux.devices are not allowed "
		   "implicitly");
		run_free(&r);
		fake_init(&f);
		run(&r, &(struct spec){.lin = zero_only}, NULL, NULL, &f);
		ok(r.rc == 0 && r.x.n_refused == 0 && r.cfg->linux->resources->allow_listed &&
		       cg_opens(r.cfg, 'c', 1, 5) && !cg_opens(r.cfg, 'c', 1, 11),
		   "baseline: no deny-all of its own: ward's goes first, its linux.devices stay "
		   "allowed");
		run_free(&r);
		fake_init(&f);
		run(&r, &(struct spec){.lin = fuse_deny}, "{\"allowAlways\":[\"device.fuse\"]}",
		    NULL, &f);
		ok(r.rc == 0 && r.x.n_refused == 0 && !cg_opens(r.cfg, 'c', 10, 229),
		   "baseline: an allowed node (device.fuse) without its rule does not open");
		run_free(&r);
	}
}

/* The config's own seccomp filter is stacked on ward's built-in one under
 * strict (any filter) and baseline (a blocklist: its default lets through);
 * compat, and baseline with an allow-list, keep the config's alone. */
static void test_seccomp_stack(void)
{
	static const struct {
		const char *lin, *cli, *what;
		bool stacked;
	} c[] = {
	    {",\"seccomp\":{\"defaultAction\":\"SCMP_ACT_ALLOW\"}", "strict", "strict, allow-all",
	     true},
	    {",\"seccomp\":{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":[{\"names\":"
	     "[\"read\"],\"action\":\"SCMP_ACT_ALLOW\"}]}",
	     "strict", "strict, a filter of its own that denies", true},
	    {",\"seccomp\":{\"defaultAction\":\"SCMP_ACT_ALLOW\"}", NULL, "baseline, allow-all",
	     true},
	    {",\"seccomp\":{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":[{\"names\":"
	     "[\"read\"],\"action\":\"SCMP_ACT_LOG\"}]}",
	     NULL, "baseline, allow-all but logging", true},
	    /* A blocklist that denies one thing still lets through everything
	     * ward's allow-list keeps out (found by an attacker's review). */
	    {",\"seccomp\":{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":[{\"names\":"
	     "[\"reboot\"],\"action\":\"SCMP_ACT_ERRNO\"}]}",
	     NULL, "baseline, a blocklist that denies one syscall", true},

	    {",\"seccomp\":{\"defaultAction\":\"SCMP_ACT_ALLOW\"}", "compat", "compat, allow-all",
	     false},
	};
	struct fake f;
	struct run r;

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		fake_init(&f);
		run(&r, &(struct spec){.lin = c[i].lin}, NULL, c[i].cli, &f);
		if (!ok(r.rc == 0 && r.x.n_refused == 0 &&
		            (r.cfg->linux->seccomp_base != NULL) == c[i].stacked &&
		            (adjusted(&r.x, "seccomp-stack", ".linux.seccomp") != NULL) ==
		                c[i].stacked &&
		            r.cfg->linux->seccomp != NULL,
		        "seccomp: %s: %s", c[i].what,
		        c[i].stacked ? "ward's filter stacked, the config's kept"
		                     : "the config's alone"))
			dump(&r.x);
		run_free(&r);
	}
	/* baseline, an engine's allow-list: ward's floor under it (not the
	 * whole profile: engines' own choices stand above the floor). */
	{
		const char *allow =
		    ",\"seccomp\":{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":"
		    "[{\"names\":[\"read\",\"unshare\",\"keyctl\"],\"action\":"
		    "\"SCMP_ACT_ALLOW\"}]}";
		const struct oci_seccomp *b;
		bool keyctl = false, unshare_newuser = false;

		fake_init(&f);
		run(&r, &(struct spec){.lin = allow}, NULL, NULL, &f);
		b = r.cfg ? r.cfg->linux->seccomp_base : NULL;
		for (size_t i = 0; b && i < b->n_syscalls; i++)
			for (size_t k = 0; k < b->syscalls[i].n_names; k++) {
				keyctl = keyctl ||
				         (strcmp(b->syscalls[i].names[k], "keyctl") == 0 &&
				          strcmp(b->syscalls[i].action, "SCMP_ACT_ERRNO") == 0);
				unshare_newuser =
				    unshare_newuser ||
				    (strcmp(b->syscalls[i].names[k], "unshare") == 0 &&
				     b->syscalls[i].n_args == 1);
			}
		if (!ok(r.rc == 0 && r.x.n_refused == 0 && b &&
		            strcmp(b->default_action, "SCMP_ACT_ALLOW") == 0 && keyctl &&
		            unshare_newuser &&
		            adjusted(&r.x, "seccomp-floor", ".linux.seccomp") != NULL &&
		            adjusted(&r.x, "seccomp-stack", ".linux.seccomp") == NULL,
		        "seccomp: baseline, an allow-list (as engines write): ward's floor under "
		        "it "
		        "(keyctl denied, unshare of a user namespace denied, the rest allowed)"))
			dump(&r.x);
		run_free(&r);
		run(&r, &(struct spec){.lin = allow}, "{\"allowAlways\":[\"seccomp-none\"]}", NULL,
		    &f);
		ok(r.rc == 0 && r.cfg->linux->seccomp_base == NULL,
		   "seccomp: baseline with seccomp-none keeps an allow-list alone");
		run_free(&r);
	}
	/* seccomp-none lifts baseline's stacking, never strict's. */
	fake_init(&f);
	run(&r, &(struct spec){.lin = c[0].lin}, "{\"allowAlways\":[\"seccomp-none\"]}", "strict",
	    &f);
	ok(r.rc == 0 && r.cfg->linux->seccomp_base != NULL,
	   "seccomp: strict stacks ward's filter whatever seccomp-none says");
	run_free(&r);
	run(&r, &(struct spec){.lin = ""}, "{\"allowAlways\":[\"seccomp-none\"]}", "strict", &f);
	ok(r.rc == 0 && r.cfg->linux->seccomp != NULL,
	   "seccomp: strict loads ward's filter into a config without one, seccomp-none or not");
	run_free(&r);
	run(&r, &(struct spec){.lin = c[2].lin}, "{\"allowAlways\":[\"seccomp-none\"]}", NULL, &f);
	ok(r.rc == 0 && r.cfg->linux->seccomp_base == NULL,
	   "seccomp: baseline with seccomp-none keeps an allow-all filter alone");
	run_free(&r);
	/* Denials are recorded on ward's filter, unless the config's has an
	 * agent of its own (a second listener: EBUSY). */
	run(&r, &(struct spec){.lin = c[0].lin}, NULL, "strict", &f);
	ok(r.rc == 0 && r.x.record_denied,
	   "seccomp: strict, stacked: ward's filter's denials recorded");
	run_free(&r);
	run(&r,
	    &(struct spec){.lin = ",\"seccomp\":{\"defaultAction\":\"SCMP_ACT_ALLOW\","
	                          "\"listenerPath\":\"/run/agent.sock\",\"syscalls\":[{\"names\":"
	                          "[\"mount\"],\"action\":\"SCMP_ACT_NOTIFY\"}]}"},
	    NULL, "strict", &f);
	ok(r.rc == 0 && r.cfg->linux->seccomp_base != NULL && !r.x.record_denied,
	   "seccomp: strict, stacked on a filter with its own agent: nothing recorded");
	run_free(&r);
}

static void test_adjust_baseline(void)
{
	struct fake f;
	struct run r;
	size_t n;

	fake_init(&f);
	/* A config silent about everything. */
	run(&r, &(struct spec){.ns = NULL}, NULL, NULL, &f);
	if (r.rc == 0) {
		const struct oci_linux *l = r.cfg->linux;
		const struct oci_rlimit *core = rlimit(r.cfg, RLIMIT_CORE, &n);
		const struct oci_mount *dev;
		size_t ndev;

		ok(r.x.n_refused == 0, "baseline, silent config: nothing refused");
		ok(l->seccomp && l->seccomp->default_action &&
		       strcmp(l->seccomp->default_action, "SCMP_ACT_ALLOW") != 0 &&
		       l->seccomp->n_syscalls > 0 &&
		       adjusted(&r.x, "seccomp-default", ".linux.seccomp"),
		   "seccomp-default: no linux.seccomp: a built-in profile (default action %s)",
		   l->seccomp ? l->seccomp->default_action : "-");
		ok(r.cfg->process->no_new_privileges &&
		       adjusted(&r.x, "no-new-privs", ".process.noNewPrivileges"),
		   "no-new-privs: forced on");
		ok(has_all(l->masked_paths, l->n_masked_paths, want_masked) &&
		       no_dups(l->masked_paths, l->n_masked_paths) &&
		       adjusted(&r.x, "masked-paths", ".linux.maskedPaths"),
		   "masked-paths: runc's list, /proc/interrupts and /sys/devices/virtual/powercap");
		ok(has_all(l->readonly_paths, l->n_readonly_paths, want_readonly) &&
		       no_dups(l->readonly_paths, l->n_readonly_paths) &&
		       adjusted(&r.x, "readonly-paths", ".linux.readonlyPaths"),
		   "readonly-paths: runc's list");
		ok(core && n == 1 && core->soft == 0 && core->hard == 0 &&
		       adjusted(&r.x, "no-core-dumps", NULL),
		   "no-core-dumps: RLIMIT_CORE 0/0 added");
		dev = mount_at(r.cfg, "/dev", &ndev);
		ok(dev && ndev == 1 && dev->type && strcmp(dev->type, "tmpfs") == 0 &&
		       has_opt(dev, "noexec") && adjusted(&r.x, "dev-noexec", NULL),
		   "dev-noexec: no /dev mount: ward's /dev tmpfs, noexec");
		ok(l->resources && l->resources->pids && l->resources->pids->limit == 4096 &&
		       adjusted(&r.x, "pids-default", ".linux.resources.pids.limit"),
		   "pids-default: 4096 when none is set");
		ok(l->resources && l->resources->n_devices == 1 &&
		       denies_all(l->resources->devices) &&
		       adjusted(&r.x, "devices-default-deny", ".linux.resources.devices"),
		   "devices-default-deny: no linux.resources at all: a deny-all rule");
		ok(!adjusted(&r.x, "new-netns", NULL) && !adjusted(&r.x, "strict-userns", NULL) &&
		       !adjusted(&r.x, "strict-readonly-root", NULL) &&
		       !adjusted(&r.x, "strict-scratch", NULL) &&
		       !adjusted(&r.x, "strict-limits", NULL) && !r.cfg->root->readonly &&
		       !oci_config_namespace(r.cfg, CLONE_NEWUSER),
		   "baseline: a network namespace listed is left; none of strict's adjustments");
	} else {
		ok(0, "baseline, silent config: %s", werr_msg(err));
	}
	run_free(&r);

	/* Where the config already says as much (or more): left alone. */
	{
		struct spec s = {
		    .proc = ",\"noNewPrivileges\":true,\"rlimits\":[{\"type\":\"RLIMIT_CORE\","
		            "\"soft\":0,\"hard\":0},{\"type\":\"RLIMIT_NOFILE\",\"soft\":1024,"
		            "\"hard\":1024}]",
		    .mounts = "{\"destination\":\"/dev\",\"type\":\"tmpfs\",\"source\":\"tmpfs\","
		              "\"options\":[\"nosuid\",\"noexec\",\"strictatime\",\"mode=755\"]}",
		    .lin =
		        ",\"seccomp\":{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":[{"
		        "\"names\":[\"read\"],\"action\":\"SCMP_ACT_ALLOW\"}]},\"maskedPaths\":["
		        "\"/proc/acpi\",\"/proc/asound\",\"/proc/kcore\",\"/proc/keys\","
		        "\"/proc/latency_stats\",\"/proc/timer_list\",\"/proc/timer_stats\","
		        "\"/proc/sched_debug\",\"/proc/scsi\",\"/sys/firmware\","
		        "\"/proc/interrupts\",\"/sys/devices/virtual/powercap\",\"/opt/secret\"],"
		        "\"readonlyPaths\":[\"/proc/bus\",\"/proc/fs\",\"/proc/irq\",\"/proc/sys\","
		        "\"/proc/sysrq-trigger\"],\"resources\":{\"pids\":{\"limit\":50000},"
		        "\"devices\":[{\"allow\":false,\"access\":\"rwm\"}]}"};
		const struct oci_rlimit *nofile;

		fake_init(&f);
		run(&r, &s, NULL, NULL, &f);
		if (!ok(r.rc == 0 && r.x.n_refused == 0 && n_kind(&r.x, FIND_ADJUST) == 1 &&
		            adjusted(&r.x, "seccomp-floor", ".linux.seccomp") != NULL,
		        "baseline: a config that already says it all: no adjustment but the "
		        "seccomp floor"))
			dump(&r.x);
		ok(r.cfg && r.cfg->linux->seccomp &&
		       strcmp(r.cfg->linux->seccomp->default_action, "SCMP_ACT_ERRNO") == 0 &&
		       r.cfg->linux->seccomp_base != NULL,
		   "seccomp-default: the config's own profile (an allow-list) is kept, on the "
		   "floor");
		ok(r.cfg && r.cfg->linux->n_masked_paths == 13 &&
		       r.cfg->linux->n_readonly_paths == 5,
		   "masked-paths: the config's own entries kept, nothing added twice");
		ok(r.cfg && r.cfg->linux->resources->pids->limit == 50000,
		   "pids-default: a limit the config sets is baseline's to keep (50000)");
		nofile = r.cfg ? rlimit(r.cfg, RLIMIT_NOFILE, &n) : NULL;
		ok(nofile && nofile->soft == 1024, "other rlimits are left alone");
		run_free(&r);
	}

	/* Weaker than the floor. */
	{
		struct spec s = {
		    .proc = ",\"rlimits\":[{\"type\":\"RLIMIT_CORE\",\"soft\":0,\"hard\":1048576}]",
		    .mounts = "{\"destination\":\"/dev\",\"type\":\"tmpfs\",\"source\":\"tmpfs\","
		              "\"options\":[\"nosuid\",\"strictatime\",\"mode=755\"]}",
		    .lin = ",\"maskedPaths\":[],\"readonlyPaths\":[\"/proc/sys\",\"/data\"]"};
		const struct oci_rlimit *core;
		const struct oci_linux *l;

		fake_init(&f);
		run(&r, &s, "{\"pidsLimit\":100}", NULL, &f);
		l = r.cfg ? r.cfg->linux : NULL;
		core = r.cfg ? rlimit(r.cfg, RLIMIT_CORE, &n) : NULL;
		ok(r.rc == 0 && core && n == 1 && core->soft == 0 && core->hard == 0 &&
		       adjusted(&r.x, "no-core-dumps", NULL),
		   "no-core-dumps: RLIMIT_CORE soft 0 hard 1048576 becomes 0/0");
		ok(l && has_all(l->masked_paths, l->n_masked_paths, want_masked) &&
		       adjusted(&r.x, "masked-paths", ".linux.maskedPaths"),
		   "masked-paths: an empty list is weaker, not an opt-out");
		ok(l && has_all(l->readonly_paths, l->n_readonly_paths, want_readonly) &&
		       no_dups(l->readonly_paths, l->n_readonly_paths) && cfg_has_path(l, "/data"),
		   "readonly-paths: unioned (the config's /data kept, /proc/sys not twice)");
		ok(r.cfg && r.cfg->n_mounts == 1 && has_opt(&r.cfg->mounts[0], "noexec") &&
		       has_opt(&r.cfg->mounts[0], "nosuid") &&
		       adjusted(&r.x, "dev-noexec", ".mounts[0].options"),
		   "dev-noexec: the config's /dev tmpfs gets noexec");
		ok(l && l->resources && l->resources->pids && l->resources->pids->limit == 100 &&
		       adjusted(&r.x, "pids-default", ".linux.resources.pids.limit"),
		   "pids-default: the policy's pidsLimit (100)");
		run_free(&r);
	}

	/* The opt-outs of adjustments. */
	{
		struct spec s = {.ann = "\"org.ward.allow.seccomp-none\":\"true\""};

		fake_init(&f);
		run(&r, &s, "{\"allow\":[\"seccomp-none\"]}", NULL, &f);
		ok(r.rc == 0 && r.cfg->linux->seccomp == NULL &&
		       !adjusted(&r.x, "seccomp-default", NULL),
		   "seccomp-none (allowed and annotated): no built-in profile");
		run_free(&r);
		run(&r, &s, NULL, NULL, &f);
		ok(r.rc == 0 && r.cfg->linux->seccomp && adjusted(&r.x, "seccomp-default", NULL),
		   "seccomp-none annotated but not allowed: the built-in profile");
		run_free(&r);
		run(&r, &(struct spec){.ns = NULL}, "{\"allowAlways\":[\"seccomp-none\"]}", NULL,
		    &f);
		ok(r.rc == 0 && r.cfg->linux->seccomp == NULL, "seccomp-none in allowAlways");
		run_free(&r);

		s.ns =
		    "{\"type\":\"pid\"},{\"type\":\"ipc\"},{\"type\":\"uts\"},{\"type\":\"mount\"}";
		s.ann = "\"org.ward.allow.host-network\":\"true\"";
		run(&r, &s, "{\"allow\":[\"host-network\"]}", NULL, &f);
		ok(r.rc == 0 && r.x.n_refused == 0 && !oci_config_namespace(r.cfg, CLONE_NEWNET) &&
		       !adjusted(&r.x, "new-netns", NULL),
		   "host-network (allowed and annotated): no network namespace added");
		run_free(&r);
		run(&r, &s, NULL, NULL, &f);
		ok(r.rc == 0 && r.x.n_refused == 1 &&
		       refused_as(&r.x, ".linux.namespaces", "host-network") &&
		       !oci_config_namespace(r.cfg, CLONE_NEWNET),
		   "host-network annotated but not allowed: refused (missingNetwork refuse)");
		run_free(&r);
		run(&r, &s, "{\"missingNetwork\":\"isolate\"}", NULL, &f);
		ok(r.rc == 0 && oci_config_namespace(r.cfg, CLONE_NEWNET) &&
		       adjusted(&r.x, "new-netns", ".linux.namespaces"),
		   "new-netns: host-network annotated but not allowed, missingNetwork isolate: a "
		   "fresh network namespace");
		run_free(&r);
	}
}

static void test_adjust_caps(void)
{
	struct fake f;
	struct run r;
	const struct oci_caps *c;

	fake_init(&f);
	run(&r,
	    &(struct spec){.proc = ",\"capabilities\":{"
	                           "\"bounding\":[" SAFE_NAMES ",\"CAP_NET_RAW\",\"CAP_MKNOD\","
	                           "\"CAP_AUDIT_WRITE\"],"
	                           "\"effective\":[" SAFE_NAMES ",\"CAP_NET_RAW\"],"
	                           "\"permitted\":[" SAFE_NAMES ",\"CAP_MKNOD\"],"
	                           "\"inheritable\":[\"CAP_CHOWN\",\"CAP_NET_RAW\"],"
	                           "\"ambient\":[\"CAP_CHOWN\"]}"},
	    NULL, NULL, &f);
	c = r.cfg ? r.cfg->process->capabilities : NULL;
	ok(r.rc == 0 && r.x.n_refused == 0 && c && c->bounding == safe_set &&
	       c->effective == safe_set && c->permitted == safe_set,
	   "caps-safe-set: bounding, effective and permitted capped to the safe set");
	ok(adjusted(&r.x, "caps-safe-set", ".process.capabilities.bounding") &&
	       adjusted(&r.x, "caps-safe-set", ".process.capabilities.effective") &&
	       adjusted(&r.x, "caps-safe-set", ".process.capabilities.permitted"),
	   "caps-safe-set: each capped set recorded");
	ok(c && c->inheritable == 0 && c->ambient == 0 &&
	       adjusted(&r.x, "caps-no-inherit", ".process.capabilities.inheritable") &&
	       adjusted(&r.x, "caps-no-inherit", ".process.capabilities.ambient"),
	   "caps-no-inherit: inheritable and ambient cleared");
	run_free(&r);

	run(&r,
	    &(struct spec){.proc = ",\"capabilities\":{\"bounding\":[" SAFE_NAMES "],"
	                           "\"effective\":[\"CAP_KILL\"],\"permitted\":[\"CAP_KILL\"],"
	                           "\"inheritable\":[],\"ambient\":[]}"},
	    NULL, "strict", &f);
	c = r.cfg ? r.cfg->process->capabilities : NULL;
	ok(r.rc == 0 && c && c->bounding == safe_set && c->effective == BIT(CAP_KILL) &&
	       !adjusted(&r.x, "caps-safe-set", NULL) && !adjusted(&r.x, "caps-no-inherit", NULL),
	   "capabilities within the safe set: left alone (strict)");
	run_free(&r);

	run(&r,
	    &(struct spec){.proc =
	                       ",\"capabilities\":{\"bounding\":[\"CAP_CHOWN\",\"CAP_NET_RAW\"],"
	                       "\"ambient\":[\"CAP_NET_RAW\"]}"},
	    "{\"allowAlways\":[\"cap.NET_RAW\"]}", NULL, &f);
	c = r.cfg ? r.cfg->process->capabilities : NULL;
	ok(r.rc == 0 && c && c->bounding == (BIT(CAP_CHOWN) | BIT(CAP_NET_RAW)) && c->ambient == 0,
	   "caps-safe-set: plus the cap.X opt-outs (NET_RAW kept; ambient still cleared)");
	run_free(&r);

	/* A refused capability is the refusal's business: its drop is not
	 * listed as an adjustment too (ward check said both). */
	run(&r,
	    &(struct spec){
	        .proc = ",\"capabilities\":{\"bounding\":[\"CAP_KILL\",\"CAP_SYS_PTRACE\"],"
	                "\"effective\":[\"CAP_KILL\",\"CAP_SYS_PTRACE\",\"CAP_AUDIT_WRITE\"]}"},
	    NULL, NULL, &f);
	{
		const struct finding *eff =
		    adjusted(&r.x, "caps-safe-set", ".process.capabilities.effective");

		ok(r.x.n_refused == 1 &&
		       refused_as(&r.x, ".process.capabilities.bounding", "cap.SYS_PTRACE") &&
		       !adjusted(&r.x, "caps-safe-set", ".process.capabilities.bounding") && eff &&
		       strcmp(eff->old, "KILL AUDIT_WRITE") == 0 && strcmp(eff->now, "KILL") == 0,
		   "a refused capability is a refusal, not also an adjustment (effective: %s -> "
		   "%s)",
		   eff ? eff->old : "-", eff ? eff->now : "-");
	}
	run_free(&r);

	run(&r, &(struct spec){.ns = NULL}, NULL, NULL, &f);
	ok(r.rc == 0 && r.cfg->process->capabilities == NULL &&
	       !adjusted(&r.x, "caps-safe-set", NULL) && !adjusted(&r.x, "caps-no-inherit", NULL),
	   "no capabilities object (none): nothing to cap");
	run_free(&r);
}

static void test_adjust_strict(void)
{
	struct fake f;
	struct run r;
	size_t n, m;

	fake_init(&f);
	run(&r, &(struct spec){.ns = NULL}, NULL, "strict", &f);
	if (r.rc == 0) {
		const struct oci_linux *l = r.cfg->linux;
		const struct oci_namespace *u = oci_config_namespace(r.cfg, CLONE_NEWUSER);
		const struct oci_mount *tmp = mount_at(r.cfg, "/tmp", &n),
		                       *rn = mount_at(r.cfg, "/run", &m);
		const struct oci_resources *res = l->resources;

		ok(r.x.n_refused == 0, "strict, silent config: nothing refused");
		ok(u && (u->path == NULL || u->path[0] == '\0') && l->n_uid_mappings == 1 &&
		       l->n_gid_mappings == 1 && l->uid_mappings[0].container_id == 0 &&
		       l->uid_mappings[0].host_id == 1879048192 &&
		       l->uid_mappings[0].size == 65536 && l->gid_mappings[0].container_id == 0 &&
		       l->gid_mappings[0].host_id == 1879048192 &&
		       l->gid_mappings[0].size == 65536 &&
		       adjusted(&r.x, "strict-userns", ".linux.namespaces"),
		   "strict-userns: a user namespace, container 0-65535 = host "
		   "1879048192-1879113727 "
		   "(the container's range of the id pool)");
		ok(r.cfg->root->readonly &&
		       adjusted(&r.x, "strict-readonly-root", ".root.readonly"),
		   "strict-readonly-root");
		ok(tmp && n == 1 && tmp->type && strcmp(tmp->type, "tmpfs") == 0 &&
		       has_opt(tmp, "nosuid") && has_opt(tmp, "nodev") && has_opt(tmp, "noexec") &&
		       has_opt(tmp, "size=64m"),
		   "strict-scratch: /tmp tmpfs nosuid,nodev,noexec,size=64m");
		ok(rn && m == 1 && rn->type && strcmp(rn->type, "tmpfs") == 0 &&
		       has_opt(rn, "nosuid") && has_opt(rn, "nodev") && has_opt(rn, "noexec") &&
		       has_opt(rn, "size=64m") && adjusted(&r.x, "strict-scratch", NULL),
		   "strict-scratch: /run tmpfs nosuid,nodev,noexec,size=64m");
		ok(res && res->memory && res->memory->has_limit &&
		       res->memory->limit == 512 * MiB && res->memory->has_swap &&
		       res->memory->swap == 512 * MiB &&
		       adjusted(&r.x, "strict-limits", ".linux.resources.memory.limit"),
		   "strict-limits: memory 512 MiB, no swap beyond it (memory+swap 512 MiB)");
		ok(res && res->cpu && res->cpu->has_quota && res->cpu->quota == 100000 &&
		       res->cpu->has_period && res->cpu->period == 100000 &&
		       adjusted(&r.x, "strict-limits", ".linux.resources.cpu.quota"),
		   "strict-limits: one CPU (100000 us per 100000 us)");
		ok(res && res->pids && res->pids->limit == 256 &&
		       adjusted(&r.x, "strict-limits", ".linux.resources.pids.limit") &&
		       !adjusted(&r.x, "pids-default", NULL),
		   "strict-limits: pids 256 (not baseline's 4096)");
		ok(adjusted(&r.x, "seccomp-default", NULL) &&
		       adjusted(&r.x, "no-new-privs", NULL) &&
		       adjusted(&r.x, "masked-paths", NULL) &&
		       adjusted(&r.x, "readonly-paths", NULL) &&
		       adjusted(&r.x, "no-core-dumps", NULL) && adjusted(&r.x, "dev-noexec", NULL),
		   "strict: baseline's adjustments too");
	} else {
		ok(0, "strict, silent config: %s", werr_msg(err));
	}
	run_free(&r);

	/* The policy's values. */
	run(&r, &(struct spec){.ns = NULL},
	    "{\"strict\":{\"memoryLimit\":67108864,\"cpuQuota\":50000,\"cpuPeriod\":200000,"
	    "\"pidsLimit\":10,\"tmpfsSize\":\"8m\",\"usernsHostID\":200000,\"usernsSize\":1000}}",
	    "strict", &f);
	if (r.rc == 0) {
		const struct oci_linux *l = r.cfg->linux;
		const struct oci_resources *res = l->resources;

		ok(l->n_uid_mappings == 1 && l->uid_mappings[0].container_id == 0 &&
		       l->uid_mappings[0].host_id == 200000 && l->uid_mappings[0].size == 1000 &&
		       l->n_gid_mappings == 1 && l->gid_mappings[0].host_id == 200000 &&
		       l->gid_mappings[0].size == 1000,
		   "strict-userns: strict.usernsHostID and usernsSize");
		ok(has_opt(mount_at(r.cfg, "/tmp", &n), "size=8m") &&
		       has_opt(mount_at(r.cfg, "/run", &m), "size=8m"),
		   "strict-scratch: strict.tmpfsSize");
		ok(res->memory->limit == 64 * MiB && res->memory->swap == 64 * MiB,
		   "strict-limits: strict.memoryLimit");
		ok(res->cpu->quota == 50000 && res->cpu->period == 200000,
		   "strict-limits: strict.cpuQuota and cpuPeriod");
		ok(res->pids->limit == 10, "strict-limits: strict.pidsLimit");
	} else {
		ok(0, "strict with the policy's values: %s", werr_msg(err));
	}
	run_free(&r);

	/* Higher limits are lowered; unlimited ones set. */
	{
		static const struct {
			const char *res, *what;
			int64_t mem, quota, pids;
			uint64_t period;
		} c[] = {
		    {"\"memory\":{\"limit\":1073741824},\"cpu\":{\"quota\":200000,\"period\":"
		     "100000},"
		     "\"pids\":{\"limit\":1000}",
		     "memory 1 GiB, two CPUs, pids 1000: lowered", 512 * MiB, 100000, 256, 100000},
		    {"\"memory\":{\"limit\":-1},\"cpu\":{\"quota\":-1},\"pids\":{\"limit\":-1}",
		     "unlimited (-1): set", 512 * MiB, 100000, 256, 100000},
		    {"\"cpu\":{\"quota\":100000,\"period\":50000}",
		     "two CPUs as 100000 per 50000 us", 512 * MiB, 100000, 256, 100000},
		};

		for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
			char lin[256];
			const struct oci_resources *res;

			snprintf(lin, sizeof(lin), ",\"resources\":{%s}", c[i].res);
			run(&r, &(struct spec){.lin = lin}, NULL, "strict", &f);
			res = r.rc == 0 ? r.cfg->linux->resources : NULL;
			if (!ok(res && res->memory->limit == c[i].mem &&
			            res->cpu->quota == c[i].quota &&
			            res->cpu->period == c[i].period &&
			            res->pids->limit == c[i].pids,
			        "strict-limits: %s", c[i].what))
				dump(&r.x);
			run_free(&r);
		}
	}

	/* Lower limits, the config's own user namespace, read-only root and
	 * scratch tmpfs: left alone. */
	{
		struct spec s = {
		    .root = ",\"readonly\":true",
		    .mounts = "{\"destination\":\"/tmp\",\"type\":\"tmpfs\",\"source\":\"tmpfs\","
		              "\"options\":[\"nosuid\",\"nodev\",\"noexec\",\"size=16m\"]},"
		              "{\"destination\":\"/run\",\"type\":\"tmpfs\",\"source\":\"tmpfs\","
		              "\"options\":[\"nosuid\",\"nodev\",\"noexec\",\"size=1m\"]}",
		    .ns = NS_ALL ",{\"type\":\"user\"}",
		    .lin = ",\"uidMappings\":[{\"containerID\":0,\"hostID\":300000,\"size\":1000}],"
		           "\"gidMappings\":[{\"containerID\":0,\"hostID\":300000,\"size\":1000}],"
		           "\"resources\":{\"memory\":{\"limit\":134217728,\"swap\":134217728},"
		           "\"cpu\":{\"quota\":50000,\"period\":100000},\"pids\":{\"limit\":100}}"};
		const struct oci_linux *l;

		run(&r, &s, NULL, "strict", &f);
		l = r.rc == 0 ? r.cfg->linux : NULL;
		if (!ok(l && !adjusted(&r.x, "strict-userns", NULL) &&
		            !adjusted(&r.x, "strict-readonly-root", NULL) &&
		            !adjusted(&r.x, "strict-scratch", NULL) &&
		            !adjusted(&r.x, "strict-limits", NULL),
		        "strict: a config already as strict: no strict adjustment"))
			dump(&r.x);
		ok(l && l->n_uid_mappings == 1 && l->uid_mappings[0].host_id == 300000 &&
		       l->resources->memory->limit == 128 * MiB &&
		       l->resources->cpu->quota == 50000 && l->resources->pids->limit == 100 &&
		       r.cfg->n_mounts == 3,
		   "strict: the config's own mapping, lower limits and tmpfs kept (and /dev "
		   "added)");
		run_free(&r);
	}
	/* A /tmp tmpfs without the flags or a size. */
	{
		struct spec s = {.mounts =
		                     "{\"destination\":\"/tmp\",\"type\":\"tmpfs\",\"source\":"
		                     "\"tmpfs\",\"options\":[\"nosuid\",\"mode=1777\"]}"};
		const struct oci_mount *tmp;

		run(&r, &s, NULL, "strict", &f);
		tmp = r.rc == 0 ? mount_at(r.cfg, "/tmp", &n) : NULL;
		ok(tmp && n == 1 && has_opt(tmp, "nosuid") && has_opt(tmp, "nodev") &&
		       has_opt(tmp, "noexec") && has_opt(tmp, "size=64m") &&
		       has_opt(tmp, "mode=1777") &&
		       adjusted(&r.x, "strict-scratch", ".mounts[0].options"),
		   "strict-scratch: the config's /tmp tmpfs gets nodev, noexec and a size");
		run_free(&r);
	}

	/* "No swap beyond the limit", whatever the limit came from: a config's
	 * own lower limit with a large or unlimited (-1) memory+swap, or none
	 * (an attacker's review read an unlimited memsw with swap -1). */
	{
		static const struct {
			const char *mem;
			int64_t limit;
		} c[] = {
		    {"{\"limit\":134217728,\"swap\":4294967296}", 128 * MiB},
		    {"{\"limit\":104857600,\"swap\":-1}", 104857600},
		    {"{\"limit\":104857600}", 104857600},
		    {"{\"swap\":-1}", 512 * MiB},
		    {"{\"limit\":-1,\"swap\":-1}", 512 * MiB},
		};

		for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
			char lin[160];
			struct spec s = {.lin = lin};
			const struct oci_memory *mem;

			snprintf(lin, sizeof(lin), ",\"resources\":{\"memory\":%s}", c[i].mem);
			run(&r, &s, NULL, "strict", &f);
			mem = r.rc == 0 ? r.cfg->linux->resources->memory : NULL;
			ok(mem && mem->limit == c[i].limit && mem->has_swap &&
			       mem->swap == c[i].limit,
			   "strict-limits: memory %s: limit %" PRId64 ", memory+swap no more",
			   c[i].mem, c[i].limit);
			run_free(&r);
		}
	}
}

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

/* The value of linux.sysctl[key], NULL if unset. */
static const char *sysctl_of(const struct oci_config *c, const char *key)
{
	for (size_t i = 0; c->linux && i < c->linux->n_sysctl; i++)
		if (strcmp(c->linux->sysctl[i].key, key) == 0)
			return c->linux->sysctl[i].value;
	return NULL;
}

/* A new namespace of that kind (listed without a path). */
static bool new_ns(const struct oci_config *c, int flag)
{
	const struct oci_namespace *n = oci_config_namespace(c, flag);

	return n && (n->path == NULL || n->path[0] == '\0');
}

/* Issue #12: strict's own cgroup and time namespaces, and
 * vm.memfd_noexec=2 where the kernel has it. */
static void test_adjust_strict_gaps(void)
{
	struct fake f;
	struct run r;

	fake_init(&f);
	run(&r, &(struct spec){.ns = NULL}, NULL, "strict", &f);
	if (!ok(r.rc == 0 && new_ns(r.cfg, CLONE_NEWCGROUP) && new_ns(r.cfg, CLONE_NEWTIME) &&
	            adjusted(&r.x, "strict-namespaces", ".linux.namespaces") &&
	            r.cfg->linux->time_offsets == NULL,
	        "strict-namespaces: new cgroup and time namespaces, no time offsets"))
		dump(&r.x);
	ok(r.rc == 0 && sysctl_of(r.cfg, "vm.memfd_noexec") == NULL &&
	       !adjusted(&r.x, "strict-memfd-noexec", NULL),
	   "strict-memfd-noexec: not where the kernel has no vm.memfd_noexec");
	run_free(&r);

	run(&r, &(struct spec){.ns = NS_ALL ",{\"type\":\"cgroup\"}"}, NULL, "strict", &f);
	if (!ok(r.rc == 0 && new_ns(r.cfg, CLONE_NEWCGROUP) && new_ns(r.cfg, CLONE_NEWTIME) &&
	            r.cfg->linux->n_namespaces == 8 &&
	            adjusted(&r.x, "strict-namespaces", ".linux.namespaces") &&
	            strcmp(adjusted(&r.x, "strict-namespaces", NULL)->now, "+time") == 0,
	        "strict-namespaces: the config's cgroup namespace kept, time added"))
		dump(&r.x);
	run_free(&r);

	run(&r, &(struct spec){.ns = NULL}, NULL, NULL, &f);
	ok(r.rc == 0 && !oci_config_namespace(r.cfg, CLONE_NEWCGROUP) &&
	       !oci_config_namespace(r.cfg, CLONE_NEWTIME) &&
	       !adjusted(&r.x, "strict-namespaces", NULL),
	   "baseline: no cgroup or time namespace added");
	run_free(&r);

	/* exec: the same namespaces, so that exec'd processes join them. */
	run(&r, &(struct spec){.ns = NULL}, NULL, "strict", NULL);
	ok(r.rc == 0 && new_ns(r.cfg, CLONE_NEWCGROUP) && new_ns(r.cfg, CLONE_NEWTIME),
	   "strict-namespaces at exec (no host facts): the same two namespaces");
	run_free(&r);

	f.h.memfd_noexec = true;
	run(&r, &(struct spec){.ns = NULL}, NULL, "strict", &f);
	if (!ok(r.rc == 0 && sysctl_of(r.cfg, "vm.memfd_noexec") &&
	            strcmp(sysctl_of(r.cfg, "vm.memfd_noexec"), "2") == 0 &&
	            adjusted(&r.x, "strict-memfd-noexec", ".linux.sysctl.vm.memfd_noexec"),
	        "strict-memfd-noexec: vm.memfd_noexec=2 where the kernel has it"))
		dump(&r.x);
	run_free(&r);

	run(&r,
	    &(struct spec){.lin =
	                       ",\"sysctl\":{\"vm.memfd_noexec\":\"0\",\"kernel.shmmni\":\"10\"}"},
	    NULL, "strict", &f);
	if (!ok(r.rc == 0 && strcmp(sysctl_of(r.cfg, "vm.memfd_noexec"), "2") == 0 &&
	            strcmp(sysctl_of(r.cfg, "kernel.shmmni"), "10") == 0 &&
	            r.cfg->linux->n_sysctl == 2 &&
	            strcmp(adjusted(&r.x, "strict-memfd-noexec", NULL)->old, "0") == 0,
	        "strict-memfd-noexec: the config's 0 raised to 2, other sysctls kept"))
		dump(&r.x);
	run_free(&r);

	run(&r, &(struct spec){.lin = ",\"sysctl\":{\"vm.memfd_noexec\":\"2\"}"}, NULL, "strict",
	    &f);
	ok(r.rc == 0 && r.cfg->linux->n_sysctl == 1 && !adjusted(&r.x, "strict-memfd-noexec", NULL),
	   "strict-memfd-noexec: the config's own 2 left alone");
	run_free(&r);

	run(&r, &(struct spec){.ns = NULL}, NULL, NULL, &f);
	ok(r.rc == 0 && sysctl_of(r.cfg, "vm.memfd_noexec") == NULL,
	   "baseline: vm.memfd_noexec left to the config");
	run_free(&r);

	/* exec has no host facts and needs nothing: the value belongs to the
	 * pid namespace create set it in, which exec'd processes join. */
	run(&r, &(struct spec){.ns = NULL}, NULL, "strict", NULL);
	ok(r.rc == 0 && sysctl_of(r.cfg, "vm.memfd_noexec") == NULL,
	   "strict-memfd-noexec at exec: not made again (the pid namespace has it)");
	run_free(&r);
}

/* A config that breaks every rule. */
static const struct spec bad = {
    .proc = ",\"capabilities\":{\"bounding\":[\"CAP_SYS_ADMIN\",\"CAP_NET_RAW\"],"
            "\"ambient\":[\"CAP_NET_RAW\"]},\"env\":[\"API_TOKEN=1\"]",
    .mounts = "{\"destination\":\"/host\",\"type\":\"bind\",\"source\":\"/etc\"},"
              "{\"destination\":\"/sys/fs/cgroup\",\"type\":\"cgroup\",\"source\":\"cgroup\","
              "\"options\":[\"rw\"]}",
    .ns = "{\"type\":\"ipc\"},{\"type\":\"uts\"},{\"type\":\"mount\"}",
    .lin = ",\"devices\":[{\"type\":\"c\",\"path\":\"/dev/mem\",\"major\":1,\"minor\":1}],"
           "\"resources\":{\"devices\":[{\"allow\":true,\"access\":\"rwm\"}]}"};

static void fake_bad(struct fake *f)
{
	fake_init(f);
	f->h.cgroup_v1 = true;
	fake_path(&f->h.root, "/", S_IFDIR, 0);
	fake_path(&f->mounts[0], "/etc", S_IFDIR, 0);
}

static void test_compat(void)
{
	static const struct {
		const char *pol, *cli, *what;
	} c[] = {
	    {NULL, "compat", "--profile compat"},
	    {"{\"profile\":\"compat\"}", NULL, "the policy file's profile compat"},
	};
	struct fake f;

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct run r;

		fake_bad(&f);
		run(&r, &bad, c[i].pol, c[i].cli, &f);
		if (!ok(r.rc == 0 && r.x.profile == PROFILE_COMPAT && r.x.n_refused == 0 &&
		            r.x.n_f == 0,
		        "compat (%s): a config breaking every rule: nothing refused, nothing "
		        "adjusted",
		        c[i].what))
			dump(&r.x);
		ok(r.rc == 0 && r.cfg->linux->seccomp == NULL &&
		       !r.cfg->process->no_new_privileges &&
		       r.cfg->process->capabilities->bounding ==
		           (BIT(CAP_SYS_ADMIN) | BIT(CAP_NET_RAW)) &&
		       r.cfg->process->capabilities->ambient == BIT(CAP_NET_RAW) &&
		       r.cfg->process->n_rlimits == 0 && r.cfg->n_mounts == 2 &&
		       r.cfg->linux->n_namespaces == 3 && r.cfg->linux->n_masked_paths == 0 &&
		       r.cfg->linux->resources->pids == NULL && !r.cfg->root->readonly,
		   "compat (%s): the config is exactly as given", c[i].what);
		run_free(&r);
	}
}

static bool same_adjustments(const struct policy_ctx *a, const struct policy_ctx *b)
{
	size_t i = 0, k = 0;

	for (;;) {
		while (i < a->n_f && a->f[i].kind != FIND_ADJUST)
			i++;
		while (k < b->n_f && b->f[k].kind != FIND_ADJUST)
			k++;
		if (i == a->n_f || k == b->n_f)
			return i == a->n_f && k == b->n_f;
		if (strcmp(a->f[i].rule, b->f[k].rule) != 0 ||
		    strcmp(a->f[i].field, b->f[k].field) != 0 ||
		    strcmp(a->f[i].old, b->f[k].old) != 0 ||
		    strcmp(a->f[i].now, b->f[k].now) != 0) {
			diag("differ: %s %s / %s %s", a->f[i].rule, a->f[i].field, b->f[k].rule,
			     b->f[k].field);
			return false;
		}
		i++;
		k++;
	}
}

static void test_exec(void)
{
	/* root.path, the bind of /etc, the cgroup mount, no pid namespace,
	 * /dev/mem, the allow-all rule, SYS_ADMIN; baseline: no network
	 * namespace; strict (which adds one): API_TOKEN. */
	static const struct {
		const char *name;
		size_t n_refused;
	} profiles[] = {{"baseline", 8}, {"strict", 8}};
	struct fake f;

	/* exec: no host facts, no refusals; the same adjustments. */
	for (size_t i = 0; i < 2; i++) {
		struct run create, exec;

		fake_bad(&f);
		run(&create, &bad, NULL, profiles[i].name, &f);
		run(&exec, &bad, NULL, profiles[i].name, NULL);
		if (!ok(create.rc == 0 && create.x.n_refused == profiles[i].n_refused,
		        "%s, create: the bad config is refused (%zu refusals)", profiles[i].name,
		        create.x.n_refused))
			dump(&create.x);
		if (!ok(exec.rc == 0 && exec.x.n_refused == 0 && n_kind(&exec.x, FIND_ADJUST) > 0 &&
		            same_adjustments(&create.x, &exec.x),
		        "%s, exec (no host facts): nothing refused, the same adjustments",
		        profiles[i].name))
			dump(&exec.x);
		run_free(&create);
		run_free(&exec);
	}

	/* policy_exec_caps: exec --cap and the exec'd process's capabilities. */
	{
		struct run r;
		struct oci_caps caps;
		bool nnp;
		size_t n_ok = 0;

		run(&r, &(struct spec){.ns = NULL}, "{\"allowAlways\":[\"cap.SYS_PTRACE\"]}", NULL,
		    NULL);
		caps = (struct oci_caps){.bounding = BIT(CAP_CHOWN) | BIT(CAP_SYS_ADMIN)};
		nnp = false;
		werr_clear(err);
		ok(r.rc == 0 && policy_exec_caps(&r.x, &caps, &nnp, err) < 0 &&
		       strstr(werr_msg(err), "process.capabilities.bounding") &&
		       strstr(werr_msg(err), "CAP_SYS_ADMIN") &&
		       strstr(werr_msg(err), "cap.SYS_ADMIN") && !nnp,
		   "exec: CAP_SYS_ADMIN refused, naming the set and the opt-out (%s)",
		   werr_msg(err));

		/* Each on a fresh context, as `ward exec` has one. */
		for (size_t k = 0; k < sizeof(refused_caps) / sizeof(refused_caps[0]); k++) {
			struct run e;

			if (refused_caps[k].cap == CAP_SYS_PTRACE)
				continue;
			run(&e, &(struct spec){.ns = NULL},
			    "{\"allowAlways\":[\"cap.SYS_PTRACE\"]}", NULL, NULL);
			caps = (struct oci_caps){.ambient = BIT(refused_caps[k].cap)};
			werr_clear(err);
			if (e.rc == 0 && policy_exec_caps(&e.x, &caps, &nnp, err) < 0 &&
			    strstr(werr_msg(err), refused_caps[k].name) &&
			    strstr(werr_msg(err), "process.capabilities.ambient"))
				n_ok++;
			else
				diag("exec: CAP_%s in ambient: %s", refused_caps[k].name,
				     werr_msg(err));
			run_free(&e);
		}
		ok(n_ok == sizeof(refused_caps) / sizeof(refused_caps[0]) - 1,
		   "exec: each refused capability (but the opted-out SYS_PTRACE) refused in "
		   "ambient");

		/* The refusal reported is this call's, not one the context
		 * already holds. */
		caps = (struct oci_caps){.effective = BIT(CAP_SYS_MODULE)};
		werr_clear(err);
		ok(policy_exec_caps(&r.x, &caps, &nnp, err) < 0,
		   "exec: a second refused capability on the same context is refused too");
		ok(strstr(werr_msg(err), "SYS_MODULE") != NULL &&
		       strstr(werr_msg(err), "SYS_ADMIN") == NULL,
		   "exec: the second refusal names its own capability (SYS_MODULE): %s",
		   werr_msg(err));

		caps = (struct oci_caps){.bounding = BIT(CAP_CHOWN) | BIT(CAP_KILL) |
		                                     BIT(CAP_NET_RAW) | BIT(CAP_SYS_PTRACE),
		                         .effective = BIT(CAP_KILL) | BIT(CAP_NET_RAW),
		                         .permitted = BIT(CAP_KILL) | BIT(CAP_MKNOD),
		                         .inheritable = BIT(CAP_KILL),
		                         .ambient = BIT(CAP_KILL)};
		nnp = false;
		ok(policy_exec_caps(&r.x, &caps, &nnp, err) == 0 && nnp &&
		       caps.bounding == (BIT(CAP_CHOWN) | BIT(CAP_KILL) | BIT(CAP_SYS_PTRACE)) &&
		       caps.effective == BIT(CAP_KILL) && caps.permitted == BIT(CAP_KILL) &&
		       caps.inheritable == 0 && caps.ambient == 0,
		   "exec: capped to the safe set plus cap.SYS_PTRACE, inheritable and ambient "
		   "cleared, no_new_privs on");
		run_free(&r);

		run(&r, &(struct spec){.ns = NULL}, NULL, "strict", NULL);
		caps = (struct oci_caps){.permitted = BIT(CAP_SYS_PTRACE)};
		werr_clear(err);
		ok(r.rc == 0 && policy_exec_caps(&r.x, &caps, &nnp, err) < 0 &&
		       strstr(werr_msg(err), "cap.SYS_PTRACE") &&
		       strstr(werr_msg(err), "permitted"),
		   "exec, strict: CAP_SYS_PTRACE refused without the opt-out");
		run_free(&r);

		run(&r, &(struct spec){.ns = NULL}, NULL, "compat", NULL);
		caps =
		    (struct oci_caps){.bounding = BIT(CAP_SYS_ADMIN), .ambient = BIT(CAP_NET_RAW)};
		nnp = false;
		ok(r.rc == 0 && policy_exec_caps(&r.x, &caps, &nnp, err) == 0 && !nnp &&
		       caps.bounding == BIT(CAP_SYS_ADMIN) && caps.ambient == BIT(CAP_NET_RAW),
		   "exec, compat: capabilities and no_new_privs as given");
		run_free(&r);
	}
}

/* ---- the record create keeps for exec ---- */

static bool same_optouts(const struct policy_ctx *a, const struct policy_ctx *b)
{
	if (a->n_optouts != b->n_optouts)
		return false;
	for (size_t i = 0; i < a->n_optouts; i++)
		if (!policy_optout(b, a->optouts[i]))
			return false;
	return true;
}

/* create's side: the run as policy_prepare would make it, without the
 * host (pol_text NULL: the built-in defaults). */
static int record_of(const char *pol_text, const struct spec *s, const char *cli, const char *argv0,
                     struct policy_run *run1, char **rec, size_t *len)
{
	struct oci_config *cfg = cfg_new(s);
	int rc = -1;

	memset(run1, 0, sizeof(*run1));
	run1->pol = pol_new(pol_text ? pol_text : "{}");
	if (pol_text) {
		run1->pol_text = strdup(pol_text);
		run1->pol_len = strlen(pol_text);
		run1->pol_source = "/etc/ward/policy.json";
	}
	if (cfg && run1->pol && policy_ctx_init(&run1->x, run1->pol, cli, argv0, cfg, err) == 0) {
		/* strict: the range create leased (here the pool's second). */
		if (run1->x.profile == PROFILE_STRICT) {
			run1->x.userns.host = 1879048192 + 65536;
			run1->x.userns.size = 65536;
			run1->x.userns.set = true;
		}
		rc = policy_record_gen(run1, rec, len, err);
	}
	run1->x.cfg = NULL;
	oci_config_free(cfg);
	return rc;
}

static void test_record(void)
{
	static const char pol_a[] = "{\"allow\":[\"cap.SYS_PTRACE\",\"mount:/srv/"
	                            "data\"],\"allowAlways\":[\"device.fuse\"]}";
	struct spec with_ann = {.ann = "\"org.ward.allow.cap.SYS_PTRACE\":\"true\","
	                               "\"org.ward.profile\":\"strict\""},
	            ptrace = {.proc = ",\"capabilities\":{\"bounding\":[\"CAP_CHOWN\","
	                              "\"CAP_SYS_PTRACE\"]}"};
	struct policy_run run1, run2;
	struct policy_input in = {.argv0 = "ward"};
	struct oci_config *cfg2;
	char *rec = NULL;
	size_t len = 0;
	int rc;

	/* strict from the annotation, two opt-outs; exec's config carries no
	 * annotation at all: the record decides. */
	rc = record_of(pol_a, &with_ann, NULL, "ward", &run1, &rec, &len);
	ok(rc == 0 && run1.x.profile == PROFILE_STRICT && run1.x.n_optouts == 2,
	   "record: create decided strict with device.fuse and cap.SYS_PTRACE");
	cfg2 = cfg_new(&ptrace);
	in.record = rec;
	in.record_len = len;
	werr_clear(err);
	memset(&run2, 0, sizeof(run2));
	rc = rc == 0 && cfg2 ? policy_prepare(&in, cfg2, &run2, err) : -2;
	if (!ok(rc == 0 && run2.x.profile == run1.x.profile && same_optouts(&run1.x, &run2.x) &&
	            run2.x.facts == NULL && run2.x.n_refused == 0,
	        "record: read back, the same profile and opt-outs (%s)", werr_msg(err)))
		diag("record: %s", rec ? rec : "(none)");
	if (rc == 0) {
		struct oci_caps caps = {.effective = BIT(CAP_SYS_PTRACE) | BIT(CAP_NET_RAW)};
		bool nnp = false;

		ok(cfg2->process->capabilities->bounding ==
		           (BIT(CAP_CHOWN) | BIT(CAP_SYS_PTRACE)) &&
		       cfg2->root->readonly && oci_config_namespace(cfg2, CLONE_NEWUSER),
		   "record: exec re-applies strict with the recorded opt-outs");
		ok(cfg2->linux->n_uid_mappings == 1 &&
		       cfg2->linux->uid_mappings[0].host_id == 1879048192 + 65536 &&
		       cfg2->linux->uid_mappings[0].size == 65536,
		   "record: exec maps the range create leased (usernsRange)");
		ok(policy_exec_caps(&run2.x, &caps, &nnp, err) == 0 &&
		       caps.effective == BIT(CAP_SYS_PTRACE) && nnp,
		   "record: exec --cap CAP_SYS_PTRACE allowed by the recorded opt-out");
		caps = (struct oci_caps){.effective = BIT(CAP_SYS_ADMIN)};
		ok(policy_exec_caps(&run2.x, &caps, &nnp, err) < 0,
		   "record: exec --cap CAP_SYS_ADMIN still refused");
	}
	policy_run_free(&run2);
	policy_run_free(&run1);
	oci_config_free(cfg2);
	free(rec);
	rec = NULL;

	/* The policy file's own copy is what exec applies. */
	rc = record_of("{\"profile\":\"baseline\",\"pidsLimit\":123}", &(struct spec){.ns = NULL},
	               NULL, "ward", &run1, &rec, &len);
	cfg2 = cfg_new(&(struct spec){.ns = NULL});
	in.record = rec;
	in.record_len = len;
	memset(&run2, 0, sizeof(run2));
	rc = rc == 0 && cfg2 ? policy_prepare(&in, cfg2, &run2, err) : -2;
	ok(rc == 0 && run2.x.profile == PROFILE_BASELINE && run2.x.n_optouts == 0 &&
	       cfg2->linux->resources && cfg2->linux->resources->pids &&
	       cfg2->linux->resources->pids->limit == 123,
	   "record: baseline, the recorded policy's pidsLimit (123) applied at exec");
	policy_run_free(&run2);
	policy_run_free(&run1);
	oci_config_free(cfg2);
	free(rec);
	rec = NULL;

	/* The built-in defaults (no policy file), picked by the binary name. */
	{
		static const struct {
			const char *cli, *argv0;
			enum ward_profile want;
		} c[] = {
		    {NULL, "/usr/bin/ward-strict", PROFILE_STRICT},
		    {"compat", "ward", PROFILE_COMPAT},
		};

		for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
			rc = record_of(NULL, &(struct spec){.ns = NULL}, c[i].cli, c[i].argv0,
			               &run1, &rec, &len);
			cfg2 = cfg_new(&(struct spec){.ns = NULL});
			in.record = rec;
			in.record_len = len;
			memset(&run2, 0, sizeof(run2));
			rc = rc == 0 && cfg2 ? policy_prepare(&in, cfg2, &run2, err) : -2;
			ok(rc == 0 && run2.x.profile == c[i].want && run2.x.n_optouts == 0 &&
			       (c[i].want != PROFILE_COMPAT || run2.x.n_f == 0),
			   "record: no policy file, %s: read back as %s", c[i].argv0,
			   profile_name(c[i].want));
			policy_run_free(&run2);
			policy_run_free(&run1);
			oci_config_free(cfg2);
			free(rec);
			rec = NULL;
		}
	}

	/* Malformed records are errors, never "no policy". */
	{
		static const struct {
			const char *rec, *what;
		} bad_rec[] = {
		    {"not json", "not JSON"},
		    {"{\"profile\":\"strict\",\"optouts\":[]", "truncated"},
		    {"[\"strict\"]", "not an object"},
		    {"{\"optouts\":[],\"policy\":null}", "no profile"},
		    {"{\"profile\":\"lax\",\"optouts\":[]}", "an unknown profile"},
		    {"{\"profile\":2,\"optouts\":[]}", "a profile that is not a string"},
		    {"{\"profile\":\"strict\"}", "no optouts"},
		    {"{\"profile\":\"strict\",\"optouts\":\"cap.SYS_ADMIN\"}",
		     "optouts not an array"},
		    {"{\"profile\":\"strict\",\"optouts\":[1]}", "an opt-out that is not a string"},
		    {"{\"profile\":\"strict\",\"optouts\":[\"host-pid\",null]}", "a null opt-out"},
		    {"{\"profile\":\"strict\",\"optouts\":[],\"policy\":\"{\\\"alow\\\":[]}\"}",
		     "a recorded policy with an unknown property"},
		    {"{\"profile\":\"strict\",\"optouts\":[],\"policy\":\"{\"}",
		     "a recorded policy that is not JSON"},
		    {"{\"profile\":\"strict\",\"optouts\":[],\"policy\":7}",
		     "a recorded policy that is not a string"},
		};

		for (size_t i = 0; i < sizeof(bad_rec) / sizeof(bad_rec[0]); i++) {
			struct policy_input bin = {.record = bad_rec[i].rec,
			                           .record_len = strlen(bad_rec[i].rec)};

			cfg2 = cfg_new(&(struct spec){.ns = NULL});
			werr_clear(err);
			memset(&run2, 0, sizeof(run2));
			rc = cfg2 ? policy_prepare(&bin, cfg2, &run2, err) : 0;
			ok(rc < 0 && werr_msg(err)[0] != '\0', "record: %s is an error (%s)",
			   bad_rec[i].what, werr_msg(err));
			policy_run_free(&run2);
			oci_config_free(cfg2);
		}
	}
}

/* ---- refusals: hooks (ward-policy(7), "hooks") ---- */

#define HOOK_PATH  "/usr/libexec/oci/hooks.d/h"
#define HOOK_FIELD ".hooks.prestart[0].path"
#define HOOK_OPT   "hook:" HOOK_PATH

/* The program of .hooks.<point>[0] as hook_file_open finds a good one: a
 * regular file, mode 0755, owned by root, every directory above it root's
 * and not writable by others; on inodes of its own (up[0] is the file,
 * up[1..3] the directories above it). */
static struct hook_file fake_hf;
static struct hook_id fake_up[4];

/* What an operator installed in an OCI hooks directory: HOOK_PATH and
 * /bin/true, no args or env, at every point (baseline runs only hooks
 * someone vouches for; the tests of trust below start from vouched ones). */
static char fake_dir_file[] = "/usr/share/containers/oci/hooks.d/h.json";
static char fake_hook_path[] = HOOK_PATH, fake_true_path[] = "/bin/true";
static struct hooks_dir_entry fake_entries[2] = {
    {.file = fake_dir_file, .path = fake_hook_path, .stages = ~0u},
    {.file = fake_dir_file, .path = fake_true_path, .stages = ~0u},
};

static void fake_hook(struct fake *f, enum oci_hook_point point)
{
	fake_init(f);
	f->h.hooks.dirs = (struct hooks_dirs){fake_entries, 2};
	memset(&fake_hf, 0, sizeof(fake_hf));
	fake_hf.fd = -1;
	fake_hf.st.st_mode = S_IFREG | 0755;
	fake_hf.st.st_dev = makedev(8, 1);
	fake_hf.st.st_ino = next_ino++;
	fake_up[0] = (struct hook_id){fake_hf.st.st_dev, fake_hf.st.st_ino};
	for (size_t i = 1; i < 4; i++)
		fake_up[i] = (struct hook_id){makedev(8, 1), next_ino++};
	fake_hf.up = fake_up;
	fake_hf.n_up = 4;
	f->h.hooks.file[point] = &fake_hf;
	f->h.hooks.n[point] = 1;
}

static void test_hooks(void)
{
	const struct spec pre = {.hooks = "\"prestart\":[{\"path\":\"" HOOK_PATH "\"}]"};
	struct fake f;
	struct run r;

	fake_hook(&f, HOOK_PRESTART);
	expect_allowed("a root-owned hook in a root-owned directory (baseline)", &pre, NULL, NULL,
	               &f);

	/* What hook_file_open found someone else could change. */
	fake_hook(&f, HOOK_PRESTART);
	snprintf(fake_hf.untrusted, sizeof(fake_hf.untrusted),
	         "/usr/libexec/oci is writable by others (mode 0777)");
	expect_refusal("a hook in a directory others can write", &pre, NULL, NULL, &f, HOOK_FIELD,
	               HOOK_OPT);
	expect_optout("a hook in a directory others can write", &pre, NULL, NULL, &f, HOOK_FIELD,
	              HOOK_OPT);
	expect_refusal("a hook others can change (strict)", &pre,
	               "{\"hooks\":[\"/usr/libexec/oci/hooks.d/*\"]}", "strict", &f, HOOK_FIELD,
	               HOOK_OPT);
	run(&r, &pre, NULL, "compat", &f);
	ok(r.rc == 0 && r.x.n_f == 0, "compat: a hook others can change runs, as runc runs it");
	run_free(&r);
	run(&r, &pre, NULL, NULL, NULL);
	ok(r.rc == 0 && r.x.n_refused == 0, "exec (no host facts): hooks are create's business");
	run_free(&r);

	fake_hook(&f, HOOK_PRESTART);
	fake_hf.err = ENOENT;
	expect_refusal("a hook that does not resolve", &pre, NULL, NULL, &f, HOOK_FIELD, HOOK_OPT);
	fake_hook(&f, HOOK_PRESTART);
	fake_hf.st.st_mode = S_IFDIR | 0755;
	expect_refusal("a hook that is a directory", &pre, NULL, NULL, &f, HOOK_FIELD, HOOK_OPT);
	fake_hook(&f, HOOK_PRESTART);
	f.h.hooks.n[HOOK_PRESTART] = 0;
	expect_refusal("a hook the host facts do not cover (fail closed)", &pre, NULL, NULL, &f,
	               HOOK_FIELD, HOOK_OPT);

	/* Inside what the container or its engine controls, by identity. */
	fake_hook(&f, HOOK_PRESTART);
	f.h.hooks.has_bundle = true;
	f.h.hooks.bundle = fake_up[2];
	expect_refusal("a hook inside the bundle", &pre, NULL, NULL, &f, HOOK_FIELD, HOOK_OPT);
	fake_hook(&f, HOOK_PRESTART);
	f.h.hooks.has_bundle = true;
	f.h.hooks.bundle = (struct hook_id){makedev(8, 1), next_ino++};
	expect_allowed("a hook outside the bundle (another inode)", &pre, NULL, NULL, &f);
	fake_hook(&f, HOOK_PRESTART);
	fake_path(&f.h.root, "/srv/c1/rootfs", S_IFDIR, 0);
	fake_up[1] = (struct hook_id){f.h.root.st.st_dev, f.h.root.st.st_ino};
	expect_refusal("a hook inside the container's rootfs (outside the bundle)", &pre, NULL,
	               NULL, &f, HOOK_FIELD, HOOK_OPT);
	{
		struct spec rw = pre, ro = pre;

		rw.mounts = "{\"destination\":\"/data\",\"type\":\"bind\",\"source\":\"/srv/data\","
		            "\"options\":[\"rbind\"]}";
		ro.mounts = "{\"destination\":\"/data\",\"type\":\"bind\",\"source\":\"/srv/data\","
		            "\"options\":[\"rbind\",\"ro\"]}";
		fake_hook(&f, HOOK_PRESTART);
		fake_path(&f.mounts[0], "/srv/data", S_IFDIR, 0);
		fake_up[3] = (struct hook_id){f.mounts[0].st.st_dev, f.mounts[0].st.st_ino};
		expect_refusal("a hook inside a bind source the container can write", &rw, NULL,
		               NULL, &f, HOOK_FIELD, HOOK_OPT);
		expect_allowed("a hook inside a read-only bind source", &ro, NULL, NULL, &f);
	}
	{
		struct spec ov = pre;

		ov.mounts = "{\"destination\":\"/mnt\",\"type\":\"overlay\",\"source\":\"overlay\","
		            "\"options\":[\"lowerdir=/srv/o/l1:/srv/o/l2\"]}";
		fake_hook(&f, HOOK_PRESTART);
		f.n_overlay[0] = 2;
		fake_path(&f.layers[0][0], "/srv/o/l1", S_IFDIR, 0);
		fake_path(&f.layers[0][1], "/srv/o/l2", S_IFDIR, 0);
		expect_allowed("a hook outside an overlay's layers", &ov, NULL, NULL, &f);
		fake_up[2] = (struct hook_id){f.layers[0][1].st.st_dev, f.layers[0][1].st.st_ino};
		expect_refusal("a hook inside an overlay's (image) layer", &ov, NULL, NULL, &f,
		               HOOK_FIELD, HOOK_OPT);
	}

	/* Every point is checked; startContainer's path is the container's. */
	{
		struct spec post = {.hooks = "\"poststop\":[{\"path\":\"/bin/true\"},"
		                             "{\"path\":\"" HOOK_PATH "\"}]"};
		struct hook_file two[2];

		fake_hook(&f, HOOK_POSTSTOP);
		two[0] = fake_hf;
		two[1] = fake_hf;
		snprintf(two[1].untrusted, sizeof(two[1].untrusted),
		         HOOK_PATH " is owned by uid 1000");
		f.h.hooks.file[HOOK_POSTSTOP] = two;
		f.h.hooks.n[HOOK_POSTSTOP] = 2;
		expect_refusal("the second poststop hook, owned by a user", &post, NULL, NULL, &f,
		               ".hooks.poststop[1].path", HOOK_OPT);
	}
	{
		struct spec sc = {.hooks = "\"startContainer\":[{\"path\":\"/bin/true\"}]"};

		fake_init(&f);
		expect_refusal("a startContainer hook (the container's own program)", &sc, NULL,
		               NULL, &f, ".hooks.startContainer[0].path", "hook:/bin/true");
		expect_optout("a startContainer hook", &sc, NULL, NULL, &f,
		              ".hooks.startContainer[0].path", "hook:/bin/true");
	}

	/* baseline runs a sound program only when the operator vouches for
	 * it: the policy's "hooks" (the program, whatever it is told), or a
	 * hooks directory's entry (the program with exactly these args and
	 * env, at this point). /bin/sh with "-c ..." from the config would
	 * otherwise be host root. */
	{
		static char sh[] = "/bin/sh", a0[] = "sh", a1[] = "-c", a2[] = "id >/x",
		            e0[] = "A=1";
		static char *args[] = {a0, a1, a2, NULL}, *env[] = {e0, NULL};
		static struct hooks_dir_entry sh_entry = {.file = fake_dir_file,
		                                          .path = sh,
		                                          .args = args,
		                                          .n_args = 3,
		                                          .env = env,
		                                          .n_env = 1,
		                                          .stages = 1u << HOOK_PRESTART};
		static const struct {
			const char *hook, *pol;
			bool dir_entry, runs;
			const char *what;
		} c[] = {
		    {"{\"path\":\"/bin/sh\",\"args\":[\"sh\",\"-c\",\"id >/x\"],\"env\":[\"A=1\"]}",
		     NULL, false, false, "a sound root program nobody vouches for"},
		    {"{\"path\":\"/bin/sh\",\"args\":[\"sh\",\"-c\",\"id >/x\"],\"env\":[\"A=1\"]}",
		     NULL, true, true, "the hooks directory's entry, exactly"},
		    {"{\"path\":\"/bin/sh\",\"args\":[\"sh\",\"-c\",\"id >/y\"],\"env\":[\"A=1\"]}",
		     NULL, true, false, "the entry's program with other args"},
		    {"{\"path\":\"/bin/sh\",\"args\":[\"sh\",\"-c\"],\"env\":[\"A=1\"]}", NULL,
		     true, false, "the entry's program with fewer args"},
		    {"{\"path\":\"/bin/sh\",\"args\":[\"sh\",\"-c\",\"id >/x\"]}", NULL, true,
		     false, "the entry's program without its env"},
		    {"{\"path\":\"/bin/sh\",\"args\":[\"sh\",\"-c\",\"id >/x\"],"
		     "\"env\":[\"A=1\",\"LD_PRELOAD=/x\"]}",
		     NULL, true, false, "the entry's program with more env"},
		    {"{\"path\":\"/bin/sh\",\"args\":[\"sh\",\"-c\",\"id >/x\"],\"env\":[\"A=1\"]}",
		     "{\"hooks\":[\"/bin/sh\"]}", false, true, "the program in the policy's hooks"},
		    {"{\"path\":\"/bin/sh\",\"args\":[\"sh\",\"-c\",\"id >/x\"],\"env\":[\"A=1\"]}",
		     "{\"hooks\":[\"/usr/bin/*\"]}", false, false,
		     "another program in the policy's hooks"},
		};

		for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
			char hooks[512];
			struct spec s = {.hooks = hooks};

			snprintf(hooks, sizeof(hooks), "\"prestart\":[%s]", c[i].hook);
			fake_hook(&f, HOOK_PRESTART);
			f.h.hooks.dirs = (struct hooks_dirs){c[i].dir_entry ? &sh_entry : NULL,
			                                     c[i].dir_entry ? 1 : 0};
			run(&r, &s, c[i].pol, NULL, &f);
			if (!ok(r.rc == 0 &&
			            (c[i].runs ? r.x.n_refused == 0
			                       : r.x.n_refused == 1 &&
			                             refused_as(&r.x, HOOK_FIELD, "hook:/bin/sh")),
			        "baseline: %s: %s", c[i].what, c[i].runs ? "runs" : "refused"))
				dump(&r.x);
			run_free(&r);
		}
		/* The entry is for prestart only. */
		{
			struct spec s = {.hooks =
			                     "\"createRuntime\":[{\"path\":\"/bin/sh\",\"args\":"
			                     "[\"sh\",\"-c\",\"id >/x\"],\"env\":[\"A=1\"]}]"};

			fake_hook(&f, HOOK_CREATE_RUNTIME);
			f.h.hooks.dirs = (struct hooks_dirs){&sh_entry, 1};
			expect_refusal("baseline: the entry's hook at a point it is not for", &s,
			               NULL, NULL, &f, ".hooks.createRuntime[0].path",
			               "hook:/bin/sh");
		}
		fake_hook(&f, HOOK_PRESTART);
		f.h.hooks.dirs = (struct hooks_dirs){0};
		expect_optout("baseline: a hook nobody vouches for", &pre, NULL, NULL, &f,
		              HOOK_FIELD, HOOK_OPT);
	}

	/* strict: only the policy's "hooks", matched within path components. */
	{
		static const struct {
			const char *path, *pol;
			bool listed;
		} c[] = {
		    {HOOK_PATH, "{}", false},
		    {HOOK_PATH, "{\"hooks\":[\"/usr/libexec/oci/hooks.d/*\"]}", true},
		    {HOOK_PATH, "{\"hooks\":[\"" HOOK_PATH "\"]}", true},
		    {HOOK_PATH, "{\"hooks\":[\"/usr/libexec/*\"]}", false},
		    {"/usr/libexec/oci/hooks.d/../../../../tmp/h",
		     "{\"hooks\":[\"/usr/libexec/oci/hooks.d/*\"]}", false},
		    {"/usr/libexec/oci/hooks.d/sub/h",
		     "{\"hooks\":[\"/usr/libexec/oci/hooks.d/*\"]}", false},
		    {"/usr/libexec/oci/hooks.d/.h", "{\"hooks\":[\"/usr/libexec/oci/hooks.d/*\"]}",
		     false},
		};

		for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
			char hooks[256], opt[160];
			struct spec s = {.hooks = hooks};

			snprintf(hooks, sizeof(hooks), "\"prestart\":[{\"path\":\"%s\"}]",
			         c[i].path);
			snprintf(opt, sizeof(opt), "hook:%s", c[i].path);
			fake_hook(&f, HOOK_PRESTART);
			run(&r, &s, c[i].pol, "strict", &f);
			if (!ok(r.rc == 0 && (c[i].listed ? r.x.n_refused == 0
			                                  : r.x.n_refused == 1 &&
			                                        refused_as(&r.x, HOOK_FIELD, opt)),
			        "strict: %s with %s: %s", c[i].path, c[i].pol,
			        c[i].listed ? "listed, runs" : "not listed, refused"))
				dump(&r.x);
			run_free(&r);
		}
		fake_hook(&f, HOOK_PRESTART);
		expect_optout("strict: a hook not listed", &pre, NULL, "strict", &f, HOOK_FIELD,
		              HOOK_OPT);
	}

	/* The policy file's side. */
	{
		static const struct {
			const char *json;
			bool good;
		} p[] = {
		    {"{\"hooks\":[\"/usr/libexec/oci/hooks.d/*\"]}", true},
		    {"{\"hooks\":[\"hooks.d/*\"]}", false},
		    {"{\"hooks\":\"/usr/libexec/oci/hooks.d/*\"}", false},
		    {"{\"allow\":[\"hook:/usr/bin/x\"]}", true},
		    {"{\"allowAlways\":[\"hook:x\"]}", false},
		    {"{\"allow\":[\"hook:\"]}", false},
		};

		for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++) {
			struct policy *pol;

			werr_clear(err);
			pol = policy_parse(p[i].json, strlen(p[i].json), "policy.json", err);
			ok((pol != NULL) == p[i].good, "policy file %s: %s%s%s", p[i].json,
			   p[i].good ? "taken" : "refused", pol ? "" : ": ",
			   pol ? "" : werr_msg(err));
			policy_free(pol);
		}
	}
}

/* ---- adjustments: cgroup mounts read-only ---- */

static void test_cgroup_ro(void)
{
	static const struct {
		const char *type, *opts, *what;
		bool adjusted;
	} c[] = {
	    {"cgroup2", "\"rw\"", "cgroup2 rw", true},
	    {"cgroup2", "\"nosuid\",\"nodev\"", "cgroup2 without ro", true},
	    {"cgroup", "\"nosuid\",\"noexec\",\"nodev\"", "cgroup without ro", true},
	    {"cgroup", "\"ro\",\"rw\"", "cgroup ro then rw (rw wins)", true},
	    {"cgroup2", "\"ro\",\"rrw\"", "cgroup2 ro but recursively rw", true},
	    {"cgroup", "\"nosuid\",\"ro\"", "cgroup ro", false},
	    {"cgroup2", "\"ro\"", "cgroup2 ro", false},
	};
	static const char *const profiles[] = {NULL, "strict"};
	struct fake f;

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		for (size_t p = 0; p < 2; p++) {
			char mounts[256];
			struct spec s = {.mounts = mounts};
			struct run r;
			const struct oci_mount *m;
			size_t n;

			snprintf(mounts, sizeof(mounts),
			         "{\"destination\":\"/sys/fs/cgroup\",\"type\":\"%s\",\"source\":"
			         "\"cgroup\",\"options\":[%s]}",
			         c[i].type, c[i].opts);
			fake_init(&f); /* a cgroup-v2-only host: nothing is refused */
			run(&r, &s, NULL, profiles[p], &f);
			m = r.rc == 0 ? mount_at(r.cfg, "/sys/fs/cgroup", &n) : NULL;
			if (!ok(m && r.x.n_refused == 0 && has_opt(m, "ro") && !has_opt(m, "rw") &&
			            !has_opt(m, "rrw") &&
			            (adjusted(&r.x, "cgroup-ro", ".mounts[0].options") != NULL) ==
			                c[i].adjusted,
			        "cgroup-ro (%s): %s: %s", profiles[p] ? profiles[p] : "baseline",
			        c[i].what, c[i].adjusted ? "made read-only" : "left read-only"))
				dump(&r.x);
			run_free(&r);
		}
	{
		struct spec s = {.mounts =
		                     "{\"destination\":\"/sys/fs/cgroup\",\"type\":\"cgroup2\","
		                     "\"source\":\"cgroup\",\"options\":[\"rw\"]}"};
		struct run r;
		const struct oci_mount *m;
		size_t n;

		fake_init(&f);
		run(&r, &s, "{\"allowAlways\":[\"cgroup-rw\"]}", NULL, &f);
		m = r.rc == 0 ? mount_at(r.cfg, "/sys/fs/cgroup", &n) : NULL;
		ok(m && has_opt(m, "rw") && !has_opt(m, "ro") && !adjusted(&r.x, "cgroup-ro", NULL),
		   "cgroup-rw on: a writable cgroup2 mount stays writable");
		run_free(&r);
		run(&r, &s, NULL, "compat", &f);
		m = r.rc == 0 ? mount_at(r.cfg, "/sys/fs/cgroup", &n) : NULL;
		ok(m && has_opt(m, "rw") && !has_opt(m, "ro") && r.x.n_f == 0,
		   "compat: a writable cgroup2 mount stays writable");
		run_free(&r);
		run(&r, &s, NULL, NULL, NULL);
		m = r.rc == 0 ? mount_at(r.cfg, "/sys/fs/cgroup", &n) : NULL;
		ok(m && has_opt(m, "ro") && !has_opt(m, "rw") && adjusted(&r.x, "cgroup-ro", NULL),
		   "exec (no host facts): the same adjustment");
		run_free(&r);
	}
}

/* Where the egress programs cannot be attached (rootless, root of rootless
 * Podman's user namespace, a cgroup v1 host): baseline runs unfiltered and
 * says so, strict with an allow-list is refused, a network namespace of the
 * container's own needs no filter (policy_egress.c). */
static void test_egress_unenforced(void)
{
	static const char *const hosts[] = {"rootless", "userns", "v1"};
	static const char *const reason[] = {"rootless ward", "not root in the host's user",
	                                     "no cgroup2"};
	struct spec joined = {.ns = "{\"type\":\"pid\"},{\"type\":\"ipc\"},{\"type\":\"uts\"},"
	                            "{\"type\":\"mount\"},"
	                            "{\"type\":\"network\",\"path\":\"/run/netns/pod1\"}"};
	struct spec own = {0};
	const char *blist = "{\"egress\":{\"baseline\":{\"allow\":[\"10.0.0.1:443\"]}}}";
	const char *slist = "{\"egress\":{\"strict\":{\"allow\":[\"10.0.0.1:443\"]}}}";
	struct fake f;
	struct run r;

	for (size_t h = 0; h < 4; h++) {
		const char *what = h < 3 ? hosts[h] : "root, cgroup2";
		const struct finding *n;

		fake_init(&f);
		f.h.rootless = h == 0;
		f.h.userns_host = h > 1;
		f.h.cgroup2 = h != 2;

		run(&r, &joined, NULL, NULL, &f);
		n = find(&r.x, FIND_NOTE, ".linux.namespaces", NULL);
		if (!ok(r.rc == 0 && r.x.n_refused == 0 && r.x.egress.enforce == (h == 3) &&
		            (h == 3 ? n == NULL
		                    : n && strstr(n->why, "metadata endpoints stay reachable") &&
		                          strstr(n->why, reason[h])),
		        "%s: baseline joins a network %s", what,
		        h == 3 ? "with the programs" : "unfiltered, with a note saying why"))
			dump(&r.x);
		run_free(&r);

		run(&r, &joined, blist, NULL, &f);
		n = find(&r.x, FIND_NOTE, ".linux.namespaces", NULL);
		if (!ok(r.rc == 0 && r.x.n_refused == 0 &&
		            (h == 3 || (n && strstr(n->why, "what the egress list leaves out"))),
		        "%s: baseline with a list runs%s", what,
		        h == 3 ? "" : ", the note names it"))
			dump(&r.x);
		run_free(&r);

		run(&r, &own, slist, "strict", &f);
		n = find(&r.x, FIND_REFUSE, ".linux.namespaces", NULL);
		if (!ok(r.rc == 0 && (h == 3 ? r.x.n_refused == 0 && r.x.egress.enforce
		                             : n && strstr(n->why, "never runs unfiltered") &&
		                                   strstr(n->why, reason[h])),
		        "%s: strict with an allow-list %s", what,
		        h == 3 ? "runs with the programs" : "is refused, saying why"))
			dump(&r.x);
		run_free(&r);

		run(&r, &own, NULL, "strict", &f);
		if (!ok(r.rc == 0 && r.x.n_refused == 0 &&
		            (h == 3 || noted(&r.x, ".linux.namespaces")),
		        "%s: strict without a list, own network namespace: runs", what))
			dump(&r.x);
		run_free(&r);

		run(&r, &joined, "{\"allowAlways\":[\"join-network\"]}", "strict", &f);
		if (!ok(r.rc == 0 && r.x.n_refused == (h == 3 ? 0 : 1),
		        "%s: strict joining a network (join-network on) %s", what,
		        h == 3 ? "runs" : "is refused: it would be unfiltered"))
			dump(&r.x);
		run_free(&r);
	}
	/* The socket gate (raw, ICMP, ...) where an allow-list is in force. */
	fake_init(&f);
	run(&r, &joined, NULL, NULL, &f);
	ok(r.rc == 0 && r.x.egress.enforce && !r.x.egress.tcp_udp_only,
	   "baseline's default list: no socket gate (ping works)");
	run_free(&r);
	run(&r, &joined, blist, NULL, &f);
	ok(r.rc == 0 && r.x.egress.tcp_udp_only, "baseline with a list: the socket gate");
	run_free(&r);
	run(&r, &own, NULL, "strict", &f);
	ok(r.rc == 0 && r.x.egress.tcp_udp_only, "strict without a list: the socket gate");
	run_free(&r);
}

/* linux.netDevices hands over a host interface: outside compat only the
 * devices the operator's policy lists by name are moved. */
static void test_net_devices(void)
{
	struct spec one = {.lin = ",\"netDevices\":{\"s31c0\":{\"name\":\"eth0\"}}"};
	struct spec two = {.lin = ",\"netDevices\":{\"s31c0\":{},\"s31c1\":{}}"};
	static const char listed[] = "{\"netDevices\":[\"s31c0\"]}";
	struct fake f;
	struct run r;

	fake_init(&f);
	expect_refusal("baseline: a host device not in the policy", &one, NULL, NULL, &f,
	               ".linux.netDevices[\"s31c0\"]", "");
	expect_refusal("strict: a host device not in the policy", &one, NULL, "strict", &f,
	               ".linux.netDevices[\"s31c0\"]", "");
	expect_refusal("baseline: a policy listing another device", &one,
	               "{\"netDevices\":[\"s31c1\"]}", NULL, &f, ".linux.netDevices[\"s31c0\"]",
	               "");
	expect_allowed("baseline: the device the policy lists", &one, listed, NULL, &f);
	expect_allowed("strict: the device the policy lists", &one, listed, "strict", &f);
	expect_allowed("compat: any device", &one, NULL, "compat", &f);
	expect_refusal("baseline: of two, the one the policy does not list", &two, listed, NULL, &f,
	               ".linux.netDevices[\"s31c1\"]", "");
	/* An annotation cannot add a device (only the operator can). */
	one.ann = "\"org.ward.allow.s31c0\":\"true\"";
	expect_refusal("an annotation does not list a device", &one, NULL, NULL, &f,
	               ".linux.netDevices[\"s31c0\"]", "");
	run(&r, &two, NULL, NULL, &f);
	ok(r.rc == 0 && r.x.n_refused == 2, "each device unlisted is its own refusal");
	run_free(&r);
}

int main(void)
{
	test_net_devices();
	test_profiles();
	test_optout_gate();
	test_namespaces();
	test_strict_userns();
	test_seccomp_stack();
	test_devices();
	test_binds();
	test_kinds();
	test_mount_types();
	test_caps();
	test_secret_env();
	test_exec_env();
	test_adjust_baseline();
	test_adjust_devices();
	test_console_devices();
	test_root_trusts();
	test_process_attrs();
	test_unified();
	test_adjust_caps();
	test_adjust_strict();
	test_adjust_strict_gaps();
	test_compat();
	test_exec();
	test_record();
	test_hooks();
	test_cgroup_ro();
	test_egress_unenforced();
	return tap_done();
}
