/* The fds ward's caller passed (see callerfds.h). */
#include "lib/callerfds.h"
#include "lib/error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

static unsigned char *passed; /* one byte per fd 3..3+range-1 */
static int range;

/* fds ward keeps free for its own work when the range reaches
 * RLIMIT_NOFILE. */
#define HEADROOM 64

int callerfds_take(int n)
{
	struct rlimit rl;
	int null_fd, limit;

	if (passed || n <= 0)
		return 0;
	if (n > CALLERFDS_MAX)
		n = CALLERFDS_MAX;
	/* malloc opens nothing; F_GETFD neither. */
	passed = calloc((size_t)n, 1);
	if (passed == NULL)
		return -1;
	range = n;
	limit = 3 + n;
	for (int i = 0; i < n; i++)
		passed[i] = fcntl(3 + i, F_GETFD) >= 0;
	/* The first free fd of the range, if there is one: then that is where
	 * /dev/null lands, itself the first placeholder. */
	null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (null_fd < 0)
		return -1;
	/* Up to RLIMIT_NOFILE, less what ward needs to work: past that, an fd
	 * of ward's may land in the range, and is still not passed (only the
	 * recorded ones are). */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < (rlim_t)3 + (rlim_t)n + HEADROOM)
		limit = rl.rlim_cur > 3 + HEADROOM ? (int)(rl.rlim_cur - HEADROOM) : 3;
	for (int fd = 3; fd < limit; fd++) {
		if (passed[fd - 3] || fd == null_fd)
			continue;
		if (dup3(null_fd, fd, O_CLOEXEC) < 0)
			break;
	}
	if (null_fd >= 3 + n)
		close(null_fd);
	return 0;
}

int callerfds_range(void)
{
	return range;
}

bool callerfds_passed(int fd)
{
	return passed && fd >= 3 && fd - 3 < range && passed[fd - 3];
}

int callerfds_check(int n, struct werror *err)
{
	if (n > CALLERFDS_MAX)
		return werr_k(err, WERR_INVALID, 0,
		              "--preserve-fds: ward passes at most %d fds (%d asked for)",
		              CALLERFDS_MAX, n);
	/* A range main did not record would be whatever ward has open there. */
	if (n > range)
		return werr_k(err, WERR_INVALID, 0,
		              "--preserve-fds: fds 3..%d were not recorded when ward started",
		              2 + n);
	return 0;
}
