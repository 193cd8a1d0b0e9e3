#include "lib/fdpass.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int fdpass_send(int sock, const void *data, size_t len, int fd)
{
	struct iovec iov = {.iov_base = (void *)data, .iov_len = len};
	union {
		char b[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u = {0};
	struct msghdr mh = {
	    .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.b, .msg_controllen = sizeof(u.b)};
	struct cmsghdr *c = CMSG_FIRSTHDR(&mh);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	while (sendmsg(sock, &mh, MSG_NOSIGNAL) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

ssize_t fdpass_recv(int sock, void *data, size_t len, int *fd)
{
	union {
		char b[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = {.iov_base = data, .iov_len = len};
	struct msghdr mh = {
	    .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.b, .msg_controllen = sizeof(u.b)};
	ssize_t n;

	if (fd)
		*fd = -1;
	do
		n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
		size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		for (size_t i = 0; i < k; i++) {
			int got;

			memcpy(&got, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
			if (fd && *fd < 0)
				*fd = got;
			else
				close(got);
		}
	}
	return n;
}
