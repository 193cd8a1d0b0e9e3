#include "cli.h"
#include "error.h"
#include "store.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

static const struct opt *find_opt(const struct opt *opts, size_t n, const char *name, size_t len,
                                  bool is_short)
{
	for (size_t i = 0; i < n; i++) {
		if (is_short && len == 1 && opts[i].short_name == name[0])
			return &opts[i];
		if (strlen(opts[i].name) == len && strncmp(opts[i].name, name, len) == 0)
			return &opts[i];
	}
	return NULL;
}

static int set_opt(const struct opt *o, const char *val, bool has_val)
{
	switch (o->kind) {
	case OPT_FLAG:
		if (has_val && strcmp(val, "true") != 0 && strcmp(val, "false") != 0)
			return werr(0, "--%s takes no value (or =true/=false)", o->name);
		*(bool *)o->dst = !has_val || strcmp(val, "true") == 0;
		return 0;
	case OPT_STR:
		*(const char **)o->dst = val;
		return 0;
	case OPT_LIST: {
		struct optlist *l = o->dst;
		char **nv = realloc(l->v, (l->n + 1) * sizeof(*nv));

		if (nv == NULL)
			return werr(ENOMEM, "out of memory");
		nv[l->n++] = (char *)val;
		l->v = nv;
		return 0;
	}
	case OPT_INT: {
		char *end;
		long v;

		errno = 0;
		v = strtol(val, &end, 10);
		if (errno || *end || end == val || v < 0 || v > INT_MAX)
			return werr(0, "--%s: \"%s\" is not a non-negative integer", o->name, val);
		*(int *)o->dst = (int)v;
		return 0;
	}
	case OPT_MS: {
		char *end;
		double v = strtod(val, &end);
		double scale = strcmp(end, "ms") == 0                  ? 1
		               : *end == '\0' || strcmp(end, "s") == 0 ? 1000
		               : strcmp(end, "m") == 0                 ? 60000
		                                                       : 0;

		/* Bounded so the product fits a long; NaN fails the comparison. */
		if (end == val || scale == 0 || !(v > 0 && v * scale <= 1e12))
			return werr(0, "--%s: \"%s\" is not a duration", o->name, val);
		if (v * scale < 1)
			return werr(0, "--%s: \"%s\" is too short", o->name, val);
		*(long *)o->dst = (long)(v * scale);
		return 0;
	}
	}
	return -1;
}

int cli_parse(int argc, char **argv, const struct opt *opts, size_t n_opts, char **pos,
              size_t max_pos, size_t *n_pos, bool stop_at_positional)
{
	bool only_pos = false;

	*n_pos = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const struct opt *o;
		const char *name, *eq;
		size_t len;
		bool is_short;

		if (only_pos || a[0] != '-' || a[1] == '\0') {
			if (*n_pos >= max_pos)
				return werr(0, "%s: unexpected argument \"%s\"", argv[0], a);
			pos[(*n_pos)++] = argv[i];
			if (stop_at_positional)
				only_pos = true;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			only_pos = true;
			continue;
		}
		name = a + (a[1] == '-' ? 2 : 1);
		eq = strchr(name, '=');
		len = eq ? (size_t)(eq - name) : strlen(name);
		is_short = a[1] != '-';
		o = find_opt(opts, n_opts, name, len, is_short);
		if (o == NULL)
			return werr(0, "%s: unknown option \"%s\"", argv[0], a);
		if (eq) {
			if (set_opt(o, eq + 1, true) < 0)
				return -1;
		} else if (o->kind == OPT_FLAG) {
			if (set_opt(o, NULL, false) < 0)
				return -1;
		} else {
			if (i + 1 >= argc)
				return werr(0, "%s: option %s needs a value", argv[0], a);
			if (set_opt(o, argv[++i], true) < 0)
				return -1;
		}
	}
	return 0;
}

int cli_one_id(const char *cmd, size_t n_pos)
{
	if (n_pos != 1)
		return werr(0, "%s: expects exactly one container id (see ward --help)", cmd);
	return 0;
}

int cli_open_container(struct globals *g, const char *cmd, int argc, char **argv,
                       const struct opt *opts, size_t n_opts, char **pos, size_t max_pos,
                       size_t *n_pos, bool lock, struct container *c)
{
	memset(c, 0, sizeof(*c));
	c->dirfd = -1;
	if (cli_parse(argc, argv, opts, n_opts, pos, max_pos, n_pos, false) < 0)
		return -1;
	if (*n_pos < 1)
		return werr(0, "%s: expects a container id (see ward --help)", cmd);
	if (cli_root(g) < 0)
		return -1;
	if (store_open(g->rootfd, pos[0], lock, c) < 0) {
		store_close(c);
		return -1;
	}
	return 0;
}

int cli_root(struct globals *g)
{
	if (g->rootfd < 0)
		g->rootfd = store_open_root(g->root);
	return g->rootfd;
}
