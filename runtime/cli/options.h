/* Command-line parsing as the engines call runc: "--opt value", "--opt=value",
 * and the single-dash long forms ("-bundle") that urfave/cli also accepts. */
#ifndef WARD_CLI_OPTIONS_H
#define WARD_CLI_OPTIONS_H

#include "lib/error.h"

#include <stdbool.h>
#include <stddef.h>

#include "container/ops/ops.h"

/* OPT_MS: a duration ("250ms", "5s", "1m", plain seconds) into a long of
 * milliseconds, at least 1. */
enum opt_kind { OPT_FLAG, OPT_STR, OPT_INT, OPT_MS, OPT_LIST };

struct opt {
	const char *name;
	char short_name;
	enum opt_kind kind;
	void *dst; /* bool *, const char **, int *, long *, struct optlist * */
};

/* Parse options of one command. Positional arguments are collected in
 * pos[] (up to max_pos). stop_at_positional: everything after the first
 * positional is positional too (for commands that take a command line). */
int cli_parse(int argc, char **argv, const struct opt *opts, size_t n_opts, char **pos,
              size_t max_pos, size_t *n_pos, bool stop_at_positional, struct werror *err);
/* Exactly one positional: the container id. */
int cli_one_id(const char *cmd, size_t n_pos, struct werror *err);
/* The state root fd (ops_root). */
int cli_root(struct globals *g, struct werror *err);

struct container;
/* What every command on one container does first: parse the options, take
 * pos[0] as the container id (up to max_pos positionals in all) and open
 * the container, locked if lock. On failure c is closed. */
int cli_open_container(struct globals *g, const char *cmd, int argc, char **argv,
                       const struct opt *opts, size_t n_opts, char **pos, size_t max_pos,
                       size_t *n_pos, bool lock, struct container *c, struct werror *err);

#endif
