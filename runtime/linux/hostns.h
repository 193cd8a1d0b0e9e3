/* Is a namespace file the host's own? */
#ifndef WARD_HOSTNS_H
#define WARD_HOSTNS_H

#include <stdbool.h>

/* path is the host's namespace of that kind (CLONE_NEW*): the same
 * device and inode as ward's own /proc/self/ns/<kind> (ward runs in the
 * host's), or PID 1's where /proc/1/ns is readable (not on every host). */
bool ns_is_hosts(const char *path, int flag);

#endif
