/* The files of a cgroup directory, opened relative to its fd, and the
 * resource writers whose files read the same on v1 and v2. Below the
 * dispatcher (cgroup_res.c) and the v1/v2 writers; calls none of them. */
#ifndef WARD_CG_FILES_H
#define WARD_CG_FILES_H

#include "lib/error.h"

#include "cgroup/cg_hier.h"
#include "oci/config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* What a writer gets: the hierarchy serving its controller (with the
 * container's directory in it) and the resources (plus linux.devices for
 * the device rules every container needs). */
struct cg_res {
	const struct cg_hier *h;
	const struct oci_resources *r;
	const struct oci_linux *l;
};

/* openat(dfd, file) with O_NOFOLLOW | O_CLOEXEC added to flags. */
int cg_openat(int dfd, const char *file, int flags);
/* Write value to file in the directory dfd, which messages call dname. */
int cg_write_at(int dfd, const char *dname, const char *file, const char *value,
                struct werror *err);
/* Read file in dfd into buf (NUL-terminated); -1 if it cannot be read. */
int cg_read_at(int dfd, const char *file, char *buf, size_t len, struct werror *err);

/* The same in the container's directory of a hierarchy; one that could
 * not be opened fails with the reason it could not. */
int cg_open(const struct cg_hier *h, const char *file, int flags);
int cg_write(const struct cg_hier *h, const char *file, const char *value, struct werror *err);
int cg_read(const struct cg_hier *h, const char *file, char *buf, size_t len, struct werror *err);

/* /proc/PID/cgroup into buf (NUL-terminated); false if unreadable. */
bool cg_proc_cgroup(pid_t pid, char *buf, size_t len, struct werror *err);
/* PID's cgroup2 path (the "0::" line of /proc/PID/cgroup): false if none. */
bool cgroup_v2_path_of(pid_t pid, char *out, size_t len, struct werror *err);
void cg_sleep_ms(int ms);
/* Kill and reap the process holding a systemd scope open (*holder > 0);
 * *holder is 0 afterwards. */
void cg_holder_end(pid_t *holder);
/* Does the cgroup2 directory of h hold no process, below it included,
 * within ms milliseconds? */
bool cg_settles_empty(const struct cg_hier *h, int ms, struct werror *err);

int cg_write_i64(const struct cg_res *x, const char *file, int64_t v, struct werror *err);
/* "max" for a negative value (cgroup2's "no limit"). */
int cg_write_max(const struct cg_res *x, const char *file, int64_t v, struct werror *err);

/* Files that read the same on v1 and v2. */
int cg_cpuset(const struct cg_res *x, struct werror *err);
int cg_pids(const struct cg_res *x, struct werror *err);
int cg_rdma(const struct cg_res *x, struct werror *err);
/* hugetlb.<size>.<suffix>: "limit_in_bytes" on v1, "max" on v2. */
int cg_hugetlb(const struct cg_res *x, const char *suffix, struct werror *err);

#endif
