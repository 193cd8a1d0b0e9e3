/* sysprobe: make one system call and say what happened. Built static and
 * copied into test containers to check seccomp filters from the inside.
 *
 *   sysprobe [repeat N] [i386|x32] NAME|NUMBER [ARG...]
 *   sysprobe memfd-exec FILE
 *
 * NAME is resolved with libseccomp for the chosen ABI: native (default),
 * i386 (through int 0x80) or x32 (the x32 bit on the x86-64 number). ARGs
 * are numbers (0x... accepted), @TEXT for a pointer to TEXT, or [N,N,...]
 * for a pointer to an array of the ABI's longs (socketcall's arguments).
 * Pointers for i386 point below 4 GiB, where a 32-bit process could reach.
 * Prints "ok N" or "errno N"; a syscall killed by the filter shows as the
 * signal.
 *
 * repeat N makes the call N times (the last result is printed): the cost of
 * a denied call, in tests/bench/supervisor.sh.
 *
 * memfd-exec copies FILE (an ELF, e.g. /bin/busybox) into a memfd and
 * tries to run it, the way code written at run time would: fexecve's
 * execveat(fd, "", AT_EMPTY_PATH), then execve("/proc/self/fd/N"), each in
 * a child (a success prints "ran"). One line per step. */
#include <errno.h>
#include <fcntl.h>
#include <seccomp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U
#endif

/* Memory a 32-bit process could address (i386's pointers are 32 bits). */
static char *low_mem(size_t size)
{
	static char *base;
	static size_t used;

	if (base == NULL) {
		int flags = MAP_PRIVATE | MAP_ANONYMOUS;
#if defined(__x86_64__)
		flags |= MAP_32BIT;
#endif
		base = mmap(NULL, 65536, PROT_READ | PROT_WRITE, flags, -1, 0);
		if (base == MAP_FAILED) {
			perror("sysprobe: mmap");
			exit(2);
		}
	}
	if (used + size > 65536) {
		fprintf(stderr, "sysprobe: arguments too large\n");
		exit(2);
	}
	used += (size + 15) & ~(size_t)15;
	return base + used - ((size + 15) & ~(size_t)15);
}

static long arg_value(const char *s, int word)
{
	if (s[0] == '@') {
		char *p = low_mem(strlen(s));

		memcpy(p, s + 1, strlen(s));
		return (long)(uintptr_t)p;
	}
	if (s[0] == '[') {
		char *p = low_mem(6 * 8);
		const char *q = s + 1;

		for (int k = 0; k < 6 && *q && *q != ']'; k++) {
			char *end;
			unsigned long long v = strtoull(q, &end, 0);

			if (word == 4) {
				uint32_t w = (uint32_t)v;

				memcpy(p + k * 4, &w, 4);
			} else {
				memcpy(p + k * 8, &v, 8);
			}
			q = *end == ',' ? end + 1 : end;
		}
		return (long)(uintptr_t)p;
	}
	return (long)strtoull(s, NULL, 0);
}

#if defined(__x86_64__)
static long int80(long nr, const long *a)
{
	long ret;

	/* The i386 entry: ebx, ecx, edx, esi, edi, ebp carry the arguments. */
	__asm__ volatile("push %%rbp\n\tmov %7, %%rbp\n\tint $0x80\n\tpop %%rbp"
	                 : "=a"(ret)
	                 : "a"(nr), "b"(a[0]), "c"(a[1]), "d"(a[2]), "S"(a[3]), "D"(a[4]), "g"(a[5])
	                 : "memory");
	return ret;
}
#endif

static void report(const char *what, long ret)
{
	if (ret < 0)
		printf("%s errno %d\n", what, errno);
	else
		printf("%s ok\n", what);
	fflush(stdout);
}

/* Run the memfd in a child by one of the two ways; "ran" if it did. */
static void try_exec(int fd, bool at_empty_path)
{
	char *const argv[] = {"echo", "ran", NULL};
	char *const envp[] = {NULL};
	const char *what = at_empty_path ? "execveat(AT_EMPTY_PATH)" : "execve(/proc/self/fd)";
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		char path[64];

		if (at_empty_path) {
			syscall(SYS_execveat, fd, "", argv, envp, AT_EMPTY_PATH);
		} else {
			snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
			execve(path, argv, envp);
		}
		printf("%s errno %d\n", what, errno);
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, &st, 0);
}

static int memfd_exec(const char *file)
{
	char buf[65536];
	ssize_t n;
	int in = open(file, O_RDONLY | O_CLOEXEC);
	int fd = (int)syscall(SYS_memfd_create, "probe", 0);
	int xfd = (int)syscall(SYS_memfd_create, "probe-x", MFD_EXEC);

	if (in < 0) {
		perror(file);
		return 2;
	}
	report("memfd_create", fd);
	report("memfd_create(MFD_EXEC)", xfd);
	if (fd < 0)
		return 0;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(fd, buf, (size_t)n) != n) {
			perror("sysprobe: writing the memfd");
			return 2;
		}
	report("fchmod(0755)", fchmod(fd, 0755));
	try_exec(fd, true);
	try_exec(fd, false);
	return 0;
}

int main(int argc, char **argv)
{
	uint32_t arch = SCMP_ARCH_NATIVE;
	long args[6] = {0};
	long nr, ret, repeat = 1;
	int i = 1;

	if (argc == 3 && strcmp(argv[1], "memfd-exec") == 0)
		return memfd_exec(argv[2]);
	if (argc > 3 && strcmp(argv[1], "repeat") == 0) {
		repeat = strtol(argv[2], NULL, 10);
		i += 2;
	}
	if (argc > i && (strcmp(argv[i], "i386") == 0 || strcmp(argv[i], "x32") == 0)) {
		arch = strcmp(argv[i], "i386") == 0 ? SCMP_ARCH_X86 : SCMP_ARCH_X32;
		i++;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: sysprobe [repeat N] [i386|x32] NAME|NUMBER [ARG...]\n"
		                "       sysprobe memfd-exec FILE\n");
		return 2;
	}
	if (argv[i][0] >= '0' && argv[i][0] <= '9')
		nr = strtol(argv[i], NULL, 0);
	else
		nr = seccomp_syscall_resolve_name_arch(arch, argv[i]);
	if (nr < 0) {
		fprintf(stderr, "sysprobe: no syscall %s on this ABI\n", argv[i]);
		return 2;
	}
	for (int k = 0; k < 6 && i + 1 + k < argc; k++)
		args[k] = arg_value(argv[i + 1 + k], arch == SCMP_ARCH_X86 ? 4 : 8);
	do {
		errno = 0;
#if defined(__x86_64__)
		if (arch == SCMP_ARCH_X86) {
			ret = int80(nr, args);
			if (ret < 0 && ret > -4096) {
				errno = (int)-ret;
				ret = -1;
			}
		} else
#endif
			ret = syscall(nr, args[0], args[1], args[2], args[3], args[4], args[5]);
	} while (--repeat > 0);
	if (ret < 0)
		printf("errno %d\n", errno);
	else
		printf("ok %ld\n", ret);
	return 0;
}
