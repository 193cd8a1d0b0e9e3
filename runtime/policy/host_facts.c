/* The only part of the policy that looks at the host (see host_facts.h). */
#include "policy/host_facts.h"
#include "cgroup/cgroup.h"
#include "lib/error.h"
#include "linux/hostns.h"
#include "rootfs/mount_opts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const host_engine_socket_paths[] = {
    "/run/docker.sock",        "/var/run/docker.sock",         "/run/containerd/containerd.sock",
    "/run/podman/podman.sock", "/run/crio/crio.sock",          "/var/run/crio/crio.sock",
    "/run/dockershim.sock",    "/run/buildkit/buildkitd.sock", NULL};
const char *const host_engine_socket_names[] = {"docker.sock", "containerd.sock", "podman.sock",
                                                "crio.sock",   "dockershim.sock", NULL};

/* realpath() of a config path (relative ones from the bundle), then stat. */
static void resolve(struct host_path *p, const char *path, const char *bundle)
{
	char joined[PATH_MAX * 2];

	memset(p, 0, sizeof(*p));
	if (path[0] != '/' && bundle) {
		snprintf(joined, sizeof(joined), "%s/%s", bundle, path);
		path = joined;
	}
	p->resolved = realpath(path, p->real) != NULL && stat(p->real, &p->st) == 0;
}

int host_facts_gather(struct host_facts *h, const struct oci_config *cfg, const char *bundle)
{
	const struct oci_linux *l = cfg->linux;
	_cleanup_cgroup_ struct cgroup cg = {0};

	memset(h, 0, sizeof(*h));
	h->cgroup_v1 = cgroup_init(&cg, NULL, "x") == 0 && cg.layout != CG_V2;
	if (cfg->root && cfg->root->path)
		resolve(&h->root, cfg->root->path, bundle);
	if (cfg->n_mounts) {
		h->mounts = calloc(cfg->n_mounts, sizeof(*h->mounts));
		if (h->mounts == NULL)
			return werr(ENOMEM, "out of memory");
		h->n_mounts = cfg->n_mounts;
	}
	for (size_t i = 0; i < cfg->n_mounts; i++) {
		const struct oci_mount *m = &cfg->mounts[i];

		if (mount_is_bind(m) && m->source)
			resolve(&h->mounts[i], m->source, bundle);
	}
	if (l && l->n_namespaces) {
		h->ns_host = calloc(l->n_namespaces, sizeof(*h->ns_host));
		if (h->ns_host == NULL) {
			host_facts_free(h);
			return werr(ENOMEM, "out of memory");
		}
		h->n_ns = l->n_namespaces;
	}
	for (size_t i = 0; i < h->n_ns; i++) {
		const struct oci_namespace *n = &l->namespaces[i];

		h->ns_host[i] = n->path && n->path[0] && ns_is_hosts(n->path, n->flag);
	}
	for (size_t i = 0; host_engine_socket_paths[i] && h->n_sockets < HOST_MAX_SOCKETS; i++) {
		struct host_socket *s = &h->sockets[h->n_sockets];
		struct stat st;

		if (stat(host_engine_socket_paths[i], &st) < 0 || !S_ISSOCK(st.st_mode))
			continue;
		snprintf(s->path, sizeof(s->path), "%s", host_engine_socket_paths[i]);
		s->dev = st.st_dev;
		s->ino = st.st_ino;
		h->n_sockets++;
	}
	return 0;
}

void host_facts_free(struct host_facts *h)
{
	free(h->mounts);
	free(h->ns_host);
	memset(h, 0, sizeof(*h));
}
