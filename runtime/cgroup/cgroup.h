/* cgroups on v1, v2 and hybrid hosts. The container has one cgroup path,
 * the same in every hierarchy: each v1 controller hierarchy ward finds
 * mounted under /sys/fs/cgroup, and the cgroup2 one (/sys/fs/cgroup itself,
 * or /sys/fs/cgroup/unified on hybrid hosts). Resources go to the v1
 * controllers on v1 and hybrid hosts, to cgroup2 on pure v2 ones. */
#ifndef WARD_CGROUP_H
#define WARD_CGROUP_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

#include "oci/config.h"

enum cg_layout { CG_V1, CG_V2, CG_HYBRID };

#define CG_MAX_V1 16

struct cgroup {
	enum cg_layout layout;
	char path[PATH_MAX]; /* "/ward/<id>" or cgroupsPath, normalised */
	struct {
		char dir[PATH_MAX]; /* mount point of the hierarchy */
		char opts[256];     /* its controllers ("cpu,cpuacct", "name=systemd") */
	} v1[CG_MAX_V1];
	size_t n_v1;
	char unified[PATH_MAX]; /* cgroup2 mount point, "" if none */
	/* Per hierarchy (v1 ones, then cgroup2): how many leading levels of
	 * path were there before create; destroy removes the deeper ones
	 * (and always the leaf). */
	unsigned kept[CG_MAX_V1 + 1];
};

/* Find the hierarchies and compute the path (cgroupsPath or the default). */
int cgroup_init(struct cgroup *cg, const char *cgroups_path, const char *id);
/* Make the cgroup in every hierarchy (joining an existing one only if it
 * has no process and is not frozen). */
int cgroup_create(struct cgroup *cg);
/* An O_PATH fd of the cgroup2 directory for clone3(CLONE_INTO_CGROUP), or
 * -1 when there is no cgroup2 hierarchy. */
int cgroup_unified_fd(const struct cgroup *cg);
/* Write pid into every v1 hierarchy (and cgroup2 when !in_unified). */
int cgroup_add_pid(const struct cgroup *cg, pid_t pid, bool in_unified);
/* linux.resources (and, with device rules, the devices every container
 * needs: the default nodes and linux.devices). */
int cgroup_apply(const struct cgroup *cg, const struct oci_linux *l);
/* Every process of the cgroup (the caller frees *pids). */
int cgroup_pids(const struct cgroup *cg, pid_t **pids, size_t *n);
int cgroup_signal_all(const struct cgroup *cg, int sig);
int cgroup_freeze(const struct cgroup *cg, bool freeze);
bool cgroup_is_frozen(const struct cgroup *cg);
/* "path\n" then "kept dir\n" per hierarchy, to keep in the state dir;
 * and back. */
void cgroup_record(const struct cgroup *cg, char *buf, size_t len);
int cgroup_from_record(struct cgroup *cg, const char *rec, const char *id);
/* Kill what is left and remove the cgroup, and the parents create made,
 * from every hierarchy. */
int cgroup_destroy(const struct cgroup *cg);

/* Shared with the resource writers. */
int cg_write(const char *dir, const char *path, const char *file, const char *value);
/* Read dir+path/file into buf (NUL-terminated); -1 if it cannot be read. */
int cg_read(const char *dir, const char *path, const char *file, char *buf, size_t len);
const char *cg_v1_dir(const struct cgroup *cg, const char *controller);
/* The hierarchy serving a controller: its v1 one (v1, hybrid hosts), else
 * cgroup2 (pure v2 hosts, or a hybrid host's unified hierarchy when it runs
 * v2name); NULL if none. */
const char *cg_controller_dir(const struct cgroup *cg, const char *v1name, const char *v2name,
                              bool *is_v2);

#endif
