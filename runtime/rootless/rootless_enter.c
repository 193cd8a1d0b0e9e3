/* Entering the container's user namespace before anything is made, and
 * what to say when the host forbids it (rootless.h). */
#include "rootless/rootless.h"
#include "linux/sys_mount.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "linux/userns.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/nsfs.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <unistd.h>

/* A sysctl's integer value, or -1 when the kernel has no such setting. */
static long sysctl_long(const char *path)
{
	char buf[32] = "";
	long v = -1;
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd >= 0 && read(fd, buf, sizeof(buf) - 1) > 0)
		v = strtol(buf, NULL, 10);
	return v;
}

const char *rootless_userns_blocked(int clone_errno)
{
	/* Debian's and Ubuntu's older kernels: a switch for all users. */
	if (sysctl_long("/proc/sys/kernel/unprivileged_userns_clone") == 0)
		return "the host forbids user namespaces to users other than root "
		       "(kernel.unprivileged_userns_clone = 0): as root, run sysctl -w "
		       "kernel.unprivileged_userns_clone=1 (and keep it in /etc/sysctl.d/)";
	if (sysctl_long("/proc/sys/user/max_user_namespaces") == 0)
		return "the host allows no user namespaces (user.max_user_namespaces = 0): as "
		       "root, run sysctl -w user.max_user_namespaces=15000 (and keep it in "
		       "/etc/sysctl.d/)";
	if (clone_errno == ENOSPC)
		return "no user namespace is left (user.max_user_namespaces is reached, here "
		       "or in an enclosing namespace, possibly set to 0 there): raise it where "
		       "it is set";
	/* Ubuntu 23.10 on: unprivileged namespaces only for programs with an
	 * AppArmor profile that allows them. */
	if (sysctl_long("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") == 1)
		return "AppArmor restricts unprivileged user namespaces "
		       "(kernel.apparmor_restrict_unprivileged_userns = 1): give ward a profile "
		       "with the \"userns,\" rule (see /etc/apparmor.d/), or, as root, run "
		       "sysctl -w kernel.apparmor_restrict_unprivileged_userns=0";
	return NULL;
}

static int blocked(int e, const char *what, struct werror *err)
{
	const char *why = rootless_userns_blocked(e);

	/* Never a fallback to running without the namespace: that would be
	 * no isolation at all. */
	return why ? werr(err, 0, "rootless: %s: %s", what, why)
	           : werr_ctx(err, "rootless: %s", what);
}

int rootless_enter(const struct oci_config *cfg, struct werror *err)
{
	const struct oci_namespace *ns = oci_config_namespace(cfg, CLONE_NEWUSER);
	const struct oci_linux *l = cfg->linux;
	_cleanup_close_ int fd = -1;

	if (ns == NULL || l == NULL)
		return werr(err, EINVAL, "rootless: no user namespace in the config");
	if (ns->path && ns->path[0]) {
		fd = open(ns->path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || ioctl(fd, NS_GET_NSTYPE) != CLONE_NEWUSER)
			return werr_k(err, WERR_INVALID, fd < 0 ? errno : EINVAL,
			              "config.json: .linux.namespaces: %s: not a user namespace",
			              ns->path);
	} else {
		fd = userns_make(l->uid_mappings, l->n_uid_mappings, l->gid_mappings,
		                 l->n_gid_mappings, err);
		if (fd < 0)
			return blocked(werr_errno(err), "making the container's user namespace",
			               err);
	}
	/* In there ward has the same uid as the container's root: not
	 * dumpable (before it joins), so that the container cannot ptrace it
	 * or read its /proc entries (CVE-2016-9962's lesson) where it sees
	 * ward, nor its children before their execve. */
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		return werr(err, errno, "PR_SET_DUMPABLE");
	if (setns(fd, CLONE_NEWUSER) < 0) {
		int e = errno;

		werr(err, e, "setns");
		return blocked(e, "entering the container's user namespace", err);
	}
	/* A mount namespace of the container's user namespace for all ward
	 * prepares; as a copy made for a less privileged namespace, its
	 * mounts receive from the host's and never send to them, and they
	 * are locked together as they came. Slave, to say so. */
	if (unshare(CLONE_NEWNS) < 0)
		return werr(err, errno, "rootless: a mount namespace for the container");
	if (sys_mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) < 0)
		return werr(err, errno, "rootless: making the mounts slaves");
	return 0;
}
