#include "oci/names.h"
#include "lib/error.h"

#include <linux/capability.h>
#include <sched.h>
#include <string.h>
#include <sys/resource.h>

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

static const char *const cap_names[] = {
    "CAP_CHOWN",
    "CAP_DAC_OVERRIDE",
    "CAP_DAC_READ_SEARCH",
    "CAP_FOWNER",
    "CAP_FSETID",
    "CAP_KILL",
    "CAP_SETGID",
    "CAP_SETUID",
    "CAP_SETPCAP",
    "CAP_LINUX_IMMUTABLE",
    "CAP_NET_BIND_SERVICE",
    "CAP_NET_BROADCAST",
    "CAP_NET_ADMIN",
    "CAP_NET_RAW",
    "CAP_IPC_LOCK",
    "CAP_IPC_OWNER",
    "CAP_SYS_MODULE",
    "CAP_SYS_RAWIO",
    "CAP_SYS_CHROOT",
    "CAP_SYS_PTRACE",
    "CAP_SYS_PACCT",
    "CAP_SYS_ADMIN",
    "CAP_SYS_BOOT",
    "CAP_SYS_NICE",
    "CAP_SYS_RESOURCE",
    "CAP_SYS_TIME",
    "CAP_SYS_TTY_CONFIG",
    "CAP_MKNOD",
    "CAP_LEASE",
    "CAP_AUDIT_WRITE",
    "CAP_AUDIT_CONTROL",
    "CAP_SETFCAP",
    "CAP_MAC_OVERRIDE",
    "CAP_MAC_ADMIN",
    "CAP_SYSLOG",
    "CAP_WAKE_ALARM",
    "CAP_BLOCK_SUSPEND",
    "CAP_AUDIT_READ",
    "CAP_PERFMON",
    "CAP_BPF",
    "CAP_CHECKPOINT_RESTORE",
};

#define N_CAPS (int)(sizeof(cap_names) / sizeof(cap_names[0]))

int oci_cap_from_name(const char *name)
{
	for (int i = 0; i < N_CAPS; i++)
		if (strcmp(cap_names[i], name) == 0)
			return i;
	return -1;
}

const char *oci_cap_name(int cap)
{
	return cap >= 0 && cap < N_CAPS ? cap_names[cap] : NULL;
}

int oci_cap_last(void)
{
	return N_CAPS - 1;
}

static const struct {
	const char *name;
	int res;
} rlimits[] = {
    {"RLIMIT_AS", RLIMIT_AS},
    {"RLIMIT_CORE", RLIMIT_CORE},
    {"RLIMIT_CPU", RLIMIT_CPU},
    {"RLIMIT_DATA", RLIMIT_DATA},
    {"RLIMIT_FSIZE", RLIMIT_FSIZE},
    {"RLIMIT_LOCKS", RLIMIT_LOCKS},
    {"RLIMIT_MEMLOCK", RLIMIT_MEMLOCK},
    {"RLIMIT_MSGQUEUE", RLIMIT_MSGQUEUE},
    {"RLIMIT_NICE", RLIMIT_NICE},
    {"RLIMIT_NOFILE", RLIMIT_NOFILE},
    {"RLIMIT_NPROC", RLIMIT_NPROC},
    {"RLIMIT_RSS", RLIMIT_RSS},
    {"RLIMIT_RTPRIO", RLIMIT_RTPRIO},
    {"RLIMIT_RTTIME", RLIMIT_RTTIME},
    {"RLIMIT_SIGPENDING", RLIMIT_SIGPENDING},
    {"RLIMIT_STACK", RLIMIT_STACK},
};

int oci_rlimit_from_name(const char *name)
{
	for (size_t i = 0; i < sizeof(rlimits) / sizeof(rlimits[0]); i++)
		if (strcmp(rlimits[i].name, name) == 0)
			return rlimits[i].res;
	return -1;
}

static const struct {
	const char *type; /* runtime-spec name */
	const char *proc; /* /proc/self/ns entry */
	int flag;
} namespaces[] = {
    {"pid", "pid", CLONE_NEWPID},          {"network", "net", CLONE_NEWNET},
    {"mount", "mnt", CLONE_NEWNS},         {"ipc", "ipc", CLONE_NEWIPC},
    {"uts", "uts", CLONE_NEWUTS},          {"user", "user", CLONE_NEWUSER},
    {"cgroup", "cgroup", CLONE_NEWCGROUP}, {"time", "time", CLONE_NEWTIME},
};

int oci_ns_flag(const char *type)
{
	for (size_t i = 0; i < sizeof(namespaces) / sizeof(namespaces[0]); i++)
		if (strcmp(namespaces[i].type, type) == 0)
			return namespaces[i].flag;
	return 0;
}

const char *oci_ns_type(int flag)
{
	for (size_t i = 0; i < sizeof(namespaces) / sizeof(namespaces[0]); i++)
		if (namespaces[i].flag == flag)
			return namespaces[i].type;
	return NULL;
}

const char *oci_ns_proc_name(int flag)
{
	for (size_t i = 0; i < sizeof(namespaces) / sizeof(namespaces[0]); i++)
		if (namespaces[i].flag == flag)
			return namespaces[i].proc;
	return NULL;
}

int oci_names_to_mask(char *const *names, size_t n, const struct oci_name_bit *table,
                      size_t n_table, const char *what, uint64_t *mask, struct werror *err)
{
	*mask = 0;
	for (size_t i = 0; i < n; i++) {
		size_t k;

		for (k = 0; k < n_table; k++)
			if (strcmp(names[i], table[k].name) == 0)
				break;
		if (k == n_table)
			return werr_k(err, WERR_INVALID, 0, "%s[%zu]: unknown flag \"%s\"", what, i,
			              names[i]);
		*mask |= table[k].bit;
	}
	return 0;
}
