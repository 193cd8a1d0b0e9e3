/* state and list: read-only views of the state store. */
#include "cli/commands.h"
#include "lib/error.h"
#include "container/store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yajl/yajl_gen.h>

int cmd_state(struct globals *g, int argc, char **argv)
{
	struct container c;
	char *pos[1];
	size_t n_pos, len;
	char *json;
	int r = -1;

	if (cli_open_container(g, "state", argc, argv, NULL, 0, pos, 1, &n_pos, false, &c) < 0)
		return -1;
	if (c.st == NULL)
		werr(0, "container \"%s\" is still being created", c.id);
	else if (oci_state_to_json(c.st, false, &json, &len) == 0) {
		printf("%s\n", json);
		free(json);
		r = 0;
	}
	store_close(&c);
	return r;
}

static void print_table_row(const struct container *c)
{
	const struct oci_state *s = c->st;

	printf("%-12s %-8d %-10s %-40s %-30s %s\n", c->id, s ? s->pid : 0, status_name(c->status),
	       s && s->bundle ? s->bundle : "", s && s->created ? s->created : "",
	       s && s->owner ? s->owner : "");
}

int cmd_list(struct globals *g, int argc, char **argv)
{
	bool quiet = false;
	const char *format = "table";
	const struct opt opts[] = {{"quiet", 'q', OPT_FLAG, &quiet},
	                           {"format", 'f', OPT_STR, &format}};
	yajl_gen gen = NULL;
	struct dirent *de;
	size_t n_pos;
	DIR *d;
	int fd;

	if (cli_parse(argc, argv, opts, 2, NULL, 0, &n_pos, false) < 0)
		return -1;
	if (strcmp(format, "table") != 0 && strcmp(format, "json") != 0)
		return werr(0, "list: --format must be table or json (got \"%s\")", format);
	if (cli_root(g) < 0 || (fd = dup(g->rootfd)) < 0 || (d = fdopendir(fd)) == NULL)
		return werr(errno, "listing %s", g->root);
	if (strcmp(format, "json") == 0) {
		gen = yajl_gen_alloc(NULL);
		yajl_gen_array_open(gen);
	} else if (!quiet) {
		printf("%-12s %-8s %-10s %-40s %-30s %s\n", "ID", "PID", "STATUS", "BUNDLE",
		       "CREATED", "OWNER");
	}
	while ((de = readdir(d)) != NULL) {
		struct container c;

		if (de->d_name[0] == '.')
			continue;
		if (store_open(g->rootfd, de->d_name, false, &c) == 0) {
			if (gen && c.st)
				oci_state_gen(gen, c.st, false);
			else if (quiet)
				printf("%s\n", c.id);
			else if (!gen)
				print_table_row(&c);
		}
		store_close(&c);
	}
	closedir(d);
	if (gen) {
		const unsigned char *buf;
		size_t len;

		yajl_gen_array_close(gen);
		yajl_gen_get_buf(gen, &buf, &len);
		printf("%.*s\n", (int)len, buf);
		yajl_gen_free(gen);
	}
	return 0;
}
