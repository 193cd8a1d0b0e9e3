/* events: runc's JSON lines (query_events). */
#include "cli/commands.h"
#include "container/query/query.h"
#include "container/store.h"

int cmd_events(struct globals *g, int argc, char **argv, struct werror *err)
{
	bool stats = false;
	long ms = 5000;
	const struct opt opts[] = {
	    {"stats", 0, OPT_FLAG, &stats, NULL, "print the figures once and exit"},
	    {"interval", 0, OPT_MS, &ms, "DURATION", "how often to print them (default 5s)"}};
	struct container c;
	char *pos[1];
	size_t n_pos;
	int r;

	if (cli_open_container(g, "events", argc, argv, opts, 2, pos, 1, &n_pos, false, &c, err) <
	    0)
		return -1;
	r = query_events(&c, stats, ms, err);
	store_close(&c);
	return r;
}
