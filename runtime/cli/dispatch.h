/* The subcommand table main() dispatches on, and the usage text made from it. */
#ifndef WARD_CLI_DISPATCH_H
#define WARD_CLI_DISPATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/options.h"

struct command {
	const char *name;
	int (*run)(struct globals *g, int argc, char **argv);
	const char *usage;
	const char *summary;
	bool builds_container; /* needs the sealed re-exec */
};

extern const struct command commands[];
extern const size_t n_commands;

void cli_usage(int fd);

#endif
