/* The only part of the policy that looks at the host (see host_facts.h). */
#include "lib/trace.h"
#include "facts/host_facts.h"
#include "cgroup/cgroup.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "lib/xalloc.h"
#include "linux/hostns.h"
#include "linux/sysctl.h"
#include "rootfs/mount_opts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* overlay's layer options ("lowerdir=a:b", "upperdir=u", "workdir=w"), as
 * one list of paths. */
static size_t overlay_dirs(const struct oci_mount *m, char ***out)
{
	static const char *const keys[] = {"lowerdir=", "upperdir=", "workdir=", NULL};
	char **v = NULL;
	size_t n = 0;

	for (size_t i = 0; i < m->n_options; i++)
		for (size_t k = 0; keys[k]; k++) {
			const char *o = m->options[i];
			size_t kl = strlen(keys[k]);

			if (strncmp(o, keys[k], kl) != 0)
				continue;
			for (const char *p = o + kl; *p;) {
				size_t len = strcspn(p, ":");
				char **nv = realloc(v, (n + 1) * sizeof(*v));

				if (nv == NULL || (nv[n] = strndup(p, len)) == NULL) {
					v = nv ? nv : v;
					goto out;
				}
				v = nv;
				n++;
				p += len + (p[len] == ':');
			}
		}
out:
	*out = v;
	return n;
}

/* Each hook's program, opened and judged (hooks/hook_file.h); root and
 * ward's own user are the owners to trust. */
static int gather_hooks(struct host_hooks *hk, const struct oci_config *cfg,
                        const struct host_query *q, struct werror *err)
{
	const char *bundle = q->bundle;
	bool any = false;
	struct stat st;

	if (bundle && stat(bundle, &st) == 0) {
		hk->bundle = (struct hook_id){st.st_dev, st.st_ino};
		hk->has_bundle = true;
	}
	for (int p = 0; cfg->hooks && p < HOOK_POINTS; p++) {
		const struct oci_hook_list *l = &cfg->hooks->point[p];

		if (p == HOOK_START_CONTAINER || l->n == 0)
			continue;
		hk->file[p] = calloc(l->n, sizeof(*hk->file[p]));
		if (hk->file[p] == NULL)
			return werr(err, ENOMEM, "out of memory");
		hk->n[p] = l->n;
		for (size_t i = 0; i < l->n; i++)
			hk->file[p][i].fd = -1;
		for (size_t i = 0; i < l->n; i++)
			if (hook_file_open(l->hooks[i].path, geteuid(), &hk->file[p][i], err) < 0)
				return -1;
		any = true;
	}
	return any ? hooks_dirs_load(q->hooks_dirs, q->n_hooks_dirs, &hk->dirs, err) : 0;
}

/* ward's own oom_score_adj and hard limits (policy_caps.c compares the
 * config's process attributes with them). Unreadable: has stays
 * false and the rules refuse what needs them (fail closed). */
void host_limits_gather(struct host_limits *l)
{
	char buf[32] = "";
	FILE *f = fopen("/proc/self/oom_score_adj", "re");
	bool got = f && fgets(buf, sizeof(buf), f) != NULL;

	if (f)
		fclose(f);
	if (!got)
		return;
	l->oom_score_adj = atoi(buf);
	for (int r = 0; r < RLIM_NLIMITS; r++) {
		struct rlimit rl;

		if (getrlimit(r, &rl) < 0)
			return;
		l->rlimit_hard[r] = rl.rlim_max == RLIM_INFINITY ? UINT64_MAX : rl.rlim_max;
	}
	l->has = true;
}

/* What the host is and has, whatever the config names. */
static void gather_host(struct host_facts *h, const struct host_query *q, struct werror *err)
{
	_cleanup_cgroup_ struct cgroup cg = {0};

	h->cgroup_v1 = cgroup_init(&cg, NULL, "x", err) == 0 && cg.layout != CG_V2;
	h->cgroup2 = cg.unified != NULL;
	/* The kernel has it, and create sets it from the parent (in a user
	 * namespace the init cannot: linux/sysctl.h), which only the host's
	 * root may (a rootless ward, denied, goes without it under strict; a
	 * read-only /proc/sys still fails loudly at create). */
	h->memfd_noexec = access("/proc/sys/vm/memfd_noexec", F_OK) == 0 &&
	                  (access("/proc/sys/vm/memfd_noexec", W_OK) == 0 || errno != EACCES);
	h->rootless = q->rootless;
	h->userns_host = !q->rootless && !q->userns_foreign;
	h->pasta = access(PASTA_PATH, X_OK) == 0;
	host_limits_gather(&h->limits);
	if (q->judge_paths) {
		h->sensitive = xcalloc(HOST_MAX_SENSITIVE, sizeof(*h->sensitive));
		h->n_sensitive = host_sensitive_gather(h->sensitive, HOST_MAX_SENSITIVE,
		                                       q->state_root, q->rootless);
	}
}

/* Every host path the config names, opened once: root.path, the bind
 * sources, the overlay layers. all[] gets the rootfs and the binds. */
static void gather_paths(struct host_facts *h, const struct oci_config *cfg,
                         const struct host_query *q, struct host_path **all, size_t *n_all)
{
	if (cfg->n_mounts) {
		h->mounts = xcalloc(cfg->n_mounts, sizeof(*h->mounts));
		for (size_t i = 0; i < cfg->n_mounts; i++)
			h->mounts[i].fd = -1;
		h->overlay = xcalloc(cfg->n_mounts, sizeof(*h->overlay));
		h->n_overlay = xcalloc(cfg->n_mounts, sizeof(*h->n_overlay));
		h->n_mounts = cfg->n_mounts;
	}
	if (cfg->root && cfg->root->path) {
		host_path_resolve(&h->root, cfg->root->path, q->bundle, q->no_magiclinks);
		h->root.is_rootfs = true;
		all[(*n_all)++] = &h->root;
	}
	for (size_t i = 0; i < cfg->n_mounts; i++) {
		const struct oci_mount *m = &cfg->mounts[i];
		char **dirs = NULL;
		size_t nd;

		if (mount_is_bind(m) && m->source) {
			host_path_resolve(&h->mounts[i], m->source, q->bundle, q->no_magiclinks);
			all[(*n_all)++] = &h->mounts[i];
			continue;
		}
		if (m->type == NULL || strcmp(m->type, "overlay") != 0)
			continue;
		nd = overlay_dirs(m, &dirs);
		h->overlay[i] = xcalloc(nd ? nd : 1, sizeof(**h->overlay));
		h->n_overlay[i] = nd;
		for (size_t k = 0; k < nd; k++) {
			host_path_resolve(&h->overlay[i][k], dirs[k], q->bundle, q->no_magiclinks);
			free(dirs[k]);
		}
		free(dirs);
	}
}

/* The opened paths related to the sensitive ones: the rootfs and binds
 * together, then each overlay's layers, however many there are (a fixed
 * array here would leave the layers past it unchecked). */
static int relate_paths(struct host_facts *h, struct host_path **all, size_t n_all,
                        struct werror *err)
{
	if (host_paths_relate(h->sensitive, h->n_sensitive, all, n_all, err) < 0)
		return -1;
	for (size_t i = 0; i < h->n_mounts; i++) {
		size_t n = h->n_overlay[i];
		_cleanup_free_ struct host_path **v = NULL;

		if (n == 0)
			continue;
		v = xcalloc(n, sizeof(*v));
		for (size_t k = 0; k < n; k++)
			v[k] = &h->overlay[i][k];
		if (host_paths_relate(h->sensitive, h->n_sensitive, v, n, err) < 0)
			return -1;
	}
	return 0;
}

/* The namespaces the config joins by path, opened and judged once. */
static void gather_namespaces(struct host_facts *h, const struct oci_linux *l)
{
	if (l == NULL || l->n_namespaces == 0)
		return;
	h->ns_host = xcalloc(l->n_namespaces, sizeof(*h->ns_host));
	h->ns_owner = xcalloc(l->n_namespaces, sizeof(*h->ns_owner));
	h->ns_fd = xcalloc(l->n_namespaces, sizeof(*h->ns_fd));
	h->ns_err = xcalloc(l->n_namespaces, sizeof(*h->ns_err));
	h->n_ns = l->n_namespaces;
	for (size_t i = 0; i < h->n_ns; i++) {
		const struct oci_namespace *n = &l->namespaces[i];

		h->ns_fd[i] = -1;
		if (!n->path || !n->path[0])
			continue;
		h->ns_fd[i] = ns_open_judged(n->path, n->flag, &h->ns_owner[i]);
		h->ns_err[i] = h->ns_fd[i] < 0 ? errno : 0;
		h->ns_host[i] = h->ns_owner[i] == NS_OWNER_HOST;
	}
}

int host_facts_gather(struct host_facts *h, const struct oci_config *cfg,
                      const struct host_query *q, struct werror *err)
{
	/* The list of paths to relate holds root.path besides the mounts: it
	 * is needed with no mounts at all (absent, null and [] are valid). */
	_cleanup_free_ struct host_path **all = xcalloc(cfg->n_mounts + 1, sizeof(*all));
	size_t n_all = 0;

	memset(h, 0, sizeof(*h));
	h->root.fd = -1;
	gather_host(h, q, err);
	trace_mark("facts: the host's (cgroups, limits, sensitive paths)");
	gather_paths(h, cfg, q, all, &n_all);
	trace_mark("facts: the config's paths opened");
	if (q->judge_paths && relate_paths(h, all, n_all, err) < 0)
		goto fail;
	trace_mark("facts: paths related");
	gather_namespaces(h, cfg->linux);
	if (gather_hooks(&h->hooks, cfg, q, err) < 0)
		goto fail;
	return 0;
fail:
	host_facts_free(h);
	return -1;
}

void host_facts_free(struct host_facts *h)
{
	host_path_close(&h->root);
	for (size_t i = 0; i < h->n_mounts; i++) {
		host_path_close(&h->mounts[i]);
		for (size_t k = 0; h->overlay && k < h->n_overlay[i]; k++)
			host_path_close(&h->overlay[i][k]);
		if (h->overlay)
			free(h->overlay[i]);
	}
	free(h->overlay);
	free(h->n_overlay);
	free(h->mounts);
	for (size_t i = 0; h->ns_fd && i < h->n_ns; i++)
		if (h->ns_fd[i] >= 0)
			close(h->ns_fd[i]);
	free(h->ns_host);
	free(h->ns_owner);
	free(h->ns_fd);
	free(h->ns_err);
	for (int p = 0; p < HOOK_POINTS; p++) {
		for (size_t i = 0; i < h->hooks.n[p]; i++)
			hook_file_close(&h->hooks.file[p][i]);
		free(h->hooks.file[p]);
	}
	hooks_dirs_free(&h->hooks.dirs);
	host_sensitive_free(h->sensitive, h->n_sensitive);
	/* Empty again, as host_facts_gather starts it: freeing twice (or a
	 * struct never gathered, in a POLICY_RUN_INIT) must not close fd 0. */
	memset(h, 0, sizeof(*h));
	h->root.fd = -1;
}
