/* The run report of a supervised container, as the supervisor wrote it
 * (it stays after delete): read, or printed as text or JSON. */
#include "container/query/query.h"
#include "container/store.h"
#include "lib/error.h"
#include "lib/fileio.h"
#include "lib/jwalk.h"
#include "policy/policy_file.h"
#include "supervisor/report_view.h"
#include "supervisor/supervisor.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_tree.h>

#define REPORT_MAX (4 << 20)

int query_report_read(struct globals *g, const char *id, char **buf, size_t *len)
{
	struct policy *pol;
	char dir[PATH_MAX], path[PATH_MAX + 1100];
	int r;

	if (store_check_id(id) < 0)
		return -1;
	pol = policy_load(g->policy);
	if (pol == NULL)
		return -1;
	r = sup_report_dir(pol->report_dir, g->root, dir, sizeof(dir));
	policy_free(pol);
	if (r < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/%s.json", dir, id);
	if (read_file(path, REPORT_MAX, buf, len) < 0)
		return errno == ENOENT ? werr(0,
		                              "no run report for \"%s\" (only supervised "
		                              "containers have one: strict, or a time limit)",
		                              id)
		                       : -1;
	return 0;
}

int query_report(struct globals *g, const char *id, bool json)
{
	char *buf;
	size_t len;
	int r;

	if (query_report_read(g, id, &buf, &len) < 0)
		return -1;
	if (json) {
		/* Passed on as written, once it is known to parse. */
		yajl_val v = jparse_document(buf, len, 6, "the run report");

		r = v ? 0 : -1;
		yajl_tree_free(v);
		if (r == 0) {
			fwrite(buf, 1, len, stdout);
			if (len && buf[len - 1] != '\n')
				putchar('\n');
		}
	} else {
		r = report_print_text(buf, len, stdout);
	}
	free(buf);
	return r;
}
