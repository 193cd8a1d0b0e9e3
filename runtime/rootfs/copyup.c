#include "rootfs/copyup.h"
#include "lib/cleanup.h"
#include "lib/error.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_DEPTH 64

static int copy_file(int src_dir, int dst_dir, const char *name, const struct stat *st,
                     struct werror *err)
{
	char buf[65536];
	ssize_t n = 0;
	_cleanup_close_ int in = -1, out = -1;

	in = openat(src_dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (in < 0)
		return werr(err, errno, "%s", name);
	out = openat(dst_dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	             st->st_mode & 07777);
	if (out < 0)
		return werr(err, errno, "%s", name);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			n = -1;
			break;
		}
	if (n < 0 || fchown(out, st->st_uid, st->st_gid) < 0 ||
	    fchmod(out, st->st_mode & 07777) < 0)
		return werr(err, errno, "copying %s", name);
	return 0;
}

static int copy_dir(int src, int dst, int depth, struct werror *err)
{
	_cleanup_close_ int dupfd = dup(src);
	DIR *d = NULL;
	struct dirent *de;
	int r = 0;

	if (dupfd < 0 || (d = fdopendir(dupfd)) == NULL)
		return werr(err, errno, "reading a directory to copy up");
	TAKE_FD(dupfd); /* closedir() closes it */
	if (depth > MAX_DEPTH) {
		closedir(d);
		return werr(err, ELOOP, "copy-up deeper than %d levels", MAX_DEPTH);
	}
	while (r == 0 && (de = readdir(d)) != NULL) {
		struct stat st;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (fstatat(src, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			r = werr(err, errno, "%s", de->d_name);
		} else if (S_ISDIR(st.st_mode)) {
			_cleanup_close_ int s2 = -1, d2 = -1;

			if (mkdirat(dst, de->d_name, st.st_mode & 07777) < 0 && errno != EEXIST) {
				r = werr(err, errno, "%s", de->d_name);
				break;
			}
			s2 = openat(src, de->d_name,
			            O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			d2 = openat(dst, de->d_name,
			            O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			r = (s2 < 0 || d2 < 0) ? werr(err, errno, "%s", de->d_name)
			                       : copy_dir(s2, d2, depth + 1, err);
			if (r == 0 && (fchown(d2, st.st_uid, st.st_gid) < 0 ||
			               fchmod(d2, st.st_mode & 07777) < 0))
				r = werr(err, errno, "%s", de->d_name);
		} else if (S_ISREG(st.st_mode)) {
			r = copy_file(src, dst, de->d_name, &st, err);
		} else if (S_ISLNK(st.st_mode)) {
			char target[PATH_MAX];
			ssize_t n = readlinkat(src, de->d_name, target, sizeof(target) - 1);

			if (n < 0)
				r = werr(err, errno, "%s", de->d_name);
			else {
				target[n] = '\0';
				if (symlinkat(target, dst, de->d_name) < 0 ||
				    fchownat(dst, de->d_name, st.st_uid, st.st_gid,
				             AT_SYMLINK_NOFOLLOW) < 0)
					r = werr(err, errno, "%s", de->d_name);
			}
		}
		/* Device nodes, fifos and sockets are not copied. */
	}
	closedir(d);
	return r;
}

int copyup_tree(int src_fd, int dst_fd, struct werror *err)
{
	struct stat st;

	if (fstat(src_fd, &st) < 0 || fchown(dst_fd, st.st_uid, st.st_gid) < 0 ||
	    fchmod(dst_fd, st.st_mode & 07777) < 0)
		return werr(err, errno, "copy-up");
	return copy_dir(src_fd, dst_fd, 0, err) < 0 ? werr_ctx(err, "copy-up") : 0;
}
