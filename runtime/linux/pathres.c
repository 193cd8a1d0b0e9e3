#include "linux/pathres.h"
#include "lib/cleanup.h"
#include "lib/error.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

int path_open2(int dirfd, const char *path, int flags, unsigned long long resolve)
{
	struct open_how how = {.flags = (unsigned long long)(flags | O_CLOEXEC),
	                       .resolve = resolve};
	long fd;

	do
		fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
	while (fd < 0 && errno == EAGAIN); /* a concurrent rename raced ".." */
	return (int)fd;
}

int root_open(int rootfd, const char *path, int flags)
{
	return path_open2(rootfd, path, flags, RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS);
}

/* Split "/a/b/c" into parent "/a/b" and base "c" (buf holds the parent). */
static int split_path(const char *path, char *buf, size_t len, const char **base,
                      struct werror *err)
{
	size_t n = strlen(path);
	char *slash;

	while (n > 1 && path[n - 1] == '/')
		n--;
	if (n >= len)
		return werr(err, ENAMETOOLONG, "%s", path);
	memcpy(buf, path, n);
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (slash == NULL) {
		*base = path;
		strcpy(buf, "/");
		return 0;
	}
	*base = path + (slash - buf) + 1;
	if (slash == buf)
		buf[1] = '\0';
	else
		*slash = '\0';
	if (**base == '\0' || strcmp(*base, ".") == 0 || strcmp(*base, "..") == 0)
		return werr(err, EINVAL, "%s: path must name a file or directory", path);
	return 0;
}

int root_mkdir_p(int rootfd, const char *path, mode_t mode, struct werror *err)
{
	char parent[PATH_MAX];
	const char *base;
	_cleanup_close_ int pfd = -1;
	int fd;

	fd = root_open(rootfd, path, O_PATH | O_DIRECTORY);
	if (fd >= 0 || errno != ENOENT)
		return fd >= 0 ? fd : werr(err, errno, "%s", path);
	if (split_path(path, parent, sizeof(parent), &base, err) < 0)
		return -1;
	pfd = root_mkdir_p(rootfd, parent, mode, err);
	if (pfd < 0)
		return -1;
	/* mkdirat never follows a symlink in the last component: a dangling
	 * link stays EEXIST and the open below refuses it. */
	if (mkdirat(pfd, base, mode) < 0 && errno != EEXIST)
		return werr(err, errno, "creating %s", path);
	fd = openat(pfd, base, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return werr(err, errno, "%s", path);
	return fd;
}

int root_mkfile(int rootfd, const char *path, mode_t mode, struct werror *err)
{
	char parent[PATH_MAX];
	const char *base;
	_cleanup_close_ int fd = -1, pfd = -1, dfd = -1, made = -1;
	struct stat st;

	fd = root_open(rootfd, path, O_PATH);
	if (fd >= 0) {
		if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode))
			return werr(err, EISDIR, "%s: is a directory, a file is needed", path);
		return TAKE_FD(fd);
	}
	if (errno != ENOENT)
		return werr(err, errno, "%s", path);
	if (split_path(path, parent, sizeof(parent), &base, err) < 0)
		return -1;
	pfd = root_mkdir_p(rootfd, parent, 0755, err);
	if (pfd < 0)
		return -1;
	/* O_PATH cannot create: open the real directory first. */
	dfd = openat(pfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return werr(err, errno, "%s", parent);
	made = openat(dfd, base, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY,
	              mode);
	if (made < 0 && errno != EEXIST)
		return werr(err, errno, "creating %s", path);
	fd = openat(dfd, base, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return werr(err, errno, "creating %s", path);
	return TAKE_FD(fd);
}

struct fdpath fd_path(int fd)
{
	struct fdpath p;

	snprintf(p.s, sizeof(p.s), "/proc/self/fd/%d", fd);
	return p;
}

int fd_ident(int fd, struct fd_ident *id)
{
	struct statx sx;

	if (statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_INO | STATX_MNT_ID, &sx) < 0)
		return -1;
	if (!(sx.stx_mask & STATX_MNT_ID)) {
		errno = ENOSYS;
		return -1;
	}
	*id = (struct fd_ident){sx.stx_mnt_id, sx.stx_ino, sx.stx_dev_major, sx.stx_dev_minor};
	return 0;
}

bool fd_ident_same(const struct fd_ident *a, const struct fd_ident *b)
{
	return a->mnt == b->mnt && a->ino == b->ino && a->dev_major == b->dev_major &&
	       a->dev_minor == b->dev_minor;
}

bool root_path_is(int rootfd, const char *path, int fd)
{
	struct fd_ident a, b;
	_cleanup_close_ int pfd = root_open(rootfd, path, O_PATH);

	return pfd >= 0 && fd_ident(pfd, &a) == 0 && fd_ident(fd, &b) == 0 && fd_ident_same(&a, &b);
}
