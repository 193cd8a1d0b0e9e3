#include "rootfs/cgroup_mount.h"
#include "lib/strfmt.h"
#include "linux/sys_mount.h"
#include "rootfs/idmap.h"
#include "lib/fileio.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "linux/mount_prim.h"
#include "linux/pathres.h"

#include <errno.h>
#include <fcntl.h>
#include <libmount.h>
#include <limits.h>
#include <stdbool.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/statfs.h>
#include <unistd.h>

#define CG_FLAGS (MS_NOSUID | MS_NODEV | MS_NOEXEC)

/* The controller options of a v1 hierarchy ("cpu", "name=systemd"), from
 * its superblock options with rw/ro dropped. */
static char *v1_data(struct libmnt_fs *fs)
{
	const char *opts = mnt_fs_get_fs_options(fs);
	char *out = calloc(1, opts ? strlen(opts) + 8 : 8);
	char *copy, *tok, *save = NULL;

	if (out == NULL || opts == NULL)
		return out;
	copy = strdup(opts);
	for (tok = copy ? strtok_r(copy, ",", &save) : NULL; tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (strcmp(tok, "rw") == 0 || strcmp(tok, "ro") == 0)
			continue;
		if (out[0])
			strcat(out, ",");
		strcat(out, tok);
	}
	free(copy);
	return out;
}

static int mount_one(int rootfd, const char *dest, const char *name, const char *type,
                     const char *data, unsigned long flags, struct werror *err)
{
	char path[PATH_MAX];
	_cleanup_close_ int fd = -1;

	if (fmt_fit(path, sizeof(path), "%s/%s", dest, name) < 0)
		return werr(err, ENAMETOOLONG, "%s/%s", dest, name);
	fd = root_mkdir_p(rootfd, path, 0755, err);
	if (fd < 0)
		return -1;
	return mount_fs_at(rootfd, path, type, type, flags, data, err);
}

void cgroup_self_read(struct cgroup_self *s, bool own_namespace, bool read_only)
{
	_cleanup_close_ int fd = open("/proc/self/cgroup", O_RDONLY | O_CLOEXEC);
	size_t n;

	*s = (struct cgroup_self){.own_ns = own_namespace, .read_only = read_only};
	/* All of it (a dozen hierarchies of long paths pass any fixed size);
	 * one not read is one that is not bound: under a user namespace a v1
	 * hierarchy cannot be mounted, and its cgroup directory is bound. */
	if (fd >= 0 && read_fd(fd, "/proc/self/cgroup", 1 << 20, &s->lines, &n, NULL) < 0)
		s->lines = NULL;
}

void cgroup_self_free(struct cgroup_self *s)
{
	free(s->lines);
	s->lines = NULL;
}

/* Superblock options of a v1 hierarchy that are not controllers. */
static bool not_a_controller(const char *tok, size_t n)
{
	static const char *const opts[] = {"xattr",          "noprefix",     "clone_children",
	                                   "cpuset_v2_mode", "favordynmods", "nsdelegate"};

	if (n > 14 && strncmp(tok, "release_agent=", 14) == 0)
		return true;
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (strlen(opts[i]) == n && strncmp(tok, opts[i], n) == 0)
			return true;
	return false;
}

/* Whether the comma-separated list a (of length an) holds tok. */
static bool list_has(const char *a, size_t an, const char *tok, size_t n)
{
	for (const char *p = a, *end = a + an; p < end;) {
		size_t k = strcspn(p, ",");

		if (p + k > end)
			k = (size_t)(end - p);
		if (k == n && strncmp(p, tok, n) == 0)
			return true;
		p += k + 1;
	}
	return false;
}

/* The controllers of a /proc/self/cgroup line are those of a hierarchy's
 * superblock options (its "controllers" string, "" for cgroup2), as sets. */
static bool same_controllers(const char *line, size_t ln, const char *opts)
{
	size_t on = strlen(opts);

	for (const char *p = opts; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] != 0)) {
		size_t k = strcspn(p, ",");

		if (!not_a_controller(p, k) && !list_has(line, ln, p, k))
			return false;
	}
	for (const char *p = line, *end = line + ln; p < end;) {
		size_t k = strcspn(p, ",");

		if (p + k > end)
			k = (size_t)(end - p);
		if (k && !list_has(opts, on, p, k))
			return false;
		p += k + 1;
	}
	return true;
}

/* The init's path in the hierarchy with these controllers, or NULL. */
static const char *self_path(const struct cgroup_self *self, const char *controllers, char *buf,
                             size_t len)
{
	for (const char *l = self->lines ? self->lines : ""; *l;
	     l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != 0)) {
		const char *c = strchr(l, ':'), *c2;
		size_t n = strcspn(l, "\n");

		if (c == NULL || (size_t)(c - l) >= n || (c2 = strchr(c + 1, ':')) == NULL ||
		    (size_t)(c2 - l) >= n)
			continue;
		if (same_controllers(c + 1, (size_t)(c2 - c - 1), controllers)) {
			snprintf(buf, len, "%.*s", (int)(n - (size_t)(c2 + 1 - l)), c2 + 1);
			return buf;
		}
	}
	return NULL;
}

/* Bind host dir (the container's own cgroup) onto dest/name, by fd. */
static int bind_one(int rootfd, const char *dest, const char *name, const char *host,
                    unsigned long flags, struct werror *err)
{
	char path[PATH_MAX];
	struct mount_attr attr = {.attr_set = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV |
	                                      MOUNT_ATTR_NOEXEC |
	                                      ((flags & MS_RDONLY) ? MOUNT_ATTR_RDONLY : 0)};
	_cleanup_close_ int tree = -1, fd = -1;

	if (fmt_fit(path, sizeof(path), "%s/%s", dest, name) < 0)
		return werr(err, ENAMETOOLONG, "%s/%s", dest, name);
	fd = root_mkdir_p(rootfd, path, 0755, err);
	if (fd < 0)
		return -1;
	tree = tree_clone(AT_FDCWD, host, 0, false);
	if (tree < 0 || sys_mount_setattr(tree, "", AT_EMPTY_PATH, &attr, sizeof(attr)) < 0 ||
	    sys_move_mount(tree, "", fd, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
		return werr(err, errno, "binding %s on %s", host, path);
	return 0;
}

static int v1_hierarchies(int rootfd, const char *dest, unsigned long flags,
                          const struct cgroup_self *self, struct werror *err)
{
	struct libmnt_table *tb = mnt_new_table_from_file("/proc/self/mountinfo");
	struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs;
	int r = 0;

	if (tb == NULL || it == NULL) {
		r = werr(err, ENOMEM, "reading /proc/self/mountinfo");
		goto out;
	}
	while (r == 0 && mnt_table_next_fs(tb, it, &fs) == 0) {
		const char *type = mnt_fs_get_fstype(fs), *target = mnt_fs_get_target(fs);
		const char *name;

		if (type == NULL || target == NULL || strncmp(target, "/sys/fs/cgroup/", 15) != 0)
			continue;
		name = target + 15;
		if (strchr(name, '/') != NULL)
			continue;
		if (strcmp(type, "cgroup") == 0) {
			char *data = v1_data(fs);
			char own[PATH_MAX], host[PATH_MAX * 2];

			if (data == NULL)
				r = werr(err, ENOMEM, "out of memory");
			else if (!self->own_ns && self_path(self, data, own, sizeof(own)))
				r = -1, errno = EPERM; /* no cgroup namespace: bind */
			else
				r = mount_one(rootfd, dest, name, "cgroup", data, flags, err);
			/* In a user namespace v1 cannot be mounted (only cgroup2
			 * can): bind the container's own cgroup, as runc does. */
			if (r < 0 && errno == EPERM && data &&
			    self_path(self, data, own, sizeof(own))) {
				r = fmt_fit(host, sizeof(host), "%s%s", target, own) < 0
				        ? werr(err, ENAMETOOLONG, "%s%s", target, own)
				        : bind_one(rootfd, dest, name, host, flags, err);
			}
			free(data);
		} else if (strcmp(type, "cgroup2") == 0) {
			char own[PATH_MAX], host[PATH_MAX * 2];

			if (!self->own_ns && self_path(self, "", own, sizeof(own)))
				r = -1, errno = EPERM; /* no cgroup namespace: bind */
			else
				r = mount_one(rootfd, dest, name, "cgroup2", NULL, flags, err);
			if (r < 0 && (errno == EPERM || errno == EBUSY) &&
			    self_path(self, "", own, sizeof(own))) {
				r = fmt_fit(host, sizeof(host), "%s%s", target, own) < 0
				        ? werr(err, ENAMETOOLONG, "%s%s", target, own)
				        : bind_one(rootfd, dest, name, host, flags, err);
			}
		}
	}
out:
	mnt_free_iter(it);
	mnt_unref_table(tb);
	return r;
}

int cgroup_mount(int rootfd, const struct oci_mount *m, const struct mount_opts *o,
                 const struct cgroup_self *self, struct werror *err)
{
	/* Read-write unless "ro" is asked for, as runc mounts it (the
	 * profiles above compat add "ro": policy_adjust.c). */
	unsigned long ro = o->flags & MS_RDONLY;
	struct statfs sfs;
	_cleanup_close_ int fd = root_mkdir_p(rootfd, m->destination, 0755, err);

	if (fd < 0)
		return -1;
	if (statfs("/sys/fs/cgroup", &sfs) < 0)
		return werr(err, errno, "/sys/fs/cgroup on the host");
	if (sfs.f_type == CGROUP2_SUPER_MAGIC) {
		char own[PATH_MAX], host[PATH_MAX + 32];
		int r = -1;

		/* Without a cgroup namespace, the container's own cgroup only. */
		if (!self->own_ns && self_path(self, "", own, sizeof(own)))
			errno = EPERM;
		else
			r = mount_fs_at(rootfd, m->destination, "cgroup2", "cgroup2", CG_FLAGS | ro,
			                NULL, err);
		/* A user namespace without a cgroup namespace of its own; or a
		 * second cgroup2 mount the kernel refuses (EBUSY): bind, as runc
		 * falls back to. */
		if (r < 0 && (errno == EPERM || errno == EBUSY) &&
		    self_path(self, "", own, sizeof(own))) {
			r = fmt_fit(host, sizeof(host), "/sys/fs/cgroup%s", own) < 0
			        ? werr(err, ENAMETOOLONG, "/sys/fs/cgroup%s", own)
			        : bind_one(rootfd, m->destination, ".", host, ro, err);
		}
		return r;
	}
	/* v1 or hybrid: a tmpfs to hold one mount per hierarchy. */
	if (mount_fs_at(rootfd, m->destination, "tmpfs", "cgroup", CG_FLAGS, "mode=755,size=64k",
	                err) < 0 ||
	    v1_hierarchies(rootfd, m->destination, CG_FLAGS | ro, self, err) < 0)
		return -1;
	if (ro) {
		struct mount_attr attr = {.attr_set = MOUNT_ATTR_RDONLY};

		_cleanup_close_ int top = root_open(rootfd, m->destination, O_PATH);

		if (top < 0 || sys_mount_setattr(top, "", AT_EMPTY_PATH, &attr, sizeof(attr)) < 0)
			return werr(err, errno, "making the cgroup tmpfs read-only");
	}
	return 0;
}
