#include "linux/sys_mount.h"

#include <sys/syscall.h>
#include <unistd.h>

int sys_fsopen(const char *fstype, unsigned int flags)
{
	return fsopen(fstype, flags);
}

int sys_fsconfig(int fs, unsigned int cmd, const char *key, const void *value, int aux)
{
	return fsconfig(fs, cmd, key, value, aux);
}

int sys_fsmount(int fs, unsigned int flags, unsigned int attr)
{
	return fsmount(fs, flags, attr);
}

int sys_open_tree(int dfd, const char *path, unsigned int flags)
{
	return open_tree(dfd, path, flags);
}

int sys_move_mount(int from_dfd, const char *from, int to_dfd, const char *to, unsigned int flags)
{
	return move_mount(from_dfd, from, to_dfd, to, flags);
}

int sys_mount_setattr(int dfd, const char *path, unsigned int flags, struct mount_attr *attr,
                      size_t size)
{
	return mount_setattr(dfd, path, flags, attr, size);
}

int sys_mount(const char *source, const char *target, const char *type, unsigned long flags,
              const void *data)
{
	return mount(source, target, type, flags, data);
}

int sys_umount2(const char *target, int flags)
{
	return umount2(target, flags);
}

/* glibc has no wrapper. */
int sys_pivot_root(const char *new_root, const char *put_old)
{
	return (int)syscall(SYS_pivot_root, new_root, put_old);
}
