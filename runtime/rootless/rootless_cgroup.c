/* Whether a container that is not root's gets a cgroup: only where the
 * cgroup2 tree is delegated to its user, as runc and crun decide. */
#include "rootless/rootless.h"
#include "lib/strfmt.h"
#include "cgroup/cg_files.h"
#include "cgroup/cgroup.h"
#include "oci/config_edit.h"
#include "lib/error.h"
#include "lib/log.h"
#include "oci/resources.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Limits asked for (device rules aside: without a cgroup the container
 * reaches only the nodes bound into it, and makes none in a user
 * namespace). */
static bool limits_asked(const struct oci_config *cfg)
{
	struct oci_resources r;

	if (cfg->linux == NULL || cfg->linux->resources == NULL)
		return false;
	r = *cfg->linux->resources;
	r.devices = NULL;
	r.n_devices = 0;
	return !oci_resources_empty(&r);
}

/* Delegated: the nearest existing level of the cgroup's path is ours to
 * write (a directory we may make children in, and its cgroup.procs and
 * cgroup.subtree_control), as systemd's Delegate= hands it over. */
static bool delegated(const char *dir, char *why, size_t size)
{
	char path[PATH_MAX], file[PATH_MAX + 32];
	char *slash;

	snprintf(path, sizeof(path), "%s", dir);
	while (access(path, F_OK) < 0 && (slash = strrchr(path, '/')) && slash != path)
		*slash = '\0';
	if (fmt_fit(file, sizeof(file), "%s/cgroup.subtree_control", path) == 0 &&
	    faccessat(AT_FDCWD, path, W_OK | X_OK, AT_EACCESS) == 0 &&
	    faccessat(AT_FDCWD, file, W_OK, AT_EACCESS) == 0 &&
	    fmt_fit(file, sizeof(file), "%s/cgroup.procs", path) == 0 &&
	    faccessat(AT_FDCWD, file, W_OK, AT_EACCESS) == 0)
		return true;
	snprintf(why, size, "%s is not delegated to uid %u", path, (unsigned)geteuid());
	return false;
}

/* No cgroupsPath, or a relative one: beside ward's own cgroup (its
 * parent's child), where a user's delegated subtree has room for it: ward's
 * own has processes (itself), and cgroup2 gives controllers only to the
 * children of a cgroup without any. /ward is root's. */
static int beside_own(struct oci_config *cfg, const char *id, struct werror *err)
{
	struct oci_linux *l = cfg_linux(cfg, err);
	const char *rel = l && l->cgroups_path && l->cgroups_path[0] ? l->cgroups_path : NULL;
	char own[PATH_MAX], path[PATH_MAX * 2];
	char *slash;

	if (l == NULL)
		return -1;
	if ((rel && rel[0] == '/') || !cgroup_v2_path_of(getpid(), own, sizeof(own), err))
		return 0;
	slash = strrchr(own, '/');
	*slash = '\0';
	if (fmt_fit(path, sizeof(path), "%s/%s%s", own, rel ? "" : "ward-", rel ? rel : id) < 0)
		return werr_k(err, WERR_INVALID, ENAMETOOLONG,
		              "config.json: .linux.cgroupsPath: too long below %s", own);
	free(l->cgroups_path);
	l->cgroups_path = strdup(path);
	return l->cgroups_path ? 0 : werr(err, ENOMEM, "out of memory");
}

int rootless_cgroup_decide(struct oci_config *cfg, const char *id, bool systemd,
                           bool require_limits, bool *use, struct werror *err)
{
	_cleanup_cgroup_ struct cgroup cg = {0};
	_cleanup_werror_ struct werror cg_err = WERROR_INIT;
	char why[PATH_MAX + 64] = "";

	*use = false;
	if (!systemd && beside_own(cfg, id, err) < 0)
		return -1;
	if (systemd)
		snprintf(why, sizeof(why),
		         "the systemd driver does not reach a user's manager yet");
	else if (cgroup_init(&cg, cfg->linux ? cfg->linux->cgroups_path : NULL, id, &cg_err) < 0)
		snprintf(why, sizeof(why), "%s", werr_msg(&cg_err));
	else if (cg.layout != CG_V2)
		snprintf(why, sizeof(why),
		         "this host's cgroup v1 hierarchies are never delegated to users");
	else
		*use = delegated(cg.unified->name, why, sizeof(why));
	/* A device program (cgroup2's device controller is eBPF) wants
	 * CAP_BPF and CAP_SYS_ADMIN of the host's: none here, as runc and
	 * crun skip it. In a user namespace no node can be made, and the ones
	 * bound in keep the host's permissions. */
	if (*use) {
		struct oci_resources *r = cfg_resources(cfg, err);

		if (r == NULL)
			return -1;
		oci_resources_drop_devices(r);
	}
	if (*use || !limits_asked(cfg))
		return 0;
	if (require_limits)
		return werr_k(
		    err, WERR_UNSUPPORTED, 0,
		    "config.json: .linux.resources: strict enforces limits, and a rootless "
		    "container here has no cgroup (%s); delegate a cgroup2 subtree to the "
		    "user, or set \"rootlessLimits\": \"warn\" in the policy's \"strict\"",
		    why);
	log_warn("config.json: .linux.resources: not enforced: a rootless container here has no "
	         "cgroup (%s)",
	         why);
	return 0;
}
