/* cgroups on v1, v2 and hybrid hosts. The container has one cgroup path,
 * the same in every hierarchy: each v1 controller hierarchy ward finds
 * mounted under /sys/fs/cgroup, and the cgroup2 one (/sys/fs/cgroup itself,
 * or /sys/fs/cgroup/unified on hybrid hosts). Resources go to the v1
 * controllers on v1 and hybrid hosts, to cgroup2 on pure v2 ones.
 *
 * The handle holds, per hierarchy, an fd of the container's cgroup
 * directory, opened once (by cgroup_create, cgroup_open or
 * cgroup_from_record); its files are opened relative to it. */
#ifndef WARD_CGROUP_H
#define WARD_CGROUP_H

#include "lib/error.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "cgroup/cg_hier.h"
#include "oci/config.h"

enum cg_layout { CG_V1, CG_V2, CG_HYBRID };

#define CG_MAX_V1 16

/* How deep ward walks below the container's cgroup (listing its processes,
 * removing it): the container may make sub-cgroups (runc's tests do);
 * a deeper tree is an error, reported, never silently cut. Each level
 * holds a directory fd or two. */
#define CG_MAX_SUBTREE_DEPTH 256

struct cgroup {
	enum cg_layout layout;
	char *path;         /* "/ward/<id>" or cgroupsPath, normalised */
	struct cg_hier *v1; /* the v1 hierarchies */
	size_t n_v1;
	struct cg_hier *unified; /* the cgroup2 one, NULL if none */
	bool shared;             /* joined while others' processes lived there (compat) */
	/* The systemd driver (cg_systemd.h): the scope unit and its slice,
	 * NULL with cgroupfs; the process that holds the scope open until the
	 * init is in it (0: none). */
	char *unit, *slice;
	pid_t holder;
	/* Identity: the inode of the leaf directory in the main hierarchy
	 * (cgroup ids are never reused while the host runs), recorded by
	 * create; a record whose directory is now another one (a scope systemd
	 * collected, the name taken since) is stale: nothing is done to it.
	 * pending: recorded before the systemd scope existed. */
	unsigned long long ino;
	bool stale, pending;
};

/* The i-th hierarchy: the v1 ones, then cgroup2; NULL past the last. */
static inline struct cg_hier *cg_nth(const struct cgroup *cg, size_t i)
{
	if (i < cg->n_v1)
		return &cg->v1[i];
	return i == cg->n_v1 ? cg->unified : NULL;
}

/* A struct cgroup that starts as {0} and is freed when it goes out of
 * scope. */
#define _cleanup_cgroup_ __attribute__((cleanup(cgroup_free)))

/* Find the hierarchies and compute the path (cgroupsPath or the default).
 * No directory is opened. cg is overwritten; free it with cgroup_free
 * whether this succeeds or not. */
int cgroup_init(struct cgroup *cg, const char *cgroups_path, const char *id, struct werror *err);
/* cgroup_init for the systemd driver: cgroups_path is "slice:prefix:name"
 * (empty: system.slice:ward:ID); the path is the one systemd gives the
 * scope. */
int cgroup_init_systemd(struct cgroup *cg, const char *cgroups_path, const char *id,
                        struct werror *err);
/* After cgroup_create: record the cgroup's identity (cgroup_record then
 * writes it; cgroup_from_record checks it). */
int cgroup_pin(struct cgroup *cg, struct werror *err);
/* The recorded cgroup is there and is still the container's. */
bool cgroup_alive(const struct cgroup *cg);
/* update: the manager's part (systemd: the unit's properties), then
 * cgroup_apply. */
int cgroup_update(const struct cgroup *cg, const struct oci_linux *l, struct werror *err);
/* cgroup_init, then open the cgroup's existing directories (one missing
 * makes its file accesses fail as they would by path). */
int cgroup_open(struct cgroup *cg, const char *cgroups_path, const char *id, struct werror *err);
/* Close the directory fds and free the strings; cg is {0} afterwards. */
void cgroup_free(struct cgroup *cg);
/* Close the directory fds only (a child process that must not keep them). */
void cgroup_close_fds(const struct cgroup *cg);
/* What create will make, without making it: the levels of the path that
 * exist in each hierarchy now (recorded before create, so that a create
 * killed half-way leaves a record delete --force can clean up from). */
void cgroup_plan(struct cgroup *cg);
/* Make the cgroup in every hierarchy (joining an existing one only if it
 * is not frozen, and has no process unless shared_ok: then a warning), and
 * open its directories. */
int cgroup_create(struct cgroup *cg, bool shared_ok, struct werror *err);
/* Remove the cgroup where it is empty (and the empty parents above it
 * that ward makes), never signalling anything; how many stayed. */
int cgroup_remove_empty(const struct cgroup *cg);
/* An O_PATH fd of the cgroup2 directory for clone3(CLONE_INTO_CGROUP),
 * the caller's to close, or -1 when there is no cgroup2 hierarchy. */
int cgroup_unified_fd(const struct cgroup *cg, struct werror *err);
/* Write pid into every v1 hierarchy (unless v1_entered: the process put
 * itself there, cgroup_self_enter) and cgroup2 when !in_unified. */
int cgroup_add_pid(const struct cgroup *cg, pid_t pid, bool in_unified, bool v1_entered,
                   struct werror *err);

/* A process entering the v1 hierarchies by itself: each one's "tasks"
 * file, opened by the parent (cgroup_self_open, before it forks), gets
 * "0" from the child (cgroup_self_enter) before the child runs anything.
 * Why: a single thread that moves itself takes no cgroup_threadgroup_rwsem
 * (kernel/cgroup/cgroup.c, cgroup_procs_write_start), whose write side
 * waits for an RCU grace period; a pid written to cgroup.procs takes it,
 * 5-13 ms a create on these hosts, most of a `run true`. The child must be
 * single-threaded (a clone of ward is). */
#define CG_SELF_MAX 16
struct cg_self {
	int fd[CG_SELF_MAX];
	const char *name[CG_SELF_MAX]; /* the hierarchy's directory, for errors */
	size_t n;
};
/* n = 0 where there is nothing to enter (no v1 hierarchy). */
int cgroup_self_open(const struct cgroup *cg, struct cg_self *s, struct werror *err);
int cgroup_self_enter(struct cg_self *s, struct werror *err);
void cgroup_self_close(struct cg_self *s);
/* exec's runc-style --cgroup arguments, [CONTROLLER[,...]:]PATH (PATH plain
 * names below the container's cgroup, "/" the cgroup itself): their form
 * alone, before anything is started. */
int cgroup_sub_check(char *const *args, size_t n, struct werror *err);
/* Write pid into every hierarchy: the sub-cgroup args give it (the one
 * naming one of its controllers, else the plain one), else the container's
 * cgroup; on cgroup2 without args, where the container's cgroup takes no
 * process (EBUSY: a domain controller is on), the init's sub-cgroup, as
 * runc does. */
int cgroup_join(const struct cgroup *cg, pid_t pid, char *const *args, size_t n, pid_t init,
                struct werror *err);
/* linux.resources (and, with device rules, the devices every container
 * needs: the default nodes and linux.devices). */
int cgroup_apply(const struct cgroup *cg, const struct oci_linux *l, struct werror *err);
/* Every process of the cgroup (the caller frees *pids). */
int cgroup_pids(const struct cgroup *cg, pid_t **pids, size_t *n, struct werror *err);
int cgroup_signal_all(const struct cgroup *cg, int sig, struct werror *err);
int cgroup_freeze(const struct cgroup *cg, bool freeze, struct werror *err);
bool cgroup_is_frozen(const struct cgroup *cg, struct werror *err);
/* "path\n" then "kept dir\n" per hierarchy, to keep in the state dir;
 * and back (opening the directories, as cgroup_open). */
void cgroup_record(const struct cgroup *cg, char *buf, size_t len);
int cgroup_from_record(struct cgroup *cg, const char *rec, const char *id, struct werror *err);
/* Kill what is left and remove the cgroup, and the parents create made,
 * from every hierarchy. */
int cgroup_destroy(const struct cgroup *cg, struct werror *err);

/* Does h's directory, or a cgroup below it, hold a process other than
 * except? (true too when that cannot be read: fail closed) */
bool cg_subtree_busy(const struct cg_hier *h, pid_t except);
/* The hierarchy whose cgroup.procs lists the container's processes (the
 * v1 pids one, else the first; cgroup2 on pure v2 hosts). */
const struct cg_hier *cg_main_hier(const struct cgroup *cg);
/* The v1 hierarchy of a controller; NULL if none. */
const struct cg_hier *cg_v1(const struct cgroup *cg, const char *controller);
/* The hierarchy serving a controller: its v1 one (v1, hybrid hosts), else
 * cgroup2 (pure v2 hosts, or a hybrid host's unified hierarchy when it runs
 * v2name); NULL if none. */
const struct cg_hier *cg_controller(const struct cgroup *cg, const char *v1name, const char *v2name,
                                    bool *is_v2, struct werror *err);

#endif
