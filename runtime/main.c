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
	const char *usage;
	const char *summary;
	bool builds_container; /* needs the sealed re-exec */
	const char *flags;     /* `ward COMMAND --help`: each option explained */
};

#define F_BUNDLE                                                                                   \
	"  --bundle DIR, -b DIR   the bundle (config.json and rootfs); default: the\n"             \
	"                         current directory\n"
#define F_PIDFILE "  --pid-file FILE        write the container's init pid (host view) to FILE\n"
#define F_CONSOLE                                                                                  \
	"  --console-socket SOCK  send the pty master of a terminal process to the unix\n"         \
	"                         socket SOCK (SCM_RIGHTS), as engines ask\n"
#define F_NOPIVOT                                                                                  \
	"  --no-pivot             do not pivot_root (for a root on a ramfs): the host's\n"         \
	"                         mounts are detached instead; refused in a user namespace\n"
#define F_PRESERVE                                                                                 \
	"  --preserve-fds N       pass the caller's fds 3..3+N-1 to the process (as\n"             \
	"                         systemd socket activation; LISTEN_FDS is set)\n"

static const struct command commands[] = {
    {"create", cmd_create,
     "create [--bundle DIR] [--pid-file FILE] [--console-socket SOCK] [--no-pivot] "
     "[--preserve-fds N] ID",
     "create a container, its init waiting to be started", true,
     F_BUNDLE F_PIDFILE F_CONSOLE F_NOPIVOT F_PRESERVE},
    {"start", cmd_start, "start ID", "run the user process of a created container", false, NULL},
    {"run", cmd_run,
     "run [--bundle DIR] [--pid-file FILE] [--detach] [--no-pivot] [--preserve-fds N] "
     "[--keep] [--timeout DURATION] [--report FILE] ID",
     "create and start a container; without --detach wait and pass on its exit status", true,
     F_BUNDLE F_PIDFILE
     "  --detach, -d           return once the process runs; ward's exit says nothing\n"
     "                         of the job\n" F_NOPIVOT F_PRESERVE
     "  --keep                 keep the stopped container (and its state) after the job\n"
     "                         ends, for `ward state` and `ward report`; delete it later\n"
     "  --timeout DURATION     wall-clock limit (\"90s\", \"10m\", \"1h\"): SIGTERM at the\n"
     "                         deadline, the cgroup killed after the policy's grace\n"
     "                         (default 5s); a line on stderr says so\n"
     "  --report FILE          write the run report (JSON: exit, limits, timeout, denied\n"
     "                         syscalls and connections) to FILE when the job ends\n"},
    {"exec", cmd_exec,
     "exec [--process FILE] [--detach] [--pid-file FILE] [--tty --console-socket SOCK] "
     "[--cwd DIR] [--env K=V]... "
     "[--user UID[:GID]] [--additional-gids GID]... [--cap CAP]... [--no-new-privs] "
     "[--preserve-fds N] ID [COMMAND [ARG...]]",
     "run another process in a container, in all its namespaces and under its seccomp "
     "filter",
     true,
     "  --process FILE, -p FILE  the process as a runtime-spec process JSON (the\n"
     "                         options below are then not taken)\n"
     "  --detach, -d           return once the process runs\n" F_PIDFILE
     "  --tty, -t              give the process a terminal (with --console-socket, or\n"
     "                         relayed to ward's own terminal)\n" F_CONSOLE
     "  --cwd DIR              working directory, inside the container\n"
     "  --env K=V, -e K=V      add or replace an environment variable (strict checks\n"
     "                         it as config.json's)\n"
     "  --user UID[:GID], -u   the process's user, as the container sees it\n"
     "  --additional-gids GID  a supplementary group (repeatable)\n"
     "  --cap CAP, -c CAP      add a capability (within the container's bounding set\n"
     "                         and the policy's cap)\n"
     "  --no-new-privs         set no_new_privs (always set outside compat)\n" F_PRESERVE},
    {"state", cmd_state, "state ID", "print the state of a container as JSON", false, NULL},
    {"kill", cmd_kill, "kill [--all] ID [SIGNAL]",
     "send a signal (name or number, default SIGTERM) to a container", false,
     "  --all, -a              signal every process of the container, not only its init\n"},
    {"delete", cmd_delete, "delete [--force] ID",
     "remove a stopped or created container (--force: also a running one)", false,
     "  --force, -f            kill a running container first (its whole cgroup); also\n"
     "                         removes what a create killed midway left\n"},
    {"pause", cmd_pause, "pause ID", "freeze every process of a running container", false, NULL},
    {"resume", cmd_resume, "resume ID", "thaw a paused container", false, NULL},
    {"ps", cmd_ps, "ps [--format table|json] ID [PS-OPTIONS...]",
     "list the processes of a container (table: ps -ef, or ps with the options given)", false,
     "  --format table|json, -f  table (ps output) or a JSON array of host pids\n"},
    {"update", cmd_update,
     "update [--resources FILE|-] [--memory N] [--memory-swap N] [--memory-reservation N] "
     "[--pids-limit N] [--cpu-shares N] [--cpu-quota N] [--cpu-period N] [--cpuset-cpus L] "
     "[--cpuset-mems L] ID",
     "change the cgroup limits of a live container", false,
     "  --resources FILE|-, -r  a runtime-spec linux.resources JSON (- : stdin)\n"
     "  --memory N             memory limit in bytes (-1: none)\n"
     "  --memory-swap N        memory+swap limit in bytes (-1: none)\n"
     "  --memory-reservation N soft memory limit in bytes\n"
     "  --pids-limit N         most tasks (-1: none)\n"
     "  --cpu-shares N         relative CPU weight\n"
     "  --cpu-quota N, --cpu-period N  CPU time per period, in microseconds\n"
     "  --cpuset-cpus L, --cpuset-mems L  CPUs and memory nodes (\"0-3,6\")\n"
     "  strict keeps its own limits: no update may loosen them\n"},
    {"events", cmd_events, "events [--stats] [--interval DURATION] ID",
     "resource figures (and OOM kills) of a container as JSON lines", false,
     "  --stats                print the figures once and exit\n"
     "  --interval DURATION    how often to print them (default 5s)\n"},
    {"list", cmd_list, "list [--quiet] [--format table|json]", "list containers", false,
     "  --quiet, -q            only the ids\n"
     "  --format table|json, -f  a table, or the states as a JSON array\n"},
    {"spec", cmd_spec, "spec [--bundle DIR] [--rootless] [--full]",
     "write a default config.json into the bundle directory (short, as runc's; the built-in "
     "seccomp profile applies without being written out)",
     false,
     F_BUNDLE "  --rootless             a config for a rootless caller (user namespace, no\n"
              "                         device cgroup)\n"
              "  --full                 runc's process (CAP_AUDIT_WRITE, no core or pids limit)\n"
              "                         and ward's seccomp profile written inline, to edit\n"},
    {"check", cmd_check, "check [--profile P] [--format text|json] BUNDLE",
     "what the container would reach, and what the policy would change or refuse (exit 0 "
     "allowed, 1 refused, 2 bad input)",
     false,
     "  --profile P            judge as compat, baseline or strict (default: as create\n"
     "                         would choose)\n"
     "  --format text|json     a report to read, or JSON (verdict, reach, findings,\n"
     "                         fields)\n"
     "  --bundle DIR           the bundle, as other commands take it (or BUNDLE)\n"},
    {"report", cmd_report, "report [--format text|json] ID | report --list",
     "the run report of a supervised container (strict, or with a time limit), also after "
     "delete",
     false,
     "  --format text|json     a summary to read, or the report as JSON\n"
     "  --list, -l             every kept report, the newest first: when it ended,\n"
     "                         the id, the profile and the summary line\n"},
    {"features", cmd_features, "features",
     "what ward supports, as the runtime-spec features JSON (with ward's annotations)", false,
     NULL},
};
static const size_t n_commands = sizeof(commands) / sizeof(commands[0]);

static void cli_usage(int fd)
{
	dprintf(fd, "usage: ward [GLOBAL OPTIONS] COMMAND [OPTIONS] [ARGS]\n\n"
	            "ward is an OCI container runtime with strict defaults for untrusted code.\n\n"
	            "global options:\n"
	            "  --root DIR            state directory (default /run/ward; not root:\n"
	            "                        $XDG_RUNTIME_DIR/ward)\n"
	            "  --log FILE            write log messages to FILE\n"
	            "  --log-format FORMAT   text or json\n"
	            "  --log-level LEVEL     error, warning, info or debug\n"
	            "  --debug               same as --log-level debug (also shows each policy\n"
	            "                        adjustment)\n"
	            "  --profile P           compat, baseline (default) or strict; ward-strict\n"
	            "                        as the binary's name selects strict\n"
	            "  --policy FILE         operator policy (default /etc/ward/policy.json)\n"
	            "  --systemd-cgroup      cgroups through systemd: a transient scope, the\n"
	            "                        cgroupsPath as slice:prefix:name\n"
	            "  --version, -v         print the version\n"
	            "  --help, -h            print this help\n\n"
	            "commands:\n");
	for (size_t i = 0; i < n_commands; i++)
		dprintf(fd, "  %-8s %s\n           usage: ward %s\n", commands[i].name,
		        commands[i].summary, commands[i].usage);
}

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

static int parse_globals(int argc, char **argv, struct globals *g, int *cmd_idx, bool *version,
                         bool *help, struct werror *err)
{
	const struct opt opts[] = {
	    {"root", 0, OPT_STR, &g->root},
	    {"log", 0, OPT_STR, &g->log},
	    {"log-format", 0, OPT_STR, &g->log_format},
	    {"log-level", 0, OPT_STR, &g->log_level},
	    {"debug", 0, OPT_FLAG, &g->debug},
	    {"profile", 0, OPT_STR, &g->profile},
	    {"policy", 0, OPT_STR, &g->policy},
	    {"systemd-cgroup", 0, OPT_FLAG, &g->systemd_cgroup},
	    {"version", 'v', OPT_FLAG, version},
	    {"help", 'h', OPT_FLAG, help},
	};
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
	for (size_t i = 0; i < n_commands; i++)
		if (strcmp(commands[i].name, argv[idx]) == 0)
			cmd = &commands[i];
	if (cmd == NULL) {
		werr_k(err, WERR_INVALID, 0,
		       "unknown command \"%s\": No help topic for '%s' (see ward --help)",
		       argv[idx], argv[idx]);
		log_fatal(werr_msg(err));
		return 1;
	}
	/* -h/--help among a command's options (before its first argument):
	 * its usage, exit 0, as runc answers. */
	for (int i = idx + 1; i < argc && argv[i][0] == '-' && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			printf("usage: ward %s\n\n%s\n", cmd->usage, cmd->summary);
			if (cmd->flags)
				printf("\noptions:\n%s", cmd->flags);
			return 0;
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
		return ops_fail_status(&g, cmd->name, err);
	}
	return r;
}
