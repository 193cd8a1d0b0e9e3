#include "cli/commands.h"
#include "lib/callerfds.h"
#include "lib/error.h"
#include "lib/log.h"
#include "lib/trace.h"
#include "container/ops/ops.h"
#include "container/reexec.h"

#include <errno.h>
#include <limits.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

/* The subcommands (one cmd_<verb>.c each in cli/) and the usage text made
 * from this table. */
#include "cli/ward_commit.h" /* WARD_COMMIT, made by make (Makefile.am) */

struct command {
	const char *name;
	int (*run)(struct globals *g, int argc, char **argv, struct werror *err);
	const char *usage; /* the options come from the command's own table */
	const char *summary;
	bool builds_container; /* needs the sealed re-exec */
};

static const struct command commands[] = {
    {"create", cmd_create, "create [OPTIONS] ID",
     "create a container, its init waiting to be started", true},
    {"start", cmd_start, "start ID", "run the user process of a created container", false},
    {"run", cmd_run, "run [OPTIONS] ID",
     "create and start a container; without --detach wait and pass on its exit status", true},
    {"exec", cmd_exec, "exec [OPTIONS] ID COMMAND [ARG...] | exec [OPTIONS] --process FILE ID",
     "run another process in a container, in all its namespaces and under its seccomp "
     "filter",
     true},
    {"state", cmd_state, "state ID", "print the state of a container as JSON", false},
    {"kill", cmd_kill, "kill [--all] ID [SIGNAL]",
     "send a signal (name or number, default SIGTERM) to a container", false},
    {"delete", cmd_delete, "delete [--force] ID",
     "remove a stopped or created container (--force: also a running one)", false},
    {"pause", cmd_pause, "pause ID", "freeze every process of a running container", false},
    {"resume", cmd_resume, "resume ID", "thaw a paused container", false},
    {"ps", cmd_ps, "ps [--format table|json] ID [PS-OPTIONS...]",
     "list the processes of a container (table: ps -ef, or ps with the options given)", false},
    {"update", cmd_update, "update [OPTIONS] ID",
     "change the cgroup limits of a live container (strict keeps its own limits: no update "
     "may loosen them)",
     false},
    {"events", cmd_events, "events [--stats] [--interval DURATION] ID",
     "resource figures (and OOM kills) of a container as JSON lines", false},
    {"list", cmd_list, "list [--quiet] [--format table|json]", "list containers", false},
    {"spec", cmd_spec, "spec [--bundle DIR] [--rootless] [--full]",
     "write a default config.json into the bundle directory (short, as runc's; the built-in "
     "seccomp profile applies without being written out)",
     false},
    {"check", cmd_check, "check [--profile P] [--format text|json] (--bundle DIR | BUNDLE)",
     "what the container would reach, and what the policy would change or refuse (exit 0 "
     "allowed, 1 refused, 2 bad input)",
     false},
    {"report", cmd_report, "report [--format text|json] ID | report --list",
     "the run report of a supervised container (strict, or with a time limit), also after "
     "delete",
     false},
    {"features", cmd_features, "features",
     "what ward supports, as the runtime-spec features JSON (with ward's annotations)", false},
};
static const size_t n_commands = sizeof(commands) / sizeof(commands[0]);

/* The global options: parse_globals, `ward --help` and the completion. */
/* clang-format off */
#define GLOBAL_OPTS(g, version, help)                                                              \
	{"root", 0, OPT_STR, &(g)->root, "DIR",                                                    \
	 "state directory (default /run/ward; not root:\n$XDG_RUNTIME_DIR/ward)"},                 \
	{"log", 0, OPT_STR, &(g)->log, "FILE", "write log messages to FILE"},                      \
	{"log-format", 0, OPT_STR, &(g)->log_format, "text|json",                                  \
	 "text, or JSON lines (level, msg, time)"},                                                \
	{"log-level", 0, OPT_STR, &(g)->log_level, "error|warning|info|debug",                     \
	 "the least level logged"},                                                                \
	{"debug", 0, OPT_FLAG, &(g)->debug, NULL,                                                  \
	 "same as --log-level debug (also shows each policy\nadjustment)"},                        \
	{"profile", 0, OPT_STR, &(g)->profile, "compat|baseline|strict",                           \
	 "compat, baseline (default) or strict; ward-strict\nas the binary's name selects strict"}, \
	{"policy", 0, OPT_STR, &(g)->policy, "FILE",                                               \
	 "operator policy (default /etc/ward/policy.json)"},                                       \
	{"systemd-cgroup", 0, OPT_FLAG, &(g)->systemd_cgroup, NULL,                                \
	 "cgroups through systemd: a transient scope, the\ncgroupsPath as slice:prefix:name"},     \
	{"version", 'v', OPT_FLAG, (version), NULL, "print the version"},                          \
	{"help", 'h', OPT_FLAG, (help), NULL, "print this help"}
/* clang-format on */

static void cli_usage(int fd)
{
	struct globals g0 = {0};
	bool b;
	const struct opt opts[] = {GLOBAL_OPTS(&g0, &b, &b)};

	fflush(stdout);
	if (fd == 2)
		dup2(2, 1); /* cli_print_opts writes to stdout */
	printf("usage: ward [GLOBAL OPTIONS] COMMAND [OPTIONS] [ARGS]\n\n"
	       "ward is an OCI container runtime with strict defaults for untrusted code.\n"
	       "ward COMMAND --help prints the options of COMMAND.\n\n"
	       "global options:\n");
	cli_print_opts(opts, sizeof(opts) / sizeof(opts[0]));
	printf("\ncommands:\n");
	for (size_t i = 0; i < n_commands; i++)
		printf("  %-8s %s\n           usage: ward %s\n", commands[i].name,
		       commands[i].summary, commands[i].usage);
	fflush(stdout);
}

/* `ward __complete commands|globals|flags COMMAND`: what the shell
 * completion offers, from the same tables as the parser (not in --help). */
static int complete(struct globals *g, int argc, char **argv)
{
	if (argc >= 1 && strcmp(argv[0], "commands") == 0) {
		for (size_t i = 0; i < n_commands; i++)
			printf("%s\n", commands[i].name);
		return 0;
	}
	if (argc >= 1 && strcmp(argv[0], "globals") == 0) {
		bool b;
		const struct opt opts[] = {GLOBAL_OPTS(g, &b, &b)};

		cli_print_flags(opts, sizeof(opts) / sizeof(opts[0]));
		return 0;
	}
	if (argc >= 2 && strcmp(argv[0], "flags") == 0)
		for (size_t i = 0; i < n_commands; i++)
			if (strcmp(commands[i].name, argv[1]) == 0) {
				struct werror e = WERROR_INIT;
				char *args[] = {(char *)commands[i].name, NULL};

				/* cli_parse prints the table and exits */
				cli_command(commands[i].name, commands[i].usage,
				            commands[i].summary, CLI_FLAGS);
				commands[i].run(g, 1, args, &e);
				werr_clear(&e);
				return 1;
			}
	return 1;
}

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

static int parse_globals(int argc, char **argv, struct globals *g, int *cmd_idx, bool *version,
                         bool *help, struct werror *err)
{
	const struct opt opts[] = {GLOBAL_OPTS(g, version, help)};
	char *pos[1];
	size_t n_pos;
	int i;

	/* Globals end at the first word that is not an option or its value. */
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool takes_value = false;

		if (a[0] != '-')
			break;
		for (size_t k = 0; k < sizeof(opts) / sizeof(opts[0]); k++) {
			const char *name = a + (a[1] == '-' ? 2 : 1);

			if (opts[k].kind != OPT_FLAG && strcmp(name, opts[k].name) == 0)
				takes_value = true;
		}
		if (takes_value)
			i++;
	}
	*cmd_idx = i;
	return cli_parse(i, argv, opts, sizeof(opts) / sizeof(opts[0]), pos, 0, &n_pos, false, err);
}

/* How many fds the command may pass on (--preserve-fds, plus LISTEN_FDS
 * for create and run), read before anything is opened: every spelling
 * cli_parse takes ("--preserve-fds N", "-preserve-fds=N"), wherever it
 * stands (the largest wins). It may count too many (a word that is really
 * an option's value), never too few: the command checks its own value
 * against the recorded range. */
static int fds_to_record(int argc, char **argv, int idx)
{
	const char *cmd = argv[idx];
	long n = 0;

	if (strcmp(cmd, "create") != 0 && strcmp(cmd, "run") != 0 && strcmp(cmd, "exec") != 0)
		return 0;
	for (int i = idx + 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		const char *a = argv[i], *v = NULL;
		long k;

		if (a[0] != '-')
			continue;
		a += a[1] == '-' ? 2 : 1;
		if (strcmp(a, "preserve-fds") == 0 && i + 1 < argc)
			v = argv[i + 1];
		else if (strncmp(a, "preserve-fds=", 13) == 0)
			v = a + 13;
		k = v ? strtol(v, NULL, 10) : 0;
		if (k > n)
			n = k > INT_MAX ? INT_MAX : k;
	}
	if (strcmp(cmd, "exec") != 0 && getenv("LISTEN_FDS")) {
		long k = strtol(getenv("LISTEN_FDS"), NULL, 10);

		if (k > 0 && k <= 1024)
			n += k;
	}
	return n > INT_MAX ? INT_MAX : (int)n;
}

/* A mistake on the command line is ward's failure, not a refused config:
 * 125 where ward's own statuses apply (baseline, strict), else runc's 1. */
static int fail_status(struct globals *g, const char *cmd, const struct werror *err)
{
	int st = ops_fail_status(g, cmd, err);

	if (!cli_usage_failed())
		return st;
	/* compat keeps runc's status (1, exec's 255). */
	return st == EXIT_REFUSED ? EXIT_WARD_FAILED : st;
}

int main(int argc, char **argv)
{
	struct globals g = {.rootfd = -1, .argv0 = argv[0]};
	_cleanup_werror_ struct werror error = WERROR_INIT;
	struct werror *err = &error; /* the command's error: printed once, here */
	char user_root[PATH_MAX];
	bool version = false, help = false;
	const struct command *cmd = NULL;
	int idx, r;
	const char *base = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];

	trace_init();
	/* The run supervisor: the same binary, started by create (supervisor/). */
	if (ops_is_supervisor(base))
		return ops_supervisor_main(argc, argv, err);

	/* Nothing is opened before the caller's fds are recorded (parsing
	 * opens nothing). */
	r = parse_globals(argc, argv, &g, &idx, &version, &help, err);
	if (r == 0 && idx < argc && callerfds_take(fds_to_record(argc, argv, idx)) < 0)
		r = werr(err, errno, "reserving the fds --preserve-fds names (/dev/null)");
	if (r < 0 || log_setup(g.log, g.log_format, g.log_level, g.debug, err) < 0) {
		log_fatal(werr_msg(err));
		return 1;
	}
	if (version) {
		const struct scmp_version *sv = seccomp_version();

		/* runc's layout (engines and runc's tests read it line by line). */
		printf("ward version %s\ncommit: %s\nspec: 1.3.0\nlibseccomp: %u.%u.%u\n",
		       PACKAGE_VERSION, WARD_COMMIT, sv->major, sv->minor, sv->micro);
		return 0;
	}
	if (help || idx >= argc || strcmp(argv[idx], "help") == 0) {
		cli_usage(help || idx < argc ? 1 : 2);
		return help || idx < argc ? 0 : 1;
	}
	if (strcmp(argv[idx], "__complete") == 0)
		return complete(&g, argc - idx - 1, argv + idx + 1);
	for (size_t i = 0; i < n_commands; i++)
		if (strcmp(commands[i].name, argv[idx]) == 0)
			cmd = &commands[i];
	if (cmd == NULL) {
		if (strcmp(argv[idx], "version") == 0)
			werr_k(err, WERR_INVALID, 0,
			       "unknown command \"version\": the version is ward --version");
		else
			werr_k(err, WERR_INVALID, 0, "unknown command \"%s\" (see ward --help)",
			       argv[idx]);
		log_fatal(werr_msg(err));
		return 1;
	}
	/* -h/--help straight after the command: its usage, before anything
	 * is re-executed or opened (cli_parse answers it anywhere among the
	 * options too, as runc does). */
	cli_command(cmd->name, cmd->usage, cmd->summary, CLI_RUN);
	for (int i = idx + 1; i < argc && argv[i][0] == '-' && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0 ||
		    strcmp(argv[i], "-help") == 0) {
			cli_command(cmd->name, cmd->usage, cmd->summary, CLI_HELP);
			break;
		}
	/* Not root: the caller's runtime directory (ops_default_root). */
	if (ops_default_root(&g, cmd->name, user_root, sizeof(user_root), err) < 0) {
		log_fatal(werr_msg(err));
		return 1;
	}
	if (g.root == NULL)
		g.root = "/run/ward";
	werr_clear(err);
	trace_mark(cmd->name);
	if (cmd->builds_container && reexec_sealed(argv, environ, err) < 0) {
		log_fatal(werr_msg(err));
		return 1;
	}
	trace_mark("sealed: running the command");
	r = cmd->run(&g, argc - idx, argv + idx, err);
	trace_mark("done");
	if (r < 0) {
		log_fatal(werr_msg(err));
		return fail_status(&g, cmd->name, err);
	}
	return r;
}
