/* The policy's rules (doc/ward-policy.7), as the pure function they are:
 * configs and operator policies from JSON strings, the host faked in a
 * struct host_facts. Needs no root and touches nothing on the host.
 *
 * Every expected value here is written from the manual and the
 * runtime-spec (and runc's defaults, which the manual names), never taken
 * from the tables of the code under test. */
#include "lib/error.h"
#include "oci/config.h"
#include "policy/host_facts.h"
#include "policy/policy.h"
#include "policy/prepare.h"
#include "tap.h"

#include <linux/capability.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

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
	        "\"mounts\":[%s],\"annotations\":{%s},"
	        "\"linux\":{\"namespaces\":[%s]%s}}",
	        S(s->root), S(s->proc), S(s->mounts), S(s->ann), s->ns ? s->ns : NS_ALL,
	        S(s->lin)) < 0)
		return NULL;
	werr_clear();
	c = oci_config_parse(j, strlen(j), "config.json");
	if (c == NULL)
		diag("config.json: %s\n# %s", werr_msg(), j);
	free(j);
	return c;
}

static struct policy *pol_new(const char *json)
{
	struct policy *p;

	werr_clear();
	p = policy_parse(json, strlen(json), "policy.json");
	if (p == NULL)
		diag("policy.json: %s", werr_msg());
	return p;
}

/* A host: two engine sockets exist, and whatever a test puts in mounts[]
 * and ns_host[] (indexed as the config's mounts and namespaces). */
struct fake {
	struct host_facts h;
	struct host_path mounts[8];
	bool ns_host[8];
};

#define SOCK_DEV       makedev(0, 25)
#define DOCKER_INO     7001
#define CONTAINERD_INO 7002

static ino_t next_ino = 1000;

static void fake_init(struct fake *f)
{
	memset(f, 0, sizeof(*f));
	f->h.mounts = f->mounts;
	f->h.ns_host = f->ns_host;
	snprintf(f->h.sockets[0].path, sizeof(f->h.sockets[0].path), "/run/docker.sock");
	f->h.sockets[0].dev = SOCK_DEV;
	f->h.sockets[0].ino = DOCKER_INO;
	snprintf(f->h.sockets[1].path, sizeof(f->h.sockets[1].path),
	         "/run/containerd/containerd.sock");
	f->h.sockets[1].dev = SOCK_DEV;
	f->h.sockets[1].ino = CONTAINERD_INO;
	f->h.n_sockets = 2;
}

/* A host path that resolves to real, of type (S_IFDIR, ...); rdev for
 * device nodes. A fresh inode on an ordinary disk. */
static void fake_path(struct host_path *p, const char *real, mode_t type, dev_t rdev)
{
	memset(p, 0, sizeof(*p));
	p->resolved = true;
	snprintf(p->real, sizeof(p->real), "%s", real);
	p->st.st_mode = type | 0755;
	p->st.st_dev = makedev(8, 1);
	p->st.st_ino = next_ino++;
	p->st.st_rdev = rdev;
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
	werr_clear();
	if (policy_ctx_init(&r->x, r->pol, cli, "ward", r->cfg) < 0)
		return r->rc = -1;
	if (f) {
		if (r->cfg->n_mounts > 8 || (r->cfg->linux && r->cfg->linux->n_namespaces > 8))
			return r->rc = -2;
		f->h.n_mounts = r->cfg->n_mounts;
		f->h.n_ns = r->cfg->linux ? r->cfg->linux->n_namespaces : 0;
		r->x.facts = &f->h;
	}
	return r->rc = policy_apply(&r->x);
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

/* A documented rule the code does not keep (yet): tap.h has no TODO
 * directive, so it is a diagnostic, not a test. */
static void known_bug(bool holds, const char *what)
{
	diag("KNOWN BUG%s: %s", holds ? " NOW FIXED (make it a test)" : "", what);
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
		rc = cfg && pol ? policy_ctx_init(&x, pol, c[i].cli, c[i].argv0, cfg) : -2;
		if (!ok(rc == 0 && x.profile == c[i].want &&
		            noted(&x, ".annotations[\"org.ward.profile\"]") == c[i].note,
		        "profile: %s", c[i].what))
			diag("rc %d, profile %s: %s", rc, rc == 0 ? profile_name(x.profile) : "-",
			     werr_msg());
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

		werr_clear();
		ok(cfg && pol && policy_ctx_init(&x, pol, NULL, "ward", cfg) < 0 &&
		       strstr(werr_msg(), "org.ward.profile") && strstr(werr_msg(), "lax"),
		   "profile: an invalid org.ward.profile annotation is an error (%s)", werr_msg());
		policy_ctx_free(&x);
		oci_config_free(cfg);

		s.ann = NULL;
		cfg = cfg_new(&s);
		werr_clear();
		ok(cfg && policy_ctx_init(&x, pol, "lax", "ward", cfg) < 0 &&
		       strstr(werr_msg(), "--profile"),
		   "profile: an invalid --profile is an error (%s)", werr_msg());
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
		fake_init(&f);
		f.ns_host[n] = true;
		expect_refusal(what, &s, NULL, NULL, &f, field, ns[i].optout);
		fake_init(&f);
		f.ns_host[n] = true;
		expect_optout(what, &s, NULL, NULL, &f, field, ns[i].optout);
		/* Another container's: as pods do. */
		snprintf(what, sizeof(what), "another container's %s namespace by path (baseline)",
		         ns[i].type);
		fake_init(&f);
		expect_allowed(what, &s, NULL, NULL, &f);
		if (strcmp(ns[i].type, "network") != 0) {
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
		if (!ok(r.rc == 0 && r.x.n_refused == 4 &&
		            refused_as(&r.x, ".linux.namespaces", "host-pid") &&
		            refused_as(&r.x, ".linux.namespaces", "host-ipc") &&
		            refused_as(&r.x, ".linux.namespaces", "host-uts") &&
		            refused_as(&r.x, ".linux.namespaces", "host-mount"),
		        "refused: no namespaces at all: pid, ipc, uts and mount (4 refusals)"))
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

		fake_init(&f);
		run(&r, &s, NULL, NULL, &f);
		if (!ok(r.rc == 0 && r.x.n_refused == 0 && adjusted(&r.x, "new-netns", NULL) &&
		            oci_config_namespace(r.cfg, CLONE_NEWNET) &&
		            oci_config_namespace(r.cfg, CLONE_NEWNET)->path == NULL,
		        "no network namespace, missingNetwork isolate (default): a fresh one, "
		        "not a refusal"))
			dump(&r.x);
		run_free(&r);

		expect_refusal("no network namespace, missingNetwork refuse", &s,
		               "{\"missingNetwork\":\"refuse\"}", NULL, &f, ".linux.namespaces",
		               "host-network");
		expect_optout("no network namespace, missingNetwork refuse", &s,
		              "\"missingNetwork\":\"refuse\"", NULL, &f, ".linux.namespaces",
		              "host-network");
		run(&r, &s, "{\"missingNetwork\":\"refuse\"}", NULL, &f);
		ok(r.rc == 0 && !adjusted(&r.x, "new-netns", NULL) &&
		       !oci_config_namespace(r.cfg, CLONE_NEWNET),
		   "missingNetwork refuse: no network namespace added either");
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

/* ---- refusals: devices ---- */

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
	    {"{\"type\":\"c\",\"path\":\"/dev/ttyS0\",\"major\":4,\"minor\":64}", NULL,
	     "/dev/ttyS0 (c 4:64)"},
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
	    {"{\"allow\":false,\"access\":\"rwm\"}", NULL, "deny everything"},
	    {"{\"allow\":false,\"type\":\"c\",\"major\":1,\"minor\":1,\"access\":\"rwm\"}", NULL,
	     "deny c 1:1"},
	    {"{\"allow\":true,\"type\":\"c\",\"major\":1,\"minor\":3,\"access\":\"rwm\"}", NULL,
	     "allow c 1:3 (null)"},
	    {"{\"allow\":true,\"type\":\"c\",\"major\":136,\"access\":\"rwm\"}", NULL,
	     "allow c 136:* (ptys)"},
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
	for (size_t i = 0; i < 7; i++) {
		char lin[256], what[160];
		struct spec s = {.lin = lin};

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
		if (rules[i].optout)
			expect_refusal(what, &s, NULL, NULL, &f, ".linux.resources.devices[0]",
			               rules[i].optout);
		else
			expect_allowed(what, &s, NULL, NULL, &f);
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

	/* Bug: a rule allowing every minor of a major that holds refused
	 * devices (c 1:* holds mem, kmem and port; c 10:* kvm, fuse and tun)
	 * allows those devices, but only an exact major:minor match is
	 * refused. */
	{
		struct spec s = {.lin =
		                     ",\"resources\":{\"devices\":[{\"allow\":true,\"type\":\"c\","
		                     "\"major\":1,\"access\":\"rwm\"}]}"};
		struct run r;

		run(&r, &s, NULL, NULL, &f);
		known_bug(r.rc == 0 &&
		              (refused_as(&r.x, ".linux.resources.devices[0]", "device.mem") ||
		               refused_as(&r.x, ".linux.resources.devices[0]", "device.kmem") ||
		               refused_as(&r.x, ".linux.resources.devices[0]", "device.port")),
		          "resources.devices {allow c 1:* rwm} (every minor of major 1: mem, kmem, "
		          "port) is not refused");
		run_free(&r);
		s.lin = ",\"resources\":{\"devices\":[{\"allow\":true,\"type\":\"c\",\"major\":10,"
		        "\"access\":\"rwm\"}]}";
		run(&r, &s, NULL, NULL, &f);
		known_bug(r.rc == 0 && r.x.n_refused > 0,
		          "resources.devices {allow c 10:* rwm} (kvm, fuse, tun) is not refused");
		run_free(&r);
	}
}

/* ---- refusals: bind mounts, root.path, cgroup mounts ---- */

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

static const struct bind_case {
	const char *source, *real;
	mode_t type;
	unsigned int maj, min; /* device nodes */
	ino_t sock_ino;        /* sockets: the same inode as an engine socket */
	const char *optout;    /* NULL: allowed */
	const char *what;
} binds[] = {
    {"/", "/", S_IFDIR, 0, 0, 0, "mount:/", "the host's /"},
    {"/proc", "/proc", S_IFDIR, 0, 0, 0, "mount:/proc", "/proc"},
    {"/proc/sys", "/proc/sys", S_IFDIR, 0, 0, 0, "mount:/proc/sys", "a directory below /proc"},
    {"/proc/sysrq-trigger", "/proc/sysrq-trigger", S_IFREG, 0, 0, 0, "mount:/proc/sysrq-trigger",
     "a file below /proc"},
    {"/sys", "/sys", S_IFDIR, 0, 0, 0, "mount:/sys", "/sys"},
    {"/sys/fs/cgroup", "/sys/fs/cgroup", S_IFDIR, 0, 0, 0, "mount:/sys/fs/cgroup",
     "a directory below /sys"},
    {"/sys/kernel/uevent_helper", "/sys/kernel/uevent_helper", S_IFREG, 0, 0, 0,
     "mount:/sys/kernel/uevent_helper", "a file below /sys"},
    {"/boot", "/boot", S_IFDIR, 0, 0, 0, "mount:/boot", "/boot"},
    {"/boot/vmlinuz", "/boot/vmlinuz", S_IFREG, 0, 0, 0, "mount:/boot/vmlinuz",
     "a file below /boot"},
    {"/root", "/root", S_IFDIR, 0, 0, 0, "mount:/root", "/root"},
    {"/root/.ssh", "/root/.ssh", S_IFDIR, 0, 0, 0, "mount:/root/.ssh", "a directory below /root"},
    {"/etc", "/etc", S_IFDIR, 0, 0, 0, "mount:/etc", "/etc itself"},
    {"/etc/", "/etc", S_IFDIR, 0, 0, 0, "mount:/etc/", "/etc/ (resolved: /etc)"},
    {"/etc/ssl", "/etc/ssl", S_IFDIR, 0, 0, 0, "mount:/etc/ssl", "a directory below /etc"},
    {"/etc/kubernetes/pki", "/etc/kubernetes/pki", S_IFDIR, 0, 0, 0, "mount:/etc/kubernetes/pki",
     "a directory two levels below /etc"},
    {"/etc/hosts", "/etc/hosts", S_IFREG, 0, 0, 0, NULL, "the file /etc/hosts"},
    {"/etc/resolv.conf", "/etc/resolv.conf", S_IFREG, 0, 0, 0, NULL, "the file /etc/resolv.conf"},
    {"/dev", "/dev", S_IFDIR, 0, 0, 0, "mount:/dev", "/dev itself"},
    {"/dev/shm", "/dev/shm", S_IFDIR, 0, 0, 0, "mount:/dev/shm", "a directory below /dev"},
    {"/dev/dri", "/dev/dri", S_IFDIR, 0, 0, 0, "mount:/dev/dri", "another directory below /dev"},
    {"/var/lib", "/var/lib", S_IFDIR, 0, 0, 0, "mount:/var/lib",
     "/var/lib (contains /var/lib/docker)"},
    {"/var", "/var", S_IFDIR, 0, 0, 0, "mount:/var", "/var (contains /var/lib/kubelet)"},
    {"/var/lib/docker", "/var/lib/docker", S_IFDIR, 0, 0, 0, "mount:/var/lib/docker",
     "/var/lib/docker"},
    {"/var/lib/containerd", "/var/lib/containerd", S_IFDIR, 0, 0, 0, "mount:/var/lib/containerd",
     "/var/lib/containerd"},
    {"/var/lib/containers", "/var/lib/containers", S_IFDIR, 0, 0, 0, "mount:/var/lib/containers",
     "/var/lib/containers"},
    {"/var/lib/kubelet", "/var/lib/kubelet", S_IFDIR, 0, 0, 0, "mount:/var/lib/kubelet",
     "/var/lib/kubelet"},
    {"/var/lib/docker/volumes/data/_data", "/var/lib/docker/volumes/data/_data", S_IFDIR, 0, 0, 0,
     NULL, "a docker volume below /var/lib/docker"},
    {"/var/lib/containers/storage/volumes/v/_data", "/var/lib/containers/storage/volumes/v/_data",
     S_IFDIR, 0, 0, 0, NULL, "a podman volume below /var/lib/containers"},
    {"/var/lib/kubelet/pods/0f1e/volumes/kubernetes.io~empty-dir/cache",
     "/var/lib/kubelet/pods/0f1e/volumes/kubernetes.io~empty-dir/cache", S_IFDIR, 0, 0, 0, NULL,
     "a kubelet emptyDir below /var/lib/kubelet"},
    {"/var/lib/data", "/var/lib/data", S_IFDIR, 0, 0, 0, NULL, "/var/lib/data"},
    {"/srv/www", "/srv/www", S_IFDIR, 0, 0, 0, NULL, "/srv/www"},
    {"/home/alice/project", "/home/alice/project", S_IFDIR, 0, 0, 0, NULL, "a home directory"},
    {"/etcetera", "/etcetera", S_IFDIR, 0, 0, 0, NULL, "/etcetera (only a prefix of /etc)"},
    {"/devel", "/devel", S_IFDIR, 0, 0, 0, NULL, "/devel (only a prefix of /dev)"},
    {"/system", "/system", S_IFDIR, 0, 0, 0, NULL, "/system (only a prefix of /sys)"},
    {"/var/lib/docker-data", "/var/lib/docker-data", S_IFDIR, 0, 0, 0, NULL,
     "/var/lib/docker-data (only a prefix of /var/lib/docker)"},
    /* Engine sockets. */
    {"/run/docker.sock", "/run/docker.sock", S_IFSOCK, 0, 0, DOCKER_INO, "mount:/run/docker.sock",
     "/run/docker.sock"},
    {"/srv/api.sock", "/srv/api.sock", S_IFSOCK, 0, 0, DOCKER_INO, "mount:/srv/api.sock",
     "docker's socket under another name (same inode)"},
    {"/tmp/x/c.sock", "/tmp/x/c.sock", S_IFSOCK, 0, 0, CONTAINERD_INO, "mount:/tmp/x/c.sock",
     "containerd's socket under another name (same inode)"},
    {"/home/alice/.docker/run/docker.sock", "/home/alice/.docker/run/docker.sock", S_IFSOCK, 0, 0,
     0, "mount:/home/alice/.docker/run/docker.sock", "a socket named docker.sock"},
    {"/srv/e/containerd.sock", "/srv/e/containerd.sock", S_IFSOCK, 0, 0, 0,
     "mount:/srv/e/containerd.sock", "a socket named containerd.sock"},
    {"/run/user/1000/podman/podman.sock", "/run/user/1000/podman/podman.sock", S_IFSOCK, 0, 0, 0,
     "mount:/run/user/1000/podman/podman.sock", "a socket named podman.sock"},
    {"/srv/e/crio.sock", "/srv/e/crio.sock", S_IFSOCK, 0, 0, 0, "mount:/srv/e/crio.sock",
     "a socket named crio.sock"},
    {"/srv/e/dockershim.sock", "/srv/e/dockershim.sock", S_IFSOCK, 0, 0, 0,
     "mount:/srv/e/dockershim.sock", "a socket named dockershim.sock"},
    {"/srv/app.sock", "/srv/app.sock", S_IFSOCK, 0, 0, 0, NULL,
     "another socket (other inode, other name)"},
    {"/srv/docker.sock", "/srv/docker.sock", S_IFREG, 0, 0, 0, NULL,
     "a regular file named docker.sock"},
    {"/run", "/run", S_IFDIR, 0, 0, 0, "mount:/run", "/run (contains /run/docker.sock)"},
    {"/run/containerd", "/run/containerd", S_IFDIR, 0, 0, 0, "mount:/run/containerd",
     "/run/containerd (contains containerd.sock)"},
    {"/run/user/1000", "/run/user/1000", S_IFDIR, 0, 0, 0, NULL,
     "/run/user/1000 (no engine socket in it)"},
    /* Device nodes. */
    {"/dev/mem", "/dev/mem", S_IFCHR, 1, 1, 0, "device.mem", "the node /dev/mem"},
    {"/dev/kmem", "/dev/kmem", S_IFCHR, 1, 2, 0, "device.kmem", "the node /dev/kmem"},
    {"/dev/port", "/dev/port", S_IFCHR, 1, 4, 0, "device.port", "the node /dev/port"},
    {"/dev/kvm", "/dev/kvm", S_IFCHR, 10, 232, 0, "device.kvm", "the node /dev/kvm"},
    {"/dev/fuse", "/dev/fuse", S_IFCHR, 10, 229, 0, "device.fuse", "the node /dev/fuse"},
    {"/dev/net/tun", "/dev/net/tun", S_IFCHR, 10, 200, 0, "device.tun", "the node /dev/net/tun"},
    {"/dev/sda1", "/dev/sda1", S_IFBLK, 8, 1, 0, "device.block", "the block node /dev/sda1"},
    {"/srv/nodes/m", "/srv/nodes/m", S_IFCHR, 1, 1, 0, "device.mem",
     "a node of mem made elsewhere"},
    {"/srv/nodes/disk", "/srv/nodes/disk", S_IFBLK, 259, 0, 0, "device.block",
     "a block node made elsewhere"},
    {"/dev/null", "/dev/null", S_IFCHR, 1, 3, 0, NULL, "the node /dev/null"},
    {"/dev/urandom", "/dev/urandom", S_IFCHR, 1, 9, 0, NULL, "the node /dev/urandom"},
    {"/dev/tty", "/dev/tty", S_IFCHR, 5, 0, 0, NULL, "the node /dev/tty"},
};

static void fake_bind(struct fake *f, size_t i, const struct bind_case *b)
{
	fake_path(&f->mounts[i], b->real, b->type, makedev(b->maj, b->min));
	if (b->sock_ino) {
		f->mounts[i].st.st_dev = SOCK_DEV;
		f->mounts[i].st.st_ino = b->sock_ino;
	}
}

static void test_binds(void)
{
	struct fake f;

	for (size_t i = 0; i < sizeof(binds) / sizeof(binds[0]); i++) {
		const struct bind_case *b = &binds[i];
		char *m = bind_json(b->source), what[192];
		struct spec s = {.mounts = m};

		fake_init(&f);
		fake_bind(&f, 0, b);
		snprintf(what, sizeof(what), "bind source %s: %s", b->source, b->what);
		if (b->optout)
			expect_refusal(what, &s, NULL, NULL, &f, ".mounts[0].source", b->optout);
		else
			expect_allowed(what, &s, NULL, NULL, &f);
		free(m);
	}

	/* The opt-outs, for one of each kind. */
	{
		static const char *const some[] = {"/",
		                                   "/etc",
		                                   "/var/lib",
		                                   "/sys/fs/cgroup",
		                                   "/srv/api.sock",
		                                   "/run",
		                                   "/home/alice/.docker/run/docker.sock",
		                                   "/dev/mem",
		                                   "/srv/nodes/disk"};

		for (size_t k = 0; k < sizeof(some) / sizeof(some[0]); k++) {
			const struct bind_case *b = NULL;
			char *m, what[192];
			struct spec s;

			for (size_t i = 0; i < sizeof(binds) / sizeof(binds[0]) && !b; i++)
				if (strcmp(binds[i].source, some[k]) == 0)
					b = &binds[i];
			if (!b || !b->optout)
				abort();
			m = bind_json(b->source);
			s = (struct spec){.mounts = m};
			fake_init(&f);
			fake_bind(&f, 0, b);
			snprintf(what, sizeof(what), "bind source %s", b->source);
			expect_optout(what, &s, NULL, NULL, &f, ".mounts[0].source", b->optout);
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

	/* A symlink on the host: refused as what it resolves to; the opt-out
	 * may name either. */
	{
		char *m = bind_json("/srv/etc-link");
		struct spec s = {.mounts = m};
		struct spec sa = s;
		struct run r;
		const struct finding *fd;

		fake_init(&f);
		fake_path(&f.mounts[0], "/etc", S_IFDIR, 0);
		run(&r, &s, NULL, NULL, &f);
		fd = find(&r.x, FIND_REFUSE, ".mounts[0].source", NULL);
		if (!ok(r.rc == 0 && r.x.n_refused == 1 && fd &&
		            (strcmp(fd->optout, "mount:/srv/etc-link") == 0 ||
		             strcmp(fd->optout, "mount:/etc") == 0),
		        "refused: bind source /srv/etc-link, a symlink to /etc (opt-out %s)",
		        fd ? fd->optout : "-"))
			dump(&r.x);
		run_free(&r);
		sa.ann = "\"org.ward.allow.mount:/etc\":\"true\"";
		run(&r, &sa, "{\"allow\":[\"mount:/etc\"]}", NULL, &f);
		ok(r.rc == 0 && r.x.n_refused == 0,
		   "mount:/etc (the resolved path) lifts the refusal of /srv/etc-link");
		run_free(&r);
		sa.ann = "\"org.ward.allow.mount:/srv/etc-link\":\"true\"";
		run(&r, &sa, "{\"allow\":[\"mount:/srv/etc-link\"]}", NULL, &f);
		ok(r.rc == 0 && r.x.n_refused == 0,
		   "mount:/srv/etc-link (the path as given) lifts it too");
		run_free(&r);
		free(m);
	}

	/* Bug: a relative bind source (relative to the bundle, as the
	 * runtime-spec allows) that resolves to a refused host path is refused
	 * with the opt-out "mount:<relative path>", which the policy file
	 * rejects ("a mount opt-out names an absolute host path"). */
	{
		char *m = bind_json("hostetc");
		struct spec s = {.mounts = m};
		struct run r;
		const struct finding *fd;

		fake_init(&f);
		fake_path(&f.mounts[0], "/etc", S_IFDIR, 0);
		run(&r, &s, NULL, NULL, &f);
		fd = find(&r.x, FIND_REFUSE, ".mounts[0].source", NULL);
		ok(r.rc == 0 && r.x.n_refused == 1 && fd && strncmp(fd->optout, "mount:", 6) == 0,
		   "refused: relative bind source resolving to /etc");
		known_bug(fd && fd->optout[6] == '/',
		          "a relative bind source's refusal names the opt-out \"mount:hostetc\", "
		          "which no policy file can allow (mount opt-outs are absolute)");
		run_free(&r);
		free(m);
	}

	/* issue #12 changes this to a refusal: today a bind source that does
	 * not resolve on the host is left to fail (or not) at mount time. */
	{
		char *m = bind_json("/etc");
		struct spec s = {.mounts = m};

		fake_init(&f);
		f.mounts[0].resolved = false;
		expect_allowed("an unresolved bind source (/etc, resolved=false) is not refused "
		               "today",
		               &s, NULL, NULL, &f);
		free(m);
	}

	/* root.path */
	{
		struct spec s = {.ns = NULL};

		fake_init(&f);
		fake_path(&f.h.root, "/", S_IFDIR, 0);
		expect_refusal("root.path resolving to the host's /", &s, NULL, NULL, &f,
		               ".root.path", "mount:/");
		expect_optout("root.path resolving to the host's /", &s, NULL, NULL, &f,
		              ".root.path", "mount:/");
		fake_init(&f);
		fake_path(&f.h.root, "/var/lib/ward/bundles/c1/rootfs", S_IFDIR, 0);
		expect_allowed("root.path resolving to a bundle's rootfs", &s, NULL, NULL, &f);
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
	    /* The patterns are fnmatch(3) patterns of the name, matched as
	     * written: case matters. */
	    {"api_token", false},
	    {"Db_Password", false},
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
		expect_allowed(
		    "strict, secretEnv [*token*, INTERNAL_*]: API_TOKEN (defaults replaced)",
		    &(struct spec){.proc = ",\"env\":[\"PATH=/bin\",\"API_TOKEN=1\"]"}, pol,
		    "strict", &f);
		expect_allowed("strict, secretEnv []: nothing is a secret",
		               &(struct spec){.proc = ",\"env\":[\"API_TOKEN=1\"]"},
		               "{\"secretEnv\":[]}", "strict", &f);
	}
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
		ok(!adjusted(&r.x, "new-netns", NULL) && !adjusted(&r.x, "strict-userns", NULL) &&
		       !adjusted(&r.x, "strict-readonly-root", NULL) &&
		       !adjusted(&r.x, "strict-scratch", NULL) &&
		       !adjusted(&r.x, "strict-limits", NULL) && !r.cfg->root->readonly &&
		       !oci_config_namespace(r.cfg, CLONE_NEWUSER),
		   "baseline: a network namespace listed is left; none of strict's adjustments");
	} else {
		ok(0, "baseline, silent config: %s", werr_msg());
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
		        ",\"seccomp\":{\"defaultAction\":\"SCMP_ACT_LOG\"},\"maskedPaths\":["
		        "\"/proc/acpi\",\"/proc/asound\",\"/proc/kcore\",\"/proc/keys\","
		        "\"/proc/latency_stats\",\"/proc/timer_list\",\"/proc/timer_stats\","
		        "\"/proc/sched_debug\",\"/proc/scsi\",\"/sys/firmware\","
		        "\"/proc/interrupts\",\"/sys/devices/virtual/powercap\",\"/opt/secret\"],"
		        "\"readonlyPaths\":[\"/proc/bus\",\"/proc/fs\",\"/proc/irq\",\"/proc/sys\","
		        "\"/proc/sysrq-trigger\"],\"resources\":{\"pids\":{\"limit\":50000}}"};
		const struct oci_rlimit *nofile;

		fake_init(&f);
		run(&r, &s, NULL, NULL, &f);
		if (!ok(r.rc == 0 && r.x.n_refused == 0 && n_kind(&r.x, FIND_ADJUST) == 0,
		        "baseline: a config that already says it all: no adjustment"))
			dump(&r.x);
		ok(r.cfg && r.cfg->linux->seccomp &&
		       strcmp(r.cfg->linux->seccomp->default_action, "SCMP_ACT_LOG") == 0,
		   "seccomp-default: the config's own profile is kept");
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
		ok(r.rc == 0 && oci_config_namespace(r.cfg, CLONE_NEWNET) &&
		       adjusted(&r.x, "new-netns", ".linux.namespaces"),
		   "new-netns: host-network annotated but not allowed: a fresh network namespace");
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
		       l->uid_mappings[0].host_id == 100000 && l->uid_mappings[0].size == 65536 &&
		       l->gid_mappings[0].container_id == 0 &&
		       l->gid_mappings[0].host_id == 100000 && l->gid_mappings[0].size == 65536 &&
		       adjusted(&r.x, "strict-userns", ".linux.namespaces"),
		   "strict-userns: a user namespace, container 0-65535 = host 100000-165535");
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
		ok(0, "strict, silent config: %s", werr_msg());
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
		ok(0, "strict with the policy's values: %s", werr_msg());
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

	/* Bug: "memory (512 MiB, no swap beyond it)": a config's own lower
	 * memory limit keeps its own memory+swap, however large. */
	{
		struct spec s = {.lin = ",\"resources\":{\"memory\":{\"limit\":134217728,"
		                        "\"swap\":4294967296}}"};
		const struct oci_memory *mem;

		run(&r, &s, NULL, "strict", &f);
		mem = r.rc == 0 ? r.cfg->linux->resources->memory : NULL;
		ok(mem && mem->limit == 128 * MiB, "strict-limits: a lower memory limit is kept");
		known_bug(mem && mem->has_swap && mem->swap <= 512 * MiB,
		          "strict with memory.limit 128 MiB and memory.swap 4 GiB keeps 4 GiB of "
		          "memory+swap (\"no swap beyond\" the 512 MiB limit is only kept when "
		          "ward sets the limit itself)");
		run_free(&r);
	}
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
	 * /dev/mem, the allow-all rule, SYS_ADMIN; and strict: API_TOKEN. */
	static const struct {
		const char *name;
		size_t n_refused;
	} profiles[] = {{"baseline", 7}, {"strict", 8}};
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
		werr_clear();
		ok(r.rc == 0 && policy_exec_caps(&r.x, &caps, &nnp) < 0 &&
		       strstr(werr_msg(), "process.capabilities.bounding") &&
		       strstr(werr_msg(), "CAP_SYS_ADMIN") && strstr(werr_msg(), "cap.SYS_ADMIN") &&
		       !nnp,
		   "exec: CAP_SYS_ADMIN refused, naming the set and the opt-out (%s)", werr_msg());

		/* Each on a fresh context, as `ward exec` has one. */
		for (size_t k = 0; k < sizeof(refused_caps) / sizeof(refused_caps[0]); k++) {
			struct run e;

			if (refused_caps[k].cap == CAP_SYS_PTRACE)
				continue;
			run(&e, &(struct spec){.ns = NULL},
			    "{\"allowAlways\":[\"cap.SYS_PTRACE\"]}", NULL, NULL);
			caps = (struct oci_caps){.ambient = BIT(refused_caps[k].cap)};
			werr_clear();
			if (e.rc == 0 && policy_exec_caps(&e.x, &caps, &nnp) < 0 &&
			    strstr(werr_msg(), refused_caps[k].name) &&
			    strstr(werr_msg(), "process.capabilities.ambient"))
				n_ok++;
			else
				diag("exec: CAP_%s in ambient: %s", refused_caps[k].name,
				     werr_msg());
			run_free(&e);
		}
		ok(n_ok == sizeof(refused_caps) / sizeof(refused_caps[0]) - 1,
		   "exec: each refused capability (but the opted-out SYS_PTRACE) refused in "
		   "ambient");

		/* The refusal reported is this call's, not one the context
		 * already holds. */
		caps = (struct oci_caps){.effective = BIT(CAP_SYS_MODULE)};
		werr_clear();
		ok(policy_exec_caps(&r.x, &caps, &nnp) < 0,
		   "exec: a second refused capability on the same context is refused too");
		ok(strstr(werr_msg(), "SYS_MODULE") != NULL && strstr(werr_msg(), "SYS_ADMIN") == NULL,
		   "exec: the second refusal names its own capability (SYS_MODULE): %s", werr_msg());

		caps = (struct oci_caps){.bounding = BIT(CAP_CHOWN) | BIT(CAP_KILL) |
		                                     BIT(CAP_NET_RAW) | BIT(CAP_SYS_PTRACE),
		                         .effective = BIT(CAP_KILL) | BIT(CAP_NET_RAW),
		                         .permitted = BIT(CAP_KILL) | BIT(CAP_MKNOD),
		                         .inheritable = BIT(CAP_KILL),
		                         .ambient = BIT(CAP_KILL)};
		nnp = false;
		ok(policy_exec_caps(&r.x, &caps, &nnp) == 0 && nnp &&
		       caps.bounding == (BIT(CAP_CHOWN) | BIT(CAP_KILL) | BIT(CAP_SYS_PTRACE)) &&
		       caps.effective == BIT(CAP_KILL) && caps.permitted == BIT(CAP_KILL) &&
		       caps.inheritable == 0 && caps.ambient == 0,
		   "exec: capped to the safe set plus cap.SYS_PTRACE, inheritable and ambient "
		   "cleared, no_new_privs on");
		run_free(&r);

		run(&r, &(struct spec){.ns = NULL}, NULL, "strict", NULL);
		caps = (struct oci_caps){.permitted = BIT(CAP_SYS_PTRACE)};
		werr_clear();
		ok(r.rc == 0 && policy_exec_caps(&r.x, &caps, &nnp) < 0 &&
		       strstr(werr_msg(), "cap.SYS_PTRACE") && strstr(werr_msg(), "permitted"),
		   "exec, strict: CAP_SYS_PTRACE refused without the opt-out");
		run_free(&r);

		run(&r, &(struct spec){.ns = NULL}, NULL, "compat", NULL);
		caps =
		    (struct oci_caps){.bounding = BIT(CAP_SYS_ADMIN), .ambient = BIT(CAP_NET_RAW)};
		nnp = false;
		ok(r.rc == 0 && policy_exec_caps(&r.x, &caps, &nnp) == 0 && !nnp &&
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
	if (cfg && run1->pol && policy_ctx_init(&run1->x, run1->pol, cli, argv0, cfg) == 0)
		rc = policy_record_gen(run1, rec, len);
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
	werr_clear();
	memset(&run2, 0, sizeof(run2));
	rc = rc == 0 && cfg2 ? policy_prepare(&in, cfg2, &run2) : -2;
	if (!ok(rc == 0 && run2.x.profile == run1.x.profile && same_optouts(&run1.x, &run2.x) &&
	            run2.x.facts == NULL && run2.x.n_refused == 0,
	        "record: read back, the same profile and opt-outs (%s)", werr_msg()))
		diag("record: %s", rec ? rec : "(none)");
	if (rc == 0) {
		struct oci_caps caps = {.effective = BIT(CAP_SYS_PTRACE) | BIT(CAP_NET_RAW)};
		bool nnp = false;

		ok(cfg2->process->capabilities->bounding ==
		           (BIT(CAP_CHOWN) | BIT(CAP_SYS_PTRACE)) &&
		       cfg2->root->readonly && oci_config_namespace(cfg2, CLONE_NEWUSER),
		   "record: exec re-applies strict with the recorded opt-outs");
		ok(policy_exec_caps(&run2.x, &caps, &nnp) == 0 &&
		       caps.effective == BIT(CAP_SYS_PTRACE) && nnp,
		   "record: exec --cap CAP_SYS_PTRACE allowed by the recorded opt-out");
		caps = (struct oci_caps){.effective = BIT(CAP_SYS_ADMIN)};
		ok(policy_exec_caps(&run2.x, &caps, &nnp) < 0,
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
	rc = rc == 0 && cfg2 ? policy_prepare(&in, cfg2, &run2) : -2;
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
			rc = rc == 0 && cfg2 ? policy_prepare(&in, cfg2, &run2) : -2;
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
			werr_clear();
			memset(&run2, 0, sizeof(run2));
			rc = cfg2 ? policy_prepare(&bin, cfg2, &run2) : 0;
			ok(rc < 0 && werr_msg()[0] != '\0', "record: %s is an error (%s)",
			   bad_rec[i].what, werr_msg());
			policy_run_free(&run2);
			oci_config_free(cfg2);
		}
	}
}

int main(void)
{
	test_profiles();
	test_optout_gate();
	test_namespaces();
	test_devices();
	test_binds();
	test_caps();
	test_secret_env();
	test_adjust_baseline();
	test_adjust_caps();
	test_adjust_strict();
	test_compat();
	test_exec();
	test_record();
	return tap_done();
}
