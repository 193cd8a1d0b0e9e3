#include "lib/fileio.h"
#include "lib/cleanup.h"
#include "lib/error.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

int atomic_write_at(int dirfd, const char *name, const struct iovec *iov, int n, mode_t mode,
                    const char *what, struct werror *err)
{
	char tmp[NAME_MAX + 1];
	size_t want = 0;
	ssize_t got;
	_cleanup_close_ int fd = -1;

	/* Hidden, unguessable and made here (O_EXCL): in a directory others
	 * can write (a CI workspace, /tmp) nobody can plant the temp file -
	 * a file of theirs that would become ours, a fifo that blocks. */
	for (int tries = 0; fd < 0; tries++) {
		uint64_t r;

		if (getrandom(&r, sizeof(r), 0) != sizeof(r))
			return werr(err, errno, "%s: no random name", what);
		if ((size_t)snprintf(tmp, sizeof(tmp), ".%.200s.%016llx.tmp", name,
		                     (unsigned long long)r) >= sizeof(tmp))
			return werr(err, ENAMETOOLONG, "%s", what);
		fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd < 0 && (errno != EEXIST || tries == 8))
			return werr(err, errno, "%s", what);
	}
	for (int i = 0; i < n; i++)
		want += iov[i].iov_len;
	got = writev(fd, iov, n);
	/* A short write is how a full filesystem starts: the rest, written
	 * on, fails with the reason (ENOSPC, EDQUOT), which is the error. */
	for (int i = 0; got >= 0 && (size_t)got < want && i < n;) {
		size_t done = (size_t)got, off = 0;
		ssize_t k;

		for (i = 0; i < n && off + iov[i].iov_len <= done; i++)
			off += iov[i].iov_len;
		if (i == n)
			break;
		k = write(fd, (const char *)iov[i].iov_base + (done - off),
		          iov[i].iov_len - (done - off));
		if (k <= 0) {
			got = k < 0 ? -1 : got;
			break;
		}
		got += k;
	}
	if (got != (ssize_t)want) {
		int e = got < 0 ? errno : EIO;

		unlinkat(dirfd, tmp, 0);
		return werr(err, e, "%s", what);
	}
	if (renameat(dirfd, tmp, dirfd, name) < 0) {
		int e = errno;

		unlinkat(dirfd, tmp, 0);
		return werr(err, e, "%s", what);
	}
	return 0;
}

int pid_file_write(const char *path, pid_t pid, struct werror *err)
{
	char dir[PATH_MAX], what[PATH_MAX + 16], buf[16];
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	struct iovec iov = {buf, 0};
	_cleanup_close_ int dfd = -1;

	snprintf(what, sizeof(what), "--pid-file %s", path);
	if (base[0] == '\0' || strlen(path) >= sizeof(dir))
		return werr(err, EINVAL, "%s", what);
	if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else if (slash)
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	else
		snprintf(dir, sizeof(dir), ".");
	dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return werr(err, errno, "%s", what);
	iov.iov_len = (size_t)snprintf(buf, sizeof(buf), "%d", (int)pid);
	return atomic_write_at(dfd, base, &iov, 1, 0644, what, err);
}

void write_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		buf += n;
		len -= (size_t)n;
	}
}

int read_file(const char *path, size_t max, char **out, size_t *out_len, struct werror *err)
{
	struct stat st;
	_cleanup_free_ char *buf = NULL;
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	size_t got = 0;

	if (fd < 0)
		return werr(err, errno, "cannot open %s", path);
	if (fstat(fd, &st) < 0)
		return werr(err, errno, "cannot stat %s", path);
	if (!S_ISREG(st.st_mode))
		return werr(err, 0, "%s: not a regular file", path);
	if ((uint64_t)st.st_size > max)
		return werr(err, 0, "%s: larger than %zu bytes", path, max);
	buf = malloc((size_t)st.st_size + 1);
	if (buf == NULL)
		return werr(err, ENOMEM, "reading %s", path);
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return werr(err, n < 0 ? errno : EIO, "reading %s", path);
		got += (size_t)n;
	}
	buf[got] = '\0';
	*out_len = got;
	*out = TAKE_PTR(buf);
	return 0;
}

int read_fd(int fd, const char *what, size_t max, char **out, size_t *out_len, struct werror *err)
{
	size_t cap = 4096, len = 0;
	_cleanup_free_ char *buf = malloc(cap);

	if (buf == NULL)
		return werr(err, ENOMEM, "reading %s", what);
	for (;;) {
		ssize_t n;

		if (len + 1 == cap) {
			char *nb;

			if (cap > max)
				return werr(err, 0, "%s: larger than %zu bytes", what, max);
			nb = realloc(buf, cap * 2);
			if (nb == NULL)
				return werr(err, ENOMEM, "reading %s", what);
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return werr(err, errno, "reading %s", what);
		if (n == 0)
			break;
		len += (size_t)n;
	}
	if (len > max)
		return werr(err, 0, "%s: larger than %zu bytes", what, max);
	buf[len] = '\0';
	*out_len = len;
	*out = TAKE_PTR(buf);
	return 0;
}

int read_input(const char *path, size_t max, char **out, size_t *out_len, struct werror *err)
{
	struct stat st;
	_cleanup_close_ int fd = -1;

	if (strcmp(path, "-") == 0)
		return read_fd(0, "stdin", max, out, out_len, err);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return werr(err, errno, "cannot open %s", path);
	if (fstat(fd, &st) < 0)
		return werr(err, errno, "cannot stat %s", path);
	if (S_ISFIFO(st.st_mode))
		return read_fd(fd, path, max, out, out_len, err);
	return read_file(path, max, out, out_len, err);
}

int read_fd_into(int fd, const char *what, char *buf, size_t len, size_t *out_len,
                 struct werror *err)
{
	size_t got = 0;

	/* One read is not enough: a pipe, a record being written, or a file
	 * past a page may come in parts. */
	for (;;) {
		char extra;
		ssize_t n =
		    got < len - 1 ? read(fd, buf + got, len - 1 - got) : read(fd, &extra, 1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			buf[got] = '\0';
			return werr(err, errno, "reading %s", what);
		}
		if (n == 0)
			break;
		if (got == len - 1) {
			buf[got] = '\0';
			return werr(err, EFBIG, "%s: larger than %zu bytes", what, len - 1);
		}
		got += (size_t)n;
	}
	buf[got] = '\0';
	if (out_len)
		*out_len = got;
	return 0;
}
