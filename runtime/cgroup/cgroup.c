#include "cgroup/cgroup.h"
#include "lib/strfmt.h"
#include "cgroup/cg_files.h"
#include "cgroup/cg_systemd.h"
#include "lib/error.h"
#include "lib/xalloc.h"
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
#include <sys/wait.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#define CG_ROOT "/sys/fs/cgroup"

/* A hierarchy found: its strings; no directory open yet. */
static int hier_set(struct cg_hier *h, const char *mnt, const char *opts, struct werror *err)
{
	*h = (struct cg_hier){.fd = -1, .kept = UINT32_MAX}; /* kept unknown: the leaf only */
	h->mnt = strdup(mnt);
	h->opts = strdup(opts);
	return h->mnt && h->opts ? 0 : werr(err, ENOMEM, "out of memory");
}

static void hier_free(struct cg_hier *h)
{
	if (h->fd >= 0)
		close(h->fd);
	free(h->mnt);
	free(h->opts);
	free(h->name);
}

static int add_v1(struct cgroup *cg, const char *target, const char *o, struct werror *err)
{
	char opts[256] = "";
	struct cg_hier *v = realloc(cg->v1, (cg->n_v1 + 1) * sizeof(*v));

	if (v == NULL)
		return werr(err, ENOMEM, "out of memory");
	cg->v1 = v;
	/* Keep the controller names, drop rw/ro and other flags. */
	for (const char *p = o ? o : ""; *p;) {
		size_t n = strcspn(p, ",");

		if (!(n == 2 && (strncmp(p, "rw", 2) == 0 || strncmp(p, "ro", 2) == 0)) &&
		    strlen(opts) + n + 2 < sizeof(opts)) {
			if (opts[0])
				strcat(opts, ",");
			strncat(opts, p, n);
		}
		p += n + (p[n] == ',');
	}
	return hier_set(&cg->v1[cg->n_v1++], target, opts, err);
}

static int set_unified(struct cgroup *cg, const char *target, struct werror *err)
{
	if (cg->unified)
		hier_free(cg->unified); /* the last cgroup2 mount wins */
	else if ((cg->unified = malloc(sizeof(*cg->unified))) == NULL)
		return werr(err, ENOMEM, "out of memory");
	return hier_set(cg->unified, target, "", err);
}

static int find_hierarchies(struct cgroup *cg, struct werror *err)
{
	struct libmnt_table *tb = mnt_new_table_from_file("/proc/self/mountinfo");
	struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs;
	int r = 0;

	while (r == 0 && tb && it && mnt_table_next_fs(tb, it, &fs) == 0) {
		const char *type = mnt_fs_get_fstype(fs), *target = mnt_fs_get_target(fs);

		if (!type || !target || strncmp(target, CG_ROOT, strlen(CG_ROOT)) != 0)
			continue;
		if (strcmp(type, "cgroup2") == 0)
			r = set_unified(cg, target, err);
		else if (strcmp(type, "cgroup") == 0 && cg->n_v1 < CG_MAX_V1)
			r = add_v1(cg, target, mnt_fs_get_fs_options(fs), err);
	}
	mnt_free_iter(it);
	mnt_unref_table(tb);
	return r;
}

const struct cg_hier *cg_v1(const struct cgroup *cg, const char *controller)
{
	size_t len = strlen(controller);

	for (size_t i = 0; i < cg->n_v1; i++)
		for (const char *p = cg->v1[i].opts; *p;) {
			size_t n = strcspn(p, ",");

			if (n == len && strncmp(p, controller, n) == 0)
				return &cg->v1[i];
			p += n + (p[n] == ',');
		}
	return NULL;
}

/* Is controller name listed in the cgroup2 root's cgroup.controllers? */
static bool v2_has(const struct cgroup *cg, const char *name, struct werror *err)
{
	char f[PATH_MAX + 32], buf[512];
	size_t len = strlen(name);

	if (!cg->unified)
		return false;
	if (fmt_fit(f, sizeof(f), "%s/cgroup.controllers", cg->unified->mnt) < 0 ||
	    cg_read_at(AT_FDCWD, f, buf, sizeof(buf), err) < 0)
		return false;
	for (char *p = buf; *p;) {
		size_t n = strcspn(p, " \n");

		if (n == len && strncmp(p, name, n) == 0)
			return true;
		p += n + (p[n] != '\0');
	}
	return false;
}

const struct cg_hier *cg_controller(const struct cgroup *cg, const char *v1, const char *v2,
                                    bool *is_v2, struct werror *err)
{
	const struct cg_hier *d = cg->layout == CG_V2 ? NULL : cg_v1(cg, v1);

	*is_v2 = false;
	if (d)
		return d;
	/* Pure v2: always cgroup2 (a missing controller then fails on its
	 * file, naming it). Hybrid/v1: only a controller cgroup2 runs. */
	if (v2 && cg->unified && (cg->layout == CG_V2 || v2_has(cg, v2, err))) {
		*is_v2 = true;
		return cg->unified;
	}
	return NULL;
}

/* A cgroup path: absolute, plain names, no "." or "..": it is joined to
 * host directories. systemd's "slice:prefix:name" is the systemd driver's
 * (cgroup_init_systemd). */
static int set_path(struct cgroup *cg, const char *p, const char *id, struct werror *err)
{
	char buf[PATH_MAX], path[PATH_MAX] = "";
	size_t len = 0;

	if (p == NULL || p[0] == '\0') {
		if (fmt_fit(path, sizeof(path), "/ward/%s", id) < 0)
			return werr(err, ENAMETOOLONG, "/ward/%s", id);
	} else {
		if (strchr(p, ':'))
			return werr_k(err, WERR_INVALID, 0,
			              "config.json: .linux.cgroupsPath \"%s\": systemd's "
			              "slice:prefix:name form needs the systemd cgroup manager: "
			              "ward's global --systemd-cgroup, or the policy's "
			              "\"cgroupManager\": \"systemd\"",
			              p);
		if (fmt_fit(buf, sizeof(buf), "%s%s", p[0] == '/' ? "" : "/ward/", p) < 0)
			return werr_k(err, WERR_INVALID, ENAMETOOLONG,
			              "config.json: .linux.cgroupsPath: longer than a path can be");
		for (char *save = NULL, *t = strtok_r(buf, "/", &save); t;
		     t = strtok_r(NULL, "/", &save)) {
			if (strcmp(t, ".") == 0 || strcmp(t, "..") == 0)
				return werr_k(err, WERR_INVALID, 0,
				              "config.json: .linux.cgroupsPath \"%s\": no \".\" or "
				              "\"..\"",
				              p);
			len += (size_t)snprintf(path + len, sizeof(path) - len, "/%s", t);
		}
		if (len == 0)
			return werr_k(err, WERR_INVALID, 0,
			              "config.json: .linux.cgroupsPath \"%s\": the root cgroup is "
			              "not the container's to take",
			              p);
	}
	cg->path = strdup(path);
	return cg->path ? 0 : werr(err, ENOMEM, "out of memory");
}

int cgroup_init(struct cgroup *cg, const char *cgroups_path, const char *id, struct werror *err)
{
	struct cg_hier *h;
	struct statfs sfs;

	memset(cg, 0, sizeof(*cg));
	if (statfs(CG_ROOT, &sfs) < 0)
		return werr(err, errno, CG_ROOT);
	if (find_hierarchies(cg, err) < 0)
		return -1;
	if (sfs.f_type == CGROUP2_SUPER_MAGIC)
		cg->layout = CG_V2;
	else
		cg->layout = cg->unified ? CG_HYBRID : CG_V1;
	if (cg->layout != CG_V2 && cg->n_v1 == 0)
		return werr(err, ENOENT, "no cgroup hierarchy found under " CG_ROOT);
	if (set_path(cg, cgroups_path, id, err) < 0)
		return -1;
	for (size_t i = 0; (h = cg_nth(cg, i)) != NULL; i++) {
		size_t n = strlen(h->mnt) + strlen(cg->path) + 1;

		/* Its directory is opened by this name later (by delete too): a
		 * path that fits only without the mount point would make a
		 * cgroup nothing can open, signal or remove again. */
		if (n > PATH_MAX)
			return werr_k(err, WERR_INVALID, ENAMETOOLONG,
			              "config.json: .linux.cgroupsPath: longer than a path can be "
			              "below %s",
			              h->mnt);
		h->name = xmalloc(n);
		snprintf(h->name, n, "%s%s", h->mnt, cg->path);
	}
	return 0;
}

int cgroup_init_systemd(struct cgroup *cg, const char *cgroups_path, const char *id,
                        struct werror *err)
{
	char path[PATH_MAX], unit[SD_UNIT_MAX], slice[SD_UNIT_MAX];

	memset(cg, 0, sizeof(*cg));
	if (sd_parse_path(cgroups_path, id, path, sizeof(path), unit, sizeof(unit), slice,
	                  sizeof(slice), err) < 0 ||
	    cgroup_init(cg, path, id, err) < 0)
		return -1;
	cg->unit = strdup(unit);
	cg->slice = strdup(slice);
	return cg->unit && cg->slice ? 0 : werr(err, ENOMEM, "out of memory");
}

/* The cgroup's directory in every hierarchy, as it is now. */
static void open_dirs(const struct cgroup *cg)
{
	struct cg_hier *h;

	for (size_t i = 0; (h = cg_nth(cg, i)) != NULL; i++)
		if (h->fd < 0) {
			h->fd = open(h->name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			h->err = h->fd < 0 ? errno : 0;
		}
}

int cgroup_open(struct cgroup *cg, const char *cgroups_path, const char *id, struct werror *err)
{
	if (cgroup_init(cg, cgroups_path, id, err) < 0)
		return -1;
	open_dirs(cg);
	return 0;
}

void cgroup_close_fds(const struct cgroup *cg)
{
	struct cg_hier *h;

	for (size_t i = 0; (h = cg_nth(cg, i)) != NULL; i++)
		if (h->fd >= 0)
			close(h->fd);
}

void cgroup_free(struct cgroup *cg)
{
	int e = errno; /* a cleanup keeps the error being returned */
	struct cg_hier *h;

	/* Whichever manager: no holder outlives the handle. */
	cg_holder_end(&cg->holder);
	for (size_t i = 0; (h = cg_nth(cg, i)) != NULL; i++)
		hier_free(h);
	free(cg->v1);
	free(cg->unified);
	free(cg->path);
	free(cg->unit);
	free(cg->slice);
	memset(cg, 0, sizeof(*cg));
	errno = e;
}

int cgroup_unified_fd(const struct cgroup *cg, struct werror *err)
{
	const struct cg_hier *h = cg->unified;
	int fd;

	if (h == NULL)
		return -1;
	if (h->fd < 0)
		return werr(err, h->err ? h->err : EBADF, "%s", h->name);
	fd = fcntl(h->fd, F_DUPFD_CLOEXEC, 0);
	return fd < 0 ? werr(err, errno, "%s", h->name) : fd;
}

/* The hierarchy whose cgroup.procs lists the container's processes. */
const struct cg_hier *cg_main_hier(const struct cgroup *cg)
{
	if (cg->layout == CG_V2)
		return cg->unified;
	return cg_v1(cg, "pids") ? cg_v1(cg, "pids") : &cg->v1[0];
}

bool cgroup_alive(const struct cgroup *cg)
{
	const struct cg_hier *h = cg_main_hier(cg);

	return !cg->stale && h && h->fd >= 0;
}

/* A recorded cgroup whose directory is now another one is not touched:
 * its fds are closed (as if gone) and it is marked stale. */
static void verify_identity(struct cgroup *cg, struct werror *err)
{
	const struct cg_hier *h = cg_main_hier(cg);
	struct cg_hier *x;
	struct stat st;

	/* Recorded before systemd made the scope (create was killed then):
	 * the unit of that name is taken for the container's only once
	 * nothing lives in it. The holder dies with ward (PDEATHSIG); an
	 * empty scope of another's loses nothing by being stopped, and
	 * systemd may keep an emptied scope running (seen with systemd 252
	 * when the holder died just after the scope started). */
	if (cg->unit && cg->pending) {
		if (!cg_settles_empty(cg->unified, 2000, err))
			goto stale;
		return;
	}
	if (cg->ino == 0 || h == NULL || h->fd < 0)
		return;
	if (fstat(h->fd, &st) == 0 && (unsigned long long)st.st_ino == cg->ino)
		return;
	log_debug("cgroup %s is no longer the container's: left alone", cg->path);
stale:
	cg->stale = true;
	for (size_t i = 0; (x = cg_nth(cg, i)) != NULL; i++)
		if (x->fd >= 0) {
			close(x->fd);
			x->fd = -1;
			x->err = ESTALE;
		}
}

void cgroup_record(const struct cgroup *cg, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "%s\n", cg->path);
	const struct cg_hier *h;

	for (size_t i = 0; (h = cg_nth(cg, i)) != NULL && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%u %s\n", h->kept, h->mnt);
	if (cg->shared && n < len)
		n += (size_t)snprintf(buf + n, len - n, "shared\n");
	if (cg->unit && n < len)
		n += (size_t)snprintf(buf + n, len - n, "unit %s\n", cg->unit);
	if (cg->pending && n < len)
		n += (size_t)snprintf(buf + n, len - n, "pending\n");
	if (cg->ino && n < len)
		snprintf(buf + n, len - n, "ino %llu\n", cg->ino);
}

int cgroup_pin(struct cgroup *cg, struct werror *err)
{
	const struct cg_hier *h = cg_main_hier(cg);
	struct stat st;

	if (h == NULL || h->fd < 0 || fstat(h->fd, &st) < 0)
		return werr(err, h && h->fd < 0 ? h->err : errno, "cgroup %s", cg->path);
	cg->ino = (unsigned long long)st.st_ino;
	cg->pending = false;
	return 0;
}

int cgroup_from_record(struct cgroup *cg, const char *rec, const char *id, struct werror *err)
{
	char path[PATH_MAX];
	size_t n = strcspn(rec, "\n");
	struct cg_hier *h;

	if (n == 0 || n >= sizeof(path) || rec[n] != '\n') {
		memset(cg, 0, sizeof(*cg));
		return werr(err, EINVAL, "malformed cgroup record");
	}
	memcpy(path, rec, n);
	path[n] = '\0';
	if (cgroup_init(cg, path, id, err) < 0)
		return -1;
	for (rec += n + 1; *rec; rec += n + (rec[n] == '\n')) {
		char *end;
		unsigned long k = strtoul(rec, &end, 10);

		n = strcspn(rec, "\n");
		if (n == 6 && strncmp(rec, "shared", 6) == 0) {
			cg->shared = true;
			continue;
		}
		if (n == 7 && strncmp(rec, "pending", 7) == 0) {
			cg->pending = true;
			continue;
		}
		if (n > 4 && strncmp(rec, "ino ", 4) == 0) {
			cg->ino = strtoull(rec + 4, NULL, 10);
			continue;
		}
		if (n > 5 && strncmp(rec, "unit ", 5) == 0) {
			free(cg->unit);
			if ((cg->unit = strndup(rec + 5, n - 5)) == NULL)
				return werr(err, ENOMEM, "out of memory");
			continue;
		}
		if (end == rec || *end != ' ')
			return werr(err, EINVAL, "malformed cgroup record");
		end++;
		for (size_t i = 0; (h = cg_nth(cg, i)) != NULL; i++)
			if (strlen(h->mnt) == (size_t)(rec + n - end) &&
			    strncmp(h->mnt, end, strlen(h->mnt)) == 0)
				h->kept = (unsigned)k;
	}
	open_dirs(cg);
	verify_identity(cg, err);
	return 0;
}
