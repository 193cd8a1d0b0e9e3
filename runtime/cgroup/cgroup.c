#include "cgroup/cgroup.h"
#include "lib/error.h"
#include "lib/log.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libmount.h>
#include <linux/magic.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#define CG_ROOT "/sys/fs/cgroup"

static void find_hierarchies(struct cgroup *cg)
{
	struct libmnt_table *tb = mnt_new_table_from_file("/proc/self/mountinfo");
	struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs;

	while (tb && it && mnt_table_next_fs(tb, it, &fs) == 0) {
		const char *type = mnt_fs_get_fstype(fs), *target = mnt_fs_get_target(fs);

		if (!type || !target || strncmp(target, CG_ROOT, strlen(CG_ROOT)) != 0)
			continue;
		if (strcmp(type, "cgroup2") == 0) {
			snprintf(cg->unified, sizeof(cg->unified), "%s", target);
		} else if (strcmp(type, "cgroup") == 0 && cg->n_v1 < CG_MAX_V1) {
			const char *o = mnt_fs_get_fs_options(fs);
			char *out = cg->v1[cg->n_v1].opts;

			snprintf(cg->v1[cg->n_v1].dir, sizeof(cg->v1[0].dir), "%s", target);
			out[0] = '\0';
			/* Keep the controller names, drop rw/ro and other flags. */
			for (const char *p = o ? o : ""; *p;) {
				size_t n = strcspn(p, ",");

				if (!(n == 2 &&
				      (strncmp(p, "rw", 2) == 0 || strncmp(p, "ro", 2) == 0)) &&
				    strlen(out) + n + 2 < sizeof(cg->v1[0].opts)) {
					if (out[0])
						strcat(out, ",");
					strncat(out, p, n);
				}
				p += n + (p[n] == ',');
			}
			cg->n_v1++;
		}
	}
	mnt_free_iter(it);
	mnt_unref_table(tb);
}

const char *cg_v1_dir(const struct cgroup *cg, const char *controller)
{
	size_t len = strlen(controller);

	for (size_t i = 0; i < cg->n_v1; i++)
		for (const char *p = cg->v1[i].opts; *p;) {
			size_t n = strcspn(p, ",");

			if (n == len && strncmp(p, controller, n) == 0)
				return cg->v1[i].dir;
			p += n + (p[n] == ',');
		}
	return NULL;
}

/* Is controller name listed in the cgroup2 root's cgroup.controllers? */
static bool v2_has(const struct cgroup *cg, const char *name)
{
	char buf[512];
	size_t len = strlen(name);

	if (!cg->unified[0] || cg_read(cg->unified, "", "cgroup.controllers", buf, sizeof(buf)) < 0)
		return false;
	for (char *p = buf; *p;) {
		size_t n = strcspn(p, " \n");

		if (n == len && strncmp(p, name, n) == 0)
			return true;
		p += n + (p[n] != '\0');
	}
	return false;
}

const char *cg_controller_dir(const struct cgroup *cg, const char *v1, const char *v2, bool *is_v2)
{
	const char *d = cg->layout == CG_V2 ? NULL : cg_v1_dir(cg, v1);

	*is_v2 = false;
	if (d)
		return d;
	/* Pure v2: always cgroup2 (a missing controller then fails on its
	 * file, naming it). Hybrid/v1: only a controller cgroup2 runs. */
	if (v2 && cg->unified[0] && (cg->layout == CG_V2 || v2_has(cg, v2))) {
		*is_v2 = true;
		return cg->unified;
	}
	return NULL;
}

/* A cgroup path: absolute, plain names, no "." or "..": it is joined to
 * host directories. systemd's "slice:prefix:name" needs a systemd. */
static int set_path(struct cgroup *cg, const char *p, const char *id)
{
	char buf[PATH_MAX];
	size_t len = 0;

	if (p == NULL || p[0] == '\0') {
		snprintf(cg->path, sizeof(cg->path), "/ward/%s", id);
		return 0;
	}
	if (strchr(p, ':'))
		return werr(0,
		            "config.json: .linux.cgroupsPath \"%s\": systemd's slice:prefix:name "
		            "form needs the systemd cgroup manager; ward manages cgroupfs paths",
		            p);
	snprintf(buf, sizeof(buf), "%s%s", p[0] == '/' ? "" : "/ward/", p);
	cg->path[0] = '\0';
	for (char *save = NULL, *t = strtok_r(buf, "/", &save); t; t = strtok_r(NULL, "/", &save)) {
		if (strcmp(t, ".") == 0 || strcmp(t, "..") == 0)
			return werr(0, "config.json: .linux.cgroupsPath \"%s\": no \".\" or \"..\"",
			            p);
		len += (size_t)snprintf(cg->path + len, sizeof(cg->path) - len, "/%s", t);
	}
	if (len == 0)
		return werr(0,
		            "config.json: .linux.cgroupsPath \"%s\": the root cgroup is not "
		            "the container's to take",
		            p);
	return 0;
}

int cgroup_init(struct cgroup *cg, const char *cgroups_path, const char *id)
{
	struct statfs sfs;

	memset(cg, 0, sizeof(*cg));
	for (size_t i = 0; i <= CG_MAX_V1; i++)
		cg->kept[i] = UINT32_MAX; /* unknown: remove the leaf only */
	if (statfs(CG_ROOT, &sfs) < 0)
		return werr(errno, CG_ROOT);
	find_hierarchies(cg);
	if (sfs.f_type == CGROUP2_SUPER_MAGIC)
		cg->layout = CG_V2;
	else
		cg->layout = cg->unified[0] ? CG_HYBRID : CG_V1;
	if (cg->layout != CG_V2 && cg->n_v1 == 0)
		return werr(ENOENT, "no cgroup hierarchy found under " CG_ROOT);
	return set_path(cg, cgroups_path, id);
}

int cg_write(const char *dir, const char *path, const char *file, const char *value)
{
	char f[PATH_MAX * 2 + 64];
	size_t len = strlen(value);
	int fd;

	snprintf(f, sizeof(f), "%s%s/%s", dir, path, file);
	fd = open(f, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return werr(errno, "%s", f);
	if (write(fd, value, len) != (ssize_t)len) {
		int e = errno;

		close(fd);
		return werr(e, "writing \"%s\" to %s", value, f);
	}
	close(fd);
	return 0;
}

int cg_read(const char *dir, const char *path, const char *file, char *buf, size_t len)
{
	char f[PATH_MAX * 2 + 64];
	ssize_t n;
	int fd;

	snprintf(f, sizeof(f), "%s%s/%s", dir, path, file);
	fd = open(f, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

/* mkdir -p of the path in one hierarchy. v1 cpuset: a new cgroup starts
 * with no CPUs and no memory nodes, so each level copies its parent's.
 * cgroup2: the parent delegates its controllers to the new level. */
static int mkdir_path(const char *dir, const char *path, bool cpuset, bool v2, bool *existed,
                      unsigned *kept)
{
	unsigned level = 0;

	char sofar[PATH_MAX] = "";
	char buf[PATH_MAX];
	size_t len = 0;

	*existed = true;
	*kept = UINT32_MAX;
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *save = NULL, *t = strtok_r(buf, "/", &save); t; t = strtok_r(NULL, "/", &save)) {
		char parent[PATH_MAX], full[PATH_MAX * 2];

		snprintf(parent, sizeof(parent), "%s", sofar);
		len += (size_t)snprintf(sofar + len, sizeof(sofar) - len, "/%s", t);
		snprintf(full, sizeof(full), "%s%s", dir, sofar);
		if (v2) {
			char ctl[256], add[300] = "";

			if (cg_read(dir, parent, "cgroup.controllers", ctl, sizeof(ctl)) == 0)
				for (char *s2 = NULL, *c = strtok_r(ctl, " \n", &s2); c;
				     c = strtok_r(NULL, " \n", &s2)) {
					if (strlen(add) + strlen(c) + 3 < sizeof(add)) {
						strcat(add, add[0] ? " +" : "+");
						strcat(add, c);
					}
				}
			/* Best effort: a controller in use elsewhere may refuse. */
			if (add[0])
				cg_write(dir, parent, "cgroup.subtree_control", add);
		}
		level++;
		if (mkdir(full, 0755) == 0) {
			if (*existed)
				*kept = level - 1;
			*existed = false;
		} else if (errno != EEXIST) {
			return werr(errno, "creating cgroup %s", full);
		}
		if (cpuset) {
			char v[256];

			for (int k = 0; k < 2; k++) {
				const char *f = k ? "cpuset.mems" : "cpuset.cpus";

				if (cg_read(dir, sofar, f, v, sizeof(v)) == 0 && v[0] == '\n' &&
				    cg_read(dir, parent, f, v, sizeof(v)) == 0 &&
				    cg_write(dir, sofar, f, v) < 0)
					return werr_ctx("cpuset of %s", full);
			}
		}
	}
	return 0;
}

static bool has_procs(const char *dir, const char *path)
{
	char buf[64];

	return cg_read(dir, path, "cgroup.procs", buf, sizeof(buf)) == 0 && buf[0] != '\0';
}

static int rmdir_in(const char *dir, const char *path);

/* What this create made, to undo on failure. */
struct made {
	bool v1[CG_MAX_V1];
	bool unified;
};

static void undo(const struct cgroup *cg, const struct made *m)
{
	for (size_t i = 0; i < cg->n_v1; i++)
		if (m->v1[i])
			rmdir_in(cg->v1[i].dir, cg->path);
	if (m->unified)
		rmdir_in(cg->unified, cg->path);
}

int cgroup_create(struct cgroup *cg)
{
	struct made m = {0};
	bool existed_any = false, existed;
	char msg[WERR_MAX];
	int e;

	for (size_t i = 0; i < cg->n_v1; i++) {
		if (mkdir_path(cg->v1[i].dir, cg->path, strstr(cg->v1[i].opts, "cpuset") != NULL,
		               false, &existed, &cg->kept[i]) < 0)
			goto fail;
		m.v1[i] = !existed;
		existed_any = existed_any || existed;
	}
	if (cg->unified[0]) {
		if (mkdir_path(cg->unified, cg->path, false, true, &existed, &cg->kept[CG_MAX_V1]) <
		    0)
			goto fail;
		m.unified = !existed;
		existed_any = existed_any || existed;
	}
	if (existed_any) {
		/* A pre-existing cgroup is joined only if nobody lives there; a
		 * frozen one would hang the container: refuse, do not wait. */
		for (size_t i = 0; i < cg->n_v1; i++)
			if (has_procs(cg->v1[i].dir, cg->path)) {
				werr(EBUSY, "cgroup %s%s already has processes", cg->v1[i].dir,
				     cg->path);
				goto fail;
			}
		if (cg->unified[0] && has_procs(cg->unified, cg->path)) {
			werr(EBUSY, "cgroup %s%s already has processes", cg->unified, cg->path);
			goto fail;
		}
		if (cgroup_is_frozen(cg)) {
			werr(EBUSY, "cgroup %s is frozen", cg->path);
			goto fail;
		}
	}
	return 0;
fail:
	/* Only the leaves made here: a cgroup that was there stays. */
	e = werr_errno();
	snprintf(msg, sizeof(msg), "%s", werr_msg());
	undo(cg, &m);
	return werr_set(e, msg);
}

int cgroup_unified_fd(const struct cgroup *cg)
{
	char p[PATH_MAX * 2 + 64];
	int fd;

	if (!cg->unified[0])
		return -1;
	snprintf(p, sizeof(p), "%s%s", cg->unified, cg->path);
	fd = open(p, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? werr(errno, "%s", p) : fd;
}

int cgroup_add_pid(const struct cgroup *cg, pid_t pid, bool in_unified)
{
	char v[16];

	snprintf(v, sizeof(v), "%d", (int)pid);
	for (size_t i = 0; i < cg->n_v1; i++)
		if (cg_write(cg->v1[i].dir, cg->path, "cgroup.procs", v) < 0)
			return -1;
	if (cg->unified[0] && !in_unified && cg_write(cg->unified, cg->path, "cgroup.procs", v) < 0)
		return -1;
	return 0;
}

/* The hierarchy whose cgroup.procs lists the container's processes. */
static const char *main_dir(const struct cgroup *cg)
{
	if (cg->layout == CG_V2)
		return cg->unified;
	return cg_v1_dir(cg, "pids") ? cg_v1_dir(cg, "pids") : cg->v1[0].dir;
}

int cgroup_pids(const struct cgroup *cg, pid_t **pids, size_t *n)
{
	char f[PATH_MAX * 2 + 64];
	size_t cap = 16;
	FILE *fp;
	long v;

	*n = 0;
	*pids = malloc(cap * sizeof(**pids));
	if (*pids == NULL)
		return werr(ENOMEM, "out of memory");
	snprintf(f, sizeof(f), "%s%s/cgroup.procs", main_dir(cg), cg->path);
	fp = fopen(f, "re");
	if (fp == NULL)
		return errno == ENOENT ? 0 : werr(errno, "%s", f);
	while (fscanf(fp, "%ld", &v) == 1) {
		if (*n == cap) {
			pid_t *np = realloc(*pids, (cap *= 2) * sizeof(**pids));

			if (np == NULL) {
				fclose(fp);
				return werr(ENOMEM, "out of memory");
			}
			*pids = np;
		}
		(*pids)[(*n)++] = (pid_t)v;
	}
	fclose(fp);
	return 0;
}

bool cgroup_is_frozen(const struct cgroup *cg)
{
	const char *fz = cg_v1_dir(cg, "freezer");
	char buf[256];

	if (fz && cg->layout != CG_V2)
		return cg_read(fz, cg->path, "freezer.state", buf, sizeof(buf)) == 0 &&
		       strncmp(buf, "THAWED", 6) != 0;
	if (cg->unified[0] &&
	    cg_read(cg->unified, cg->path, "cgroup.freeze", buf, sizeof(buf)) == 0)
		return buf[0] == '1';
	return false;
}

static void sleep_ms(int ms)
{
	struct timespec ts = {0, (long)ms * 1000000L};

	nanosleep(&ts, NULL);
}

int cgroup_freeze(const struct cgroup *cg, bool freeze)
{
	const char *fz = cg_v1_dir(cg, "freezer");

	if (fz && cg->layout != CG_V2) {
		if (cg_write(fz, cg->path, "freezer.state", freeze ? "FROZEN" : "THAWED") < 0)
			return -1;
	} else if (cg->unified[0]) {
		if (cg_write(cg->unified, cg->path, "cgroup.freeze", freeze ? "1" : "0") < 0)
			return -1;
	} else {
		return werr(ENOTSUP, "no freezer: neither a v1 freezer nor cgroup2");
	}
	/* Freezing completes asynchronously: wait for it, bounded (5 s). */
	for (int i = 0; i < 5000; i++) {
		if (cgroup_is_frozen(cg) == freeze) {
			if (!freeze || !fz || cg->layout == CG_V2)
				return 0;
			char buf[64];

			if (cg_read(fz, cg->path, "freezer.state", buf, sizeof(buf)) == 0 &&
			    strncmp(buf, "FROZEN", 6) == 0)
				return 0;
		}
		sleep_ms(1);
	}
	return werr(ETIMEDOUT, "cgroup %s did not %s", cg->path, freeze ? "freeze" : "thaw");
}

/* Is pid (still) a member of the container's cgroup, per /proc/pid/cgroup? */
static bool is_member(const struct cgroup *cg, pid_t pid)
{
	char f[64], buf[8192];
	size_t plen = strlen(cg->path);
	ssize_t n;
	int fd;

	snprintf(f, sizeof(f), "/proc/%d/cgroup", (int)pid);
	fd = open(f, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	for (char *l = buf; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != '\0')) {
		const char *path = strchr(l, ':') ? strchr(strchr(l, ':') + 1, ':') : NULL;

		if (path && strncmp(path + 1, cg->path, plen) == 0 &&
		    (path[1 + plen] == '\n' || path[1 + plen] == '\0'))
			return true;
	}
	return false;
}

/* Signal a pid read from cgroup.procs only if it is still the container's:
 * pid numbers are recycled (pid_max 32768 wraps within seconds on a busy
 * host), and a dying process leaves the list only after it has exited. The
 * pidfd pins the process that the membership check then looks at. */
static void signal_member(const struct cgroup *cg, pid_t pid, int sig)
{
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);

	if (fd < 0)
		return;
	if (is_member(cg, pid))
		syscall(SYS_pidfd_send_signal, fd, sig, NULL, 0);
	close(fd);
}

int cgroup_signal_all(const struct cgroup *cg, int sig)
{
	bool freeze = cg_v1_dir(cg, "freezer") || cg->unified[0];
	pid_t *pids = NULL;
	size_t n;
	int r;

	/* cgroup2 kills a whole cgroup atomically (Linux ≥ 5.14). */
	if (sig == SIGKILL && cg->layout == CG_V2 &&
	    cg_write(cg->unified, cg->path, "cgroup.kill", "1") == 0)
		return 0;
	/* Otherwise freeze, signal each process, thaw: no fork escapes the
	 * listing in between. */
	if (freeze && cgroup_freeze(cg, true) < 0)
		freeze = false;
	r = cgroup_pids(cg, &pids, &n);
	for (size_t i = 0; r == 0 && i < n; i++)
		signal_member(cg, pids[i], sig);
	free(pids);
	if (freeze)
		cgroup_freeze(cg, false);
	return r;
}

static int rmdir_in(const char *dir, const char *path)
{
	char p[PATH_MAX * 2 + 64];

	snprintf(p, sizeof(p), "%s%s", dir, path);
	/* A cgroup empties a moment after its last process dies. */
	for (int i = 0; i < 2000; i++) {
		if (rmdir(p) == 0 || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			break;
		sleep_ms(1);
	}
	return werr(errno, "removing cgroup %s", p);
}

void cgroup_record(const struct cgroup *cg, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "%s\n", cg->path);

	for (size_t i = 0; i <= cg->n_v1 && n < len; i++) {
		const char *dir = i < cg->n_v1 ? cg->v1[i].dir : cg->unified;
		unsigned k = cg->kept[i < cg->n_v1 ? i : CG_MAX_V1];

		if (dir[0])
			n += (size_t)snprintf(buf + n, len - n, "%u %s\n", k, dir);
	}
}

int cgroup_from_record(struct cgroup *cg, const char *rec, const char *id)
{
	char path[PATH_MAX];
	size_t n = strcspn(rec, "\n");

	if (n == 0 || n >= sizeof(path) || rec[n] != '\n')
		return werr(EINVAL, "malformed cgroup record");
	memcpy(path, rec, n);
	path[n] = '\0';
	if (cgroup_init(cg, path, id) < 0)
		return -1;
	for (rec += n + 1; *rec; rec += n + (rec[n] == '\n')) {
		char *end;
		unsigned long k = strtoul(rec, &end, 10);

		n = strcspn(rec, "\n");
		if (end == rec || *end != ' ')
			return werr(EINVAL, "malformed cgroup record");
		end++;
		for (size_t i = 0; i <= cg->n_v1; i++) {
			const char *dir = i < cg->n_v1 ? cg->v1[i].dir : cg->unified;

			if (dir[0] && strlen(dir) == (size_t)(rec + n - end) &&
			    strncmp(dir, end, strlen(dir)) == 0)
				cg->kept[i < cg->n_v1 ? i : CG_MAX_V1] = (unsigned)k;
		}
	}
	return 0;
}

/* The parents create made, deepest first (the leaf is already gone). */
static void rmdir_parents(const struct cgroup *cg, const char *dir, unsigned kept)
{
	char p[PATH_MAX];
	unsigned levels = 0;
	char *slash;

	snprintf(p, sizeof(p), "%s", cg->path);
	for (const char *c = p; *c; c++)
		levels += *c == '/';
	while (--levels > kept && (slash = strrchr(p, '/')) && slash != p) {
		char full[PATH_MAX * 2];

		*slash = '\0';
		snprintf(full, sizeof(full), "%s%s", dir, p);
		if (rmdir(full) < 0)
			break;
	}
}

int cgroup_destroy(const struct cgroup *cg)
{
	pid_t *pids = NULL;
	size_t n = 0;
	int r = 0;

	/* Usually empty by now (the init is dead): no freeze round then. */
	if (cgroup_pids(cg, &pids, &n) < 0 || n > 0)
		cgroup_signal_all(cg, SIGKILL);
	free(pids);
	for (size_t i = 0; i < cg->n_v1; i++)
		if (rmdir_in(cg->v1[i].dir, cg->path) < 0)
			r = -1;
		else
			rmdir_parents(cg, cg->v1[i].dir, cg->kept[i]);
	if (cg->unified[0]) {
		if (rmdir_in(cg->unified, cg->path) < 0)
			r = -1;
		else
			rmdir_parents(cg, cg->unified, cg->kept[CG_MAX_V1]);
	}
	return r;
}
