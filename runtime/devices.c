#include "devices.h"
#include "error.h"
#include "mounts.h"
#include "pathres.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
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

int dev_mount_tmpfs(int rootfd, const struct oci_config *c)
{
	int fd;

	if (has_mount(c, "/dev"))
		return 0;
	fd = root_mkdir_p(rootfd, "/dev", 0755);
	if (fd < 0)
		return werr_ctx("default /dev");
	close(fd);
	if (mount_fs_at(rootfd, "/dev", "tmpfs", "tmpfs", MS_NOSUID | MS_STRICTATIME,
	                "mode=755,size=65536k") < 0)
		return werr_ctx("default /dev");
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

static int make_node(int devfd, const char *name, unsigned int maj, unsigned int min, bool userns)
{
	char host[64];
	int src, dst, r;

	if (!userns) {
		if (mknodat(devfd, name, S_IFCHR | 0666, makedev(maj, min)) < 0 && errno != EEXIST)
			return werr(errno, "mknod /dev/%s", name);
		return 0;
	}
	snprintf(host, sizeof(host), "/dev/%s", name);
	src = open(host, O_PATH | O_CLOEXEC);
	if (src < 0)
		return werr(errno, "opening host %s", host);
	dst = openat(devfd, name, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (dst >= 0) {
		close(dst);
		dst = openat(devfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	}
	if (dst < 0) {
		close(src);
		return werr(errno, "creating /dev/%s", name);
	}
	r = mount_bind_fd(src, dst, false, 0, 0);
	close(src);
	close(dst);
	return r < 0 ? werr_ctx("binding host %s", host) : 0;
}

int dev_populate(int rootfd, const struct oci_config *c, bool userns)
{
	int devfd, fd, r = 0;

	if (!dev_is_tmpfs(c))
		return 0;
	fd = root_open(rootfd, "/dev", O_PATH | O_DIRECTORY);
	if (fd < 0)
		return werr(errno, "opening /dev");
	devfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	close(fd);
	if (devfd < 0)
		return werr(errno, "opening /dev");
	for (size_t i = 0; r == 0 && i < sizeof(default_nodes) / sizeof(default_nodes[0]); i++)
		r = make_node(devfd, default_nodes[i].name, default_nodes[i].major,
		              default_nodes[i].minor, userns);
	for (size_t i = 0; r == 0 && i < sizeof(default_links) / sizeof(default_links[0]); i++)
		if (symlinkat(default_links[i].target, devfd, default_links[i].name) < 0 &&
		    errno != EEXIST)
			r = werr(errno, "symlink /dev/%s", default_links[i].name);
	if (r == 0 && !has_mount(c, "/dev/pts")) {
		if (mkdirat(devfd, "pts", 0755) < 0 && errno != EEXIST)
			r = werr(errno, "mkdir /dev/pts");
		else
			r = mount_fs_at(rootfd, "/dev/pts", "devpts", "devpts",
			                MS_NOSUID | MS_NOEXEC,
			                userns ? "newinstance,ptmxmode=0666,mode=0620"
			                       : "newinstance,ptmxmode=0666,mode=0620,gid=5");
	}
	if (r == 0 && !has_mount(c, "/dev/shm")) {
		if (mkdirat(devfd, "shm", 01777) < 0 && errno != EEXIST)
			r = werr(errno, "mkdir /dev/shm");
		else
			r = mount_fs_at(rootfd, "/dev/shm", "tmpfs", "shm",
			                MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=1777,size=65536k");
	}
	close(devfd);
	return r < 0 ? werr_ctx("populating /dev") : 0;
}
