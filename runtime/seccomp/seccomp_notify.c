#include "seccomp/seccomp_notify.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "lib/fdpass.h"
#include "oci/seccomp_spec.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <yajl/yajl_gen.h>

#define S(g, s) yajl_gen_string((g), (const unsigned char *)(s), strlen(s))

int seccomp_notify_send(const char *path, const char *metadata, const struct oci_state *st,
                        int listener_fd, struct werror *err)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	const unsigned char *buf;
	yajl_gen g;
	size_t len;
	_cleanup_close_ int sock = -1;
	int r = -1;

	if (strlen(path) >= sizeof(sa.sun_path))
		return werr_k(err, WERR_INVALID, ENAMETOOLONG,
		              "config.json: .linux.seccomp.listenerPath %s", path);
	strcpy(sa.sun_path, path);
	g = yajl_gen_alloc(NULL);
	if (g == NULL)
		return werr(err, ENOMEM, "out of memory");
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
	oci_state_gen(g, st, false, err);
	yajl_gen_map_close(g);
	yajl_gen_get_buf(g, &buf, &len);

	sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (sock < 0)
		r = werr(err, errno, "seccomp listener socket");
	else if (connect(sock, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		r = werr(err, errno,
		         "config.json: .linux.seccomp.listenerPath: failed to connect with seccomp "
		         "agent at %s",
		         path);
	else if (fdpass_send(sock, buf, len, listener_fd) < 0)
		r = werr(err, errno, "sending the seccomp listener fd to %s", path);
	else
		r = 0;
	yajl_gen_free(g);
	return r;
}

int seccomp_notify_forward(int listener, const struct oci_seccomp *s, const struct oci_state *st,
                           struct werror *err)
{
	if (listener < 0)
		return werr(err, EPROTO, "seccomp listener fd missing");
	return seccomp_notify_send(s->listener_path, s->listener_metadata, st, listener, err);
}
