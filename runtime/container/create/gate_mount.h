/* The DNS gate's resolv.conf in the container: one more bind mount, after
 * the config's, of the state dir's resolv.conf (net/gate_conf.h) over
 * /etc/resolv.conf, read-only. It is mounted by the init with the config's
 * mounts (so Landlock's ruleset, built from the mount table, sees it), from
 * an fd opened here, as every bind source is. */
#ifndef WARD_CONTAINER_GATE_MOUNT_H
#define WARD_CONTAINER_GATE_MOUNT_H

#include "lib/error.h"

#include "facts/host_facts.h"
#include "oci/config.h"

/* The config and facts with the gate's mount added: shallow copies, with
 * their own mount arrays. */
struct gate_mount {
	struct oci_config cfg;
	struct host_facts facts;
	struct oci_mount *mounts;
	struct host_path *paths;
	size_t *n_overlay;
	char *opts[5];
};

/* Add the mount of dirfd's resolv.conf; *cfg and *facts then point into g.
 * -1 with werr. */
int gate_mount_add(int dirfd, const struct oci_config **cfg, const struct host_facts **facts,
                   struct gate_mount *g, struct werror *err);
/* Free what gate_mount_add made (nothing of the originals). */
void gate_mount_free(struct gate_mount *g);

#endif
