/* Refusals: mounts that expose the host (issue #12). Allow-lists, decided on
 * what host_paths.c found on the fd that is then mounted:
 *  - filesystem types: what a container needs, nothing that reaches the
 *    host's disks, devices or kernel interfaces;
 *  - bind sources and the rootfs: on a storage filesystem, opened once, and
 *    neither being, containing nor (for whole trees) being inside a
 *    sensitive host path;
 *  - options that act on existing mounts (remount, move): never.
 * What is known of the host comes from x->facts. */
#include "oci/config_edit.h"
#include "lib/cleanup.h"
#include "lib/xalloc.h"
#include "policy/rules.h"
#include "rootfs/idmap.h"
#include "rootfs/mount_opts.h"

#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <linux/magic.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

/* Filesystems that hold data, where a bind source may live. Kernel
 * interfaces (procfs, sysfs, cgroupfs, debugfs, tracefs, securityfs, bpf,
 * configfs, efivarfs, nsfs, ...) are not on it. */
static const struct {
	unsigned long magic;
	const char *name;
} storage_fs[] = {
    {EXT4_SUPER_MAGIC, "ext2/3/4"},
    {0x58465342, "xfs"},
    {BTRFS_SUPER_MAGIC, "btrfs"},
    {TMPFS_MAGIC, "tmpfs"},
    {RAMFS_MAGIC, "ramfs"},
    {OVERLAYFS_SUPER_MAGIC, "overlay"},
    {NFS_SUPER_MAGIC, "nfs"},
    {0xFF534D42, "cifs"},
    {0xFE534D42, "smb2"},
    {V9FS_MAGIC, "9p"},
    {0x65735546, "fuse"},
    {SQUASHFS_MAGIC, "squashfs"},
    {EROFS_SUPER_MAGIC_V1, "erofs"},
    {ISOFS_SUPER_MAGIC, "iso9660"},
    {MSDOS_SUPER_MAGIC, "vfat"},
    {EXFAT_SUPER_MAGIC, "exfat"},
    {F2FS_SUPER_MAGIC, "f2fs"},
    {0x2fc12fc1, "zfs"},
    {0xca451a4e, "bcachefs"},
    {0x00c36400, "ceph"},
    {0x01161970, "gfs2"},
    {0x7461636f, "ocfs2"},
    {HUGETLBFS_MAGIC, "hugetlbfs"},
};

/* Names for the refusal message of kernel-interface filesystems. */
static const struct {
	unsigned long magic;
	const char *name;
} kernel_fs[] = {
    {PROC_SUPER_MAGIC, "proc"},       {SYSFS_MAGIC, "sysfs"},       {CGROUP_SUPER_MAGIC, "cgroup"},
    {CGROUP2_SUPER_MAGIC, "cgroup2"}, {DEBUGFS_MAGIC, "debugfs"},   {TRACEFS_MAGIC, "tracefs"},
    {SECURITYFS_MAGIC, "securityfs"}, {BPF_FS_MAGIC, "bpf"},        {NSFS_MAGIC, "nsfs"},
    {DEVPTS_SUPER_MAGIC, "devpts"},   {EFIVARFS_MAGIC, "efivarfs"},
};

/* Files of /etc a container may have from the host. */
static const char *const etc_files[] = {"/etc/resolv.conf",
                                        "/etc/hosts",
                                        "/etc/hostname",
                                        "/etc/localtime",
                                        "/etc/timezone",
                                        "/etc/ssl/certs/ca-certificates.crt",
                                        "/etc/pki/tls/certs/ca-bundle.crt",
                                        NULL};

/* Filesystem types a non-bind mount may have (proc, sysfs, cgroup have
 * conditions of their own, overlay its layers checked). */
static const char *const fs_types[] = {"tmpfs",  "proc",    "sysfs",   "devpts", "mqueue",
                                       "cgroup", "cgroup2", "overlay", NULL};

static bool storage(unsigned long magic)
{
	for (size_t i = 0; i < sizeof(storage_fs) / sizeof(storage_fs[0]); i++)
		if (storage_fs[i].magic == magic)
			return true;
	return false;
}

static const char *fs_name(unsigned long magic, char *buf, size_t len)
{
	for (size_t i = 0; i < sizeof(kernel_fs) / sizeof(kernel_fs[0]); i++)
		if (kernel_fs[i].magic == magic)
			return kernel_fs[i].name;
	snprintf(buf, len, "0x%lx", magic);
	return buf;
}

static bool listed(const char *const *v, const char *s)
{
	for (size_t i = 0; v[i]; i++)
		if (strcmp(v[i], s) == 0)
			return true;
	return false;
}

/* Why the host path p may not reach the container; NULL if it may. */
static const char *host_problem(const struct host_facts *h, const struct host_path *p, char *buf,
                                size_t len)
{
	char t[32];

	if (!p->resolved) {
		snprintf(buf, len, "cannot be opened (%s): a path ward cannot decide on is refused",
		         strerror(p->err));
		return buf;
	}
	for (size_t k = 0; k < h->n_sensitive; k++) {
		const struct host_sensitive *s = &h->sensitive[k];
		unsigned r = p->rel[k];
		bool dir = S_ISDIR(p->st.st_mode);

		/* Harmless read-only: writable_problem's. */
		if (s->kind == SENS_TRUSTED || s->kind == SENS_HOME)
			continue;
		if (r & REL_IS) {
			snprintf(buf, len, "%s %s",
			         s->kind == SENS_SOCKET ? "is the container engine socket"
			                                : "is the host's",
			         s->kind == SENS_ROOT ? "root filesystem" : s->path);
			return buf;
		}
		if ((r & REL_CONTAINS) && s->kind != SENS_ROOT) {
			snprintf(buf, len, "contains %s %s",
			         s->kind == SENS_SOCKET ? "the container engine socket"
			                                : "the host's",
			         s->path);
			return buf;
		}
		if (!(r & REL_INSIDE))
			continue;
		if (s->kind == SENS_TREE || (s->kind == SENS_DEV && dir) ||
		    (s->kind == SENS_ETC && (dir || !listed(etc_files, p->real)))) {
			snprintf(buf, len, "is inside the host's %s", s->path);
			return buf;
		}
	}
	/* Device nodes are the device rules' business (they live on devtmpfs). */
	if (!S_ISCHR(p->st.st_mode) && !S_ISBLK(p->st.st_mode) && !storage(p->fs_type)) {
		snprintf(buf, len, "is on a %s filesystem (a kernel interface, not storage)",
		         fs_name(p->fs_type, t, sizeof(t)));
		return buf;
	}
	if (S_ISSOCK(p->st.st_mode)) {
		for (size_t k = 0; k < h->n_sensitive; k++)
			if ((p->rel[k] & REL_INSIDE) &&
			    (strcmp(h->sensitive[k].path, "/run") == 0 ||
			     strcmp(h->sensitive[k].path, "/var/run") == 0)) {
				snprintf(buf, len,
				         "is a socket of a host service (inside the host's %s: "
				         "systemd, D-Bus, engine shims)",
				         h->sensitive[k].path);
				return buf;
			}
	}
	if (S_ISSOCK(p->st.st_mode)) {
		const char *base = strrchr(p->real, '/') ? strrchr(p->real, '/') + 1 : p->real;

		for (size_t i = 0; host_engine_socket_names[i]; i++)
			if (strcmp(base, host_engine_socket_names[i]) == 0) {
				snprintf(buf, len, "is a container engine socket");
				return buf;
			}
	}
	if (p->socket[0]) {
		const char *base =
		    strrchr(p->socket, '/') ? strrchr(p->socket, '/') + 1 : p->socket;
		bool engine = false;

		for (size_t i = 0; host_engine_socket_names[i]; i++)
			engine = engine || strcmp(base, host_engine_socket_names[i]) == 0;
		if (engine)
			snprintf(buf, len, "holds a container engine socket (.%s)", p->socket);
		else
			snprintf(buf, len,
			         "holds a unix socket (.%s): the service behind it would take the "
			         "container's root as its client, read-only or not",
			         p->socket);
		return buf;
	}
	if (S_ISSOCK(p->st.st_mode)) {
		snprintf(buf, len,
		         "is a unix socket: the service behind it would take the container's root "
		         "as its client");
		return buf;
	}
	if (p->scan_incomplete) {
		snprintf(buf, len, "is too large to check (sockets, submounts)");
		return buf;
	}
	return NULL;
}

/* p is inside the home directory home (as its real path) in one of its
 * dot-entries; a path that cannot be placed by name below it (an alias of
 * the home by another mount) counts as one: fail closed. */
static bool in_dot_entry(const char *real, const char *home)
{
	size_t n = strlen(home);

	return strncmp(real, home, n) != 0 || real[n] != '/' || real[n + 1] == '.';
}

/* Inside an engine's state directory, what the engine makes for containers
 * to write: volumes and per-container files, by the engines' own layouts
 * (fnmatch patterns below the directory, matching the path or one of its
 * ancestors). Everything else there is the engine's own state - image
 * layers, other containers' bundles and configs (Docker reads
 * hostconfig.json's "Privileged" as root at its next start) - and is
 * refused writable: an allow-list, so an unknown layout fails closed. */
struct engine_layout {
	const char *engine, *data;
};

static const struct engine_layout engine_data[] = {
    /* Podman and CRI-O: not userdata itself, which holds the container's
     * config.json that the next start reads as root. */
    {"/var/lib/containers", "storage/overlay-containers/*/userdata/hosts"},
    {"/var/lib/containers", "storage/overlay-containers/*/userdata/hostname"},
    {"/var/lib/containers", "storage/overlay-containers/*/userdata/resolv.conf"},
    {"/var/lib/containers", "storage/overlay-containers/*/userdata/shm"},
    {"/var/lib/containers", "storage/overlay-containers/*/userdata/.containerenv"},
    {"/var/lib/containers", "storage/overlay-containers/*/userdata/run"},
    {"/var/lib/containers", "storage/volumes/*/_data"},
    {"/run/containers", "storage/overlay-containers/*/userdata/hosts"},
    {"/run/containers", "storage/overlay-containers/*/userdata/hostname"},
    {"/run/containers", "storage/overlay-containers/*/userdata/resolv.conf"},
    {"/run/containers", "storage/overlay-containers/*/userdata/shm"},
    {"/run/containers", "storage/overlay-containers/*/userdata/.containerenv"},
    {"/run/containers", "storage/overlay-containers/*/userdata/run"},
    /* Docker: not containers/<id> itself (config.v2.json, hostconfig.json). */
    {"/var/lib/docker", "containers/*/hosts"},
    {"/var/lib/docker", "containers/*/hostname"},
    {"/var/lib/docker", "containers/*/resolv.conf"},
    {"/var/lib/docker", "containers/*/shm"},
    {"/var/lib/docker", "containers/*/mounts"},
    {"/var/lib/docker", "volumes/*/_data"},
    /* containerd's CRI plugin and the kubelet. */
    {"/var/lib/containerd", "io.containerd.grpc.v1.cri/sandboxes/*/hosts"},
    {"/var/lib/containerd", "io.containerd.grpc.v1.cri/sandboxes/*/hostname"},
    {"/var/lib/containerd", "io.containerd.grpc.v1.cri/sandboxes/*/resolv.conf"},
    {"/var/lib/containerd", "io.containerd.grpc.v1.cri/sandboxes/*/shm"},
    {"/var/lib/containerd", "io.containerd.grpc.v1.cri/containers/*/volumes"},
    {"/run/containerd", "io.containerd.grpc.v1.cri/sandboxes/*/shm"},
    {"/var/lib/kubelet", "pods/*/volumes"},
    {"/var/lib/kubelet", "pods/*/volume-subpaths"},
    {"/var/lib/kubelet", "pods/*/containers"},
    {"/var/lib/kubelet", "pods/*/etc-hosts"},
};

/* Where engines put a container's root filesystem (an overlay mount, a
 * snapshot): a rootfs inside an engine's state must be one of these. */
static const struct engine_layout engine_rootfs[] = {
    {"/var/lib/containers", "storage/overlay/*/merged"},
    {"/var/lib/containers", "storage/vfs/dir/*"},
    {"/var/lib/docker", "overlay2/*/merged"},
    {"/var/lib/docker", "vfs/dir/*"},
    {"/run/containerd", "io.containerd.runtime.v2.task/*/*/rootfs"},
    {"/var/lib/containerd", "io.containerd.snapshotter.v1.overlayfs/snapshots/*/fs"},
};

/* p (by its real path) is at or below one of the n patterns of t for
 * engine (fnmatch below the engine's directory). */
static bool engine_match(const struct engine_layout *t, size_t n, const char *engine,
                         const char *real)
{
	size_t len = strlen(engine);
	const char *rest = real + len + 1;

	if (strncmp(real, engine, len) != 0 || real[len] != '/')
		return false; /* not placed by name: an alias of the directory */
	for (size_t i = 0; i < n; i++) {
		char head[PATH_MAX];
		size_t parts = 1, l = 0;

		if (strcmp(t[i].engine, engine) != 0)
			continue;
		for (const char *c = t[i].data; *c; c++)
			parts += *c == '/';
		/* The first `parts` components of rest. */
		while (rest[l] && parts) {
			if (rest[l] == '/' && --parts == 0)
				break;
			l++;
		}
		if (l >= sizeof(head))
			continue;
		memcpy(head, rest, l);
		head[l] = '\0';
		if (fnmatch(t[i].data, head, FNM_PATHNAME | FNM_PERIOD) == 0)
			return true;
	}
	return false;
}

/* What a writable bind of p would let the container change, as a clause
 * after the path ("is inside the host's /usr"); NULL if nothing. Without a
 * user namespace the container's root is the host's: what host root (or a
 * user logging in) runs or trusts must not be writable from it. */
static const char *writable_problem(const struct host_facts *h, const struct host_path *p,
                                    bool rootfs, char *buf, size_t len)
{
	/* Inside an engine's state: only what it makes for containers to write
	 * (its volumes and per-container files are the container's, programs
	 * in them included; a root filesystem where it mounts them). */
	for (size_t k = 0; k < h->n_sensitive; k++) {
		const struct host_sensitive *s = &h->sensitive[k];

		if (!(p->rel[k] & REL_INSIDE) || s->kind != SENS_ENGINE)
			continue;
		if (rootfs ? engine_match(engine_rootfs,
		                          sizeof(engine_rootfs) / sizeof(engine_rootfs[0]), s->path,
		                          p->real)
		           : engine_match(engine_data, sizeof(engine_data) / sizeof(engine_data[0]),
		                          s->path, p->real))
			return NULL;
		snprintf(buf, len,
		         "is inside %s, a container engine's own state (image layers, other "
		         "containers' files, its configuration), not a volume or per-container "
		         "file it makes for containers,",
		         s->path);
		return buf;
	}
	for (size_t k = 0; k < h->n_sensitive; k++) {
		const struct host_sensitive *s = &h->sensitive[k];
		unsigned r = p->rel[k];
		const char *how = r & REL_IS ? "is" : r & REL_CONTAINS ? "contains" : "is inside";

		if ((r & REL_INSIDE) && (s->kind == SENS_SYSTEM || s->kind == SENS_ETC)) {
			snprintf(buf, len, "is inside the host's %s", s->path);
			return buf;
		}
		if (r && s->kind == SENS_TRUSTED) {
			snprintf(buf, len,
			         "%s the host's %s, whose contents the host's root runs or "
			         "trusts (package scripts, scheduled jobs, service state),",
			         how, s->path);
			return buf;
		}
		if (s->kind == SENS_HOME &&
		    ((r & (REL_IS | REL_CONTAINS)) ||
		     ((r & REL_INSIDE) && in_dot_entry(p->real, s->path)))) {
			snprintf(buf, len,
			         "%s the home directory %s (its dot-files and .ssh: what its user "
			         "runs and trusts at login),",
			         r & (REL_IS | REL_CONTAINS) ? how : "is inside a dot-entry of",
			         s->path);
			return buf;
		}
	}
	/* Rootless, the ids are the user namespace's: the caller's own files
	 * show as root's, and the host's root's are the overflow uid, which
	 * the container cannot write anyway. */
	/* An image is root's programs: the rule is for trees that are not. */
	if (p->root_exec[0] && !h->rootless && !rootfs) {
		snprintf(buf, len,
		         "holds %s%s, a program owned by root (the host's root may run it),",
		         strcmp(p->root_exec, p->real) == 0 ? "" : ".", p->root_exec);
		return buf;
	}
	return NULL;
}

/* mount:<path as written> or mount:<path resolved>. */
static bool path_optout(struct policy_ctx *x, const char *written, const struct host_path *p)
{
	/* The names whole (a config's path may be longer than PATH_MAX): a
	 * cut one could be an opt-out the operator gave another path. */
	_cleanup_free_ char *as_written = xasprintf("mount:%s", written);
	_cleanup_free_ char *as_real = xasprintf("mount:%s", p->real);

	if (written[0] == '/' && policy_optout(x, as_written))
		return true;
	return p->resolved && policy_optout(x, as_real);
}

static int refuse_path(struct policy_ctx *x, const char *field, const char *written,
                       const struct host_path *p)
{
	char why[PATH_MAX + 128], opt[PATH_MAX + 8];
	const char *problem;

	/* A path that does not exist is create's error to report (no fd, no
	 * mount: it fails there, naming it); anything else that cannot be
	 * opened or placed (a magic link, a path ward may not read) is refused
	 * here. */
	if (!p->resolved && p->err == ENOENT)
		return policy_note(x, field, "%s does not exist: the create will fail there",
		                   written);
	problem = host_problem(x->facts, p, why, sizeof(why));
	if (problem && !p->resolved)
		return policy_refuse(x, field, NULL, "%s %s", written, problem);
	if (problem == NULL || path_optout(x, written, p))
		return 0;
	snprintf(opt, sizeof(opt), "mount:%s", p->real);
	return policy_refuse(x, field, opt, "%s %s", written, problem);
}

/* A recursive bind (and the rootfs) takes the mounts below it along: each
 * is judged like the path itself. */
static int refuse_submounts(struct policy_ctx *x, const char *field, const char *written,
                            const struct host_path *p)
{
	char why[PATH_MAX + 128], opt[PATH_MAX + 8];

	if (path_optout(x, written, p))
		return 0;
	for (size_t i = 0; i < p->n_sub; i++) {
		const struct host_path *s = &p->sub[i];
		const char *problem = host_problem(x->facts, s, why, sizeof(why));

		if (problem == NULL)
			continue;
		snprintf(opt, sizeof(opt), "mount:%s", p->real);
		return policy_refuse(x, field, s->resolved ? opt : NULL, "%s: the mount at %s %s",
		                     written, s->real[0] ? s->real : "(below it)", problem);
	}
	return 0;
}

int policy_refuse_root(struct policy_ctx *x)
{
	const struct host_path *p = &x->facts->root;
	const char *path = x->cfg->root ? x->cfg->root->path : NULL;
	size_t refused = x->n_refused;
	char why[PATH_MAX * 2 + 160];
	const char *in;

	if (path == NULL)
		return 0;
	if (refuse_path(x, ".root.path", path, p) < 0 ||
	    (refused == x->n_refused && refuse_submounts(x, ".root.path", path, p) < 0))
		return -1;
	/* A root filesystem is written, read-only or not: ward makes its mount
	 * points in it, and the container writes it unless root.readonly. So
	 * it is judged as a writable bind is (an attacker's review had a home
	 * directory, /usr/local and dpkg's database as a rootfs). */
	if (!p->resolved || refused != x->n_refused || path_optout(x, path, p) ||
	    (in = writable_problem(x->facts, p, true, why, sizeof(why))) == NULL)
		return 0;
	{
		_cleanup_free_ char *opt = xasprintf("mount:%s", p->real);

		return policy_refuse(x, ".root.path", opt,
		                     "%s %s and a root filesystem is written (ward makes its mount "
		                     "points in it)",
		                     path, in);
	}
}

static bool has_option(const struct oci_mount *m, const char *o)
{
	return cfg_strv_has(m->options, m->n_options, o);
}

/* A bind source: device nodes by the device rules, everything else by the
 * host path rules. */
static int refuse_bind(struct policy_ctx *x, size_t i, const struct host_path *src,
                       struct werror *err)
{
	const struct oci_mount *m = &x->cfg->mounts[i];
	char field[64];
	size_t refused;
	bool rec;

	snprintf(field, sizeof(field), ".mounts[%zu].source", i);
	if (src->resolved && (S_ISCHR(src->st.st_mode) || S_ISBLK(src->st.st_mode))) {
		struct device_verdict v = {0};
		const char *dopt =
		    policy_device_optout(S_ISBLK(src->st.st_mode) ? 'b' : 'c',
		                         major(src->st.st_rdev), minor(src->st.st_rdev), &v);

		if (dopt && !policy_optout(x, dopt) && !path_optout(x, m->source, src) &&
		    policy_refuse(x, field, dopt, "%s is a device node for %s", m->source, v.why) <
		        0)
			return -1;
		return 0;
	}
	refused = x->n_refused;
	/* One refusal per source: the first reason is enough. */
	if (refuse_path(x, field, m->source, src) < 0 ||
	    (refused == x->n_refused && has_option(m, "rbind") &&
	     refuse_submounts(x, field, m->source, src) < 0))
		return -1;
	/* One refusal per source: the first reason is enough. */
	if (src->resolved && refused == x->n_refused && !mount_is_read_only(m, err) &&
	    !path_optout(x, m->source, src)) {
		_cleanup_free_ char *opt = xasprintf("mount:%s", src->real);
		char why[PATH_MAX * 2 + 160];
		const char *in = writable_problem(x->facts, src, false, why, sizeof(why));

		/* What a recursive bind takes along is as writable. */
		for (size_t k = 0; in == NULL && has_option(m, "rbind") && k < src->n_sub; k++)
			if ((in = writable_problem(x->facts, &src->sub[k], false, why,
			                           sizeof(why))) != NULL)
				return policy_refuse(
				    x, field, opt,
				    "%s: the mount at %s %s and would be writable: "
				    "bind it read-only (\"ro\")",
				    m->source, src->sub[k].real, in);
		if (in && policy_refuse(x, field, opt,
		                        "%s %s and would be writable: bind it read-only (\"ro\")",
		                        m->source, in) < 0)
			return -1;
	}
	/* strict: an idmapped bind shows host files as the container's own
	 * (a bind of /usr became writable by container root). */
	if (x->profile == PROFILE_STRICT && idmap_wanted(m, &rec) && !policy_optout(x, "idmap")) {
		snprintf(field, sizeof(field), ".mounts[%zu].options", i);
		return policy_refuse(x, field, "idmap",
		                     "an idmapped mount makes host files the container's own");
	}
	return 0;
}

/* A pid namespace is listed, and it is not the host's. */
static bool own_pid_ns(const struct policy_ctx *x)
{
	const struct oci_linux *l = x->cfg->linux;

	for (size_t k = 0; l && k < l->n_namespaces; k++)
		if (l->namespaces[k].flag == CLONE_NEWPID)
			return !(k < x->facts->n_ns && x->facts->ns_host[k]);
	return false;
}

/* Non-bind mounts: the filesystem types a container needs. */
static int refuse_fs(struct policy_ctx *x, size_t i)
{
	const struct oci_mount *m = &x->cfg->mounts[i];
	const struct host_facts *h = x->facts;
	_cleanup_free_ char *opt = NULL;
	char field[64];
	const char *type = m->type ? m->type : "";

	snprintf(field, sizeof(field), ".mounts[%zu].type", i);
	opt = xasprintf("mount-type.%s", type); /* whole: a cut name is another */
	if (type[0] == '\0')
		return 0; /* create's error: a type is required unless binding */
	if (!listed(fs_types, type))
		return policy_optout(x, opt)
		           ? 0
		           : policy_refuse(
		                 x, field, opt,
		                 "%s: filesystem type \"%s\" is not one a container needs "
		                 "(%s)",
		                 m->destination, type,
		                 "tmpfs, proc, sysfs, devpts, mqueue, cgroup, cgroup2, "
		                 "overlay, bind");
	/* A second procfs shows what the first one's masks hide. */
	if (strcmp(type, "proc") == 0 && !policy_optout(x, opt)) {
		if (strcmp(m->destination, "/proc") != 0)
			return policy_refuse(x, field, opt, "proc goes only at /proc (here: %s)",
			                     m->destination);
		if (!own_pid_ns(x))
			return policy_refuse(x, field, opt,
			                     "proc needs a pid namespace that is not the host's");
	}
	/* Every layer of an overlay is a host path like a bind source. */
	if (strcmp(type, "overlay") == 0) {
		if (i >= h->n_mounts || h->n_overlay[i] == 0)
			return policy_refuse(x, field, opt, "%s: overlay without layers",
			                     m->destination);
		snprintf(field, sizeof(field), ".mounts[%zu].options", i);
		/* overlayfs wants upperdir and workdir on one mount, looked up by
		 * name when it mounts: only read-only overlays are mounted from
		 * fds decided on here. */
		for (size_t k = 0; k < m->n_options; k++)
			if (strncmp(m->options[k], "upperdir=", 9) == 0 ||
			    strncmp(m->options[k], "workdir=", 8) == 0)
				return policy_refuse(
				    x, field, opt,
				    "%s: an overlay with an upper layer (only read-only "
				    "overlays, lowerdir alone, are mounted from checked "
				    "layers)",
				    m->destination);
		for (size_t k = 0; k < h->n_overlay[i]; k++)
			if (refuse_path(x, field,
			                h->overlay[i][k].real[0] ? h->overlay[i][k].real
			                                         : "(overlay layer)",
			                &h->overlay[i][k]) < 0)
				return -1;
	}
	return 0;
}

int policy_refuse_mounts(struct policy_ctx *x, struct werror *err)
{
	const struct host_facts *h = x->facts;

	for (size_t i = 0; i < x->cfg->n_mounts; i++) {
		const struct oci_mount *m = &x->cfg->mounts[i];
		char field[64];

		/* These act on mounts that exist (the host's), not on a new one:
		 * remount changed a host tmpfs's size. No opt-out. */
		snprintf(field, sizeof(field), ".mounts[%zu].options", i);
		for (size_t k = 0; k < m->n_options; k++) {
			const char *o = m->options[k];

			if ((strcmp(o, "remount") == 0 || strcmp(o, "move") == 0 ||
			     strcmp(o, "rmove") == 0) &&
			    policy_refuse(x, field, NULL,
			                  "\"%s\" acts on an existing mount, not a new one", o) < 0)
				return -1;
		}
		/* v1's release_agent runs a host program as root (CVE-2022-0492). */
		snprintf(field, sizeof(field), ".mounts[%zu].source", i);
		if (m->type &&
		    (strcmp(m->type, "cgroup") == 0 || strcmp(m->type, "cgroup2") == 0) &&
		    has_option(m, "rw") && !policy_optout(x, "cgroup-rw") && h->cgroup_v1 &&
		    policy_refuse(x, field, "cgroup-rw",
		                  "a writable cgroup v1 mount (release_agent runs host "
		                  "programs)") < 0)
			return -1;
		if (mount_is_bind(m)) {
			if (m->source && i < h->n_mounts &&
			    refuse_bind(x, i, &h->mounts[i], err) < 0)
				return -1;
		} else if (refuse_fs(x, i) < 0) {
			return -1;
		}
	}
	return 0;
}
