/* The run supervisor's inputs: durations, the policy digest, the policy
 * file's keys, and the rule that decides whether a supervisor runs, with
 * which wall-clock limit, and whether denials are recorded. */
#include "lib/duration.h"
#include "lib/error.h"
#include "lib/sha256.h"
#include "policy/policy.h"
#include "policy/rules.h"
#include "tap.h"

#include <errno.h>
#include <string.h>

static void durations(void)
{
	static const struct {
		const char *in;
		long long ms;
	} good[] = {{"250ms", 250},
	            {"5s", 5000},
	            {"5", 5000},
	            {"1.5m", 90000},
	            {"2h", 7200000},
	            {"0.5s", 500},
	            {"1000000000s", 1000000000000LL}};
	static const char *const bad[] = {"",      "s",    "-1s",  "1d",  "1 s",
	                                  "nan",   "inf",  "0x10", "1e3", "10000000000s",
	                                  "1..5s", "1.s5", NULL};
	char buf[32];
	long long ms;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		ok(duration_parse_ms(good[i].in, &ms) == 0 && ms == good[i].ms,
		   "duration %s = %lld ms", good[i].in, good[i].ms);
	for (size_t i = 0; bad[i]; i++)
		ok(duration_parse_ms(bad[i], &ms) < 0, "not a duration: \"%s\"", bad[i]);
	ok(duration_parse_ms("0.1ms", &ms) < 0 && errno == ERANGE, "0.1ms is too short (ERANGE)");
	ok(duration_parse_ms("0", &ms) < 0 && errno == ERANGE, "0 is too short (ERANGE)");
	duration_format(600000, buf, sizeof(buf));
	ok(strcmp(buf, "10m") == 0, "600000 ms reads 10m (%s)", buf);
	duration_format(1500, buf, sizeof(buf));
	ok(strcmp(buf, "1500ms") == 0, "1500 ms reads 1500ms (%s)", buf);
	duration_format(7200000, buf, sizeof(buf));
	ok(strcmp(buf, "2h") == 0, "2 h reads 2h (%s)", buf);
}

static void digests(void)
{
	/* FIPS 180-4 examples, and a length that needs a second padding block. */
	static const struct {
		const char *in, *hex;
	} v[] = {
	    {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
	    {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
	    {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
	};
	char hex[65], a1000[1001];

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		sha256_hex(v[i].in, strlen(v[i].in), hex);
		ok(strcmp(hex, v[i].hex) == 0, "sha256(\"%.10s...\") (%s)", v[i].in, hex);
	}
	memset(a1000, 'a', 1000);
	sha256_hex(a1000, 1000, hex);
	ok(strcmp(hex, "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3") == 0,
	   "sha256 of 1000 a's (%s)", hex);
}

#define CFG(ann, seccomp)                                                                          \
	"{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"rootfs\"}, \"process\": {\"cwd\": "    \
	"\"/\", \"args\": [\"true\"], \"user\": {\"uid\": 0, \"gid\": 0}}, "                       \
	"\"annotations\": {" ann "}, \"linux\": {" seccomp "}}"
#define ERRNO_FILTER "\"seccomp\": {\"defaultAction\": \"SCMP_ACT_ERRNO\"}"

struct sup {
	struct oci_config *cfg;
	struct policy *pol;
	struct policy_ctx x;
	int rc;
};

static int decide(struct sup *s, const char *cfg, const char *pol, const char *profile,
                  long long cli_ms)
{
	memset(s, 0, sizeof(*s));
	s->cfg = oci_config_parse(cfg, strlen(cfg), "config.json", err);
	s->pol = policy_parse(pol, strlen(pol), "policy.json", err);
	if (s->cfg == NULL || s->pol == NULL ||
	    policy_ctx_init(&s->x, s->pol, profile, "ward", s->cfg, err) < 0)
		return s->rc = -2;
	s->x.cli_timeout_ms = cli_ms;
	return s->rc = policy_supervision(&s->x);
}

static void done(struct sup *s)
{
	policy_ctx_free(&s->x);
	oci_config_free(s->cfg);
	policy_free(s->pol);
}

static void rule(void)
{
	struct sup s;

	decide(&s, CFG("", ERRNO_FILTER), "{}", "strict", 0);
	if (s.rc == -2)
		diag("%s", werr_msg(err));
	ok(s.rc == 0 && s.x.supervise && s.x.timeout_ms == 600000 && s.x.record_denied &&
	       strcmp(s.x.timeout_from, "strict.timeout") == 0,
	   "strict: supervised, 10 minutes, denials recorded");
	done(&s);
	decide(&s, CFG("", ERRNO_FILTER), "{}", "baseline", 0);
	ok(s.rc == 0 && !s.x.supervise && s.x.timeout_ms == 0,
	   "baseline: no supervisor by default");
	done(&s);
	decide(&s, CFG("", ERRNO_FILTER), "{\"supervise\": \"always\"}", "baseline", 0);
	ok(s.rc == 0 && s.x.supervise && s.x.timeout_ms == 0 && s.x.record_denied,
	   "baseline, supervise always: supervised, no limit");
	done(&s);
	decide(&s, CFG("\"org.ward.timeout\": \"30s\"", ERRNO_FILTER), "{}", "baseline", 0);
	ok(s.rc == 0 && s.x.supervise && s.x.timeout_ms == 30000 &&
	       strcmp(s.x.timeout_from, "annotation") == 0,
	   "baseline: the annotation gives a limit and a supervisor");
	done(&s);
	decide(&s, CFG("\"org.ward.timeout\": \"1h\"", ERRNO_FILTER),
	       "{\"strict\": {\"timeout\": \"2m\"}}", "strict", 0);
	ok(s.rc == 0 && s.x.timeout_ms == 120000, "strict: a longer annotation does not loosen");
	done(&s);
	decide(&s, CFG("\"org.ward.timeout\": \"1h\"", ERRNO_FILTER), "{}", "strict", 5000);
	ok(s.rc == 0 && s.x.timeout_ms == 5000 && strcmp(s.x.timeout_from, "--timeout") == 0,
	   "strict: --timeout tightens");
	done(&s);
	decide(&s, CFG("\"org.ward.timeout\": \"forever\"", ERRNO_FILTER), "{}", "baseline", 0);
	ok(s.rc == 0 && s.x.n_refused == 1 && !s.x.supervise, "a malformed annotation is refused");
	done(&s);
	decide(&s, CFG("\"org.ward.timeout\": \"1s\"", ERRNO_FILTER), "{}", "compat", 0);
	ok(s.rc == 0 && !s.x.supervise && s.x.n_refused == 0,
	   "compat: never, the annotation noted");
	done(&s);
	decide(&s,
	       CFG("", "\"seccomp\": {\"defaultAction\": \"SCMP_ACT_ERRNO\", \"listenerPath\": "
	               "\"/run/agent.sock\"}"),
	       "{}", "strict", 0);
	ok(s.rc == 0 && s.x.supervise && !s.x.record_denied,
	   "a config's own listener: supervised, denials not recorded");
	done(&s);
	decide(&s, CFG("", "\"seccomp\": {\"defaultAction\": \"SCMP_ACT_KILL\"}"), "{}", "strict",
	       0);
	ok(s.rc == 0 && !s.x.record_denied, "a killing default: nothing to answer");
	done(&s);
	decide(&s, CFG("", ""), "{}", "strict", 0);
	ok(s.rc == 0 && !s.x.record_denied, "no filter: nothing to record");
	done(&s);
}

static void refused(const char *json, const char *want)
{
	struct policy *p = policy_parse(json, strlen(json), "policy.json", err);

	ok(p == NULL && strstr(werr_msg(err), want) != NULL, "refused: %s (%s)", want,
	   p ? "accepted" : werr_msg(err));
	policy_free(p);
}

static void policy_keys(void)
{
	const char *json =
	    "{\"supervise\": \"always\", \"timeoutGrace\": \"2s\", \"reportDir\": "
	    "\"/var/log/ward\", \"reportKeep\": 7, \"strict\": {\"timeout\": \"90s\"}}";
	struct policy *p = policy_parse(json, strlen(json), "policy.json", err);

	ok(p && policy_supervise_always(p) && policy_timeout_grace_ms(p) == 2000 &&
	       policy_report_keep(p) == 7 && policy_strict_timeout_ms(p) == 90000 &&
	       strcmp(p->report_dir, "/var/log/ward") == 0,
	   "the supervisor's policy keys");
	policy_free(p);
	p = policy_parse("{}", 2, "policy.json", err);
	ok(p && !policy_supervise_always(p) && policy_timeout_grace_ms(p) == 5000 &&
	       policy_report_keep(p) == 1000 && policy_strict_timeout_ms(p) == 600000,
	   "their defaults");
	policy_free(p);
	refused("{\"supervise\": \"never\"}", ".supervise: must be auto or always");
	refused("{\"reportDir\": \"logs\"}", ".reportDir: must be an absolute path");
	refused("{\"reportKeep\": 0}", ".reportKeep: must be at least 1");
	refused("{\"timeoutGrace\": \"soon\"}", ".timeoutGrace: must be a duration");
	refused("{\"strict\": {\"timeout\": \"-5s\"}}", ".strict.timeout: must be a duration");
}

int main(void)
{
	durations();
	digests();
	rule();
	policy_keys();
	return tap_done();
}
