/* The OCI runtime-spec 1.3 config.json, Linux fields, as C structs.
 * Filled by oci_config_parse() (config.c) from schema tables; every optional
 * scalar has a has_<name> flag so "absent" and "zero" stay distinct. */
#ifndef WARD_OCI_CONFIG_H
#define WARD_OCI_CONFIG_H

#include "lib/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/jwalk.h"
#include "oci/intel_rdt.h"
#include "oci/mempolicy.h"
#include "oci/netdev.h"
#include "oci/resources.h"
#include "oci/seccomp_spec.h"

struct oci_user {
	uint32_t uid;
	uint32_t gid;
	uint32_t umask;
	bool has_umask;
	uint32_t *additional_gids;
	size_t n_additional_gids;
};

/* Capability sets as bitmasks of CAP_* numbers (see names.h). */
struct oci_caps {
	uint64_t bounding, effective, inheritable, permitted, ambient;
	bool has_bounding, has_effective, has_inheritable, has_permitted, has_ambient;
};

struct oci_rlimit {
	char *type;
	int resource; /* RLIMIT_* resolved from type */
	uint64_t hard;
	uint64_t soft;
};

struct oci_scheduler {
	char *policy; /* SCHED_OTHER, SCHED_FIFO, SCHED_RR, SCHED_BATCH, SCHED_ISO,
	               * SCHED_IDLE, SCHED_DEADLINE */
	int32_t nice;
	int32_t priority;
	char **flags;
	size_t n_flags;
	uint64_t runtime, deadline, period;
};

struct oci_io_priority {
	char *klass; /* IOPRIO_CLASS_RT, _BE, _IDLE */
	int32_t priority;
};

struct oci_cpu_affinity {
	char *initial;
	char *final;
};

struct oci_process {
	bool terminal;
	struct oci_console_size *console_size;
	struct oci_user *user;
	char **args;
	size_t n_args;
	char *command_line;
	char **env;
	size_t n_env;
	char *cwd;
	struct oci_caps *capabilities;
	struct oci_rlimit *rlimits;
	size_t n_rlimits;
	bool no_new_privileges;
	char *apparmor_profile;
	int32_t oom_score_adj;
	bool has_oom_score_adj;
	char *selinux_label;
	struct oci_scheduler *scheduler;
	struct oci_io_priority *io_priority;
	struct oci_cpu_affinity *exec_cpu_affinity;
};

struct oci_console_size {
	uint32_t height;
	uint32_t width;
};

struct oci_root {
	char *path;
	bool readonly;
	bool nodev; /* ward's, not config.json's: strict mounts the rootfs nodev */
};

struct oci_idmap {
	uint32_t container_id;
	uint32_t host_id;
	uint32_t size;
};

struct oci_mount {
	char *destination;
	char *type;
	char *source;
	char **options;
	size_t n_options;
	struct oci_idmap *uid_mappings;
	size_t n_uid_mappings;
	struct oci_idmap *gid_mappings;
	size_t n_gid_mappings;
};

struct oci_hook {
	char *path;
	char **args;
	size_t n_args;
	char **env;
	size_t n_env;
	int32_t timeout;
	bool has_timeout;
};

enum oci_hook_point {
	HOOK_PRESTART,
	HOOK_CREATE_RUNTIME,
	HOOK_CREATE_CONTAINER,
	HOOK_START_CONTAINER,
	HOOK_POSTSTART,
	HOOK_POSTSTOP,
	HOOK_POINTS
};

struct oci_hook_list {
	struct oci_hook *hooks;
	size_t n;
};

struct oci_hooks {
	struct oci_hook_list point[HOOK_POINTS];
};

struct oci_namespace {
	char *type;
	int flag; /* CLONE_NEW* resolved from type */
	char *path;
};

struct oci_device {
	char *type;
	char *path;
	int64_t major;
	int64_t minor;
	bool has_major, has_minor;
	uint32_t file_mode;
	bool has_file_mode;
	uint32_t uid, gid;
	bool has_uid, has_gid;
};

struct oci_personality {
	char *domain; /* LINUX or LINUX32 */
	char **flags;
	size_t n_flags;
};

struct oci_time_offset {
	int64_t secs;
	uint32_t nanosecs;
};

struct oci_time_offsets {
	struct oci_time_offset *monotonic;
	struct oci_time_offset *boottime;
};

struct oci_linux {
	struct oci_namespace *namespaces;
	size_t n_namespaces;
	struct oci_idmap *uid_mappings;
	size_t n_uid_mappings;
	struct oci_idmap *gid_mappings;
	size_t n_gid_mappings;
	struct oci_device *devices;
	size_t n_devices;
	char *cgroups_path;
	char *rootfs_propagation;
	struct jkv *sysctl;
	size_t n_sysctl;
	char **masked_paths;
	size_t n_masked_paths;
	char **readonly_paths;
	size_t n_readonly_paths;
	char *mount_label;
	struct oci_resources *resources;
	struct oci_seccomp *seccomp;
	/* Not config.json's: ward's built-in filter, stacked on the config's
	 * own seccomp by the policy (both are loaded; the kernel runs every
	 * filter and takes the most restrictive action). */
	struct oci_seccomp *seccomp_base;
	/* Not config.json's: the policy's decision that the process runs under
	 * Landlock (strict; linux/landlock_wall.h). */
	bool landlock;
	struct oci_personality *personality;
	struct oci_time_offsets *time_offsets;
	struct oci_intel_rdt *intel_rdt;
	struct oci_memory_policy *memory_policy;
	struct oci_net_devices net_devices;
};

struct oci_config {
	char *oci_version;
	struct oci_root *root;
	struct oci_process *process;
	char *hostname;
	char *domainname;
	struct oci_mount *mounts;
	size_t n_mounts;
	struct oci_hooks *hooks;
	struct jkv *annotations;
	size_t n_annotations;
	struct oci_linux *linux;
	/* Not config.json's: what the parse saw (jcollect_keys), the unknown
	 * properties (ignored, as the spec wants; the policy reports them) and
	 * the known fields set (the policy's field table classes them). */
	struct jkeys seen;
};

/* Parse config.json text. what names the source in errors ("config.json").
 * Returns NULL with werr() set on any problem. */
struct oci_config *oci_config_parse(const char *buf, size_t len, const char *what,
                                    struct werror *err);
/* Read and parse <bundle>/config.json. */
struct oci_config *oci_config_load(const char *bundle, struct werror *err);
/* Read a JSON file (regular, at most OCI_MAX_CONFIG_SIZE) into *buf (NUL
 * terminated; caller frees). */
int oci_read_file(const char *path, char **buf, size_t *len, struct werror *err);
/* Parse a runtime-spec process object (`exec --process FILE`). */
struct oci_process *oci_process_parse(const char *buf, size_t len, const char *what,
                                      struct werror *err);
void oci_process_free(struct oci_process *p);
void oci_config_free(struct oci_config *c);
static inline void oci_config_freep(struct oci_config **c)
{
	oci_config_free(*c);
}
/* A parsed config freed when it goes out of scope (TAKE_PTR hands it on). */
#define _cleanup_oci_config_ __attribute__((cleanup(oci_config_freep)))

/* The decoding tables of config.json (oci_config_parse's), for tests that
 * check every field ward reads against the policy's field table. */
const struct jschema *oci_config_schema(void);

/* Lookups used by the runtime. */
const struct oci_namespace *oci_config_namespace(const struct oci_config *c, int flag);
const char *oci_config_annotation(const struct oci_config *c, const char *key);

#define OCI_MAX_CONFIG_SIZE (16u << 20)
#define OCI_MAX_DEPTH       64

#endif
