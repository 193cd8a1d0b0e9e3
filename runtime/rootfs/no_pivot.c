#include "rootfs/no_pivot.h"
#include "linux/sys_mount.h"
#include "lib/cleanup.h"
#include "lib/error.h"

#include <errno.h>
#include <fcntl.h>
#include <libmount.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

static struct libmnt_fs *find_id(struct libmnt_table *tb, int id)
{
	struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs = NULL;

	while (it && mnt_table_next_fs(tb, it, &fs) == 0)
		if (mnt_fs_get_id(fs) == id)
			break;
		else
			fs = NULL;
	mnt_free_iter(it);
	return fs;
}

/* The rootfs mount, its descendants and its ancestors stay. */
static bool keeps(struct libmnt_table *tb, struct libmnt_fs *fs, int root_id)
{
	struct libmnt_fs *up = fs;

	/* Below the rootfs (or it)? */
	for (int depth = 0; up && depth < 4096; depth++) {
		if (mnt_fs_get_id(up) == root_id)
			return true;
		if (mnt_fs_get_parent_id(up) == mnt_fs_get_id(up) ||
		    find_id(tb, mnt_fs_get_parent_id(up)) == NULL)
			break;
		up = find_id(tb, mnt_fs_get_parent_id(up));
	}
	/* On the way to it? */
	up = find_id(tb, root_id);
	for (int depth = 0; up && depth < 4096; depth++) {
		if (mnt_fs_get_id(up) == mnt_fs_get_id(fs))
			return true;
		if (mnt_fs_get_parent_id(up) == mnt_fs_get_id(up))
			break;
		up = find_id(tb, mnt_fs_get_parent_id(up));
	}
	return false;
}

static bool revealing(const char *type)
{
	return type && (strcmp(type, "proc") == 0 || strcmp(type, "sysfs") == 0);
}

/* One pass: detach what may go (deepest first); count what is left. */
static int pass(int info, int root_id, bool detach, int *left, struct werror *err)
{
	struct libmnt_table *tb = mnt_new_table();
	struct libmnt_iter *it = mnt_new_iter(MNT_ITER_BACKWARD);
	struct libmnt_fs *fs;
	FILE *f = NULL;
	_cleanup_close_ int copy = -1;
	int r = 0;

	*left = 0;
	/* Read through the fd opened before the first pass: the procfs it is
	 * on is one of the mounts detached. */
	if (lseek(info, 0, SEEK_SET) == 0 && (copy = dup(info)) >= 0 &&
	    (f = fdopen(copy, "r")) != NULL)
		TAKE_FD(copy); /* f owns it */
	if (tb == NULL || it == NULL || f == NULL ||
	    mnt_table_parse_stream(tb, f, "/proc/self/mountinfo") != 0) {
		r = werr(err, ENOMEM, "--no-pivot: reading /proc/self/mountinfo");
		goto out;
	}
	while (mnt_table_next_fs(tb, it, &fs) == 0) {
		const char *target = mnt_fs_get_target(fs);

		if (target == NULL || keeps(tb, fs, root_id))
			continue;
		if (detach && sys_umount2(target, MNT_DETACH) == 0)
			continue;
		if (revealing(mnt_fs_get_fstype(fs)))
			(*left)++;
	}
out:
	if (f)
		fclose(f);
	mnt_free_iter(it);
	mnt_unref_table(tb);
	return r;
}

int no_pivot_detach_host(int rootfd, struct werror *err)
{
	struct statx sx;
	_cleanup_close_ int info = -1;
	int left = 0, r = 0;

	if (statx(rootfd, "", AT_EMPTY_PATH, STATX_MNT_ID, &sx) < 0 ||
	    !(sx.stx_mask & STATX_MNT_ID))
		return werr(err, errno ? errno : ENOSYS, "--no-pivot: the rootfs's mount");
	/* The detaches must not reach the host's mounts. */
	if (sys_mount(NULL, "/", NULL, MS_SLAVE | MS_REC, NULL) < 0)
		return werr(err, errno, "--no-pivot: making the old root a slave");
	info = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	if (info < 0)
		return werr(err, errno, "--no-pivot: /proc/self/mountinfo");
	for (int i = 0; i < 4 && r == 0; i++)
		r = pass(info, (int)sx.stx_mnt_id, true, &left, err);
	if (r == 0)
		r = pass(info, (int)sx.stx_mnt_id, false, &left, err);
	if (r < 0)
		return -1;
	if (left > 0)
		return werr_k(
		    err, WERR_REFUSED, 0,
		    "--no-pivot: %d procfs/sysfs mount(s) of the host cannot be detached from the "
		    "container's mount namespace (they would let it mount a fresh procfs: "
		    "the --no-pivot procfs class); run without --no-pivot",
		    left);
	return 0;
}
