#include "supervisor/sup_notify.h"
#include "lib/cleanup.h"
#include "lib/error.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define X32_SYSCALL_BIT 0x40000000

/* The kernel's AUDIT_ARCH_* are libseccomp's SCMP_ARCH_* tokens; x32
 * calls arrive as x86-64 ones with the x32 bit in the number. */
static const char *arch_name(uint32_t arch, int nr, uint32_t *token)
{
	*token = arch;
	switch (arch) {
	case AUDIT_ARCH_X86_64:
		if (nr & X32_SYSCALL_BIT) {
			*token = SCMP_ARCH_X32;
			return "x32";
		}
		return "x86_64";
	case AUDIT_ARCH_I386:
		return "x86";
	case AUDIT_ARCH_AARCH64:
		return "aarch64";
	case AUDIT_ARCH_ARM:
		return "arm";
	default:
		return "other";
	}
}

static void count(struct denied_log *log, const char *name)
{
	for (size_t i = 0; i < log->n_counts; i++)
		if (strcmp(log->counts[i].syscall, name) == 0) {
			log->counts[i].count++;
			return;
		}
	if (log->n_counts == DENIED_NAMES_MAX) {
		log->uncounted++;
		return;
	}
	snprintf(log->counts[log->n_counts].syscall, sizeof(log->counts[0].syscall), "%s", name);
	log->counts[log->n_counts++].count = 1;
}

/* /proc/PID/comm while the caller still waits for the answer (the name is
 * the caller's to choose: it is only ever printed escaped). */
static void comm_of(pid_t pid, char out[16])
{
	char path[32];
	ssize_t n;
	_cleanup_close_ int fd = -1;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	snprintf(out, 16, "?");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, out, 15);
	if (n <= 0) {
		snprintf(out, 16, "?");
		return;
	}
	out[n] = '\0';
	out[strcspn(out, "\n")] = '\0';
}

/* Printable ASCII as is, every other byte (invalid UTF-8, controls,
 * a character the kernel cut at 15 bytes) as \xNN. */
static void printable(const char *in, char *out, size_t len)
{
	size_t o = 0;

	for (; *in && o + 5 < len; in++) {
		unsigned char c = (unsigned char)*in;

		if (c >= 0x20 && c < 0x7f && c != '\\')
			out[o++] = (char)c;
		else
			o += (size_t)snprintf(out + o, len - o, "\\x%02x", c);
	}
	out[o] = '\0';
}

static void record(struct denied_log *log, const struct seccomp_notif *req)
{
	uint32_t token;
	const char *arch = arch_name(req->data.arch, req->data.nr, &token);
	char *name = seccomp_syscall_resolve_num_arch(token, req->data.nr);
	char fallback[32];

	if (name == NULL)
		snprintf(fallback, sizeof(fallback), "syscall %d", req->data.nr);
	log->total++;
	count(log, name ? name : fallback);
	if (log->n_first < DENIED_FIRST_MAX) {
		struct denied_event *e = &log->first[log->n_first++];

		char raw[16];

		e->pid = (pid_t)req->pid;
		comm_of(e->pid, raw);
		printable(raw, e->comm, sizeof(e->comm));
		snprintf(e->syscall, sizeof(e->syscall), "%s", name ? name : fallback);
		snprintf(e->arch, sizeof(e->arch), "%s", arch);
		memcpy(e->args, req->data.args, sizeof(e->args));
	}
	free(name);
}

int sup_notify_handle(int fd, int errno_ret, struct denied_log *log, struct werror *err)
{
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;

	/* The raw ioctls: libseccomp 2.5 folds every error into ECANCELED,
	 * where a caller that died meanwhile (ENOENT) must not end the loop. */
	memset(&req, 0, sizeof(req));
	if (ioctl(fd, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0) {
		if (errno == ENOENT || errno == EINTR)
			return 1;
		return werr(err, errno, "reading a seccomp notification");
	}
	/* Recorded only if the caller still waits: then its pid (and comm) are
	 * the caller's, not a recycled pid's. */
	if (log && ioctl(fd, SECCOMP_IOCTL_NOTIF_ID_VALID, &req.id) == 0)
		record(log, &req);
	memset(&resp, 0, sizeof(resp));
	resp.id = req.id;
	/* As the kernel clamps SECCOMP_RET_ERRNO: above 4095 a "negative
	 * return" would read as a success. */
	resp.error = -(errno_ret < 0 ? 0 : errno_ret > 4095 ? 4095 : errno_ret);
	if (ioctl(fd, SECCOMP_IOCTL_NOTIF_SEND, &resp) < 0 && errno != ENOENT)
		return werr(err, errno, "answering a seccomp notification");
	return 1;
}
