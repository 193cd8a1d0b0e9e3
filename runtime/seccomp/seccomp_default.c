/* The built-in seccomp profile, as data. Default action: ERRNO(EPERM).
 *
 * Rules are allow rules, but for the ENOSYS answers (clone3, socketcall,
 * execveat with AT_EMPTY_PATH): libseccomp lets an unconditional rule win
 * over conditional ones for the same syscall, so "ioctl except TIOCSTI" must
 * be said as "ioctl with any other command", and execveat is allowed only
 * without AT_EMPTY_PATH. Arguments the kernel truncates to
 * 32 bits (ioctl's cmd, socket's family) are matched in aligned blocks whose
 * masks also require the upper 32 bits to be zero: a value with high bits set
 * (0x1_00005412, which the kernel reads as TIOCSTI) matches no block. */
#include "seccomp/seccomp_default.h"
#include "oci/config.h"
#include "lib/error.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <yajl/yajl_gen.h>

#define S(g, s) yajl_gen_string((g), (const unsigned char *)(s), strlen(s))

/* Everything a normal program (libc, shells, interpreters, servers) uses. */
static const char *const allowed[] = {"accept",
                                      "accept4",
                                      "access",
                                      "adjtimex",
                                      "alarm",
                                      "arch_prctl",
                                      "bind",
                                      "brk",
                                      "cachestat",
                                      "capget",
                                      "capset",
                                      "chdir",
                                      "chmod",
                                      "chown",
                                      "chown32",
                                      "chroot",
                                      "clock_adjtime",
                                      "clock_adjtime64",
                                      "clock_getres",
                                      "clock_getres_time64",
                                      "clock_gettime",
                                      "clock_gettime64",
                                      "clock_nanosleep",
                                      "clock_nanosleep_time64",
                                      "close",
                                      "close_range",
                                      "connect",
                                      "copy_file_range",
                                      "creat",
                                      "dup",
                                      "dup2",
                                      "dup3",
                                      "epoll_create",
                                      "epoll_create1",
                                      "epoll_ctl",
                                      "epoll_ctl_old",
                                      "epoll_pwait",
                                      "epoll_pwait2",
                                      "epoll_wait",
                                      "epoll_wait_old",
                                      "eventfd",
                                      "eventfd2",
                                      "execve",
                                      "exit",
                                      "exit_group",
                                      "faccessat",
                                      "faccessat2",
                                      "fadvise64",
                                      "fadvise64_64",
                                      "fallocate",
                                      "fanotify_mark",
                                      "fchdir",
                                      "fchmod",
                                      "fchmodat",
                                      "fchmodat2",
                                      "fchown",
                                      "fchown32",
                                      "fchownat",
                                      "fcntl",
                                      "fcntl64",
                                      "fdatasync",
                                      "fgetxattr",
                                      "flistxattr",
                                      "flock",
                                      "fork",
                                      "fremovexattr",
                                      "fsetxattr",
                                      "fstat",
                                      "fstat64",
                                      "fstatat64",
                                      "fstatfs",
                                      "fstatfs64",
                                      "fsync",
                                      "ftruncate",
                                      "ftruncate64",
                                      "futex",
                                      "futex_requeue",
                                      "futex_time64",
                                      "futex_wait",
                                      "futex_waitv",
                                      "futex_wake",
                                      "futimesat",
                                      "get_mempolicy",
                                      "get_robust_list",
                                      "get_thread_area",
                                      "getcpu",
                                      "getcwd",
                                      "getdents",
                                      "getdents64",
                                      "getegid",
                                      "getegid32",
                                      "geteuid",
                                      "geteuid32",
                                      "getgid",
                                      "getgid32",
                                      "getgroups",
                                      "getgroups32",
                                      "getitimer",
                                      "getpeername",
                                      "getpgid",
                                      "getpgrp",
                                      "getpid",
                                      "getppid",
                                      "getpriority",
                                      "getrandom",
                                      "getresgid",
                                      "getresgid32",
                                      "getresuid",
                                      "getresuid32",
                                      "getrlimit",
                                      "getrusage",
                                      "getsid",
                                      "getsockname",
                                      "getsockopt",
                                      "gettid",
                                      "gettimeofday",
                                      "getuid",
                                      "getuid32",
                                      "getxattr",
                                      "inotify_add_watch",
                                      "inotify_init",
                                      "inotify_init1",
                                      "inotify_rm_watch",
                                      "io_cancel",
                                      "io_destroy",
                                      "io_getevents",
                                      "io_pgetevents",
                                      "io_pgetevents_time64",
                                      "io_setup",
                                      "io_submit",
                                      "ioprio_get",
                                      "ioprio_set",
                                      "ipc",
                                      "kill",
                                      "landlock_add_rule",
                                      "landlock_create_ruleset",
                                      "landlock_restrict_self",
                                      "lchown",
                                      "lchown32",
                                      "lgetxattr",
                                      "link",
                                      "linkat",
                                      "listen",
                                      "listxattr",
                                      "llistxattr",
                                      "_llseek",
                                      "lremovexattr",
                                      "lseek",
                                      "lsetxattr",
                                      "lstat",
                                      "lstat64",
                                      "madvise",
                                      "map_shadow_stack",
                                      "mbind",
                                      "membarrier",
                                      "memfd_create",
                                      "memfd_secret",
                                      "mincore",
                                      "mkdir",
                                      "mkdirat",
                                      "mknod",
                                      "mknodat",
                                      "mlock",
                                      "mlock2",
                                      "mlockall",
                                      "mmap",
                                      "mmap2",
                                      "mprotect",
                                      "mq_getsetattr",
                                      "mq_notify",
                                      "mq_open",
                                      "mq_timedreceive",
                                      "mq_timedreceive_time64",
                                      "mq_timedsend",
                                      "mq_timedsend_time64",
                                      "mq_unlink",
                                      "mremap",
                                      "msgctl",
                                      "msgget",
                                      "msgrcv",
                                      "msgsnd",
                                      "msync",
                                      "munlock",
                                      "munlockall",
                                      "munmap",
                                      "nanosleep",
                                      "newfstatat",
                                      "_newselect",
                                      "open",
                                      "openat",
                                      "openat2",
                                      "pause",
                                      "pidfd_open",
                                      "pidfd_send_signal",
                                      "pipe",
                                      "pipe2",
                                      "pkey_alloc",
                                      "pkey_free",
                                      "pkey_mprotect",
                                      "poll",
                                      "ppoll",
                                      "ppoll_time64",
                                      "prctl",
                                      "pread64",
                                      "preadv",
                                      "preadv2",
                                      "prlimit64",
                                      "process_mrelease",
                                      "pselect6",
                                      "pselect6_time64",
                                      "pwrite64",
                                      "pwritev",
                                      "pwritev2",
                                      "read",
                                      "readahead",
                                      "readlink",
                                      "readlinkat",
                                      "readv",
                                      "recv",
                                      "recvfrom",
                                      "recvmmsg",
                                      "recvmmsg_time64",
                                      "recvmsg",
                                      "remap_file_pages",
                                      "removexattr",
                                      "rename",
                                      "renameat",
                                      "renameat2",
                                      "restart_syscall",
                                      "rmdir",
                                      "rseq",
                                      "rt_sigaction",
                                      "rt_sigpending",
                                      "rt_sigprocmask",
                                      "rt_sigqueueinfo",
                                      "rt_sigreturn",
                                      "rt_sigsuspend",
                                      "rt_sigtimedwait",
                                      "rt_sigtimedwait_time64",
                                      "rt_tgsigqueueinfo",
                                      "sched_get_priority_max",
                                      "sched_get_priority_min",
                                      "sched_getaffinity",
                                      "sched_getattr",
                                      "sched_getparam",
                                      "sched_getscheduler",
                                      "sched_rr_get_interval",
                                      "sched_rr_get_interval_time64",
                                      "sched_setaffinity",
                                      "sched_setattr",
                                      "sched_setparam",
                                      "sched_setscheduler",
                                      "sched_yield",
                                      "seccomp",
                                      "select",
                                      "semctl",
                                      "semget",
                                      "semop",
                                      "semtimedop",
                                      "semtimedop_time64",
                                      "send",
                                      "sendfile",
                                      "sendfile64",
                                      "sendmmsg",
                                      "sendmsg",
                                      "sendto",
                                      "set_mempolicy",
                                      "set_robust_list",
                                      "set_thread_area",
                                      "set_tid_address",
                                      "setfsgid",
                                      "setfsgid32",
                                      "setfsuid",
                                      "setfsuid32",
                                      "setgid",
                                      "setgid32",
                                      "setgroups",
                                      "setgroups32",
                                      "setitimer",
                                      "setpgid",
                                      "setpriority",
                                      "setregid",
                                      "setregid32",
                                      "setresgid",
                                      "setresgid32",
                                      "setresuid",
                                      "setresuid32",
                                      "setreuid",
                                      "setreuid32",
                                      "setrlimit",
                                      "setsid",
                                      "setsockopt",
                                      "setuid",
                                      "setuid32",
                                      "setxattr",
                                      "shmat",
                                      "shmctl",
                                      "shmdt",
                                      "shmget",
                                      "shutdown",
                                      "sigaltstack",
                                      "signalfd",
                                      "signalfd4",
                                      "sigprocmask",
                                      "sigreturn",
                                      "socketpair",
                                      "splice",
                                      "stat",
                                      "stat64",
                                      "statfs",
                                      "statfs64",
                                      "statx",
                                      "symlink",
                                      "symlinkat",
                                      "sync",
                                      "sync_file_range",
                                      "syncfs",
                                      "sysinfo",
                                      "tee",
                                      "tgkill",
                                      "time",
                                      "timer_create",
                                      "timer_delete",
                                      "timer_getoverrun",
                                      "timer_gettime",
                                      "timer_gettime64",
                                      "timer_settime",
                                      "timer_settime64",
                                      "timerfd_create",
                                      "timerfd_gettime",
                                      "timerfd_gettime64",
                                      "timerfd_settime",
                                      "timerfd_settime64",
                                      "times",
                                      "tkill",
                                      "truncate",
                                      "truncate64",
                                      "ugetrlimit",
                                      "umask",
                                      "uname",
                                      "unlink",
                                      "unlinkat",
                                      "utime",
                                      "utimensat",
                                      "utimensat_time64",
                                      "utimes",
                                      "vfork",
                                      "vmsplice",
                                      "wait4",
                                      "waitid",
                                      "waitpid",
                                      "write",
                                      "writev",
                                      NULL};

#define LIST(...) ((const char *const[]){__VA_ARGS__, NULL})

/* Everything else gets EPERM; these are the groups that matter, and why. */
static const struct seccomp_deny_group denied[] = {
    {"kernel keyrings are not namespaced: keys of the host and of other containers",
     LIST("keyctl", "add_key", "request_key")},
    {"loading eBPF programs and perf events: kernel attack surface and host-wide "
     "observation",
     LIST("bpf", "perf_event_open")},
    {"userfaultfd makes kernel race conditions reliably exploitable", LIST("userfaultfd")},
    {"io_uring bypasses seccomp for the operations it runs and has a long CVE record",
     LIST("io_uring_setup", "io_uring_enter", "io_uring_register")},
    {"loading kernels and kernel modules",
     LIST("kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module")},
    {"changing the mount table: the container's filesystem view is fixed by the runtime",
     LIST("mount", "umount", "umount2", "fsopen", "fsconfig", "fsmount", "fspick", "move_mount",
          "open_tree", "mount_setattr", "pivot_root")},
    {"host-wide system state",
     LIST("swapon", "swapoff", "reboot", "acct", "quotactl", "quotactl_fd", "settimeofday",
          "clock_settime", "clock_settime64", "stime", "syslog", "vhangup")},
    {"entering or creating namespaces: a container stays in the ones it was given",
     LIST("unshare", "setns")},
    {"clone3 passes its flags in memory, out of seccomp's sight: ENOSYS makes libc fall "
     "back to clone, whose namespace flags the profile checks",
     LIST("clone3")},
    {"reading or writing other processes' memory and file descriptors",
     LIST("ptrace", "process_vm_readv", "process_vm_writev", "pidfd_getfd", "kcmp",
          "process_madvise", "migrate_pages", "move_pages")},
    {"file handles bypass path permission checks (the 2014 'shocker' escape)",
     LIST("open_by_handle_at", "name_to_handle_at")},
    {"obsolete or x86-legacy interfaces with a history of bugs",
     LIST("lookup_dcookie", "uselib", "vm86", "vm86old", "nfsservctl", "_sysctl", "ustat",
          "modify_ldt", "iopl", "ioperm", "create_module", "get_kernel_syms", "query_module",
          "sysfs", "bdflush")},
    {"socketcall (i386) hides socket()'s address family in memory, out of seccomp's "
     "sight, and libseccomp turns every socket rule into a socketcall rule without its "
     "argument checks: ENOSYS, so that C libraries use the direct socket syscalls (Linux "
     "4.3), whose families the profile checks; a libc that knows only socketcall (glibc "
     "built for kernels before 4.3) gets no sockets",
     LIST("socketcall")},
    {"execveat with AT_EMPTY_PATH runs whatever file an fd refers to, a memfd holding code "
     "written at run time included, and seccomp cannot tell a memfd from a file: ENOSYS, so "
     "that fexecve falls back to /proc/self/fd/N, a path the kernel checks (noexec mounts, "
     "strict's vm.memfd_noexec); execveat with a path still works",
     LIST("execveat")},
    {"only the safe personalities are allowed: 0 (Linux), 8 (PER_LINUX32), 0x20000 "
     "(UNAME26), 0x20008 and 0xffffffff (query); others change address-space layout",
     LIST("personality")},
    {"sockets: AF_VSOCK reaches the hypervisor, AF_ALG exposes kernel crypto code; every "
     "other family is allowed",
     LIST("socket")},
    {"ioctl TIOCSTI injects input into the terminal, TIOCLINUX reaches the console; every "
     "other ioctl is allowed",
     LIST("ioctl")},
    {"clone with namespace flags: a container stays in the namespaces it was given", LIST("clone")},
};

const struct seccomp_deny_group *oci_seccomp_default_denied(size_t *n)
{
	*n = sizeof(denied) / sizeof(denied[0]);
	return denied;
}

static void rule(yajl_gen g, const char *name, const char *action, int errno_ret, const char *op,
                 uint64_t index, uint64_t value, uint64_t value_two)
{
	yajl_gen_map_open(g);
	S(g, "names");
	yajl_gen_array_open(g);
	S(g, name);
	yajl_gen_array_close(g);
	S(g, "action");
	S(g, action);
	if (errno_ret >= 0) {
		S(g, "errnoRet");
		yajl_gen_integer(g, errno_ret);
	}
	if (op) {
		char num[32];

		S(g, "args");
		yajl_gen_array_open(g);
		yajl_gen_map_open(g);
		S(g, "index");
		yajl_gen_integer(g, (long long)index);
		/* uint64 values above INT64_MAX: yajl_gen_integer is signed. */
		S(g, "value");
		yajl_gen_number(
		    g, num, (size_t)snprintf(num, sizeof(num), "%llu", (unsigned long long)value));
		S(g, "valueTwo");
		yajl_gen_number(
		    g, num,
		    (size_t)snprintf(num, sizeof(num), "%llu", (unsigned long long)value_two));
		S(g, "op");
		S(g, op);
		yajl_gen_map_close(g);
		yajl_gen_array_close(g);
	}
	yajl_gen_map_close(g);
}

/* Allow name(arg index in [lo, hi]): one MASKED_EQ rule per aligned
 * power-of-two block. Only for arguments the kernel takes as 32-bit (int
 * socket family, unsigned int ioctl cmd): the upper half of the register is
 * dropped by the kernel, so the masks leave it out. That also keeps every
 * number in `ward spec` below 2^53, which jq 1.6 (Debian 12, Ubuntu 22.04)
 * would otherwise round when users edit config.json with it. */
static void allow_range(yajl_gen g, const char *name, unsigned index, uint64_t lo, uint64_t hi)
{
	while (lo <= hi) {
		uint64_t size = 1;

		while ((lo & (size * 2 - 1)) == 0 && lo + size * 2 - 1 <= hi && size < (1ULL << 32))
			size *= 2;
		rule(g, name, "SCMP_ACT_ALLOW", -1, "SCMP_CMP_MASKED_EQ", index,
		     0xffffffffULL & ~(size - 1), lo);
		lo += size;
	}
}

#define CLONE_NS_FLAGS   0x7E020000ULL /* NEWNS|NEWCGROUP|NEWUTS|NEWIPC|NEWUSER|NEWPID|NEWNET */
#define AT_EMPTY_PATH_NR 0x1000
#define AF_ALG_NR        38
#define AF_VSOCK_NR      40
#define TIOCSTI_NR       0x5412
#define TIOCLINUX_NR     0x541C

static void architectures(yajl_gen g)
{
	S(g, "architectures");
	yajl_gen_array_open(g);
#if defined(__x86_64__)
	S(g, "SCMP_ARCH_X86_64");
	S(g, "SCMP_ARCH_X86");
	S(g, "SCMP_ARCH_X32");
#elif defined(__aarch64__)
	S(g, "SCMP_ARCH_AARCH64");
	S(g, "SCMP_ARCH_ARM");
#endif
	yajl_gen_array_close(g);
}

/* The floor: what baseline stacks on an engine's allow-list. Engines'
 * profiles differ (Podman's lets unshare and keyctl through); these are
 * the syscalls no container's normal work needs and most kernel escapes
 * start from. Everything else stays as the engine's profile says. */
static const char *const floor_denied[] = {"keyctl",
                                           "add_key",
                                           "request_key",
                                           "bpf",
                                           "perf_event_open",
                                           "userfaultfd",
                                           "io_uring_setup",
                                           "io_uring_enter",
                                           "io_uring_register",
                                           "kexec_load",
                                           "kexec_file_load",
                                           "init_module",
                                           "finit_module",
                                           "delete_module",
                                           "open_by_handle_at",
                                           NULL};

#define CLONE_NEWUSER_NR 0x10000000ULL

/* The profile's opening: its default action (and errno, when >= 0), the
 * architectures, and the start of "syscalls". */
static void profile_open(yajl_gen g, const char *default_action, int default_errno)
{
	yajl_gen_map_open(g);
	S(g, "defaultAction");
	S(g, default_action);
	if (default_errno >= 0) {
		S(g, "defaultErrnoRet");
		yajl_gen_integer(g, default_errno);
	}
	architectures(g);
	S(g, "syscalls");
	yajl_gen_array_open(g);
}

/* One rule naming every syscall of names (NULL-terminated). */
static void names_rule(yajl_gen g, const char *const *names, const char *action, int errno_ret)
{
	yajl_gen_map_open(g);
	S(g, "names");
	yajl_gen_array_open(g);
	for (const char *const *n = names; *n; n++)
		S(g, *n);
	yajl_gen_array_close(g);
	S(g, "action");
	S(g, action);
	if (errno_ret >= 0) {
		S(g, "errnoRet");
		yajl_gen_integer(g, errno_ret);
	}
	yajl_gen_map_close(g);
}

static int floor_gen(yajl_gen g)
{
	profile_open(g, "SCMP_ACT_ALLOW", -1);
	names_rule(g, floor_denied, "SCMP_ACT_ERRNO", EPERM);
	/* A new user namespace: the door to the kernel code that only
	 * namespace-root may reach. clone3 hides its flags: ENOSYS, libc
	 * falls back to clone. */
	rule(g, "unshare", "SCMP_ACT_ERRNO", EPERM, "SCMP_CMP_MASKED_EQ", 0, CLONE_NEWUSER_NR,
	     CLONE_NEWUSER_NR);
	rule(g, "clone", "SCMP_ACT_ERRNO", EPERM, "SCMP_CMP_MASKED_EQ", 0, CLONE_NEWUSER_NR,
	     CLONE_NEWUSER_NR);
	rule(g, "clone3", "SCMP_ACT_ERRNO", ENOSYS, NULL, 0, 0, 0);
	yajl_gen_array_close(g);
	return yajl_gen_map_close(g) == yajl_gen_status_ok ? 0 : -1;
}

int oci_seccomp_default_gen(struct yajl_gen_t *g)
{
	static const uint64_t personalities[] = {0x0, 0x8, 0x20000, 0x20008, 0xffffffffULL};

	profile_open(g, "SCMP_ACT_ERRNO", EPERM);
	names_rule(g, allowed, "SCMP_ACT_ALLOW", -1);

	/* clone: only without namespace flags (flags are arg 0 on x86 and arm). */
	rule(g, "clone", "SCMP_ACT_ALLOW", -1, "SCMP_CMP_MASKED_EQ", 0, CLONE_NS_FLAGS, 0);
	rule(g, "clone3", "SCMP_ACT_ERRNO", ENOSYS, NULL, 0, 0, 0);
	/* Unconditional: libseccomp lets it win over the socketcall rules it
	 * derives from the socket rules below (on i386). */
	rule(g, "socketcall", "SCMP_ACT_ERRNO", ENOSYS, NULL, 0, 0, 0);
	/* execveat: flags (arg 4, an int: the upper half is not looked at). */
	rule(g, "execveat", "SCMP_ACT_ALLOW", -1, "SCMP_CMP_MASKED_EQ", 4, AT_EMPTY_PATH_NR, 0);
	rule(g, "execveat", "SCMP_ACT_ERRNO", ENOSYS, "SCMP_CMP_MASKED_EQ", 4, AT_EMPTY_PATH_NR,
	     AT_EMPTY_PATH_NR);
	for (size_t i = 0; i < sizeof(personalities) / sizeof(personalities[0]); i++)
		rule(g, "personality", "SCMP_ACT_ALLOW", -1, "SCMP_CMP_EQ", 0, personalities[i], 0);
	allow_range(g, "socket", 0, 0, AF_ALG_NR - 1);
	allow_range(g, "socket", 0, AF_ALG_NR + 1, AF_VSOCK_NR - 1);
	allow_range(g, "socket", 0, AF_VSOCK_NR + 1, 0xffffffffULL);
	allow_range(g, "ioctl", 1, 0, TIOCSTI_NR - 1);
	allow_range(g, "ioctl", 1, TIOCSTI_NR + 1, TIOCLINUX_NR - 1);
	allow_range(g, "ioctl", 1, TIOCLINUX_NR + 1, 0xffffffffULL);

	yajl_gen_array_close(g);
	return yajl_gen_map_close(g) == yajl_gen_status_ok ? 0 : -1;
}

static struct oci_seccomp *decoded(int (*gen)(yajl_gen), const char *what, struct werror *err)
{
	yajl_gen g = yajl_gen_alloc(NULL);
	const unsigned char *buf;
	struct oci_seccomp *sc = NULL;
	size_t len;

	if (g == NULL) {
		werr(err, ENOMEM, "out of memory");
		return NULL;
	}
	if (gen(g) == 0 && yajl_gen_get_buf(g, &buf, &len) == yajl_gen_status_ok)
		sc = jdecode_document(&oci_seccomp_schema, (const char *)buf, len, OCI_MAX_DEPTH,
		                      what, err);
	yajl_gen_free(g);
	return sc;
}

struct oci_seccomp *oci_seccomp_default(struct werror *err)
{
	return decoded(oci_seccomp_default_gen, "built-in seccomp profile", err);
}

struct oci_seccomp *oci_seccomp_floor(struct werror *err)
{
	return decoded(floor_gen, "seccomp floor", err);
}

const char *const *oci_seccomp_floor_denied(void)
{
	return floor_denied;
}
