/* The faked host's sensitive paths and how paths relate to them, shared by
 * the policy rules' unit tests and the policy fuzzer (no root, no host). */
#ifndef WARD_TESTS_FAKE_SENS_H
#define WARD_TESTS_FAKE_SENS_H

#include <string.h>

#include "facts/host_facts.h"

/* The fake host's sensitive paths, written from ward-policy(7) and issue
 * #12 (host_paths.c builds the real list): path as listed, real: what it
 * is on this host, a merged-/usr one (/bin, /sbin and /lib* are /usr's,
 * /var/run is /run). Relations are found on real, as the runtime finds
 * them on identity. ward runs from /opt/ward/bin, its state root is
 * /srv/ward-state (--root). */
static const struct {
	const char *path, *real;
	enum sens_kind kind;
} fake_sens[] = {
    {"/", "/", SENS_ROOT},
    {"/usr", "/usr", SENS_SYSTEM},
    {"/bin", "/usr/bin", SENS_SYSTEM},
    {"/sbin", "/usr/sbin", SENS_SYSTEM},
    {"/lib", "/usr/lib", SENS_SYSTEM},
    {"/lib64", "/usr/lib64", SENS_SYSTEM},
    {"/run", "/run", SENS_SYSTEM},
    {"/var/run", "/run", SENS_SYSTEM},
    {"/opt/ward/bin", "/opt/ward/bin", SENS_BINARY},
    {"/proc", "/proc", SENS_TREE},
    {"/sys", "/sys", SENS_TREE},
    {"/boot", "/boot", SENS_TREE},
    {"/root", "/root", SENS_TREE},
    {"/run/ward", "/run/ward", SENS_TREE},
    {"/srv/ward-state", "/srv/ward-state", SENS_TREE},
    {"/etc", "/etc", SENS_ETC},
    {"/dev", "/dev", SENS_DEV},
    {"/var/lib/docker", "/var/lib/docker", SENS_ENGINE},
    {"/var/lib/containerd", "/var/lib/containerd", SENS_ENGINE},
    {"/var/lib/containers", "/var/lib/containers", SENS_ENGINE},
    {"/var/lib/kubelet", "/var/lib/kubelet", SENS_ENGINE},
    {"/run/containerd", "/run/containerd", SENS_ENGINE},
    {"/run/docker.sock", "/run/docker.sock", SENS_SOCKET},
    {"/var/run/docker.sock", "/run/docker.sock", SENS_SOCKET},
    {"/run/containerd/containerd.sock", "/run/containerd/containerd.sock", SENS_SOCKET},
    {"/run/podman/podman.sock", "/run/podman/podman.sock", SENS_SOCKET},
    /* What root runs or trusts by use, and a user's home (issue 25). */
    {"/var/lib/dpkg", "/var/lib/dpkg", SENS_TRUSTED},
    {"/var/spool", "/var/spool", SENS_TRUSTED},
    {"/var/lib/systemd", "/var/lib/systemd", SENS_TRUSTED},
    {"/var/log/journal", "/var/log/journal", SENS_TRUSTED},
    {"/home/alice", "/home/alice", SENS_HOME},
};

#define N_FAKE_SENS (sizeof(fake_sens) / sizeof(fake_sens[0]))
_Static_assert(N_FAKE_SENS <= HOST_MAX_SENSITIVE, "the fake host's list fits");

/* How the path p relates to s (both as they are on the host). */
static inline unsigned fake_relation(const char *p, const char *s)
{
	size_t lp = strlen(p), ls = strlen(s);

	if (strcmp(p, s) == 0)
		return REL_IS;
	if (strcmp(p, "/") == 0 || (strncmp(s, p, lp) == 0 && s[lp] == '/'))
		return REL_CONTAINS;
	if (strcmp(s, "/") == 0 || (strncmp(p, s, ls) == 0 && p[ls] == '/'))
		return REL_INSIDE;
	return 0;
}

#endif
