#include "linux/process.h"
#include "linux/landlock_wall.h"
#include "linux/mempolicy.h"
#include "linux/caps.h"
#include "linux/pathres.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "lib/log.h"
#include "linux/cwd.h"
#include "linux/fdseal.h"
#include "linux/process_attrs.h"

#include <linux/openat2.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define DEFAULT_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

int process_limits(const struct oci_process *p, struct werror *err)
{
	for (size_t i = 0; i < p->n_rlimits; i++) {
		const struct oci_rlimit *r = &p->rlimits[i];
		struct rlimit rl = {.rlim_cur = r->soft, .rlim_max = r->hard};

		if (setrlimit(r->resource, &rl) < 0) {
			struct rlimit cur;

			if (errno == EPERM && getrlimit(r->resource, &cur) == 0 &&
			    r->hard > cur.rlim_max)
				return werr(err, EPERM,
				            "process.rlimits[%zu] %s: hard limit %llu is above the "
				            "current %llu and raising it needs CAP_SYS_RESOURCE",
				            i, r->type, (unsigned long long)r->hard,
				            (unsigned long long)cur.rlim_max);
			return werr(err, errno, "process.rlimits[%zu] %s", i, r->type);
		}
	}
	if (p->has_oom_score_adj) {
		char buf[16];
		_cleanup_close_ int fd =
		    attrs_open_proc("/proc/self/oom_score_adj", "process.oomScoreAdj", err);
		int n = snprintf(buf, sizeof(buf), "%d", p->oom_score_adj);

		if (fd < 0)
			return -1;
		if (write(fd, buf, (size_t)n) != n)
			return werr(err, errno, "process.oomScoreAdj %d", p->oom_score_adj);
	}
	return 0;
}

int process_credentials(const struct oci_process *p, bool userns, struct werror *err)
{
	const struct oci_user *u = p->user;
	const struct oci_caps *c = p->capabilities;

	if (caps_drop_bounding(c ? c->bounding : 0, err) < 0)
		return -1;
	/* Keep the permitted set across setuid; capset below trims it. */
	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0)
		return werr(err, errno, "PR_SET_KEEPCAPS");
	if (setgroups(u->n_additional_gids, (const gid_t *)u->additional_gids) < 0) {
		/* In a user namespace setgroups may be denied; then only an empty
		 * list is acceptable. */
		if (!(userns && errno == EPERM && u->n_additional_gids == 0))
			return werr(err, errno, "process.user.additionalGids");
	}
	if (setresgid(u->gid, u->gid, u->gid) < 0)
		return werr(err, errno, "process.user.gid %u", u->gid);
	if (setresuid(u->uid, u->uid, u->uid) < 0)
		return werr(err, errno, "process.user.uid %u", u->uid);
	if (prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0) < 0)
		return werr(err, errno, "PR_SET_KEEPCAPS");
	if (caps_set(c, err) < 0)
		return werr_ctx(err, "process.capabilities");
	if (p->no_new_privileges && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return werr(err, errno, "process.noNewPrivileges");
	umask(u->has_umask ? (mode_t)u->umask : 022);
	return 0;
}

static const char *env_path(const struct oci_process *p)
{
	for (size_t i = 0; i < p->n_env; i++)
		if (strncmp(p->env[i], "PATH=", 5) == 0)
			return p->env[i] + 5;
	return DEFAULT_PATH;
}

static int check_exec(const char *path)
{
	/* No magic link on the way (CVE-2024-21626: args[0] as
	 * /proc/self/fd/N/../../bin/sh ran a host binary). */
	struct stat st;
	_cleanup_close_ int fd = path_open2(AT_FDCWD, path, O_PATH, RESOLVE_NO_MAGICLINKS);

	if (fd < 0 || fstat(fd, &st) < 0)
		return -1;
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		return -1;
	}
	/* The original faccessat, not glibc's faccessat2 (AT_EACCESS): older
	 * seccomp profiles deny faccessat2 with EPERM. It checks with the real
	 * ids, which are the effective ones whenever this runs. */
	return (int)syscall(SYS_faccessat, AT_FDCWD, path, X_OK);
}

int process_find_exec(const struct oci_process *p, char out[PATH_MAX], struct werror *err)
{
	const char *arg0 = p->args[0];
	const char *dirs, *end;

	if (strchr(arg0, '/') != NULL) {
		if (check_exec(arg0) == 0) {
			snprintf(out, PATH_MAX, "%s", arg0);
			return 0;
		}
		if (errno == ELOOP)
			return werr_k(
			    err, WERR_REFUSED, 0,
			    "exec: \"%s\": refused: resolves through a magic link such as "
			    "/proc/self/fd/N (CVE-2024-21626 class), or through a symlink loop",
			    arg0);
		return werr(err, errno, "exec: \"%s\": stat %s", arg0, arg0);
	}
	for (dirs = env_path(p); *dirs; dirs = *end ? end + 1 : end) {
		size_t n;

		end = strchrnul(dirs, ':');
		n = (size_t)(end - dirs);
		/* An empty PATH element means the current directory. */
		if (snprintf(out, PATH_MAX, "%.*s%s%s", (int)n, dirs, n ? "/" : "", arg0) >=
		    PATH_MAX)
			continue;
		if (check_exec(out) == 0)
			return 0;
	}
	return werr(err, 0, "exec: \"%s\": executable file not found in $PATH", arg0);
}

/* Install the filter now and, with SCMP_ACT_NOTIFY rules, hand the
 * listener to the parent, which forwards it to the agent. */
static int load_seccomp(const struct prepare_args *a, bool *loaded, struct werror *err)
{
	_cleanup_close_ int nfd = -1;

	if (a->seccomp == NULL || *loaded)
		return 0;
	if (filter_load(a->seccomp, &nfd, err) < 0)
		return -1;
	*loaded = true;
	if (nfd >= 0)
		return a->hand_listener(a->hand_arg, nfd, err);
	return 0;
}

/* CVE-2024-21626: nothing of ward's is open from here on but the channels
 * to its parent (a socket, the start fifo), checked to be no way out, and
 * the caller's preserved fds. The log goes to stderr now, if anywhere. */
static int close_ward_fds(const struct prepare_args *a, struct werror *err)
{
	const int keep[] = {a->sync_fd, a->fifo_fd};

	log_close();
	if (fds_close_except(keep, 2, a->preserve_fds, err) < 0 ||
	    fds_check_channels(keep, 2, err) < 0)
		return werr_ctx(err, "before entering process.cwd");
	return 0;
}

/* The terminal is the process user's, as runc gives it (the group stays
 * devpts' gid=, tty's): a program that reopens its tty, or runs as a user
 * other than root, must be able to use it. Only the container's own pty is
 * changed; an id not mapped in a user namespace (EINVAL, EPERM) leaves it. */
static int tty_to_user(const struct oci_process *p, struct werror *err)
{
	for (int fd = 0; p->terminal && fd < 3; fd++) {
		struct stat st;

		if (!isatty(fd) || fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode) ||
		    st.st_uid == p->user->uid)
			continue;
		if (fchown(fd, p->user->uid, (gid_t)-1) < 0 && errno != EINVAL && errno != EPERM)
			return werr(err, errno, "giving the terminal to process.user.uid %u",
			            p->user->uid);
	}
	return 0;
}

/* As runc: the cwd is entered while still root, so that a directory only
 * root may enter works; a permission error is tried again as the final
 * user (a volume chowned to it that root cannot search: rootless). */
static int enter_cwd(const struct oci_process *p, bool *again_later, struct werror *err)
{
	*again_later = false;
	if (cwd_enter("process.cwd", p->cwd, err) == 0)
		return 0;
	if (werr_errno(err) != EACCES)
		return -1;
	*again_later = true;
	return 0;
}

int process_prepare(const struct prepare_args *a, char exe[PATH_MAX], bool *seccomp_loaded,
                    struct werror *err)
{
	const struct oci_process *p = a->proc;
	/* Without no_new_privs, loading a filter takes CAP_SYS_ADMIN: load it
	 * while we still have it (the filter then also covers the privilege
	 * drop, as with runc). */
	bool early = a->seccomp && !p->no_new_privileges;
	bool cwd_later;

	*seccomp_loaded = false;
	if (close_ward_fds(a, err) < 0 || process_limits(p, err) < 0 ||
	    attrs_apply(p, a->linux, err) < 0 || mempolicy_apply(a->linux, err) < 0 ||
	    tty_to_user(p, err) < 0 || enter_cwd(p, &cwd_later, err) < 0)
		return -1;
	/* Before any seccomp filter (a config's own may deny the calls); what
	 * remains is credentials, finding the executable and execve. */
	if (a->linux && a->linux->landlock && landlock_apply(err) < 0)
		return -1;
	if (early) {
		/* The filter may be older than the calls ward makes (faccessat2,
		 * close_range, statx, openat2 are denied by profiles written
		 * before them): all that can be done before it is, and after it
		 * only the credentials and execve. The executable is found as the
		 * container's root here; whether the final user may run it is the
		 * kernel's answer to execve. */
		if (process_find_exec(p, exe, err) < 0 || attrs_before_exec(p, err) < 0 ||
		    fds_seal_for_exec(a->preserve_fds, err) < 0 ||
		    load_seccomp(a, seccomp_loaded, err) < 0)
			return -1;
	}
	if (process_credentials(p, a->userns, err) < 0)
		return -1;
	/* Changing credentials cleared the parent-death signal. */
	if (a->pdeathsig && prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
		return werr(err, errno, "PR_SET_PDEATHSIG");
	if (cwd_later && cwd_enter("process.cwd", p->cwd, err) < 0)
		return -1;
	if (early)
		return 0;
	if (process_find_exec(p, exe, err) < 0)
		return -1;
	/* A listener must reach the agent through the parent, before READY. */
	if (a->seccomp && filter_prog_listens(a->seccomp) &&
	    load_seccomp(a, seccomp_loaded, err) < 0)
		return -1;
	if (attrs_before_exec(p, err) < 0)
		return -1;
	return fds_seal_for_exec(a->preserve_fds, err);
}

static _Noreturn void die(const char *what, const char *why)
{
	/* The creator may be gone: stderr is the only way left to say why. */
	dprintf(2, "ward: %s: %s\n", what, why);
	_exit(127);
}

_Noreturn void process_exec(const struct oci_process *p, const char *exe,
                            const struct filter_prog *seccomp_due, struct werror *err)
{
	/* As late as possible: from here on only execve must be allowed. */
	if (seccomp_due && filter_load(seccomp_due, NULL, err) < 0)
		die("seccomp", werr_msg(err));
	execve(exe, p->args, p->env ? p->env : (char *[]){NULL});
	die(exe, strerror(errno));
}
