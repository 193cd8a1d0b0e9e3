/* What `create` and `run` share: their options and the path from them to a
 * created container. */
#ifndef WARD_CREATE_CLI_H
#define WARD_CREATE_CLI_H

#include <stdbool.h>

#include "cli/commands.h"
#include "container/container.h"

struct create_cli {
	const char *bundle, *pid_file, *console_socket;
	bool no_pivot, no_new_keyring, detach, keep;
	int preserve_fds;
	long timeout_ms;    /* run --timeout (0: none) */
	const char *report; /* run --report FILE */
};

#define CREATE_CLI_OPTS(cc)                                                                        \
	{"bundle", 'b', OPT_STR, &(cc).bundle}, {"pid-file", 0, OPT_STR, &(cc).pid_file},          \
	    {"console-socket", 0, OPT_STR, &(cc).console_socket},                                  \
	    {"no-pivot", 0, OPT_FLAG, &(cc).no_pivot},                                             \
	    {"no-new-keyring", 0, OPT_FLAG, &(cc).no_new_keyring},                                 \
	{                                                                                          \
		"preserve-fds", 0, OPT_INT, &(cc).preserve_fds                                     \
	}

/* master: NULL for create and run -d; for a foreground run, where the pty
 * master of a process.terminal without --console-socket goes (-1 when the
 * config has no terminal): ward relays it. */
int create_from_cli(struct globals *g, const struct create_cli *cc, const char *id,
                    struct container *c, int *pidfd, int *master);

#endif
