/* Refusals: namespaces that are the host's, by path or by absence; and,
 * under strict, user namespaces whose root could be a host id strict does
 * not give containers. */
#include "oci/names.h"
#include "policy/policy.h"
#include "policy/rules.h"

#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

static const char *optout_of_ns(int flag)
{
	switch (flag) {
	case CLONE_NEWNET:
		return "host-network";
	case CLONE_NEWPID:
		return "host-pid";
	case CLONE_NEWIPC:
		return "host-ipc";
	case CLONE_NEWUTS:
		return "host-uts";
	case CLONE_NEWNS:
		return "host-mount";
	case CLONE_NEWUSER:
		return "host-user";
	case CLONE_NEWCGROUP:
		return "host-cgroup";
	default:
		return NULL;
	}
}

/* A namespace joined by path: only another container's (/proc/PID/ns/TYPE
 * of a process in a pid namespace of its own) or an engine's (an nsfs bind
 * mount such as /run/netns/NAME, which only the host's root can make) is
 * joined. A host service's private namespace is host authority like the
 * host's own (its network, its IPC objects, its processes), and a mount
 * namespace, anyone's, is a whole view of the filesystem: its mounts, the
 * host's own for a service, and whatever was mounted there since. */
static int judge_joined(struct policy_ctx *x, size_t i, const struct oci_namespace *n)
{
	const struct host_facts *h = x->facts;
	const char *opt = optout_of_ns(n->flag);
	enum ns_owner who = i < h->n_ns && h->ns_owner ? h->ns_owner[i] : NS_OWNER_UNKNOWN;
	int open_err = i < h->n_ns && h->ns_err ? h->ns_err[i] : 0;
	char field[96];

	snprintf(field, sizeof(field), ".linux.namespaces[%zu].path", i);
	/* Not a namespace of its type: create fails on that, naming it. */
	if (who == NS_OWNER_WRONG_TYPE)
		return 0;
	if (n->flag == CLONE_NEWNS)
		return policy_refuse(
		    x, field, NULL,
		    "%s: a mount namespace is never joined outside compat: it is "
		    "another process's whole view of the filesystem, mounts and all",
		    n->path);
	/* strict refuses every user namespace by path (policy_refuse_userns). */
	if (n->flag == CLONE_NEWUSER && x->profile == PROFILE_STRICT)
		return 0;
	if ((i < h->n_ns && h->ns_host[i]) || who == NS_OWNER_HOST) {
		if (opt == NULL || policy_optout(x, opt))
			return 0;
		return policy_refuse(x, field, opt, "%s is the host's %s namespace", n->path,
		                     n->type);
	}
	if (who == NS_OWNER_HOST_PROC || who == NS_OWNER_UNKNOWN) {
		if (opt && policy_optout(x, opt))
			return 0;
		if (who == NS_OWNER_HOST_PROC)
			return policy_refuse(x, field, opt,
			                     "%s is the %s namespace of a host process (one in the "
			                     "host's pid namespace), not another container's",
			                     n->path, n->type);
		if (open_err)
			return policy_refuse(x, field, opt, "%s cannot be opened (%s)", n->path,
			                     strerror(open_err));
		return policy_refuse(x, field, opt,
		                     "%s is neither a container's namespace (/proc/PID/ns/TYPE in "
		                     "a pid namespace of its own) nor an engine's (an nsfs mount "
		                     "such as /run/netns/NAME)",
		                     n->path);
	}
	if (n->flag == CLONE_NEWNET && x->profile == PROFILE_STRICT &&
	    !policy_optout(x, "join-network"))
		return policy_refuse(x, field, "join-network",
		                     "strict allows no network namespace but a fresh one");
	return 0;
}

/* linux.netDevices hands the container a host interface (its traffic, its
 * link to whatever the host wired it to): outside compat only the devices
 * the operator's policy names ("netDevices"), by their host names. */
static int refuse_net_devices(struct policy_ctx *x)
{
	const struct oci_net_devices *d = x->cfg->linux ? &x->cfg->linux->net_devices : NULL;

	for (size_t i = 0; d && i < d->n; i++) {
		char field[64];

		if (policy_netdev_listed(x->pol, d->dev[i].host))
			continue;
		snprintf(field, sizeof(field), ".linux.netDevices[\"%s\"]", d->dev[i].host);
		if (policy_refuse(x, field, NULL,
		                  "moves the host's network device into the container; only "
		                  "devices the operator's policy lists in \"netDevices\" are "
		                  "moved outside compat") < 0)
			return -1;
	}
	return 0;
}

int policy_refuse_namespaces(struct policy_ctx *x)
{
	static const int must_have[] = {CLONE_NEWPID, CLONE_NEWIPC, CLONE_NEWUTS, CLONE_NEWNS};
	const struct oci_linux *l = x->cfg->linux;

	for (size_t i = 0; l && i < l->n_namespaces; i++) {
		const struct oci_namespace *n = &l->namespaces[i];

		if (n->path && n->path[0] && judge_joined(x, i, n) < 0)
			return -1;
	}
	/* An absent network namespace is the host network (engines write
	 * that for --network host): baseline refuses it (opt-out
	 * host-network), or adds a fresh one when the policy says
	 * "missingNetwork": "isolate"; strict always adds one (new_netns). */
	if (!oci_config_namespace(x->cfg, CLONE_NEWNET) && x->profile == PROFILE_BASELINE &&
	    policy_refuses_missing_network(x->pol) && !policy_optout(x, "host-network") &&
	    policy_refuse(x, ".linux.namespaces", "host-network",
	                  "no network namespace: the container would share the host's "
	                  "network") < 0)
		return -1;
	if (refuse_net_devices(x) < 0)
		return -1;
	/* An absent namespace is the host's, shared. (user and cgroup: absent
	 * is the norm.) */
	for (size_t k = 0; k < sizeof(must_have) / sizeof(must_have[0]); k++) {
		const char *opt = optout_of_ns(must_have[k]);

		if (!oci_config_namespace(x->cfg, must_have[k]) && !policy_optout(x, opt) &&
		    policy_refuse(x, ".linux.namespaces", opt,
		                  "no %s namespace: the container would share the host's",
		                  oci_ns_type(must_have[k])) < 0)
			return -1;
	}
	return 0;
}

/* ---- strict: the user namespace ----
 *
 * Refusals, strict only: a user namespace whose container root could be a
 * host id other than the container's own range (host root least of all).
 *
 * strict promises that container root is an unprivileged host uid, and
 * one no other container and no host user has: each strict container
 * holds a range of the id pool (idpool/lease.h, taken by prepare.c). A
 * config that lists its own user namespace keeps its own mappings (the
 * adjustment in policy_adjust.c only fills a missing one), so each mapping
 * is judged here: host ids outside the container's range (0 -> 0 maps
 * container root to host root, and then a setuid-root file written into a
 * volume is host root's; another container's range gives it that
 * container's files) are refused. A user namespace joined by path has maps
 * ward would have to read from a process holding it (/proc/<pid>/uid_map:
 * a path, not the opened namespace), so strict refuses the join itself.
 *
 * Rootless, the kernel and newuidmap already keep the maps to the caller's
 * own ids and its /etc/subuid range: nothing there is host root's. */

/* The default pool: 0x70000000-0x7FFDFFFF, 4094 ranges of 65536. Above
 * what useradd hands out to /etc/subuid (SUB_UID_MAX 600100000) and
 * systemd-nspawn's container ranges (0x80000-0x6FFFFFFF), below systemd's
 * foreign-uid range (0x7FFE0000-0x7FFEFFFF) and below 2^31: ids with the
 * top bit set read as negative to programs that keep uids in an int. */
#define IDPOOL_START 0x70000000u
#define IDPOOL_SIZE  0x0FFE0000u
#define IDPOOL_RANGE 65536u
/* Before strict.idPool: one range for every strict container. Named, it is
 * a pool of that one range (so one strict container at a time). */
#define OLD_USERNS_ID  100000u
#define OLD_USERNS_LEN 65536u

void policy_strict_idpool(const struct policy *pol, struct idpool *p)
{
	const struct policy_strict *s = pol ? pol->strict : NULL;
	const struct policy_idpool *ip = s ? s->id_pool : NULL;

	*p = (struct idpool){IDPOOL_START, IDPOOL_SIZE, IDPOOL_RANGE, NULL};
	if (s && (s->has_userns_host_id || s->has_userns_size)) {
		p->start = s->has_userns_host_id ? s->userns_host_id : OLD_USERNS_ID;
		p->size = p->range_size = s->has_userns_size ? s->userns_size : OLD_USERNS_LEN;
		return;
	}
	if (ip == NULL)
		return;
	p->start = ip->has_start ? ip->start : p->start;
	p->range_size = ip->has_range_size ? ip->range_size : p->range_size;
	/* A pool moved but not sized: as many ids as fit below 2^31, at
	 * least one range. */
	if (ip->has_size)
		p->size = ip->size;
	else if (ip->has_start)
		p->size = ip->start < 0x80000000u - p->range_size ? 0x80000000u - ip->start
		                                                  : p->range_size;
}

bool policy_strict_userns_range(const struct policy_ctx *x, uint32_t *host, uint32_t *size)
{
	*host = x->userns.host;
	*size = x->userns.size;
	return x->userns.set;
}

static int judge_maps(struct policy_ctx *x, const struct oci_idmap *m, size_t n, const char *name)
{
	uint32_t host, size;

	if (!policy_strict_userns_range(x, &host, &size))
		return n == 0 ? 0
		              : policy_refuse(
		                    x, name[0] == 'u' ? ".linux.uidMappings" : ".linux.gidMappings",
		                    NULL,
		                    "strict: the container holds no range of the "
		                    "id pool for its mappings to lie in");
	for (size_t i = 0; i < n; i++) {
		uint64_t lo = m[i].host_id, hi = (uint64_t)m[i].host_id + m[i].size;
		char field[64];

		if (m[i].size > 0 && lo >= host && hi <= (uint64_t)host + size)
			continue;
		snprintf(field, sizeof(field), ".linux.%s[%zu]", name, i);
		if (policy_refuse(x, field, NULL,
		                  "maps container %s %" PRIu32 "-%" PRIu64 " to host %" PRIu64
		                  "-%" PRIu64 ", outside this container's own host range "
		                  "(%" PRIu32 "-%" PRIu64 ", of strict's id pool): container "
		                  "root must be an unprivileged host id no one else has, never "
		                  "host root",
		                  name[0] == 'u' ? "uids" : "gids", m[i].container_id,
		                  (uint64_t)m[i].container_id + m[i].size - (m[i].size > 0), lo,
		                  hi - (m[i].size > 0), host, (uint64_t)host + size - 1) < 0)
			return -1;
	}
	return 0;
}

int policy_refuse_userns(struct policy_ctx *x)
{
	const struct oci_linux *l = x->cfg->linux;
	bool fresh = false;

	for (size_t i = 0; l && i < l->n_namespaces; i++) {
		const struct oci_namespace *n = &l->namespaces[i];
		char field[64];

		if (n->flag != CLONE_NEWUSER)
			continue;
		if (n->path == NULL || n->path[0] == '\0') {
			fresh = true;
			continue;
		}
		snprintf(field, sizeof(field), ".linux.namespaces[%zu].path", i);
		if (policy_refuse(x, field, NULL,
		                  "strict joins no user namespace by path: its uid and gid maps "
		                  "can only be read from a process holding it, not judged on the "
		                  "opened namespace, so container root could be any host id") < 0)
			return -1;
	}
	/* No user namespace listed: the adjustment adds strict's own (and
	 * drops mappings that came without one). */
	if (!fresh || x->facts->rootless)
		return 0;
	if (judge_maps(x, l->uid_mappings, l->n_uid_mappings, "uidMappings") < 0 ||
	    judge_maps(x, l->gid_mappings, l->n_gid_mappings, "gidMappings") < 0)
		return -1;
	return 0;
}
