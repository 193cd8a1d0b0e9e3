/* OCI hooks directories (see hooks_dir.h). */
#include "hooks/hooks_dir.h"
#include "hooks/hook_file.h"
#include "hooks/hooks.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "lib/jwalk.h"
#include "lib/log.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Bounds: a hooks directory holds a handful of small files. Past them the
 * rest is not read, so nothing more is vouched for. */
#define MAX_FILES     1024
#define MAX_FILE_SIZE (256 * 1024)

static void entry_free(struct hooks_dir_entry *e)
{
	free(e->file);
	free(e->path);
	jfree_strv(e->args);
	jfree_strv(e->env);
}

/* A string array member, or none: 0; anything else: -1. */
static int strv(yajl_val obj, const char *key, char ***out, size_t *n, struct werror *err)
{
	const char *k[] = {key, NULL};
	yajl_val v = yajl_tree_get(obj, k, yajl_t_any);
	struct jpath p = {NULL, key, 0};

	*out = NULL;
	*n = 0;
	if (v == NULL)
		return 0;
	return jget_strv(v, &p, false, out, n, err);
}

/* One file's entry, decoded; -1 (werr) when it is not a version 1.0.0
 * entry with a hook path and known stages. */
static int decode(yajl_val t, struct hooks_dir_entry *e, struct werror *err)
{
	const char *kv[] = {"version", NULL}, *kh[] = {"hook", NULL}, *kp[] = {"path", NULL},
	           *ks[] = {"stages", NULL};
	yajl_val ver = yajl_tree_get(t, kv, yajl_t_string);
	yajl_val hook = yajl_tree_get(t, kh, yajl_t_object);
	yajl_val path = hook ? yajl_tree_get(hook, kp, yajl_t_string) : NULL;
	yajl_val st = yajl_tree_get(t, ks, yajl_t_array);

	if (!ver || strcmp(ver->u.string, "1.0.0") != 0)
		return werr(err, 0, "not a version 1.0.0 hook");
	if (!path || !st)
		return werr(err, 0, "no hook.path or stages");
	e->path = strdup(path->u.string);
	if (e->path == NULL)
		return werr(err, ENOMEM, "out of memory");
	if (strv(hook, "args", &e->args, &e->n_args, err) < 0 ||
	    strv(hook, "env", &e->env, &e->n_env, err) < 0)
		return -1;
	for (size_t i = 0; i < st->u.array.len; i++) {
		yajl_val s = st->u.array.values[i];
		int p;

		for (p = 0; p < HOOK_POINTS; p++)
			if (YAJL_IS_STRING(s) &&
			    strcmp(s->u.string, hooks_point_name((enum oci_hook_point)p)) == 0)
				break;
		if (p == HOOK_POINTS)
			return werr(err, 0, "unknown stage");
		e->stages |= 1u << p;
	}
	return 0;
}

/* Read and decode dir/name into d (a new entry); a file that cannot be
 * trusted or decoded is skipped (debug line). */
static int load_file(const char *dir, const char *name, struct hooks_dirs *d, struct werror *err)
{
	char abs[PATH_MAX];
	struct hook_text txt;
	struct hooks_dir_entry e = {0}, *grown;
	yajl_val t;
	int r;

	if (snprintf(abs, sizeof(abs), "%s/%s", dir, name) >= (int)sizeof(abs))
		return 0;
	if (hook_file_read(abs, "hooks file", abs, MAX_FILE_SIZE, false, &txt, err) < 0) {
		log_debug("%s", werr_msg(err));
		return 0;
	}
	t = jparse_document(txt.text, txt.len, 16, abs, err);
	free(txt.text);
	if (t == NULL) {
		log_debug("%s", werr_msg(err));
		return 0;
	}
	r = YAJL_IS_OBJECT(t) ? decode(t, &e, err) : werr(err, 0, "not a JSON object");
	yajl_tree_free(t);
	if (r == 0)
		e.file = strdup(abs);
	if (r < 0 || e.file == NULL) {
		int oom = r == 0 || werr_errno(err) == ENOMEM;

		if (!oom)
			log_debug("hooks file %s: skipped: %s", abs, werr_msg(err));
		entry_free(&e);
		return oom ? werr(err, ENOMEM, "out of memory") : 0;
	}
	grown = realloc(d->e, (d->n + 1) * sizeof(*d->e));
	if (grown == NULL) {
		entry_free(&e);
		return werr(err, ENOMEM, "out of memory");
	}
	d->e = grown;
	d->e[d->n++] = e;
	return 0;
}

/* File names a later directory already has: Podman's rule, a file in a
 * later directory overrides one of the same name in an earlier one (an
 * operator's /etc entry withdraws or replaces the package's). */
struct taken {
	char **v;
	size_t n;
};

static bool take(struct taken *t, const char *name, bool *oom)
{
	char **v;

	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->v[i], name) == 0)
			return false;
	v = realloc(t->v, (t->n + 1) * sizeof(*v));
	if (v == NULL || (v[t->n] = strdup(name)) == NULL) {
		if (v)
			t->v = v;
		*oom = true;
		return false;
	}
	t->v = v;
	t->n++;
	return true;
}

static int load_dir(const char *dir, struct hooks_dirs *d, size_t *files, struct taken *t,
                    struct werror *err)
{
	bool oom = false;
	_cleanup_hook_file_ struct hook_file hf = {.fd = -1};
	_cleanup_close_ int fd = -1;
	char self[64];
	struct dirent *de;
	struct stat st;
	DIR *ds = NULL;
	int r = 0;

	if (hook_file_open(dir, geteuid(), &hf, err) < 0)
		return -1;
	if (hf.fd < 0 || hf.untrusted[0] || !S_ISDIR(hf.st.st_mode)) {
		if (hf.fd >= 0)
			log_debug("hooks directory %s: skipped: %s", dir,
			          hf.untrusted[0] ? hf.untrusted : "not a directory");
		return 0;
	}
	/* Listed from the judged directory itself. */
	snprintf(self, sizeof(self), "/proc/self/fd/%d", hf.fd);
	fd = open(self, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0 || st.st_ino != hf.st.st_ino ||
	    st.st_dev != hf.st.st_dev || (ds = fdopendir(fd)) == NULL)
		return 0;
	TAKE_FD(fd); /* closedir() closes it */
	while (r == 0 && (de = readdir(ds)) != NULL) {
		size_t l = strlen(de->d_name);

		if (l < 6 || strcmp(de->d_name + l - 5, ".json") != 0)
			continue;
		if (++*files > MAX_FILES) {
			log_debug("hooks directory %s: more than %d files, the rest not read", dir,
			          MAX_FILES);
			break;
		}
		if (take(t, de->d_name, &oom))
			r = load_file(dir, de->d_name, d, err);
		else if (oom)
			r = werr(err, ENOMEM, "out of memory");
	}
	closedir(ds);
	return r;
}

int hooks_dirs_load(const char *const *dirs, size_t n_dirs, struct hooks_dirs *out,
                    struct werror *err)
{
	struct taken t = {0};
	size_t files = 0;
	int r = 0;

	*out = (struct hooks_dirs){0};
	/* The last directory first: its names override the earlier ones'. */
	for (size_t i = n_dirs; r == 0 && i-- > 0;)
		if (dirs[i][0] == '/')
			r = load_dir(dirs[i], out, &files, &t, err);
	for (size_t i = 0; i < t.n; i++)
		free(t.v[i]);
	free(t.v);
	if (r < 0)
		hooks_dirs_free(out);
	return r;
}

static bool same_strv(char **a, size_t na, char **b, size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++)
		if (strcmp(a[i], b[i]) != 0)
			return false;
	return true;
}

const char *hooks_dirs_vouch(const struct hooks_dirs *d, enum oci_hook_point point,
                             const struct oci_hook *h)
{
	for (size_t i = 0; d && i < d->n; i++) {
		const struct hooks_dir_entry *e = &d->e[i];

		if ((e->stages & (1u << point)) && strcmp(e->path, h->path) == 0 &&
		    same_strv(e->args, e->n_args, h->args, h->n_args) &&
		    same_strv(e->env, e->n_env, h->env, h->n_env))
			return e->file;
	}
	return NULL;
}

void hooks_dirs_free(struct hooks_dirs *d)
{
	for (size_t i = 0; i < d->n; i++)
		entry_free(&d->e[i]);
	free(d->e);
	*d = (struct hooks_dirs){0};
}
