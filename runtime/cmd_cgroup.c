/* pause, resume, ps: commands that act through the container's cgroup. */
#include "cli.h"
#include "container.h"
#include "error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int pause_or_resume(struct globals *g, int argc, char **argv, bool pause)
{
	struct container c;
	char *pos[1];
	size_t n_pos;
	int r;

	if (cli_open_container(g, pause ? "pause" : "resume", argc, argv, NULL, 0, pos, 1, &n_pos,
	                       true, &c) < 0)
		return -1;
	r = container_pause(&c, pause);
	store_close(&c);
	return r;
}

int cmd_pause(struct globals *g, int argc, char **argv)
{
	return pause_or_resume(g, argc, argv, true);
}

int cmd_resume(struct globals *g, int argc, char **argv)
{
	return pause_or_resume(g, argc, argv, false);
}

int cmd_ps(struct globals *g, int argc, char **argv)
{
	const char *format = "table";
	const struct opt opts[] = {{"format", 'f', OPT_STR, &format}};
	struct container c;
	pid_t *pids;
	char *pos[1];
	size_t n, n_pos;
	int r;

	if (cli_open_container(g, "ps", argc, argv, opts, 1, pos, 1, &n_pos, true, &c) < 0)
		return -1;
	if (strcmp(format, "table") != 0 && strcmp(format, "json") != 0) {
		store_close(&c);
		return werr(0, "ps: --format must be table or json (got \"%s\")", format);
	}
	r = container_pids(&c, &pids, &n);
	if (r == 0 && strcmp(format, "json") == 0) {
		/* As runc: a JSON array of host pids. */
		printf("[");
		for (size_t i = 0; i < n; i++)
			printf("%s%d", i ? "," : "", (int)pids[i]);
		printf("]\n");
	} else if (r == 0) {
		printf("PID\n");
		for (size_t i = 0; i < n; i++)
			printf("%d\n", (int)pids[i]);
	}
	free(pids);
	store_close(&c);
	return r;
}
