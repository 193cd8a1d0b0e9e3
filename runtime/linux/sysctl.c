#include "linux/sysctl.h"
#include "lib/strfmt.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "linux/hostns.h"
#include "linux/pathres.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The IPC namespace's keys (ipc_sysctls.c), and the families that follow
 * other namespaces. */
static const char *const ipc_keys[] = {"kernel.msgmax", "kernel.msgmnb",          "kernel.msgmni",
                                       "kernel.sem",    "kernel.shmall",          "kernel.shmmax",
                                       "kernel.shmmni", "kernel.shm_rmid_forced", NULL};

/* The pid namespace's keys. vm.memfd_noexec is "a new pid namespaced
 * sysctl" (Linux 6.3: Documentation/userspace-api/mfd_noexec.rst, the table
 * in kernel/pid_sysctl.h): each pid namespace has its own value, never
 * below its parent's (6.6, "memfd: replace ratcheting feature from
 * vm.memfd_noexec with hierarchy"), and a write changes the writer's
 * active pid namespace only. Its table has no namespace owner, though:
 * /proc/sys lets only the host's root (effective uid 0 of the initial user
 * namespace) write it, so in a user namespace the init cannot, and the
 * parent does (sysctl_apply_pidns). */
static const char *const pid_keys[] = {"vm.memfd_noexec", NULL};

static bool is_pid_key(const char *key)
{
	for (size_t i = 0; pid_keys[i]; i++)
		if (strcmp(key, pid_keys[i]) == 0)
			return true;
	return false;
}

static int needed_namespace(const char *key)
{
	if (is_pid_key(key))
		return CLONE_NEWPID;
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

int sysctl_check(const struct oci_config *c, struct werror *err)
{
	for (size_t i = 0; c->linux && i < c->linux->n_sysctl; i++) {
		const char *key = c->linux->sysctl[i].key;
		int ns;

		if (!key_shape_ok(key))
			return werr_k(err, WERR_INVALID, 0,
			              "config.json: .linux.sysctl.%s: not a sysctl name", key);
		ns = needed_namespace(key);
		if (ns == 0)
			return werr_k(
			    err, WERR_INVALID, 0,
			    "config.json: .linux.sysctl.%s: not a namespaced sysctl: setting "
			    "it would change the host",
			    key);
		const struct oci_namespace *n = oci_config_namespace(c, ns);

		/* Its own: new, or joined by path (a pod's, an engine's netns)
		 * but never the host's. */
		/* A pid namespace key is written by ward as the host's root
		 * (sysctl_apply_pidns): only into a pid namespace this container
		 * makes, never into one it joins (another container's: strict's
		 * vm.memfd_noexec could be lowered from outside). */
		if (ns == CLONE_NEWPID && n && n->path && n->path[0])
			return werr_k(
			    err, WERR_INVALID, 0,
			    "config.json: .linux.sysctl.%s: needs a new pid namespace, not "
			    "one joined by path",
			    key);
		if (n == NULL || (n->path && n->path[0] && ns_is_hosts(n->path, ns)))
			return werr_k(err, WERR_INVALID, 0,
			              "config.json: .linux.sysctl.%s: needs a %s namespace of the "
			              "container's own, not the host's",
			              key,
			              ns == CLONE_NEWNET   ? "network"
			              : ns == CLONE_NEWIPC ? "ipc"
			              : ns == CLONE_NEWPID ? "pid"
			                                   : "uts");
	}
	return 0;
}

/* "/proc/sys/" + the key with dots as slashes; -1 for a key longer than
 * a path (cut short, "kernel" + dots + "shmmax" + more would name
 * kernel/shmmax). */
static int key_path(const char *key, char *path, size_t size)
{
	if (fmt_fit(path, size, "/proc/sys/%s", key) < 0)
		return -1;
	for (char *p = path + strlen("/proc/sys/"); *p; p++)
		if (*p == '.')
			*p = '/';
	return 0;
}

/* The sysctl at fd holds value (trailing whitespace aside). */
static bool holds(int fd, const char *value)
{
	char buf[256];
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	size_t len = strlen(value);

	if (n < 0)
		return false;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		n--;
	while (len > 0 &&
	       (value[len - 1] == '\n' || value[len - 1] == ' ' || value[len - 1] == '\t'))
		len--;
	return (size_t)n == len && memcmp(buf, value, len) == 0;
}

int sysctl_apply(int rootfd, const struct oci_config *c, struct werror *err)
{
	for (size_t i = 0; c->linux && i < c->linux->n_sysctl; i++) {
		const struct jkv *kv = &c->linux->sysctl[i];
		char path[PATH_MAX];
		size_t len = strlen(kv->value);
		_cleanup_close_ int fd = -1;

		if (key_path(kv->key, path, sizeof(path)) < 0)
			return werr_k(
			    err, WERR_INVALID, ENAMETOOLONG,
			    "config.json: .linux.sysctl[\"%.64s...\"]: longer than a path",
			    kv->key);
		/* A pid namespace key the parent has set already (or that the
		 * kernel carried over from above): checked, not written. */
		if (is_pid_key(kv->key)) {
			_cleanup_close_ int now = root_open(rootfd, path, O_RDONLY);

			if (now >= 0 && holds(now, kv->value))
				continue;
		}
		/* The container's /proc, mounted in the rootfs: written from inside
		 * its namespaces, it changes only theirs. */
		fd = root_open(rootfd, path, O_WRONLY);
		if (fd < 0 && is_pid_key(kv->key) && errno == EACCES)
			return werr(err, errno,
			            "config.json: .linux.sysctl.%s: only the host's root can set "
			            "it, and in a user namespace the init is not",
			            kv->key);
		if (fd < 0)
			return werr(err, errno, "config.json: .linux.sysctl.%s (is /proc mounted?)",
			            kv->key);
		if (write(fd, kv->value, len) != (ssize_t)len)
			return werr(err, errno, "config.json: .linux.sysctl.%s = \"%s\"", kv->key,
			            kv->value);
	}
	return 0;
}

/* What the helper reports: the key that failed (-1: entering the pid
 * namespace) and errno, or err 0 for done. */
struct pidns_result {
	int idx;
	int err;
};

static _Noreturn void pidns_writer(int pidfd, const struct oci_config *c, int out)
{
	struct pidns_result res = {-1, 0};
	pid_t pid;
	int st;

	/* For our next child: it is born in the init's pid namespace. */
	if (setns(pidfd, CLONE_NEWPID) < 0) {
		res.err = errno;
		(void)!write(out, &res, sizeof(res));
		_exit(1);
	}
	pid = fork();
	if (pid < 0) {
		res.err = errno;
		(void)!write(out, &res, sizeof(res));
		_exit(1);
	}
	if (pid == 0) {
		/* In the container's pid namespace as the host's root: it keeps
		 * nothing of ward's but the pipe, and runs nothing but the writes. */
		if (out > 3)
			close_range(3, (unsigned)out - 1, 0);
		close_range((unsigned)out + 1, ~0U, 0);
		for (size_t i = 0; i < c->linux->n_sysctl; i++) {
			const struct jkv *kv = &c->linux->sysctl[i];
			char path[PATH_MAX];
			size_t len = strlen(kv->value);
			int fd;

			if (!is_pid_key(kv->key))
				continue;
			/* ward's own /proc: the sysctl is that of the writer's pid
			 * namespace, whichever procfs it is reached through. */
			fd = key_path(kv->key, path, sizeof(path)) < 0
			         ? (errno = ENAMETOOLONG, -1)
			         : open(path, O_WRONLY | O_CLOEXEC);
			if (fd < 0 || write(fd, kv->value, len) != (ssize_t)len) {
				res = (struct pidns_result){(int)i, errno};
				(void)!write(out, &res, sizeof(res));
				_exit(1);
			}
			close(fd);
		}
		(void)!write(out, &res, sizeof(res));
		_exit(0);
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	_exit(0);
}

int sysctl_apply_pidns(int init_pidfd, const struct oci_config *c, struct werror *err)
{
	struct pidns_result res = {-1, EIO};
	bool any = false;
	int p[2], st;
	ssize_t n;
	pid_t pid;

	for (size_t i = 0; c->linux && i < c->linux->n_sysctl; i++)
		any = any || is_pid_key(c->linux->sysctl[i].key);
	if (!any)
		return 0;
	if (pipe2(p, O_CLOEXEC) < 0)
		return werr(err, errno, "config.json: .linux.sysctl: pipe");
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		pidns_writer(init_pidfd, c, p[1]);
	}
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		return werr(err, errno, "config.json: .linux.sysctl: fork");
	}
	do
		n = read(p[0], &res, sizeof(res));
	while (n < 0 && errno == EINTR);
	close(p[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (n != (ssize_t)sizeof(res))
		return werr(err, EIO,
		            "config.json: .linux.sysctl: the helper setting the pid "
		            "namespace's sysctls ended without a word");
	if (res.err && res.idx < 0)
		return werr(err, res.err,
		            "config.json: .linux.sysctl: entering the container's pid "
		            "namespace");
	if (res.err)
		return werr(err, res.err, "config.json: .linux.sysctl.%s = \"%s\"",
		            c->linux->sysctl[res.idx].key, c->linux->sysctl[res.idx].value);
	return 0;
}
