/* A hook's program on the host, opened and judged once (see hook_file.h). */
#include "hooks/hook_file.h"
#include "lib/cleanup.h"
#include "lib/strfmt.h"
#include "lib/error.h"
#include "lib/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

#define MAX_LINKS  40
#define FUSE_MAGIC 0x65735546
#define MAX_DEPTH  4096

static bool trusted(uid_t uid, uid_t owner)
{
	return uid == 0 || uid == owner;
}

/* Who could replace name in dir (dst), found as est; the first reason is
 * kept. */
static void judge_entry(struct hook_file *f, const char *dir, const struct stat *dst,
                        const char *name, const struct stat *est, uid_t owner)
{
	const char *sep = strcmp(dir, "/") == 0 ? "" : "/";

	if (f->untrusted[0])
		return;
	if (!trusted(dst->st_uid, owner))
		snprintf(f->untrusted, sizeof(f->untrusted), "%s is owned by uid %u", dir,
		         (unsigned)dst->st_uid);
	else if ((dst->st_mode & (S_IWGRP | S_IWOTH)) && !(dst->st_mode & S_ISVTX))
		snprintf(f->untrusted, sizeof(f->untrusted), "%s is writable by %s (mode %04o)",
		         dir, dst->st_mode & S_IWOTH ? "others" : "its group",
		         (unsigned)(dst->st_mode & 07777));
	else if ((dst->st_mode & (S_IWGRP | S_IWOTH)) && !trusted(est->st_uid, owner))
		/* Sticky: only an entry's owner may rename or remove it. */
		snprintf(f->untrusted, sizeof(f->untrusted),
		         "%s%s%s is owned by uid %u in %s, which others can write", dir, sep, name,
		         (unsigned)est->st_uid, dir);
}

/* A FUSE filesystem's server, whoever mounted it, decides what it holds
 * and what its owners and modes say (an unprivileged user can mount one
 * with fusermount). */
static void judge_fs(struct hook_file *f, int fd, const char *dir, const char *name)
{
	struct statfs sfs;

	if (f->untrusted[0] || fstatfs(fd, &sfs) < 0 || sfs.f_type != FUSE_MAGIC)
		return;
	snprintf(f->untrusted, sizeof(f->untrusted), "%s%s%s is on a FUSE filesystem", dir,
	         strcmp(dir, "/") == 0 || !name[0] ? "" : "/", name);
}

/* The file itself: its contents are what runs. */
static void judge_file(struct hook_file *f, const char *where, uid_t owner)
{
	if (f->untrusted[0])
		return;
	if (!trusted(f->st.st_uid, owner))
		snprintf(f->untrusted, sizeof(f->untrusted), "%s is owned by uid %u", where,
		         (unsigned)f->st.st_uid);
	else if (f->st.st_mode & (S_IWGRP | S_IWOTH))
		snprintf(f->untrusted, sizeof(f->untrusted), "%s is writable by %s (mode %04o)",
		         where, f->st.st_mode & S_IWOTH ? "others" : "its group",
		         (unsigned)(f->st.st_mode & 07777));
}

static int add_up(struct hook_file *f, const struct stat *st, struct werror *err)
{
	struct hook_id *v = realloc(f->up, (f->n_up + 1) * sizeof(*v));

	if (v == NULL)
		return werr(err, ENOMEM, "out of memory");
	f->up = v;
	v[f->n_up++] = (struct hook_id){st->st_dev, st->st_ino};
	return 0;
}

/* The file, then every directory above dir (which holds it), by "..". */
static int ancestry(struct hook_file *f, int dir, struct werror *err)
{
	struct stat st;
	_cleanup_close_ int fd = fcntl(dir, F_DUPFD_CLOEXEC, 3);
	int r = add_up(f, &f->st, err);

	for (int depth = 0; r == 0 && fd >= 0 && fstat(fd, &st) == 0 && depth < MAX_DEPTH;
	     depth++) {
		const struct hook_id *last = f->n_up > 1 ? &f->up[f->n_up - 1] : NULL;
		int up;

		/* ".." of "/" is "/". */
		if (last && last->dev == st.st_dev && last->ino == st.st_ino)
			break;
		if (add_up(f, &st, err) < 0)
			r = -1;
		up = openat(fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
		close(fd);
		fd = up;
	}
	return r;
}

/* where + "/" + name, or where without its last component for "..";
 * -1 when that is longer than a path (where is then "": never a prefix). */
static int step(char *where, size_t size, const char *name)
{
	size_t n = strlen(where);

	if (strcmp(name, "..") == 0) {
		char *slash = strrchr(where, '/');

		if (slash == where)
			where[1] = '\0';
		else if (slash)
			*slash = '\0';
		return 0;
	}
	return fmt_fit(where + n, size - n, "%s%s", strcmp(where, "/") == 0 ? "" : "/", name);
}

/* hook_file_open's walk from "/": 0 when it ends (f->fd or f->err set,
 * else nothing resolved), -1 out of memory. */
/* The symlink at e: what is left to walk becomes its target, then the
 * rest (*p in todo); an absolute target starts again at "/" (*dir, *dst,
 * where). -1 with errno: a link too many, unreadable, or too long. */
static int follow(int e, int *links, char *todo, size_t todo_size, const char **p, char *where,
                  size_t where_size, int *dir, struct stat *dst)
{
	char target[PATH_MAX], rest[PATH_MAX * 2];
	ssize_t n = readlinkat(e, "", target, sizeof(target) - 1);

	if (n <= 0 || ++*links > MAX_LINKS) {
		errno = n < 0 ? errno : n == 0 ? ENOENT : ELOOP;
		return -1;
	}
	target[n] = '\0';
	if (fmt_fit(rest, sizeof(rest), "%s/%s", target, *p) < 0 ||
	    fmt_fit(todo, todo_size, "%s", rest) < 0) {
		errno = ENAMETOOLONG;
		return -1;
	}
	*p = todo;
	if (target[0] != '/')
		return 0;
	close(*dir);
	*dir = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (*dir < 0 || fstat(*dir, dst) < 0)
		return -1;
	return fmt_fit(where, where_size, "/");
}

static int walk(const char *path, uid_t owner, struct hook_file *f, struct werror *err)
{
	char todo[PATH_MAX * 2], where[PATH_MAX] = "/", name[NAME_MAX + 1];
	struct stat dst;
	const char *p = todo;
	_cleanup_close_ int dir = -1;
	int links = 0;

	/* A path cut short would judge another file than the one named. */
	if (fmt_fit(todo, sizeof(todo), "%s", path) < 0) {
		f->err = ENAMETOOLONG;
		return 0;
	}
	dir = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0 || fstat(dir, &dst) < 0) {
		f->err = errno;
		return 0;
	}
	judge_entry(f, "/", &dst, ".", &dst, owner);
	for (;;) {
		_cleanup_close_ int e = -1;
		struct stat est;
		size_t len;

		while (*p == '/')
			p++;
		if (*p == '\0') {
			/* "/" itself, or a trailing slash: a directory. */
			f->fd = TAKE_FD(dir);
			f->st = dst;
			return 0;
		}
		len = strcspn(p, "/");
		if (len > NAME_MAX) {
			f->err = ENAMETOOLONG;
			return 0;
		}
		memcpy(name, p, len);
		name[len] = '\0';
		p += len;
		if (strcmp(name, ".") == 0)
			continue;
		/* Every directory looked in decides what the path names (a
		 * symlink in it can be swapped): all of them are where the hook
		 * is, not only those above the file it lands on. */
		if (add_up(f, &dst, err) < 0)
			return -1;
		e = openat(dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (e < 0 || fstat(e, &est) < 0) {
			f->err = errno;
			return 0;
		}
		if (strcmp(name, "..") != 0)
			judge_entry(f, where, &dst, name, &est, owner);
		judge_fs(f, e, where, name);
		if (S_ISLNK(est.st_mode)) {
			if (follow(e, &links, todo, sizeof(todo), &p, where, sizeof(where), &dir,
			           &dst) < 0) {
				f->err = errno;
				return 0;
			}
			continue;
		}
		if (step(where, sizeof(where), name) < 0) {
			f->err = ENAMETOOLONG;
			return 0;
		}
		while (*p == '/')
			p++;
		if (*p != '\0' || S_ISDIR(est.st_mode)) {
			if (!S_ISDIR(est.st_mode)) {
				f->err = ENOTDIR;
				return 0;
			}
			if (*p == '\0') {
				/* The path ends at a directory. */
				f->fd = TAKE_FD(e);
				f->st = est;
				return 0;
			}
			close(dir);
			dir = TAKE_FD(e);
			dst = est;
			continue;
		}
		f->fd = TAKE_FD(e);
		f->st = est;
		judge_file(f, where, owner);
		return ancestry(f, dir, err);
	}
}

int hook_file_open(const char *path, uid_t owner, struct hook_file *f, struct werror *err)
{
	int r;

	memset(f, 0, sizeof(*f));
	f->fd = -1;
	if (path[0] != '/' || strlen(path) >= PATH_MAX) {
		f->err = path[0] != '/' ? EINVAL : ENAMETOOLONG;
		return 0;
	}
	r = walk(path, owner, f, err);
	if (f->fd < 0 && f->err == 0)
		f->err = EIO;
	return r;
}

void hook_file_close(struct hook_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	free(f->up);
	memset(f, 0, sizeof(*f));
	f->fd = -1;
}

/* A file whose text decides what runs (the policy, an OCI hooks directory's
 * entry): hook_file_open walks the path by fd and judges every step, and
 * the text is read from that same object, checked again on the fd read. */
int hook_file_read(const char *abs, const char *what, const char *name, size_t max, bool optional,
                   struct hook_text *out, struct werror *err)
{
	char self[64];
	uid_t me = geteuid();
	_cleanup_hook_file_ struct hook_file hf = {.fd = -1};
	_cleanup_close_ int fd = -1;
	struct stat st;

	*out = (struct hook_text){0};
	if (hook_file_open(abs, me, &hf, err) < 0)
		return -1;
	if (hf.fd < 0) {
		out->absent = optional && hf.err == ENOENT;
		return out->absent ? 0
		                   : werr(err, hf.err, "%s %s: cannot open %s", what, name, name);
	}
	if (hf.untrusted[0])
		return werr(err, 0,
		            "%s %s: not read: %s (the %s and every directory above it must be "
		            "owned by root%s and not writable by group or others)",
		            what, name, hf.untrusted, what, me ? " or by you" : "");
	if (!S_ISREG(hf.st.st_mode))
		return werr(err, 0, "%s %s: not a regular file", what, name);
	/* Reopened for reading from the judged object itself (an O_PATH fd
	 * cannot be read). */
	snprintf(self, sizeof(self), "/proc/self/fd/%d", hf.fd);
	fd = open(self, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return werr(err, errno, "%s %s", what, name);
	if (fstat(fd, &st) < 0 || st.st_dev != hf.st.st_dev || st.st_ino != hf.st.st_ino ||
	    !trusted(st.st_uid, me) || (st.st_mode & (S_IWGRP | S_IWOTH)))
		return werr(err, 0, "%s %s: changed while it was read", what, name);
	if (read_fd(fd, name, max, &out->text, &out->len, err) < 0)
		return werr_ctx(err, "%s", what);
	return 0;
}
