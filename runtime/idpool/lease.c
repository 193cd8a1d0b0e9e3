/* Leases on the id pool's ranges (see lease.h). */
#include "idpool/lease.h"
#include "idpool/subid.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "lib/fileio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#define LOCK_FILE "lock"

static const char *const host_subid[] = {"/etc/subuid", "/etc/subgid", NULL};

/* What the leases say is taken. */
struct taken {
	struct id_range *busy; /* subordinate ids first, then live leases */
	size_t n, n_reserved, n_live;
};

static void taken_free(struct taken *t)
{
	free(t->busy);
}

#define _cleanup_taken_ __attribute__((cleanup(taken_free)))

static int taken_add(struct taken *t, uint32_t start, uint32_t size, struct werror *err)
{
	struct id_range *v = realloc(t->busy, (t->n + 1) * sizeof(*v));

	if (v == NULL)
		return werr(err, ENOMEM, "out of memory");
	v[t->n++] = (struct id_range){start, size};
	t->busy = v;
	return 0;
}

static bool parse_u32(const char *s, uint32_t *out)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

static bool token_ok(const char *t)
{
	return strlen(t) == IDPOOL_TOKEN && strspn(t, "0123456789abcdef") == IDPOOL_TOKEN;
}

int id_lease_record(int statefd, struct id_range *r, char token[IDPOOL_TOKEN + 1],
                    struct werror *err)
{
	char buf[96], start[16], size[16], tok[IDPOOL_TOKEN + 2];
	_cleanup_close_ int fd = openat(statefd, IDPOOL_RECORD, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0 || read_fd_into(fd, IDPOOL_RECORD, buf, sizeof(buf), NULL, err) < 0) {
		werr_clear(err);
		return -1;
	}
	if (sscanf(buf, "%15s %15s %17s", start, size, tok) != 3 || !parse_u32(start, &r->start) ||
	    !parse_u32(size, &r->size) || !token_ok(tok))
		return -1;
	memcpy(token, tok, IDPOOL_TOKEN + 1);
	return 0;
}

/* A lease whose create is done is live while the state dir of its
 * container records this very lease (a state dir of the same id made
 * later, by another create, has another token). */
static bool recorded(const char *root, const char *id, uint32_t start, const char *token,
                     struct werror *err)
{
	struct id_range r;
	char tok[IDPOOL_TOKEN + 1];
	_cleanup_close_ int rootfd = -1, sd = -1;

	if (id[0] == '\0' || id[0] == '.' || strchr(id, '/') || root[0] != '/')
		return false;
	rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return false;
	sd = openat(rootfd, id, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return sd >= 0 && id_lease_record(sd, &r, tok, err) == 0 && r.start == start &&
	       strcmp(tok, token) == 0;
}

/* One lease: live (its range added to t), or stale (removed when
 * reclaim: the pool lock is held). */
static int judge_lease(int dirfd, const char *name, bool reclaim, struct taken *t,
                       struct werror *err)
{
	char buf[PATH_MAX + 512], id[256], tok[IDPOOL_TOKEN + 2], size[16];
	int at = 0;
	uint32_t start, sz;
	bool parsed, live;
	_cleanup_close_ int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return errno == ENOENT ? 0 : werr(err, errno, "the id pool's lease %s", name);
	if (!parse_u32(name, &start))
		return 0;
	if (read_fd_into(fd, "a lease", buf, sizeof(buf), NULL, err) < 0) {
		werr_clear(err);
		buf[0] = '\0';
	}
	/* "<id> <token> <size> <state root>\n": the state root is where the
	 * container's state dir records the lease (any --root: the pool is
	 * the host's, one for every state root). */
	parsed = sscanf(buf, "%255s %17s %15s %n", id, tok, size, &at) == 3 && at > 0 &&
	         token_ok(tok) && parse_u32(size, &sz);
	if (parsed)
		buf[strcspn(buf, "\n")] = '\0';
	/* Still flocked: its create is running and has not recorded it yet. */
	if (flock(fd, LOCK_SH | LOCK_NB) < 0)
		live = true;
	else
		live = parsed && recorded(buf + at, id, start, tok, err);
	if (live)
		return taken_add(t, start, parsed ? sz : 1, err) < 0 ? -1 : (t->n_live++, 0);
	if (reclaim && unlinkat(dirfd, name, 0) < 0 && errno != ENOENT)
		return werr(err, errno, "removing the stale lease %s of the id pool", name);
	return 0;
}

static int scan(int dirfd, const struct idpool *p, bool reclaim, struct taken *t,
                struct werror *err)
{
	DIR *d;
	struct dirent *de;
	_cleanup_close_ int dup_fd = -1;
	int r = 0;

	if (subid_read(p->reserved ? p->reserved : host_subid, &t->busy, &t->n, err) < 0)
		return -1;
	t->n_reserved = t->n;
	if (dirfd < 0)
		return 0;
	if ((dup_fd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0)) < 0 || (d = fdopendir(dup_fd)) == NULL)
		return werr(err, errno, "reading the id pool's leases");
	TAKE_FD(dup_fd); /* closedir() closes it */
	while (r == 0 && (de = readdir(d)) != NULL)
		if (de->d_name[0] >= '0' && de->d_name[0] <= '9')
			r = judge_lease(dirfd, de->d_name, reclaim, t, err);
	closedir(d);
	return r;
}

static int exhausted(const struct idpool *p, const struct taken *t, struct werror *err)
{
	int64_t reserved = idpool_covered(p, t->busy, t->n_reserved);

	if (reserved < 0)
		return werr(err, ENOMEM, "out of memory");
	return werr(err, 0,
	            "strict: no free host id range in the pool %" PRIu32 "-%" PRIu64
	            " (strict.idPool: %" PRIu64 " ranges of %" PRIu32 " ids; %zu leased to live "
	            "containers, %" PRId64 " ids of it are /etc/subuid or /etc/subgid ranges): "
	            "delete a strict container, or give the pool more ids",
	            p->start, (uint64_t)p->start + p->size - 1, idpool_slots(p), p->range_size,
	            t->n_live, reserved);
}

/* *fd: the host's pool directory, made when create; -1 when it is not
 * there. One for the whole host, whatever --root says: two state roots
 * (containerd's namespaces, Podman, a CI's own) must not hand out the same
 * range (found by an attacker's review). Root's alone: a directory anyone
 * else could write is refused. */
static const char *pool_dir = IDPOOL_DIR;

void id_lease_use_dir(const char *dir)
{
	pool_dir = dir;
}

static int open_pool_dir(bool create, int *fd, struct werror *err)
{
	struct stat st;

	if (create && mkdir(pool_dir, 0700) < 0 && errno != EEXIST)
		return werr(err, errno, "making the id pool's directory %s", pool_dir);
	*fd = open(pool_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (*fd < 0 && !(errno == ENOENT && !create))
		return werr(err, errno, "opening the id pool's directory %s", pool_dir);
	if (*fd >= 0 && (fstat(*fd, &st) < 0 || st.st_uid != 0 || (st.st_mode & 022))) {
		close(*fd);
		*fd = -1;
		return werr(err, EPERM, "the id pool's directory %s is not root's alone", pool_dir);
	}
	return 0;
}

int id_lease_peek(const struct idpool *p, uint32_t *start, struct werror *err)
{
	_cleanup_taken_ struct taken t = {0};
	_cleanup_close_ int dirfd = -1;

	if (open_pool_dir(false, &dirfd, err) < 0 || scan(dirfd, p, false, &t, err) < 0)
		return -1;
	if (idpool_pick(p, t.busy, t.n, start) < 0)
		return exhausted(p, &t, err);
	return 0;
}

static int new_token(char out[IDPOOL_TOKEN + 1], struct werror *err)
{
	unsigned char b[IDPOOL_TOKEN / 2];

	if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b))
		return werr(err, errno, "a token for the id pool's lease");
	for (size_t i = 0; i < sizeof(b); i++)
		snprintf(out + 2 * i, 3, "%02x", b[i]);
	return 0;
}

/* Under the pool lock: the lease file made, flocked and filled before any
 * other create can look at it. */
static int write_lease(struct id_lease *l, const char *id, const char *root, struct werror *err)
{
	char name[16], buf[PATH_MAX + 512];
	int len;

	snprintf(name, sizeof(name), "%" PRIu32, l->range.start);
	if (root[0] != '/' || strchr(root, '\n'))
		return werr(err, EINVAL, "the state root %s cannot be named in a lease", root);
	len =
	    snprintf(buf, sizeof(buf), "%s %s %" PRIu32 " %s\n", id, l->token, l->range.size, root);
	if (len < 0 || (size_t)len >= sizeof(buf))
		return werr(err, ENAMETOOLONG, "the container id is too long for a lease");
	l->fd = openat(l->dirfd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (l->fd < 0)
		return werr(err, errno, "the id pool's lease %s", name);
	if (flock(l->fd, LOCK_EX) < 0 || write(l->fd, buf, (size_t)len) != len) {
		int e = errno ? errno : EIO;

		unlinkat(l->dirfd, name, 0);
		close(l->fd);
		l->fd = -1;
		return werr(err, e, "writing the id pool's lease %s", name);
	}
	return 0;
}

int id_lease_take(const char *root, const char *id, const struct idpool *p, struct id_lease *l,
                  struct werror *err)
{
	_cleanup_taken_ struct taken t = {0};
	_cleanup_close_ int lock = -1;
	uint32_t start;

	*l = (struct id_lease)ID_LEASE_INIT;
	if (open_pool_dir(true, &l->dirfd, err) < 0)
		return -1;
	lock = openat(l->dirfd, LOCK_FILE, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (lock < 0 || flock(lock, LOCK_EX) < 0)
		return werr(err, errno, "locking the id pool (%s/%s)", pool_dir, LOCK_FILE);
	if (scan(l->dirfd, p, true, &t, err) < 0 || new_token(l->token, err) < 0)
		return -1;
	if (idpool_pick(p, t.busy, t.n, &start) < 0)
		return exhausted(p, &t, err);
	l->range = (struct id_range){start, p->range_size};
	return write_lease(l, id, root, err);
}

int id_lease_commit(struct id_lease *l, int statefd, struct werror *err)
{
	char buf[64];
	struct iovec iov = {buf, 0};

	if (l->fd < 0)
		return 0;
	iov.iov_len = (size_t)snprintf(buf, sizeof(buf), "%" PRIu32 " %" PRIu32 " %s\n",
	                               l->range.start, l->range.size, l->token);
	if (atomic_write_at(statefd, IDPOOL_RECORD, &iov, 1, 0600, "the user namespace record",
	                    err) < 0)
		return -1;
	close(l->fd); /* the flock with it: the record keeps the lease live now */
	l->fd = -1;
	return 0;
}

/* Remove lease start if it still carries token (under the pool lock). */
static int remove_if_ours(int dirfd, uint32_t start, const char *token, struct werror *err)
{
	char name[16], buf[512], id[256], tok[IDPOOL_TOKEN + 2];
	_cleanup_close_ int lock = -1, fd = -1;

	lock = openat(dirfd, LOCK_FILE, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (lock < 0 || flock(lock, LOCK_EX) < 0)
		return werr(err, errno, "locking the id pool (%s/%s)", pool_dir, LOCK_FILE);
	snprintf(name, sizeof(name), "%" PRIu32, start);
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : werr(err, errno, "the id pool's lease %s", name);
	if (read_fd_into(fd, "a lease", buf, sizeof(buf), NULL, err) < 0 ||
	    sscanf(buf, "%255s %17s", id, tok) != 2 || strcmp(tok, token) != 0) {
		werr_clear(err);
		return 0; /* another container's now */
	}
	if (unlinkat(dirfd, name, 0) < 0 && errno != ENOENT)
		return werr(err, errno, "removing the id pool's lease %s", name);
	return 0;
}

void id_lease_drop(struct id_lease *l)
{
	/* A cleanup: what it meets is not the caller's error. */
	if (l->dirfd >= 0 && !l->keep && (l->fd >= 0 || l->range.size)) {
		int e = errno;

		remove_if_ours(l->dirfd, l->range.start, l->token, NULL);
		errno = e;
	}
	if (l->fd >= 0)
		close(l->fd);
	if (l->dirfd >= 0)
		close(l->dirfd);
	*l = (struct id_lease)ID_LEASE_INIT;
}

int id_lease_release(int statefd, struct werror *err)
{
	struct id_range r;
	char tok[IDPOOL_TOKEN + 1];
	_cleanup_close_ int dirfd = -1;

	if (id_lease_record(statefd, &r, tok, err) < 0)
		return 0;
	if (open_pool_dir(false, &dirfd, err) < 0)
		return -1;
	return dirfd < 0 ? 0 : remove_if_ours(dirfd, r.start, tok, err);
}
