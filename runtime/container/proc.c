#include "container/proc.h"
#include "lib/cleanup.h"
#include "lib/error.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <unistd.h>

int proc_stat(pid_t pid, uint64_t *start, char *state, struct werror *err)
{
	char path[64];
	char buf[1024];
	char *p;
	ssize_t n;
	_cleanup_close_ int fd = -1;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return werr(err, errno == ENOENT ? ESRCH : errno, "process %d", (int)pid);
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		return werr(err, n < 0 ? errno : ESRCH, "reading %s", path);
	buf[n] = '\0';
	/* comm may hold spaces and ')': fields start after the last ')'. */
	p = strrchr(buf, ')');
	if (p == NULL || p[1] != ' ')
		return werr(err, EINVAL, "%s: unexpected format", path);
	p += 2;
	if (state)
		*state = *p;
	/* p is field 3 (state); the start time is field 22. */
	for (int field = 3; field < 22; field++) {
		p = strchr(p, ' ');
		if (p == NULL)
			return werr(err, EINVAL, "%s: unexpected format", path);
		p++;
	}
	*start = strtoull(p, NULL, 10);
	return 0;
}

bool proc_alive(pid_t pid, uint64_t start, struct werror *err)
{
	uint64_t s;
	char st;

	if (pid <= 0 || proc_stat(pid, &s, &st, err) < 0)
		return false;
	return s == start && st != 'Z' && st != 'X';
}

int proc_pidfd(pid_t pid, uint64_t start, struct werror *err)
{
	_cleanup_close_ int fd = -1;

	if (pid <= 0)
		return werr(err, ESRCH, "no process");
	fd = pidfd_open(pid, 0);
	if (fd < 0)
		return werr(err, errno, "pidfd_open %d", (int)pid);
	/* Checked after opening: from here on the pidfd pins this process, so a
	 * match cannot be a recycled pid. */
	if (!proc_alive(pid, start, err))
		return werr(err, ESRCH, "process %d has exited", (int)pid);
	return TAKE_FD(fd);
}

int proc_wait_exit(int pidfd, int timeout_ms, struct werror *err)
{
	struct pollfd pfd = {.fd = pidfd, .events = POLLIN};
	int r;

	do
		r = poll(&pfd, 1, timeout_ms);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return werr(err, errno, "waiting for process");
	if (r == 0)
		return werr(err, ETIMEDOUT, "process did not exit within %d ms", timeout_ms);
	return 0;
}
