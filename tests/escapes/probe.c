/* esc-probe: the escape catalogue's prober, run inside a container (built
 * static by the catalogue, copied into the image as /bin/esc-probe).
 *
 *   esc-probe reach SECS   CVE-2016-9962: for SECS seconds, every process
 *       the container can see is tried: /proc/P/exe, fd/, fd/N, environ, mem,
 *       root, cwd, and PTRACE_SEIZE. A process whose exe names ward (or a
 *       memfd) and that is open to us, or one whose exe is closed to us (ward
 *       before its execve, not dumpable) but with any other entry open, is an
 *       escape. Counts the closed ones ("denied": ward caught in its window).
 *   esc-probe write SECS   CVE-2019-5736: every process's exe is opened
 *       read-only and held; one that is not the image's busybox and not a
 *       memfd sealed against writes is an escape (the runtime's binary,
 *       writable once it exits), and so is any write through a held fd,
 *       retried until SECS have passed (the binary's ETXTBSY ends with it).
 *
 * Every finding is one line starting ESCAPED, written as it happens (the
 * output is a file on a volume: the container may die under us). The last
 * line: PROBE-DONE seen=N denied=N held=N. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef F_GET_SEALS
#define F_GET_SEALS 1034
#endif
#ifndef F_SEAL_WRITE
#define F_SEAL_WRITE 0x0008
#endif

static char seen[1 << 16], reported[1 << 16];
static long n_seen, n_denied, n_held;
static struct {
	int fd;
	int pid;
} held[256];
static struct stat busybox, self_exe;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char b[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b, sizeof(b) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(b) - 2)
		n = sizeof(b) - 2;
	b[n++] = '\n';
	if (write(1, b, n) < 0)
		_exit(3);
}

static int is_wardish(const char *l)
{
	return strstr(l, "ward") || strstr(l, "memfd");
}

/* What of /proc/P is open to us: a space-separated list. */
static void open_entries(int pid, char *out, size_t len)
{
	char p[64], l[PATH_MAX];
	int fd;
	DIR *d;

	out[0] = '\0';
	snprintf(p, sizeof(p), "/proc/%d/environ", pid);
	if ((fd = open(p, O_RDONLY)) >= 0) {
		if (read(fd, l, 1) >= 0)
			strncat(out, " environ", len - strlen(out) - 1);
		close(fd);
	}
	snprintf(p, sizeof(p), "/proc/%d/mem", pid);
	if ((fd = open(p, O_RDONLY)) >= 0) {
		strncat(out, " mem", len - strlen(out) - 1);
		close(fd);
	}
	snprintf(p, sizeof(p), "/proc/%d/root", pid);
	if (readlink(p, l, sizeof(l)) >= 0)
		strncat(out, " root", len - strlen(out) - 1);
	snprintf(p, sizeof(p), "/proc/%d/cwd", pid);
	if (readlink(p, l, sizeof(l)) >= 0)
		strncat(out, " cwd", len - strlen(out) - 1);
	snprintf(p, sizeof(p), "/proc/%d/fd", pid);
	if ((d = opendir(p))) {
		struct dirent *e;

		/* (the fd numbers are listed to anyone: what they are is not) */
		while ((e = readdir(d))) {
			char q[300];

			if (e->d_name[0] == '.')
				continue;
			snprintf(q, sizeof(q), "/proc/%d/fd/%s", pid, e->d_name);
			if ((fd = open(q, O_PATH)) >= 0) {
				snprintf(q, sizeof(q), " fd/%s", e->d_name);
				strncat(out, q, len - strlen(out) - 1);
				close(fd);
			}
		}
		closedir(d);
	}
	if (ptrace(PTRACE_SEIZE, pid, 0, 0) == 0) {
		strncat(out, " ptrace", len - strlen(out) - 1);
		ptrace(PTRACE_DETACH, pid, 0, 0);
	}
}

static void reach(int pid)
{
	char p[64], l[PATH_MAX], what[2048];
	ssize_t n;

	snprintf(p, sizeof(p), "/proc/%d/exe", pid);
	n = readlink(p, l, sizeof(l) - 1);
	if (n < 0 && errno != EACCES && errno != EPERM)
		return; /* gone, or a kernel thread */
	if (n >= 0) {
		l[n] = '\0';
		if (!is_wardish(l))
			return; /* a process of the container's own, after its execve */
		if (reported[pid & 0xffff]++)
			return; /* (once per process) */
		open_entries(pid, what, sizeof(what));
		say("ESCAPED: pid %d (exe %s) is open to the container:%s", pid, l, what);
		return;
	}
	if (!seen[pid & 0xffff]) {
		seen[pid & 0xffff] = 1;
		n_denied++;
	}
	open_entries(pid, what, sizeof(what));
	if (!what[0])
		return;
	/* Still closed (not a process that has meanwhile become the
	 * container's program by its execve, which opens it to us)? */
	n = readlink(p, l, sizeof(l) - 1);
	if (n >= 0) {
		l[n] = '\0';
		if (!is_wardish(l))
			return;
	} else if (errno != EACCES && errno != EPERM) {
		return;
	}
	if (!reported[pid & 0xffff]++)
		say("ESCAPED: pid %d's exe is closed (ward before its execve) but not:%s", pid, what);
}

static void hold(int pid)
{
	char p[64], l[PATH_MAX] = "?";
	struct stat st;
	int fd, seals;
	ssize_t n;

	if (seen[pid & 0xffff] || n_held >= 256)
		return;
	snprintf(p, sizeof(p), "/proc/%d/exe", pid);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (fstat(fd, &st) < 0 || (st.st_dev == busybox.st_dev && st.st_ino == busybox.st_ino) ||
	    (st.st_dev == self_exe.st_dev && st.st_ino == self_exe.st_ino)) {
		close(fd);
		return;
	}
	seen[pid & 0xffff] = 1;
	if ((n = readlink(p, l, sizeof(l) - 1)) >= 0)
		l[n] = '\0';
	seals = fcntl(fd, F_GET_SEALS);
	if (seals < 0 || !(seals & F_SEAL_WRITE))
		say("ESCAPED: pid %d's exe %s is a file not sealed against writes (seals %d, %lld bytes)", pid, l,
		    seals, (long long)st.st_size);
	else
		say("held: pid %d's exe %s (seals %d)", pid, l, seals);
	held[n_held].fd = fd;
	held[n_held].pid = pid;
	n_held++;
}

static void try_writes(void)
{
	for (long i = 0; i < n_held; i++) {
		char p[64];
		int fd;

		if (held[i].fd < 0)
			continue;
		snprintf(p, sizeof(p), "/proc/self/fd/%d", held[i].fd);
		fd = open(p, O_WRONLY | O_APPEND | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (write(fd, "#", 1) == 1) {
			say("ESCAPED: wrote into pid %d's exe", held[i].pid);
			close(held[i].fd);
			held[i].fd = -1;
		}
		close(fd);
	}
}

int main(int argc, char **argv)
{
	struct timespec t0, t;
	int mode_write;
	double secs;

	if (argc < 3)
		return 2;
	mode_write = !strcmp(argv[1], "write");
	secs = atof(argv[2]);
	if (stat("/bin/busybox", &busybox) < 0 || stat("/proc/self/exe", &self_exe) < 0)
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		DIR *d = opendir("/proc");
		struct dirent *e;

		if (!d)
			return 2;
		while ((e = readdir(d))) {
			int pid = atoi(e->d_name);

			if (pid <= 0 || pid == getpid())
				continue;
			n_seen++;
			if (mode_write)
				hold(pid);
			else
				reach(pid);
		}
		closedir(d);
		if (mode_write)
			try_writes();
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
	say("PROBE-DONE seen=%ld denied=%ld held=%ld", n_seen, n_denied, n_held);
	return 0;
}
