#include "linux/sysctl.h"
#include "lib/error.h"
#include "linux/hostns.h"
#include "linux/pathres.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The IPC namespace's keys (ipc_sysctls.c), and the families that follow
 * other namespaces. */
static const char *const ipc_keys[] = {"kernel.msgmax", "kernel.msgmnb",          "kernel.msgmni",
                                       "kernel.sem",    "kernel.shmall",          "kernel.shmmax",
                                       "kernel.shmmni", "kernel.shm_rmid_forced", NULL};

static int needed_namespace(const char *key)
{
	for (size_t i = 0; ipc_keys[i]; i++)
		if (strcmp(key, ipc_keys[i]) == 0)
			return CLONE_NEWIPC;
	if (strncmp(key, "fs.mqueue.", 10) == 0)
		return CLONE_NEWIPC;
	if (strncmp(key, "net.", 4) == 0)
		return CLONE_NEWNET;
	if (strcmp(key, "kernel.hostname") == 0 || strcmp(key, "kernel.domainname") == 0)
		return CLONE_NEWUTS;
	return 0;
}

/* A key is a dotted path of plain names: no "/", "..", or empty parts, so
 * it cannot name a file outside /proc/sys. */
static bool key_shape_ok(const char *key)
{
	size_t len = strlen(key);

	if (len == 0 || len > 200 || key[0] == '.' || key[len - 1] == '.' || strstr(key, ".."))
		return false;
	for (const char *p = key; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '.' || *p == '-'))
			return false;
	return true;
}

int sysctl_check(const struct oci_config *c)
{
	for (size_t i = 0; c->linux && i < c->linux->n_sysctl; i++) {
		const char *key = c->linux->sysctl[i].key;
		int ns;

		if (!key_shape_ok(key))
			return werr(0, "config.json: .linux.sysctl.%s: not a sysctl name", key);
		ns = needed_namespace(key);
		if (ns == 0)
			return werr(
			    0,
			    "config.json: .linux.sysctl.%s: not a namespaced sysctl: setting "
			    "it would change the host",
			    key);
		const struct oci_namespace *n = oci_config_namespace(c, ns);

		/* Its own: new, or joined by path (a pod's, an engine's netns)
		 * but never the host's. */
		if (n == NULL || (n->path && n->path[0] && ns_is_hosts(n->path, ns)))
			return werr(0,
			            "config.json: .linux.sysctl.%s: needs a %s namespace of the "
			            "container's own, not the host's",
			            key,
			            ns == CLONE_NEWNET   ? "network"
			            : ns == CLONE_NEWIPC ? "ipc"
			                                 : "uts");
	}
	return 0;
}

int sysctl_apply(int rootfd, const struct oci_config *c)
{
	for (size_t i = 0; c->linux && i < c->linux->n_sysctl; i++) {
		const struct jkv *kv = &c->linux->sysctl[i];
		char path[PATH_MAX];
		size_t len = strlen(kv->value);
		int fd;

		snprintf(path, sizeof(path), "/proc/sys/%s", kv->key);
		for (char *p = path + strlen("/proc/sys/"); *p; p++)
			if (*p == '.')
				*p = '/';
		/* The container's /proc, mounted in the rootfs: written from inside
		 * its namespaces, it changes only theirs. */
		fd = root_open(rootfd, path, O_WRONLY);
		if (fd < 0)
			return werr(errno, "config.json: .linux.sysctl.%s (is /proc mounted?)",
			            kv->key);
		if (write(fd, kv->value, len) != (ssize_t)len) {
			int e = errno;

			close(fd);
			return werr(e, "config.json: .linux.sysctl.%s = \"%s\"", kv->key,
			            kv->value);
		}
		close(fd);
	}
	return 0;
}
