#include "linux/userns.h"
#include "lib/strfmt.h"
#include "lib/cleanup.h"
#include "lib/error.h"

#include <errno.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <fcntl.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static int write_map(pid_t pid, const char *file, const struct oci_idmap *m, size_t n,
                     struct werror *err)
{
	char path[64];
	char buf[4096];
	size_t len = 0;
	_cleanup_close_ int fd = -1;

	for (size_t i = 0; i < n; i++) {
		int w = snprintf(buf + len, sizeof(buf) - len, "%u %u %u\n", m[i].container_id,
		                 m[i].host_id, m[i].size);

		if (w < 0 || (size_t)w >= sizeof(buf) - len)
			return werr(err, E2BIG, "%s: too many ranges", file);
		len += (size_t)w;
	}
	if (fmt_fit(path, sizeof(path), "/proc/%d/%s", (int)pid, file) < 0)
		return werr(err, errno, "/proc/%d/%s", (int)pid, file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return werr(err, errno, "opening %s", path);
	/* The kernel takes the whole map in one write, or nothing. */
	if (write(fd, buf, len) != (ssize_t)len)
		return werr(err, errno, "writing %s (overlapping or too many ranges?)", file);
	return 0;
}

/* One range of one id, the caller's own: an unprivileged writer may map
 * that itself (user_namespaces(7)), gid_map once setgroups is "deny". */
static bool own_id_only(const struct oci_idmap *m, size_t n, uint32_t own)
{
	return n == 1 && m[0].size == 1 && m[0].host_id == own;
}

const char *userns_map_helper(const char *name, char buf[64])
{
	/* Fixed system directories, never $PATH: the helpers are setuid. */
	static const char *const dirs[] = {"/usr/bin", "/bin", "/usr/sbin", "/sbin"};

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		if (fmt_fit(buf, 64, "%s/%s", dirs[i], name) == 0 && access(buf, X_OK) == 0)
			return buf;
	}
	return NULL;
}

/* newuidmap/newgidmap (shadow's setuid helpers, Debian's uidmap): they
 * write ranges the caller owns in /etc/subuid and /etc/subgid. Their own
 * message, if they fail, goes into ours. */
static int helper_map(pid_t pid, const char *tool, const struct oci_idmap *m, size_t n,
                      struct werror *err)
{
	char exe_buf[64];
	const char *exe = userns_map_helper(tool, exe_buf);
	char *argv[3 + 3 * 340 + 1], nums[3 * 340 + 1][12], out[512];
	posix_spawn_file_actions_t fa;
	int pipefd[2], st = 0, r;
	size_t k = 0, len = 0;
	ssize_t got;
	pid_t child;

	if (exe == NULL)
		return werr(err, ENOENT,
		            "mapping more than your own id needs %s (Debian: apt-get install "
		            "uidmap) and ranges in /etc/sub%cid",
		            tool, tool[3]);
	if (n > 340)
		return werr(err, E2BIG, "more than 340 ranges");
	argv[k++] = (char *)tool;
	snprintf(nums[0], sizeof(nums[0]), "%d", (int)pid);
	argv[k++] = nums[0];
	for (size_t i = 0; i < n; i++) {
		uint32_t v[3] = {m[i].container_id, m[i].host_id, m[i].size};

		for (int j = 0; j < 3; j++) {
			snprintf(nums[k - 1], sizeof(nums[0]), "%" PRIu32, v[j]);
			argv[k] = nums[k - 1];
			k++;
		}
	}
	argv[k] = NULL;
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return werr(err, errno, "pipe");
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
	r = posix_spawn(&child, exe, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (r != 0) {
		close(pipefd[0]);
		return werr(err, r, "running %s", exe);
	}
	while (len < sizeof(out) - 1 &&
	       ((got = read(pipefd[0], out + len, sizeof(out) - 1 - len)) > 0 ||
	        (got < 0 && errno == EINTR)))
		len += got > 0 ? (size_t)got : 0;
	close(pipefd[0]);
	out[len] = '\0';
	while (len && (out[len - 1] == '\n' || out[len - 1] == ' '))
		out[--len] = '\0';
	while (waitpid(child, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	return werr(err, EPERM, "%s refused the ranges%s%s (are they yours in /etc/sub%cid?)", exe,
	            len ? ": " : "", out, tool[3]);
}

int userns_write_maps(pid_t pid, const struct oci_linux *l, struct werror *err)
{
	/* Not root: our own id alone, or the setuid helpers for more. */
	if (geteuid() != 0) {
		char path[64];
		_cleanup_close_ int fd = -1;

		if (!own_id_only(l->uid_mappings, l->n_uid_mappings, (uint32_t)geteuid()) ||
		    !own_id_only(l->gid_mappings, l->n_gid_mappings, (uint32_t)getegid())) {
			if (helper_map(pid, "newuidmap", l->uid_mappings, l->n_uid_mappings, err) <
			    0)
				return werr_ctx(err, "config.json: .linux.uidMappings");
			if (helper_map(pid, "newgidmap", l->gid_mappings, l->n_gid_mappings, err) <
			    0)
				return werr_ctx(err, "config.json: .linux.gidMappings");
			return 0;
		}
		snprintf(path, sizeof(path), "/proc/%d/setgroups", (int)pid);
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, "deny", 4) != 4)
			return werr(err, errno, "writing %s", path);
	}
	if (write_map(pid, "uid_map", l->uid_mappings, l->n_uid_mappings, err) < 0)
		return werr_ctx(err, "config.json: .linux.uidMappings");
	if (write_map(pid, "gid_map", l->gid_mappings, l->n_gid_mappings, err) < 0)
		return werr_ctx(err, "config.json: .linux.gidMappings");
	return 0;
}

int userns_make(const struct oci_idmap *uid, size_t n_uid, const struct oci_idmap *gid,
                size_t n_gid, struct werror *err)
{
	struct oci_linux maps = {.uid_mappings = (struct oci_idmap *)uid,
	                         .n_uid_mappings = n_uid,
	                         .gid_mappings = (struct oci_idmap *)gid,
	                         .n_gid_mappings = n_gid};
	struct clone_args ca = {.flags = CLONE_NEWUSER | CLONE_PIDFD, .exit_signal = SIGCHLD};
	char path[64];
	_cleanup_close_ int pidfd = -1;
	int fd = -1, pipefd[2];
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return werr(err, errno, "pipe");
	ca.pidfd = (uint64_t)(uintptr_t)&pidfd;
	pid = (pid_t)syscall(SYS_clone3, &ca, sizeof(ca));
	if (pid == 0) {
		char b;

		/* Only here to own the namespace until it is mapped and opened. */
		close(pipefd[1]);
		while (read(pipefd[0], &b, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	close(pipefd[0]);
	if (pid < 0) {
		close(pipefd[1]);
		return werr(err, errno, "creating a user namespace");
	}
	snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)pid);
	if (userns_write_maps(pid, &maps, err) == 0) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			werr(err, errno, "%s", path);
	}
	close(pipefd[1]);
	waitid(P_PIDFD, (id_t)pidfd, &(siginfo_t){0}, WEXITED);
	return fd;
}
