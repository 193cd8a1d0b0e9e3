/* The seam below every mount ward makes: the mount-family system calls,
 * and nothing else, each a plain call of the kernel's (glibc's wrapper).
 * No other file calls them (tests/arch/layering.py checks), so a unit
 * test links its own definitions of these symbols instead of this file's
 * (tests/unit/fake_sys_mount.h) and watches what rootfs/ and the mount
 * primitives ask the kernel for, without root or a mount namespace.
 * A link-time seam: no function pointers at run time, nothing the
 * container could redirect. */
#ifndef WARD_LINUX_SYS_MOUNT_H
#define WARD_LINUX_SYS_MOUNT_H

#include <stddef.h>
#include <sys/mount.h>

int sys_fsopen(const char *fstype, unsigned int flags);
int sys_fsconfig(int fs, unsigned int cmd, const char *key, const void *value, int aux);
int sys_fsmount(int fs, unsigned int flags, unsigned int attr);
int sys_open_tree(int dfd, const char *path, unsigned int flags);
int sys_move_mount(int from_dfd, const char *from, int to_dfd, const char *to, unsigned int flags);
int sys_mount_setattr(int dfd, const char *path, unsigned int flags, struct mount_attr *attr,
                      size_t size);
int sys_mount(const char *source, const char *target, const char *type, unsigned long flags,
              const void *data);
int sys_umount2(const char *target, int flags);
int sys_pivot_root(const char *new_root, const char *put_old);

#endif
