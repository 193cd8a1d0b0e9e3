/* What the supervisor and its children read of a process. */
#include "supervisor/supervisor.h"
#include "lib/cleanup.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

pid_t sup_pidfd_pid(int pidfd)
{
	char path[64], buf[512];
	ssize_t n;
	_cleanup_close_ int fd = -1;
	char *p;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", pidfd);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strstr(buf, "\nPid:");
	return p ? (pid_t)strtol(p + 5, NULL, 10) : -1;
}
