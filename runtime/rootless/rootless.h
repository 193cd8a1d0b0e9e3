/* Rootless (issue #16): ward run by a user other than root. The container
 * always gets a user namespace (the caller's own id as its root, the
 * caller's subordinate ids beside it), which ward itself enters before it
 * makes anything: the mounts it prepares are made in a mount namespace of
 * that user namespace, never the host's. Nothing is trusted more for it:
 * the profiles apply as for root. */
#ifndef WARD_ROOTLESS_H
#define WARD_ROOTLESS_H

#include "lib/error.h"

#include <stdbool.h>
#include <stddef.h>

#include "oci/config.h"

/* ward is not root: it makes the user namespace itself. */
bool rootless_caller(void);
/* The caller's user name (its uid when it has none), as state shows it. */
/* The caller's user name (its uid when it has none), the state's "owner":
 * to be asked before ward enters a user namespace. */
void rootless_owner(char *buf, size_t len);
/* Not root in the host's user namespace (rootless, or root inside another
 * user namespace, as under rootless Podman): cgroups only where they are
 * delegated. */
bool rootless_cgroups(void);
/* The default state root of a caller that is not root:
 * $XDG_RUNTIME_DIR/ward, else /run/user/UID/ward; -1 with werr when
 * neither is there. */
int rootless_state_root(char *buf, size_t size, struct werror *err);
/* The config as a rootless container needs it: a user namespace, mapped
 * (when the config maps nothing) as the caller's id for 0 and the first
 * /etc/subuid and /etc/subgid ranges of the caller for 1..N; the caller's
 * ids must be mapped. Refusals name the field: host paths to bind that
 * the caller cannot read, sysctls only the host's root can set. */
int rootless_config(struct oci_config *cfg, const char *bundle, const char *owner,
                    struct werror *err);
/* Make (or join, by the config's path) the user namespace, enter it and a
 * new mount namespace of its own. Where the host forbids unprivileged
 * user namespaces, the error names the setting and what to change. */
int rootless_enter(const struct oci_config *cfg, struct werror *err);
/* Whether the container gets a cgroup (*use): only where its cgroup2
 * tree is delegated. A relative or absent cgroupsPath is made absolute,
 * beside ward's own cgroup. Without a cgroup, limits the config asks for
 * are not enforced: one warning, or, with require_limits (strict, unless
 * its policy says "rootlessLimits": "warn"), an error. */
int rootless_cgroup_decide(struct oci_config *cfg, const char *id, bool systemd,
                           bool require_limits, bool *use, struct werror *err);
/* Why a user namespace cannot be made here, or NULL: the sysctl or
 * AppArmor setting that forbids it, and what to change (static text). */
const char *rootless_userns_blocked(int clone_errno);

#endif
