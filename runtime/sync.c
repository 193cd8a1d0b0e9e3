#include "sync.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>

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

void sync_send_error(int fd)
{
	struct sync_msg m = {.type = SYNC_ERROR, .err = werr_errno()};

	strncpy(m.text, werr_msg(), sizeof(m.text) - 1);
	send_msg(fd, &m);
}

int sync_recv(int fd, struct sync_msg *m)
{
	ssize_t n;

	memset(m, 0, sizeof(*m));
	do
		n = recv(fd, m, sizeof(*m), 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return werr(errno, "sync channel");
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
	struct sync_msg m;

	if (sync_recv(fd, &m) < 0)
		return -1;
	if (m.type == SYNC_ERROR)
		return werr_set(m.err, m.text);
	if (m.type == SYNC_EOF && type != SYNC_EOF)
		return werr(EPIPE, "container init exited during setup");
	if (m.type != type)
		return werr(EPROTO, "sync channel: unexpected message %u", m.type);
	return 0;
}
