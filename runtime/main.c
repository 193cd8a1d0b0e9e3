#include "cli/dispatch.h"
#include "lib/error.h"
#include "lib/log.h"
#include "container/reexec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

static int parse_globals(int argc, char **argv, struct globals *g, int *cmd_idx, bool *version,
                         bool *help)
{
	const struct opt opts[] = {
	    {"root", 0, OPT_STR, &g->root},
	    {"log", 0, OPT_STR, &g->log},
	    {"log-format", 0, OPT_STR, &g->log_format},
	    {"log-level", 0, OPT_STR, &g->log_level},
	    {"debug", 0, OPT_FLAG, &g->debug},
	    {"profile", 0, OPT_STR, &g->profile},
	    {"policy", 0, OPT_STR, &g->policy},
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
	return cli_parse(i, argv, opts, sizeof(opts) / sizeof(opts[0]), pos, 0, &n_pos, false);
}

int main(int argc, char **argv)
{
	struct globals g = {.root = "/run/ward", .rootfd = -1, .argv0 = argv[0]};
	bool version = false, help = false;
	const struct command *cmd = NULL;
	int idx;

	if (parse_globals(argc, argv, &g, &idx, &version, &help) < 0 ||
	    log_setup(g.log, g.log_format, g.log_level, g.debug) < 0) {
		log_fatal(werr_msg());
		return 1;
	}
	if (version) {
		printf("ward version %s\nspec: 1.2.0\n", PACKAGE_VERSION);
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
		werr(0, "unknown command \"%s\" (see ward --help)", argv[idx]);
		log_fatal(werr_msg());
		return 1;
	}
	if (cmd->builds_container && reexec_sealed(argv, environ) < 0) {
		log_fatal(werr_msg());
		return 1;
	}
	{
		int r = cmd->run(&g, argc - idx, argv + idx);

		if (r < 0) {
			log_fatal(werr_msg());
			return 1;
		}
		return r;
	}
}
