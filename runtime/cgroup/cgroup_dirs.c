/* Making and removing the container's cgroup directories: create (mkdir -p
 * in every hierarchy, undone on failure) and destroy (the leaf, and the
 * parents create made). */
#include "cgroup/cgroup.h"
#include "lib/strfmt.h"
#include "cgroup/cg_files.h"
#include "cgroup/cg_driver.h"
#include "lib/cleanup.h"
#include "lib/fileio.h"
#include "lib/error.h"
#include "lib/log.h"

#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void sleep_ms(int ms)
{
	struct timespec ts = {0, (long)ms * 1000000L};

	nanosleep(&ts, NULL);
}

/* mkdir -p of the path in one hierarchy, level by level from its mount
 * point, leaving h->fd on the leaf. v1 cpuset: a new cgroup starts with no
 * CPUs and no memory nodes, so each level copies its parent's. cgroup2:
 * the parent delegates its controllers to the new level. */
static int mkdir_path_once(const char *path, struct cg_hier *h, bool cpuset, bool v2, bool *existed,
                           struct werror *err)
{
	char sofar[PATH_MAX] = "", buf[PATH_MAX];
	unsigned level = 0;
	size_t len = 0;
	_cleanup_close_ int dfd = open(h->mnt, O_PATH | O_DIRECTORY | O_CLOEXEC);

	*existed = true;
	h->kept = UINT32_MAX;
	if (h->fd >= 0)
		close(h->fd);
	h->fd = -1;
	if (dfd < 0)
		return werr(err, errno, "creating cgroup %s", h->name);
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *save = NULL, *t = strtok_r(buf, "/", &save); t; t = strtok_r(NULL, "/", &save)) {
		char parent[PATH_MAX * 2], full[PATH_MAX * 2];
		_cleanup_close_ int sub = -1;
		bool made;

		snprintf(parent, sizeof(parent), "%s%s", h->mnt, sofar);
		len += (size_t)snprintf(sofar + len, sizeof(sofar) - len, "/%s", t);
		snprintf(full, sizeof(full), "%s%s", h->mnt, sofar);
		if (v2) {
			char ctl[256], add[300] = "";

			if (cg_read_at(dfd, "cgroup.controllers", ctl, sizeof(ctl), err) == 0)
				for (char *s2 = NULL, *c = strtok_r(ctl, " \n", &s2); c;
				     c = strtok_r(NULL, " \n", &s2)) {
					if (strlen(add) + strlen(c) + 3 < sizeof(add)) {
						strcat(add, add[0] ? " +" : "+");
						strcat(add, c);
					}
				}
			/* Best effort: a controller in use elsewhere may refuse. */
			if (add[0])
				cg_write_at(dfd, parent, "cgroup.subtree_control", add, err);
		}
		level++;
		made = mkdirat(dfd, t, 0755) == 0;
		if (made) {
			if (*existed)
				h->kept = level - 1;
			*existed = false;
		}
		if (made || errno == EEXIST)
			sub = openat(dfd, t, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0)
			return werr(err, errno, "creating cgroup %s", full);
		if (cpuset) {
			char v[4096];

			for (int k = 0; k < 2; k++) {
				const char *f = k ? "cpuset.mems" : "cpuset.cpus";

				if (cg_read_at(sub, f, v, sizeof(v), err) == 0 && v[0] == '\n' &&
				    cg_read_at(dfd, f, v, sizeof(v), err) == 0 &&
				    cg_write_at(sub, full, f, v, err) < 0)
					return werr_ctx(err, "cpuset of %s", full);
			}
		}
		close(dfd);
		dfd = TAKE_FD(sub);
	}
	h->fd = TAKE_FD(dfd);
	h->err = 0;
	return 0;
}

/* A parent that was there (EEXIST) can be gone a moment later: another
 * container's delete removes the parents its create made once they are
 * empty ("/ward" itself). The path is then made again, a few times. */
static int mkdir_path(const char *path, struct cg_hier *h, bool cpuset, bool v2, bool *existed,
                      struct werror *err)
{
	int r = -1;

	for (int i = 0; i < 5; i++) {
		if (i)
			werr_clear(err);
		r = mkdir_path_once(path, h, cpuset, v2, existed, err);
		if (r == 0 || werr_errno(err) != ENOENT)
			break;
	}
	return r;
}

/* How many leading levels of path exist in h now (UINT32_MAX: all). */
static unsigned existing_levels(const char *path, const struct cg_hier *h)
{
	char buf[PATH_MAX];
	unsigned level = 0;
	_cleanup_close_ int dfd = open(h->mnt, O_PATH | O_DIRECTORY | O_CLOEXEC);

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *save = NULL, *t = strtok_r(buf, "/", &save); dfd >= 0 && t;
	     t = strtok_r(NULL, "/", &save)) {
		int sub = openat(dfd, t, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

		close(dfd);
		dfd = sub;
		if (sub < 0)
			return level;
		level++;
	}
	return UINT32_MAX;
}

/* Under systemd the slices are systemd's, made with the scope: ward never
 * removes a level above the leaf (in a v1 hierarchy systemd does not run,
 * an empty slice directory may stay, as with runc). */
static void keep_parents(struct cgroup *cg)
{
	struct cg_hier *h;

	for (size_t i = 0; (h = cg_nth(cg, i)) != NULL; i++)
		h->kept = UINT32_MAX;
}

void cgroup_plan(struct cgroup *cg)
{
	if (cg_driver_of(cg)->owns_parents) {
		keep_parents(cg);
		return;
	}
	for (size_t i = 0; i < cg->n_v1; i++)
		cg->v1[i].kept = existing_levels(cg->path, &cg->v1[i]);
	if (cg->unified)
		cg->unified->kept = existing_levels(cg->path, cg->unified);
}

/* Does the cgroup hold a process other than except (0: any)? */
/* A level above the leaf that was there before create (h->kept) and has
 * processes of its own, none of them ward's: another container's cgroup
 * (or a service's). The container's would sit under its limits, and be
 * signalled and killed with it. (A level holding ward itself is where
 * ward was started from, not another's; systemd puts the scope's holder
 * in the slice of a v1 hierarchy it has not realized the scope in yet.)
 * The level's name goes to out. */
static bool busy_ancestor(const struct cg_hier *h, const char *path, pid_t holder, char *out,
                          size_t len, struct werror *err)
{
	char buf[PATH_MAX], sofar[PATH_MAX] = "";
	unsigned level = 0, levels = 0;
	size_t n = 0;

	for (const char *c = path; *c; c++)
		levels += *c == '/';
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *save = NULL, *t = strtok_r(buf, "/", &save); t; t = strtok_r(NULL, "/", &save)) {
		char f[PATH_MAX * 2];
		_cleanup_free_ char *procs = NULL;
		bool mine = false, others = false;
		size_t n_procs;
		_cleanup_close_ int fd = -1;

		if (++level >= levels || level > h->kept)
			break;
		n += (size_t)snprintf(sofar + n, sizeof(sofar) - n, "/%s", t);
		/* One that cannot be named is not looked at: busy (fail closed). */
		if (fmt_fit(f, sizeof(f), "%s%s/cgroup.procs", h->mnt, sofar) < 0) {
			snprintf(out, len, "%s", sofar);
			return true;
		}
		if ((fd = open(f, O_RDONLY | O_CLOEXEC)) < 0)
			continue;
		/* All of it: a busy level has any number of processes. */
		if (read_fd(fd, f, 1 << 24, &procs, &n_procs, err) < 0) {
			werr_clear(err);
			continue;
		}
		for (char *p = procs, *end; *p; p = end + (*end != '\0')) {
			long v = strtol(p, &end, 10);

			if (end == p)
				break;
			mine = mine || v == (long)getpid();
			others = others || (v != (long)getpid() && v != (long)holder);
		}
		if (others && !mine) {
			snprintf(out, len, "%s%s", h->mnt, sofar);
			return true;
		}
	}
	return false;
}

static int rmdir_in(const struct cg_hier *h, struct werror *err);

/* What this create made, to undo on failure. */
struct made {
	bool v1[CG_MAX_V1];
	bool unified;
};

static void undo(const struct cgroup *cg, const struct made *m, struct werror *err)
{
	for (size_t i = 0; i < cg->n_v1; i++)
		if (m->v1[i])
			rmdir_in(&cg->v1[i], err);
	if (m->unified)
		rmdir_in(cg->unified, err);
}

int cgroup_create(struct cgroup *cg, bool shared_ok, struct werror *err)
{
	struct made m = {0};
	const struct cg_hier *h;
	bool existed_any = false, existed;

	for (size_t i = 0; i < cg->n_v1; i++) {
		if (mkdir_path(cg->path, &cg->v1[i], strstr(cg->v1[i].opts, "cpuset") != NULL,
		               false, &existed, err) < 0)
			goto fail;
		m.v1[i] = !existed;
		existed_any = existed_any || existed;
	}
	if (cg->unified) {
		if (mkdir_path(cg->path, cg->unified, false, true, &existed, err) < 0)
			goto fail;
		m.unified = !existed;
		existed_any = existed_any || existed;
	}
	/* A scope systemd has just made for this container (StartTransientUnit
	 * fails on an existing unit) holds only ward's holder process; the
	 * same path in a v1 hierarchy systemd does not run may hold others. */
	if (cg_driver_of(cg)->owns_parents)
		keep_parents(cg);
	/* In the hierarchy that says which processes are the container's (a
	 * v1 host's other ones may keep a service's processes in its slice:
	 * systemd places them in the controllers it does not account). */
	if ((h = cg_main_hier(cg)) != NULL) {
		char above[PATH_MAX * 2];

		if (busy_ancestor(h, cg->path, cg->holder, above, sizeof(above), err)) {
			if (!shared_ok) {
				werr(err, EBUSY,
				     "cgroup %s: %s above it has processes of its own (another "
				     "container's or a service's cgroup)",
				     h->name, above);
				goto fail;
			}
			log_warn("cgroup %s: %s above it has processes of its own", h->name, above);
		}
	}
	if (existed_any) {
		/* A pre-existing cgroup is joined only if nobody lives there,
		 * below it included (its processes would share the container's
		 * limits and be killed with it: "/ward" would hold every other
		 * container), except in compat, where runc only warns. */
		const struct cg_hier *busy = NULL;

		for (size_t i = 0; i < cg->n_v1 && !busy; i++)
			if (cg_subtree_busy(&cg->v1[i], cg->holder))
				busy = &cg->v1[i];
		if (!busy && cg->unified && cg_subtree_busy(cg->unified, cg->holder))
			busy = cg->unified;
		if (busy && !shared_ok) {
			werr(err, EBUSY, "cgroup %s already has processes", busy->name);
			goto fail;
		}
		cg->shared = busy != NULL;
		if (busy)
			log_warn("cgroup %s already has processes: the container shares it "
			         "(container's cgroup is not empty)",
			         busy->name);
		/* A frozen one would hang the container: refuse, do not wait. */
		if (cgroup_is_frozen(cg, err)) {
			werr(err, 0, "cgroup %s is frozen: container's cgroup unexpectedly frozen",
			     cg->path);
			goto fail;
		}
	}
	return 0;
fail:
	/* Only the leaves made here: a cgroup that was there stays. What
	 * the undo meets is not the error being returned. */
	undo(cg, &m, NULL);
	return -1;
}

/* A cgroup empties a moment after its last process dies. */
static int rmdir_at(int dfd, const char *name)
{
	for (int i = 0; i < 2000; i++) {
		if (unlinkat(dfd, name, AT_REMOVEDIR) == 0 || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			break;
		sleep_ms(1);
	}
	return -1;
}

/* The cgroups below one (made by exec --cgroup's users, or by the container
 * itself where it may): removed deepest first, by fd. Bounded depth: a
 * container may have made the tree. */
static int rmdir_below(int dfd, int depth)
{
	DIR *d;
	struct dirent *e;
	_cleanup_close_ int fd = dup(dfd);
	int r = 0;

	if (fd < 0 || (d = fdopendir(fd)) == NULL)
		return -1;
	TAKE_FD(fd); /* closedir() closes it */
	while ((e = readdir(d)) != NULL) {
		_cleanup_close_ int sub = -1;

		if (e->d_type != DT_DIR || strcmp(e->d_name, ".") == 0 ||
		    strcmp(e->d_name, "..") == 0)
			continue;
		if (depth >= CG_MAX_SUBTREE_DEPTH) {
			errno = ELOOP;
			r = -1;
			break;
		}
		sub = openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0 || rmdir_below(sub, depth + 1) < 0 || rmdir_at(dfd, e->d_name) < 0)
			r = -1;
	}
	closedir(d);
	return r;
}

static int rmdir_in(const struct cg_hier *h, struct werror *err)
{
	_cleanup_close_ int dfd = open(h->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (dfd < 0 && errno == ENOENT)
		return 0;
	if (dfd >= 0 && rmdir_below(dfd, 0) < 0)
		return werr(err, errno, "removing the cgroups below %s", h->name);
	/* Not held open while it is removed. */
	if (dfd >= 0)
		close(TAKE_FD(dfd));
	if (rmdir_at(AT_FDCWD, h->name) == 0)
		return 0;
	return werr(err, errno, "removing cgroup %s", h->name);
}

/* The parents create made, deepest first (the leaf is already gone). */
static void rmdir_parents(const struct cgroup *cg, const struct cg_hier *h)
{
	char p[PATH_MAX];
	unsigned levels = 0;
	char *slash;

	snprintf(p, sizeof(p), "%s", cg->path);
	for (const char *c = p; *c; c++)
		levels += *c == '/';
	while (--levels > h->kept && (slash = strrchr(p, '/')) && slash != p) {
		char full[PATH_MAX * 2];

		*slash = '\0';
		snprintf(full, sizeof(full), "%s%s", h->mnt, p);
		if (rmdir(full) < 0)
			break;
	}
}

int cgroup_destroy(const struct cgroup *cg, struct werror *err)
{
	const struct cg_hier *h;
	pid_t *pids = NULL;
	size_t n = 0;
	int r = 0;

	/* Shared with processes that are not the container's (compat): they
	 * and the cgroup stay; the container's own died with its init. A
	 * cgroup that is no longer the container's is not touched either. */
	if (cg->shared || cg->stale)
		return 0;
	/* Usually empty by now (the init is dead): no freeze round then. A
	 * scope recorded as pending was found empty (verify_identity): there
	 * is nothing of the container's to kill in it. */
	if (!cg->pending && (cgroup_pids(cg, &pids, &n, err) < 0 || n > 0))
		cgroup_signal_all(cg, SIGKILL, err);
	free(pids);
	/* The manager's part (systemd stops the scope), then the directories
	 * left. */
	if (cg_driver_of(cg)->stop(cg, err) < 0)
		r = -1;
	for (size_t i = 0; (h = cg_nth(cg, i)) != NULL; i++)
		if (rmdir_in(h, err) < 0)
			r = -1;
		else
			rmdir_parents(cg, h);
	return r;
}

int cgroup_remove_empty(const struct cgroup *cg)
{
	const struct cg_hier *h;
	int left = 0;

	/* rmdir only: the kernel refuses a cgroup that still has processes or
	 * children, so nothing that lives is touched. */
	for (size_t i = 0; (h = cg_nth(cg, i)) != NULL; i++)
		if (rmdir(h->name) < 0 && errno != ENOENT)
			left++;
		else
			rmdir_parents(cg, h);
	return left;
}
