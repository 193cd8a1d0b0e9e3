#include "net/netdev_move.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "net/nlsock.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_ADDRS 64

struct addr {
	struct ifaddrmsg ifa;
	uint32_t flags;
	size_t len;
	unsigned char local[16], address[16], brd[16];
	bool has_local, has_address, has_brd;
};

struct netdev_addrs {
	int index;
	size_t n;
	struct addr a[MAX_ADDRS];
};

#define DEV_ERR(d, e, fmt, ...)                                                                    \
	werr(err, e, "config.json: .linux.netDevices[\"%s\"]: " fmt, (d)->host, ##__VA_ARGS__)

static void attr_copy(const struct rtattr *rta, unsigned char *to, size_t *len, bool *has)
{
	size_t l = RTA_PAYLOAD(rta);

	if (l > 16)
		return;
	memcpy(to, RTA_DATA(rta), l);
	*len = l;
	*has = true;
}

/* The spec keeps "all permanent IP addresses (IFA_F_PERMANENT) of any
 * family with global scope (RT_SCOPE_UNIVERSE)": the kernel drops every
 * address of a device that changes namespace. */
static int collect_addr(const struct nlmsghdr *m, void *arg)
{
	struct netdev_addrs *s = arg;
	const struct ifaddrmsg *ifa = NLMSG_DATA(m);
	int len = (int)m->nlmsg_len - (int)NLMSG_LENGTH(sizeof(*ifa));
	struct addr a = {.ifa = *ifa, .flags = ifa->ifa_flags};

	if (m->nlmsg_type != RTM_NEWADDR || (int)ifa->ifa_index != s->index ||
	    ifa->ifa_scope != RT_SCOPE_UNIVERSE)
		return 0;
	for (const struct rtattr *rta = IFA_RTA(ifa); RTA_OK(rta, len); rta = RTA_NEXT(rta, len)) {
		if (rta->rta_type == IFA_FLAGS && RTA_PAYLOAD(rta) >= 4)
			memcpy(&a.flags, RTA_DATA(rta), 4);
		else if (rta->rta_type == IFA_LOCAL)
			attr_copy(rta, a.local, &a.len, &a.has_local);
		else if (rta->rta_type == IFA_ADDRESS)
			attr_copy(rta, a.address, &a.len, &a.has_address);
		else if (rta->rta_type == IFA_BROADCAST)
			attr_copy(rta, a.brd, &a.len, &a.has_brd);
	}
	if ((a.flags & IFA_F_PERMANENT) && s->n < MAX_ADDRS)
		s->a[s->n++] = a;
	return 0;
}

static int addrs_read(int fd, int index, struct netdev_addrs *s)
{
	struct nl_req r;
	struct ifaddrmsg *ifa = nl_req_init(&r, RTM_GETADDR, 0, sizeof(*ifa));

	ifa->ifa_family = AF_UNSPEC;
	s->index = index;
	s->n = 0;
	return nl_dump(fd, &r, collect_addr, s);
}

static int addrs_add(int fd, int index, const struct netdev_addrs *s)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct addr *a = &s->a[i];
		uint32_t keep = a->flags & (IFA_F_NODAD | IFA_F_NOPREFIXROUTE | IFA_F_HOMEADDRESS);
		struct nl_req r;
		struct ifaddrmsg *ifa =
		    nl_req_init(&r, RTM_NEWADDR, NLM_F_CREATE | NLM_F_EXCL, sizeof(*ifa));

		*ifa = a->ifa;
		ifa->ifa_index = (unsigned)index;
		ifa->ifa_flags = (unsigned char)keep;
		if ((a->has_local && nl_attr(&r, IFA_LOCAL, a->local, a->len) < 0) ||
		    (a->has_address && nl_attr(&r, IFA_ADDRESS, a->address, a->len) < 0) ||
		    (a->has_brd && nl_attr(&r, IFA_BROADCAST, a->brd, a->len) < 0) ||
		    nl_attr(&r, IFA_FLAGS, &keep, sizeof(keep)) < 0)
			return -1;
		if (nl_talk(fd, &r, NULL, 0) < 0 && errno != EEXIST)
			return -1;
	}
	return 0;
}

/* A link's index and flags, by index or (name not NULL) by name. */
static int link_get(int fd, int index, const char *name, int *out_index, unsigned *flags)
{
	struct {
		struct nlmsghdr h;
		struct ifinfomsg ifi;
		char rest[2048];
	} reply;
	struct nl_req r;
	struct ifinfomsg *ifi = nl_req_init(&r, RTM_GETLINK, 0, sizeof(*ifi));

	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = index;
	if (name && nl_attr(&r, IFLA_IFNAME, name, strlen(name) + 1) < 0)
		return -1;
	memset(&reply, 0, sizeof(reply));
	if (nl_talk(fd, &r, &reply, sizeof(reply)) < 0)
		return -1;
	if (reply.h.nlmsg_type != RTM_NEWLINK) {
		errno = ENODEV;
		return -1;
	}
	*out_index = reply.ifi.ifi_index;
	if (flags)
		*flags = reply.ifi.ifi_flags;
	return 0;
}

static int link_set(int fd, int index, int nsfd, const char *name, unsigned up)
{
	struct nl_req r;
	struct ifinfomsg *ifi = nl_req_init(&r, RTM_NEWLINK, 0, sizeof(*ifi));
	uint32_t ns = (uint32_t)nsfd;

	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = index;
	ifi->ifi_flags = up;
	ifi->ifi_change = up;
	if ((nsfd >= 0 && nl_attr(&r, IFLA_NET_NS_FD, &ns, sizeof(ns)) < 0) ||
	    (name && nl_attr(&r, IFLA_IFNAME, name, strlen(name) + 1) < 0))
		return -1;
	return nl_talk(fd, &r, NULL, 0);
}

/* A rtnetlink socket in network namespace ns (a socket stays in the
 * namespace it was made in). */
static int socket_in(int ns, int back, struct werror *err)
{
	_cleanup_close_ int fd = -1;
	int e;

	if (setns(ns, CLONE_NEWNET) < 0)
		return -1;
	fd = nl_open();
	e = errno;
	if (setns(back, CLONE_NEWNET) < 0) {
		/* Never seen; create must not go on in the container's. */
		werr(err, errno, "returning to ward's network namespace");
		errno = EIO;
		return -1;
	}
	errno = e;
	return TAKE_FD(fd);
}

/* Until the move, what went wrong leaves the device on the host. */
static int look_before_moving(const struct oci_net_device *d, int host, struct netdev_moved *m,
                              int *index, struct werror *err)
{
	if (link_get(host, 0, d->host, index, &m->host_flags) < 0)
		return DEV_ERR(d, errno, "no such network device on the host");
	m->dev = d;
	if (addrs_read(host, *index, m->addrs) < 0)
		return DEV_ERR(d, errno, "reading its addresses");
	return 0;
}

static int move_one(const struct oci_net_device *d, int host, int inner, struct netdev_moves *mv,
                    struct werror *err)
{
	struct netdev_moved *m = &mv->m[mv->n];
	const char *want = oci_netdev_inner(d);
	int index;

	if ((m->addrs = calloc(1, sizeof(*m->addrs))) == NULL)
		return werr(err, ENOMEM, "out of memory");
	if (look_before_moving(d, host, m, &index, err) < 0) {
		free(m->addrs);
		m->addrs = NULL;
		return -1;
	}
	/* Moved under its host name first, renamed inside next: a rename the
	 * kernel refuses after a combined move would leave the device inside
	 * with nothing recording it. */
	if (link_set(host, index, mv->netns, NULL, 0) < 0) {
		int e = errno;

		free(m->addrs);
		m->addrs = NULL;
		return DEV_ERR(d, e, "moving it into the container's network namespace");
	}
	mv->n++;
	/* Its index stays unless taken inside; then its name finds it. */
	if (link_get(inner, index, NULL, &m->inner_index, NULL) < 0 &&
	    (errno != ENODEV || link_get(inner, 0, d->host, &m->inner_index, NULL) < 0))
		return DEV_ERR(d, errno, "finding it in the container's network namespace");
	if (d->name && strcmp(d->name, d->host) != 0 &&
	    link_set(inner, m->inner_index, -1, d->name, 0) < 0) {
		if (errno == EEXIST)
			return DEV_ERR(d, errno,
			               "the container's network namespace has a device \"%s\" "
			               "already (a name with \"%%d\" lets the kernel number it)",
			               want);
		return DEV_ERR(d, errno, "renaming it \"%s\" in the container", want);
	}
	/* "MUST set the network device state to up" and keep its addresses. */
	if (link_set(inner, m->inner_index, -1, NULL, IFF_UP) < 0)
		return DEV_ERR(d, errno, "setting it up in the container");
	if (addrs_add(inner, m->inner_index, m->addrs) < 0)
		return DEV_ERR(d, errno, "giving it its addresses in the container");
	return 0;
}

static int same_ns(int a, int b)
{
	struct stat sa, sb;

	return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

int netdevs_move(const struct oci_net_devices *d, pid_t pid, struct netdev_moves *mv,
                 struct werror *err)
{
	char path[64];
	_cleanup_close_ int host = -1, inner = -1;

	memset(mv, 0, sizeof(*mv));
	mv->netns = mv->hostns = -1;
	if (d->n == 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/ns/net", (int)pid);
	mv->netns = open(path, O_RDONLY | O_CLOEXEC);
	mv->hostns = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	mv->m = calloc(d->n, sizeof(*mv->m));
	if (mv->netns < 0 || mv->hostns < 0 || mv->m == NULL)
		return werr(err, errno,
		            "config.json: .linux.netDevices: opening the network namespaces");
	if (same_ns(mv->netns, mv->hostns))
		return werr_k(err, WERR_INVALID, 0,
		              "config.json: .linux.netDevices: the container has no network "
		              "namespace of its own");
	host = nl_open();
	if (host < 0 || (inner = socket_in(mv->netns, mv->hostns, err)) < 0)
		return werr(err, errno, "config.json: .linux.netDevices: opening rtnetlink");
	for (size_t i = 0; i < d->n; i++)
		if (move_one(&d->dev[i], host, inner, mv, err) < 0)
			return -1;
	return 0;
}

void netdevs_give_back(struct netdev_moves *mv)
{
	/* A cleanup: a device it cannot give back stays in the namespace,
	 * which the kernel returns (physical) or destroys (virtual) with it. */
	_cleanup_close_ int host = nl_open(),
	                    inner = mv->n ? socket_in(mv->netns, mv->hostns, NULL) : -1;

	for (size_t i = 0; inner >= 0 && host >= 0 && i < mv->n; i++) {
		const struct netdev_moved *m = &mv->m[i];
		int index;

		/* Under its host name, with its addresses and state. */
		if (link_set(inner, m->inner_index, mv->hostns, m->dev->host, 0) < 0 ||
		    link_get(host, 0, m->dev->host, &index, NULL) < 0)
			continue;
		if (m->host_flags & IFF_UP)
			link_set(host, index, -1, NULL, IFF_UP);
		addrs_add(host, index, m->addrs);
	}
	netdevs_forget(mv);
}

void netdevs_forget(struct netdev_moves *mv)
{
	for (size_t i = 0; mv->m && i < mv->n; i++)
		free(mv->m[i].addrs);
	free(mv->m);
	if (mv->netns >= 0)
		close(mv->netns);
	if (mv->hostns >= 0)
		close(mv->hostns);
	memset(mv, 0, sizeof(*mv));
	mv->netns = mv->hostns = -1;
}
