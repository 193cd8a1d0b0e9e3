/* A scratch directory tree for the unit tests that work on real files
 * (pathres, the state store, the cgroup writers): made with mkdtemp under
 * $TMPDIR (else /tmp), filled through dirfds, removed whole at the end. */
#ifndef WARD_TMPTREE_H
#define WARD_TMPTREE_H

#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A new directory "<tmp>/ward-<tag>-XXXXXX" into buf, or NULL. */
static inline char *tmp_make(char *buf, size_t len, const char *tag)
{
	const char *t = getenv("TMPDIR");

	snprintf(buf, len, "%s/ward-%s-XXXXXX", t && t[0] == '/' ? t : "/tmp", tag);
	return mkdtemp(buf);
}

static inline int tmp_rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

/* rm -rf dir, never following a symlink out of it. */
static inline void tmp_remove(const char *dir)
{
	nftw(dir, tmp_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* name in dfd: a file holding s (created or truncated). */
static inline int put_file(int dfd, const char *name, const char *s)
{
	int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	size_t n = strlen(s);
	int r;

	if (fd < 0)
		return -1;
	r = write(fd, s, n) == (ssize_t)n ? 0 : -1;
	close(fd);
	return r;
}

/* The whole of name in dfd (not following a last symlink) into buf,
 * NUL-terminated; -1 if it cannot be read or does not fit. */
static inline int get_file(int dfd, const char *name, char *buf, size_t len)
{
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	size_t got = 0;
	ssize_t n;

	if (fd < 0)
		return -1;
	while (got < len - 1 && (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += (size_t)n;
	buf[got] = '\0';
	n = got < len - 1 ? 0 : read(fd, &buf[len - 1], 1);
	close(fd);
	buf[got] = '\0';
	return n == 0 ? 0 : -1;
}

/* Is there anything (a link included) at name in dfd? */
static inline int exists_at(int dfd, const char *name)
{
	struct stat st;

	return fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

#endif
