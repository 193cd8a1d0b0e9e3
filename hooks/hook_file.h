/* A hook's program on the host, opened once and judged on what was opened
 * (issue #12): could anyone but root change what the hook's path names, or
 * the file itself? The policy decides on these facts (ward-policy(7),
 * "hooks"), and the same fd is what runs (hooks_pin). */
#ifndef WARD_HOOKS_HOOK_FILE_H
#define WARD_HOOKS_HOOK_FILE_H

#include "lib/error.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

struct hook_id {
	dev_t dev;
	ino_t ino;
};

struct hook_file {
	int fd;  /* O_PATH|O_CLOEXEC of what the path names; -1: it did not resolve */
	int err; /* errno when it did not resolve */
	struct stat st;
	/* "" when only root (or owner, below) can change what the path names
	 * and the file's contents; else why not, as a clause ("/tmp/h is
	 * writable by others (mode 0777)"). */
	char untrusted[PATH_MAX + 128];
	/* Where it is, by identity: every directory looked in on the way
	 * (through symlinks too), the file, then each directory above it, up
	 * to "/". */
	struct hook_id *up;
	size_t n_up;
};

/* Resolve the absolute path one component at a time, symlinks followed
 * (at most 40), and judge every step: each directory looked in must be
 * owned by root (or owner) and not writable by group or others, unless it
 * is sticky and the entry found there is owned by root (or owner); the file
 * likewise; nothing on the way may be on FUSE (whose server says what it
 * likes). -1 with werr only when out of memory: what does not resolve is
 * recorded (fd -1, err). */
int hook_file_open(const char *path, uid_t owner, struct hook_file *f, struct werror *err);
void hook_file_close(struct hook_file *f);
#define _cleanup_hook_file_ __attribute__((cleanup(hook_file_close)))

/* The text of a file that decides what runs as root, read only when
 * hook_file_open finds nobody but root (or this process's user) could have
 * written it or changed what its path names. what and name make the
 * messages ("policy file /etc/ward/policy.json: not read: ..."). absent:
 * optional and the path does not exist (0, no text). At most max bytes. */
struct hook_text {
	char *text;
	size_t len;
	bool absent;
};
int hook_file_read(const char *abs, const char *what, const char *name, size_t max, bool optional,
                   struct hook_text *out, struct werror *err);

#endif
