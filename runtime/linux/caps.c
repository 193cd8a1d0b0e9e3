#include "linux/caps.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "lib/log.h"
#include "oci/names.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static int kernel_last_cap(void)
{
	char buf[16] = {0};
	_cleanup_close_ int fd = open("/proc/sys/kernel/cap_last_cap", O_RDONLY | O_CLOEXEC);
	int last = 63;

	if (fd >= 0 && read(fd, buf, sizeof(buf) - 1) > 0)
		last = atoi(buf);
	return last > 63 ? 63 : last;
}

int caps_drop_bounding(uint64_t keep, struct werror *err)
{
	int last = kernel_last_cap();

	/* Caps the kernel has but ward cannot name are dropped too. */
	for (int cap = 0; cap <= last; cap++) {
		if (keep & (1ULL << cap))
			continue;
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 && errno != EINVAL)
			return werr(err, errno, "dropping %s from the bounding set",
			            oci_cap_name(cap) ? oci_cap_name(cap) : "capability");
	}
	return 0;
}

int caps_set(const struct oci_caps *c, struct werror *err)
{
	struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
	struct __user_cap_data_struct data[2] = {{0}};
	uint64_t eff = c ? c->effective : 0, perm = c ? c->permitted : 0;
	uint64_t inh = c ? c->inheritable : 0, amb = c ? c->ambient : 0;

	data[0].effective = (uint32_t)eff;
	data[1].effective = (uint32_t)(eff >> 32);
	data[0].permitted = (uint32_t)perm;
	data[1].permitted = (uint32_t)(perm >> 32);
	data[0].inheritable = (uint32_t)inh;
	data[1].inheritable = (uint32_t)(inh >> 32);
	if (syscall(SYS_capset, &hdr, data) < 0)
		return werr(err, errno, "capset");
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL)
		return werr(err, errno, "clearing ambient capabilities");
	/* An ambient capability must be permitted and inheritable; runc and
	 * crun go on (`runc spec` 1.1 lists ambient capabilities that
	 * are not inheritable; runc 1.1 says nothing): a debug line. The profiles
	 * above compat clear the ambient set before it gets here. */
	for (int cap = 0; cap < 64; cap++) {
		if (!(amb & (1ULL << cap)))
			continue;
		if (!(perm & inh & (1ULL << cap))) {
			log_debug("process.capabilities.ambient: %s is not both permitted and "
			          "inheritable; not raised",
			          oci_cap_name(cap) ? oci_cap_name(cap) : "capability");
			continue;
		}
		if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, cap, 0, 0) < 0)
			return werr(err, errno, "raising ambient %s", oci_cap_name(cap));
	}
	return 0;
}
