#include "container/create/support.h"
#include "lib/error.h"
#include "rootfs/mount_opts.h"
#include "linux/process_attrs.h"
#include "linux/sysctl.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define NOT_YET(path, what)                                                                        \
	werr_k(err, WERR_UNSUPPORTED, 0, "config.json: %s: %s is not supported by ward yet", path, \
	       what)

/* Any filesystem type the kernel knows may be mounted, as with runc; a
 * non-bind mount must say which. */
static int check_mounts(const struct oci_config *c, struct werror *err)
{
	for (size_t i = 0; i < c->n_mounts; i++) {
		const struct oci_mount *m = &c->mounts[i];

		if (!mount_is_bind(m) && (m->type == NULL || m->type[0] == '\0'))
			return werr_k(err, WERR_INVALID, 0,
			              "config.json: .mounts[%zu].type: required unless binding", i);
	}
	return 0;
}

static int check_namespaces(const struct oci_config *c, bool compat, struct werror *err)
{
	const struct oci_linux *l = c->linux;
	bool userns = oci_config_namespace(c, CLONE_NEWUSER) != NULL;

	for (size_t i = 0; l && i < l->n_namespaces; i++) {
		char path[64];

		snprintf(path, sizeof(path), ".linux.namespaces[%zu]", i);
	}
	/* A user namespace joined by path comes with its own mappings. */
	if (userns && oci_config_namespace(c, CLONE_NEWUSER)->path &&
	    oci_config_namespace(c, CLONE_NEWUSER)->path[0])
		return (l->n_uid_mappings || l->n_gid_mappings)
		           ? werr_k(err, WERR_INVALID, 0,
		                    "config.json: .linux.uidMappings: a user namespace joined "
		                    "by path has its mappings already")
		           : 0;
	if (userns && (l->n_uid_mappings == 0 || l->n_gid_mappings == 0))
		return werr_k(err, WERR_INVALID, 0,
		              "config.json: .linux.uidMappings: a user namespace needs uid and "
		              "gid mappings");
	if (!userns && l && (l->n_uid_mappings || l->n_gid_mappings))
		return werr_k(err, WERR_INVALID, 0,
		              "config.json: .linux.uidMappings: mappings need a \"user\" entry in "
		              ".linux.namespaces");
	if ((c->hostname && c->hostname[0]) && !oci_config_namespace(c, CLONE_NEWUTS))
		return werr_k(err, WERR_INVALID, 0,
		              "config.json: .hostname: setting a hostname needs a \"uts\" "
		              "namespace");
	if ((c->domainname && c->domainname[0]) && !oci_config_namespace(c, CLONE_NEWUTS))
		return werr_k(err, WERR_INVALID, 0,
		              "config.json: .domainname: setting a domain name needs a \"uts\" "
		              "namespace");
	/* runc runs it in its own mount namespace (rootfs/rootfs.c); the
	 * other profiles keep the mounts off the host's, whatever the policy
	 * file allows. */
	if (!compat && !oci_config_namespace(c, CLONE_NEWNS))
		return werr_k(err, WERR_INVALID, 0,
		              "config.json: .linux.namespaces: a \"mount\" namespace is required "
		              "outside compat");
	return 0;
}

/* Whether a resctrl filesystem is mounted in ward's mount namespace. */
static bool resctrl_mounted(void)
{
	char line[1024];
	bool found = false;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	while (f && !found && fgets(line, sizeof(line), f)) {
		const char *sep = strstr(line, " - ");

		found = sep && strncmp(sep, " - resctrl ", 11) == 0;
	}
	if (f)
		fclose(f);
	return found;
}

/* config-linux.md "IntelRdt": with no resctrl filesystem mounted in the
 * runtime's mount namespace the runtime MUST generate an error; where one
 * is, ward does not write it yet. The field named is the one that asks
 * for resctrl most specifically. */
static int check_intel_rdt(const struct oci_intel_rdt *r, struct werror *err)
{
	const char *field = r->n_schemata          ? ".linux.intelRdt.schemata"
	                    : r->enable_monitoring ? ".linux.intelRdt.enableMonitoring"
	                                           : ".linux.intelRdt";

	if (!resctrl_mounted())
		return werr_k(
		    err, WERR_UNSUPPORTED, 0,
		    "config.json: %s: Intel RDT needs the resctrl filesystem, and none is "
		    "mounted (mount -t resctrl resctrl /sys/fs/resctrl, on a CPU with RDT)",
		    field);
	return NOT_YET(field, "Intel RDT");
}

/* config-linux.md "Network Devices": the runtime MUST check that the move
 * is possible. ward moves them into the network namespace it makes for
 * the container: none, or one joined by path, is refused (the host's, or
 * another's that outlives this container). */
static int check_net_devices(const struct oci_config *c, struct werror *err)
{
	const struct oci_namespace *ns = oci_config_namespace(c, CLONE_NEWNET);

	if (ns == NULL)
		return werr_k(err, WERR_INVALID, 0,
		              "config.json: .linux.netDevices: moving network devices needs a "
		              "\"network\" namespace in .linux.namespaces");
	if (ns->path && ns->path[0])
		return werr_k(err, WERR_INVALID, 0,
		              "config.json: .linux.netDevices: moving network devices needs a new "
		              "network namespace, not one joined by path (%s)",
		              ns->path);
	return 0;
}

int support_check(const struct oci_config *c, bool compat, struct werror *err)
{
	const struct oci_linux *l = c->linux;

	if (attrs_check(c, err) < 0)
		return -1;

	if (sysctl_check(c, err) < 0)
		return -1;

	if (l && l->time_offsets &&
	    (!oci_config_namespace(c, CLONE_NEWTIME) ||
	     (oci_config_namespace(c, CLONE_NEWTIME)->path &&
	      oci_config_namespace(c, CLONE_NEWTIME)->path[0])))
		return werr_k(err, WERR_INVALID, 0,
		              "config.json: .linux.timeOffsets: needs a new \"time\" namespace");
	if (l && l->intel_rdt && check_intel_rdt(l->intel_rdt, err) < 0)
		return -1;
	if (l && l->net_devices.n && check_net_devices(c, err) < 0)
		return -1;
	if (check_namespaces(c, compat, err) < 0 || check_mounts(c, err) < 0)
		return -1;
	return 0;
}

int support_rootfs(const struct oci_config *c, const char *bundle, char out[PATH_MAX],
                   struct werror *err)
{
	char joined[PATH_MAX];
	struct stat st;

	if (c->root->path[0] == '/')
		snprintf(joined, sizeof(joined), "%s", c->root->path);
	else if ((size_t)snprintf(joined, sizeof(joined), "%s/%s", bundle, c->root->path) >=
	         sizeof(joined))
		return werr_k(err, WERR_INVALID, ENAMETOOLONG, "config.json: .root.path");
	if (realpath(joined, out) == NULL)
		return werr_k(err, WERR_INVALID, errno, "config.json: .root.path: %s", joined);
	if (stat(out, &st) < 0 || !S_ISDIR(st.st_mode))
		return werr_k(err, WERR_INVALID, ENOTDIR, "config.json: .root.path: %s", out);
	return 0;
}
