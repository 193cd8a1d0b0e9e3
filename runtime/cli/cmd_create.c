#include "cli/create_cli.h"
#include "container/ops/ops.h"

int cmd_create(struct globals *g, int argc, char **argv, struct werror *err)
{
	struct create_request cc = {.bundle = "."};
	const struct opt opts[] = {CREATE_CLI_OPTS(cc)};
	char *pos[1];
	size_t n_pos;

	if (cli_parse(argc, argv, opts, sizeof(opts) / sizeof(opts[0]), pos, 1, &n_pos, false,
	              err) < 0 ||
	    cli_one_id("create", n_pos, err) < 0 || cli_new_id(pos[0], err) < 0)
		return -1;
	cc.id = pos[0];
	return ops_create(g, &cc, err);
}
