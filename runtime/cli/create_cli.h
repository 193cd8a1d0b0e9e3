/* What `create` and `run` share: their options (into a create_request). */
#ifndef WARD_CREATE_CLI_H
#define WARD_CREATE_CLI_H

#include "cli/commands.h"
#include "container/ops/ops.h"

#define CREATE_CLI_OPTS(cc)                                                                        \
	{"bundle", 'b', OPT_STR, &(cc).bundle}, {"pid-file", 0, OPT_STR, &(cc).pid_file},          \
	    {"console-socket", 0, OPT_STR, &(cc).console_socket},                                  \
	    {"no-pivot", 0, OPT_FLAG, &(cc).no_pivot},                                             \
	    {"no-new-keyring", 0, OPT_FLAG, &(cc).no_new_keyring},                                 \
	{                                                                                          \
		"preserve-fds", 0, OPT_INT, &(cc).preserve_fds                                     \
	}

#endif
