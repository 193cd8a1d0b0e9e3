/* spec: a default config.json (oci/spec.c's template) written into the
 * bundle directory: short, as runc's, and adjusted by baseline only in the
 * seccomp profile it fills in; or full (runc's process, ward's seccomp
 * profile inline, for editing). */
#include "container/query/query.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "oci/spec.h"
#include "seccomp/seccomp_default.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int query_spec(const char *bundle, bool rootless, bool full, struct werror *err)
{
	const struct oci_spec_rootless ids = {(uint32_t)geteuid(), (uint32_t)getegid()};
	char path[PATH_MAX];
	size_t len;
	_cleanup_free_ char *json = NULL;
	_cleanup_close_ int fd = -1;
	ssize_t n;

	if ((size_t)snprintf(path, sizeof(path), "%s/config.json", bundle) >= sizeof(path))
		return werr(err, ENAMETOOLONG, "--bundle");
	const struct oci_spec_opts o = {.seccomp_gen = full ? oci_seccomp_default_gen : NULL,
	                                .rootless = rootless ? &ids : NULL,
	                                .runc_process = full};

	if (oci_spec_default(&json, &len, &o, err) < 0)
		return -1;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return werr(err, errno, "%s", path);
	n = write(fd, json, len);
	if (n != (ssize_t)len || write(fd, "\n", 1) != 1) {
		int e = errno;

		unlink(path);
		return werr(err, e, "writing %s", path);
	}
	return 0;
}
