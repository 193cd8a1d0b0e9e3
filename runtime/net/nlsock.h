/* A minimal rtnetlink client: one request at a time, its acknowledgement
 * or its dump read back. Used to move network devices between network
 * namespaces (netdev_move.c). */
#ifndef WARD_NET_NLSOCK_H
#define WARD_NET_NLSOCK_H

#include <linux/netlink.h>
#include <stddef.h>

#define NL_REQ_MAX 1024

struct nl_req {
	struct nlmsghdr h;
	char body[NL_REQ_MAX];
};

/* A NETLINK_ROUTE socket in the calling thread's network namespace; -1
 * with errno. */
int nl_open(void);
/* Start a request: header, then hdr_len bytes of the family header. */
void *nl_req_init(struct nl_req *r, int type, int flags, size_t hdr_len);
/* Append an attribute; -1 (EMSGSIZE) when it does not fit. */
int nl_attr(struct nl_req *r, int type, const void *data, size_t len);
/* Send r and wait for the kernel's answer: 0, or -1 with errno set to the
 * kernel's error. With reply (NULL: none wanted), the first answer that is
 * not an acknowledgement is copied there (at most reply_len bytes). */
int nl_talk(int fd, struct nl_req *r, void *reply, size_t reply_len);
/* Send a dump request and call fn for each message until it returns
 * non-zero (which is passed on) or the dump ends (0). */
int nl_dump(int fd, struct nl_req *r, int (*fn)(const struct nlmsghdr *m, void *arg), void *arg);

#endif
