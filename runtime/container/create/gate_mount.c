/* The DNS gate's resolv.conf in the container (gate_mount.h). It is
 * convenience, not the defence: a container that asks another resolver is
 * refused by the egress programs (no rule allows the upstream's address). */
#include "container/create/gate_mount.h"
#include "lib/error.h"
#include "net/gate_conf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int gate_mount_add(int dirfd, const struct oci_config **cfg, const struct host_facts **facts,
                   struct gate_mount *g, struct werror *err)
{
	static const char *const opts[] = {"bind", "ro", "nosuid", "nodev", "noexec"};
	const struct oci_config *c = *cfg;
	const struct host_facts *h = *facts;
	size_t n = c->n_mounts;
	struct host_path *p;

	memset(g, 0, sizeof(*g));
	g->mounts = calloc(n + 1, sizeof(*g->mounts));
	g->paths = calloc(n + 1, sizeof(*g->paths));
	g->n_overlay = calloc(n + 1, sizeof(*g->n_overlay));
	if (g->mounts == NULL || g->paths == NULL || g->n_overlay == NULL) {
		gate_mount_free(g);
		return werr(err, ENOMEM, "out of memory");
	}
	/* The facts' entries follow the config's (one each); past them, none. */
	for (size_t i = 0; i < n && i < h->n_mounts; i++) {
		g->paths[i] = h->mounts[i];
		g->n_overlay[i] = h->n_overlay ? h->n_overlay[i] : 0;
	}
	for (size_t i = h->n_mounts; i < n; i++)
		g->paths[i].fd = -1;
	memcpy(g->mounts, c->mounts, n * sizeof(*g->mounts));
	p = &g->paths[n];
	p->fd = openat(dirfd, GATE_RESOLV_FILE, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (p->fd < 0 || fstat(p->fd, &p->st) < 0 || !S_ISREG(p->st.st_mode)) {
		gate_mount_free(g);
		return werr(err, errno ? errno : EINVAL, "the DNS gate's resolv.conf");
	}
	p->resolved = true;
	snprintf(p->real, sizeof(p->real), "(the DNS gate's resolv.conf)");
	for (size_t i = 0; i < 5; i++)
		g->opts[i] = (char *)opts[i];
	g->mounts[n] = (struct oci_mount){.destination = "/etc/resolv.conf",
	                                  .type = "bind",
	                                  .source = p->real,
	                                  .options = g->opts,
	                                  .n_options = 5};
	g->cfg = *c;
	g->cfg.mounts = g->mounts;
	g->cfg.n_mounts = n + 1;
	g->facts = *h;
	g->facts.mounts = g->paths;
	g->facts.n_mounts = n + 1;
	g->facts.n_overlay = g->n_overlay;
	*cfg = &g->cfg;
	*facts = &g->facts;
	return 0;
}

void gate_mount_free(struct gate_mount *g)
{
	if (g->paths && g->cfg.n_mounts && g->paths[g->cfg.n_mounts - 1].fd >= 0)
		close(g->paths[g->cfg.n_mounts - 1].fd);
	free(g->mounts);
	free(g->paths);
	free(g->n_overlay);
	memset(g, 0, sizeof(*g));
}
