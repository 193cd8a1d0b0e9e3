/* One function per subcommand (cmd_<verb>.c), run by the dispatch table. */
#ifndef WARD_CLI_COMMANDS_H
#define WARD_CLI_COMMANDS_H

#include "lib/error.h"

#include "cli/options.h"

#include <stddef.h>

int cmd_create(struct globals *g, int argc, char **argv, struct werror *err);
int cmd_start(struct globals *g, int argc, char **argv, struct werror *err);
int cmd_state(struct globals *g, int argc, char **argv, struct werror *err);
int cmd_kill(struct globals *g, int argc, char **argv, struct werror *err);
int cmd_delete(struct globals *g, int argc, char **argv, struct werror *err);
int cmd_run(struct globals *g, int argc, char **argv, struct werror *err);
int cmd_list(struct globals *g, int argc, char **argv, struct werror *err);
int cmd_spec(struct globals *g, int argc, char **argv, struct werror *err);
int cmd_exec(struct globals *g, int argc, char **argv, struct werror *err);
int cmd_pause(struct globals *g, int argc, char **argv, struct werror *err);
int cmd_resume(struct globals *g, int argc, char **argv, struct werror *err);
int cmd_ps(struct globals *g, int argc, char **argv, struct werror *err);
int cmd_update(struct globals *g, int argc, char **argv, struct werror *err);
int cmd_events(struct globals *g, int argc, char **argv, struct werror *err);
int cmd_check(struct globals *g, int argc, char **argv, struct werror *err);
int cmd_features(struct globals *g, int argc, char **argv, struct werror *err);
int cmd_report(struct globals *g, int argc, char **argv, struct werror *err);

#endif
