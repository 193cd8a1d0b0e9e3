/* The container's processes: putting them into its cgroup (create's init:
 * every v1 hierarchy, cgroup2 by CLONE_INTO_CGROUP; exec's, with runc's
 * --cgroup [CONTROLLER[,CONTROLLER...]:]PATH sub-cgroups), listing them
 * (sub-cgroups included), signalling and freezing them. */
#include "cgroup/cgroup.h"
#include "lib/strfmt.h"
#include "cgroup/cg_files.h"
#include "lib/cleanup.h"
#include "lib/error.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int cgroup_add_pid(const struct cgroup *cg, pid_t pid, bool in_unified, bool v1_entered,
                   struct werror *err)
{
	char v[16];

	snprintf(v, sizeof(v), "%d", (int)pid);
	for (size_t i = 0; i < cg->n_v1 && !v1_entered; i++)
		if (cg_write(&cg->v1[i], "cgroup.procs", v, err) < 0)
			return -1;
	if (cg->unified && !in_unified && cg_write(cg->unified, "cgroup.procs", v, err) < 0)
		return -1;
	return 0;
}

int cgroup_self_open(const struct cgroup *cg, struct cg_self *s, struct werror *err)
{
	s->n = 0;
	if (cg->n_v1 > CG_SELF_MAX)
		return werr(err, E2BIG, "%zu cgroup v1 hierarchies", cg->n_v1);
	for (size_t i = 0; i < cg->n_v1; i++) {
		const struct cg_hier *h = &cg->v1[i];

		if (h->fd < 0) {
			cgroup_self_close(s);
			return werr(err, h->err ? h->err : EBADF, "%s/tasks", h->name);
		}
		s->fd[s->n] = cg_openat(h->fd, "tasks", O_WRONLY);
		if (s->fd[s->n] < 0) {
			werr(err, errno, "%s/tasks", h->name);
			cgroup_self_close(s);
			return -1;
		}
		s->name[s->n++] = h->name;
	}
	return 0;
}

int cgroup_self_enter(struct cg_self *s, struct werror *err)
{
	for (size_t i = 0; i < s->n; i++)
		if (write(s->fd[i], "0", 1) != 1)
			return werr(err, errno, "entering %s (its tasks file)", s->name[i]);
	cgroup_self_close(s);
	return 0;
}

void cgroup_self_close(struct cg_self *s)
{
	for (size_t i = 0; i < s->n; i++)
		cleanup_closep(&s->fd[i]);
	s->n = 0;
}

/* PATH of one --cgroup: plain names below the container's cgroup; leading
 * slashes say nothing more ("/" is the container's cgroup itself, as in
 * runc). *rel is where the names start ("" for the top). */
static int sub_path_check(const char *arg, const char *path, const char **rel, struct werror *err)
{
	const char *p;

	while (*path == '/')
		path++;
	*rel = path;
	for (p = path; *p;) {
		size_t n = strcspn(p, "/");

		if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return werr_k(
			    err, WERR_INVALID, 0,
			    "exec --cgroup %s: %s is not a sub cgroup path (plain names below "
			    "the container's cgroup)",
			    arg, path);
		p += n;
		if (*p == '/' && *++p == '\0')
			return werr_k(err, WERR_INVALID, 0, "exec --cgroup %s: a trailing '/'",
			              arg);
	}
	return 0;
}

/* The CONTROLLER list of arg (up to its ':'), or NULL; *n its length. */
static const char *ctrls_of(const char *arg, size_t *n)
{
	const char *colon = strchr(arg, ':');

	*n = colon ? (size_t)(colon - arg) : 0;
	return colon ? arg : NULL;
}

/* Is name one of the comma-separated list's? */
static bool in_list(const char *list, size_t len, const char *name, size_t nlen)
{
	for (size_t i = 0; i < len;) {
		size_t k = i;

		while (k < len && list[k] != ',')
			k++;
		if (k - i == nlen && strncmp(list + i, name, nlen) == 0)
			return true;
		i = k + 1;
	}
	return false;
}

int cgroup_sub_check(char *const *args, size_t n, struct werror *err)
{
	const char *rel;

	for (size_t i = 0; i < n; i++) {
		size_t clen;
		const char *c = ctrls_of(args[i], &clen);

		if (sub_path_check(args[i], c ? c + clen + 1 : args[i], &rel, err) < 0)
			return -1;
		for (size_t k = 0; c && k <= clen;) {
			size_t e = k;

			while (e < clen && c[e] != ',')
				e++;
			if (e == k)
				return werr_k(err, WERR_INVALID, 0,
				              "exec --cgroup %s: an empty controller name",
				              args[i]);
			/* The same controller twice, or the plain form twice. */
			for (size_t j = 0; j < i; j++) {
				size_t jl;
				const char *cj = ctrls_of(args[j], &jl);

				if (cj && in_list(cj, jl, c + k, e - k))
					return werr_k(err, WERR_INVALID, 0,
					              "exec --cgroup: controller %.*s given twice",
					              (int)(e - k), c + k);
			}
			k = e + 1;
		}
		for (size_t j = 0; c == NULL && j < i; j++) {
			size_t jl;

			if (ctrls_of(args[j], &jl) == NULL)
				return werr_k(
				    err, WERR_INVALID, 0,
				    "exec --cgroup: a path without a controller given twice");
		}
	}
	return 0;
}

/* The --cgroup that names one of h's controllers, else the plain one,
 * else NULL (the container's cgroup). Two for one hierarchy (cpu:a and
 * cpuacct:b with cpu,cpuacct mounted together) cannot both be had. */
static int sub_for(const struct cg_hier *h, char *const *args, size_t n, const char **arg,
                   const char **out, struct werror *err)
{
	const char *plain = NULL, *named = NULL, *rel;

	*out = *arg = NULL;
	for (size_t i = 0; i < n; i++) {
		size_t clen;
		const char *c = ctrls_of(args[i], &clen);
		bool mine = false;

		if (c == NULL) {
			plain = args[i];
			continue;
		}
		for (size_t k = 0; k < clen && !mine;) {
			size_t e = k;

			while (e < clen && c[e] != ',')
				e++;
			mine = in_list(h->opts, strlen(h->opts), c + k, e - k);
			k = e + 1;
		}
		if (!mine)
			continue;
		if (named && strcmp(strchr(named, ':'), strchr(args[i], ':')) != 0)
			return werr_k(err, WERR_INVALID, 0,
			              "exec --cgroup %s and %s: one hierarchy (%s) cannot have two "
			              "sub-cgroups",
			              named, args[i], h->opts);
		named = args[i];
	}
	if (named)
		sub_path_check(named, strchr(named, ':') + 1, &rel, err);
	else if (plain)
		sub_path_check(plain, plain, &rel, err);
	else
		return 0;
	*arg = named ? named : plain;
	*out = rel;
	return 0;
}

/* Every controller --cgroup names is one of a v1 hierarchy's (cgroup2 has
 * no per-controller trees: there only the plain form is taken). */
static int ctrls_known(const struct cgroup *cg, char *const *args, size_t n, struct werror *err)
{
	for (size_t i = 0; i < n; i++) {
		size_t clen;
		const char *c = ctrls_of(args[i], &clen);

		for (size_t k = 0; c && k < clen;) {
			size_t e = k;
			bool found = false;

			while (e < clen && c[e] != ',')
				e++;
			for (size_t j = 0; j < cg->n_v1 && !found; j++)
				found =
				    in_list(cg->v1[j].opts, strlen(cg->v1[j].opts), c + k, e - k);
			if (!found)
				return werr_k(err, WERR_INVALID, 0,
				              "exec --cgroup %s: unknown controller %.*s (%s)",
				              args[i], (int)(e - k), c + k,
				              cg->n_v1
				                  ? "no v1 hierarchy has it"
				                  : "cgroup v2 has one tree: give the path alone");
			k = e + 1;
		}
	}
	return 0;
}

/* The sub-cgroup (relative) the container's init is in on cgroup2, or
 * false when it is in the container's cgroup itself or anywhere else. */
static bool init_sub(const struct cgroup *cg, pid_t init, char *out, size_t len, struct werror *err)
{
	char p[PATH_MAX];
	size_t plen = strlen(cg->path);

	if (!cgroup_v2_path_of(init, p, sizeof(p), err))
		return false;
	if (strncmp(p, cg->path, plen) != 0 || p[plen] != '/' || strlen(p + plen + 1) >= len)
		return false;
	strcpy(out, p + plen + 1);
	return true;
}

int cgroup_join(const struct cgroup *cg, pid_t pid, char *const *args, size_t n, pid_t init,
                struct werror *err)
{
	char v[16], file[PATH_MAX], sub[PATH_MAX - 32];
	const char *rel, *arg;
	struct cg_hier *h;

	if (cgroup_sub_check(args, n, err) < 0 || ctrls_known(cg, args, n, err) < 0)
		return -1;
	snprintf(v, sizeof(v), "%d", (int)pid);
	for (size_t i = 0; (h = cg_nth(cg, i)) != NULL; i++) {
		if (sub_for(h, args, n, &arg, &rel, err) < 0)
			return -1;
		if ((size_t)snprintf(file, sizeof(file), "%s%scgroup.procs", rel ? rel : "",
		                     rel && *rel ? "/" : "") >= sizeof(file))
			return werr(err, ENAMETOOLONG, "exec --cgroup");
		if (cg_write(h, file, v, err) == 0)
			continue;
		/* runc's words, which its tests look for. */
		if (arg && errno == ENOENT)
			return werr_k(err, WERR_INVALID, 0,
			              "exec --cgroup %s: adding pid %d to %s/%s: no such file or "
			              "directory (no such sub-cgroup)",
			              arg, (int)pid, h->name, file);
		if (arg)
			return werr_ctx(err, "exec --cgroup %s", arg);
		/* runc's fallback on cgroup2: with a domain controller enabled
		 * in the container's cgroup, the init was moved below it (no
		 * process may sit beside children then: EBUSY); without
		 * --cgroup, exec joins the init's cgroup, if still below the
		 * container's. */
		if (errno != EBUSY || h != cg->unified ||
		    !init_sub(cg, init, sub, sizeof(sub), err) ||
		    sub_path_check("", sub, &rel, err) < 0)
			return -1;
		werr_clear(err);
		if (fmt_fit(file, sizeof(file), "%s/cgroup.procs", sub) < 0)
			return werr(err, ENAMETOOLONG, "exec --cgroup %s", sub);
		if (cg_write(h, file, v, err) < 0)
			return -1;
	}
	return 0;
}

static int add_pid(pid_t **pids, size_t *n, size_t *cap, long v, struct werror *err)
{
	if (*n == *cap) {
		pid_t *np = realloc(*pids, (*cap *= 2) * sizeof(**pids));

		if (np == NULL)
			return werr(err, ENOMEM, "out of memory");
		*pids = np;
	}
	(*pids)[(*n)++] = (pid_t)v;
	return 0;
}

/* The pids of dfd's cgroup.procs, then of every cgroup below it. A cgroup
 * gone meanwhile (ENOENT) has none. A subtree that cannot be read (or is
 * deeper than CG_MAX_SUBTREE_DEPTH) is an error, but its siblings are still
 * listed: a container's odd cgroup must not hide the others from a kill.
 * -2: out of memory, nothing more is read. */
static int pids_below(int dfd, const char *name, unsigned depth, pid_t **pids, size_t *n,
                      size_t *cap, struct werror *err)
{
	_cleanup_close_ int procs = cg_openat(dfd, "cgroup.procs", O_RDONLY), dir = -1;
	struct dirent *e;
	FILE *fp;
	DIR *d;
	long v;
	int r = 0;

	if (procs < 0)
		return errno == ENOENT ? 0 : werr(err, errno, "%s/cgroup.procs", name);
	if ((fp = fdopen(procs, "r")) == NULL)
		return werr(err, errno, "%s/cgroup.procs", name);
	TAKE_FD(procs); /* fp owns it */
	while (fscanf(fp, "%ld", &v) == 1)
		if (add_pid(pids, n, cap, v, err) < 0) {
			fclose(fp);
			return -2;
		}
	fclose(fp);
	dir = cg_openat(dfd, ".", O_RDONLY | O_DIRECTORY);
	if (dir < 0 || (d = fdopendir(dir)) == NULL)
		return errno == ENOENT ? 0 : werr(err, errno, "%s", name);
	TAKE_FD(dir); /* closedir() closes it */
	while ((e = readdir(d)) != NULL) {
		_cleanup_close_ int sub = -1;
		int k;

		if (e->d_type != DT_DIR || strcmp(e->d_name, ".") == 0 ||
		    strcmp(e->d_name, "..") == 0)
			continue;
		if (depth >= CG_MAX_SUBTREE_DEPTH) {
			r = werr(err, ELOOP,
			         "%s: cgroups nested more than %d levels below the container's",
			         name, CG_MAX_SUBTREE_DEPTH);
			break;
		}
		sub = cg_openat(dirfd(d), e->d_name, O_PATH | O_DIRECTORY);
		if (sub < 0) {
			if (errno != ENOENT)
				r = werr(err, errno, "%s/%s", name, e->d_name);
			continue;
		}
		k = pids_below(sub, name, depth + 1, pids, n, cap, err);
		if (k == -2) {
			r = -2;
			break;
		}
		if (k < 0)
			r = -1;
	}
	closedir(d);
	return r;
}

bool cg_subtree_busy(const struct cg_hier *h, pid_t except)
{
	size_t n = 0, cap = 16;
	pid_t *pids = malloc(cap * sizeof(*pids));
	bool busy;
	int r;

	if (pids == NULL || h->fd < 0) {
		free(pids);
		return pids == NULL; /* fail closed; a cgroup not there holds nothing */
	}
	r = pids_below(h->fd, h->name, 0, &pids, &n, &cap, NULL);
	busy = r < 0;
	for (size_t i = 0; i < n && !busy; i++)
		busy = pids[i] != except;
	free(pids);
	return busy;
}

int cgroup_pids(const struct cgroup *cg, pid_t **pids, size_t *n, struct werror *err)
{
	const struct cg_hier *h = cg_main_hier(cg);
	size_t cap = 16;

	*n = 0;
	*pids = malloc(cap * sizeof(**pids));
	if (*pids == NULL)
		return werr(err, ENOMEM, "out of memory");
	if (h == NULL)
		return 0;
	if (h->fd < 0)
		return h->err == ENOENT ? 0 : werr(err, h->err ? h->err : EBADF, "%s", h->name);
	return pids_below(h->fd, h->name, 0, pids, n, &cap, err) < 0 ? -1 : 0;
}

bool cgroup_is_frozen(const struct cgroup *cg, struct werror *err)
{
	const struct cg_hier *fz = cg_v1(cg, "freezer");
	char buf[256];

	if (fz && cg->layout != CG_V2)
		return cg_read(fz, "freezer.state", buf, sizeof(buf), err) == 0 &&
		       strncmp(buf, "THAWED", 6) != 0;
	if (cg->unified && cg_read(cg->unified, "cgroup.freeze", buf, sizeof(buf), err) == 0)
		return buf[0] == '1';
	return false;
}

int cgroup_freeze(const struct cgroup *cg, bool freeze, struct werror *err)
{
	const struct cg_hier *fz = cg_v1(cg, "freezer");

	if (fz && cg->layout != CG_V2) {
		if (cg_write(fz, "freezer.state", freeze ? "FROZEN" : "THAWED", err) < 0)
			return -1;
	} else if (cg->unified) {
		if (cg_write(cg->unified, "cgroup.freeze", freeze ? "1" : "0", err) < 0)
			return -1;
	} else {
		return werr(err, ENOTSUP, "no freezer: neither a v1 freezer nor cgroup2");
	}
	/* Freezing completes asynchronously: wait for it, bounded (5 s). */
	for (int i = 0; i < 5000; i++) {
		if (cgroup_is_frozen(cg, err) == freeze) {
			if (!freeze || !fz || cg->layout == CG_V2)
				return 0;
			char buf[64];

			if (cg_read(fz, "freezer.state", buf, sizeof(buf), err) == 0 &&
			    strncmp(buf, "FROZEN", 6) == 0)
				return 0;
		}
		cg_sleep_ms(1);
	}
	return werr(err, ETIMEDOUT, "cgroup %s did not %s", cg->path, freeze ? "freeze" : "thaw");
}

/* Is pid (still) a member of the container's cgroup or one below it, per
 * /proc/pid/cgroup? */
static bool is_member(const struct cgroup *cg, pid_t pid, struct werror *err)
{
	char buf[8192];
	size_t plen = strlen(cg->path);

	if (!cg_proc_cgroup(pid, buf, sizeof(buf), err))
		return false;
	for (char *l = buf; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != '\0')) {
		const char *path = strchr(l, ':') ? strchr(strchr(l, ':') + 1, ':') : NULL;

		if (path && strncmp(path + 1, cg->path, plen) == 0 &&
		    (path[1 + plen] == '\n' || path[1 + plen] == '\0' || path[1 + plen] == '/'))
			return true;
	}
	return false;
}

/* Signal a pid read from cgroup.procs only if it is still the container's:
 * pid numbers are recycled (pid_max 32768 wraps within seconds on a busy
 * host), and a dying process leaves the list only after it has exited. The
 * pidfd pins the process that the membership check then looks at. */
static void signal_member(const struct cgroup *cg, pid_t pid, int sig, struct werror *err)
{
	_cleanup_close_ int fd = (int)syscall(SYS_pidfd_open, pid, 0);

	if (fd >= 0 && is_member(cg, pid, err))
		syscall(SYS_pidfd_send_signal, fd, sig, NULL, 0);
}

int cgroup_signal_all(const struct cgroup *cg, int sig, struct werror *err)
{
	bool freeze = cg_v1(cg, "freezer") != NULL || cg->unified != NULL;
	pid_t *pids = NULL;
	size_t n;
	int r;

	/* cgroup2 kills a whole cgroup atomically (Linux ≥ 5.14). */
	if (sig == SIGKILL && cg->layout == CG_V2 && cg->unified &&
	    cg_write(cg->unified, "cgroup.kill", "1", err) == 0)
		return 0;
	/* Otherwise freeze, signal each process, thaw: no fork escapes the
	 * listing in between. */
	if (freeze && cgroup_freeze(cg, true, err) < 0) {
		/* A freeze that did not complete (a task in D state) is undone:
		 * a frozen v1 task never dies of the SIGKILL sent below. */
		cgroup_freeze(cg, false, err);
		werr_clear(err);
		freeze = false;
	}
	/* What was listed is signalled even if the listing failed part-way. */
	r = cgroup_pids(cg, &pids, &n, err);
	for (size_t i = 0; i < n; i++)
		signal_member(cg, pids[i], sig, err);
	free(pids);
	if (freeze)
		cgroup_freeze(cg, false, err);
	return r;
}
