/* ward check [--profile P] [--format text|json] BUNDLE
 *
 * The policy's analysis without creating anything: what the container
 * would reach (mounts and host paths, devices, capabilities, namespaces,
 * network, environment names, limits, seccomp) and what ward would change
 * or refuse. Exit 0: allowed, 1: refused, 2: bad input. */
#include "cli/commands.h"
#include "container/query/query.h"
#include "lib/error.h"
#include "lib/log.h"

#include <string.h>

#define EXIT_BADINPUT 2

int cmd_check(struct globals *g, int argc, char **argv, struct werror *err)
{
	const char *format = "text", *profile = g->profile, *bundle_opt = NULL;
	const struct opt opts[] = {
	    {"profile", 0, OPT_STR, &profile, "compat|baseline|strict",
	     "judge as compat, baseline or strict (default: as\ncreate would choose)"},
	    {"format", 'f', OPT_STR, &format, "text|json",
	     "a report to read, or JSON (verdict, reach, findings,\nfields)"},
	    {"bundle", 'b', OPT_STR, &bundle_opt, "DIR",
	     "the bundle, as other commands take it (or BUNDLE)"}};
	char *pos[1];
	size_t n_pos;
	int rc;

	if (cli_parse(argc, argv, opts, 3, pos, 1, &n_pos, false, err) < 0)
		goto bad;
	/* --bundle DIR as every other command takes it, or the directory as
	 * the one argument; not both. */
	if (bundle_opt && n_pos == 0)
		pos[n_pos++] = (char *)bundle_opt;
	else if (bundle_opt) {
		werr(err, 0, "check: give the bundle with --bundle or as the argument, not both");
		goto bad;
	}
	if (n_pos != 1) {
		werr(err, 0, "check: give one bundle directory (--bundle DIR, or DIR)");
		goto bad;
	}
	if (strcmp(format, "text") != 0 && strcmp(format, "json") != 0) {
		werr(err, 0, "check: --format must be text or json");
		goto bad;
	}
	rc = query_check(g, pos[0], profile, strcmp(format, "json") == 0, err);
	if (rc >= 0)
		return rc;
bad:
	log_fatal(werr_msg(err));
	return EXIT_BADINPUT;
}
