#include "linux/process_attrs.h"
#include "linux/pathres.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "lib/log.h"
#include "oci/names.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/ioprio.h>
#include <linux/sched.h>

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The kernel's struct sched_attr (<linux/sched/types.h> clashes with glibc's
 * <sched.h>); the first 56 bytes are the ABI of sched_setattr(2). */
struct ward_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
};

static bool apparmor_enabled(void)
{
	char c = 0;
	_cleanup_close_ int fd =
	    open("/sys/module/apparmor/parameters/enabled", O_RDONLY | O_CLOEXEC);

	if (fd < 0 || read(fd, &c, 1) != 1)
		return false;
	return c == 'Y';
}

static bool selinux_enabled(void)
{
	return access("/sys/fs/selinux/enforce", F_OK) == 0;
}

int attrs_check(const struct oci_config *c, struct werror *err)
{
	const struct oci_process *p = c->process;

	if (p->apparmor_profile && p->apparmor_profile[0] && !apparmor_enabled())
		return werr_k(err, WERR_UNSUPPORTED, 0,
		              "config.json: .process.apparmorProfile \"%s\": AppArmor is not "
		              "enabled on this host",
		              p->apparmor_profile);
	if (p->selinux_label && p->selinux_label[0] && !selinux_enabled())
		return werr_k(err, WERR_UNSUPPORTED, 0,
		              "config.json: .process.selinuxLabel: SELinux is not enabled on this "
		              "host");
	/* A label for mounts only matters to SELinux: without it there is
	 * nothing to label and nothing less contained (runc and crun go on). */
	if (c->linux && c->linux->mount_label && c->linux->mount_label[0] && !selinux_enabled())
		log_warn("config.json: .linux.mountLabel: SELinux is not enabled on this host; "
		         "ignored");
	if (c->linux && c->linux->personality && c->linux->personality->n_flags)
		return werr_k(err, WERR_UNSUPPORTED, 0,
		              "config.json: .linux.personality.flags: not supported by ward yet");
	return 0;
}

/* "0-3,5" → a cpu set. */
static int parse_cpus(const char *s, const char *what, cpu_set_t *set, struct werror *err)
{
	const char *p = s;

	CPU_ZERO(set);
	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b = a;

		if (end == p || a < 0)
			return werr_k(err, WERR_INVALID, 0, "%s \"%s\": not a CPU list", what, s);
		if (*end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
			if (end == p || b < a)
				return werr_k(err, WERR_INVALID, 0, "%s \"%s\": not a CPU list",
				              what, s);
		}
		if (b >= CPU_SETSIZE)
			return werr_k(err, WERR_INVALID, 0, "%s \"%s\": CPU %ld out of range", what,
			              s, b);
		for (long i = a; i <= b; i++)
			CPU_SET((int)i, set);
		p = end;
		if (*p == ',')
			p++;
		else if (*p)
			return werr_k(err, WERR_INVALID, 0, "%s \"%s\": not a CPU list", what, s);
	}
	return 0;
}

static int set_affinity(const char *cpus, const char *what, struct werror *err)
{
	cpu_set_t set;

	if (cpus == NULL || cpus[0] == '\0')
		return 0;
	if (parse_cpus(cpus, what, &set, err) < 0)
		return -1;
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		return werr(err, errno, "%s \"%s\"", what, cpus);
	return 0;
}

int attrs_initial_affinity(const struct oci_process *p, struct werror *err)
{
	return p->exec_cpu_affinity ? set_affinity(p->exec_cpu_affinity->initial,
	                                           "process.execCPUAffinity.initial", err)
	                            : 0;
}

static int policy_number(const char *name)
{
	static const struct {
		const char *name;
		int policy;
	} policies[] = {{"SCHED_OTHER", SCHED_OTHER},
	                {"SCHED_FIFO", SCHED_FIFO},
	                {"SCHED_RR", SCHED_RR},
	                {"SCHED_BATCH", SCHED_BATCH},
	                {"SCHED_ISO", 4},
	                {"SCHED_IDLE", SCHED_IDLE},
	                {"SCHED_DEADLINE", SCHED_DEADLINE}};

	for (size_t i = 0; i < sizeof(policies) / sizeof(policies[0]); i++)
		if (strcmp(name, policies[i].name) == 0)
			return policies[i].policy;
	return -1;
}

static int sched_flags(const struct oci_scheduler *s, uint64_t *flags, struct werror *err)
{
	static const struct oci_name_bit known[] = {
	    {"SCHED_FLAG_RESET_ON_FORK", SCHED_FLAG_RESET_ON_FORK},
	    {"SCHED_FLAG_RECLAIM", SCHED_FLAG_RECLAIM},
	    {"SCHED_FLAG_DL_OVERRUN", SCHED_FLAG_DL_OVERRUN},
	    {"SCHED_FLAG_KEEP_POLICY", SCHED_FLAG_KEEP_POLICY},
	    {"SCHED_FLAG_KEEP_PARAMS", SCHED_FLAG_KEEP_PARAMS},
	    {"SCHED_FLAG_UTIL_CLAMP_MIN", SCHED_FLAG_UTIL_CLAMP_MIN},
	    {"SCHED_FLAG_UTIL_CLAMP_MAX", SCHED_FLAG_UTIL_CLAMP_MAX}};

	return oci_names_to_mask(s->flags, s->n_flags, known, sizeof(known) / sizeof(known[0]),
	                         "process.scheduler.flags", flags, err);
}

int attrs_apply(const struct oci_process *p, const struct oci_linux *l, struct werror *err)
{
	if (l && l->personality) {
		unsigned long persona =
		    strcmp(l->personality->domain, "LINUX32") == 0 ? PER_LINUX32 : PER_LINUX;

		if (personality(persona) < 0)
			return werr(err, errno, "linux.personality %s", l->personality->domain);
	}
	if (p->scheduler) {
		struct ward_sched_attr attr = {.size = sizeof(attr),
		                               .sched_policy =
		                                   (uint32_t)policy_number(p->scheduler->policy),
		                               .sched_nice = p->scheduler->nice,
		                               .sched_priority = (uint32_t)p->scheduler->priority,
		                               .sched_runtime = p->scheduler->runtime,
		                               .sched_deadline = p->scheduler->deadline,
		                               .sched_period = p->scheduler->period};

		if (sched_flags(p->scheduler, &attr.sched_flags, err) < 0)
			return -1;
		if (syscall(SYS_sched_setattr, 0, &attr, 0) < 0)
			return werr(err, errno, "process.scheduler %s", p->scheduler->policy);
	}
	if (p->io_priority) {
		int klass = strcmp(p->io_priority->klass, "IOPRIO_CLASS_RT") == 0 ? IOPRIO_CLASS_RT
		            : strcmp(p->io_priority->klass, "IOPRIO_CLASS_BE") == 0
		                ? IOPRIO_CLASS_BE
		                : IOPRIO_CLASS_IDLE;

		if (syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0,
		            IOPRIO_PRIO_VALUE(klass, p->io_priority->priority)) < 0)
			return werr(err, errno, "process.ioPriority %s", p->io_priority->klass);
	}
	return 0;
}

int attrs_open_proc(const char *path, const char *what, struct werror *err)
{
	/* The root of a procfs: inode 1 of a PROC_SUPER_MAGIC filesystem. */
	struct statfs sfs;
	struct stat st;
	_cleanup_close_ int proc = -1;
	int fd;

	if (strncmp(path, "/proc/", 6) != 0)
		return werr(err, EINVAL, "%s: %s is not under /proc", what, path);
	proc = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	/* CVE-2019-16884 class: after joining a container's mount namespace its
	 * /proc is the container's; a label written into a look-alike would be
	 * silently lost. Only the real procfs is written to. */
	if (proc < 0 || fstatfs(proc, &sfs) < 0 || sfs.f_type != PROC_SUPER_MAGIC ||
	    fstat(proc, &st) < 0 || st.st_ino != 1)
		return werr(err, EPERM, "%s: /proc is not the root of a procfs", what);
	/* CVE-2025-52881 class: a bind mount over the file (say, of
	 * /proc/sys/kernel/core_pattern onto /proc/self/attr/exec) would
	 * redirect the write to another procfs file; no mount may be crossed
	 * below /proc's root. */
	fd = path_open2(proc, path + 6, O_WRONLY | O_NOFOLLOW,
	                RESOLVE_NO_XDEV | RESOLVE_NO_MAGICLINKS | RESOLVE_BENEATH);
	if (fd < 0 && errno == EXDEV)
		return werr_k(err, WERR_REFUSED, 0,
		              "%s: %s has a mount over it (refused: CVE-2025-52881 class)", what,
		              path);
	if (fd < 0)
		return werr(err, errno, "%s: %s", what, path);
	return fd;
}

static int write_attr(const char *path, const char *value, const char *what, struct werror *err)
{
	size_t len = strlen(value);
	_cleanup_close_ int fd = attrs_open_proc(path, what, err);

	if (fd < 0)
		return -1;
	if (write(fd, value, len) != (ssize_t)len)
		return werr(err, errno, "%s \"%s\"", what, value);
	return 0;
}

int attrs_before_exec(const struct oci_process *p, struct werror *err)
{
	if (p->exec_cpu_affinity &&
	    set_affinity(p->exec_cpu_affinity->final, "process.execCPUAffinity.final", err) < 0)
		return -1;
	if (p->apparmor_profile && p->apparmor_profile[0]) {
		char v[512];

		snprintf(v, sizeof(v), "exec %s", p->apparmor_profile);
		if (write_attr("/proc/self/attr/apparmor/exec", v, "process.apparmorProfile", err) <
		        0 &&
		    write_attr("/proc/self/attr/exec", v, "process.apparmorProfile", err) < 0)
			return -1;
	}
	if (p->selinux_label && p->selinux_label[0] &&
	    write_attr("/proc/self/attr/exec", p->selinux_label, "process.selinuxLabel", err) < 0)
		return -1;
	return 0;
}
