#include "container/reexec.h"
#include "lib/cleanup.h"
#include "lib/error.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U
#endif

extern char **environ;

#define WANTED_SEALS (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE)

static int copy_failed(struct werror *err)
{
	return werr(err, errno, "re-executing from a sealed copy");
}

int reexec_sealed(char **argv, char **envp, struct werror *err)
{
	struct stat st;
	off_t off = 0;
	_cleanup_close_ int self = -1, mfd = -1;
	int seals;

	self = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (self < 0)
		return werr(err, errno, "opening /proc/self/exe");
	seals = fcntl(self, F_GET_SEALS);
	if (seals >= 0 && (seals & WANTED_SEALS) == WANTED_SEALS)
		return 0;
	/* MFD_EXEC: kernels ≥ 6.3 with vm.memfd_noexec may default to noexec. */
	mfd = memfd_create("ward", MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_EXEC);
	if (mfd < 0 && errno == EINVAL)
		mfd = memfd_create("ward", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (mfd < 0)
		return werr(err, errno, "memfd_create");
	if (fstat(self, &st) < 0)
		return copy_failed(err);
	while (off < st.st_size) {
		ssize_t n = sendfile(mfd, self, &off, (size_t)(st.st_size - off));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return copy_failed(err);
		}
	}
	if (fcntl(mfd, F_ADD_SEALS, WANTED_SEALS) < 0)
		return copy_failed(err);
	close(TAKE_FD(self));
	/* The copy runs as /memfd:ward: the policy still needs to know where
	 * ward lives (its directory is never bound into a container). */
	{
		char path[PATH_MAX];
		ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);

		if (n > 0 && path[0] == '/') {
			path[n] = '\0';
			setenv("_WARD_BINARY", path, 1);
			envp = environ;
		}
	}
	fexecve(mfd, argv, envp);
	/* fexecve returned: it failed. */
	return copy_failed(err);
}
