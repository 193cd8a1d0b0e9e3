/* The run report of a supervised container, as the supervisor wrote it
 * (it stays after delete): read, or printed as text or JSON. */
#include "container/query/query.h"
#include "lib/strfmt.h"
#include "container/store.h"
#include "lib/error.h"
#include "lib/fileio.h"
#include "lib/jwalk.h"
#include "policy/policy_file.h"
#include "supervisor/report_view.h"
#include "supervisor/supervisor.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_tree.h>

#define REPORT_MAX (4 << 20)

/* Where the reports are: the policy's reportDir, or the state root's. */
static int report_dir(struct globals *g, char *dir, size_t size, struct werror *err)
{
	struct policy *pol = policy_load(g->policy, err);
	int r;

	if (pol == NULL)
		return -1;
	r = sup_report_dir(pol->report_dir, g->root, dir, size, err);
	policy_free(pol);
	return r;
}

int query_report_read(struct globals *g, const char *id, char **buf, size_t *len,
                      struct werror *err)
{
	char dir[PATH_MAX], path[PATH_MAX + 1100];

	if (store_check_id(id, err) < 0 || report_dir(g, dir, sizeof(dir), err) < 0)
		return -1;
	if (fmt_fit(path, sizeof(path), "%s/%s.json", dir, id) < 0)
		return werr(err, ENAMETOOLONG, "%s/%s.json", dir, id);
	if (read_file(path, REPORT_MAX, buf, len, err) < 0)
		return errno == ENOENT ? werr(err, 0,
		                              "no run report for \"%s\" (only supervised "
		                              "containers have one: strict, or a time limit)",
		                              id)
		                       : -1;
	return 0;
}

int query_report(struct globals *g, const char *id, bool json, struct werror *err)
{
	char *buf;
	size_t len;
	int r;

	if (query_report_read(g, id, &buf, &len, err) < 0)
		return -1;
	if (json) {
		/* Passed on as written, once it is known to parse. */
		yajl_val v = jparse_document(buf, len, 6, "the run report", err);

		r = v ? 0 : -1;
		yajl_tree_free(v);
		if (r == 0) {
			fwrite(buf, 1, len, stdout);
			if (len && buf[len - 1] != '\n')
				putchar('\n');
		}
	} else {
		r = report_print_text(buf, len, stdout, err);
	}
	free(buf);
	return r;
}

static int newest_first(const void *a, const void *b)
{
	return strcmp(*(char *const *)b, *(char *const *)a);
}

/* Every run report kept, the newest first: when it ended, the id, the
 * profile and the summary line. A report that does not parse is named, not
 * skipped. */
int query_report_list(struct globals *g, struct werror *err)
{
	char dir[PATH_MAX], path[PATH_MAX + 300];
	char **lines = NULL;
	size_t n = 0;
	struct dirent *e;
	DIR *d;
	int r = 0;

	if (report_dir(g, dir, sizeof(dir), err) < 0)
		return -1;
	d = opendir(dir);
	if (d == NULL && errno != ENOENT)
		return werr(err, errno, "the run reports (%s)", dir);
	while (d && r == 0 && (e = readdir(d)) != NULL) {
		size_t l = strlen(e->d_name), size = 0;
		char *buf = NULL, *line = NULL, **grown;
		FILE *m;

		if (l < 6 || strcmp(e->d_name + l - 5, ".json") != 0 || e->d_name[0] == '.')
			continue;
		if (fmt_fit(path, sizeof(path), "%s/%s", dir, e->d_name) < 0)
			continue;
		m = open_memstream(&line, &size);
		if (m == NULL || read_file(path, REPORT_MAX, &buf, &l, err) < 0 ||
		    report_print_line(buf, l, m, err) < 0) {
			if (m)
				fprintf(m, "-\t%.*s\t-\t-\t(unreadable: %s)\n",
				        (int)(strlen(e->d_name) - 5), e->d_name, werr_msg(err));
		}
		free(buf);
		if (m)
			fclose(m);
		grown = line ? realloc(lines, (n + 1) * sizeof(*lines)) : NULL;
		if (grown == NULL) {
			free(line);
			r = werr(err, ENOMEM, "out of memory");
			break;
		}
		lines = grown;
		lines[n++] = line;
	}
	if (d)
		closedir(d);
	if (r == 0) {
		qsort(lines, n, sizeof(*lines), newest_first);
		printf("ENDED\tID\tPROFILE\tEXIT\tSUMMARY\n");
		for (size_t i = 0; i < n; i++)
			fputs(lines[i], stdout);
	}
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
	return r;
}
