/* ward features: what this build of ward supports, as the runtime-spec's
 * features document (features.md), plus every annotation ward reads. */
#include "container/query/query.h"
#include "container/query/report_out.h"
#include "hooks/hooks.h"
#include "oci/mempolicy.h"
#include "oci/names.h"
#include "oci/seccomp_spec.h"
#include "policy/policy.h"

#include <libmount.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>

static void strings(struct rout *o, const char *key, const char *const *v)
{
	rout_list(o, key);
	for (; *v; v++)
		rout_item(o, *v);
	rout_list_end(o);
}

static void enabled(struct rout *o, const char *key, bool on)
{
	rout_obj(o, key);
	rout_bool(o, "enabled", on);
	rout_obj_end(o);
}

int query_features(struct werror *err)
{
	static const int ns[] = {CLONE_NEWCGROUP, CLONE_NEWIPC,  CLONE_NEWNS,  CLONE_NEWNET,
	                         CLONE_NEWPID,    CLONE_NEWUSER, CLONE_NEWUTS, CLONE_NEWTIME};
	static const char *const flags[] = {"SECCOMP_FILTER_FLAG_TSYNC", "SECCOMP_FILTER_FLAG_LOG",
	                                    "SECCOMP_FILTER_FLAG_SPEC_ALLOW",
	                                    "SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV", NULL};
	const struct libmnt_optmap *map = mnt_get_builtin_optmap(MNT_LINUX_MAP);
	const struct scmp_version *v = seccomp_version();
	struct rout o;
	char ver[32];

	if (rout_init(&o, true, stdout, err) < 0)
		return -1;
	rout_str(&o, "ociVersionMin", "1.0.0");
	rout_str(&o, "ociVersionMax", "1.3.0");
	rout_list(&o, "hooks");
	for (int i = 0; i < HOOK_POINTS; i++)
		rout_item(&o, hooks_point_name((enum oci_hook_point)i));
	rout_list_end(&o);
	rout_list(&o, "mountOptions");
	for (; map && map->name; map++)
		if (strchr(map->name, '=') == NULL)
			rout_item(&o, map->name);
	rout_list_end(&o);
	rout_obj(&o, "linux");
	rout_list(&o, "namespaces");
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		rout_item(&o, oci_ns_type(ns[i]));
	rout_list_end(&o);
	rout_list(&o, "capabilities");
	for (int c = 0; c <= oci_cap_last(); c++)
		rout_item(&o, oci_cap_name(c));
	rout_list_end(&o);
	rout_obj(&o, "cgroup");
	rout_bool(&o, "v1", true);
	rout_bool(&o, "v2", true);
#ifdef HAVE_SYSTEMD
	rout_bool(&o, "systemd", true); /* --systemd-cgroup (cgroup/cg_systemd.h) */
#else
	rout_bool(&o, "systemd", false);
#endif
	rout_bool(&o, "systemdUser", false);
	rout_bool(&o, "rdma", true);
	rout_obj_end(&o);
	rout_obj(&o, "seccomp");
	rout_bool(&o, "enabled", true);
	strings(&o, "actions", oci_seccomp_actions);
	strings(&o, "operators", oci_seccomp_ops);
	strings(&o, "archs", oci_seccomp_arches);
	strings(&o, "knownFlags", flags);
	strings(&o, "supportedFlags", flags);
	rout_obj_end(&o);
	enabled(&o, "apparmor", true);
	enabled(&o, "selinux", true);
	/* features-linux.md: schemata and monitoring are 1.3's; ward refuses
	 * Intel RDT (container/support.c). */
	rout_obj(&o, "intelRdt");
	rout_bool(&o, "enabled", false);
	rout_bool(&o, "schemata", false);
	rout_bool(&o, "monitoring", false);
	rout_obj_end(&o);
	rout_obj(&o, "memoryPolicy");
	strings(&o, "modes", oci_mpol_modes);
	strings(&o, "flags", oci_mpol_flags);
	rout_obj_end(&o);
	enabled(&o, "netDevices", true);
	rout_obj(&o, "mountExtensions");
	enabled(&o, "idmap", true);
	rout_obj_end(&o);
	rout_obj_end(&o);
	rout_obj(&o, "annotations");
	snprintf(ver, sizeof(ver), "%u.%u.%u", v->major, v->minor, v->micro);
	rout_str(&o, "io.github.seccomp.libseccomp.version", ver);
	for (size_t i = 0; policy_annotations[i][0]; i++)
		rout_str(&o, policy_annotations[i][0], policy_annotations[i][1]);
	rout_obj_end(&o);
	rout_obj(&o, "org.ward");
	strings(&o, "profiles", (const char *const[]){"compat", "baseline", "strict", NULL});
	strings(&o, "optOuts", policy_optouts);
	rout_obj_end(&o);
	rout_finish(&o);
	putchar('\n');
	return 0;
}
