#include "cli/dispatch.h"
#include "cli/commands.h"

#include <stdio.h>

const struct command commands[] = {
    {"create", cmd_create,
     "create [--bundle DIR] [--pid-file FILE] [--console-socket SOCK] [--no-pivot] "
     "[--preserve-fds N] ID",
     "create a container, its init waiting to be started", true},
    {"start", cmd_start, "start ID", "run the user process of a created container", false},
    {"run", cmd_run,
     "run [--bundle DIR] [--pid-file FILE] [--detach] [--no-pivot] [--preserve-fds N] "
     "[--keep] ID",
     "create and start a container; without --detach wait and pass on its exit status", true},
    {"exec", cmd_exec,
     "exec [--process FILE] [--detach] [--pid-file FILE] [--tty --console-socket SOCK] "
     "[--cwd DIR] [--env K=V]... "
     "[--user UID[:GID]] [--additional-gids GID]... [--cap CAP]... [--no-new-privs] "
     "[--preserve-fds N] ID [COMMAND [ARG...]]",
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
    {"update", cmd_update,
     "update [--resources FILE|-] [--memory N] [--memory-swap N] [--memory-reservation N] "
     "[--pids-limit N] [--cpu-shares N] [--cpu-quota N] [--cpu-period N] [--cpuset-cpus L] "
     "[--cpuset-mems L] ID",
     "change the cgroup limits of a live container", false},
    {"events", cmd_events, "events [--stats] [--interval DURATION] ID",
     "resource figures (and OOM kills) of a container as JSON lines", false},
    {"list", cmd_list, "list [--quiet] [--format table|json]", "list containers", false},
    {"spec", cmd_spec, "spec [--bundle DIR]",
     "write a default config.json into the bundle directory", false},
    {"check", cmd_check, "check [--profile P] [--format text|json] BUNDLE",
     "what the container would reach, and what the policy would change or refuse (exit 0 "
     "allowed, 1 refused, 2 bad input)",
     false},
    {"features", cmd_features, "features",
     "what ward supports, as the runtime-spec features JSON (with ward's annotations)", false},
};
const size_t n_commands = sizeof(commands) / sizeof(commands[0]);

void cli_usage(int fd)
{
	dprintf(fd, "usage: ward [GLOBAL OPTIONS] COMMAND [OPTIONS] [ARGS]\n\n"
	            "ward is an OCI container runtime with strict defaults for untrusted code.\n\n"
	            "global options:\n"
	            "  --root DIR            state directory (default /run/ward)\n"
	            "  --log FILE            write log messages to FILE\n"
	            "  --log-format FORMAT   text or json\n"
	            "  --log-level LEVEL     error, warning, info or debug\n"
	            "  --debug               same as --log-level debug (also shows each policy\n"
	            "                        adjustment)\n"
	            "  --profile P           compat, baseline (default) or strict; ward-strict\n"
	            "                        as the binary's name selects strict\n"
	            "  --policy FILE         operator policy (default /etc/ward/policy.json)\n"
	            "  --version, -v         print the version\n"
	            "  --help, -h            print this help\n\n"
	            "commands:\n");
	for (size_t i = 0; i < n_commands; i++)
		dprintf(fd, "  %-8s %s\n           usage: ward %s\n", commands[i].name,
		        commands[i].summary, commands[i].usage);
}
