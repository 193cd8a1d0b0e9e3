#include "container/store.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "lib/fileio.h"
#include "cgroup/cgroup.h"
#include "container/proc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

const char *status_name(enum container_status s)
{
	static const char *const names[] = {"creating", "created", "running", "stopped", "paused"};

	return names[s];
}

int store_open_root(const char *root)
{
	char buf[4096];
	struct stat st;
	int fd;

	if (root[0] != '/')
		return werr(0, "--root %s: must be an absolute path", root);
	if (strlen(root) >= sizeof(buf))
		return werr(ENAMETOOLONG, "--root");
	/* mkdir -p, each level 0700 when we create it. */
	strcpy(buf, root);
	for (char *p = buf + 1;; p++) {
		if (*p == '/' || *p == '\0') {
			char c = *p;

			*p = '\0';
			if (mkdir(buf, 0700) < 0 && errno != EEXIST)
				return werr(errno, "cannot create state root %s", buf);
			*p = c;
			if (c == '\0')
				break;
		}
	}
	fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return werr(errno, "cannot open state root %s", root);
	/* The state says which process to signal and whose namespaces to
	 * enter: only a root that no other user could have written (a user's
	 * forged state.json would aim root's kill, delete and exec anywhere;
	 * a root's exec into a user's container would run as the host's
	 * root). */
	if (fstat(fd, &st) < 0) {
		int e = errno;

		close(fd);
		return werr(e, "state root %s", root);
	}
	if (st.st_uid != geteuid() || (st.st_mode & 022)) {
		close(fd);
		return st.st_uid != geteuid()
		           ? werr(
		                 0,
		                 "state root %s belongs to uid %u: ward trusts only a state root "
		                 "of its own user (%u; run ward as the user whose containers these "
		                 "are)",
		                 root, (unsigned)st.st_uid, (unsigned)geteuid())
		           : werr(0, "state root %s is writable by others (mode %03o)", root,
		                  (unsigned)(st.st_mode & 0777));
	}
	return fd;
}

int store_check_id(const char *id)
{
	size_t n = strlen(id);

	if (n == 0)
		return werr(0, "container id must not be empty");
	if (n > 1024)
		return werr(0, "container id is longer than 1024 characters");
	for (size_t i = 0; i < n; i++) {
		char c = id[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		          (c >= '0' && c <= '9') || (i > 0 && strchr("_.+-", c) != NULL);

		if (!ok)
			return werr(0,
			            "invalid container id \"%s\": use letters, digits and _.+- "
			            "(not first)",
			            id);
	}
	return 0;
}

#define LOCK_WAIT_MS 15000

/* Bounded: a stuck holder must produce an error, not a hung engine. */
static int lock_dir(int dirfd, const char *id)
{
	for (int waited = 0; flock(dirfd, LOCK_EX | LOCK_NB) < 0; waited += 10) {
		if (errno != EWOULDBLOCK && errno != EINTR)
			return werr(errno, "locking the state of \"%s\"", id);
		if (waited >= LOCK_WAIT_MS)
			return werr(EBUSY, "container \"%s\" is locked by another ward process",
			            id);
		usleep(10000);
	}
	return 0;
}

void store_unlock(struct container *c)
{
	flock(c->dirfd, LOCK_UN);
}

int store_relock(struct container *c)
{
	return lock_dir(c->dirfd, c->id);
}

int store_create(int rootfd, const char *id, struct container *c)
{
	memset(c, 0, sizeof(*c));
	c->dirfd = -1;
	c->rootfd = rootfd;
	if (store_check_id(id) < 0)
		return -1;
	if (mkdirat(rootfd, id, 0700) < 0) {
		if (errno == EEXIST)
			return werr(0, "container \"%s\" already exists", id);
		return werr(errno, "cannot create state directory for \"%s\"", id);
	}
	c->id = strdup(id);
	c->dirfd = openat(rootfd, id, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (c->id == NULL || c->dirfd < 0 || lock_dir(c->dirfd, id) < 0) {
		int e = errno;

		unlinkat(rootfd, id, AT_REMOVEDIR);
		return werr(e, "cannot open state directory for \"%s\"", id);
	}
	c->status = ST_CREATING;
	return 0;
}

static int load_state(struct container *c)
{
	char buf[1 << 16];
	ssize_t n;
	size_t got = 0;
	int fd = openat(c->dirfd, STATE_FILE, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return errno == ENOENT ? 0 : werr(errno, "reading state of \"%s\"", c->id);
	while ((n = read(fd, buf + got, sizeof(buf) - 1 - got)) > 0)
		got += (size_t)n;
	close(fd);
	if (n < 0)
		return werr(errno, "reading state of \"%s\"", c->id);
	buf[got] = '\0';
	c->st = oci_state_parse(buf, got, STATE_FILE);
	return c->st ? 0 : werr_ctx("container \"%s\"", c->id);
}

int store_open(int rootfd, const char *id, bool lock, struct container *c)
{
	memset(c, 0, sizeof(*c));
	c->rootfd = rootfd;
	c->dirfd = -1;
	if (store_check_id(id) < 0)
		return -1;
	c->id = strdup(id);
	if (c->id == NULL)
		return werr(ENOMEM, "out of memory");
	c->dirfd = openat(rootfd, id, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (c->dirfd < 0) {
		if (errno == ENOENT) {
			char m[1100];

			/* errno ENOENT, no strerror suffix: delete --force
			 * tells "not there" from other failures by it. */
			snprintf(m, sizeof(m), "container \"%s\" does not exist", id);
			return werr_set(ENOENT, m);
		}
		return werr(errno, "cannot open state of \"%s\"", id);
	}
	if (lock && lock_dir(c->dirfd, id) < 0)
		return -1;
	if (load_state(c) < 0)
		return -1;
	store_refresh(c);
	return 0;
}

void store_refresh(struct container *c)
{
	struct stat sb;

	if (c->st == NULL) {
		c->status = ST_CREATING;
		return;
	}
	if (!proc_alive(c->st->pid, c->st->pid_start))
		c->status = ST_STOPPED;
	else if (fstatat(c->dirfd, EXEC_FIFO, &sb, AT_SYMLINK_NOFOLLOW) == 0)
		c->status = ST_CREATED;
	else
		c->status = ST_RUNNING;
	if (c->status == ST_RUNNING && c->st->cgroup_path) {
		_cleanup_cgroup_ struct cgroup cg = {0};

		if (cgroup_open(&cg, c->st->cgroup_path, c->id) == 0 && cgroup_is_frozen(&cg))
			c->status = ST_PAUSED;
	}
	free(c->st->status);
	c->st->status = strdup(status_name(c->status));
}

int store_write(struct container *c, const char *name, const char *buf, size_t len)
{
	struct iovec iov = {(void *)buf, len};
	char what[160];

	snprintf(what, sizeof(what), "writing %s of \"%.100s\"", name, c->id);
	return atomic_write_at(c->dirfd, name, &iov, 1, 0600, what);
}

int store_save(struct container *c)
{
	char *json = NULL;
	size_t len;
	int r;

	if (oci_state_to_json(c->st, true, &json, &len) < 0)
		return -1;
	r = store_write(c, STATE_FILE, json, len);
	free(json);
	return r;
}

int store_read(struct container *c, const char *name, char *buf, size_t len)
{
	int fd = openat(c->dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return werr(errno, "%s of \"%s\"", name, c->id);
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return werr(errno, "%s of \"%s\"", name, c->id);
	buf[n] = '\0';
	return 0;
}

int store_read_alloc(struct container *c, const char *name, char **buf, size_t *len)
{
	char path[32];
	_cleanup_close_ int fd = openat(c->dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return werr(errno, "%s of \"%s\"", name, c->id);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (oci_read_file(path, buf, len) < 0)
		return werr_ctx("%s of \"%s\"", name, c->id);
	return 0;
}

struct oci_config *store_load_config(struct container *c)
{
	struct oci_config *cfg;
	char *json;
	size_t len;

	/* The copy taken at create: the bundle may have changed since. */
	if (store_read_alloc(c, CONFIG_FILE, &json, &len) < 0)
		return NULL;
	cfg = oci_config_parse(json, len, "saved config.json");
	free(json);
	return cfg;
}

int store_remove(struct container *c)
{
	int fd = dup(c->dirfd);
	struct dirent *de;
	DIR *d;

	if (fd < 0 || (d = fdopendir(fd)) == NULL) {
		if (fd >= 0)
			close(fd);
		return werr(errno, "removing state of \"%s\"", c->id);
	}
	/* The directory holds only files ward wrote (0700, never shared with the
	 * container), so a flat unlink is enough. */
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (unlinkat(c->dirfd, de->d_name, 0) < 0 && errno != ENOENT) {
			int e = errno;

			closedir(d);
			return werr(e, "removing %s of \"%s\"", de->d_name, c->id);
		}
	}
	closedir(d);
	/* ENOENT: removed meanwhile by a `delete --force` elsewhere. */
	if (unlinkat(c->rootfd, c->id, AT_REMOVEDIR) < 0 && errno != ENOENT)
		return werr(errno, "removing state directory of \"%s\"", c->id);
	return 0;
}

int store_cache_dir(int rootfd, const char *name)
{
	char dir[64];
	struct stat st;
	int fd;

	snprintf(dir, sizeof(dir), ".%s", name);
	if (mkdirat(rootfd, dir, 0700) < 0 && errno != EEXIST)
		return -1;
	fd = openat(rootfd, dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	/* Ours only if nobody else could have put things in it. */
	if (fd >= 0 && (fstat(fd, &st) < 0 || st.st_uid != geteuid() || (st.st_mode & 077))) {
		close(fd);
		return -1;
	}
	return fd;
}

void store_close(struct container *c)
{
	if (c->dirfd >= 0)
		close(c->dirfd);
	c->dirfd = -1;
	oci_state_free(c->st);
	c->st = NULL;
	free(c->id);
	c->id = NULL;
}
