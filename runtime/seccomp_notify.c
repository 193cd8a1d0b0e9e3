#include "seccomp_notify.h"
#include "error.h"
#include "seccomp_spec.h"
#include "sync.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <yajl/yajl_gen.h>

#define S(g, s) yajl_gen_string((g), (const unsigned char *)(s), strlen(s))

static int send_with_fd(int sock, const unsigned char *buf, size_t len, int fd)
{
	struct iovec iov = {.iov_base = (void *)buf, .iov_len = len};
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

int seccomp_notify_send(const char *path, const char *metadata, const struct oci_state *st,
                        int listener_fd)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	const unsigned char *buf;
	yajl_gen g;
	size_t len;
	int sock, r = -1;

	if (strlen(path) >= sizeof(sa.sun_path))
		return werr(ENAMETOOLONG, "config.json: .linux.seccomp.listenerPath %s", path);
	strcpy(sa.sun_path, path);
	g = yajl_gen_alloc(NULL);
	if (g == NULL)
		return werr(ENOMEM, "out of memory");
	yajl_gen_map_open(g);
	S(g, "ociVersion");
	S(g, st->oci_version);
	S(g, "fds");
	yajl_gen_array_open(g);
	S(g, "seccompFd");
	yajl_gen_array_close(g);
	S(g, "pid");
	yajl_gen_integer(g, st->pid);
	S(g, "metadata");
	S(g, metadata ? metadata : "");
	S(g, "state");
	oci_state_gen(g, st, false);
	yajl_gen_map_close(g);
	yajl_gen_get_buf(g, &buf, &len);

	sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (sock < 0)
		r = werr(errno, "seccomp listener socket");
	else if (connect(sock, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		r = werr(errno, "config.json: .linux.seccomp.listenerPath: connecting to %s", path);
	else if (send_with_fd(sock, buf, len, listener_fd) < 0)
		r = werr(errno, "sending the seccomp listener fd to %s", path);
	else
		r = 0;
	if (sock >= 0)
		close(sock);
	yajl_gen_free(g);
	return r;
}

int seccomp_notify_forward(int sock, const struct oci_seccomp *s, const struct oci_state *st)
{
	int fd, r;

	if (sync_expect_fd(sock, SYNC_SECCOMP_FD, &fd) < 0)
		return -1;
	if (fd < 0)
		return werr(EPROTO, "seccomp listener fd missing");
	r = seccomp_notify_send(s->listener_path, s->listener_metadata, st, fd);
	close(fd);
	return r;
}
