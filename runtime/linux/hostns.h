/* Whose is a namespace file: the host's own, a host process's, another
 * container's or an engine's? Decided on the opened namespace. */
#ifndef WARD_HOSTNS_H
#define WARD_HOSTNS_H

#include <stdbool.h>

/* path is the host's namespace of that kind (CLONE_NEW*): the same
 * device and inode as ward's own /proc/self/ns/<kind> (ward runs in the
 * host's), or PID 1's where /proc/1/ns is readable (not on every host). */
bool ns_is_hosts(const char *path, int flag);

enum ns_owner {
	NS_OWNER_UNKNOWN = 0, /* not told apart (or not opened) */
	NS_OWNER_HOST,        /* the host's own (ward's, or PID 1's) */
	NS_OWNER_HOST_PROC,   /* /proc/PID/ns/TYPE of a process in the host's pid namespace */
	NS_OWNER_CONTAINER,   /* /proc/PID/ns/TYPE of a process in a pid namespace of its own */
	NS_OWNER_NSFS_MOUNT,  /* an nsfs bind mount outside /proc (/run/netns/NAME) */
	NS_OWNER_WRONG_TYPE,  /* not a namespace of the type asked for (create fails) */
};

/* Open the namespace file path once (O_RDONLY, close-on-exec) and judge
 * whose it is on that fd; the fd is what gets joined. /proc/PID/ns/TYPE
 * (and /proc/PID/task/TID/ns/TYPE) is opened through the process's /proc
 * directory, so that the namespace and the pid namespace compared with
 * ward's are that one process's, not a reused pid's. Returns the fd, or -1
 * with errno (*owner is then NS_OWNER_UNKNOWN). */
int ns_open_judged(const char *path, int flag, enum ns_owner *owner);

#endif
