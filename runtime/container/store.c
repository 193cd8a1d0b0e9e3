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
	static const char *const names[] = {"creating", "created",  "running", "stopped",
	                                    "paused",   "deleting", "unknown"};

	return names[s];
}

int store_open_root(const char *root, struct werror *err)
{
	char buf[4096];
	struct stat st;
	_cleanup_close_ int fd = -1;

	if (root[0] != '/')
		return werr_k(err, WERR_INVALID, 0, "--root %s: must be an absolute path", root);
	if (strlen(root) >= sizeof(buf))
		return werr(err, ENAMETOOLONG, "--root");
	/* mkdir -p, each level 0700 when we create it. */
	strcpy(buf, root);
	for (char *p = buf + 1;; p++) {
		if (*p == '/' || *p == '\0') {
			char c = *p;

			*p = '\0';
			if (mkdir(buf, 0700) < 0 && errno != EEXIST)
				return werr(err, errno, "cannot create state root %s", buf);
			*p = c;
			if (c == '\0')
				break;
		}
	}
	fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return werr(err, errno, "cannot open state root %s", root);
	/* The state says which process to signal and whose namespaces to
	 * enter: only a root that no other user could have written (a user's
	 * forged state.json would aim root's kill, delete and exec anywhere;
	 * a root's exec into a user's container would run as the host's
	 * root). */
	if (fstat(fd, &st) < 0)
		return werr(err, errno, "state root %s", root);
	if (st.st_uid != geteuid() || (st.st_mode & 022))
		return st.st_uid != geteuid()
		           ? werr(
		                 err, 0,
		                 "state root %s belongs to uid %u: ward trusts only a state root "
		                 "of its own user (%u; run ward as the user whose containers these "
		                 "are)",
		                 root, (unsigned)st.st_uid, (unsigned)geteuid())
		           : werr(err, 0, "state root %s is writable by others (mode %03o)", root,
		                  (unsigned)(st.st_mode & 0777));
	return TAKE_FD(fd);
}

int store_check_id(const char *id, struct werror *err)
{
	size_t n = strlen(id);

	if (n == 0)
		return werr_k(err, WERR_INVALID, 0, "container id must not be empty");
	if (n > STORE_ID_MAX)
		return werr_k(err, WERR_INVALID, 0,
		              "container id is %zu characters long: at most %d are allowed", n,
		              STORE_ID_MAX);
	for (size_t i = 0; i < n; i++) {
		char c = id[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		          (c >= '0' && c <= '9') || (i > 0 && strchr("_.+-", c) != NULL);

		if (!ok)
			return werr_k(err, WERR_INVALID, 0,
			              "invalid container id \"%s\": use letters, digits and _.+- "
			              "(not first)",
			              id);
	}
	return 0;
}

#define LOCK_WAIT_MS 15000

/* The files ward reads back are its own, but sized by the config: the state
 * carries its annotations, the saved config.json is the config. Bounded all
 * the same, with room over the largest config ward accepts. */
#define STORE_FILE_MAX (OCI_MAX_CONFIG_SIZE + (1u << 20))

/* Whether <root>/<id> is still the directory dirfd: a directory opened by
 * name and then locked may have been removed (and made again) meanwhile by
 * whoever held the lock. Under the lock, only its holder removes it. */
static bool still_named(int rootfd, const char *id, int dirfd)
{
	struct stat a, b;

	return fstat(dirfd, &a) == 0 && fstatat(rootfd, id, &b, AT_SYMLINK_NOFOLLOW) == 0 &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* Bounded: a stuck holder must produce an error, not a hung engine. */
static int lock_dir(int dirfd, const char *id, struct werror *err)
{
	for (int waited = 0; flock(dirfd, LOCK_EX | LOCK_NB) < 0; waited += 10) {
		if (errno != EWOULDBLOCK && errno != EINTR)
			return werr(err, errno, "locking the state of \"%s\"", id);
		if (waited >= LOCK_WAIT_MS)
			return werr(err, EBUSY,
			            "container \"%s\" is locked by another ward process", id);
		usleep(10000);
	}
	return 0;
}

void store_unlock(struct container *c)
{
	flock(c->dirfd, LOCK_UN);
}

int store_relock(struct container *c, struct werror *err)
{
	return lock_dir(c->dirfd, c->id, err);
}

int store_create(int rootfd, const char *id, struct container *c, struct werror *err)
{
	memset(c, 0, sizeof(*c));
	c->dirfd = -1;
	c->rootfd = rootfd;
	if (store_check_id(id, err) < 0)
		return -1;
	if (mkdirat(rootfd, id, 0700) < 0) {
		if (errno == EEXIST)
			return werr(err, 0, "container \"%s\" already exists", id);
		return werr(err, errno, "cannot create state directory for \"%s\"", id);
	}
	c->id = strdup(id);
	c->dirfd = openat(rootfd, id, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (c->id == NULL || c->dirfd < 0) {
		int e = c->id ? errno : ENOMEM;

		/* Still empty (files are only made under the lock). */
		if (e != ENOENT)
			unlinkat(rootfd, id, AT_REMOVEDIR);
		return werr(err, e, "cannot open state directory for \"%s\"", id);
	}
	/* Between mkdir and flock a `delete --force` of the same id may take
	 * the lock and remove the directory: then it is gone, and so is this
	 * create (the name may by now be another create's). */
	if (lock_dir(c->dirfd, id, err) < 0)
		return -1;
	if (!still_named(rootfd, id, c->dirfd))
		return werr(err, ENOENT, "container \"%s\" was deleted while it was being created",
		            id);
	c->status = ST_CREATING;
	return 0;
}

/* tolerant: a state.json that cannot be read leaves the container
 * ST_UNKNOWN with the reason in c->load_err, for delete --force and list. */
static int load_state(struct container *c, bool tolerant, struct werror *err)
{
	char what[64 + STORE_ID_MAX];
	_cleanup_free_ char *buf = NULL;
	_cleanup_close_ int fd = openat(c->dirfd, STATE_FILE, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	size_t len;

	if (fd < 0 && errno == ENOENT) {
		/* No state: being created, unless a delete set it aside. */
		if (faccessat(c->dirfd, DELETING_FILE, F_OK, AT_SYMLINK_NOFOLLOW) == 0)
			c->status = ST_DELETING;
		return 0;
	}
	snprintf(what, sizeof(what), "state of \"%s\"", c->id);
	if (fd < 0)
		werr(err, errno, "reading %s", what);
	else if (read_fd(fd, what, STORE_FILE_MAX, &buf, &len, err) == 0)
		c->st = oci_state_parse(buf, len, STATE_FILE, err);
	if (c->st)
		return 0;
	if (fd >= 0)
		werr_ctx(err, "container \"%s\"", c->id);
	if (!tolerant)
		return -1;
	c->load_err = strdup(werr_msg(err));
	c->status = ST_UNKNOWN;
	werr_clear(err);
	return c->load_err ? 0 : werr(err, ENOMEM, "out of memory");
}

static int open_common(int rootfd, const char *id, bool lock, bool tolerant, struct container *c,
                       struct werror *err)
{
	memset(c, 0, sizeof(*c));
	c->rootfd = rootfd;
	c->dirfd = -1;
	if (store_check_id(id, err) < 0)
		return -1;
	c->id = strdup(id);
	if (c->id == NULL)
		return werr(err, ENOMEM, "out of memory");
	for (int tries = 0;; tries++) {
		c->dirfd = openat(rootfd, id, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (c->dirfd < 0) {
			if (errno == ENOENT) {
				char m[100 + STORE_ID_MAX];

				/* errno ENOENT, no strerror suffix: delete --force
				 * tells "not there" from other failures by it. */
				snprintf(m, sizeof(m), "container \"%s\" does not exist", id);
				return werr_set(err, WERR_NOT_FOUND, ENOENT, m);
			}
			return werr(err, errno, "cannot open state of \"%s\"", id);
		}
		if (!lock)
			break;
		if (lock_dir(c->dirfd, id, err) < 0)
			return -1;
		/* Removed while we waited for the lock: whatever the name is
		 * now (nothing, or a new container) is what was asked for. */
		if (still_named(rootfd, id, c->dirfd))
			break;
		close(c->dirfd);
		c->dirfd = -1;
		if (tries == 10)
			return werr(err, EAGAIN,
			            "container \"%s\" keeps being removed and made again", id);
	}
	if (load_state(c, tolerant, err) < 0)
		return -1;
	store_refresh(c, err);
	return 0;
}

int store_open(int rootfd, const char *id, bool lock, struct container *c, struct werror *err)
{
	return open_common(rootfd, id, lock, false, c, err);
}

int store_open_any(int rootfd, const char *id, bool lock, struct container *c, struct werror *err)
{
	return open_common(rootfd, id, lock, true, c, err);
}

void store_refresh(struct container *c, struct werror *err)
{
	struct stat sb;

	if (c->st == NULL) {
		if (c->status != ST_DELETING && c->status != ST_UNKNOWN)
			c->status = ST_CREATING;
		return;
	}
	if (!proc_alive(c->st->pid, c->st->pid_start, err))
		c->status = ST_STOPPED;
	else if (fstatat(c->dirfd, EXEC_FIFO, &sb, AT_SYMLINK_NOFOLLOW) == 0)
		c->status = ST_CREATED;
	else
		c->status = ST_RUNNING;
	if (c->status == ST_RUNNING && c->st->cgroup_path) {
		_cleanup_cgroup_ struct cgroup cg = {0};

		if (cgroup_open(&cg, c->st->cgroup_path, c->id, err) == 0 &&
		    cgroup_is_frozen(&cg, err))
			c->status = ST_PAUSED;
	}
	free(c->st->status);
	c->st->status = strdup(status_name(c->status));
}

int store_write(struct container *c, const char *name, const char *buf, size_t len,
                struct werror *err)
{
	struct iovec iov = {(void *)buf, len};
	char what[160];

	snprintf(what, sizeof(what), "writing %s of \"%.100s\"", name, c->id);
	return atomic_write_at(c->dirfd, name, &iov, 1, 0600, what, err);
}

int store_save(struct container *c, struct werror *err)
{
	char *json = NULL;
	size_t len;
	int r;

	if (oci_state_to_json(c->st, true, &json, &len, err) < 0)
		return -1;
	r = store_write(c, STATE_FILE, json, len, err);
	free(json);
	return r;
}

int store_read(struct container *c, const char *name, char *buf, size_t len, struct werror *err)
{
	char what[64 + STORE_ID_MAX];
	_cleanup_close_ int fd = openat(c->dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	buf[0] = '\0';
	if (fd < 0)
		return werr(err, errno, "%s of \"%s\"", name, c->id);
	snprintf(what, sizeof(what), "%s of \"%s\"", name, c->id);
	return read_fd_into(fd, what, buf, len, NULL, err);
}

int store_read_alloc(struct container *c, const char *name, char **buf, size_t *len,
                     struct werror *err)
{
	char what[64 + STORE_ID_MAX];
	struct stat st;
	_cleanup_close_ int fd = openat(c->dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) < 0)
		return werr(err, errno, "%s of \"%s\"", name, c->id);
	if (!S_ISREG(st.st_mode))
		return werr(err, 0, "%s of \"%s\": not a regular file", name, c->id);
	snprintf(what, sizeof(what), "%s of \"%s\"", name, c->id);
	return read_fd(fd, what, STORE_FILE_MAX, buf, len, err);
}

struct oci_config *store_load_config(struct container *c, struct werror *err)
{
	struct oci_config *cfg;
	char *json;
	size_t len;

	/* The copy taken at create: the bundle may have changed since. */
	if (store_read_alloc(c, CONFIG_FILE, &json, &len, err) < 0)
		return NULL;
	cfg = oci_config_parse(json, len, "saved config.json", err);
	free(json);
	return cfg;
}

int store_remove(struct container *c, struct werror *err)
{
	_cleanup_close_ int fd = -1;
	struct dirent *de;
	DIR *d;

	/* state.json goes first, and not by unlink: a removal killed midway
	 * must not leave a directory without state, which reads as a
	 * container still being created. A rename needs no space (a full
	 * state root); the marker of a container that had no state yet does,
	 * and goes without it then rather than leaving the container. */
	if (renameat(c->dirfd, STATE_FILE, c->dirfd, DELETING_FILE) < 0) {
		_cleanup_close_ int marker = -1;

		if (errno != ENOENT)
			return werr(err, errno, "setting aside the state of \"%s\"", c->id);
		marker = openat(c->dirfd, DELETING_FILE,
		                O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	}
	fd = dup(c->dirfd);
	if (fd < 0 || (d = fdopendir(fd)) == NULL)
		return werr(err, errno, "removing state of \"%s\"", c->id);
	TAKE_FD(fd); /* closedir() closes it */
	/* The directory holds only files ward wrote (0700, never shared with the
	 * container), so a flat unlink is enough; the marker goes last. */
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0 ||
		    strcmp(de->d_name, DELETING_FILE) == 0)
			continue;
		if (unlinkat(c->dirfd, de->d_name, 0) < 0 && errno != ENOENT) {
			int e = errno;

			closedir(d);
			return werr(err, e, "removing %s of \"%s\"", de->d_name, c->id);
		}
	}
	closedir(d);
	if (unlinkat(c->dirfd, DELETING_FILE, 0) < 0 && errno != ENOENT)
		return werr(err, errno, "removing %s of \"%s\"", DELETING_FILE, c->id);
	/* rmdir has no fd form: the name, only while it is still the directory
	 * locked (else ours is gone already, and the name another's). */
	if (still_named(c->rootfd, c->id, c->dirfd) &&
	    unlinkat(c->rootfd, c->id, AT_REMOVEDIR) < 0 && errno != ENOENT)
		return werr(err, errno, "removing state directory of \"%s\"", c->id);
	return 0;
}

int store_cache_dir(int rootfd, const char *name)
{
	char dir[64];
	struct stat st;
	_cleanup_close_ int fd = -1;

	snprintf(dir, sizeof(dir), ".%s", name);
	if (mkdirat(rootfd, dir, 0700) < 0 && errno != EEXIST)
		return -1;
	fd = openat(rootfd, dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	/* Ours only if nobody else could have put things in it. */
	if (fd >= 0 && (fstat(fd, &st) < 0 || st.st_uid != geteuid() || (st.st_mode & 077)))
		return -1;
	return TAKE_FD(fd);
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
	free(c->load_err);
	c->load_err = NULL;
}
