/* Command-line parsing as the engines call runc: "--opt value", "--opt=value",
 * and the single-dash long forms ("-bundle") that urfave/cli also accepts. */
#ifndef WARD_CLI_OPTIONS_H
#define WARD_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

struct globals {
	const char *root;
	const char *log;
	const char *log_format;
	const char *log_level;
	bool debug;
	const char *profile; /* --profile: compat, baseline or strict */
	const char *policy;  /* --policy FILE (default /etc/ward/policy.json) */
	const char *argv0;   /* ward-strict selects strict */
	bool systemd_cgroup; /* --systemd-cgroup: the systemd cgroup driver */
	int rootfd;          /* opened on demand by cli_root() */
	int fail_status;     /* the exit status when the command fails; 0: 1 */
};

/* OPT_MS: a duration ("250ms", "5s", "1m", plain seconds) into a long of
 * milliseconds, at least 1. */
enum opt_kind { OPT_FLAG, OPT_STR, OPT_INT, OPT_MS, OPT_LIST };

/* Values of a repeatable option, in order (argv strings, not copies). */
struct optlist {
	char **v;
	size_t n;
};

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
              size_t max_pos, size_t *n_pos, bool stop_at_positional);
/* Exactly one positional: the container id. */
int cli_one_id(const char *cmd, size_t n_pos);
/* The state root fd (created 0700 on first use). */
int cli_root(struct globals *g);

struct container;
/* What every command on one container does first: parse the options, take
 * pos[0] as the container id (up to max_pos positionals in all) and open
 * the container, locked if lock. On failure c is closed. */
int cli_open_container(struct globals *g, const char *cmd, int argc, char **argv,
                       const struct opt *opts, size_t n_opts, char **pos, size_t max_pos,
                       size_t *n_pos, bool lock, struct container *c);

#endif
