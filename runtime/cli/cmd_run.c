#include "cli/create_cli.h"
#include "container/ops/ops.h"
#include "lib/error.h"

int cmd_run(struct globals *g, int argc, char **argv, struct werror *err)
{
	struct create_request cc = {.bundle = "."};
	const struct opt opts[] = {
	    CREATE_CLI_OPTS(cc),
	    {"detach", 'd', OPT_FLAG, &cc.detach},
	    {"keep", 0, OPT_FLAG, &cc.keep},
	    {"timeout", 0, OPT_MS, &cc.timeout_ms},
	    {"report", 0, OPT_STR, &cc.report},
	};
	char *pos[1];
	size_t n_pos;

	if (cli_parse(argc, argv, opts, sizeof(opts) / sizeof(opts[0]), pos, 1, &n_pos, false,
	              err) < 0 ||
	    cli_one_id("run", n_pos, err) < 0)
		return -1;
	if (cc.report && cc.detach)
		return werr_k(err, WERR_INVALID, 0,
		              "--report: the report is written when the run ends, which a "
		              "detached run does not wait for (use ward report ID)");
	cc.id = pos[0];
	return ops_run(g, &cc, err);
}
