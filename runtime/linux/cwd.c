#include "linux/cwd.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "linux/pathres.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <unistd.h>

/* Deeper than any real path can be under PATH_MAX. */
#define MAX_DEPTH 4096

struct ident {
	unsigned long long mnt, ino;
	unsigned int dev_major, dev_minor;
};

static int ident_of(int fd, struct ident *id)
{
	struct statx sx;

	if (statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_INO | STATX_MNT_ID, &sx) < 0)
		return -1;
	if (!(sx.stx_mask & STATX_MNT_ID)) {
		errno = ENOSYS;
		return -1;
	}
	*id = (struct ident){sx.stx_mnt_id, sx.stx_ino, sx.stx_dev_major, sx.stx_dev_minor};
	return 0;
}

static bool same(const struct ident *a, const struct ident *b)
{
	return a->mnt == b->mnt && a->ino == b->ino && a->dev_major == b->dev_major &&
	       a->dev_minor == b->dev_minor;
}

int cwd_check_inside(const char *what)
{
	_cleanup_close_ int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	_cleanup_close_ int cur = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	struct ident top, id, up_id;

	if (root < 0 || cur < 0 || ident_of(root, &top) < 0)
		return werr(errno, "%s: checking the working directory", what);
	for (int depth = 0; depth < MAX_DEPTH; depth++) {
		int up;

		if (ident_of(cur, &id) < 0)
			return werr(errno, "%s: checking the working directory", what);
		if (same(&id, &top))
			return 0;
		/* ".." stops at the process's root, and nowhere else but at the
		 * top of a tree that is not below it. */
		up = openat(cur, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (up < 0)
			return werr(errno, "%s: checking the working directory", what);
		if (ident_of(up, &up_id) < 0) {
			int e = errno;

			close(up);
			return werr(e, "%s: checking the working directory", what);
		}
		close(cur);
		cur = up;
		if (same(&up_id, &id))
			break;
	}
	return werr(EPERM, "%s is outside the container's root (refused: CVE-2024-21626 class)",
	            what);
}

int cwd_enter(const char *what, const char *cwd)
{
	_cleanup_close_ int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	_cleanup_close_ int fd = -1;

	if (root < 0)
		return werr(errno, "%s %s: opening the root", what, cwd);
	fd = root_open(root, cwd, O_PATH | O_DIRECTORY | O_CLOEXEC);
	/* RESOLVE_NO_MAGICLINKS answers ELOOP, as for a symlink loop. */
	if (fd < 0 && errno == ELOOP)
		return werr(0,
		            "%s %s: refused: resolves through a magic link such as /proc/self/fd/N "
		            "(CVE-2024-21626 class), or through a symlink loop",
		            what, cwd);
	if (fd < 0)
		return werr(errno, "%s %s", what, cwd);
	if (fchdir(fd) < 0)
		return werr(errno, "%s %s", what, cwd);
	return cwd_check_inside(what);
}
