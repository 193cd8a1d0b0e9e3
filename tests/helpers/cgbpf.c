/* cgbpf: print how many eBPF device programs are attached to a cgroup2
 * directory (what `bpftool cgroup list` shows), to check ward's device
 * program from the tests.
 *
 *   cgbpf DIR */
#include <fcntl.h>
#include <linux/bpf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	uint32_t ids[64];
	union bpf_attr a;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: cgbpf DIR\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	memset(&a, 0, sizeof(a));
	a.query.target_fd = (uint32_t)fd;
	a.query.attach_type = BPF_CGROUP_DEVICE;
	a.query.prog_ids = (uint64_t)(uintptr_t)ids;
	a.query.prog_cnt = 64;
	if (syscall(SYS_bpf, BPF_PROG_QUERY, &a, sizeof(a)) < 0) {
		perror("BPF_PROG_QUERY");
		return 1;
	}
	printf("%u\n", a.query.prog_cnt);
	close(fd);
	return 0;
}
