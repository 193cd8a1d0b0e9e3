#include "rootfs/devices.h"
#include "lib/strfmt.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "linux/mount_prim.h"
#include "rootfs/mount_opts.h"
#include "linux/pathres.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

static const struct {
	const char *name;
	unsigned int major, minor;
} default_nodes[] = {
    {"null", 1, 3},   {"zero", 1, 5},    {"full", 1, 7},
    {"random", 1, 8}, {"urandom", 1, 9}, {"tty", 5, 0},
};

static const struct {
	const char *name, *target;
} default_links[] = {
    {"fd", "/proc/self/fd"},       {"stdin", "/proc/self/fd/0"}, {"stdout", "/proc/self/fd/1"},
    {"stderr", "/proc/self/fd/2"}, {"ptmx", "pts/ptmx"},
};

static bool has_mount(const struct oci_config *c, const char *dest)
{
	for (size_t i = 0; i < c->n_mounts; i++)
		if (strcmp(c->mounts[i].destination, dest) == 0)
			return true;
	return false;
}

int dev_mount_tmpfs(int rootfd, const struct oci_config *c, struct werror *err)
{
	_cleanup_close_ int fd = -1;

	if (has_mount(c, "/dev"))
		return 0;
	fd = root_mkdir_p(rootfd, "/dev", 0755, err);
	if (fd < 0)
		return werr_ctx(err, "default /dev");
	if (mount_fs_at(rootfd, "/dev", "tmpfs", "tmpfs", MS_NOSUID | MS_STRICTATIME,
	                "mode=755,size=65536k", err) < 0)
		return werr_ctx(err, "default /dev");
	return 0;
}

/* Only a tmpfs /dev is ours to fill; a bind-mounted /dev is left alone. */
static bool dev_is_tmpfs(const struct oci_config *c)
{
	for (size_t i = 0; i < c->n_mounts; i++)
		if (strcmp(c->mounts[i].destination, "/dev") == 0)
			return c->mounts[i].type && strcmp(c->mounts[i].type, "tmpfs") == 0 &&
			       !mount_is_bind(&c->mounts[i]);
	return true;
}

/* A new empty file named name in dfd, to bind a node onto: an O_PATH fd
 * of it, never of something that was there (O_EXCL, O_NOFOLLOW). */
static int bind_target(int dfd, const char *name, mode_t mode)
{
	_cleanup_close_ int fd =
	    openat(dfd, name, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, mode);

	if (fd < 0)
		return -1;
	return openat(dfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
}

static int make_node(int devfd, const char *name, unsigned int maj, unsigned int min, bool userns,
                     struct werror *err)
{
	_cleanup_close_ int src = -1, dst = -1;
	char host[64];

	if (!userns) {
		if (mknodat(devfd, name, S_IFCHR | 0666, makedev(maj, min)) < 0 && errno != EEXIST)
			return werr(err, errno, "mknod /dev/%s", name);
		return 0;
	}
	if (fmt_fit(host, sizeof(host), "/dev/%s", name) < 0)
		return werr(err, ENAMETOOLONG, "/dev/%s", name);
	src = open(host, O_PATH | O_CLOEXEC);
	if (src < 0)
		return werr(err, errno, "opening host %s", host);
	dst = bind_target(devfd, name, 0666);
	if (dst < 0)
		return werr(err, errno, "creating /dev/%s", name);
	if (mount_bind_fd(src, dst, false, 0, 0, err) < 0)
		return werr_ctx(err, "binding host %s", host);
	return 0;
}

int dev_populate(int rootfd, const struct oci_config *c, bool userns, struct werror *err)
{
	_cleanup_close_ int devfd = -1, fd = -1;
	int r = 0;

	if (!dev_is_tmpfs(c))
		return 0;
	fd = root_open(rootfd, "/dev", O_PATH | O_DIRECTORY);
	if (fd < 0)
		return werr(err, errno, "opening /dev");
	devfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (devfd < 0)
		return werr(err, errno, "opening /dev");
	for (size_t i = 0; r == 0 && i < sizeof(default_nodes) / sizeof(default_nodes[0]); i++)
		r = make_node(devfd, default_nodes[i].name, default_nodes[i].major,
		              default_nodes[i].minor, userns, err);
	for (size_t i = 0; r == 0 && i < sizeof(default_links) / sizeof(default_links[0]); i++)
		if (symlinkat(default_links[i].target, devfd, default_links[i].name) < 0 &&
		    errno != EEXIST)
			r = werr(err, errno, "symlink /dev/%s", default_links[i].name);
	if (r == 0 && !has_mount(c, "/dev/pts")) {
		if (mkdirat(devfd, "pts", 0755) < 0 && errno != EEXIST)
			r = werr(err, errno, "mkdir /dev/pts");
		else
			r = mount_fs_at(rootfd, "/dev/pts", "devpts", "devpts",
			                MS_NOSUID | MS_NOEXEC,
			                userns ? "newinstance,ptmxmode=0666,mode=0620"
			                       : "newinstance,ptmxmode=0666,mode=0620,gid=5",
			                err);
	}
	if (r == 0 && !has_mount(c, "/dev/shm")) {
		if (mkdirat(devfd, "shm", 01777) < 0 && errno != EEXIST)
			r = werr(err, errno, "mkdir /dev/shm");
		else
			r = mount_fs_at(rootfd, "/dev/shm", "tmpfs", "shm",
			                MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=1777,size=65536k",
			                err);
	}
	return r < 0 ? werr_ctx(err, "populating /dev") : 0;
}

static mode_t node_type(const char *t)
{
	switch (t[0]) {
	case 'b':
		return S_IFBLK;
	case 'p':
		return S_IFIFO;
	default: /* c, u */
		return S_IFCHR;
	}
}

/* In a user namespace no node can be made: the host's node at the same
 * path is bound, checked to be the device asked for. */
static int bind_host_device(int dfd, const char *base, const struct oci_device *d, dev_t dev,
                            size_t idx, struct werror *err)
{
	_cleanup_close_ int src = open(d->path, O_PATH | O_CLOEXEC | O_NOFOLLOW), dst = -1;
	struct stat st;

	if (src < 0 || fstat(src, &st) < 0 || (st.st_mode & S_IFMT) != node_type(d->type) ||
	    (d->type[0] != 'p' && st.st_rdev != dev))
		return werr(err, src < 0 ? errno : ENODEV,
		            "config.json: .linux.devices[%zu]: %s: in a user namespace (always, "
		            "rootless) no device node can be made, and the host has none of "
		            "that type and number at that path to bind",
		            idx, d->path);
	dst = bind_target(dfd, base, 0600);
	if (dst < 0 || mount_bind_fd(src, dst, false, 0, 0, err) < 0)
		return werr(err, errno, "linux.devices[%zu] binding %s", idx, d->path);
	return 0;
}

static int make_config_device(int rootfd, const struct oci_device *d, bool userns, size_t idx,
                              struct werror *err)
{
	char parent[PATH_MAX];
	const char *base = strrchr(d->path, '/') + 1;
	mode_t mode = d->has_file_mode ? (mode_t)d->file_mode : 0666;
	dev_t dev = makedev((unsigned int)d->major, (unsigned int)d->minor);
	_cleanup_close_ int pfd = -1, dfd = -1;

	if (*base == '\0' || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
		return werr(err, EINVAL, "linux.devices[%zu] %s: must name a file", idx, d->path);
	if (fmt_fit(parent, sizeof(parent), "%.*s", (int)(base - d->path), d->path) < 0)
		return werr(err, ENAMETOOLONG, "linux.devices[%zu]", idx);
	/* CVE-2026-41579 class: /dev may be a symlink planted by the image;
	 * the parent is resolved inside the rootfs, the node made by fd. */
	pfd = root_mkdir_p(rootfd, parent, 0755, err);
	if (pfd < 0)
		return werr_ctx(err, "linux.devices[%zu] %s", idx, d->path);
	dfd = openat(pfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return werr(err, errno, "linux.devices[%zu] %s", idx, d->path);
	/* Replace what the image put there (a file, a link), never follow it.
	 * EBUSY: a node ward itself bound there (the default /dev); fine if it
	 * is the device asked for. */
	if (unlinkat(dfd, base, 0) < 0 && errno != ENOENT && errno != EISDIR) {
		struct stat st;

		if (errno == EBUSY && fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    (st.st_mode & S_IFMT) == node_type(d->type) && st.st_rdev == dev)
			return 0;
		return werr(err, errno, "linux.devices[%zu] %s", idx, d->path);
	}
	/* A fifo is made in a user namespace too (no privilege needed),
	 * never bound from the host: any host fifo of that path could be
	 * another's (a container's start fifo). */
	if (!userns || node_type(d->type) == S_IFIFO) {
		if (mknodat(dfd, base, node_type(d->type) | (mode & 07777), dev) < 0)
			return werr(err, errno, "linux.devices[%zu] mknod %s", idx, d->path);
	} else if (bind_host_device(dfd, base, d, dev, idx, err) < 0) {
		return -1;
	}
	if (!userns && fchownat(dfd, base, d->has_uid ? d->uid : 0, d->has_gid ? d->gid : 0,
	                        AT_SYMLINK_NOFOLLOW) < 0)
		return werr(err, errno, "linux.devices[%zu] chown %s", idx, d->path);
	return 0;
}

int dev_create_config_devices(int rootfd, const struct oci_config *c, bool userns,
                              struct werror *err)
{
	for (size_t i = 0; c->linux && i < c->linux->n_devices; i++)
		if (make_config_device(rootfd, &c->linux->devices[i], userns, i, err) < 0)
			return -1;
	return 0;
}
