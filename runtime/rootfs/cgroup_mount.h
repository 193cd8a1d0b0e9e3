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
int cgroup_mount(int rootfd, const struct oci_mount *m, const struct mount_opts *o,
                 struct werror *err);

/* Note the init's cgroups before it unshares its cgroup namespace, and
 * whether it will have a cgroup namespace at all: without one, a mounted
 * hierarchy would show its root, so the container's own cgroup is bound
 * instead (as runc does; Podman 4.3 on v1 runs so). */
void cgroup_mount_note_self(bool own_namespace);

#endif
