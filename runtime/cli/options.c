#include "cli/options.h"
#include "lib/duration.h"
#include "lib/error.h"
#include "container/store.h"

#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct {
	const char *name, *usage, *summary;
	enum cli_mode mode;
	bool usage_failed;
} cli = {"ward", "", "", CLI_RUN, false};

void cli_command(const char *name, const char *usage, const char *summary, enum cli_mode mode)
{
	cli.name = name;
	cli.usage = usage;
	cli.summary = summary;
	cli.mode = mode;
}

int cli_usage_err(struct werror *err, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cli.usage_failed = true;
	return werr_set(err, WERR_INVALID, 0, msg);
}

bool cli_usage_failed(void)
{
	return cli.usage_failed;
}

#define HELP_COL 26

void cli_print_opts(const struct opt *opts, size_t n_opts)
{
	for (size_t i = 0; i < n_opts; i++) {
		const struct opt *o = &opts[i];
		const char *h = o->help ? o->help : "";
		char head[128];
		int n;

		n = snprintf(head, sizeof(head), "  --%s%s%s", o->name, o->arg ? " " : "",
		             o->arg ? o->arg : "");
		if (o->short_name && n >= 0 && (size_t)n < sizeof(head))
			snprintf(head + n, sizeof(head) - (size_t)n, ", -%c%s%s", o->short_name,
			         o->arg ? " " : "", o->arg ? o->arg : "");
		if (strlen(head) + 1 > HELP_COL)
			printf("%s\n%*s", head, HELP_COL, "");
		else
			printf("%-*s", HELP_COL, head);
		for (const char *nl; (nl = strchr(h, '\n')) != NULL; h = nl + 1)
			printf("%.*s\n%*s", (int)(nl - h), h, HELP_COL, "");
		printf("%s\n", h);
	}
}

static const struct opt help_opt = {"help", 'h', OPT_FLAG, NULL, NULL, "print this usage"};

static void __attribute__((noreturn)) print_help(const struct opt *opts, size_t n_opts)
{
	printf("usage: ward %s\n\n%s\n\noptions:\n", cli.usage, cli.summary);
	cli_print_opts(opts, n_opts);
	cli_print_opts(&help_opt, 1);
	exit(fflush(stdout) == 0 ? 0 : 1);
}

void cli_print_flags(const struct opt *opts, size_t n_opts)
{
	for (size_t i = 0; i < n_opts; i++) {
		const char *arg = opts[i].kind == OPT_FLAG ? ""
		                  : opts[i].arg            ? opts[i].arg
		                                           : "VALUE";

		printf("--%s%s%s\n", opts[i].name, *arg ? "=" : "", arg);
		if (opts[i].short_name)
			printf("-%c%s%s\n", opts[i].short_name, *arg ? "=" : "", arg);
	}
}

static void __attribute__((noreturn)) print_flags(const struct opt *opts, size_t n_opts)
{
	cli_print_flags(opts, n_opts);
	cli_print_flags(&help_opt, 1);
	exit(fflush(stdout) == 0 ? 0 : 1);
}

static bool is_help(const char *a)
{
	return strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0 || strcmp(a, "-help") == 0;
}

static const struct opt *find_opt(const struct opt *opts, size_t n, const char *name, size_t len,
                                  bool is_short)
{
	for (size_t i = 0; i < n; i++) {
		if (is_short && len == 1 && opts[i].short_name == name[0])
			return &opts[i];
		if (strlen(opts[i].name) == len && strncmp(opts[i].name, name, len) == 0)
			return &opts[i];
	}
	return NULL;
}

static int set_opt(const struct opt *o, const char *val, bool has_val, struct werror *err)
{
	switch (o->kind) {
	case OPT_FLAG:
		if (has_val && strcmp(val, "true") != 0 && strcmp(val, "false") != 0)
			return cli_usage_err(err, "--%s takes no value (or =true/=false)", o->name);
		*(bool *)o->dst = !has_val || strcmp(val, "true") == 0;
		return 0;
	case OPT_STR:
		*(const char **)o->dst = val;
		return 0;
	case OPT_LIST: {
		struct optlist *l = o->dst;
		char **nv = realloc(l->v, (l->n + 1) * sizeof(*nv));

		if (nv == NULL)
			return werr(err, ENOMEM, "out of memory");
		nv[l->n++] = (char *)val;
		l->v = nv;
		return 0;
	}
	case OPT_INT: {
		char *end;
		long v;

		errno = 0;
		v = strtol(val, &end, 10);
		if (errno || *end || end == val || v < 0 || v > INT_MAX)
			return cli_usage_err(err, "--%s: \"%s\" is not a non-negative integer",
			                     o->name, val);
		*(int *)o->dst = (int)v;
		return 0;
	}
	case OPT_MS: {
		long long ms;

		if (duration_parse_ms(val, &ms) < 0)
			return cli_usage_err(err, "--%s: \"%s\" %s", o->name, val,
			                     errno == ERANGE ? "is too short"
			                                     : "is not a duration");
		*(long *)o->dst = (long)ms;
		return 0;
	}
	}
	return -1;
}

int cli_parse(int argc, char **argv, const struct opt *opts, size_t n_opts, char **pos,
              size_t max_pos, size_t *n_pos, bool stop_at_positional, struct werror *err)
{
	bool only_pos = false;

	*n_pos = 0;
	if (cli.mode == CLI_HELP)
		print_help(opts, n_opts);
	if (cli.mode == CLI_FLAGS)
		print_flags(opts, n_opts);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const struct opt *o;
		const char *name, *eq;
		size_t len;
		bool is_short;

		if (only_pos || a[0] != '-' || a[1] == '\0') {
			if (*n_pos >= max_pos)
				return cli_usage_err(err, "%s: unexpected argument \"%s\"", argv[0],
				                     a);
			pos[(*n_pos)++] = argv[i];
			if (stop_at_positional)
				only_pos = true;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			only_pos = true;
			continue;
		}
		name = a + (a[1] == '-' ? 2 : 1);
		eq = strchr(name, '=');
		len = eq ? (size_t)(eq - name) : strlen(name);
		is_short = a[1] != '-';
		o = find_opt(opts, n_opts, name, len, is_short);
		/* -h/--help anywhere among the options, as runc (urfave/cli). */
		if (o == NULL && is_help(a))
			print_help(opts, n_opts);
		if (o == NULL)
			return cli_usage_err(err, "%s: unknown option \"%s\"", argv[0], a);
		if (eq) {
			if (set_opt(o, eq + 1, true, err) < 0)
				return -1;
		} else if (o->kind == OPT_FLAG) {
			if (set_opt(o, NULL, false, err) < 0)
				return -1;
		} else {
			if (i + 1 >= argc)
				return cli_usage_err(err, "%s: option %s needs a value", argv[0],
				                     a);
			if (set_opt(o, argv[++i], true, err) < 0)
				return -1;
		}
	}
	return 0;
}

int cli_one_id(const char *cmd, size_t n_pos, struct werror *err)
{
	if (n_pos != 1)
		return cli_usage_err(
		    err, "%s: expects exactly one container id (see ward %s --help)", cmd, cmd);
	return 0;
}

int cli_new_id(const char *id, struct werror *err)
{
	if (store_check_id(id, err) < 0) {
		cli.usage_failed = true;
		return -1;
	}
	return 0;
}

int cli_open_container(struct globals *g, const char *cmd, int argc, char **argv,
                       const struct opt *opts, size_t n_opts, char **pos, size_t max_pos,
                       size_t *n_pos, bool lock, struct container *c, struct werror *err)
{
	memset(c, 0, sizeof(*c));
	c->dirfd = -1;
	if (cli_parse(argc, argv, opts, n_opts, pos, max_pos, n_pos, false, err) < 0)
		return -1;
	if (*n_pos < 1)
		return cli_usage_err(err, "%s: expects a container id (see ward %s --help)", cmd,
		                     cmd);
	if (cli_root(g, err) < 0)
		return -1;
	if (store_open(g->rootfd, pos[0], lock, c, err) < 0) {
		store_close(c);
		return -1;
	}
	return 0;
}

int cli_root(struct globals *g, struct werror *err)
{
	return ops_root(g, err);
}
