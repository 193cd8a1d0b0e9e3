/* ward features: what this build of ward supports (query_features). */
#include "cli/commands.h"
#include "container/query/query.h"

int cmd_features(struct globals *g, int argc, char **argv, struct werror *err)
{
	size_t n_pos;

	(void)g;
	if (cli_parse(argc, argv, NULL, 0, NULL, 0, &n_pos, false, err) < 0)
		return -1;
	return query_features(err);
}
