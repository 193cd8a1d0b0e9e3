/* A fake kernel below linux/sys_mount.h, for unit tests of rootfs/ and the
 * mount primitives without root: the test links these definitions instead
 * of sys_mount.c (a link seam). Every call is written to a log, one line
 * each, naming fds by what they are: "mnt1:tmpfs" (a filesystem fsmount
 * made), "tree(host:/src)" (a clone open_tree made), or the path an fd
 * holds: inside the fake root as the container sees it ("/dev/shm"),
 * outside it with "host:" ("host:/tmp/x").
 *
 * fsmount gives a fresh directory under the fake's own tmp dir, so what a
 * caller writes into a "new mount" (tmpcopyup) can be looked at; for proc
 * and sysfs it gives the host's /proc and /sys (the type check on the new
 * mount then passes), unless fake_fs_lies: then a plain directory, as an
 * attacker's filesystem would be. fake_fail_on makes the first call whose
 * log line contains it fail with fake_fail_errno. Include it in one test
 * file only. */
#ifndef WARD_TESTS_FAKE_SYS_MOUNT_H
#define WARD_TESTS_FAKE_SYS_MOUNT_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linux/sys_mount.h"

#define FAKE_LOG_MAX 128
#define FAKE_FD_MAX  1024

static char fake_log[FAKE_LOG_MAX][512];
static int fake_n;
static char fake_label[FAKE_FD_MAX][128];
/* What a labelled fd was (the caller may close it, and the number come
 * back for something else: the label holds only while this matches). */
static struct stat fake_label_st[FAKE_FD_MAX];
#define FAKE_PATH 1024
static char fake_root[FAKE_PATH], fake_mnts[FAKE_PATH];
static int fake_mnt_seq;
/* What fsmount made: mnts/mnt<N> is a filesystem of this type (any fd of
 * that directory, a dup too, is "mnt:<type>"). */
#define FAKE_MNT_MAX 256
static char fake_mnt_type[FAKE_MNT_MAX][32];
static bool fake_fs_lies;
static const char *fake_fail_on;
static int fake_fail_errno = EINVAL;

static void fake_reset(const char *root, const char *mnts)
{
	fake_n = 0;
	fake_fail_on = NULL;
	fake_fs_lies = false;
	for (int i = 0; i < FAKE_FD_MAX; i++)
		fake_label[i][0] = '\0';
	snprintf(fake_root, sizeof(fake_root), "%.1000s", root);
	snprintf(fake_mnts, sizeof(fake_mnts), "%.1000s", mnts);
}

/* What fd is: its label, else its path (relative to the fake root). */
static const char *fake_desc(int fd, char *buf, size_t len)
{
	char link[64], path[PATH_MAX];
	ssize_t n;
	size_t rl = strlen(fake_root);
	int seq;

	if (fd == AT_FDCWD)
		return "cwd";
	if (fd >= 0 && fd < FAKE_FD_MAX && fake_label[fd][0]) {
		struct stat st;

		if (fstat(fd, &st) == 0 && st.st_dev == fake_label_st[fd].st_dev &&
		    st.st_ino == fake_label_st[fd].st_ino)
			return fake_label[fd];
		fake_label[fd][0] = '\0';
	}
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n < 0)
		return "bad-fd";
	path[n] = '\0';
	if (sscanf(path +
	               (strncmp(path, fake_mnts, strlen(fake_mnts)) == 0 ? strlen(fake_mnts) : 0),
	           "/mnt%d", &seq) == 1 &&
	    strncmp(path, fake_mnts, strlen(fake_mnts)) == 0 && seq > 0 && seq < FAKE_MNT_MAX) {
		snprintf(buf, len, "mnt:%s", fake_mnt_type[seq]);
		return buf;
	}
	if (rl && strncmp(path, fake_root, rl) == 0 && (path[rl] == '/' || path[rl] == '\0'))
		snprintf(buf, len, "%.1000s", path[rl] ? path + rl : "/");
	else
		snprintf(buf, len, "host:%.1000s", path);
	return buf;
}

/* A path argument "/proc/self/fd/N" names fd N. */
static const char *fake_path_desc(const char *p, char *buf, size_t len)
{
	int fd;

	if (p && sscanf(p, "/proc/self/fd/%d", &fd) == 1)
		return fake_desc(fd, buf, len);
	snprintf(buf, len, "%s", p ? p : "(null)");
	return buf;
}

static void fake_attr_names(unsigned long a, char *buf, size_t len)
{
	static const struct {
		unsigned long bit;
		const char *name;
	} names[] = {{MOUNT_ATTR_RDONLY, "RDONLY"},
	             {MOUNT_ATTR_NOSUID, "NOSUID"},
	             {MOUNT_ATTR_NODEV, "NODEV"},
	             {MOUNT_ATTR_NOEXEC, "NOEXEC"},
	             {MOUNT_ATTR_NODIRATIME, "NODIRATIME"},
	             {MOUNT_ATTR_IDMAP, "IDMAP"},
	             {MOUNT_ATTR_NOSYMFOLLOW, "NOSYMFOLLOW"}};
	unsigned long atime = a & MOUNT_ATTR__ATIME;
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (a & names[i].bit)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? "|" : "",
			                        names[i].name);
	/* The atime mode is one field: all of it (clearing it), or a mode. */
	if (atime)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? "|" : "",
		                        atime == MOUNT_ATTR__ATIME        ? "ATIME"
		                        : atime == MOUNT_ATTR_NOATIME     ? "NOATIME"
		                        : atime == MOUNT_ATTR_STRICTATIME ? "STRICTATIME"
		                                                          : "ATIME?");
	if (off == 0)
		snprintf(buf, len, "0");
}

/* Log a call; true: fail it (fake_fail_on matched). */
__attribute__((format(printf, 1, 2))) static bool fake_call(const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (fake_n < FAKE_LOG_MAX)
		snprintf(fake_log[fake_n++], sizeof(fake_log[0]), "%s", line);
	if (fake_fail_on && strstr(line, fake_fail_on)) {
		fake_fail_on = NULL;
		errno = fake_fail_errno;
		return true;
	}
	return false;
}

static void fake_set_label(int fd, const char *kind, const char *what)
{
	if (fd >= 0 && fd < FAKE_FD_MAX && fstat(fd, &fake_label_st[fd]) == 0)
		snprintf(fake_label[fd], sizeof(fake_label[0]), "%s(%.80s)", kind, what);
}

/* The log has a line equal to want, at or after *from (then moved past it). */
static bool fake_logged(const char *want, int *from)
{
	for (int i = from ? *from : 0; i < fake_n; i++)
		if (strcmp(fake_log[i], want) == 0) {
			if (from)
				*from = i + 1;
			return true;
		}
	return false;
}

static bool fake_logged_prefix(const char *prefix)
{
	for (int i = 0; i < fake_n; i++)
		if (strncmp(fake_log[i], prefix, strlen(prefix)) == 0)
			return true;
	return false;
}

static bool fake_logged_substr(const char *part)
{
	for (int i = 0; i < fake_n; i++)
		if (strstr(fake_log[i], part))
			return true;
	return false;
}

static void fake_dump(void)
{
	for (int i = 0; i < fake_n; i++)
		printf("#   %s\n", fake_log[i]);
}

static char fake_fstype[FAKE_FD_MAX][32];

int sys_fsopen(const char *fstype, unsigned int flags)
{
	int fd;

	(void)flags;
	if (fake_call("fsopen %s", fstype))
		return -1;
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	fake_set_label(fd, "fs", fstype);
	if (fd >= 0 && fd < FAKE_FD_MAX)
		snprintf(fake_fstype[fd], sizeof(fake_fstype[0]), "%s", fstype);
	return fd;
}

int sys_fsconfig(int fs, unsigned int cmd, const char *key, const void *value, int aux)
{
	(void)fs;
	(void)aux;
	switch (cmd) {
	case FSCONFIG_SET_STRING:
		return fake_call("fsconfig %s=%s", key, (const char *)value) ? -1 : 0;
	case FSCONFIG_SET_FLAG:
		return fake_call("fsconfig %s", key) ? -1 : 0;
	case FSCONFIG_CMD_CREATE:
		return fake_call("fsconfig create") ? -1 : 0;
	default:
		return fake_call("fsconfig cmd %u", cmd) ? -1 : 0;
	}
}

int sys_fsmount(int fs, unsigned int flags, unsigned int attr)
{
	const char *type = fs >= 0 && fs < FAKE_FD_MAX ? fake_fstype[fs] : "?";
	char names[128], dir[PATH_MAX + 32];
	int fd;

	(void)flags;
	fake_attr_names(attr, names, sizeof(names));
	if (fake_call("fsmount %s attr=%s", type, names))
		return -1;
	if (!fake_fs_lies && strcmp(type, "proc") == 0) {
		fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	} else if (!fake_fs_lies && strcmp(type, "sysfs") == 0) {
		fd = open("/sys", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	} else {
		if (++fake_mnt_seq >= FAKE_MNT_MAX)
			return -1;
		snprintf(dir, sizeof(dir), "%s/mnt%d", fake_mnts, fake_mnt_seq);
		if (mkdir(dir, 0755) < 0)
			return -1;
		snprintf(fake_mnt_type[fake_mnt_seq], sizeof(fake_mnt_type[0]), "%s", type);
		fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	if (fd >= 0 && fd < FAKE_FD_MAX && !(strcmp(type, "proc") && strcmp(type, "sysfs")) &&
	    fstat(fd, &fake_label_st[fd]) == 0)
		snprintf(fake_label[fd], sizeof(fake_label[0]), "mnt:%s", type);
	return fd;
}

int sys_open_tree(int dfd, const char *path, unsigned int flags)
{
	char buf[PATH_MAX], what[PATH_MAX];
	int fd;

	if (path && path[0])
		snprintf(what, sizeof(what), "%s/%s", fake_desc(dfd, buf, sizeof(buf)), path);
	else
		snprintf(what, sizeof(what), "%s", fake_desc(dfd, buf, sizeof(buf)));
	if (fake_call("open_tree %s%s%s", what, (flags & AT_RECURSIVE) ? " recursive" : "",
	              (flags & OPEN_TREE_CLONE) ? " clone" : ""))
		return -1;
	fd = path && path[0] ? openat(dfd, path, O_PATH | O_CLOEXEC)
	                     : fcntl(dfd, F_DUPFD_CLOEXEC, 3);
	fake_set_label(fd, "tree", what);
	return fd;
}

int sys_move_mount(int from_dfd, const char *from, int to_dfd, const char *to, unsigned int flags)
{
	char b1[PATH_MAX], b2[PATH_MAX];

	(void)flags;
	return fake_call("move %s%s -> %s%s", fake_desc(from_dfd, b1, sizeof(b1)), from,
	                 fake_desc(to_dfd, b2, sizeof(b2)), to)
	           ? -1
	           : 0;
}

int sys_mount_setattr(int dfd, const char *path, unsigned int flags, struct mount_attr *attr,
                      size_t size)
{
	char b[PATH_MAX], set[128], clr[128];

	(void)size;
	fake_attr_names(attr->attr_set, set, sizeof(set));
	fake_attr_names(attr->attr_clr, clr, sizeof(clr));
	return fake_call("setattr %s%s%s set=%s clr=%s%s", fake_desc(dfd, b, sizeof(b)), path,
	                 (flags & AT_RECURSIVE) ? " recursive" : "", set, clr,
	                 attr->propagation == MS_SLAVE     ? " slave"
	                 : attr->propagation == MS_SHARED  ? " shared"
	                 : attr->propagation == MS_PRIVATE ? " private"
	                                                   : "")
	           ? -1
	           : 0;
}

int sys_mount(const char *source, const char *target, const char *type, unsigned long flags,
              const void *data)
{
	char b[PATH_MAX];

	return fake_call("mount %s %s %s 0x%lx %s", source ? source : "-",
	                 fake_path_desc(target, b, sizeof(b)), type ? type : "-", flags,
	                 data ? (const char *)data : "-")
	           ? -1
	           : 0;
}

int sys_umount2(const char *target, int flags)
{
	char b[PATH_MAX];

	return fake_call("umount2 %s 0x%x", fake_path_desc(target, b, sizeof(b)), flags) ? -1 : 0;
}

int sys_pivot_root(const char *new_root, const char *put_old)
{
	return fake_call("pivot_root %s %s", new_root, put_old) ? -1 : 0;
}

#endif
