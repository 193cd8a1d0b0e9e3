/* config.json mount options, parsed once (libmount for the kernel's names,
 * ward's tables for the runtime-spec's recursive ones and Podman's). */
#ifndef WARD_ROOTFS_MOUNT_OPTS_H
#define WARD_ROOTFS_MOUNT_OPTS_H

#include "lib/error.h"

#include <stdbool.h>
#include <stddef.h>

#include <sys/mount.h>

#include "oci/config.h"

#define PROPAGATION_MASK (MS_SHARED | MS_SLAVE | MS_PRIVATE | MS_UNBINDABLE)

struct mount_opts {
	unsigned long flags;       /* MS_* to set */
	unsigned long cleared;     /* MS_* explicitly cleared ("rw", "suid", ...) */
	unsigned long propagation; /* MS_SHARED/SLAVE/PRIVATE/UNBINDABLE, | MS_REC */
	bool bind, recursive;
	bool tmpcopyup;        /* Podman/crun: a tmpfs starts with what it covers */
	char *data;            /* filesystem-specific options, NULL if none */
	unsigned long rec_set; /* MOUNT_ATTR_* for the whole tree ("rro", ...) */
	unsigned long rec_clr;
};

/* Parse mount options with libmount. Unknown options go to data (they are
 * the filesystem's business); for bind mounts they are refused. */
int mount_parse_options(char *const *opts, size_t n, struct mount_opts *o, struct werror *err);
void mount_opts_free(struct mount_opts *o);
bool mount_is_bind(const struct oci_mount *m);
/* The mount ends up read-only at its top ("ro", or "rro" for the whole
 * tree); false when its options do not parse. */
bool mount_is_read_only(const struct oci_mount *m, struct werror *err);

#endif
