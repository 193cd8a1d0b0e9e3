/* What `create` and `run` share: their options (into a create_request). */
#ifndef WARD_CREATE_CLI_H
#define WARD_CREATE_CLI_H

#include "cli/commands.h"
#include "container/ops/ops.h"

/* clang-format off */
#define CREATE_CLI_OPTS(cc)                                                                        \
	{"bundle", 'b', OPT_STR, &(cc).bundle, "DIR",                                              \
	 "the bundle (config.json and rootfs); default: the\ncurrent directory"},                  \
	{"pid-file", 0, OPT_STR, &(cc).pid_file, "FILE",                                           \
	 "write the container's init pid (host view) to FILE"},                                    \
	{"console-socket", 0, OPT_STR, &(cc).console_socket, "SOCK",                               \
	 "send the pty master of a terminal process to the\nunix socket SOCK (SCM_RIGHTS), as "    \
	 "engines ask"},                                                                           \
	{"no-pivot", 0, OPT_FLAG, &(cc).no_pivot, NULL,                                            \
	 "do not pivot_root (for a root on a ramfs): the host's\nmounts are detached instead; "    \
	 "refused in a user namespace"},                                                           \
	{"no-new-keyring", 0, OPT_FLAG, &(cc).no_new_keyring, NULL,                                \
	 "keep the caller's session keyring instead of a new\none for the container"},             \
	{"preserve-fds", 0, OPT_INT, &(cc).preserve_fds, "N",                                      \
	 "pass the caller's fds 3..3+N-1 to the process (as\nsystemd socket activation; "          \
	 "LISTEN_FDS is set)"}
/* clang-format on */

#endif
