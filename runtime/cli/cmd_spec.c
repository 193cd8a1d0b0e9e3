#include "cli/commands.h"
#include "container/query/query.h"

int cmd_spec(struct globals *g, int argc, char **argv, struct werror *err)
{
	const char *bundle = ".";
	bool rootless = false, full = false;
	const struct opt opts[] = {
	    {"bundle", 'b', OPT_STR, &bundle, "DIR",
	     "the bundle directory to write config.json into;\ndefault: the current directory"},
	    {"rootless", 0, OPT_FLAG, &rootless, NULL,
	     "a config for a rootless caller (user namespace, no\ndevice cgroup)"},
	    {"full", 0, OPT_FLAG, &full, NULL,
	     "runc's process (CAP_AUDIT_WRITE, no core or pids\nlimit) and ward's seccomp profile "
	     "written inline, to edit"}};
	size_t n_pos;

	(void)g;
	if (cli_parse(argc, argv, opts, 3, NULL, 0, &n_pos, false, err) < 0)
		return -1;
	return query_spec(bundle, rootless, full, err);
}
