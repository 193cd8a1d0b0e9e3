/* What the policy needs to know about the host, gathered once by one
 * function (host_facts_gather, in the parent, before anything is made) so
 * that the policy itself is a pure function of (config, host facts, policy
 * file): the unit tests fake these facts, create and check gather them. */
#ifndef WARD_POLICY_HOST_FACTS_H
#define WARD_POLICY_HOST_FACTS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "oci/config.h"

/* A host path named by the config, resolved (relative ones from the
 * bundle) and stat'ed. */
struct host_path {
	bool resolved; /* false: it does not resolve (or cannot be stat'ed) */
	char real[PATH_MAX];
	struct stat st;
};

/* A container engine's API socket that exists on this host. */
struct host_socket {
	char path[64];
	dev_t dev;
	ino_t ino;
};

#define HOST_MAX_SOCKETS 16

struct host_facts {
	/* A v1 cgroup hierarchy is mounted (a writable v1 cgroup mount exposes
	 * release_agent). */
	bool cgroup_v1;
	struct host_path root; /* root.path */
	/* Per config.json mounts[i]: the source of a bind mount (others are
	 * left unresolved). */
	struct host_path *mounts;
	size_t n_mounts;
	/* Per linux.namespaces[i]: its path is one of the host's namespaces. */
	bool *ns_host;
	size_t n_ns;
	struct host_socket sockets[HOST_MAX_SOCKETS];
	size_t n_sockets;
};

/* The engine sockets ward looks for (NULL-terminated), and the names that
 * give a socket away as one wherever it lives. */
extern const char *const host_engine_socket_paths[];
extern const char *const host_engine_socket_names[];

/* Gather the facts about cfg's host paths and namespaces (bundle: where
 * relative paths start). -1 with werr only on ENOMEM. */
int host_facts_gather(struct host_facts *h, const struct oci_config *cfg, const char *bundle);
void host_facts_free(struct host_facts *h);

#endif
