#include "lib/sync.h"
#include "lib/fdpass.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int send_msg(int fd, const struct sync_msg *m)
{
	size_t len = offsetof(struct sync_msg, text) + strlen(m->text) + 1;

	while (send(fd, m, len, MSG_NOSIGNAL) < 0)
		if (errno != EINTR)
			return werr(errno, "sync channel");
	return 0;
}

int sync_send(int fd, enum sync_type type)
{
	struct sync_msg m = {.type = type};

	return send_msg(fd, &m);
}

int sync_send_num(int fd, enum sync_type type, int32_t num)
{
	struct sync_msg m = {.type = type, .err = num};

	return send_msg(fd, &m);
}

int sync_expect_msg(int fd, enum sync_type type, struct sync_msg *m)
{
	if (sync_recv(fd, m, NULL) < 0)
		return -1;
	if (m->type == SYNC_ERROR)
		return werr_set(m->err, m->text);
	if (m->type == SYNC_EOF && type != SYNC_EOF)
		return werr(EPIPE, "container init exited during setup");
	if (m->type != type)
		return werr(EPROTO, "sync channel: unexpected message %u", m->type);
	return 0;
}

void sync_send_error(int fd)
{
	struct sync_msg m = {.type = SYNC_ERROR, .err = werr_errno()};

	strncpy(m.text, werr_msg(), sizeof(m.text) - 1);
	send_msg(fd, &m);
}

int sync_send_fd(int fd, enum sync_type type, int passfd)
{
	struct sync_msg m = {.type = type};

	if (fdpass_send(fd, &m, offsetof(struct sync_msg, text) + 1, passfd) < 0)
		return werr(errno, "sync channel");
	return 0;
}

int sync_recv(int fd, struct sync_msg *m, int *passfd)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = {.iov_base = m, .iov_len = sizeof(*m)};
	struct msghdr mh = {.msg_iov = &iov,
	                    .msg_iovlen = 1,
	                    .msg_control = u.buf,
	                    .msg_controllen = sizeof(u.buf)};
	struct cmsghdr *c;
	ssize_t n;

	memset(m, 0, sizeof(*m));
	if (passfd)
		*passfd = -1;
	do
		n = recvmsg(fd, &mh, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return werr(errno, "sync channel");
	for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
			int got;

			memcpy(&got, CMSG_DATA(c), sizeof(int));
			if (passfd)
				*passfd = got;
			else
				close(got);
		}
	if (n == 0) {
		m->type = SYNC_EOF;
		return 0;
	}
	if ((size_t)n < offsetof(struct sync_msg, text))
		return werr(EPROTO, "sync channel: short message");
	m->text[sizeof(m->text) - 1] = '\0';
	return 0;
}

int sync_expect(int fd, enum sync_type type)
{
	return sync_expect_fd(fd, type, NULL);
}

int sync_expect_fd(int fd, enum sync_type type, int *passfd)
{
	struct sync_msg m;

	if (sync_recv(fd, &m, passfd) < 0)
		return -1;
	if (passfd && *passfd >= 0 && m.type != type) {
		close(*passfd);
		*passfd = -1;
	}
	if (m.type == SYNC_ERROR)
		return werr_set(m.err, m.text);
	if (m.type == SYNC_EOF && type != SYNC_EOF)
		return werr(EPIPE, "container init exited during setup");
	if (m.type != type)
		return werr(EPROTO, "sync channel: unexpected message %u", m.type);
	return 0;
}
