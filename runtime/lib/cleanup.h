/* Ownership made visible: a variable declared with one of these is released
 * when it goes out of scope, on every return path. Take it over with
 * TAKE_FD / TAKE_PTR when it is handed on. */
#ifndef WARD_LIB_CLEANUP_H
#define WARD_LIB_CLEANUP_H

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

static inline void cleanup_freep(void *p)
{
	free(*(void **)p);
}

/* close() keeps errno: a cleanup must not change the error being returned.
 * The fd is then -1, so that a destructor run after an early close (or
 * twice) never closes a number the process has since given to another. */
static inline void cleanup_closep(int *fd)
{
	if (*fd >= 0) {
		int e = errno;

		close(*fd);
		errno = e;
		*fd = -1;
	}
}

/* An array of n fds (any -1 skipped), closed, and the array freed. */
static inline void fds_close_free(int *fds, size_t n)
{
	for (size_t k = 0; fds && k < n; k++)
		if (fds[k] >= 0)
			close(fds[k]);
	free(fds);
}

#define _cleanup_free_  __attribute__((cleanup(cleanup_freep)))
#define _cleanup_close_ __attribute__((cleanup(cleanup_closep)))

static inline int take_fd(int *fd)
{
	int r = *fd;

	*fd = -1;
	return r;
}
#define TAKE_FD(fd) take_fd(&(fd))

static inline void *take_ptr(void *pp)
{
	void *r = *(void **)pp;

	*(void **)pp = NULL;
	return r;
}
#define TAKE_PTR(p) take_ptr(&(p))

#endif
