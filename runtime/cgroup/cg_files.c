/* The files of a cgroup directory, through its fd; and the resource
 * writers whose files read the same on v1 and v2. */
#include "cgroup/cg_files.h"
#include "lib/fileio.h"
#include "lib/cleanup.h"
#include "lib/error.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int cg_openat(int dfd, const char *file, int flags)
{
	return openat(dfd, file, flags | O_NOFOLLOW | O_CLOEXEC);
}

int cg_write_at(int dfd, const char *dname, const char *file, const char *value, struct werror *err)
{
	size_t len = strlen(value);
	_cleanup_close_ int fd = cg_openat(dfd, file, O_WRONLY);

	if (fd < 0)
		return werr(err, errno, "%s/%s", dname, file);
	if (write(fd, value, len) != (ssize_t)len)
		return werr(err, errno, "writing \"%s\" to %s/%s", value, dname, file);
	return 0;
}

int cg_read_at(int dfd, const char *file, char *buf, size_t len, struct werror *err)
{
	_cleanup_close_ int fd = cg_openat(dfd, file, O_RDONLY);

	if (fd < 0)
		return -1;
	/* Whole or an error: a value cut at the buffer would read as another. */
	return read_fd_into(fd, file, buf, len, NULL, err);
}

int cg_open(const struct cg_hier *h, const char *file, int flags)
{
	if (h->fd < 0) {
		errno = h->err ? h->err : EBADF;
		return -1;
	}
	return cg_openat(h->fd, file, flags);
}

int cg_write(const struct cg_hier *h, const char *file, const char *value, struct werror *err)
{
	if (h->fd < 0)
		return werr(err, h->err ? h->err : EBADF, "%s/%s", h->name, file);
	return cg_write_at(h->fd, h->name, file, value, err);
}

int cg_read(const struct cg_hier *h, const char *file, char *buf, size_t len, struct werror *err)
{
	return h->fd < 0 ? -1 : cg_read_at(h->fd, file, buf, len, err);
}

int cg_write_i64(const struct cg_res *x, const char *file, int64_t v, struct werror *err)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	return cg_write(x->h, file, buf, err);
}

int cg_write_max(const struct cg_res *x, const char *file, int64_t v, struct werror *err)
{
	return v < 0 ? cg_write(x->h, file, "max", err) : cg_write_i64(x, file, v, err);
}

/* cpuset files read the same on v1 and v2. */
int cg_cpuset(const struct cg_res *x, struct werror *err)
{
	const struct oci_cpu *c = x->r->cpu;

	if (c->cpus && c->cpus[0] && cg_write(x->h, "cpuset.cpus", c->cpus, err) < 0)
		return werr_ctx(err, "linux.resources.cpu.cpus");
	if (c->mems && c->mems[0] && cg_write(x->h, "cpuset.mems", c->mems, err) < 0)
		return werr_ctx(err, "linux.resources.cpu.mems");
	return 0;
}

int cg_pids(const struct cg_res *x, struct werror *err)
{
	if (cg_write_max(x, "pids.max", x->r->pids->limit > 0 ? x->r->pids->limit : -1, err) < 0)
		return werr_ctx(err, "linux.resources.pids.limit");
	return 0;
}

/* hugetlb.<size>.limit_in_bytes on v1, hugetlb.<size>.max on v2. */
int cg_hugetlb(const struct cg_res *x, const char *suffix, struct werror *err)
{
	for (size_t i = 0; i < x->r->n_hugepage_limits; i++) {
		const struct oci_hugepage_limit *h = &x->r->hugepage_limits[i];
		char file[64];

		snprintf(file, sizeof(file), "hugetlb.%s.%s", h->page_size, suffix);
		if (cg_write_i64(x, file, (int64_t)h->limit, err) < 0)
			return werr_ctx(err, "linux.resources.hugepageLimits[%zu]", i);
	}
	return 0;
}

/* rdma.max reads the same on v1 and v2. */
int cg_rdma(const struct cg_res *x, struct werror *err)
{
	for (size_t i = 0; i < x->r->n_rdma; i++) {
		const struct oci_rdma *d = &x->r->rdma[i];
		char line[160], h[32] = "", o[32] = "";

		if (d->has_hca_handles)
			snprintf(h, sizeof(h), " hca_handle=%u", d->hca_handles);
		if (d->has_hca_objects)
			snprintf(o, sizeof(o), " hca_object=%u", d->hca_objects);
		snprintf(line, sizeof(line), "%s%s%s", d->device, h, o);
		if (cg_write(x->h, "rdma.max", line, err) < 0)
			return werr_ctx(err, "linux.resources.rdma.%s", d->device);
	}
	return 0;
}

bool cg_proc_cgroup(pid_t pid, char *buf, size_t len, struct werror *err)
{
	char f[64];
	ssize_t n;
	_cleanup_close_ int fd = -1;

	snprintf(f, sizeof(f), "/proc/%d/cgroup", (int)pid);
	if ((fd = open(f, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	n = read_fd_into(fd, f, buf, len, NULL, err) == 0 ? (ssize_t)strlen(buf) : -1;
	return n > 0;
}

bool cgroup_v2_path_of(pid_t pid, char *out, size_t len, struct werror *err)
{
	char buf[8192], *p;

	if (!cg_proc_cgroup(pid, buf, sizeof(buf), err))
		return false;
	p = strncmp(buf, "0::", 3) == 0 ? buf : strstr(buf, "\n0::");
	if (p == NULL)
		return false;
	p += p == buf ? 3 : 4;
	p[strcspn(p, "\n")] = '\0';
	if (p[0] != '/' || strlen(p) >= len)
		return false;
	strcpy(out, p);
	return true;
}

void cg_sleep_ms(int ms)
{
	struct timespec ts = {0, (long)ms * 1000000L};

	nanosleep(&ts, NULL);
}

bool cg_settles_empty(const struct cg_hier *h, int ms, struct werror *err)
{
	char ev[256];

	for (int i = 0; h && h->fd >= 0 && i <= ms / 20; i++) {
		if (cg_read(h, "cgroup.events", ev, sizeof(ev), err) < 0)
			return false;
		if (strstr(ev, "populated 0"))
			return true;
		cg_sleep_ms(20);
	}
	return false;
}

void cg_holder_end(pid_t *holder)
{
	if (*holder > 0) {
		kill(*holder, SIGKILL);
		while (waitpid(*holder, NULL, 0) < 0 && errno == EINTR)
			;
	}
	*holder = 0;
}
