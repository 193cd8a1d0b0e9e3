/* Landlock for strict containers (see landlock.h). Rules only grant, and a
 * right granted on a directory holds for everything beneath it: so
 * execution is granted on the root filesystem's entries one by one,
 * skipping the writable mounts, never on "/" as a whole. */
#include "linux/landlock_wall.h"
#include "lib/strfmt.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "linux/pathres.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Newer than the 6.1 headers Debian 12 ships. */
#define LL_FS_TRUNCATE         (1ULL << 14) /* ABI 3 */
#define LL_FS_IOCTL_DEV        (1ULL << 15) /* ABI 5 */
#define LL_SCOPE_ABSTRACT_UNIX (1ULL << 0)  /* ABI 6 */
#define LL_SCOPE_SIGNAL        (1ULL << 1)  /* ABI 6 */

/* struct landlock_ruleset_attr as of ABI 6; older kernels take a prefix. */
struct ll_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;
	uint64_t scoped;
};

#define MAX_MOUNTS 256

#define R_FILE (LANDLOCK_ACCESS_FS_READ_FILE)
#define R_DIR  (LANDLOCK_ACCESS_FS_READ_DIR)
#define X      (LANDLOCK_ACCESS_FS_EXECUTE)
#define W_FILE (LANDLOCK_ACCESS_FS_WRITE_FILE | LL_FS_TRUNCATE)
#define W_TREE                                                                                     \
	(W_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |                 \
	 LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |                               \
	 LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO |                             \
	 LANDLOCK_ACCESS_FS_MAKE_SYM | LANDLOCK_ACCESS_FS_REFER)
/* What a regular file's rule may hold (the kernel refuses the rest). */
#define FILE_RIGHTS (R_FILE | X | W_FILE | LL_FS_IOCTL_DEV)

int landlock_abi(void)
{
	long v = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);

	return v < 0 ? 0 : (int)v;
}

struct mnt {
	char path[4096];
	bool writable;
	char type[32];
};

struct walk {
	int ruleset;
	uint64_t handled;
	struct mnt *m;
	size_t n;
};

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static void unescape(char *s)
{
	char *d = s;

	for (; *s; s++, d++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] && s[3]) {
			*d = (char)(((s[1] - '0') << 6) | ((s[2] - '0') << 3) | (s[3] - '0'));
			s += 3;
		} else {
			*d = *s;
		}
	}
	*d = '\0';
}

/* The mount table as this process sees it: each mount point, whether it
 * is writable, and its filesystem type. */
static int read_mounts(struct mnt *m, size_t max, size_t *n, struct werror *err)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL;
	size_t cap = 0;

	*n = 0;
	if (f == NULL)
		return werr(err, errno, "Landlock: /proc/self/mountinfo");
	while (getline(&line, &cap, f) > 0) {
		char *save = NULL, *field[6], *dash = strstr(line, " - "), type[32];
		int k = 0;

		if (*n >= max) {
			free(line);
			fclose(f);
			return werr(err, 0, "Landlock: more than %zu mounts", max);
		}
		if (dash == NULL || sscanf(dash + 3, "%31s", type) != 1)
			continue;
		/* The fields whole, however long: a mount point is escaped
		 * (a space is "\040", four times its length), and one cut at
		 * a fixed width was not seen as a mount: it fell under the
		 * root filesystem's rights, execute included. */
		*dash = '\0';
		for (char *t = strtok_r(line, " ", &save); t && k < 6;
		     t = strtok_r(NULL, " ", &save))
			field[k++] = t;
		if (k < 6)
			continue;
		unescape(field[4]);
		if (fmt_fit(m[*n].path, sizeof(m[*n].path), "%s", field[4]) < 0) {
			free(line);
			fclose(f);
			return werr(err, ENAMETOOLONG,
			            "Landlock: a mount point longer than a path");
		}
		snprintf(m[*n].type, sizeof(m[*n].type), "%s", type);
		m[*n].writable =
		    strncmp(field[5], "rw", 2) == 0 && (field[5][2] == ',' || !field[5][2]);
		(*n)++;
	}
	free(line);
	fclose(f);
	return 0;
}

static int add_rule(const struct walk *w, const char *path, uint64_t rights, struct werror *err)
{
	struct landlock_path_beneath_attr pb;
	struct stat st;
	/* No link followed anywhere on the way: an exec'd process builds its
	 * ruleset while the container runs, and a link swapped in would put a
	 * rule on something else. */
	_cleanup_close_ int fd = path_open2(AT_FDCWD, path, O_PATH, RESOLVE_NO_SYMLINKS);
	long r;

	if (fd < 0)
		return errno == ENOENT || errno == ELOOP ? 0
		                                         : werr(err, errno, "Landlock: %s", path);
	if (fstat(fd, &st) < 0)
		return werr(err, errno, "Landlock: %s", path);
	if (!S_ISDIR(st.st_mode))
		rights &= FILE_RIGHTS;
	pb.allowed_access = rights & w->handled;
	pb.parent_fd = fd;
	r = pb.allowed_access
	        ? syscall(SYS_landlock_add_rule, w->ruleset, LANDLOCK_RULE_PATH_BENEATH, &pb, 0)
	        : 0;
	return r < 0 ? werr(err, errno, "Landlock: a rule for %s", path) : 0;
}

/* Rights of what lives on a mount of this kind beneath its point. */
static uint64_t mount_rights(const struct mnt *m)
{
	if (strcmp(m->type, "proc") == 0)
		return R_FILE | R_DIR | W_FILE; /* /proc/self/... writes */
	if (strcmp(m->type, "sysfs") == 0 || strncmp(m->type, "cgroup", 6) == 0)
		return R_FILE | R_DIR | (m->writable ? W_FILE : 0);
	if (strcmp(m->type, "devpts") == 0 || strcmp(m->type, "mqueue") == 0)
		return R_FILE | R_DIR | W_TREE | LL_FS_IOCTL_DEV;
	/* A writable mount (scratch tmpfs, volume): read and write, never
	 * execute; /dev's nodes also take ioctls (terminals). */
	return R_FILE | R_DIR | (m->writable ? W_TREE : 0) | LL_FS_IOCTL_DEV;
}

static bool is_mount(const struct walk *w, const char *path)
{
	for (size_t i = 0; i < w->n; i++)
		if (strcmp(w->m[i].path, path) == 0)
			return true;
	return false;
}

/* A mount other than "/" is below dir. */
static bool holds_mount(const struct walk *w, const char *dir)
{
	size_t l = strlen(dir);

	for (size_t i = 0; i < w->n; i++) {
		const char *p = w->m[i].path;

		if (strcmp(dir, "/") == 0 ? strcmp(p, "/") != 0
		                          : strncmp(p, dir, l) == 0 && p[l] == '/')
			return true;
	}
	return false;
}

/* The root filesystem's part of dir: rights granted on dir whole when no
 * mount is below it, else on each of its entries but the mounts (which
 * have rules of their own), and dir itself may be listed. */
static int grant_rootfs(const struct walk *w, const char *dir, uint64_t rights, int depth,
                        struct werror *err)
{
	DIR *d;
	struct dirent *e;
	int r = 0;

	if (!holds_mount(w, dir))
		return add_rule(w, dir, rights, err);
	if (depth > 32)
		return werr(err, 0, "Landlock: mounts nested too deep below %s", dir);
	if (add_rule(w, dir, R_DIR, err) < 0)
		return -1;
	{
		_cleanup_close_ int fd =
		    path_open2(AT_FDCWD, dir, O_RDONLY | O_DIRECTORY, RESOLVE_NO_SYMLINKS);

		if (fd < 0 || (d = fdopendir(fd)) == NULL)
			return werr(err, errno, "Landlock: %s", dir);
		TAKE_FD(fd); /* closedir() closes it */
	}
	while (r == 0 && (e = readdir(d)) != NULL) {
		char p[4096];

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (snprintf(p, sizeof(p), "%s%s%s", dir, strcmp(dir, "/") ? "/" : "", e->d_name) >=
		    (int)sizeof(p))
			r = werr(err, 0, "Landlock: a path below %s is too long", dir);
		else if (!is_mount(w, p))
			r = e->d_type == DT_DIR ? grant_rootfs(w, p, rights, depth + 1, err)
			                        : add_rule(w, p, rights, err);
	}
	closedir(d);
	return r;
}

int landlock_apply(struct werror *err)
{
	int abi = landlock_abi();
	struct ll_attr attr = {0};
	static const size_t attr_size[] = {0, 8, 8, 8, 16, 16, 24};
	struct walk w = {.ruleset = -1};
	const struct mnt *root = NULL;
	uint64_t rootfs;
	int r = -1;

	if (abi < 1)
		return werr_k(err, WERR_UNSUPPORTED, ENOSYS, "Landlock: the kernel has none");
	w.handled = (1ULL << 13) - 1; /* EXECUTE .. MAKE_SYM: ABI 1 */
	if (abi >= 2)
		w.handled |= LANDLOCK_ACCESS_FS_REFER;
	if (abi >= 3)
		w.handled |= LL_FS_TRUNCATE;
	if (abi >= 5)
		w.handled |= LL_FS_IOCTL_DEV;
	attr.handled_access_fs = w.handled;
	if (abi >= 6)
		attr.scoped = LL_SCOPE_ABSTRACT_UNIX | LL_SCOPE_SIGNAL;
	w.m = calloc(MAX_MOUNTS, sizeof(*w.m));
	if (w.m == NULL)
		return werr(err, ENOMEM, "out of memory");
	if (read_mounts(w.m, MAX_MOUNTS, &w.n, err) < 0)
		goto out;
	w.ruleset =
	    (int)syscall(SYS_landlock_create_ruleset, &attr, attr_size[abi < 6 ? abi : 6], 0);
	if (w.ruleset < 0) {
		werr(err, errno, "Landlock: creating the ruleset");
		goto out;
	}
	for (size_t i = 0; i < w.n; i++)
		if (strcmp(w.m[i].path, "/") == 0)
			root = &w.m[i];
		else if (add_rule(&w, w.m[i].path, mount_rights(&w.m[i]), err) < 0)
			goto out;
	/* The root filesystem: read and execute, and write when it is
	 * writable (making and removing entries in "/" itself too). */
	rootfs = R_FILE | R_DIR | X | (root && root->writable ? W_TREE : 0);
	if (root && root->writable && add_rule(&w, "/", W_TREE & ~W_FILE, err) < 0)
		goto out;
	if (grant_rootfs(&w, "/", rootfs, 0, err) < 0)
		goto out;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		werr(err, errno, "Landlock: no_new_privs");
		goto out;
	}
	if (syscall(SYS_landlock_restrict_self, w.ruleset, 0) < 0) {
		werr(err, errno, "Landlock: restricting the process");
		goto out;
	}
	r = 0;
out:
	if (w.ruleset >= 0)
		close(w.ruleset);
	free(w.m);
	return r;
}
