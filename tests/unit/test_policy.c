/* The operator policy file: what it accepts, and that every mistake is an
 * error naming the JSON path (never a silent "no policy"). */
#include "lib/error.h"
#include "policy/policy_file.h"
#include "policy/prepare.h"
#include "policy/rules.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

static struct policy *parse(const char *s)
{
	return policy_parse(s, strlen(s), "policy.json", err);
}

/* strict.idPool as the allocator gets it: defaults filled. */
static void pool_is(const char *json, uint32_t start, uint32_t size, uint32_t range,
                    const char *what)
{
	struct policy *p = json ? parse(json) : NULL;
	struct idpool ip;

	policy_strict_idpool(p, &ip);
	ok((json == NULL || p) && ip.start == start && ip.size == size && ip.range_size == range,
	   "idPool: %s (%u %u %u)", what, ip.start, ip.size, ip.range_size);
	policy_free(p);
}

static void test_idpool(void)
{
	pool_is(NULL, 0x70000000u, 0x0FFE0000u, 65536, "default 0x70000000-0x7FFDFFFF, 65536 each");
	pool_is("{\"strict\": {\"idPool\": {\"start\": 2000000000}}}", 2000000000,
	        2147483648u - 2000000000, 65536, "start alone: up to 2^31");
	pool_is("{\"strict\": {\"idPool\": {\"start\": 3000000, \"size\": 100, "
	        "\"rangeSize\": 10}}}",
	        3000000, 100, 10, "all three");
	pool_is("{\"strict\": {\"usernsHostID\": 200000, \"usernsSize\": 1000}}", 200000, 1000,
	        1000, "the older usernsHostID/usernsSize: a pool of that one range");
}

static void refused(const char *json, const char *want)
{
	struct policy *p = parse(json);

	ok(p == NULL && strstr(werr_msg(err), want) != NULL, "refused: %s (%s)", want,
	   p ? "accepted" : werr_msg(err));
	policy_free(p);
}

/* A policy file at dir/policy.json with mode fmode (dir made with dmode,
 * both owned by uid): loaded, or refused with want in the error. */
static void load_case(const char *what, mode_t dmode, mode_t fmode, uid_t uid, const char *want)
{
	char dir[] = "/tmp/ward-pol-XXXXXX", file[64];
	struct policy *p;
	FILE *f;

	if (mkdtemp(dir) == NULL)
		abort();
	snprintf(file, sizeof(file), "%s/policy.json", dir);
	f = fopen(file, "w");
	if (f == NULL || fputs("{\"profile\": \"compat\"}\n", f) < 0 || fclose(f) != 0 ||
	    chmod(file, fmode) < 0 || chmod(dir, dmode) < 0 || chown(file, uid, uid) < 0)
		abort();
	werr_clear(err);
	p = policy_load(file, err);
	if (want == NULL)
		ok(p != NULL && p->profile && strcmp(p->profile, "compat") == 0,
		   "policy file %s: read (%s)", what, p ? "" : werr_msg(err));
	else
		ok(p == NULL && strstr(werr_msg(err), want) && strstr(werr_msg(err), file),
		   "policy file %s: not read, naming the file and why (%s)", what,
		   p ? "read" : werr_msg(err));
	policy_free(p);
	unlink(file);
	rmdir(dir);
}

/* issue 25: the policy file is read only when nobody but root (or the
 * rootless caller) could have written it or what its path names. /tmp is
 * sticky and world-writable: there only the file's own owner and mode
 * count. */
static void test_load_trust(void)
{
	uid_t me = geteuid();

	load_case("0644 in a 0755 directory", 0755, 0644, me, NULL);
	load_case("0600 in a 0700 directory", 0700, 0600, me, NULL);
	load_case("writable by others (0666)", 0755, 0666, me, "writable by others (mode 0666)");
	load_case("writable by its group (0664)", 0755, 0664, me, "writable by its group");
	load_case("in a directory others can write (0777)", 0777, 0644, me,
	          "is writable by others (mode 0777)");
	load_case("in a directory its group can write (0775)", 0775, 0644, me,
	          "is writable by its group");
	load_case("in a sticky directory others can write (1777)", 01777, 0644, me, NULL);
	if (me == 0) {
		load_case("owned by another user", 0755, 0644, 4242, "is owned by uid 4242");
		load_case("owned by another user in a sticky directory", 01777, 0644, 4242,
		          "is owned by uid 4242");
	}
	werr_clear(err);
	ok(policy_load("/nonexistent-ward/policy.json", err) == NULL &&
	       strstr(werr_msg(err), "/nonexistent-ward/policy.json"),
	   "a missing --policy file is an error (%s)", werr_msg(err));
}

/* A policy run that was never prepared, or is freed twice, holds no fd: a
 * zeroed one would close fd 0 (it did, on every exec refused before the
 * policy ran). */
static void run_free_keeps_fd0(void)
{
	struct policy_run pr = POLICY_RUN_INIT;
	int saved = fcntl(0, F_DUPFD_CLOEXEC, 100);

	if (fcntl(0, F_GETFD) < 0 && open("/dev/null", O_RDONLY) != 0)
		return;
	policy_run_free(&pr);
	policy_run_free(&pr);
	ok(fcntl(0, F_GETFD) >= 0, "policy_run_free of an unprepared run, twice: fd 0 still open");
	if (saved >= 0) {
		dup2(saved, 0);
		close(saved);
	}
}

int main(void)
{
	run_free_keeps_fd0();
	test_load_trust();
	struct policy *p = parse(
	    "{\"profile\": \"strict\", \"allow\": [\"cap.SYS_PTRACE\", \"mount:/data\", "
	    "\"device.fuse\", \"env.API_TOKEN\", \"host-network\"], \"allowAlways\": "
	    "[\"seccomp-none\"], \"missingNetwork\": \"isolate\", \"pidsLimit\": 100, "
	    "\"strict\": {\"memoryLimit\": 1048576, \"cpuQuota\": 5000, \"cpuPeriod\": 10000, "
	    "\"pidsLimit\": 10, \"tmpfsSize\": \"8m\", \"usernsHostID\": 300000, "
	    "\"usernsSize\": 1000, \"rootlessLimits\": \"warn\"}, \"secretEnv\": [\"X_*\"]}");

	ok(p != NULL, "a full policy parses (%s)", p ? "" : werr_msg(err));
	if (p) {
		ok(profile_from_name(p->profile) == PROFILE_STRICT, "profile");
		ok(p->n_allow == 5 && strcmp(p->allow[1], "mount:/data") == 0, "allow");
		ok(p->n_allow_always == 1, "allowAlways");
		ok(!policy_refuses_missing_network(p), "missingNetwork isolate");
		ok(policy_pids_limit(p) == 100, "pidsLimit");
		ok(p->strict && p->strict->memory_limit == 1048576 &&
		       p->strict->userns_host_id == 300000 &&
		       strcmp(p->strict->tmpfs_size, "8m") == 0,
		   "strict limits");
		ok(p->has_secret_env && p->n_secret_env == 1, "secretEnv replaces the defaults");
		ok(policy_rootless_limits_warn(p), "strict.rootlessLimits warn");
	}
	policy_free(p);
	p = parse("{}");
	ok(p && policy_pids_limit(p) == 4096 && policy_refuses_missing_network(p) &&
	       !policy_rootless_limits_warn(p),
	   "empty policy: the defaults (rootless limits required)");
	policy_free(p);
	ok(profile_from_name("lax") < 0 && strcmp(profile_name(PROFILE_BASELINE), "baseline") == 0,
	   "profile names");

	refused("{\"alow\": []}", ".alow: unknown property");
	refused("{\"strict\": {\"memoryLimt\": 1}}", ".strict.memoryLimt: unknown property");
	refused("{\"profile\": \"lax\"}", ".profile: must be compat, baseline or strict");
	refused("{\"allow\": [\"everything\"]}", ".allow[0]: unknown opt-out \"everything\"");
	refused("{\"allowAlways\": [\"mount:data\"]}", "names an absolute host path");
	refused("{\"allow\": [\"cap.\"]}", "unknown opt-out \"cap.\"");
	refused("{\"missingNetwork\": \"maybe\"}", ".missingNetwork: must be isolate or refuse");
	refused("{\"pidsLimit\": 0}", ".pidsLimit: must be positive");
	refused("{\"strict\": {\"usernsHostID\": 0}}", "would map container root to host root");
	refused("{\"strict\": {\"idPool\": {\"start\": 0}}}",
	        ".strict.idPool: start 0 would map container root to host root");
	refused("{\"strict\": {\"idPool\": {\"rangeSize\": 0}}}",
	        "size and rangeSize must be at least 1");
	refused("{\"strict\": {\"idPool\": {\"start\": 4294901760, \"size\": 65536}}}",
	        "start + size must stay below 4294967295");
	refused("{\"strict\": {\"idPool\": {\"strat\": 1}}}",
	        ".strict.idPool.strat: unknown property");
	refused("{\"strict\": {\"idPool\": {}, \"usernsHostID\": 200000}}",
	        "idPool and usernsHostID/usernsSize both name the host ids of strict containers");
	refused("{\"strict\": {\"tmpfsSize\": \"8m,exec\"}}",
	        ".strict.tmpfsSize: must be a tmpfs size");
	refused("{\"strict\": {\"memoryLimit\": -1}}", "limits must be positive");
	refused("{\"strict\": {\"rootlessLimits\": \"ignore\"}}",
	        ".strict.rootlessLimits: must be \"require\" or \"warn\" (got \"ignore\")");
	refused("{\"secretEnv\": [\"\"]}", ".secretEnv[0]: must not be empty");
	refused("[]", "must be a JSON object");
	refused("{\"profile\": ", "policy.json");
	test_idpool();
	return tap_done();
}
