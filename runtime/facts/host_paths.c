/* Host paths, decided on file descriptors (issue #12): every path the config
 * names on the host is opened once, and what the policy knows of it - its
 * type, its filesystem, whether it is, contains or is inside a sensitive
 * path - is found on that fd, by device and inode, walking up with "..".
 * The same fd is what ward mounts later, so a rename between the check and
 * the mount changes nothing. */
#include "facts/host_paths.h"
#include "lib/cleanup.h"
#include "lib/strfmt.h"
#include "linux/pathres.h"
#include "lib/error.h"
#include "lib/xalloc.h"

#include <dirent.h>
#include <pwd.h>
#include <errno.h>
#include <fcntl.h>
#include <libmount.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

const char *const host_engine_socket_paths[] = {
    "/run/docker.sock",        "/var/run/docker.sock",         "/run/containerd/containerd.sock",
    "/run/podman/podman.sock", "/run/crio/crio.sock",          "/var/run/crio/crio.sock",
    "/run/dockershim.sock",    "/run/buildkit/buildkitd.sock", NULL};
const char *const host_engine_socket_names[] = {"docker.sock", "containerd.sock", "podman.sock",
                                                "crio.sock",   "dockershim.sock", NULL};

/* The fixed part of the list; ward's state roots, its binary's directory,
 * /lib* and the engine sockets are added by host_sensitive_gather. */
static const struct {
	const char *path;
	enum sens_kind kind;
} fixed[] = {
    {"/", SENS_ROOT},
    {"/usr", SENS_SYSTEM},
    {"/bin", SENS_SYSTEM},
    {"/sbin", SENS_SYSTEM},
    {"/run", SENS_SYSTEM},
    {"/var/run", SENS_SYSTEM},
    {"/proc", SENS_TREE},
    {"/sys", SENS_TREE},
    {"/boot", SENS_TREE},
    {"/root", SENS_TREE},
    {"/run/ward", SENS_TREE},
    {"/etc", SENS_ETC},
    {"/dev", SENS_DEV},
    {"/var/lib/docker", SENS_ENGINE},
    {"/var/lib/containerd", SENS_ENGINE},
    {"/var/lib/containers", SENS_ENGINE},
    {"/var/lib/kubelet", SENS_ENGINE},
    {"/var/lib/crio", SENS_ENGINE},
    {"/run/docker", SENS_ENGINE},
    {"/run/containerd", SENS_ENGINE},
    {"/run/containers", SENS_ENGINE},
    {"/run/crio", SENS_ENGINE},
    /* What root runs or trusts by use. Package managers run the scripts
     * in their databases as root (dpkg's postinst scripts in info, rpm's and
     * pacman's scriptlets) and trust the rest; cron and atd run the spools'
     * jobs (/var/spool also holds mail and print queues root's daemons
     * process); systemd reads its state (timers, credentials) and journald
     * its journal. /etc, /boot, /root, /run and the module directories
     * under /lib are judged by the entries above. A tree of this kind the
     * list does not name is still found by what it holds: a program owned
     * by root (root_exec, refuse_mounts.c). */
    {"/var/lib/dpkg", SENS_TRUSTED},
    {"/var/lib/rpm", SENS_TRUSTED},
    {"/var/lib/apt", SENS_TRUSTED},
    {"/var/lib/dnf", SENS_TRUSTED},
    {"/var/lib/yum", SENS_TRUSTED},
    {"/var/lib/pacman", SENS_TRUSTED},
    {"/var/lib/systemd", SENS_TRUSTED},
    {"/var/spool", SENS_TRUSTED},
    {"/var/log/journal", SENS_TRUSTED},
};

/* At most this many home directories are judged (the first ones of the
 * password database: root's, then the users'). */
#define MAX_HOMES 24

#define MAX_DEPTH 256 /* ".." steps up to the root */
/* How much of a bound tree is searched (scan_tree): past any of these it
 * is refused as too large to check. A root filesystem is an image, whose
 * programs are root's by nature and whose size is anyone's: it is searched
 * for sockets SCAN_ROOTFS_LEVELS down, and for the host's own services'
 * sockets at any depth through the kernel's list (host_sockets_inside). */
#define SCAN_ROOTFS_LEVELS 3
#define SCAN_LEVELS        64
#define SCAN_MAX_DIR       16384
#define SCAN_MAX_FILES     262144

struct sens_list {
	struct host_sensitive *v;
	size_t n, max;
};

static void add(struct sens_list *h, const char *path, enum sens_kind kind)
{
	if (h->n >= h->max)
		return;
	h->v[h->n].path = xstrdup(path);
	h->v[h->n++].kind = kind;
}

void host_sensitive_free(struct host_sensitive *s, size_t n)
{
	for (size_t i = 0; s && i < n; i++)
		free(s[i].path);
	free(s);
}

/* The directory ward runs from: reexec_sealed() names it before ward runs
 * from a sealed memfd (where /proc/self/exe says nothing). */
static void add_binary_dir(struct sens_list *h)
{
	const char *bin = getenv("_WARD_BINARY");
	char dir[PATH_MAX];
	char *slash;
	ssize_t n;

	if (bin && bin[0] == '/') {
		snprintf(dir, sizeof(dir), "%s", bin);
	} else {
		n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
		if (n <= 0)
			return;
		dir[n] = '\0';
	}
	slash = strrchr(dir, '/');
	if (dir[0] != '/' || slash == NULL)
		return;
	slash[slash == dir ? 1 : 0] = '\0';
	add(h, dir, SENS_BINARY);
}

/* Every user's home directory, as the password database names it (its
 * real path: relations are found by identity, the dot-entry below it by
 * name). System accounts' homes ("/", /nonexistent, /var/lib/<daemon>)
 * are the daemon's state, not a login's: only root's and uids from 1000
 * (login.defs' UID_MIN) count. A rootless caller's own home is its own
 * authority (toolbox binds it): not judged. In its user namespace the
 * caller is uid 0 and root's files show as the overflow uid, so "owned by
 * this process's uid" is the caller's home there. */
static void add_homes(struct sens_list *h, bool rootless)
{
	struct passwd *pw;
	size_t n = 0;

	setpwent();
	while (n < MAX_HOMES && (pw = getpwent()) != NULL) {
		char real[PATH_MAX];

		struct stat st;

		if ((pw->pw_uid != 0 && (pw->pw_uid < 1000 || pw->pw_uid == 65534)) ||
		    pw->pw_dir == NULL || pw->pw_dir[0] != '/' ||
		    realpath(pw->pw_dir, real) == NULL || strcmp(real, "/") == 0 ||
		    stat(real, &st) < 0 || (rootless && st.st_uid == geteuid()))
			continue;
		add(h, real, SENS_HOME);
		n++;
	}
	endpwent();
}

size_t host_sensitive_gather(struct host_sensitive *out, size_t max, const char *state_root,
                             bool rootless)
{
	struct sens_list l = {out, 0, max}, *h = &l;
	DIR *d;
	struct dirent *de;

	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		add(h, fixed[i].path, fixed[i].kind);
	if (state_root && state_root[0])
		add(h, state_root, SENS_TREE);
	add_binary_dir(h);
	for (size_t i = 0; host_engine_socket_paths[i]; i++)
		add(h, host_engine_socket_paths[i], SENS_SOCKET);
	/* /lib, /lib32, /lib64, /libx32, ... whatever this host has (last: a
	 * host with more of them than fit loses only those). */
	d = opendir("/");
	while (d && (de = readdir(d)) != NULL) {
		char p[NAME_MAX + 2];

		if (strncmp(de->d_name, "lib", 3) != 0)
			continue;
		if (fmt_fit(p, sizeof(p), "/%s", de->d_name) == 0)
			add(h, p, SENS_SYSTEM);
	}
	if (d)
		closedir(d);
	add_homes(h, rootless);
	return l.n;
}

static int openat2_path(int dirfd, const char *path, bool no_magiclinks)
{
	return path_open2(dirfd, path, O_PATH, no_magiclinks ? RESOLVE_NO_MAGICLINKS : 0);
}

void host_path_close(struct host_path *p)
{
	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
	for (size_t i = 0; i < p->n_sub; i++)
		host_path_close(&p->sub[i]);
	free(p->sub);
	p->sub = NULL;
	p->n_sub = 0;
}

void host_path_resolve(struct host_path *p, const char *path, const char *bundle,
                       bool no_magiclinks)
{
	char link[64];
	struct statfs sfs;
	ssize_t n;
	_cleanup_close_ int dirfd = AT_FDCWD; /* negative: not closed */

	memset(p, 0, sizeof(*p));
	p->fd = -1;
	if (path[0] != '/' && bundle) {
		dirfd = open(bundle, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (dirfd < 0) {
			p->err = errno;
			return;
		}
	}
	p->fd = openat2_path(dirfd, path, no_magiclinks);
	p->err = p->fd < 0 ? errno : 0;
	if (p->fd < 0)
		return;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", p->fd);
	n = readlink(link, p->real, sizeof(p->real) - 1);
	if (fstat(p->fd, &p->st) < 0 || fstatfs(p->fd, &sfs) < 0 || n <= 0) {
		p->err = errno ? errno : EIO;
		host_path_close(p);
		return;
	}
	p->real[n] = '\0';
	p->fs_type = (unsigned long)sfs.f_type;
	p->resolved = true;
}

struct ident {
	dev_t dev;
	ino_t ino;
};

/* fd and its ancestors up to the root (fd itself first); the fd is closed.
 * n = 0 when the walk fails. */
static size_t walk_up(int fd, struct ident *out, size_t max)
{
	_cleanup_close_ int cur = fd;
	size_t n = 0;

	while (cur >= 0 && n < max) {
		struct stat st;
		int up;

		if (fstat(cur, &st) < 0)
			break;
		if (n && out[n - 1].dev == st.st_dev && out[n - 1].ino == st.st_ino)
			return n; /* ".." of the root is the root */
		out[n++] = (struct ident){st.st_dev, st.st_ino};
		up = openat(cur, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
		close(cur);
		cur = up;
	}
	return 0;
}

/* The directory holding a non-directory p, checked to hold p itself (by
 * identity: the name read back must still lead to the object). */
static int parent_of(const struct host_path *p)
{
	char dir[PATH_MAX];
	char *slash;
	struct stat st;
	_cleanup_close_ int fd = -1;

	snprintf(dir, sizeof(dir), "%s", p->real);
	slash = strrchr(dir, '/');
	if (slash == NULL || dir[0] != '/')
		return -1;
	*slash = '\0';
	fd = openat2_path(AT_FDCWD, dir[0] ? dir : "/", true);
	if (fd < 0)
		return -1;
	if (fstatat(fd, slash + 1, &st, AT_SYMLINK_NOFOLLOW) < 0 || st.st_dev != p->st.st_dev ||
	    st.st_ino != p->st.st_ino)
		return -1;
	return TAKE_FD(fd);
}

/* A program the host's root may run: a regular file owned by root with an
 * execute bit. */
static bool root_program(const struct stat *st)
{
	return S_ISREG(st->st_mode) && st->st_uid == 0 && (st->st_mode & 0111);
}

/* Whether a scan may pass by what it could not open: what ward (root, or
 * the rootless caller) may not search, the container may not either. */
static bool unreachable(int errnum)
{
	return errnum == EACCES || errnum == EPERM;
}

/* The first unix socket anywhere in the tree, and the first program owned
 * by root (root_program); symlinks are not followed (the mount would not
 * follow them either). The whole tree is searched: one it cannot search
 * whole (deeper than SCAN_LEVELS, more than SCAN_MAX_DIR directories or
 * SCAN_MAX_FILES files, a directory that will not open) is scan_incomplete,
 * which the policy refuses: what was not looked at is not assumed safe. */
static void scan_tree(struct host_path *p, int dirfd, const char *rel, int level, int *dirs,
                      int *files)
{
	_cleanup_close_ int dir = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d;
	struct dirent *de;
	int fd;

	if (dir < 0) {
		p->scan_incomplete = p->scan_incomplete || !unreachable(errno);
		return;
	}
	if (p->is_rootfs && level > SCAN_ROOTFS_LEVELS)
		return;
	if (++*dirs > SCAN_MAX_DIR || level > SCAN_LEVELS) {
		p->scan_incomplete = true;
		return;
	}
	d = fdopendir(dir);
	if (d == NULL) {
		p->scan_incomplete = true;
		return;
	}
	fd = TAKE_FD(dir); /* closedir() closes it */
	while (!p->socket[0] && !p->scan_incomplete && (de = readdir(d)) != NULL) {
		unsigned char type = de->d_type;
		struct stat st;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (type == DT_UNKNOWN && fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0)
			type = S_ISSOCK(st.st_mode)  ? DT_SOCK
			       : S_ISDIR(st.st_mode) ? DT_DIR
			       : S_ISREG(st.st_mode) ? DT_REG
			                             : DT_UNKNOWN;
		/* Any socket, not only an engine's: a read-only bind does not
		 * stop connect(), and the container's root is a client the
		 * service behind it trusts (systemd's private socket, D-Bus:
		 * host root). */
		if (type == DT_SOCK) {
			/* Found is found: a name too long to show is still one. */
			if (fmt_fit(p->socket, sizeof(p->socket), "%s/%s", rel, de->d_name) < 0)
				snprintf(p->socket, sizeof(p->socket), "%s",
				         "(a socket too deep to name)");
		} else if (type == DT_REG && !p->root_exec[0] && !p->is_rootfs) {
			if (++*files > SCAN_MAX_FILES)
				p->scan_incomplete = true;
			else if (fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			         root_program(&st))
				if (fmt_fit(p->root_exec, sizeof(p->root_exec), "%s/%s", rel,
				            de->d_name) < 0)
					snprintf(p->root_exec, sizeof(p->root_exec), "%s",
					         "(a program too deep to name)");
		} else if (type == DT_DIR) {
			_cleanup_close_ int sub =
			    openat(fd, de->d_name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			char subrel[PATH_MAX];

			if (sub < 0) {
				p->scan_incomplete = p->scan_incomplete || !unreachable(errno);
				continue;
			}
			if (snprintf(subrel, sizeof(subrel), "%s/%s", rel, de->d_name) >=
			    (int)sizeof(subrel))
				p->scan_incomplete = true;
			else
				scan_tree(p, sub, subrel, level + 1, dirs, files);
		}
	}
	closedir(d);
}

/* The first socket of a /proc/.../net/unix list bound below the directory
 * p, placed by identity (walking up from the socket's directory). false:
 * the list could not be read. */
static bool sockets_listed(struct host_path *p, const char *list)
{
	FILE *f = fopen(list, "re");
	char line[PATH_MAX + 128];

	if (f == NULL)
		return false;
	while (!p->socket[0] && fgets(line, sizeof(line), f)) {
		char *path = strchr(line, '/'), *nl, *slash;
		struct ident up[MAX_DEPTH];
		size_t n;
		int dir;

		/* "Num RefCount Protocol Flags Type St Inode Path": a path
		 * starts with '/' (an abstract name with '@'). */
		if (path == NULL || path[-1] != ' ')
			continue;
		if ((nl = strchr(path, '\n')) != NULL)
			*nl = '\0';
		slash = strrchr(path, '/');
		*slash = '\0';
		/* A name bound through a magic link (ward's own supervisor binds
		 * /proc/self/fd/N/...) names something else for every process. */
		dir = path_open2(AT_FDCWD, path[0] ? path : "/", O_PATH | O_DIRECTORY,
		                 RESOLVE_NO_MAGICLINKS);
		*slash = '/';
		if (dir < 0)
			continue;
		n = walk_up(dir, up, MAX_DEPTH);
		for (size_t i = 0; i < n; i++)
			if (up[i].dev == p->st.st_dev && up[i].ino == p->st.st_ino) {
				size_t l = strlen(p->real);

				/* As the tree's search names it: below the tree
				 * ("/x/sock"), when the name shows it. */
				snprintf(p->socket, sizeof(p->socket), "%s",
				         strncmp(path, p->real, l) == 0 && path[l] == '/' ? path + l
				                                                          : path);
				break;
			}
	}
	fclose(f);
	return true;
}

#define MAX_NETNS 4096

/* A unix socket bound anywhere below the directory p by any process of the
 * host: the kernel lists each network namespace's bound sockets in
 * /proc/<pid>/net/unix (a service with PrivateNetwork= is in one of its
 * own), one pid per namespace is read. The tree itself may be too large to
 * search. ward's own list unreadable: scan_incomplete (refused). Sockets
 * bound later are not seen (ward-policy(7)). */
static void host_sockets_inside(struct host_path *p)
{
	ino_t *seen;
	size_t n = 0;
	DIR *d;
	struct dirent *e;

	if (!sockets_listed(p, "/proc/net/unix")) {
		p->scan_incomplete = true;
		return;
	}
	seen = calloc(MAX_NETNS, sizeof(*seen));
	d = seen ? opendir("/proc") : NULL;
	while (d && !p->socket[0] && n < MAX_NETNS && (e = readdir(d)) != NULL) {
		char ns[300], list[300];
		struct stat st;
		size_t k;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		if (fmt_fit(ns, sizeof(ns), "/proc/%s/ns/net", e->d_name) < 0 ||
		    fmt_fit(list, sizeof(list), "/proc/%s/net/unix", e->d_name) < 0 ||
		    stat(ns, &st) < 0)
			continue;
		for (k = 0; k < n && seen[k] != st.st_ino; k++)
			;
		if (k < n)
			continue;
		seen[n++] = st.st_ino;
		sockets_listed(p, list);
	}
	if (d)
		closedir(d);
	free(seen);
}

/* Relations of p to every sensitive path (chains: each sensitive path and
 * its ancestors, n_chain[k] = 0 where it does not exist on this host). */
static void relate(size_t n_s, struct host_path *p, struct ident chains[][64],
                   const size_t *n_chain)
{
	struct ident up[MAX_DEPTH];
	size_t n_up;
	int start;

	if (!p->resolved)
		return;
	/* Where p sits: a directory walks up from itself; anything else from
	 * the directory that holds it. */
	start = S_ISDIR(p->st.st_mode) ? openat(p->fd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC)
	                               : parent_of(p);
	n_up = start < 0 ? 0 : walk_up(start, up, MAX_DEPTH);
	if (n_up == 0) {
		/* Cannot be placed: fail closed. */
		p->resolved = false;
		p->err = ESTALE;
		host_path_close(p);
		return;
	}
	for (size_t k = 0; k < n_s; k++) {
		const struct ident *c = chains[k];

		for (size_t i = 0; i < n_chain[k]; i++)
			if (c[i].dev == p->st.st_dev && c[i].ino == p->st.st_ino)
				p->rel[k] |= i == 0 ? REL_IS : REL_CONTAINS;
		/* Inside: the sensitive path is a strict ancestor of p. */
		for (size_t i = S_ISDIR(p->st.st_mode) ? 1 : 0; n_chain[k] && i < n_up; i++)
			if (up[i].dev == c[0].dev && up[i].ino == c[0].ino)
				p->rel[k] |= REL_INSIDE;
	}
	if (S_ISDIR(p->st.st_mode)) {
		int dirs = 0, files = 0;

		scan_tree(p, p->fd, "", 1, &dirs, &files);
		if (p->is_rootfs && !p->socket[0])
			host_sockets_inside(p);
	} else if (root_program(&p->st)) {
		snprintf(p->root_exec, sizeof(p->root_exec), "%s", p->real);
	}
}

/* The mount points strictly below p (from ward's mountinfo), each opened
 * and related like p: a recursive bind takes them along. Too many of them
 * is scan_incomplete (refused). */
static void submounts(struct host_path *p, struct libmnt_table *tb, size_t n_s,
                      struct ident chains[][64], const size_t *n_chain)
{
	struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs;
	size_t len = strlen(p->real);

	if (it == NULL || !S_ISDIR(p->st.st_mode) || strcmp(p->real, "/") == 0) {
		mnt_free_iter(it);
		return;
	}
	while (mnt_table_next_fs(tb, it, &fs) == 0) {
		const char *t = mnt_fs_get_target(fs);
		struct host_path *v;

		if (t == NULL || strncmp(t, p->real, len) != 0 || t[len] != '/')
			continue;
		if (p->n_sub >= HOST_MAX_SUBMOUNTS) {
			p->scan_incomplete = true;
			break;
		}
		v = realloc(p->sub, (p->n_sub + 1) * sizeof(*v));
		if (v == NULL) {
			p->scan_incomplete = true;
			break;
		}
		p->sub = v;
		host_path_resolve(&p->sub[p->n_sub], t, NULL, true);
		p->sub[p->n_sub].is_rootfs = p->is_rootfs;
		relate(n_s, &p->sub[p->n_sub], chains, n_chain);
		p->n_sub++;
	}
	mnt_free_iter(it);
}

/* The chain of one sensitive path: itself, then the directories up to
 * the root. A non-directory (an engine's socket) has no "..": its chain
 * goes on from the directory it really is in (the name may be a link to
 * it: Docker Desktop's /run/docker.sock), checked to still hold it. */
static size_t chain_of(const char *path, struct ident *out, size_t max)
{
	_cleanup_close_ int fd = open(path, O_PATH | O_CLOEXEC), dir = -1;
	struct stat st, in_dir;
	char real[PATH_MAX], link[64], *slash;
	ssize_t n;

	if (fd < 0 || fstat(fd, &st) < 0)
		return 0;
	if (S_ISDIR(st.st_mode))
		return walk_up(TAKE_FD(fd), out, max);
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, real, sizeof(real) - 1);
	out[0] = (struct ident){st.st_dev, st.st_ino};
	if (n <= 0)
		return 1;
	real[n] = '\0';
	slash = strrchr(real, '/');
	if (real[0] != '/' || slash == NULL)
		return 1;
	*slash = '\0';
	dir = open(real[0] ? real : "/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0 || fstatat(dir, slash + 1, &in_dir, AT_SYMLINK_NOFOLLOW) < 0 ||
	    in_dir.st_dev != st.st_dev || in_dir.st_ino != st.st_ino)
		return 1;
	return walk_up(TAKE_FD(dir), out + 1, max - 1) + 1;
}

/* The chains of every sensitive path, for relate(). */
static void chains_of(const struct host_sensitive *s, size_t n_s, struct ident chains[][64],
                      size_t *n_chain)
{
	for (size_t k = 0; k < n_s; k++)
		n_chain[k] = chain_of(s[k].path, chains[k], 64);
}

int host_paths_relate(const struct host_sensitive *s, size_t n_s, struct host_path **paths,
                      size_t n, struct werror *err)
{
	struct ident(*chains)[64] = calloc(HOST_MAX_SENSITIVE, sizeof(*chains));
	size_t n_chain[HOST_MAX_SENSITIVE] = {0};
	struct libmnt_table *tb;

	if (chains == NULL)
		return werr(err, ENOMEM, "out of memory");
	if (n_s > HOST_MAX_SENSITIVE)
		n_s = HOST_MAX_SENSITIVE;
	chains_of(s, n_s, chains, n_chain);
	tb = mnt_new_table_from_file("/proc/self/mountinfo");
	for (size_t i = 0; i < n; i++) {
		relate(n_s, paths[i], chains, n_chain);
		if (paths[i]->resolved) {
			if (tb)
				submounts(paths[i], tb, n_s, chains, n_chain);
			else
				paths[i]->scan_incomplete = true;
		}
	}
	mnt_unref_table(tb);
	free(chains);
	return 0;
}
