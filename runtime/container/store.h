/* The container state store: <root>/<id>/ (0700) holding state.json and the
 * exec.fifo start channel. Status is derived from the process, never read
 * back from the file. Mutating commands hold an flock on the directory. */
#ifndef WARD_STORE_H
#define WARD_STORE_H

#include "lib/error.h"

#include <stdbool.h>

#include "oci/config.h"
#include "oci/oci_state.h"

/* ST_DELETING: state.json was set aside by a delete that did not finish;
 * ST_UNKNOWN: state.json is there but cannot be read (store_open_any). */
enum container_status {
	ST_CREATING,
	ST_CREATED,
	ST_RUNNING,
	ST_STOPPED,
	ST_PAUSED,
	ST_DELETING,
	ST_UNKNOWN
};

struct container {
	int rootfd; /* the state root */
	int dirfd;  /* <root>/<id>, locked */
	char *id;
	struct oci_state *st; /* NULL while creating, deleting or unknown */
	enum container_status status;
	char *load_err; /* ST_UNKNOWN: why the state could not be read */
};

#define EXEC_FIFO          "exec.fifo"
#define STATE_FILE         "state.json"
#define DELETING_FILE      "state.deleting" /* state.json, set aside by delete */
#define CONFIG_FILE        "config.json"    /* the bytes create parsed */
#define CGROUP_FILE        "cgroup"         /* the cgroup path, and the part create made */
#define POLICY_RECORD_FILE "policy.json"    /* what the policy decided (policy_record_gen) */
#define AUDIT_FILE         "audit.log"      /* the policy's adjustments, JSON lines */
#define SUPERVISOR_FILE    "supervisor"     /* "pid start-time" of the run supervisor */

const char *status_name(enum container_status s);
/* Open (creating if needed, 0700) the state root. */
int store_open_root(const char *root, struct werror *err);
/* The longest id. Ids name a directory, the run report <id>.json and the
 * systemd scope ward-<id>.scope, each at most NAME_MAX (255) bytes; 200
 * leaves room for the longest of these affixes and any later one. */
#define STORE_ID_MAX 200
/* Container ids name a directory: [A-Za-z0-9][A-Za-z0-9_.+-]*, at most
 * STORE_ID_MAX. The one check of an id, before anything is named by it. */
int store_check_id(const char *id, struct werror *err);
/* Make <root>/<id> atomically; EEXIST reads "container ... already exists". */
int store_create(int rootfd, const char *id, struct container *c, struct werror *err);
/* Open an existing container; lock = take the exclusive lock. Once locked,
 * the directory is the one named id (one removed meanwhile is not taken). */
int store_open(int rootfd, const char *id, bool lock, struct container *c, struct werror *err);
/* As store_open, but a state.json that cannot be read is not an error: the
 * container is then ST_UNKNOWN, c->load_err says why (delete --force, list). */
int store_open_any(int rootfd, const char *id, bool lock, struct container *c, struct werror *err);
/* Drop and retake the lock (a foreground `run` must not block `delete`). */
void store_unlock(struct container *c);
int store_relock(struct container *c, struct werror *err);
/* Write state.json atomically (temp file + rename). */
int store_save(struct container *c, struct werror *err);
/* Write any file of the state dir atomically. */
int store_write(struct container *c, const char *name, const char *buf, size_t len,
                struct werror *err);
/* Read a small record of the state dir into buf (NUL-terminated); one
 * larger than len - 1 bytes is an error, never cut short. */
int store_read(struct container *c, const char *name, char *buf, size_t len, struct werror *err);
/* A file of the state dir, whole (the caller frees *buf). */
int store_read_alloc(struct container *c, const char *name, char **buf, size_t *len,
                     struct werror *err);
/* The config.json saved at create. */
struct oci_config *store_load_config(struct container *c, struct werror *err);
/* Recompute c->status from the process. */
void store_refresh(struct container *c, struct werror *err);
/* Remove <root>/<id> and everything in it: state.json first set aside as
 * state.deleting (a half-done removal reads as deleting, never as creating),
 * the directory itself only while the name is still the one locked. */
int store_remove(struct container *c, struct werror *err);
void store_close(struct container *c);
/* A container (starting as {.dirfd = -1}) closed when it goes out of scope. */
#define _cleanup_store_ __attribute__((cleanup(store_close)))
/* <root>/.<name>/ (0700), for ward's own caches; -1 if it cannot be had
 * (callers then work without the cache). Ids never start with '.'. */
int store_cache_dir(int rootfd, const char *name);

#endif
