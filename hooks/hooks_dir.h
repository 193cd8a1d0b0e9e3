/* OCI hooks directories: the hooks an operator installed for engines to
 * inject (containers/common's hooks.d format, version 1.0.0, as Podman and
 * CRI-O read it). Outside compat a hook a config names runs only when the
 * operator vouches for it; an entry here with the same stage, path, args and
 * env is such a voucher (ward-policy(7), "hooks"): the config chose neither
 * the program nor what it is told to do. */
#ifndef WARD_HOOKS_DIR_H
#define WARD_HOOKS_DIR_H

#include "lib/error.h"

#include <stddef.h>

#include "oci/config.h"

/* Where Podman and CRI-O look by default. */
#define HOOKS_DIRS_DEFAULT                                                                         \
	{                                                                                          \
		"/usr/share/containers/oci/hooks.d", "/etc/containers/oci/hooks.d"                 \
	}

struct hooks_dir_entry {
	char *file; /* the JSON file it came from */
	char *path;
	char **args, **env;
	size_t n_args, n_env;
	unsigned stages; /* 1 << enum oci_hook_point */
};

struct hooks_dirs {
	struct hooks_dir_entry *e;
	size_t n;
};

/* Read the *.json entries of each directory; a file in a later directory
 * overrides one of the same name in an earlier one, as Podman has it
 * (whether or not it is valid). A directory, or a file, that
 * anyone but root (or this process's user) could change is skipped with a
 * debug line, as is a file that is not valid: what it would vouch for is
 * then refused (fail closed). -1 with werr only when out of memory. */
int hooks_dirs_load(const char *const *dirs, size_t n_dirs, struct hooks_dirs *out,
                    struct werror *err);
/* The file whose entry is exactly this hook at this point, or NULL. */
const char *hooks_dirs_vouch(const struct hooks_dirs *d, enum oci_hook_point point,
                             const struct oci_hook *h);
void hooks_dirs_free(struct hooks_dirs *d);

#endif
