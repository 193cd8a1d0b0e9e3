#include "container/protocol.h"
#include "lib/cleanup.h"
#include "lib/fdpass.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int send_msg(int fd, const struct sync_msg *m, struct werror *err)
{
	size_t len = offsetof(struct sync_msg, text) + strlen(m->text) + 1;

	while (send(fd, m, len, MSG_NOSIGNAL) < 0)
		if (errno != EINTR)
			return werr(err, errno, "sync channel");
	return 0;
}

int sync_send(int fd, enum sync_type type, struct werror *err)
{
	struct sync_msg m = {.type = type};

	return send_msg(fd, &m, err);
}

int sync_send_num(int fd, enum sync_type type, int32_t num, struct werror *err)
{
	struct sync_msg m = {.type = type, .err = num};

	return send_msg(fd, &m, err);
}

int sync_expect_msg(int fd, enum sync_type type, struct sync_msg *m, struct werror *err)
{
	if (sync_recv(fd, m, NULL, err) < 0)
		return -1;
	if (m->type == SYNC_ERROR)
		return werr_set(err, (enum werr_kind)m->kind, m->err, m->text);
	if (m->type == SYNC_EOF && type != SYNC_EOF)
		return werr(err, EPIPE, "container init exited during setup");
	if (m->type != type)
		return werr(err, EPROTO, "sync channel: unexpected message %u (expected %u)",
		            m->type, (unsigned)type);
	return 0;
}

void sync_send_error(int fd, struct werror *err)
{
	struct sync_msg m = {.type = SYNC_ERROR, .err = werr_errno(err), .kind = werr_kind_of(err)};
	const char *msg = werr_msg(err);
	size_t n = strlen(msg);

	if (n >= sizeof(m.text)) {
		n = sizeof(m.text) - sizeof("[...]");
		memcpy(m.text + n, "[...]", sizeof("[...]"));
	}
	memcpy(m.text, msg, n);
	send_msg(fd, &m, NULL);
}

int sync_send_fd(int fd, enum sync_type type, int passfd, struct werror *err)
{
	struct sync_msg m = {.type = type};

	if (fdpass_send(fd, &m, offsetof(struct sync_msg, text) + 1, passfd) < 0)
		return werr(err, errno, "sync channel");
	return 0;
}

int sync_recv(int fd, struct sync_msg *m, int *passfd, struct werror *err)
{
	_cleanup_close_ int got = -1;
	ssize_t n;

	memset(m, 0, sizeof(*m));
	n = fdpass_recv(fd, m, sizeof(*m), &got);
	if (n < 0)
		return werr(err, errno, "sync channel");
	if (passfd)
		*passfd = TAKE_FD(got);
	if (n == 0) {
		m->type = SYNC_EOF;
		return 0;
	}
	if ((size_t)n < offsetof(struct sync_msg, text))
		return werr(err, EPROTO, "sync channel: short message");
	m->text[sizeof(m->text) - 1] = '\0';
	return 0;
}

int sync_expect(int fd, enum sync_type type, struct werror *err)
{
	return sync_expect_fd(fd, type, NULL, err);
}

int sync_expect_fd(int fd, enum sync_type type, int *passfd, struct werror *err)
{
	struct sync_msg m;

	if (sync_recv(fd, &m, passfd, err) < 0)
		return -1;
	if (passfd && *passfd >= 0 && m.type != type) {
		close(*passfd);
		*passfd = -1;
	}
	if (m.type == SYNC_ERROR)
		return werr_set(err, (enum werr_kind)m.kind, m.err, m.text);
	if (m.type == SYNC_EOF && type != SYNC_EOF)
		return werr(err, EPIPE, "container init exited during setup");
	if (m.type != type)
		return werr(err, EPROTO, "sync channel: unexpected message %u (expected %u)",
		            m.type, (unsigned)type);
	return 0;
}

int proto_hooks(int fd, pid_t *host_pid, struct werror *err)
{
	struct sync_msg m;

	if (sync_send(fd, SYNC_HOOKS, err) < 0 || sync_expect_msg(fd, SYNC_HOOKS_DONE, &m, err) < 0)
		return -1;
	*host_pid = m.err;
	return 0;
}

int proto_run_hooks(int fd, pid_t host_pid, int (*run)(void *arg, struct werror *err), void *arg,
                    struct werror *err)
{
	if (sync_expect(fd, SYNC_HOOKS, err) < 0 || run(arg, err) < 0)
		return -1;
	return sync_send_num(fd, SYNC_HOOKS_DONE, host_pid, err);
}

int proto_ready(int fd, struct werror *err)
{
	if (sync_send(fd, SYNC_READY, err) < 0)
		return -1;
	return sync_expect(fd, SYNC_ACK, err);
}

int proto_release(int fd, struct werror *err)
{
	if (sync_send(fd, SYNC_ACK, err) < 0)
		return -1;
	return sync_expect(fd, SYNC_EOF, err);
}
