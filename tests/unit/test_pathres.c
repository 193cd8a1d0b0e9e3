/* linux/pathres: in a scratch directory standing in for a container's
 * rootfs, no path an image can plant (absolute and climbing symlinks, ".."
 * chains, magic links) resolves, or makes anything, outside the root. The
 * sibling directory "outside" holds what an escape would reach; the root
 * holds a decoy of the same name, which is where a path must land. */
#include "linux/pathres.h"
#include "lib/error.h"
#include "tap.h"
#include "tmptree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char base[PATH_MAX], rootreal[PATH_MAX];
static int basefd = -1, rootfd = -1, outfd = -1;

/* The file an fd is open on, as the kernel names it (host path). */
static const char *fd_name(int fd, char *buf, size_t len)
{
	ssize_t n = readlink(fd_path(fd).s, buf, len - 1);

	buf[n < 0 ? 0 : n] = '\0';
	return buf;
}

static int inside_root(int fd)
{
	char p[PATH_MAX];
	size_t n = strlen(rootreal);

	fd_name(fd, p, sizeof(p));
	return strncmp(p, rootreal, n) == 0 && (p[n] == '\0' || p[n] == '/');
}

/* What root_open(path) reads: the file's content, or "" when it fails. */
static const char *content_via_root(const char *path, char *buf, size_t len)
{
	int fd = root_open(rootfd, path, O_RDONLY);
	ssize_t n = fd < 0 ? 0 : read(fd, buf, len - 1);

	buf[n < 0 ? 0 : n] = '\0';
	if (fd >= 0)
		close(fd);
	return buf;
}

/* How many fds this process has open (the listing's own not counted). */
static int n_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)) != NULL)
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n - 1;
}

/* The names in the directory dfd, sorted and joined ("a b c"). */
static const char *listing(int dfd, char *buf, size_t len)
{
	struct dirent **v;
	int n = scandirat(dfd, ".", &v, NULL, alphasort);

	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (v[i]->d_name[0] != '.') {
			if (buf[0])
				strncat(buf, " ", len - strlen(buf) - 1);
			strncat(buf, v[i]->d_name, len - strlen(buf) - 1);
		}
		free(v[i]);
	}
	if (n >= 0)
		free(v);
	return buf;
}

static int setup(void)
{
	char p[PATH_MAX + 32];

	umask(022);
	if (tmp_make(base, sizeof(base), "pathres") == NULL)
		return -1;
	basefd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (basefd < 0 || mkdirat(basefd, "outside", 0755) < 0 || mkdirat(basefd, "root", 0755) < 0)
		return -1;
	outfd = openat(basefd, "outside", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	rootfd = openat(basefd, "root", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (outfd < 0 || rootfd < 0 || put_file(outfd, "secret", "outside") < 0 ||
	    mkdirat(outfd, "sub", 0755) < 0)
		return -1;
	snprintf(p, sizeof(p), "%s/root", base);
	if (realpath(p, rootreal) == NULL)
		return -1;
	/* The root: its own etc and a decoy "outside", then the planted links. */
	if (mkdirat(rootfd, "etc", 0755) < 0 || put_file(rootfd, "etc/hostname", "inside") < 0 ||
	    mkdirat(rootfd, "outside", 0755) < 0 ||
	    put_file(rootfd, "outside/secret", "decoy") < 0 || mkdirat(rootfd, "dir", 0755) < 0)
		return -1;
	snprintf(p, sizeof(p), "%s/outside", base);
	if (symlinkat("/etc", rootfd, "abs_etc") < 0 || symlinkat("../../..", rootfd, "up3") < 0 ||
	    symlinkat("../../outside", rootfd, "dir/mid") < 0 ||
	    symlinkat("dir/mid", rootfd, "chain") < 0 || symlinkat(p, rootfd, "absout") < 0 ||
	    symlinkat("/", rootfd, "slash") < 0 || symlinkat("loop2", rootfd, "loop1") < 0 ||
	    symlinkat("loop1", rootfd, "loop2") < 0 ||
	    symlinkat("/proc/self/root", rootfd, "magic") < 0 ||
	    symlinkat("/nonexistent/../../outside/newfile", rootfd, "dangling") < 0 ||
	    symlinkat("../../outside/victim", rootfd, "flink") < 0 ||
	    symlinkat("../../../outside/sub", rootfd, "dir/updir") < 0)
		return -1;
	return 0;
}

/* Every link planted above lands inside: the content read is the root's. */
static void test_resolution(void)
{
	char buf[64];

	ok(strcmp(content_via_root("etc/hostname", buf, sizeof(buf)), "inside") == 0,
	   "a plain path opens (control)");
	ok(strcmp(content_via_root("/abs_etc/hostname", buf, sizeof(buf)), "inside") == 0,
	   "absolute symlink /etc is the root's /etc");
	ok(strcmp(content_via_root("../../../outside/secret", buf, sizeof(buf)), "decoy") == 0,
	   "a \"..\" chain stops at the root");
	ok(strcmp(content_via_root("/../../outside/../../outside/secret", buf, sizeof(buf)),
	          "decoy") == 0,
	   "\"..\" chains between names stop at the root");
	ok(strcmp(content_via_root("up3/outside/secret", buf, sizeof(buf)), "decoy") == 0,
	   "a symlink to ../../.. stops at the root");
	ok(strcmp(content_via_root("dir/mid/secret", buf, sizeof(buf)), "decoy") == 0,
	   "a climbing symlink in the middle of a path stays in");
	ok(strcmp(content_via_root("chain/secret", buf, sizeof(buf)), "decoy") == 0,
	   "a symlink to a climbing symlink stays in");
	errno = 0;
	ok(root_open(rootfd, "absout/secret", O_RDONLY) < 0 && errno == ENOENT,
	   "an absolute link to the host's outside dir is looked up in the root (ENOENT)");
	errno = 0;
	ok(root_open(rootfd, "loop1", O_RDONLY) < 0 && errno == ELOOP, "a symlink loop is ELOOP");
	errno = 0;
	ok(root_open(rootfd, "magic/etc", O_PATH) < 0 && errno == ENOENT,
	   "a link to /proc/self/root is the root's /proc (none: ENOENT)");
}

/* RESOLVE_NO_MAGICLINKS: with the real / as the root, /proc's magic links
 * (which jump anywhere, ignoring the root) are refused. */
static void test_magiclinks(void)
{
	char p[64];
	int slash = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	int self = open("/proc/self", O_PATH | O_DIRECTORY | O_CLOEXEC);
	int fd;

	fd = root_open(slash, "/proc/self/status", O_RDONLY);
	ok(fd >= 0, "/proc/self/status opens (control: /proc is there)");
	if (fd >= 0)
		close(fd);
	errno = 0;
	ok(root_open(slash, "/proc/self/root/etc", O_PATH) < 0 && errno == ELOOP,
	   "/proc/self/root/etc: ELOOP");
	errno = 0;
	ok(root_open(slash, "/proc/self/cwd", O_PATH) < 0 && errno == ELOOP,
	   "/proc/self/cwd: ELOOP");
	snprintf(p, sizeof(p), "/proc/self/fd/%d", rootfd);
	errno = 0;
	ok(root_open(slash, p, O_PATH) < 0 && errno == ELOOP, "%s: ELOOP", p);
	errno = 0;
	ok(root_open(self, "root", O_PATH) < 0 && errno == ELOOP,
	   "the magic link as the last component: ELOOP");
	errno = 0;
	ok(root_open(slash, "/proc/thread-self/exe", O_PATH) < 0 && errno == ELOOP,
	   "/proc/thread-self/exe: ELOOP");
	close(slash);
	close(self);
}

/* The table: each path opened, made as a directory below, made as a
 * file below; whatever comes back is inside the root, and afterwards
 * nothing new exists outside it. */
static void test_sweep(void)
{
	char absout[PATH_MAX + 32], hostile_base[PATH_MAX + 64], before[512], after[512];
	const char *hostile[] = {
	    "/",
	    "..",
	    "../..",
	    "/..",
	    "/../../../../../../../..",
	    "../../outside",
	    "./../outside/sub",
	    "etc/../../..",
	    "etc/../../../outside",
	    "abs_etc",
	    "abs_etc/../..",
	    "/abs_etc/../../outside",
	    "up3",
	    "up3/outside",
	    "up3/up3/up3/outside/sub",
	    "dir/mid",
	    "dir/mid/sub",
	    "dir/mid/../..",
	    "dir/updir",
	    "dir/updir/..",
	    "chain",
	    "chain/../../outside",
	    "absout",
	    "slash",
	    "slash/../outside",
	    "slash/dir/mid",
	    "magic",
	    "magic/../..",
	    "dangling",
	    "loop1",
	    "//..//..//outside//",
	    "etc/./././../../outside",
	    hostile_base, /* the host path of the outside dir, climbing first */
	    absout,       /* and plainly */
	};
	size_t n = sizeof(hostile) / sizeof(hostile[0]);
	int fails = 0, opened = 0;

	snprintf(absout, sizeof(absout), "%s/outside", base);
	snprintf(hostile_base, sizeof(hostile_base), "../../..%s/outside", base);
	listing(outfd, before, sizeof(before));
	for (size_t i = 0; i < n; i++) {
		char sub[PATH_MAX + 128], p[PATH_MAX];
		int fd = root_open(rootfd, hostile[i], O_PATH);

		if (fd >= 0) {
			opened++;
			if (!inside_root(fd)) {
				fails++;
				diag("open %s -> %s", hostile[i], fd_name(fd, p, sizeof(p)));
			}
			close(fd);
		}
		snprintf(sub, sizeof(sub), "%s/wardpr-%d-d%zu/deeper", hostile[i], (int)getpid(),
		         i);
		werr_clear(err);
		fd = root_mkdir_p(rootfd, sub, 0755, err);
		if (fd >= 0 && !inside_root(fd)) {
			fails++;
			diag("mkdir %s -> %s", sub, fd_name(fd, p, sizeof(p)));
		}
		if (fd >= 0)
			close(fd);
		snprintf(sub, sizeof(sub), "%s/wardpr-%d-f%zu", hostile[i], (int)getpid(), i);
		fd = root_mkfile(rootfd, sub, 0644, err);
		if (fd >= 0 && !inside_root(fd)) {
			fails++;
			diag("mkfile %s -> %s", sub, fd_name(fd, p, sizeof(p)));
		}
		if (fd >= 0)
			close(fd);
	}
	ok(fails == 0, "%zu hostile paths: every open, mkdir -p and mkfile stays inside", n);
	ok(opened >= (int)n / 2, "most of them resolve (%d of %zu), so the check saw fds", opened,
	   n);
	listing(outfd, after, sizeof(after));
	ok(strcmp(before, after) == 0 && strcmp(after, "secret sub") == 0,
	   "nothing new in the outside dir (%s)", after);
	listing(basefd, after, sizeof(after));
	ok(strcmp(after, "outside root") == 0, "nothing new beside the root (%s)", after);
	{
		const char *const hostdirs[] = {"/", "/etc", "/tmp", base, absout};
		char name[64], p[PATH_MAX + 96];
		int out = 0;

		for (size_t i = 0; i < n; i++)
			for (size_t k = 0; k < sizeof(hostdirs) / sizeof(hostdirs[0]); k++) {
				snprintf(name, sizeof(name), "wardpr-%d-d%zu", (int)getpid(), i);
				snprintf(p, sizeof(p), "%s/%s", hostdirs[k], name);
				out += exists_at(AT_FDCWD, p);
				snprintf(name, sizeof(name), "wardpr-%d-f%zu", (int)getpid(), i);
				snprintf(p, sizeof(p), "%s/%s", hostdirs[k], name);
				out += exists_at(AT_FDCWD, p);
			}
		ok(out == 0, "none of the sweep's names on the host (/, /etc, /tmp, outside)");
		/* "/" (entry 0) and "dir/mid" (entry 15) made theirs in the root. */
		snprintf(p, sizeof(p), "wardpr-%d-d0/deeper", (int)getpid());
		snprintf(name, sizeof(name), "outside/wardpr-%d-f15", (int)getpid());
		ok(exists_at(rootfd, p) && exists_at(rootfd, name),
		   "what the sweep made is in the root (%s, %s)", p, name);
	}
	{
		/* The sweep made the root's own copy of the host path "absout"
		 * names: the link resolves now, to that copy. */
		int fd = root_mkdir_p(rootfd, "absout/y", 0755, err);

		ok(fd >= 0 && inside_root(fd) && !exists_at(outfd, "y"),
		   "an absolute link to the host's outside dir makes in the root's copy of it");
		if (fd >= 0)
			close(fd);
	}
	werr_clear(err);
}

/* mkdir -p through planted links: made where the link resolves inside the
 * root; a link whose target is not there is refused, not followed out. */
static void test_mkdir(void)
{
	struct stat st;
	int fd;

	fd = root_mkdir_p(rootfd, "dir/mid/made", 0755, err);
	ok(fd >= 0 && fstatat(rootfd, "outside/made", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       S_ISDIR(st.st_mode) && !exists_at(outfd, "made"),
	   "mkdir -p dir/mid/made: made in the root's outside, not the real one");
	if (fd >= 0)
		close(fd);
	fd = root_mkdir_p(rootfd, "slash/a/b", 0755, err);
	ok(fd >= 0 && fstatat(rootfd, "a/b", &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode),
	   "mkdir -p through a link to / makes /a/b of the root");
	if (fd >= 0)
		close(fd);
	werr_clear(err);
	fd = root_mkdir_p(rootfd, "absout/x", 0755, err);
	ok(fd < 0 && !exists_at(outfd, "x") && werr_msg(err) && strstr(werr_msg(err), "absout"),
	   "mkdir -p through a dangling absolute link fails, names it");
	if (fd >= 0)
		close(fd);
	werr_clear(err);
	fd = root_mkdir_p(rootfd, "dangling", 0755, err);
	ok(fd < 0 && exists_at(rootfd, "dangling") && !exists_at(outfd, "newfile"),
	   "mkdir -p of a dangling link itself fails");
	if (fd >= 0)
		close(fd);
	werr_clear(err);
	fd = root_mkdir_p(rootfd, "new1/new2//", 0700, err);
	ok(fd >= 0 && fstatat(rootfd, "new1/new2", &st, 0) == 0 && (st.st_mode & 0777) == 0700,
	   "mkdir -p with trailing slashes makes both levels with the mode");
	if (fd >= 0)
		close(fd);
	werr_clear(err);
	fd = root_mkdir_p(rootfd, "nothere/..", 0755, err);
	ok(fd < 0 && werr_errno(err) == EINVAL && strstr(werr_msg(err), "must name"),
	   "a last component \"..\" is refused");
	werr_clear(err);
	fd = root_mkdir_p(rootfd, "etc/hostname/sub", 0755, err);
	ok(fd < 0 && werr_errno(err) == ENOTDIR, "mkdir -p below a file: ENOTDIR");
	werr_clear(err);
	{
		char *longp = malloc(PATH_MAX + 16);

		memset(longp, 'a', PATH_MAX + 15);
		longp[PATH_MAX + 15] = '\0';
		fd = root_mkdir_p(rootfd, longp, 0755, err);
		ok(fd < 0 && werr_errno(err) == ENAMETOOLONG, "a path past PATH_MAX: ENAMETOOLONG");
		free(longp);
		werr_clear(err);
	}
}

static void test_mkfile(void)
{
	struct stat st;
	int fd;

	fd = root_mkfile(rootfd, "/up3/newdir/newfile", 0600, err);
	ok(fd >= 0 && fstatat(rootfd, "newdir/newfile", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       S_ISREG(st.st_mode) && (st.st_mode & 0777) == 0600 && !exists_at(basefd, "newdir"),
	   "mkfile through ../../.. makes the file and its parent in the root");
	if (fd >= 0)
		close(fd);
	fd = root_mkfile(rootfd, "abs_etc/hostname", 0644, err);
	ok(fd >= 0 && root_path_is(rootfd, "etc/hostname", fd),
	   "mkfile of an existing file gives that file");
	if (fd >= 0)
		close(fd);
	fd = root_mkfile(rootfd, "dir/mid", 0644, err);
	ok(fd < 0 && werr_errno(err) == EISDIR && strstr(werr_msg(err), "is a directory"),
	   "mkfile where a directory resolves: EISDIR");
	werr_clear(err);
	fd = root_mkfile(rootfd, "flink", 0644, err);
	ok(!exists_at(outfd, "victim"), "mkfile of a dangling climbing link makes nothing outside");
	ok(fd < 0 || inside_root(fd), "and what it gives (if anything) is inside");
	if (fd >= 0)
		close(fd);
	werr_clear(err);
}

/* Identity: the same object through two opens (and a hard link) is the
 * same; another file, or any one field different, is not. */
static void test_ident(void)
{
	struct fd_ident a, b, c;
	int f1 = openat(rootfd, "etc/hostname", O_PATH | O_CLOEXEC);
	int f2 = root_open(rootfd, "/abs_etc/hostname", O_RDONLY);
	int f3 = openat(rootfd, "outside/secret", O_PATH | O_CLOEXEC);
	int f4 = openat(outfd, "secret", O_PATH | O_CLOEXEC);
	int hl;

	ok(fd_ident(f1, &a) == 0 && fd_ident(f2, &b) == 0 && fd_ident(f3, &c) == 0,
	   "fd_ident of three fds");
	ok(fd_ident_same(&a, &b), "two opens of one file are the same");
	ok(!fd_ident_same(&a, &c), "two files are not");
	{
		struct fd_ident d = a;

		d.mnt++;
		ok(!fd_ident_same(&a, &d), "another mount id is not the same");
		d = a;
		d.ino++;
		ok(!fd_ident_same(&a, &d), "another inode is not the same");
		d = a;
		d.dev_major++;
		ok(!fd_ident_same(&a, &d), "another device major is not the same");
		d = a;
		d.dev_minor++;
		ok(!fd_ident_same(&a, &d), "another device minor is not the same");
	}
	ok(linkat(rootfd, "etc/hostname", rootfd, "etc/hardlink", 0) == 0 &&
	       (hl = openat(rootfd, "etc/hardlink", O_PATH | O_CLOEXEC)) >= 0 &&
	       fd_ident(hl, &c) == 0 && fd_ident_same(&a, &c) && (close(hl), 1),
	   "a hard link is the same object");
	ok(fd_ident(-1, &c) < 0 && errno == EBADF, "fd_ident of a bad fd fails");

	ok(root_path_is(rootfd, "abs_etc/hostname", f1), "root_path_is through /etc -> the root's");
	ok(root_path_is(rootfd, "dir/mid/secret", f3),
	   "root_path_is: the decoy is what dir/mid reaches");
	ok(!root_path_is(rootfd, "dir/mid/secret", f4),
	   "root_path_is: never the real outside file");
	ok(!root_path_is(rootfd, "etc/hostname", f3), "root_path_is: another file is not it");
	ok(!root_path_is(rootfd, "no/such", f1), "root_path_is: a missing path is not it");
	ok(!root_path_is(rootfd, "etc/hostname", -1), "root_path_is: a bad fd is not it");
	ok(strcmp(fd_path(7).s, "/proc/self/fd/7") == 0, "fd_path names /proc/self/fd/N");
	close(f1);
	close(f2);
	close(f3);
	close(f4);
}

int main(void)
{
	int fds;

	if (!ok(setup() == 0, "scratch root at %s", base)) {
		if (base[0])
			tmp_remove(base);
		return tap_done();
	}
	fds = n_fds();
	test_resolution();
	test_magiclinks();
	test_mkdir();
	test_mkfile();
	test_sweep();
	test_ident();
	/* Every way out of the functions under test, refusals included. */
	ok(n_fds() == fds, "no fd left open by them (%d before, %d after)", fds, n_fds());
	close(rootfd);
	close(outfd);
	close(basefd);
	tmp_remove(base);
	werr_clear(err);
	return tap_done();
}
