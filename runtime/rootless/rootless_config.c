/* Who the caller is, where its state lives, and the config a rootless
 * container needs (rootless.h). */
#include "rootless/rootless.h"
#include "lib/strfmt.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "oci/config_edit.h"
#include "rootfs/idmap.h"
#include "rootfs/mount_opts.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Ids 1..N of a default mapping: the first 65535 subordinate ids, as many
 * as a distribution image's users need. */
#define ROOTLESS_DEFAULT_IDS 65535u

/* Asked first before ward enters a user namespace (where it is root): the
 * answer is kept (main.c asks before anything else). */
bool rootless_caller(void)
{
	static int caller = -1;

	if (caller < 0)
		caller = geteuid() != 0;
	return caller;
}

void rootless_owner(char *buf, size_t len)
{
	char pwbuf[1024];
	struct passwd pw, *p = NULL;

	getpwuid_r(geteuid(), &pw, pwbuf, sizeof(pwbuf), &p);
	if (p)
		snprintf(buf, len, "%s", p->pw_name);
	else
		snprintf(buf, len, "%u", (unsigned)geteuid());
}

bool rootless_cgroups(void)
{
	static int answer = -1;
	char buf[128] = "";
	FILE *f;
	unsigned long a, b, n;
	bool initial = false;

	if (answer >= 0)
		return answer;
	if (rootless_caller())
		return (answer = 1);
	/* The initial user namespace maps every id onto itself. Unreadable:
	 * taken as the initial one (cgroups then must work, or create fails:
	 * never limits dropped on a guess). */
	initial = true;
	f = fopen("/proc/self/uid_map", "re");
	if (f) {
		initial = fgets(buf, sizeof(buf), f) &&
		          sscanf(buf, "%lu %lu %lu", &a, &b, &n) == 3 && a == 0 && b == 0 &&
		          n == 4294967295UL;
		fclose(f);
	}
	return (answer = !initial);
}

int rootless_state_root(char *buf, size_t size, struct werror *err)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	struct stat st;
	char run_user[64];

	/* The caller's own runtime directory, as runc and crun use it. */
	if (xdg && xdg[0] == '/') {
		if (stat(xdg, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
			return werr(
			    err, errno ? errno : EACCES,
			    "XDG_RUNTIME_DIR=%s: not a directory of yours (uid %u); set it, "
			    "or pass --root",
			    xdg, (unsigned)geteuid());
		if (fmt_fit(buf, size, "%s/ward", xdg) < 0)
			return werr(err, ENAMETOOLONG, "XDG_RUNTIME_DIR");
		return 0;
	}
	snprintf(run_user, sizeof(run_user), "/run/user/%u", (unsigned)geteuid());
	if (stat(run_user, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid()) {
		return fmt_fit(buf, size, "%s/ward", run_user) < 0
		           ? werr(err, ENAMETOOLONG, "%s/ward", run_user)
		           : 0;
	}
	return werr(err, ENOENT,
	            "no state directory for uid %u: XDG_RUNTIME_DIR is not set and %s is not "
	            "yours; set XDG_RUNTIME_DIR, or pass --root DIR",
	            (unsigned)geteuid(), run_user);
}

/* The caller's first range in /etc/subuid or /etc/subgid ("name:start:count"
 * or "uid:start:count"): 0 and *start, *count; -1 when it has none. */
static int sub_range(const char *file, uint32_t id, const char *name, uint32_t *start,
                     uint32_t *count)
{
	char line[512], num[16];
	FILE *f = fopen(file, "re");
	int r = -1;

	if (f == NULL)
		return -1;
	snprintf(num, sizeof(num), "%u", id);
	while (r < 0 && fgets(line, sizeof(line), f)) {
		char *c1 = strchr(line, ':'), *c2, *end;
		unsigned long s, n;

		if (c1 == NULL || (c2 = strchr(c1 + 1, ':')) == NULL)
			continue;
		*c1 = '\0';
		if (strcmp(line, num) != 0 && (name == NULL || strcmp(line, name) != 0))
			continue;
		errno = 0;
		s = strtoul(c1 + 1, &end, 10);
		if (end != c2 || errno)
			continue;
		n = strtoul(c2 + 1, &end, 10);
		if (errno || n == 0 || s > UINT32_MAX || n > UINT32_MAX - s)
			continue;
		*start = (uint32_t)s;
		*count = (uint32_t)n;
		r = 0;
	}
	fclose(f);
	return r;
}

/* uid 0 = the caller, 1..N = its first subordinate range (if any). */
static int default_map(struct oci_idmap **m, size_t *n, uint32_t own, const char *file,
                       const char *name, struct werror *err)
{
	uint32_t start, count;

	*m = calloc(2, sizeof(**m));
	if (*m == NULL)
		return werr(err, ENOMEM, "out of memory");
	(*m)[0] = (struct oci_idmap){0, own, 1};
	*n = 1;
	if (sub_range(file, own, name, &start, &count) == 0) {
		(*m)[1] = (struct oci_idmap){
		    1, start, count < ROOTLESS_DEFAULT_IDS ? count : ROOTLESS_DEFAULT_IDS};
		*n = 2;
	}
	return 0;
}

static bool maps_id(const struct oci_idmap *m, size_t n, uint32_t id)
{
	for (size_t i = 0; i < n; i++)
		if (id >= m[i].host_id && id - m[i].host_id < m[i].size)
			return true;
	return false;
}

/* A bind source the caller cannot read would be an empty promise: the
 * kernel refuses the container the same, later and without a word. */
static int binds_readable(const struct oci_config *cfg, const char *bundle, struct werror *err)
{
	_cleanup_close_ int dirfd = open(bundle, O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (dirfd < 0)
		return werr_k(err, WERR_INVALID, errno, "bundle %s", bundle);
	for (size_t i = 0; i < cfg->n_mounts; i++) {
		const struct oci_mount *m = &cfg->mounts[i];
		struct stat st;
		int mode = R_OK;

		if (!mount_is_bind(m) || m->source == NULL)
			continue;
		if (fstatat(dirfd, m->source, &st, 0) == 0 && S_ISDIR(st.st_mode))
			mode |= X_OK;
		if (faccessat(dirfd, m->source, mode, AT_EACCESS) < 0)
			return werr(
			    err, errno,
			    "config.json: .mounts[%zu].source: %s: uid %u cannot read it (a "
			    "rootless container reaches only what its user can)",
			    i, m->source, (unsigned)geteuid());
	}
	return 0;
}

/* devpts' gid= (tty, 5, in every spec) must be a group of the container's
 * user namespace, else the mount fails with EINVAL: with a single-id map
 * it is not. Dropped then, as runc's spec --rootless leaves it out; the
 * pty's group is then the creator's. */
static void devpts_gid(struct oci_config *cfg)
{
	const struct oci_linux *l = cfg->linux;

	for (size_t i = 0; i < cfg->n_mounts; i++) {
		struct oci_mount *m = &cfg->mounts[i];
		size_t k = 0;

		if (m->type == NULL || strcmp(m->type, "devpts") != 0)
			continue;
		for (size_t j = 0; j < m->n_options; j++) {
			unsigned long gid;
			bool mapped = false;

			if (sscanf(m->options[j], "gid=%lu", &gid) != 1) {
				m->options[k++] = m->options[j];
				continue;
			}
			for (size_t r = 0; r < l->n_gid_mappings; r++)
				mapped = mapped || (gid >= l->gid_mappings[r].container_id &&
				                    gid - l->gid_mappings[r].container_id <
				                        l->gid_mappings[r].size);
			if (mapped)
				m->options[k++] = m->options[j];
			else
				free(m->options[j]);
		}
		m->n_options = k;
		if (m->options)
			m->options[k] = NULL;
	}
}

int rootless_config(struct oci_config *cfg, const char *bundle, const char *name,
                    struct werror *err)
{
	struct oci_linux *l = cfg_linux(cfg, err);
	const struct oci_namespace *ns;

	if (l == NULL)
		return -1;
	ns = oci_config_namespace(cfg, CLONE_NEWUSER);
	if (ns == NULL && cfg_ns_add(cfg, CLONE_NEWUSER, err) < 0)
		return -1;
	ns = oci_config_namespace(cfg, CLONE_NEWUSER);
	if (!(ns->path && ns->path[0])) {
		if (l->n_uid_mappings == 0 && l->n_gid_mappings == 0 &&
		    (default_map(&l->uid_mappings, &l->n_uid_mappings, (uint32_t)geteuid(),
		                 "/etc/subuid", name, err) < 0 ||
		     default_map(&l->gid_mappings, &l->n_gid_mappings, (uint32_t)getegid(),
		                 "/etc/subgid", name, err) < 0))
			return -1;
		/* ward enters the namespace to make the container: as an id it
		 * has there (files it makes would have no owner otherwise). */
		if (!maps_id(l->uid_mappings, l->n_uid_mappings, (uint32_t)geteuid()))
			return werr_k(
			    err, WERR_INVALID, 0,
			    "config.json: .linux.uidMappings: a rootless container must map "
			    "the caller's uid %u",
			    (unsigned)geteuid());
		if (!maps_id(l->gid_mappings, l->n_gid_mappings, (uint32_t)getegid()))
			return werr_k(
			    err, WERR_INVALID, 0,
			    "config.json: .linux.gidMappings: a rootless container must map "
			    "the caller's gid %u",
			    (unsigned)getegid());
		devpts_gid(cfg);
	}
	/* An idmapped mount's namespace would be made from inside the
	 * container's, where the config's host ids mean other ids. */
	for (size_t i = 0; i < cfg->n_mounts; i++) {
		bool rec;

		if (idmap_wanted(&cfg->mounts[i], &rec))
			return werr_k(err, WERR_UNSUPPORTED, 0,
			              "config.json: .mounts[%zu].options: idmapped mounts are not "
			              "supported rootless yet",
			              i);
	}
	/* The pid namespace's sysctls are written from the host's side, by
	 * its root alone (linux/sysctl.h). */
	for (size_t i = 0; i < l->n_sysctl; i++)
		if (strcmp(l->sysctl[i].key, "vm.memfd_noexec") == 0)
			return werr_k(
			    err, WERR_INVALID, 0,
			    "config.json: .linux.sysctl.%s: only the host's root can set it, "
			    "and ward runs as uid %u (rootless)",
			    l->sysctl[i].key, (unsigned)geteuid());
	return binds_readable(cfg, bundle, err);
}
