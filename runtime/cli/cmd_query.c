/* state, list and report: read-only views of the state store and of the
 * run reports (issue #14; the report stays after delete). */
#include "cli/commands.h"
#include "lib/error.h"
#include "lib/fileio.h"
#include "lib/jwalk.h"
#include "container/container.h"
#include "container/query/query.h"
#include "container/store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yajl/yajl_gen.h>
#include <yajl/yajl_tree.h>

int cmd_state(struct globals *g, int argc, char **argv, struct werror *err)
{
	struct container c;
	char *pos[1];
	size_t n_pos;
	int r;

	if (cli_open_container(g, "state", argc, argv, NULL, 0, pos, 1, &n_pos, false, &c, err) < 0)
		return -1;
	r = query_state(&c, err);
	store_close(&c);
	return r;
}

static void print_table_row(const struct container *c)
{
	const struct oci_state *s = c->st;

	if (c->status == ST_UNKNOWN) {
		printf("%-12s %-8d %-10s %s\n", c->id, 0, status_name(c->status), c->load_err);
		return;
	}
	printf("%-12s %-8d %-10s %-40s %-30s %-10s %s\n", c->id, s ? s->pid : 0,
	       status_name(c->status), s && s->bundle ? s->bundle : "",
	       s && s->created ? s->created : "", s && s->owner ? s->owner : "",
	       s && s->profile ? s->profile : "-");
}

/* --format json: what is known of a container without a readable state
 * (being created or deleted, or unknown with the reason). */
static void gen_unreadable(yajl_gen gen, const struct container *c)
{
	const char *status = status_name(c->status);

	yajl_gen_map_open(gen);
	yajl_gen_string(gen, (const unsigned char *)"id", 2);
	yajl_gen_string(gen, (const unsigned char *)c->id, strlen(c->id));
	yajl_gen_string(gen, (const unsigned char *)"status", 6);
	yajl_gen_string(gen, (const unsigned char *)status, strlen(status));
	if (c->load_err) {
		yajl_gen_string(gen, (const unsigned char *)"error", 5);
		yajl_gen_string(gen, (const unsigned char *)c->load_err, strlen(c->load_err));
	}
	yajl_gen_map_close(gen);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int cmd_list(struct globals *g, int argc, char **argv, struct werror *err)
{
	bool quiet = false;
	const char *format = "table";
	const struct opt opts[] = {{"quiet", 'q', OPT_FLAG, &quiet, NULL, "only the ids"},
	                           {"format", 'f', OPT_STR, &format, "table|json",
	                            "a table, or the states as a JSON array"}};
	yajl_gen gen = NULL;
	struct dirent *de;
	char **ids = NULL;
	size_t n_pos, n_ids = 0, cap = 0;
	DIR *d;
	int fd, r = 0;

	if (cli_parse(argc, argv, opts, 2, NULL, 0, &n_pos, false, err) < 0)
		return -1;
	if (strcmp(format, "table") != 0 && strcmp(format, "json") != 0)
		return werr(err, 0, "list: --format must be table or json (got \"%s\")", format);
	if (cli_root(g, err) < 0)
		return -1;
	if ((fd = dup(g->rootfd)) < 0 || (d = fdopendir(fd)) == NULL)
		return werr(err, errno, "listing %s", g->root);
	if (strcmp(format, "json") == 0) {
		gen = yajl_gen_alloc(NULL);
		yajl_gen_array_open(gen);
	} else if (!quiet) {
		printf("%-12s %-8s %-10s %-40s %-30s %-10s %s\n", "ID", "PID", "STATUS", "BUNDLE",
		       "CREATED", "OWNER", "PROFILE");
	}
	/* Sorted by id, as runc lists them. */
	while ((de = readdir(d)) != NULL) {
		char **v;

		if (de->d_name[0] == '.')
			continue;
		v = n_ids == cap ? realloc(ids, (cap = cap ? cap * 2 : 64) * sizeof(*ids)) : ids;
		if (v == NULL || (v[n_ids] = strdup(de->d_name)) == NULL) {
			ids = v ? v : ids;
			r = werr(err, ENOMEM, "out of memory");
			break;
		}
		ids = v;
		n_ids++;
	}
	if (n_ids)
		qsort(ids, n_ids, sizeof(*ids), cmp_names);
	for (size_t i = 0; r == 0 && i < n_ids; i++) {
		struct container c;

		/* A container whose state cannot be read is listed all the same,
		 * status unknown with the reason: hidden, it would be forgotten
		 * with its processes and cgroups. */
		if (store_open_any(g->rootfd, ids[i], false, &c, err) == 0) {
			if (c.st)
				c.st->profile = container_profile_name(&c);
			if (gen && c.st)
				oci_state_gen(gen, c.st, false, err);
			else if (gen)
				gen_unreadable(gen, &c);
			else if (quiet)
				printf("%s\n", c.id);
			else
				print_table_row(&c);
		} else {
			/* Not even openable (not a container directory at all). */
			fprintf(stderr, "ward: list: %s\n", werr_msg(err));
			werr_clear(err);
		}
		store_close(&c);
	}
	for (size_t i = 0; i < n_ids; i++)
		free(ids[i]);
	free(ids);
	closedir(d);
	if (gen) {
		const unsigned char *buf;
		size_t len;

		yajl_gen_array_close(gen);
		yajl_gen_get_buf(gen, &buf, &len);
		printf("%.*s\n", (int)len, buf);
		yajl_gen_free(gen);
	}
	return r;
}

int cmd_report(struct globals *g, int argc, char **argv, struct werror *err)
{
	const char *format = "text";
	bool list = false;
	const struct opt opts[] = {
	    {"format", 'f', OPT_STR, &format, "text|json",
	     "a summary to read, or the report as JSON (not with\n--list: the listing is a table)"},
	    {"list", 'l', OPT_FLAG, &list, NULL,
	     "every kept report, the newest first: when it ended,\nthe id, the profile and the "
	     "summary line"}};
	char *pos[1];
	size_t n_pos;

	if (cli_parse(argc, argv, opts, 2, pos, 1, &n_pos, false, err) < 0)
		return -1;
	/* The listing is a table only (container/query/q_report.c): said,
	 * rather than the table printed for a JSON request. */
	if (list && strcmp(format, "text") != 0)
		return cli_usage_err(err,
		                     "report --list: --format %s: the listing is only a table "
		                     "(ward report --format json ID gives one report as JSON)",
		                     format);
	if (list && n_pos == 0)
		return query_report_list(g, err);
	if (n_pos != 1 || list)
		return werr(err, 0, "report: needs a container id (or --list, alone)");
	if (strcmp(format, "text") != 0 && strcmp(format, "json") != 0)
		return werr_k(err, WERR_INVALID, 0, "--format: must be text or json (got \"%s\")",
		              format);
	return query_report(g, pos[0], strcmp(format, "json") == 0, err);
}
