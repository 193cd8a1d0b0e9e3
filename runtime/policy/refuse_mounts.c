/* Refusals: mounts that expose the host (bind sources, the rootfs, cgroup
 * mounts). What is known of the host comes from x->facts. */
#include "policy/config_edit.h"
#include "policy/rules.h"
#include "rootfs/mount_opts.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

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

int policy_refuse_root(struct policy_ctx *x)
{
	const struct host_facts *h = x->facts;

	if (x->cfg->root && x->cfg->root->path && h->root.resolved &&
	    strcmp(h->root.real, "/") == 0 && !policy_optout(x, "mount:/") &&
	    policy_refuse(x, ".root.path", "mount:/", "is the host's root filesystem") < 0)
		return -1;
	return 0;
}

int policy_refuse_mounts(struct policy_ctx *x)
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
			    *dopt = policy_device_optout(S_ISBLK(src->st.st_mode) ? 'b' : 'c',
			                                 major(src->st.st_rdev),
			                                 minor(src->st.st_rdev), &dwhy);

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
