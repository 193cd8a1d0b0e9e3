/* JSON → libseccomp translation: errors, and behaviour checked by loading the
 * compiled filter in a forked child. Also the compiled-filter cache. */
#include "oci/config.h"
#include "lib/error.h"
#include "seccomp/seccomp_filter.h"
#include "oci/spec.h"
#include "seccomp/seccomp_default.h"
#include "tap.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define HEAD                                                                                       \
	"{\"ociVersion\":\"1.2.0\",\"root\":{\"path\":\"r\"},\"process\":{\"user\":{\"uid\":0,"    \
	"\"gid\":0},\"args\":[\"a\"],\"cwd\":\"/\"},\"linux\":{\"seccomp\":"

static struct oci_config *cfg;

static const struct oci_seccomp *section(const char *seccomp_json)
{
	char buf[8192];

	oci_config_free(cfg);
	snprintf(buf, sizeof(buf), HEAD "%s}}", seccomp_json);
	werr_clear(err);
	cfg = oci_config_parse(buf, strlen(buf), "config.json", err);
	if (cfg == NULL)
		diag("parse: %s", werr_msg(err));
	return cfg ? cfg->linux->seccomp : NULL;
}

static int compile_err(const char *json, const char *want)
{
	const struct oci_seccomp *s = section(json);
	struct filter_prog p;
	int r;

	if (s == NULL)
		return 0;
	r = filter_compile(s, &p, err);
	if (r == 0)
		filter_prog_free(&p);
	if (r == 0 || strstr(werr_msg(err), want) == NULL) {
		diag("got: %s", r == 0 ? "(compiled)" : werr_msg(err));
		return 0;
	}
	return 1;
}

/* Load the filter in a child and make one syscall there: returns the errno
 * it saw (0 on success), or 1000+signal if the filter killed it. */
static int probe(const struct filter_prog *p, long nr, long a0, long a1)
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		long r;

		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		if (filter_load(p, NULL, err) < 0)
			_exit(250);
		r = syscall(nr, a0, a1, 0, 0, 0, 0);
		/* Raw exit_group: a sanitizer's _exit hook (leak check) would make
		 * syscalls the filter under test denies. */
		syscall(SYS_exit_group, r < 0 ? errno : 0);
	}
	waitpid(pid, &st, 0);
	return WIFSIGNALED(st) ? 1000 + WTERMSIG(st) : WEXITSTATUS(st);
}

static void test_errors(void)
{
	ok(compile_err(
	       "{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"flags\":[\"SECCOMP_FILTER_FLAG_X\"]}",
	       ".linux.seccomp.flags[0]: unknown flag \"SECCOMP_FILTER_FLAG_X\""),
	   "unknown flag refused");
	ok(compile_err(
	       "{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":[{\"names\":[\"getpid\"],"
	       "\"action\":\"SCMP_ACT_NOTIFY\"}]}",
	       "listenerPath: required with SCMP_ACT_NOTIFY"),
	   "NOTIFY needs a listener");
	ok(compile_err("{\"defaultAction\":\"SCMP_ACT_NOTIFY\",\"listenerPath\":\"/x\"}",
	               "SCMP_ACT_NOTIFY as the default"),
	   "NOTIFY as the default action refused");
	ok(compile_err("{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"flags\":"
	               "[\"SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV\"]}",
	               "needs a SCMP_ACT_NOTIFY rule"),
	   "WAIT_KILLABLE_RECV without NOTIFY refused");
	ok(compile_err("{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":[{\"names\":[\"getpid\","
	               "\"bogus_call\"],\"action\":\"SCMP_ACT_KILL\"}]}",
	               ".syscalls[0].names[1]: unknown syscall \"bogus_call\" in a rule stricter"),
	   "unknown syscall in a deny rule refused");
	ok(compile_err(
	       "{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":[{\"names\":[\"getpid\"],"
	       "\"action\":\"SCMP_ACT_ERRNO\",\"errnoRet\":70000}]}",
	       "errnoRet 70000 is out of range"),
	   "errnoRet beyond 16 bits refused");
	ok(compile_err(
	       "{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"architectures\":[\"SCMP_ARCH_M68K\"]}",
	       "architectures[0]"),
	   "architecture unknown to libseccomp refused");
}

static void test_behaviour(void)
{
	struct filter_prog p;
	const struct oci_seccomp *s;

	s = section("{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":["
	            "{\"names\":[\"getppid\"],\"action\":\"SCMP_ACT_ERRNO\",\"errnoRet\":77},"
	            "{\"names\":[\"getpgrp\"],\"action\":\"SCMP_ACT_ERRNO\"},"
	            "{\"names\":[\"sched_yield\"],\"action\":\"SCMP_ACT_KILL_PROCESS\"},"
	            "{\"names\":[\"getpgid\"],\"action\":\"SCMP_ACT_TRAP\"},"
	            "{\"names\":[\"dup\"],\"action\":\"SCMP_ACT_ERRNO\",\"errnoRet\":70,\"args\":["
	            "{\"index\":0,\"value\":100,\"op\":\"SCMP_CMP_EQ\"},"
	            "{\"index\":0,\"value\":101,\"op\":\"SCMP_CMP_EQ\"}]},"
	            "{\"names\":[\"dup2\"],\"action\":\"SCMP_ACT_ERRNO\",\"errnoRet\":70,\"args\":["
	            "{\"index\":0,\"value\":100,\"op\":\"SCMP_CMP_EQ\"},"
	            "{\"index\":1,\"value\":200,\"op\":\"SCMP_CMP_EQ\"}]},"
	            "{\"names\":[\"no_such_call_99\"],\"action\":\"SCMP_ACT_LOG\"}]}");
	if (!ok(s && filter_compile(s, &p, err) == 0, "permissive filter compiles")) {
		diag("%s", werr_msg(err));
		return;
	}
	ok(!p.notify && p.len > 0, "no listener, some instructions");
	ok(probe(&p, SYS_getppid, 0, 0) == 77, "ERRNO with errnoRet");
	ok(probe(&p, SYS_getpgrp, 0, 0) == EPERM, "ERRNO defaults to EPERM");
	ok(probe(&p, SYS_sched_yield, 0, 0) == 1000 + SIGSYS, "KILL_PROCESS kills with SIGSYS");
	ok(probe(&p, SYS_getpgid, 0, 0) == 1000 + SIGSYS, "TRAP raises SIGSYS");
	ok(probe(&p, SYS_getpid, 0, 0) == 0, "default ALLOW");
	ok(probe(&p, SYS_dup, 100, 0) == 70 && probe(&p, SYS_dup, 101, 0) == 70 &&
	       probe(&p, SYS_dup, 102, 0) == EBADF,
	   "two conditions on one argument: either matches");
	ok(probe(&p, SYS_dup2, 100, 200) == 70 && probe(&p, SYS_dup2, 100, 201) == EBADF,
	   "conditions on two arguments: both must match");
	filter_prog_free(&p);

	s = section("{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"defaultErrnoRet\":99,\"syscalls\":["
	            "{\"names\":[\"exit_group\",\"exit\",\"getpid\",\"prctl\",\"seccomp\"],"
	            "\"action\":\"SCMP_ACT_ALLOW\"}]}");
	if (!ok(s && filter_compile(s, &p, err) == 0, "deny-by-default filter compiles"))
		return;
	ok(p.insns[0].code == (BPF_LD | BPF_W | BPF_ABS), "ENOSYS prefix loads the arch first");
	ok(probe(&p, SYS_getpid, 0, 0) == 0, "listed syscall allowed");
	ok(probe(&p, SYS_getppid, 0, 0) == 99, "defaultErrnoRet for known unlisted syscalls");
	ok(probe(&p, 1000, 0, 0) == ENOSYS, "ENOSYS above the highest listed syscall");
	filter_prog_free(&p);
}

static void test_default_profile(void)
{
	struct filter_prog p;
	char *json;
	size_t len;
	int r;

	if (!ok(oci_spec_default(&json, &len,
	                         &(struct oci_spec_opts){.seccomp_gen = oci_seccomp_default_gen,
	                                                 .runc_process = true},
	                         err) == 0,
	        "ward spec's config is generated")) {
		diag("%s", werr_msg(err));
		return;
	}
	oci_config_free(cfg);
	cfg = oci_config_parse(json, len, "spec", err);
	free(json);
	if (!ok(cfg && cfg->linux->seccomp, "ward spec's config carries the default profile"))
		return;
	r = filter_compile(cfg->linux->seccomp, &p, err);
	if (!ok(r == 0 && p.len < BPF_MAXINSNS,
	        "default profile compiles within the BPF limit (%zu instructions)",
	        r == 0 ? p.len : 0)) {
		if (r == 0)
			filter_prog_free(&p);
		return;
	}
	ok(probe(&p, SYS_getpid, 0, 0) == 0, "default profile allows getpid");
	ok(probe(&p, SYS_keyctl, 0, 0) == EPERM, "default profile denies keyctl");
	ok(probe(&p, SYS_clone3, 0, 0) == ENOSYS, "clone3 gets ENOSYS");
	ok(probe(&p, SYS_ioctl, 0, 0x100005412L) == EPERM, "TIOCSTI with high bits denied");
	ok(probe(&p, SYS_ioctl, -1, 0x5413) == EBADF, "other ioctls allowed");
	filter_prog_free(&p);
}

/* The cached filter file of the program whose ERRNO action returns `from`:
 * every "ret ERRNO(from)" in it (SECCOMP_RET_ERRNO, the kernel's encoding)
 * rewritten to return `to`, in place (owner and mode kept). The header and
 * the stored key are left alone, so only the owner/mode check can tell the
 * forgery from ward's own file. Returns 0 when a file holds the forgery
 * (made now, or left from before: a cache hit does not rewrite the file). */
static int forge(int dfd, uint32_t from, uint32_t to)
{
	const uint32_t want = SECCOMP_RET_ERRNO | from, put = SECCOMP_RET_ERRNO | to;
	int found = -1, fd = dup(dfd);
	struct dirent *de;
	DIR *d;

	if (fd < 0 || (d = fdopendir(fd)) == NULL)
		return -1;
	rewinddir(d);
	while ((de = readdir(d)) != NULL) {
		const char *dot = strrchr(de->d_name, '.');
		unsigned char buf[65536];
		ssize_t n;
		int f, hits = 0, forged = 0;

		if (dot == NULL || strcmp(dot, ".bpf") != 0)
			continue;
		f = openat(dfd, de->d_name, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
		if (f < 0)
			continue;
		n = pread(f, buf, sizeof(buf), 0);
		for (ssize_t i = 0; i + 4 <= n; i++) {
			uint32_t v;

			memcpy(&v, buf + i, 4);
			if (v == want) {
				memcpy(buf + i, &put, 4);
				hits++;
			} else if (v == put)
				forged++;
		}
		if (hits > 0 ? pwrite(f, buf, (size_t)n, 0) == n : forged > 0)
			found = 0;
		close(f);
	}
	closedir(d);
	return found;
}

/* Set owner and mode of every cached filter file. */
static int set_owner_mode(int dfd, uid_t uid, mode_t mode)
{
	int r = -1, fd = dup(dfd);
	struct dirent *de;
	DIR *d;

	if (fd < 0 || (d = fdopendir(fd)) == NULL)
		return -1;
	rewinddir(d);
	while ((de = readdir(d)) != NULL) {
		const char *dot = strrchr(de->d_name, '.');

		if (dot == NULL || strcmp(dot, ".bpf") != 0)
			continue;
		if (fchownat(dfd, de->d_name, uid, 0, AT_SYMLINK_NOFOLLOW) < 0 ||
		    fchmodat(dfd, de->d_name, mode, 0) < 0) {
			r = -1;
			break;
		}
		r = 0;
	}
	closedir(d);
	return r;
}

/* What the cached program for errnoRet 78 makes getppid return, after its
 * file was forged to say 79 and given this owner and mode. */
static int forged_result(const struct oci_seccomp *s, int dfd, uid_t uid, mode_t mode)
{
	struct filter_prog b;
	int r;

	if (forge(dfd, 78, 79) < 0 || set_owner_mode(dfd, uid, mode) < 0) {
		diag("could not forge the cache file");
		return -1;
	}
	if (filter_compile_cached(s, dfd, &b, err) < 0)
		return -1;
	r = probe(&b, SYS_getppid, 0, 0);
	filter_prog_free(&b);
	return r;
}

static void test_cache(void)
{
	/* A directory of this run's own (mkdtemp), removed at the end. */
	char dir[] = "/tmp/ward-seccomp-cache.XXXXXX";
	struct filter_prog a, b;
	char *k1 = NULL, *k2 = NULL;
	size_t l1 = 0, l2 = 0;
	int dfd;

	const struct oci_seccomp *s =
	    section("{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":[{\"names\":[\"getppid\"],"
	            "\"action\":\"SCMP_ACT_ERRNO\",\"errnoRet\":77}]}");

	if (!ok(s != NULL && mkdtemp(dir) != NULL, "cache test set up (%s)", dir))
		return;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (!ok(dfd >= 0, "cache directory opened")) {
		rmdir(dir);
		return;
	}
	ok(filter_canonical(s, &k1, &l1, err) == 0, "canonical form");
	ok(filter_compile_cached(s, dfd, &a, err) == 0, "first compile writes the cache");
	ok(filter_compile_cached(s, dfd, &b, err) == 0 && a.len == b.len &&
	       memcmp(a.insns, b.insns, a.len * sizeof(*a.insns)) == 0,
	   "second compile reads the same program back");
	filter_prog_free(&b);
	s = section("{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"syscalls\":[{\"names\":[\"getppid\"],"
	            "\"action\":\"SCMP_ACT_ERRNO\",\"errnoRet\":78}]}");
	ok(s != NULL && filter_canonical(s, &k2, &l2, err) == 0 &&
	       (l1 != l2 || memcmp(k1, k2, l1) != 0),
	   "a different errnoRet is a different key");
	ok(s != NULL && filter_compile_cached(s, dfd, &b, err) == 0 &&
	       probe(&b, SYS_getppid, 0, 0) == 78,
	   "and gets its own filter");
	filter_prog_free(&b);
	filter_prog_free(&a);
	free(k1);
	free(k2);
	if (s != NULL) {
		/* The forgery is good enough to be used from a file ward could
		 * have written (root's, 0600): the only defence left is who may
		 * write the file... */
		ok(forged_result(s, dfd, 0, 0600) == 79,
		   "control: a forged entry in a root-owned 0600 file is taken (key check passes)");
		/* ...so a file others (or the group) could write, or another
		 * owner's, is ignored and the filter recompiled. */
		ok(forged_result(s, dfd, 0, 0666) == 78,
		   "a cache file others could write is ignored, the filter recompiled");
		ok(forged_result(s, dfd, 0, 0620) == 78, "a group-writable cache file is ignored");
		ok(forged_result(s, dfd, 1000, 0600) == 78,
		   "a cache file not owned by root is ignored");
	}
	close(dfd);
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			diag("cleanup of %s failed", dir);
	}
}

int main(void)
{
	test_errors();
	test_behaviour();
	test_default_profile();
	test_cache();
	oci_config_free(cfg);
	return tap_done();
}
