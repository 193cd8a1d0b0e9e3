/* pause, resume, ps: commands that act through the container's cgroup. */
#include "cli/commands.h"
#include "container/container.h"
#include "lib/error.h"
#include "container/store.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int pause_or_resume(struct globals *g, int argc, char **argv, bool pause, struct werror *err)
{
	struct container c;
	char *pos[1];
	size_t n_pos;
	int r;

	if (cli_open_container(g, pause ? "pause" : "resume", argc, argv, NULL, 0, pos, 1, &n_pos,
	                       true, &c, err) < 0)
		return -1;
	r = container_pause(&c, pause, err);
	store_close(&c);
	return r;
}

int cmd_pause(struct globals *g, int argc, char **argv, struct werror *err)
{
	return pause_or_resume(g, argc, argv, true, err);
}

int cmd_resume(struct globals *g, int argc, char **argv, struct werror *err)
{
	return pause_or_resume(g, argc, argv, false, err);
}

/* As runc's table: the output of ps (default "ps -ef", or the ps options
 * given after the id), its header and the lines of the container's
 * processes, found by the PID column. */
static int ps_table(char *const *ps_args, size_t n_args, const pid_t *pids, size_t n,
                    struct werror *err)
{
	char *argv[64] = {"ps"};
	char line[4096];
	size_t argc = 1;
	int fds[2], col = -1, status = 0;
	FILE *in;
	pid_t child;

	if (n_args == 0)
		argv[argc++] = "-ef";
	for (size_t i = 0; i < n_args && argc < 63; i++)
		argv[argc++] = ps_args[i];
	argv[argc] = NULL;
	if (pipe2(fds, O_CLOEXEC) < 0)
		return werr(err, errno, "ps: pipe");
	child = fork();
	if (child < 0)
		return werr(err, errno, "ps: fork");
	if (child == 0) {
		dup2(fds[1], STDOUT_FILENO);
		execvp("ps", argv);
		dprintf(STDERR_FILENO, "ward: ps: cannot run ps: %s\n", strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	in = fdopen(fds[0], "r");
	for (bool header = true; in && fgets(line, sizeof(line), in); header = false) {
		char copy[4096], *save = NULL, *tok;
		int k = 0;

		snprintf(copy, sizeof(copy), "%s", line);
		for (tok = strtok_r(copy, " \t\n", &save); tok;
		     tok = strtok_r(NULL, " \t\n", &save), k++) {
			if (header && strcmp(tok, "PID") == 0)
				col = k;
			if (!header && k == col) {
				long v = strtol(tok, NULL, 10);

				for (size_t i = 0; i < n; i++)
					if (pids[i] == (pid_t)v)
						fputs(line, stdout);
				break;
			}
		}
		if (header)
			fputs(line, stdout);
	}
	if (in)
		fclose(in);
	else
		close(fds[0]);
	waitpid(child, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return werr(err, 0, "ps: ps %s failed", n_args ? "with these options" : "-ef");
	if (col < 0)
		return werr(err, 0, "ps: no PID column in ps's output");
	return 0;
}

int cmd_ps(struct globals *g, int argc, char **argv, struct werror *err)
{
	const char *format = "table";
	const struct opt opts[] = {{"format", 'f', OPT_STR, &format, "table|json",
	                            "table (ps output) or a JSON array of host pids"}};
	struct container c = {.dirfd = -1};
	pid_t *pids;
	char *pos[32];
	size_t n, n_pos;
	int r;

	/* As runc: what follows the id is ps's options. */
	c.dirfd = -1;
	c.id = NULL;
	if (cli_parse(argc, argv, opts, 1, pos, 32, &n_pos, true, err) < 0)
		return -1;
	if (n_pos < 1)
		return cli_usage_err(err, "ps: expects a container id (see ward ps --help)");
	if (cli_root(g, err) < 0 || store_open(g->rootfd, pos[0], true, &c, err) < 0) {
		store_close(&c);
		return -1;
	}
	if (strcmp(format, "table") != 0 && strcmp(format, "json") != 0) {
		store_close(&c);
		return werr(err, 0, "ps: --format must be table or json (got \"%s\")", format);
	}
	r = container_pids(&c, &pids, &n, err);
	if (r == 0 && strcmp(format, "json") == 0) {
		/* As runc: a JSON array of host pids. */
		printf("[");
		for (size_t i = 0; i < n; i++)
			printf("%s%d", i ? "," : "", (int)pids[i]);
		printf("]\n");
	} else if (r == 0) {
		fflush(stdout);
		r = ps_table(pos + 1, n_pos - 1, pids, n, err);
	}
	free(pids);
	store_close(&c);
	return r;
}
