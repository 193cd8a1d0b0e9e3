#include "rootfs/mounts.h"
#include "linux/mount_prim.h"
#include "rootfs/cgroup_mount.h"
#include "rootfs/copyup.h"
#include "lib/error.h"
#include "lib/log.h"
#include "linux/pathres.h"

#include <errno.h>
#include <fcntl.h>
#include <libmount.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

static unsigned long ms_to_attr(unsigned long ms)
{
	unsigned long a = 0;

	if (ms & MS_RDONLY)
		a |= MOUNT_ATTR_RDONLY;
	if (ms & MS_NOSUID)
		a |= MOUNT_ATTR_NOSUID;
	if (ms & MS_NODEV)
		a |= MOUNT_ATTR_NODEV;
	if (ms & MS_NOEXEC)
		a |= MOUNT_ATTR_NOEXEC;
	if (ms & MS_NODIRATIME)
		a |= MOUNT_ATTR_NODIRATIME;
	if (ms & MS_NOSYMFOLLOW)
		a |= MOUNT_ATTR_NOSYMFOLLOW;
	return a;
}

/* The atime mode is one field, not bits: pick the requested one, if any. */
static void atime_attr(unsigned long ms, unsigned long *set, unsigned long *clr)
{
	if (ms & MS_NOATIME) {
		*set |= MOUNT_ATTR_NOATIME;
		*clr |= MOUNT_ATTR__ATIME;
	} else if (ms & MS_STRICTATIME) {
		*set |= MOUNT_ATTR_STRICTATIME;
		*clr |= MOUNT_ATTR__ATIME;
	} else if (ms & MS_RELATIME) {
		*clr |= MOUNT_ATTR__ATIME;
	}
}

/* CVE-2019-16884 / CVE-2019-19921 class: what ends up at /proc and /sys must
 * be the real filesystem, checked on the mounted result. */
static int verify_fs_type(int rootfd, const char *dest, const char *type)
{
	struct statfs sfs;
	long want;
	int fd, r = 0;

	if (strcmp(type, "proc") == 0)
		want = PROC_SUPER_MAGIC;
	else if (strcmp(type, "sysfs") == 0)
		want = SYSFS_MAGIC;
	else
		return 0;
	fd = root_open(rootfd, dest, O_PATH | O_DIRECTORY);
	if (fd < 0)
		return werr(errno, "re-opening %s", dest);
	if (fstatfs(fd, &sfs) < 0 || sfs.f_type != want)
		r = werr(EPERM, "%s is not a %s mount after mounting", dest, type);
	close(fd);
	return r;
}

/* Attach a detached tree made elsewhere (an idmapped one), with attributes. */
static int attach_tree(int tree, int dfd, unsigned long set, unsigned long clr,
                       const struct mount_opts *o)
{
	struct mount_attr attr = {.attr_set = set, .attr_clr = clr};
	struct mount_attr rattr = {.attr_set = o->rec_set, .attr_clr = o->rec_clr};

	if ((o->rec_set || o->rec_clr) &&
	    mount_setattr(tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &rattr, sizeof(rattr)) < 0)
		return werr(errno, "setting recursive mount attributes");
	if ((set || clr) && mount_setattr(tree, "", AT_EMPTY_PATH, &attr, sizeof(attr)) < 0)
		return werr(errno, "setting mount attributes");
	if (move_mount(tree, "", dfd, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
		return werr(errno, "move_mount");
	return 0;
}

static int bind_entry(int rootfd, const struct oci_mount *m, int sfd, bool is_tree,
                      const struct mount_opts *o)
{
	unsigned long set, clr;
	struct stat st;
	int dfd, r;

	/* The kernel ignores data with MS_BIND; runc and crun pass them on, so
	 * configs carry them ("mode=755,size=1k" in runtime-tools'). Said, not
	 * refused. */
	if (o->data != NULL)
		log_warn("mounts (%s): a bind mount ignores the option(s) \"%s\"", m->destination,
		         o->data);
	if (fstat(sfd, &st) < 0)
		return werr(errno, "source %s", m->source);
	dfd = S_ISDIR(st.st_mode) ? root_mkdir_p(rootfd, m->destination, 0755)
	                          : root_mkfile(rootfd, m->destination, 0644);
	if (dfd < 0)
		return -1;
	set = ms_to_attr(o->flags);
	clr = ms_to_attr(o->cleared);
	atime_attr(o->flags, &set, &clr);
	r = is_tree ? attach_tree(sfd, dfd, set, clr, o)
	            : mount_bind_fd_rec(sfd, dfd, o->recursive, set, clr, o->rec_set, o->rec_clr);
	close(dfd);
	return r;
}

/* Files that lxcfs-style tools cover with their own view of /proc. */
static const char *const proc_allowed[] = {
    "/proc/cpuinfo", "/proc/diskstats", "/proc/meminfo",  "/proc/stat",    "/proc/swaps",
    "/proc/uptime",  "/proc/loadavg",   "/proc/slabinfo", "/proc/net/dev", NULL};

/* CVE-2019-16884 / CVE-2025-52881 class: a mount over procfs can hide the
 * files the runtime or the kernel's protections rely on (attr/, sys/...),
 * or redirect the runtime's own writes. Only procfs goes at /proc, and over
 * procfs only a few read-only views are allowed. The target's filesystem is
 * checked after resolution, so a symlinked destination cannot sneak in. */
static int check_proc_target(int rootfd, const struct oci_mount *m)
{
	bool is_proc = m->type && strcmp(m->type, "proc") == 0 && !mount_is_bind(m);
	struct statfs sfs;
	int fd, r = 0;

	if (strcmp(m->destination, "/proc") == 0)
		return is_proc ? 0 : werr(EPERM, "only procfs may be mounted at /proc");
	fd = root_open(rootfd, m->destination, O_PATH);
	if (fd < 0)
		return 0; /* not there yet: it will be created, and is not on procfs */
	if (fstatfs(fd, &sfs) == 0 && sfs.f_type == PROC_SUPER_MAGIC) {
		char want[PATH_MAX], got[PATH_MAX], root[PATH_MAX];
		bool ok = false;

		for (size_t i = 0; proc_allowed[i]; i++)
			ok = ok || strcmp(m->destination, proc_allowed[i]) == 0;
		/* ...and the destination must be what it says, not a link to it. */
		if (ok) {
			ssize_t n = readlink(fd_path(fd).s, got, sizeof(got) - 1);
			ssize_t rn = readlink(fd_path(rootfd).s, root, sizeof(root) - 1);

			got[n > 0 ? n : 0] = '\0';
			root[rn > 0 ? rn : 0] = '\0';
			snprintf(want, sizeof(want), "%s%s", strcmp(root, "/") ? root : "",
			         m->destination);
			ok = n > 0 && rn > 0 && strcmp(got, want) == 0;
		}
		if (!ok)
			r = werr(EPERM,
			         "mounting over procfs is refused (only %s and a few "
			         "other read-only views are allowed)",
			         "/proc/cpuinfo");
	}
	close(fd);
	return r;
}

/* An overlay's layers, attached (a tmpfs at the destination holds them,
 * covered by the overlay afterwards: overlayfs takes only mounts of the
 * caller's namespace) and named by their fds: o->data's lowerdir, upperdir
 * and workdir are rewritten to /proc/self/fd/N, in the order they came. */
static int overlay_layers(int rootfd, const struct oci_mount *m, const int *layers, size_t n,
                          struct mount_opts *o)
{
	char *data = o->data ? o->data : "", *out, *tok, *save = NULL;
	size_t k = 0, cap = strlen(data) + n * 32 + 1;
	int r = 0, dfd;

	out = calloc(1, cap);
	if (out == NULL)
		return werr(ENOMEM, "out of memory");
	if (mount_fs_at(rootfd, m->destination, "tmpfs", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
	                "mode=700,size=4k") < 0) {
		free(out);
		return -1;
	}
	dfd = root_open(rootfd, m->destination, O_PATH | O_DIRECTORY);
	for (size_t i = 0; r == 0 && i < n; i++) {
		char name[24];
		int sub;

		snprintf(name, sizeof(name), "%zu", i);
		if (dfd < 0 || mkdirat(dfd, name, 0700) < 0 ||
		    (sub = openat(dfd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
			r = werr(errno, "overlay: staging layer %zu", i);
			break;
		}
		if (move_mount(layers[i], "", sub, "",
		               MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
			r = werr(errno, "overlay: attaching layer %zu", i);
		close(sub);
	}
	if (dfd >= 0)
		close(dfd);
	for (tok = strtok_r(data, ",", &save); r == 0 && tok; tok = strtok_r(NULL, ",", &save)) {
		static const char *const keys[] = {"lowerdir=", "upperdir=", "workdir=", NULL};
		size_t kl = 0;

		if (out[0])
			strcat(out, ",");
		for (size_t i = 0; keys[i] && kl == 0; i++)
			if (strncmp(tok, keys[i], strlen(keys[i])) == 0)
				kl = strlen(keys[i]);
		if (kl == 0) {
			strcat(out, tok);
			continue;
		}
		strncat(out, tok, kl);
		for (const char *p = tok + kl; *p && r == 0;) {
			char fdp[32];
			size_t len = strcspn(p, ":");

			if (k >= n) {
				r = werr(EINVAL, "overlay: more layers than the parent opened");
				break;
			}
			snprintf(fdp, sizeof(fdp), "%s/proc/self/fd/%d", p == tok + kl ? "" : ":",
			         layers[k++]);
			strcat(out, fdp);
			p += len + (p[len] == ':');
		}
	}
	if (r == 0 && k != n)
		r = werr(EINVAL, "overlay: the layers do not match the options");
	free(o->data);
	o->data = out;
	return r;
}

int mount_entry(int rootfd, const struct oci_mount *m, int src_fd, bool src_is_tree,
                const int *layers, size_t n_layers, size_t idx)
{
	struct mount_opts o;
	int r;

	if (check_proc_target(rootfd, m) < 0)
		return werr_ctx("mounts[%zu] (%s)", idx, m->destination);
	if (mount_parse_options(m->options, m->n_options, &o) < 0)
		return werr_ctx("mounts[%zu] (%s)", idx, m->destination);
	if (mount_is_bind(m)) {
		r = bind_entry(rootfd, m, src_fd, src_is_tree, &o);
	} else if (m->type && strcmp(m->type, "cgroup") == 0) {
		r = cgroup_mount(rootfd, m, &o);
	} else {
		const char *type = m->type && m->type[0] ? m->type : NULL;
		int dfd;

		if (type == NULL) {
			mount_opts_free(&o);
			return werr(EINVAL, "mounts[%zu] (%s): type is required unless binding",
			            idx, m->destination);
		}
		/* tmpcopyup: the directory that is there, before it is covered. */
		int under = o.tmpcopyup && strcmp(type, "tmpfs") == 0
		                ? root_open(rootfd, m->destination, O_RDONLY | O_DIRECTORY)
		                : -1;

		dfd = root_mkdir_p(rootfd, m->destination, 0755);
		r = dfd;
		if (dfd >= 0) {
			close(dfd);
			r = strcmp(type, "overlay") == 0 && n_layers
			        ? overlay_layers(rootfd, m, layers, n_layers, &o)
			        : 0;
		}
		if (r == 0) {
			unsigned long later = strcmp(type, "tmpfs") == 0 ? MS_RDONLY : 0;

			r = mount_fs_at(rootfd, m->destination, type, m->source,
			                o.flags & ~(unsigned long)PROPAGATION_MASK & ~later,
			                o.data);
		}
		if (r == 0 && under >= 0) {
			int top = root_open(rootfd, m->destination, O_RDONLY | O_DIRECTORY);

			r = top < 0 ? -1 : copyup_tree(under, top);
			if (top >= 0)
				close(top);
		}
		if (under >= 0)
			close(under);
		if (r == 0)
			r = verify_fs_type(rootfd, m->destination, type);
		if (r == 0 && (o.rec_set || o.rec_clr)) {
			struct mount_attr rattr = {.attr_set = o.rec_set, .attr_clr = o.rec_clr};
			int fd = root_open(rootfd, m->destination, O_PATH);

			if (fd < 0 || mount_setattr(fd, "", AT_EMPTY_PATH | AT_RECURSIVE, &rattr,
			                            sizeof(rattr)) < 0)
				r = werr(errno, "setting recursive mount attributes");
			if (fd >= 0)
				close(fd);
		}
	}
	if (r == 0 && o.propagation) {
		int fd = root_open(rootfd, m->destination, O_PATH);

		if (fd < 0 || mount(NULL, fd_path(fd).s, NULL, o.propagation, NULL) < 0)
			r = werr(errno, "setting propagation");
		if (fd >= 0)
			close(fd);
	}
	mount_opts_free(&o);
	if (r < 0)
		return werr_ctx("mounts[%zu] (%s)", idx, m->destination);
	return 0;
}

int mounts_finish_readonly(int rootfd, const struct oci_config *c)
{
	for (size_t i = 0; i < c->n_mounts; i++) {
		const struct oci_mount *m = &c->mounts[i];
		struct mount_attr attr = {.attr_set = MOUNT_ATTR_RDONLY};
		struct mount_opts o;
		bool ro;
		int fd, r = 0;

		if (!m->type || strcmp(m->type, "tmpfs") != 0 || mount_is_bind(m))
			continue;
		if (mount_parse_options(m->options, m->n_options, &o) < 0)
			return werr_ctx("mounts[%zu] (%s)", i, m->destination);
		ro = o.flags & MS_RDONLY;
		mount_opts_free(&o);
		if (!ro)
			continue;
		fd = root_open(rootfd, m->destination, O_PATH);
		if (fd < 0 || mount_setattr(fd, "", AT_EMPTY_PATH, &attr, sizeof(attr)) < 0)
			r = werr(errno, "mounts[%zu] (%s): making it read-only", i, m->destination);
		if (fd >= 0)
			close(fd);
		if (r < 0)
			return -1;
	}
	return 0;
}
