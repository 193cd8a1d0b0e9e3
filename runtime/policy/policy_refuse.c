/* What baseline and strict refuse: a config that hands the container host
 * authority. Each refusal names the field, the reason and its opt-out.
 * Pure: what is known of the host comes from x->facts (host_facts.c). */
#include "lib/error.h"
#include "oci/names.h"
#include "policy/config_edit.h"
#include "policy/policy_caps.h"
#include "policy/rules.h"
#include "rootfs/mount_opts.h"

#include <fnmatch.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

/* ---- namespaces ---- */

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

static int refuse_namespaces(struct policy_ctx *x)
{
	static const int must_have[] = {CLONE_NEWPID, CLONE_NEWIPC, CLONE_NEWUTS, CLONE_NEWNS};
	const struct oci_linux *l = x->cfg->linux;

	for (size_t i = 0; l && i < l->n_namespaces; i++) {
		const struct oci_namespace *n = &l->namespaces[i];
		const char *opt = optout_of_ns(n->flag);
		char field[96];

		if (n->path == NULL || n->path[0] == '\0')
			continue;
		snprintf(field, sizeof(field), ".linux.namespaces[%zu].path", i);
		if (i < x->facts->n_ns && x->facts->ns_host[i]) {
			if (opt && !policy_optout(x, opt) &&
			    policy_refuse(x, field, opt, "%s is the host's %s namespace", n->path,
			                  n->type) < 0)
				return -1;
		} else if (n->flag == CLONE_NEWNET && x->profile == PROFILE_STRICT &&
		           !policy_optout(x, "join-network") &&
		           policy_refuse(x, field, "join-network",
		                         "strict allows no network namespace but a fresh one") <
		               0) {
			return -1;
		}
	}
	/* An absent network namespace is the host network (engines write
	 * that for --network host): baseline adds a fresh one, or refuses it
	 * when the policy says "missingNetwork": "refuse"; strict adds one. */
	if (!oci_config_namespace(x->cfg, CLONE_NEWNET) && x->profile == PROFILE_BASELINE &&
	    policy_refuses_missing_network(x->pol) && !policy_optout(x, "host-network") &&
	    policy_refuse(x, ".linux.namespaces", "host-network",
	                  "no network namespace: the container would share the host's "
	                  "network") < 0)
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

/* ---- devices ---- */

static const struct {
	char type;
	int64_t major, minor;
	const char *name, *why;
} bad_devices[] = {
    {'c', 1, 1, "mem", "physical memory"},
    {'c', 1, 2, "kmem", "kernel memory"},
    {'c', 1, 4, "port", "I/O ports"},
    {'c', 10, 232, "kvm", "the hypervisor (kvm)"},
    {'c', 10, 229, "fuse", "FUSE, a kernel attack surface"},
    {'c', 10, 200, "tun", "creating network interfaces (tun)"},
};

/* The opt-out a device needs, NULL if it is harmless. */
static const char *device_optout(char type, int64_t major, int64_t minor, const char **why)
{
	static char buf[32];

	if (type == 'b') {
		*why = "raw host storage (a block device)";
		return "device.block";
	}
	for (size_t i = 0; i < sizeof(bad_devices) / sizeof(bad_devices[0]); i++)
		if (bad_devices[i].type == type && bad_devices[i].major == major &&
		    bad_devices[i].minor == minor) {
			*why = bad_devices[i].why;
			snprintf(buf, sizeof(buf), "device.%s", bad_devices[i].name);
			return buf;
		}
	return NULL;
}

static int refuse_devices(struct policy_ctx *x)
{
	const struct oci_linux *l = x->cfg->linux;
	const struct oci_resources *r = l ? l->resources : NULL;

	for (size_t i = 0; l && i < l->n_devices; i++) {
		const struct oci_device *d = &l->devices[i];
		const char *why, *opt;
		char field[64];
		char t = d->type[0] == 'u' ? 'c' : d->type[0];

		if (t == 'p' || (opt = device_optout(t, d->major, d->minor, &why)) == NULL ||
		    policy_optout(x, opt))
			continue;
		snprintf(field, sizeof(field), ".linux.devices[%zu]", i);
		if (policy_refuse(x, field, opt, "%s (%c %lld:%lld) is a device node for %s",
		                  d->path, t, (long long)d->major, (long long)d->minor, why) < 0)
			return -1;
	}
	for (size_t i = 0; r && i < r->n_devices; i++) {
		const struct oci_device_rule *d = &r->devices[i];
		char t = d->type ? d->type[0] : 'a';
		bool any_major = !d->has_major || d->major < 0;
		const char *why, *opt;
		char field[64];

		if (!d->allow)
			continue;
		snprintf(field, sizeof(field), ".linux.resources.devices[%zu]", i);
		if (t == 'a' || any_major) {
			if (!policy_optout(x, "devices-all") &&
			    policy_refuse(x, field, "devices-all",
			                  "allows every %sdevice of the host",
			                  t == 'a'   ? ""
			                  : t == 'b' ? "block "
			                             : "character ") < 0)
				return -1;
			continue;
		}
		opt = device_optout(t, d->major, d->has_minor ? d->minor : -1, &why);
		if (opt && !policy_optout(x, opt) &&
		    policy_refuse(x, field, opt, "allows %c %lld:%lld, a device node for %s", t,
		                  (long long)d->major, (long long)d->minor, why) < 0)
			return -1;
	}
	return 0;
}

/* ---- bind mounts ---- */

/* Host paths whose exposure is host authority. "tree": anything below is
 * refused too; otherwise only the path itself, its ancestors, and (for
 * /etc and /dev) directories below it. */
static const struct {
	const char *path;
	bool tree;
} sensitive[] = {
    {"/proc", true},
    {"/sys", true},
    {"/boot", true},
    {"/root", true},
    {"/etc", false},
    {"/dev", false},
    {"/var/lib/docker", false},
    {"/var/lib/containerd", false},
    {"/var/lib/containers", false},
    {"/var/lib/kubelet", false},
};

static bool under(const char *p, const char *dir)
{
	size_t n = strlen(dir);

	return strncmp(p, dir, n) == 0 && p[n] == '/';
}

/* Why a bind source is refused, NULL if it is not. real is resolved. */
static const char *bind_problem(const struct host_facts *h, const char *real, const struct stat *st,
                                char *buf, size_t len)
{
	if (strcmp(real, "/") == 0)
		return "is the host's root filesystem";
	for (size_t i = 0; i < sizeof(sensitive) / sizeof(sensitive[0]); i++) {
		const char *s = sensitive[i].path;

		if (strcmp(real, s) == 0 || under(s, real)) {
			snprintf(buf, len, "exposes the host's %s", s);
			return buf;
		}
		if (under(real, s) &&
		    (sensitive[i].tree || (S_ISDIR(st->st_mode) &&
		                           (strcmp(s, "/etc") == 0 || strcmp(s, "/dev") == 0)))) {
			snprintf(buf, len, "is inside the host's %s", s);
			return buf;
		}
	}
	/* Container engines' API sockets: whoever reaches one starts
	 * privileged containers. Matched by inode, wherever it is bound from. */
	for (size_t i = 0; i < h->n_sockets; i++) {
		const struct host_socket *es = &h->sockets[i];

		if (S_ISSOCK(st->st_mode) && es->dev == st->st_dev && es->ino == st->st_ino) {
			snprintf(buf, len, "is the container engine socket %s", es->path);
			return buf;
		}
		if (S_ISDIR(st->st_mode) && under(es->path, real)) {
			snprintf(buf, len, "contains the container engine socket %s", es->path);
			return buf;
		}
	}
	if (S_ISSOCK(st->st_mode)) {
		const char *base = strrchr(real, '/') ? strrchr(real, '/') + 1 : real;

		for (size_t i = 0; host_engine_socket_names[i]; i++)
			if (strcmp(base, host_engine_socket_names[i]) == 0) {
				snprintf(buf, len, "is a container engine socket");
				return buf;
			}
	}
	return NULL;
}

static int refuse_binds(struct policy_ctx *x)
{
	const struct host_facts *h = x->facts;

	for (size_t i = 0; i < x->cfg->n_mounts; i++) {
		const struct oci_mount *m = &x->cfg->mounts[i];
		const struct host_path *src = i < h->n_mounts ? &h->mounts[i] : NULL;
		char why[256], opt[PATH_MAX + 8], field[64];
		const char *problem;

		snprintf(field, sizeof(field), ".mounts[%zu].source", i);
		/* v1's release_agent runs a host program as root (CVE-2022-0492). */
		if (m->type &&
		    (strcmp(m->type, "cgroup") == 0 || strcmp(m->type, "cgroup2") == 0) &&
		    cfg_strv_has(m->options, m->n_options, "rw") &&
		    !policy_optout(x, "cgroup-rw") && h->cgroup_v1 &&
		    policy_refuse(x, field, "cgroup-rw",
		                  "a writable cgroup v1 mount (release_agent runs host "
		                  "programs)") < 0)
			return -1;
		if (!mount_is_bind(m) || m->source == NULL || src == NULL || !src->resolved)
			continue;
		snprintf(opt, sizeof(opt), "mount:%s", m->source);
		if (policy_optout(x, opt) ||
		    (snprintf(opt, sizeof(opt), "mount:%s", src->real), policy_optout(x, opt)))
			continue;
		if (S_ISCHR(src->st.st_mode) || S_ISBLK(src->st.st_mode)) {
			const char *dwhy,
			    *dopt = device_optout(S_ISBLK(src->st.st_mode) ? 'b' : 'c',
			                          major(src->st.st_rdev), minor(src->st.st_rdev),
			                          &dwhy);

			if (dopt && !policy_optout(x, dopt) &&
			    policy_refuse(x, field, dopt, "%s is a device node for %s", m->source,
			                  dwhy) < 0)
				return -1;
			continue;
		}
		problem = bind_problem(h, src->real, &src->st, why, sizeof(why));
		snprintf(opt, sizeof(opt), "mount:%s", m->source);
		if (problem && policy_refuse(x, field, opt, "%s %s", m->source, problem) < 0)
			return -1;
	}
	return 0;
}

/* ---- strict: secrets in the environment ---- */

static int refuse_secret_env(struct policy_ctx *x)
{
	const struct oci_process *p = x->cfg->process;
	const struct policy *pol = x->pol;
	char *const *pat =
	    pol && pol->has_secret_env ? pol->secret_env : (char *const *)policy_default_secret_env;

	for (size_t i = 0; p && i < p->n_env; i++) {
		char name[256], opt[300], field[64];
		size_t n = strcspn(p->env[i], "=");

		snprintf(name, sizeof(name), "%.*s", (int)(n < 255 ? n : 255), p->env[i]);
		snprintf(opt, sizeof(opt), "env.%s", name);
		if (policy_optout(x, opt))
			continue;
		for (size_t k = 0; pat[k]; k++)
			if (fnmatch(pat[k], name, 0) == 0) {
				snprintf(field, sizeof(field), ".process.env[%zu]", i);
				if (policy_refuse(
				        x, field, opt,
				        "%s looks like a secret (pattern %s): strict keeps "
				        "secrets out of untrusted code",
				        name, pat[k]) < 0)
					return -1;
				break;
			}
	}
	return 0;
}

int policy_refusals(struct policy_ctx *x)
{
	if (x->cfg->root && x->cfg->root->path && x->facts->root.resolved &&
	    strcmp(x->facts->root.real, "/") == 0 && !policy_optout(x, "mount:/") &&
	    policy_refuse(x, ".root.path", "mount:/", "is the host's root filesystem") < 0)
		return -1;
	if (refuse_namespaces(x) < 0 || refuse_devices(x) < 0 || refuse_binds(x) < 0 ||
	    policy_caps_refuse(x, x->cfg->process ? x->cfg->process->capabilities : NULL,
	                       ".process.capabilities") < 0)
		return -1;
	if (x->profile == PROFILE_STRICT && refuse_secret_env(x) < 0)
		return -1;
	return 0;
}
