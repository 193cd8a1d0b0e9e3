/* What the policy needs to know about the host, gathered once by one
 * function (host_facts_gather, in the parent, before anything is made) so
 * that the policy itself is a pure function of (config, host facts, policy
 * file): the unit tests fake these facts, create and check gather them. */
#ifndef WARD_POLICY_HOST_FACTS_H
#define WARD_POLICY_HOST_FACTS_H

#include "lib/error.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "hooks/hook_file.h"
#include "hooks/hooks_dir.h"
#include "oci/config.h"
#include "facts/host_paths.h"
#include "linux/hostns.h"

/* Per .hooks.<point>[i] (startContainer's aside: their path resolves in
 * the container), the program opened and judged once (hooks/hook_file.h);
 * and the bundle directory, by identity. */
struct host_hooks {
	struct hook_file *file[HOOK_POINTS];
	size_t n[HOOK_POINTS];
	struct hook_id bundle;
	bool has_bundle;
	/* The OCI hooks directories' entries (host_query.hooks_dirs), each
	 * read from a file only root could have written. */
	struct hooks_dirs dirs;
};

/* ward's own oom_score_adj and hard resource limits: what a process may
 * set for itself without CAP_SYS_RESOURCE (lowering the one, raising the
 * others needs it). has: gathered. */
struct host_limits {
	bool has;
	int oom_score_adj;
	uint64_t rlimit_hard[RLIM_NLIMITS];
};

#define PASTA_PATH "/usr/bin/pasta"

struct host_facts {
	/* A v1 cgroup hierarchy is mounted (a writable v1 cgroup mount exposes
	 * release_agent). */
	bool cgroup_v1;
	/* The kernel has vm.memfd_noexec (Linux >= 6.3: /proc/sys/vm/memfd_noexec
	 * exists), a sysctl of each pid namespace (ward's parent sets it there:
	 * linux/sysctl.h sysctl_apply_pidns). */
	bool memfd_noexec;
	/* ward runs rootless: the kernel and newuidmap keep a user namespace's
	 * maps to the caller's own ids. */
	bool rootless;
	/* ward is root in the host's user namespace (neither rootless nor the
	 * root of rootless Podman's namespace): only there does the kernel
	 * load cgroup programs (CAP_BPF, CAP_NET_ADMIN; net/egress_bpf.h). */
	bool userns_host;
	/* A cgroup2 hierarchy is mounted (pure v2, or hybrid's unified): the
	 * egress programs attach to a cgroup2 node only. */
	bool cgroup2;
	/* pasta (Debian's passt) is installed: a strict container with an
	 * egress allow-list and no engine's network gets it (policy_egress.c). */
	bool pasta;
	struct host_limits limits;
	/* Heap-held (a fixed array of paths made every create zero and fault
	 * in 400 KB); NULL when the paths are not judged. */
	struct host_sensitive *sensitive;
	size_t n_sensitive;
	struct host_path root; /* root.path */
	/* Per config.json mounts[i]: the source of a bind mount, the first
	 * overlay layer of an overlay mount (others are left unresolved). */
	struct host_path *mounts;
	size_t n_mounts;
	/* Per config.json mounts[i] of type overlay: its lowerdir, upperdir and
	 * workdir entries, in the order they appear in the options. */
	struct host_path **overlay;
	size_t *n_overlay;
	/* Per linux.namespaces[i] with a path: the namespace opened once
	 * (ns_fd, -1 if it could not be: ns_err), whose it is (ns_owner:
	 * linux/hostns.h) and whether it is the host's own (ns_host). create
	 * joins that same fd. */
	bool *ns_host;
	enum ns_owner *ns_owner;
	int *ns_fd, *ns_err;
	size_t n_ns;
	struct host_hooks hooks;
};

/* What the policy needs besides the config: where relative paths start,
 * ward's state root, and how strictly paths resolve. */
struct host_query {
	const char *bundle;
	const char *state_root; /* --root */
	bool no_magiclinks;     /* outside compat: /proc/<pid>/root/... is not followed */
	bool rootless;          /* ward was run by a user other than root */
	/* The OCI hooks directories to read when the config has hooks (the
	 * policy's hooksDirs, for baseline; none otherwise). */
	const char *const *hooks_dirs;
	size_t n_hooks_dirs;
	bool userns_foreign; /* ward runs in a user namespace not the host's */
	/* Relate every path to the host's sensitive paths (and search the
	 * trees): what the mount refusals read. false: only open them (compat,
	 * which refuses nothing; the fds are still what gets mounted). */
	bool judge_paths;
};

/* Gather the facts about cfg's host paths and namespaces. -1 with werr only
 * on ENOMEM (what cannot be resolved is a fact, not an error). */
int host_facts_gather(struct host_facts *h, const struct oci_config *cfg,
                      const struct host_query *q, struct werror *err);
void host_facts_free(struct host_facts *h);
/* Only ward's own limits (exec judges its process with them). */
void host_limits_gather(struct host_limits *l);

#endif
