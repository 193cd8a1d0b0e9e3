#include "linux/fdseal.h"
#include "lib/callerfds.h"
#include "lib/error.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* Before 5.9, or close_range denied by a filter ward runs under: one by
 * one, as /proc/self/fd lists them (the container's procfs after pivot;
 * without one, nothing can be closed that way and the caller fails). */
static int close_listed(const int *keep, size_t n, int first, struct werror *err)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;

	if (d == NULL)
		return werr(err, errno, "closing ward's fds: /proc/self/fd");
	while ((e = readdir(d)) != NULL) {
		int fd = atoi(e->d_name);

		if (e->d_name[0] == '.' || fd < first || fd == dirfd(d) ||
		    bsearch(&fd, keep, n, sizeof(int), cmp_int))
			continue;
		close(fd);
	}
	closedir(d);
	return 0;
}

int fds_close_except(const int *keep, size_t n, int preserve, struct werror *err)
{
	int first = 3 + (preserve > 0 ? preserve : 0);
	int sorted[16];
	size_t m = 0;
	unsigned int from = (unsigned int)first;

	if (n > sizeof(sorted) / sizeof(sorted[0]))
		return werr(err, E2BIG, "closing ward's fds: %zu to keep", n);
	for (size_t i = 0; i < n; i++)
		if (keep[i] >= first)
			sorted[m++] = keep[i];
	qsort(sorted, m, sizeof(int), cmp_int);
	for (size_t i = 0; i <= m; i++) {
		unsigned int to = i < m ? (unsigned int)sorted[i] : ~0U;

		if (to > from && close_range(from, to - 1, 0) < 0)
			return close_listed(sorted, m, first, err);
		if (i < m)
			from = (unsigned int)sorted[i] + 1;
	}
	return 0;
}

int fds_check_channels(const int *fds, size_t n, struct werror *err)
{
	for (size_t i = 0; i < n; i++) {
		struct stat st;

		if (fds[i] < 0)
			continue;
		if (fstat(fds[i], &st) < 0)
			return werr(err, errno, "fd %d, kept open for ward", fds[i]);
		if (!S_ISSOCK(st.st_mode) && !S_ISFIFO(st.st_mode))
			return werr(
			    err, EPERM,
			    "fd %d, kept open for ward, is not a socket or fifo: refusing to "
			    "let the container's process reach it",
			    fds[i]);
	}
	return 0;
}

int fds_seal_for_exec(int preserve, struct werror *err)
{
	DIR *d;
	struct dirent *e;

	for (int fd = 3; fd < 3 + preserve; fd++) {
		int fl = fcntl(fd, F_GETFD);

		if (fl < 0)
			continue;
		fl = callerfds_passed(fd) ? fl & ~FD_CLOEXEC : fl | FD_CLOEXEC;
		if (fcntl(fd, F_SETFD, fl) < 0)
			return werr(err, errno, "--preserve-fds: fd %d", fd);
	}
	if (close_range(3 + (unsigned int)preserve, ~0U, CLOSE_RANGE_CLOEXEC) == 0)
		return 0;
	/* Before 5.11, or close_range denied by a seccomp filter ward runs
	 * under: mark each open fd. */
	if (errno != ENOSYS && errno != EPERM && errno != EINVAL)
		return werr(err, errno, "close_range");
	d = opendir("/proc/self/fd");
	if (d == NULL)
		return werr(err, errno, "sealing fds: /proc/self/fd");
	while ((e = readdir(d)) != NULL) {
		int fd = atoi(e->d_name);

		if (e->d_name[0] == '.' || fd < 3 + preserve || fd == dirfd(d))
			continue;
		if (fcntl(fd, F_SETFD, FD_CLOEXEC) < 0 && errno != EBADF) {
			int saved = errno;

			closedir(d);
			return werr(err, saved, "sealing fd %d", fd);
		}
	}
	closedir(d);
	return 0;
}
