/* Refusals: hooks, the programs a config has ward run as root in the host's
 * namespaces: decided on the program each was opened to (host facts). */
#include "hooks/hooks.h"
#include "hooks/hooks_dir.h"
#include "oci/config_edit.h"
#include "lib/cleanup.h"
#include "lib/xalloc.h"
#include "policy/rules.h"
#include "rootfs/mount_opts.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>

static bool holds(const struct hook_file *f, const struct stat *st)
{
	for (size_t i = 0; i < f->n_up; i++)
		if (f->up[i].dev == st->st_dev && f->up[i].ino == st->st_ino)
			return true;
	return false;
}

/* Why the hook at .hooks.<point>[i] must not run, NULL if it may. */
static const char *hook_problem(const struct policy_ctx *x, enum oci_hook_point point, size_t i,
                                char *buf, size_t len, struct werror *err)
{
	const struct host_facts *h = x->facts;
	const struct hook_file *f;

	if (point == HOOK_START_CONTAINER)
		return "is a startContainer hook: a program of the container's own filesystem, "
		       "which ward would run before the container's seccomp filter";
	if (i >= h->hooks.n[point])
		return "was not looked at on the host";
	f = &h->hooks.file[point][i];
	if (f->err) {
		snprintf(buf, len, "does not resolve on the host (%s)", strerror(f->err));
		return buf;
	}
	if (!S_ISREG(f->st.st_mode))
		return "is not a regular file";
	if (f->untrusted[0]) {
		snprintf(buf, len, "could be changed by others than root: %s", f->untrusted);
		return buf;
	}
	if (h->hooks.has_bundle) {
		struct stat b = {.st_dev = h->hooks.bundle.dev, .st_ino = h->hooks.bundle.ino};

		if (holds(f, &b))
			return "is inside the bundle";
	}
	if (h->root.resolved && holds(f, &h->root.st))
		return "is inside the container's root filesystem";
	for (size_t k = 0; k < x->cfg->n_mounts && k < h->n_mounts; k++) {
		const struct oci_mount *m = &x->cfg->mounts[k];

		if (mount_is_bind(m) && h->mounts[k].resolved && !mount_is_read_only(m, err) &&
		    holds(f, &h->mounts[k].st)) {
			snprintf(buf, len,
			         "is inside %s, which mounts[%zu] lets the container write",
			         h->mounts[k].real, k);
			return buf;
		}
		/* An overlay's layers: the upper one is what the container
		 * writes, the lower ones an image's files. */
		for (size_t j = 0; h->overlay && h->n_overlay && j < h->n_overlay[k]; j++)
			if (h->overlay[k][j].resolved && holds(f, &h->overlay[k][j].st)) {
				snprintf(buf, len, "is inside %s, a layer of mounts[%zu]",
				         h->overlay[k][j].real, k);
				return buf;
			}
	}
	return NULL;
}

int policy_refuse_hooks(struct policy_ctx *x, struct werror *err)
{
	const struct oci_hooks *hk = x->cfg->hooks;

	for (int p = 0; hk && p < HOOK_POINTS; p++)
		for (size_t i = 0; i < hk->point[p].n; i++) {
			const char *path = hk->point[p].hooks[i].path;
			/* The opt-out's name whole: a cut one would be another's. */
			_cleanup_free_ char *opt = xasprintf("hook:%s", path);
			char field[96], buf[PATH_MAX + 256];
			const char *why;

			snprintf(field, sizeof(field), ".hooks.%s[%zu].path",
			         hooks_point_name((enum oci_hook_point)p), i);
			if (policy_optout(x, opt))
				continue;
			why = hook_problem(x, (enum oci_hook_point)p, i, buf, sizeof(buf), err);
			if (why == NULL && x->profile == PROFILE_STRICT &&
			    !policy_hook_listed(x->pol, path))
				why = "is not in the policy's \"hooks\" (strict runs only those)";
			/* A root program is only as safe as what it is told to do: a
			 * sound /bin/sh with "-c ..." from the config is host root.
			 * So the operator must vouch for the program (the policy's
			 * "hooks") or for the whole hook (a hooks directory's entry
			 * with the same args and env). */
			if (why == NULL && x->profile == PROFILE_BASELINE &&
			    !policy_hook_listed(x->pol, path) &&
			    !hooks_dirs_vouch(&x->facts->hooks.dirs, (enum oci_hook_point)p,
			                      &hk->point[p].hooks[i]))
				why = "would run as root doing what the config says, and nobody "
				      "vouches for it: it is not in the policy's \"hooks\", and no "
				      "OCI "
				      "hooks directory (\"hooksDirs\") has it with these args and "
				      "env";
			if (why && policy_refuse(x, field, opt, "%s %s", path, why) < 0)
				return -1;
		}
	return 0;
}
