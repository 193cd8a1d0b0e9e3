/* Paths inside the container's rootfs, resolved by fd so that no symlink or
 * ".." planted in the image can lead outside it: openat2(RESOLVE_IN_ROOT)
 * treats rootfd as "/" for every component, symlink targets included. */
#ifndef WARD_PATHRES_H
#define WARD_PATHRES_H

#include <sys/types.h>

/* openat2(rootfd, path, flags, RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS). */
int root_open(int rootfd, const char *path, int flags);
/* mkdir -p inside the root; returns an O_PATH fd of the directory. */
int root_mkdir_p(int rootfd, const char *path, mode_t mode);
/* Ensure a regular file exists at path (parents created); O_PATH fd. */
int root_mkfile(int rootfd, const char *path, mode_t mode);
/* "/proc/self/fd/N", the name by which mount(2) reaches an fd. */
struct fdpath {
	char s[32];
};
struct fdpath fd_path(int fd);

#endif
