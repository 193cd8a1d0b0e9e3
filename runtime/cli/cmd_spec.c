#include "cli/commands.h"
#include "container/query/query.h"

int cmd_spec(struct globals *g, int argc, char **argv, struct werror *err)
{
	const char *bundle = ".";
	bool rootless = false;
	const struct opt opts[] = {{"bundle", 'b', OPT_STR, &bundle},
	                           {"rootless", 0, OPT_FLAG, &rootless}};
	size_t n_pos;

	(void)g;
	if (cli_parse(argc, argv, opts, 2, NULL, 0, &n_pos, false, err) < 0)
		return -1;
	return query_spec(bundle, rootless, err);
}
