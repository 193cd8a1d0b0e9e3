#include "rootfs/rootfs.h"
#include "linux/sys_mount.h"
#include "rootfs/no_pivot.h"
#include "rootfs/devices.h"
#include "linux/sysctl.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "linux/mount_prim.h"
#include "rootfs/mounts.h"
#include "rootfs/masks.h"
#include "linux/pathres.h"

#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static unsigned long propagation_flags(const char *p)
{
	unsigned long rec = p[0] == 'r' ? MS_REC : 0;
	const char *base = rec ? p + 1 : p;

	if (strcmp(base, "shared") == 0)
		return MS_SHARED | rec;
	if (strcmp(base, "slave") == 0)
		return MS_SLAVE | rec;
	if (strcmp(base, "unbindable") == 0)
		return MS_UNBINDABLE | rec;
	return MS_PRIVATE | rec;
}

static int do_pivot(int rootfd, bool no_pivot, bool host_mntns, struct werror *err)
{
	_cleanup_close_ int oldroot = -1;

	if (fchdir(rootfd) < 0)
		return werr(err, errno, "chdir to rootfs");
	/* runtime-spec config-linux.md: without a mount namespace the
	 * container inherits the runtime's; neither pivot_root nor the move
	 * of --no-pivot may touch the host's root there: a chroot, as runc. */
	if (host_mntns)
		return chroot(".") < 0  ? werr(err, errno, "chroot")
		       : chdir("/") < 0 ? werr(err, errno, "chdir /")
		                        : 0;
	if (no_pivot) {
		if (no_pivot_detach_host(rootfd, err) < 0)
			return -1;
		if (sys_mount(".", "/", NULL, MS_MOVE, NULL) < 0)
			return werr(err, errno, "moving rootfs to /");
		if (chroot(".") < 0)
			return werr(err, errno, "chroot");
		return chdir("/") < 0 ? werr(err, errno, "chdir /") : 0;
	}
	oldroot = open("/", O_DIRECTORY | O_RDONLY | O_CLOEXEC);
	if (oldroot < 0)
		return werr(err, errno, "opening old root");
	/* pivot_root(".", "."): the old root ends up stacked on the new one,
	 * and is then detached; no directory for it is needed in the image. */
	if (sys_pivot_root(".", ".") < 0)
		return werr(err, errno, "pivot_root");
	if (fchdir(oldroot) < 0)
		return werr(err, errno, "chdir to old root");
	/* Keep the unmount from propagating back to the host. */
	if (sys_mount(NULL, ".", NULL, MS_SLAVE | MS_REC, NULL) < 0)
		return werr(err, errno, "making old root a slave");
	if (sys_umount2(".", MNT_DETACH) < 0)
		return werr(err, errno, "detaching old root");
	return chdir("/") < 0 ? werr(err, errno, "chdir /") : 0;
}

/* dest is below an earlier mount's destination (made inside that one). */
static bool under_earlier(const struct oci_config *c, size_t i)
{
	const char *d = c->mounts[i].destination;

	for (size_t j = 0; j < i; j++) {
		const char *e = c->mounts[j].destination;
		size_t n = strlen(e);

		if (strcmp(e, "/") != 0 && strncmp(d, e, n) == 0 && d[n] == '/')
			return true;
	}
	return false;
}

void rootfs_premake(int rootfd, const struct oci_config *c, const bool *src_is_dir,
                    struct werror *err)
{
	bool have_dev = false;

	for (size_t i = 0; i < c->n_mounts; i++) {
		const char *d = c->mounts[i].destination;

		have_dev = have_dev || strcmp(d, "/dev") == 0;
		if (under_earlier(c, i))
			continue;
		_cleanup_close_ int fd = root_open(rootfd, d, O_PATH);

		if (fd >= 0 || errno != ENOENT)
			continue;
		fd = src_is_dir[i] ? root_mkdir_p(rootfd, d, 0755, err)
		                   : root_mkfile(rootfd, d, 0644, err);
	}
	if (!have_dev)
		cleanup_closep(&(int){root_mkdir_p(rootfd, "/dev", 0755, err)});
}

void rootfs_handles_close(struct rootfs_handles *h)
{
	if (h->rootfd >= 0)
		close(h->rootfd);
	h->rootfd = -1;
}

int rootfs_open(const struct rootfs_args *a, struct rootfs_handles *h, struct werror *err)
{
	const struct oci_config *c = a->cfg;

	h->rootfd = -1;
	/* Nothing mounted from here on may propagate to the host. (In the
	 * host's own mount namespace that would change the host's "/"; the
	 * rootfs tree is a slave of its source, and what is mounted inside it
	 * goes nowhere else.) */
	if (!a->host_mntns && sys_mount(NULL, "/", NULL, MS_SLAVE | MS_REC, NULL) < 0)
		return werr(err, errno, "making / a slave mount");
	/* pivot_root needs the rootfs to be a mount point: the parent's copy
	 * of it, made from the fd the policy decided on, is attached at the
	 * rootfs's place (where it is attached does not matter: what is there
	 * is the tree). */
	if (a->root_tree < 0)
		return werr(err, EBADF, "no rootfs tree from the parent");
	if (sys_move_mount(a->root_tree, "", AT_FDCWD, a->rootfs, MOVE_MOUNT_F_EMPTY_PATH) < 0)
		return werr(err, errno, "attaching rootfs %s", a->rootfs);
	h->rootfd = fcntl(a->root_tree, F_DUPFD_CLOEXEC, 3);
	if (h->rootfd < 0)
		return werr(err, errno, "rootfs %s", a->rootfs);
	if (c->root->nodev) {
		struct mount_attr attr = {.attr_set = MOUNT_ATTR_NODEV};

		if (sys_mount_setattr(h->rootfd, "", AT_EMPTY_PATH | AT_RECURSIVE, &attr,
		                      sizeof(attr)) < 0)
			return werr(err, errno, "making the rootfs nodev");
	}
	return 0;
}

/* mounts[i], with its trees asked for now: made in the listed order. */
static int mount_nth(const struct rootfs_args *a, int rootfd, size_t i, int *late_ro,
                     struct werror *err)
{
	const struct oci_config *c = a->cfg;
	const struct oci_mount *m = &c->mounts[i];
	bool bind = mount_is_bind(m), overlay = !bind && m->type && strcmp(m->type, "overlay") == 0;
	size_t n = 0;
	int *fds = NULL, r;

	if ((bind || overlay) && a->fetch_trees(a->trees_arg, i, &fds, &n, err) < 0)
		return -1;
	/* Never a second lookup by name: no tree, no mount. */
	if (bind && n != 1) {
		fds_close_free(fds, n);
		return werr(err, EBADF, "mounts[%zu] (%s): no source from the parent", i,
		            m->destination);
	}
	r = mount_entry(rootfd, m, bind ? fds[0] : -1, true, overlay ? fds : NULL, overlay ? n : 0,
	                i, a->cg_self, late_ro, err);
	fds_close_free(fds, n);
	return r;
}

int rootfs_setup(struct rootfs_args *a, struct rootfs_handles *h, struct werror *err)
{
	const struct oci_config *c = a->cfg;
	const struct oci_linux *l = c->linux;
	int rootfd = h->rootfd, r = -1;
	/* Per mount: a read-only tmpfs's own fd, made read-only at the end. */
	_cleanup_free_ int *late_ro = malloc((c->n_mounts ? c->n_mounts : 1) * sizeof(int));

	if (late_ro == NULL) {
		rootfs_handles_close(h);
		return werr(err, ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < c->n_mounts; i++)
		late_ro[i] = -1;
	/* CVE-2019-19921 class: an image's /proc or /sys that is a symlink
	 * would carry the procfs/sysfs mount (and every later write to it)
	 * wherever it points. */
	for (size_t i = 0; i < 2; i++) {
		const char *d = i ? "sys" : "proc";
		struct stat st;

		if (fstatat(rootfd, d, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISDIR(st.st_mode)) {
			werr_k(err, WERR_REFUSED, 0,
			       "the rootfs's /%s is not a directory (a symlink?): refused: must be "
			       "mounted on ordinary directory",
			       d);
			goto out;
		}
	}
	if (dev_mount_tmpfs(rootfd, c, err) < 0)
		goto out;
	for (size_t i = 0; i < c->n_mounts; i++)
		if (mount_nth(a, rootfd, i, &late_ro[i], err) < 0)
			goto out;
	a->trees_done(a->trees_arg);
	/* sysctls before readonlyPaths: /proc/sys is usually one of them. */
	if (dev_populate(rootfd, c, a->userns, err) < 0 ||
	    dev_create_config_devices(rootfd, c, a->userns, err) < 0 ||
	    sysctl_apply(rootfd, c, err) < 0 || rootfs_mask_paths(rootfd, l, err) < 0 ||
	    rootfs_readonly_paths(rootfd, l, err) < 0)
		goto out;
	if (a->before_pivot && a->before_pivot(a->before_pivot_arg, rootfd, err) < 0)
		goto out;
	/* After /dev/console and the createContainer hooks, as runc. */
	if (mounts_finish_readonly(c, late_ro, err) < 0)
		goto out;
	if (do_pivot(rootfd, a->no_pivot, a->host_mntns, err) < 0)
		goto out;
	if (l && l->rootfs_propagation && l->rootfs_propagation[0] &&
	    sys_mount(NULL, "/", NULL, propagation_flags(l->rootfs_propagation), NULL) < 0) {
		werr(err, errno, "rootfsPropagation %s", l->rootfs_propagation);
		goto out;
	}
	if (c->root->readonly) {
		struct mount_attr attr = {.attr_set = MOUNT_ATTR_RDONLY};

		if (sys_mount_setattr(AT_FDCWD, "/", 0, &attr, sizeof(attr)) < 0) {
			werr(err, errno, "making the root read-only");
			goto out;
		}
	}
	r = 0;
out:
	for (size_t i = 0; i < c->n_mounts; i++)
		if (late_ro[i] >= 0)
			close(late_ro[i]);
	a->trees_done(a->trees_arg);
	rootfs_handles_close(h);
	return r;
}
