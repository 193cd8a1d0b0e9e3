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
	int got;
	ssize_t n;

	memset(m, 0, sizeof(*m));
	n = fdpass_recv(fd, m, sizeof(*m), &got);
	if (n < 0)
		return werr(errno, "sync channel");
	if (passfd)
		*passfd = got;
	else if (got >= 0)
		close(got);
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
