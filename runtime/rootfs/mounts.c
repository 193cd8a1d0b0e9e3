#include "rootfs/mounts.h"
#include "lib/strfmt.h"
#include "linux/sys_mount.h"
#include "linux/mount_prim.h"
#include "rootfs/cgroup_mount.h"
#include "rootfs/copyup.h"
#include "rootfs/mount_target.h"
#include "lib/cleanup.h"
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

/* CVE-2019-16884 / CVE-2019-19921 class: what ends up at /proc and /sys must
 * be the real filesystem, checked on the new mount itself. */
static int verify_fs_type(int mnt, const char *type, struct werror *err)
{
	struct statfs sfs;
	long want;

	if (strcmp(type, "proc") == 0)
		want = PROC_SUPER_MAGIC;
	else if (strcmp(type, "sysfs") == 0)
		want = SYSFS_MAGIC;
	else
		return 0;
	if (fstatfs(mnt, &sfs) < 0 || sfs.f_type != want)
		return werr(err, EPERM, "the new mount is not %s", type);
	return 0;
}

/* Attach a detached tree made elsewhere (an idmapped one), with attributes. */
static int attach_tree(int tree, int dfd, unsigned long set, unsigned long clr,
                       const struct mount_opts *o, struct werror *err)
{
	struct mount_attr attr = {.attr_set = set, .attr_clr = clr};
	struct mount_attr rattr = {.attr_set = o->rec_set, .attr_clr = o->rec_clr};

	if ((o->rec_set || o->rec_clr) &&
	    sys_mount_setattr(tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &rattr, sizeof(rattr)) < 0)
		return werr(err, errno, "setting recursive mount attributes");
	if ((set || clr) && sys_mount_setattr(tree, "", AT_EMPTY_PATH, &attr, sizeof(attr)) < 0)
		return werr(err, errno, "setting mount attributes");
	if (sys_move_mount(tree, "", dfd, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) <
	    0)
		return werr(err, errno, "move_mount");
	return 0;
}

static int bind_entry(const struct oci_mount *m, int sfd, bool is_tree, int dfd,
                      const struct mount_opts *o, struct werror *err)
{
	_cleanup_close_ int clone = -1;
	unsigned long set, clr;
	int tree = sfd;

	/* The kernel ignores data with MS_BIND; runc and crun pass them on, so
	 * configs carry them ("mode=755,size=1k" in runtime-tools'). Said, not
	 * refused. */
	if (o->data != NULL)
		log_warn("mounts (%s): a bind mount ignores the option(s) \"%s\"", m->destination,
		         o->data);
	set = mount_ms_to_attr(o->flags);
	clr = mount_ms_to_attr(o->cleared);
	mount_atime_attr(o->flags, &set, &clr);
	if (!is_tree) {
		clone =
		    tree_clone(sfd, "", AT_EMPTY_PATH | (o->recursive ? AT_RECURSIVE : 0), false);
		if (clone < 0)
			return werr(err, errno, "open_tree");
		tree = clone;
	}
	if (attach_tree(tree, dfd, set, clr, o, err) < 0)
		return -1;
	/* Attached now: the tree's fd is the mount. */
	if (o->propagation && sys_mount(NULL, fd_path(tree).s, NULL, o->propagation, NULL) < 0)
		return werr(err, errno, "setting propagation");
	return 0;
}

/* An overlay's layers, attached (a tmpfs at the destination holds them,
 * covered by the overlay afterwards: overlayfs takes only mounts of the
 * caller's namespace) and named by their fds: o->data's lowerdir, upperdir
 * and workdir are rewritten to /proc/self/fd/N, in the order they came. */
static int overlay_layers(int dfd, const int *layers, size_t n, struct mount_opts *o, int *staging,
                          struct werror *err)
{
	char *data = o->data ? o->data : "", *out, *tok, *save = NULL;
	size_t k = 0, cap = strlen(data) + n * 32 + 1;
	_cleanup_close_ int fs = -1;
	int r = 0, st;

	out = calloc(1, cap);
	if (out == NULL)
		return werr(err, ENOMEM, "out of memory");
	fs = mount_fs_detached("tmpfs", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
	                       "mode=700,size=4k", "the overlay's staging tmpfs", err);
	if (fs < 0 || sys_move_mount(fs, "", dfd, "",
	                             MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0) {
		r = fs < 0 ? -1 : werr(err, errno, "overlay: attaching the staging tmpfs");
		free(out);
		return r;
	}
	st = *staging = TAKE_FD(fs); /* the caller's now */
	for (size_t i = 0; r == 0 && i < n; i++) {
		char name[24];
		_cleanup_close_ int sub = -1;

		snprintf(name, sizeof(name), "%zu", i);
		if (mkdirat(st, name, 0700) < 0 ||
		    (sub = openat(st, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
			r = werr(err, errno, "overlay: staging layer %zu", i);
			break;
		}
		if (sys_move_mount(layers[i], "", sub, "",
		                   MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
			r = werr(err, errno, "overlay: attaching layer %zu", i);
	}
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
				r = werr(err, EINVAL,
				         "overlay: more layers than the parent opened");
				break;
			}
			if (fmt_fit(fdp, sizeof(fdp), "%s/proc/self/fd/%d",
			            p == tok + kl ? "" : ":", layers[k++]) < 0) {
				r = werr(err, errno, "overlay: layer %zu", k - 1);
				break;
			}
			strcat(out, fdp);
			p += len + (p[len] == ':');
		}
	}
	if (r == 0 && k != n)
		r = werr(err, EINVAL, "overlay: the layers do not match the options");
	free(o->data);
	o->data = out;
	return r;
}

/* A filesystem (not a bind), made detached, checked and filled on its own
 * fd, then attached to the target fd. */
static int fs_entry(const struct oci_mount *m, const char *type, int dfd, const int *layers,
                    size_t n_layers, struct mount_opts *o, int *late_ro, struct werror *err)
{
	/* A read-only tmpfs is made read-only once its contents are there
	 * (mounts_finish_readonly, on this mount's own fd). */
	unsigned long later = strcmp(type, "tmpfs") == 0 ? MS_RDONLY : 0;
	_cleanup_close_ int staging = -1, under = -1, mnt = -1;
	int target = dfd;

	if (strcmp(type, "overlay") == 0 && n_layers) {
		if (overlay_layers(dfd, layers, n_layers, o, &staging, err) < 0)
			return -1;
		target = staging;
	}
	/* tmpcopyup: the directory that is there, before it is covered. */
	if (o->tmpcopyup && strcmp(type, "tmpfs") == 0 &&
	    (under = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return werr(err, errno, "tmpcopyup: opening %s", m->destination);
	mnt =
	    mount_fs_detached(type, m->source, o->flags & ~(unsigned long)PROPAGATION_MASK & ~later,
	                      o->data, m->destination, err);
	if (mnt < 0)
		return -1;
	if (under >= 0) {
		_cleanup_close_ int top = openat(mnt, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (top < 0 || copyup_tree(under, top, err) < 0)
			return top < 0 ? werr(err, errno, "tmpcopyup") : -1;
	}
	if (verify_fs_type(mnt, type, err) < 0)
		return -1;
	if (o->rec_set || o->rec_clr) {
		struct mount_attr rattr = {.attr_set = o->rec_set, .attr_clr = o->rec_clr};

		if (sys_mount_setattr(mnt, "", AT_EMPTY_PATH | AT_RECURSIVE, &rattr,
		                      sizeof(rattr)) < 0)
			return werr(err, errno, "setting recursive mount attributes");
	}
	if (sys_move_mount(mnt, "", target, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) <
	    0)
		return werr(err, errno, "mounting %s on %s", type, m->destination);
	/* Attached now: the fd is the mount. */
	if (o->propagation && sys_mount(NULL, fd_path(mnt).s, NULL, o->propagation, NULL) < 0)
		return werr(err, errno, "setting propagation");
	if ((o->flags & later) && (*late_ro = fcntl(mnt, F_DUPFD_CLOEXEC, 3)) < 0)
		return werr(err, errno, "keeping %s for read-only", m->destination);
	return 0;
}

int mount_entry(int rootfd, const struct oci_mount *m, int src_fd, bool src_is_tree,
                const int *layers, size_t n_layers, size_t idx, const struct cgroup_self *cg_self,
                int *late_ro, struct werror *err)
{
	const char *type = m->type && m->type[0] ? m->type : NULL;
	bool bind = mount_is_bind(m), dir = true;
	_cleanup_close_ int dfd = -1;
	struct mount_opts o;
	int r;

	if (!bind && type == NULL)
		return werr(err, EINVAL, "mounts[%zu] (%s): type is required unless binding", idx,
		            m->destination);
	if (bind) {
		struct stat st;

		if (fstat(src_fd, &st) < 0)
			return werr(err, errno, "mounts[%zu] (%s): source %s", idx, m->destination,
			            m->source);
		dir = S_ISDIR(st.st_mode);
	}
	/* Resolved once: the checks and the mount act on this fd. */
	dfd = target_open(rootfd, m->destination, dir, err);
	if (dfd < 0 || target_check_proc(rootfd, dfd, m, bind ? src_fd : -1, err) < 0)
		return werr_ctx(err, "mounts[%zu] (%s)", idx, m->destination);
	if (mount_parse_options(m->options, m->n_options, &o, err) < 0)
		return werr_ctx(err, "mounts[%zu] (%s)", idx, m->destination);
	/* CVE-2023-25809: in a user namespace without a cgroup namespace, the
	 * cgroups a cgroup mount or a bind of the host's /sys shows may be
	 * the container root's own (rootless: the user's), limits included.
	 * As runc since 1.1.5: a cgroup mount is read-only whatever it asks,
	 * and a read-only recursive bind is read-only all the way down. */
	if (cg_self->read_only && !bind && strcmp(type, "cgroup") == 0)
		o.flags |= MS_RDONLY;
	if (cg_self->read_only && bind && o.recursive && (o.flags & MS_RDONLY))
		o.rec_set |= MOUNT_ATTR_RDONLY;
	if (bind) {
		r = bind_entry(m, src_fd, src_is_tree, dfd, &o, err);
	} else if (strcmp(type, "cgroup") == 0) {
		/* cgroupfs, one mount per v1 hierarchy below the destination
		 * (rootfs/cgroup_mount.c). */
		r = cgroup_mount(rootfd, m, &o, cg_self, err);
	} else {
		r = fs_entry(m, type, dfd, layers, n_layers, &o, late_ro, err);
	}
	mount_opts_free(&o);
	if (r < 0)
		return werr_ctx(err, "mounts[%zu] (%s)", idx, m->destination);
	return 0;
}

int mounts_finish_readonly(const struct oci_config *c, int *late_ro, struct werror *err)
{
	int r = 0;

	for (size_t i = 0; i < c->n_mounts; i++) {
		struct mount_attr attr = {.attr_set = MOUNT_ATTR_RDONLY};

		if (late_ro[i] < 0)
			continue;
		if (r == 0 &&
		    sys_mount_setattr(late_ro[i], "", AT_EMPTY_PATH, &attr, sizeof(attr)) < 0)
			r = werr(err, errno, "mounts[%zu] (%s): making it read-only", i,
			         c->mounts[i].destination);
		close(late_ro[i]);
		late_ro[i] = -1;
	}
	return r;
}
