/* Files other programs read while ward writes them: one atomic writer. */
#ifndef WARD_LIB_FILEIO_H
#define WARD_LIB_FILEIO_H

#include "lib/error.h"

#include <stddef.h>
#include <sys/types.h>
#include <sys/uio.h>

/* Write name (in the directory dirfd) as the concatenation of iov[0..n):
 * a temporary file beside it (O_NOFOLLOW, mode), then renameat over name,
 * so a reader sees the old file or the new one whole, never a part. Not
 * fsync'ed (ward's files live no longer than the boot). On failure nothing
 * is left behind and the error reads "<what>: <strerror>". */
int atomic_write_at(int dirfd, const char *name, const struct iovec *iov, int n, mode_t mode,
                    const char *what, struct werror *err);

/* All of buf to fd, retrying short writes and EINTR; on another error the
 * rest is dropped (logs, relayed output: nothing better to do with it). */
void write_all(int fd, const char *buf, size_t len);

/* A regular file of at most max bytes, whole and NUL-terminated (the caller
 * frees *out). Errors name the path. */
int read_file(const char *path, size_t max, char **out, size_t *out_len, struct werror *err);
/* What a user names as input on the command line (exec --process, update
 * --resources): "-" for stdin, a pipe or FIFO (bash's <(...) gives
 * /dev/fd/63) read to its end, else a regular file as read_file; at most
 * max bytes. */
int read_input(const char *path, size_t max, char **out, size_t *out_len, struct werror *err);

/* All of fd to its end, at most max bytes, NUL-terminated (the caller
 * frees *out); what names it in errors ("<what>: larger than N bytes"). */
int read_fd(int fd, const char *what, size_t max, char **out, size_t *out_len, struct werror *err);
/* All of fd to its end into buf (len bytes with the NUL): for records and
 * kernel files of known bounds. One that does not fit is an error (EFBIG,
 * "<what>: larger than N bytes"), never silently cut; buf then holds the
 * first len - 1 bytes. out_len may be NULL. */
int read_fd_into(int fd, const char *what, char *buf, size_t len, size_t *out_len,
                 struct werror *err);

/* The --pid-file of create, run and exec: the pid in decimal, written
 * atomically (the engines poll for the file and read it at once). */
int pid_file_write(const char *path, pid_t pid, struct werror *err);

#endif
