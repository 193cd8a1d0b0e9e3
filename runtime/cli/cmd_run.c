#include "cli/create_cli.h"
#include "container/ops/ops.h"
#include "lib/error.h"

int cmd_run(struct globals *g, int argc, char **argv, struct werror *err)
{
	struct create_request cc = {.bundle = "."};
	const struct opt opts[] = {
	    CREATE_CLI_OPTS(cc),
	    {"detach", 'd', OPT_FLAG, &cc.detach, NULL,
	     "return once the process runs; ward's exit says nothing\nof the job"},
	    {"keep", 0, OPT_FLAG, &cc.keep, NULL,
	     "keep the stopped container (its state, for `ward\nstate`) after the job ends; delete "
	     "it later (a\nsupervised run's report stays either way: ward report)"},
	    {"timeout", 0, OPT_MS, &cc.timeout_ms, "DURATION",
	     "wall-clock limit (\"90s\", \"10m\", \"1h\"): SIGTERM at the\ndeadline, the cgroup "
	     "killed after the policy's grace\n(default 5s); a line on stderr says so"},
	    {"report", 0, OPT_STR, &cc.report, "FILE",
	     "write the run report (JSON: exit, limits, timeout,\ndenied syscalls and "
	     "connections) to FILE when the job\nends"},
	};
	char *pos[1];
	size_t n_pos;

	if (cli_parse(argc, argv, opts, sizeof(opts) / sizeof(opts[0]), pos, 1, &n_pos, false,
	              err) < 0 ||
	    cli_one_id("run", n_pos, err) < 0 || cli_new_id(pos[0], err) < 0)
		return -1;
	if (cc.report && cc.detach)
		return cli_usage_err(err,
		                     "--report: the report is written when the run ends, which a "
		                     "detached run does not wait for (use ward report ID)");
	cc.id = pos[0];
	return ops_run(g, &cc, err);
}
