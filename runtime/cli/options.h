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

/* One table per command: the parser, the command's --help and the shell
 * completion (`ward __complete`) all read it, so they cannot drift. */
struct opt {
	const char *name;
	char short_name;
	enum opt_kind kind;
	void *dst;        /* bool *, const char **, int *, long *, struct optlist * */
	const char *arg;  /* the value's name in --help ("DIR"); NULL: a flag */
	const char *help; /* what it does, for --help (lines split by \n) */
};

/* What cli_parse does with the table (set once by main, per command). */
enum cli_mode {
	CLI_RUN,   /* parse; -h/--help among the options: the usage, exit 0 */
	CLI_HELP,  /* print the command's usage and exit 0 */
	CLI_FLAGS, /* print each accepted option, one a line, and exit 0 */
};
void cli_command(const char *name, const char *usage, const char *summary, enum cli_mode mode);

/* A mistake on the command line (unknown option, missing or extra
 * argument, a malformed value): WERR_INVALID, remembered as a usage error
 * so that main exits with 125 (ward failed), not 126 (config refused). */
int cli_usage_err(struct werror *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool cli_usage_failed(void);
/* Print the option lines of a table as --help shows them. */
void cli_print_opts(const struct opt *opts, size_t n_opts);
/* For the shell completion: "--name" and "-s", one a line, with "=ARG"
 * when the option takes a value ("--format=table|json", "--bundle=DIR"). */
void cli_print_flags(const struct opt *opts, size_t n_opts);

/* Parse options of one command. Positional arguments are collected in
 * pos[] (up to max_pos). stop_at_positional: everything after the first
 * positional is positional too (for commands that take a command line). */
int cli_parse(int argc, char **argv, const struct opt *opts, size_t n_opts, char **pos,
              size_t max_pos, size_t *n_pos, bool stop_at_positional, struct werror *err);
/* Exactly one positional: the container id. */
int cli_one_id(const char *cmd, size_t n_pos, struct werror *err);
/* The state root fd (ops_root). */
int cli_root(struct globals *g, struct werror *err);

/* A new container's id, checked before anything is made (a usage error). */
int cli_new_id(const char *id, struct werror *err);

struct container;
/* What every command on one container does first: parse the options, take
 * pos[0] as the container id (up to max_pos positionals in all) and open
 * the container, locked if lock. On failure c is closed. */
int cli_open_container(struct globals *g, const char *cmd, int argc, char **argv,
                       const struct opt *opts, size_t n_opts, char **pos, size_t max_pos,
                       size_t *n_pos, bool lock, struct container *c, struct werror *err);

#endif
