/* Denied syscalls, answered and recorded: the filter's default action is
 * SECCOMP_RET_USER_NOTIF to the supervisor, which records who asked for
 * what and replies with the errno the profile gives (never "continue": the
 * call is not made). */
#ifndef WARD_SUP_NOTIFY_H
#define WARD_SUP_NOTIFY_H

#include "lib/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define DENIED_FIRST_MAX 100 /* recorded in full; the rest only counted */
#define DENIED_NAMES_MAX 512 /* distinct syscalls counted */

struct denied_event {
	pid_t pid;
	char comm[64]; /* printable ASCII, other bytes as \xNN */
	char syscall[32];
	char arch[16];
	uint64_t args[6];
};

struct denied_count {
	char syscall[32];
	uint64_t count;
};

struct denied_log {
	uint64_t total;
	struct denied_event first[DENIED_FIRST_MAX];
	size_t n_first;
	struct denied_count counts[DENIED_NAMES_MAX];
	size_t n_counts;
	uint64_t uncounted; /* calls past DENIED_NAMES_MAX distinct names */
};

/* Take one notification from fd (poll said it is readable) and answer it
 * with -errno_ret; recorded into log unless log is NULL. 1 after an answer
 * (or a caller that died meanwhile), -1 with werr on an error of the
 * listener itself. The listener's POLLHUP says its filter's users are gone. */
int sup_notify_handle(int fd, int errno_ret, struct denied_log *log, struct werror *err);

#endif
