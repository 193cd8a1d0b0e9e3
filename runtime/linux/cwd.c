#include "linux/cwd.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "linux/pathres.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* Deeper than any real path can be under PATH_MAX. */
#define MAX_DEPTH 4096

int cwd_check_inside(const char *what, struct werror *err)
{
	_cleanup_close_ int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	_cleanup_close_ int cur = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	struct fd_ident top, id, up_id;

	if (root < 0 || cur < 0 || fd_ident(root, &top) < 0)
		return werr(err, errno, "%s: checking the working directory", what);
	for (int depth = 0; depth < MAX_DEPTH; depth++) {
		_cleanup_close_ int up = -1;

		if (fd_ident(cur, &id) < 0)
			return werr(err, errno, "%s: checking the working directory", what);
		if (fd_ident_same(&id, &top))
			return 0;
		/* ".." stops at the process's root, and nowhere else but at the
		 * top of a tree that is not below it. */
		up = openat(cur, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (up < 0 || fd_ident(up, &up_id) < 0)
			return werr(err, errno, "%s: checking the working directory", what);
		close(cur);
		cur = TAKE_FD(up);
		if (fd_ident_same(&up_id, &id))
			break;
	}
	return werr(err, EPERM,
	            "%s is outside the container's root (refused: CVE-2024-21626 class)", what);
}

int cwd_enter(const char *what, const char *cwd, struct werror *err)
{
	_cleanup_close_ int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	_cleanup_close_ int fd = -1;

	if (root < 0)
		return werr(err, errno, "%s %s: opening the root", what, cwd);
	fd = root_open(root, cwd, O_PATH | O_DIRECTORY | O_CLOEXEC);
	/* RESOLVE_NO_MAGICLINKS answers ELOOP, as for a symlink loop. */
	if (fd < 0 && errno == ELOOP)
		return werr_k(
		    err, WERR_REFUSED, 0,
		    "%s %s: refused: resolves through a magic link such as /proc/self/fd/N "
		    "(CVE-2024-21626 class), or through a symlink loop",
		    what, cwd);
	if (fd < 0)
		return werr(err, errno, "%s %s", what, cwd);
	if (fchdir(fd) < 0)
		return werr(err, errno, "%s %s", what, cwd);
	return cwd_check_inside(what, err);
}
