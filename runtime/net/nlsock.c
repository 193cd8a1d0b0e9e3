#include "net/nlsock.h"
#include "lib/cleanup.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define RTA_ALIGNED(n) (((n) + 3u) & ~3u)

static unsigned seq;

int nl_open(void)
{
	struct sockaddr_nl sa = {.nl_family = AF_NETLINK};
	_cleanup_close_ int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);

	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return -1;
	return TAKE_FD(fd);
}

void *nl_req_init(struct nl_req *r, int type, int flags, size_t hdr_len)
{
	memset(r, 0, sizeof(*r));
	r->h.nlmsg_len = (unsigned)NLMSG_LENGTH(hdr_len);
	r->h.nlmsg_type = (unsigned short)type;
	r->h.nlmsg_flags = (unsigned short)(NLM_F_REQUEST | flags);
	r->h.nlmsg_seq = ++seq;
	return NLMSG_DATA(&r->h);
}

int nl_attr(struct nl_req *r, int type, const void *data, size_t len)
{
	size_t at = NLMSG_ALIGN(r->h.nlmsg_len);
	struct nlattr a = {.nla_len = (unsigned short)(NLA_HDRLEN + len),
	                   .nla_type = (unsigned short)type};

	if (at + NLA_HDRLEN + RTA_ALIGNED(len) > sizeof(*r)) {
		errno = EMSGSIZE;
		return -1;
	}
	memcpy((char *)r + at, &a, sizeof(a));
	memcpy((char *)r + at + NLA_HDRLEN, data, len);
	r->h.nlmsg_len = (unsigned)(at + NLA_HDRLEN + RTA_ALIGNED(len));
	return 0;
}

static int send_req(int fd, struct nl_req *r)
{
	struct sockaddr_nl to = {.nl_family = AF_NETLINK};

	if (sendto(fd, r, r->h.nlmsg_len, 0, (struct sockaddr *)&to, sizeof(to)) < 0)
		return -1;
	return 0;
}

/* Read the answers to r's sequence number; fn sees each message that is
 * neither an error nor the end. */
static int read_answers(int fd, const struct nl_req *r,
                        int (*fn)(const struct nlmsghdr *m, void *arg), void *arg)
{
	static char buf[32768] __attribute__((aligned(8)));

	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *m = (struct nlmsghdr *)buf;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		for (; NLMSG_OK(m, (unsigned)n); m = NLMSG_NEXT(m, n)) {
			int rc;

			if (m->nlmsg_seq != r->h.nlmsg_seq)
				continue;
			if (m->nlmsg_type == NLMSG_DONE)
				return 0;
			if (m->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(m);

				if (e->error == 0)
					return 0;
				errno = -e->error;
				return -1;
			}
			if ((rc = fn(m, arg)) != 0)
				return rc;
		}
	}
}

struct copy {
	void *to;
	size_t len;
	int done;
};

static int copy_one(const struct nlmsghdr *m, void *arg)
{
	struct copy *c = arg;

	if (c->to && !c->done) {
		memcpy(c->to, m, m->nlmsg_len < c->len ? m->nlmsg_len : c->len);
		c->done = 1;
	}
	/* An answer without NLM_F_ACK ends the exchange. */
	return 1;
}

int nl_talk(int fd, struct nl_req *r, void *reply, size_t reply_len)
{
	struct copy c = {reply, reply_len, 0};
	int rc;

	if (reply == NULL)
		r->h.nlmsg_flags |= NLM_F_ACK;
	if (send_req(fd, r) < 0)
		return -1;
	rc = read_answers(fd, r, copy_one, &c);
	return rc < 0 ? -1 : 0;
}

int nl_dump(int fd, struct nl_req *r, int (*fn)(const struct nlmsghdr *m, void *arg), void *arg)
{
	r->h.nlmsg_flags |= NLM_F_DUMP;
	if (send_req(fd, r) < 0)
		return -1;
	return read_answers(fd, r, fn, arg);
}
