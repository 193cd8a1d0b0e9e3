/* Host paths decided on file descriptors (host_paths.c): the sensitive
 * paths of this host, one path opened once, and its relations to them. */
#ifndef WARD_POLICY_HOST_PATHS_H
#define WARD_POLICY_HOST_PATHS_H

#include "lib/error.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

/* Host paths whose exposure is host authority, and how (the rule in
 * refuse_mounts.c decides on the relations host_paths.c finds). */
enum sens_kind {
	SENS_ROOT,   /* "/" */
	SENS_SYSTEM, /* is or contains: /usr /bin /sbin /lib* /run /var/run */
	/* ward's own binary's directory: is or contains (the binary could be
	 * replaced); what is inside it changes nothing of the binary. */
	SENS_BINARY,
	SENS_TREE,   /* is, contains or is inside: /proc /sys /boot /root, ward's state */
	SENS_ETC,    /* /etc: is or contains; inside: directories, and files not listed */
	SENS_DEV,    /* /dev: is or contains; inside: directories */
	SENS_ENGINE, /* an engine's state: is or contains (volumes inside are allowed) */
	SENS_SOCKET, /* an engine's API socket: is or contains */
	/* What the host's root runs or trusts by use (package databases and
	 * their maintainer scripts, cron and at spools, systemd's and the
	 * journal's state): writable binds that are, contain or are inside it
	 * (read-only ones are allowed). */
	SENS_TRUSTED,
	/* A home directory (from the password database: every user's, new
	 * ones included): writable binds that are or contain it, or are inside
	 * one of its dot-entries (.ssh, .bashrc, .profile, .config/autostart:
	 * what its user runs and trusts at login). */
	SENS_HOME,
};

struct host_sensitive {
	char *path; /* owned (host_sensitive_free) */
	enum sens_kind kind;
};

#define HOST_MAX_SENSITIVE 96

/* Relations of a host path to host_facts.sensitive[k], by identity
 * (device and inode, walking up from each side: spellings, symlinks and
 * bind-mount aliases do not matter). */
#define REL_IS       1u
#define REL_CONTAINS 2u
#define REL_INSIDE   4u

/* A host path named by the config (relative ones start at the bundle),
 * opened once (O_PATH; RESOLVE_NO_MAGICLINKS outside compat) and decided on
 * that fd, which is then what gets mounted. */
struct host_path {
	bool resolved; /* false: it could not be opened (err says why) */
	int err;
	int fd;              /* -1 when not resolved; owned by the facts */
	char real[PATH_MAX]; /* the path read back from the fd */
	struct stat st;
	unsigned long fs_type; /* statfs f_type */
	unsigned rel[HOST_MAX_SENSITIVE];
	/* The first unix socket anywhere in the tree, of any name, "" if
	 * none; scan_incomplete: the tree could not be searched whole (too
	 * large or deep, a directory that would not open): refused. */
	char socket[PATH_MAX];
	bool scan_incomplete;
	/* root.path: searched as an image (host_paths.c, SCAN_ROOTFS_LEVELS). */
	bool is_rootfs;
	/* A regular file owned by root with an execute bit, anywhere in the
	 * tree, or p itself, "" if none: a program the host's root
	 * may run (a package's maintainer script, a service's binary), which a
	 * writable bind would hand to the container. */
	char root_exec[PATH_MAX];
	/* The mounts below a directory (what a recursive bind or the rootfs
	 * takes along), each judged like the path itself. */
	struct host_path *sub;
	size_t n_sub;
};

#define HOST_MAX_SUBMOUNTS 64

/* The engine sockets ward looks for (NULL-terminated), and the names that
 * give a socket away as one wherever it lives. */
extern const char *const host_engine_socket_paths[];
extern const char *const host_engine_socket_names[];

/* The sensitive paths of this host into out[0..max): the fixed list,
 * ward's state roots, the directory of ward's binary, /lib*, the engine
 * sockets, the home directories (a rootless caller's own aside). Returns
 * how many. */
size_t host_sensitive_gather(struct host_sensitive *out, size_t max, const char *state_root,
                             bool rootless);
void host_sensitive_free(struct host_sensitive *s, size_t n);
/* Open path once (relative ones from bundle) into p; p->resolved says
 * whether it could be. */
void host_path_resolve(struct host_path *p, const char *path, const char *bundle,
                       bool no_magiclinks);
void host_path_close(struct host_path *p);
/* The relations (rel[], socket) of each resolved path to s[0..n_s); a path
 * that cannot be placed becomes unresolved (ESTALE). -1 only on ENOMEM. */
int host_paths_relate(const struct host_sensitive *s, size_t n_s, struct host_path **paths,
                      size_t n, struct werror *err);

#endif
