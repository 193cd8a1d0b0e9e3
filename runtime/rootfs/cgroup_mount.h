#ifndef WARD_CGROUP_MOUNT_H
#define WARD_CGROUP_MOUNT_H

#include "lib/error.h"

#include <stdbool.h>

#include "oci/config.h"
#include "rootfs/mount_opts.h"

/* A "cgroup" mount: the cgroup filesystem as the host has it (cgroup2 on a
 * v2 host; on v1 and hybrid hosts a tmpfs with one cgroup mount per v1
 * hierarchy, and "unified" for the cgroup2 one). Read-only unless the
 * options say "rw": a writable v1 hierarchy exposes release_agent. */
/* The init's cgroups as cgroup mounts need them: its own
 * ("4:cpu,cpuacct:/ward/id" lines of /proc/self/cgroup, read before it
 * unshares its cgroup namespace) and whether it has a cgroup namespace at
 * all: without one, a mounted hierarchy would show its root, so the
 * container's own cgroup is bound instead (as runc does; Podman 4.3 on v1
 * runs so). read_only: CVE-2023-25809 (a user namespace without a cgroup
 * namespace): every cgroup mount read-only (mounts.c). */
struct cgroup_self {
	char *lines; /* NULL: unknown (nothing is bound then) */
	bool own_ns;
	bool read_only;
};

/* Fill s before the cgroup namespace is unshared; release with
 * cgroup_self_free. */
void cgroup_self_read(struct cgroup_self *s, bool own_namespace, bool read_only);
void cgroup_self_free(struct cgroup_self *s);

int cgroup_mount(int rootfd, const struct oci_mount *m, const struct mount_opts *o,
                 const struct cgroup_self *self, struct werror *err);

#endif
