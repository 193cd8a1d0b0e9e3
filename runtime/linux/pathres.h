/* Paths inside the container's rootfs, resolved by fd so that no symlink or
 * ".." planted in the image can lead outside it: openat2(RESOLVE_IN_ROOT)
 * treats rootfd as "/" for every component, symlink targets included. */
#ifndef WARD_PATHRES_H
#define WARD_PATHRES_H

#include "lib/error.h"

#include <stdbool.h>
#include <sys/types.h>

/* openat2(dirfd, path, flags | O_CLOEXEC, resolve), retried while a
 * concurrent rename races ".." (EAGAIN). The one openat2 of ward's. */
int path_open2(int dirfd, const char *path, int flags, unsigned long long resolve);
/* openat2(rootfd, path, flags, RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS). */
int root_open(int rootfd, const char *path, int flags);
/* mkdir -p inside the root; returns an O_PATH fd of the directory. */
int root_mkdir_p(int rootfd, const char *path, mode_t mode, struct werror *err);
/* Ensure a regular file exists at path (parents created); O_PATH fd. A
 * symlink that dangles inside the root gives an fd of the symlink itself:
 * a bind then lands on the link (as an engine's /etc/resolv.conf over an
 * image's link to a stub that is not there), never where it points. */
int root_mkfile(int rootfd, const char *path, mode_t mode, struct werror *err);
/* What an fd is, to tell two opens of the same object (and the same
 * mount of it) apart from look-alikes: mount id, device and inode. */
struct fd_ident {
	unsigned long long mnt, ino;
	unsigned int dev_major, dev_minor;
};
int fd_ident(int fd, struct fd_ident *id);
bool fd_ident_same(const struct fd_ident *a, const struct fd_ident *b);
/* path, resolved inside the root, is the object fd holds (same mount). */
bool root_path_is(int rootfd, const char *path, int fd);
/* "/proc/self/fd/N", the name by which mount(2) reaches an fd. */
struct fdpath {
	char s[32];
};
struct fdpath fd_path(int fd);

#endif
