/* sysprobe: make one system call and say what happened. Built static and
 * copied into test containers to check seccomp filters from the inside.
 *
 *   sysprobe [i386|x32] NAME|NUMBER [ARG...]
 *
 * NAME is resolved with libseccomp for the chosen ABI: native (default),
 * i386 (through int 0x80) or x32 (the x32 bit on the x86-64 number). ARGs
 * are numbers (0x... accepted) or @TEXT for a pointer to TEXT. Prints "ok N"
 * or "errno N"; a syscall killed by the filter shows as the signal. */
#include <errno.h>
#include <seccomp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long arg_value(const char *s)
{
	if (s[0] == '@')
		return (long)(uintptr_t)(s + 1);
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

int main(int argc, char **argv)
{
	uint32_t arch = SCMP_ARCH_NATIVE;
	long args[6] = {0};
	long nr, ret;
	int i = 1;

	if (argc > 1 && (strcmp(argv[1], "i386") == 0 || strcmp(argv[1], "x32") == 0)) {
		arch = strcmp(argv[1], "i386") == 0 ? SCMP_ARCH_X86 : SCMP_ARCH_X32;
		i++;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: sysprobe [i386|x32] NAME|NUMBER [ARG...]\n");
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
		args[k] = arg_value(argv[i + 1 + k]);
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
	if (ret < 0)
		printf("errno %d\n", errno);
	else
		printf("ok %ld\n", ret);
	return 0;
}
