#include "supervisor/report_view.h"
#include "lib/error.h"
#include "lib/jwalk.h"

#include <stdbool.h>
#include <string.h>
#include <yajl/yajl_tree.h>

static yajl_val get(yajl_val v, const char *a, const char *b)
{
	const char *path[] = {a, b, NULL};

	return v ? yajl_tree_get(v, path, yajl_t_any) : NULL;
}

static long long num(yajl_val v, const char *a, const char *b)
{
	yajl_val x = get(v, a, b);

	return x && YAJL_IS_INTEGER(x) ? YAJL_GET_INTEGER(x) : 0;
}

static bool truth(yajl_val v, const char *a, const char *b)
{
	yajl_val x = get(v, a, b);

	return x && YAJL_IS_TRUE(x);
}

/* Printable ASCII as is, everything else as \xNN (terminal-safe; command
 * names arrive already in that form). */
static void esc(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c >= 0x20 && c < 0x7f)
			fputc(c, out);
		else
			fprintf(out, "\\x%02x", c);
	}
}

static const char *str(yajl_val v, const char *a, const char *b)
{
	yajl_val x = get(v, a, b);

	return x && YAJL_IS_STRING(x) ? YAJL_GET_STRING(x) : NULL;
}

static void secs(FILE *out, long long ms)
{
	/* A report may come from anywhere: a negative figure is no time. */
	if (ms < 0) {
		fputs("unknown", out);
		return;
	}
	fprintf(out, "%lld.%03llds", ms / 1000, ms % 1000);
}

static void bytes(FILE *out, long long b)
{
	/* 0: not measured (no cgroup to read it from: rootless without a
	 * delegated one); no process runs in no memory. */
	if (b <= 0) {
		fputs("unknown", out);
		return;
	}
	if (b >= 1 << 20)
		fprintf(out, "%.1f MiB", (double)b / (1 << 20));
	else
		fprintf(out, "%.1f KiB", (double)b / 1024);
}

static void exit_line(FILE *out, yajl_val r)
{
	const char *kind = str(r, "exit", "kind");

	if (kind && strcmp(kind, "exited") == 0)
		fprintf(out, "exit %lld", num(r, "exit", "code"));
	else if (kind && strcmp(kind, "signaled") == 0) {
		fputs("killed by ", out);
		esc(out, str(r, "exit", "signalName"));
	} else
		fputs("exit unknown", out);
}

/* The listing's EXIT column: the code, the signal's name, or "?". */
static void exit_word(FILE *out, yajl_val r)
{
	const char *kind = str(r, "exit", "kind");

	if (kind && strcmp(kind, "exited") == 0)
		fprintf(out, "%lld", num(r, "exit", "code"));
	else if (kind && strcmp(kind, "signaled") == 0 && str(r, "exit", "signalName"))
		esc(out, str(r, "exit", "signalName"));
	else
		fputc('?', out);
}

static void denied_summary(FILE *out, yajl_val r)
{
	yajl_val counts = get(r, "deniedSyscalls", "counts");
	long long total = num(r, "deniedSyscalls", "total");

	if (!truth(r, "deniedSyscalls", "recorded")) {
		fputs("denied syscalls not recorded", out);
		return;
	}
	fprintf(out, "%lld denied syscall%s", total, total == 1 ? "" : "s");
	for (size_t i = 0;
	     counts && YAJL_IS_ARRAY(counts) && i < YAJL_GET_ARRAY(counts)->len && i < 8; i++) {
		yajl_val c = YAJL_GET_ARRAY(counts)->values[i];

		fputs(i ? ", " : ": ", out);
		esc(out, str(c, "syscall", NULL));
		fprintf(out, " \xc3\x97%lld", num(c, "count", NULL));
	}
}

/* "host:port/proto", escaped (a report may come from anywhere). */
static void dest(FILE *out, yajl_val d)
{
	const char *a = str(d, "destination", NULL);
	bool v6 = a && strchr(a, ':');

	fputs(v6 ? "[" : "", out);
	esc(out, a);
	fprintf(out, "%s:%lld/", v6 ? "]" : "", num(d, "port", NULL));
	esc(out, str(d, "protocol", NULL));
}

/* ", N refused connections: the top destinations" (none: nothing said). */
static void egress_summary(FILE *out, yajl_val r)
{
	yajl_val counts = get(r, "egress", "counts");
	long long n = num(r, "egress", "refused");

	if (!truth(r, "egress", "recorded") || n == 0)
		return;
	fprintf(out, ", %lld refused connection%s", n, n == 1 ? "" : "s");
	for (size_t i = 0;
	     counts && YAJL_IS_ARRAY(counts) && i < YAJL_GET_ARRAY(counts)->len && i < 5; i++) {
		yajl_val c = YAJL_GET_ARRAY(counts)->values[i];

		fputs(i ? ", " : ": ", out);
		dest(out, c);
		fprintf(out, " \xc3\x97%lld", num(c, "count", NULL));
	}
}

/* ", N refused names: the top ones" (none: nothing said). */
static void dns_summary(FILE *out, yajl_val r)
{
	yajl_val counts = get(r, "dns", "counts");
	long long n = num(r, "dns", "refused");

	if (!truth(r, "dns", "gate") || n == 0)
		return;
	fprintf(out, ", %lld refused name%s", n, n == 1 ? "" : "s");
	for (size_t i = 0;
	     counts && YAJL_IS_ARRAY(counts) && i < YAJL_GET_ARRAY(counts)->len && i < 5; i++) {
		yajl_val c = YAJL_GET_ARRAY(counts)->values[i];

		fputs(i ? ", " : ": ", out);
		esc(out, str(c, "name", NULL));
		fprintf(out, " \xc3\x97%lld", num(c, "count", NULL));
	}
}

/* "\n  label:    value", the value escaped. */
static void line(FILE *out, const char *label, const char *value)
{
	char l[16];

	snprintf(l, sizeof(l), "%s:", label);
	fprintf(out, "\n  %-9s ", l);
	esc(out, value);
}

/* n values, each escaped and followed by its separator (literal). */
static void joined(FILE *out, const char *const *parts, size_t n)
{
	for (size_t i = 0; i + 1 < 2 * n; i += 2) {
		esc(out, parts[i]);
		fputs(parts[i + 1], out);
	}
}

/* "limits: memory 512.0 MiB, pids 256, cpu 100000/100000 us" (none:
 * "none"), from the limits the container ran under. */
static void limits_line(FILE *out, yajl_val r)
{
	long long mem = num(r, "limits", "memoryBytes"), pids = num(r, "limits", "pids");
	long long quota = num(r, "limits", "cpuQuotaUs"), period = num(r, "limits", "cpuPeriodUs");

	fputs("\n  limits:   ", out);
	if (mem <= 0 && pids <= 0 && quota <= 0) {
		fputs("none enforced\n", out);
		return;
	}
	fputs("memory ", out);
	if (mem > 0)
		bytes(out, mem);
	else
		fputs("unlimited", out);
	if (pids > 0)
		fprintf(out, ", pids %lld", pids);
	else
		fputs(", pids unlimited", out);
	if (quota > 0)
		fprintf(out, ", cpu %lld us per %lld us\n", quota, period > 0 ? period : 100000);
	else
		fputs(", cpu unlimited\n", out);
}

/* The policy's audit entries: the adjustments ("field: old -> new
 * (rule)"), or the notes (an entry without "new": nothing changed). */
static void audit_lines(FILE *out, yajl_val audit, bool adjustments)
{
	bool said = false;

	for (size_t i = 0; audit && YAJL_IS_ARRAY(audit) && i < YAJL_GET_ARRAY(audit)->len; i++) {
		yajl_val a = YAJL_GET_ARRAY(audit)->values[i];
		const char *adj[] = {str(a, "field", NULL), ": ", str(a, "old", NULL),  " -> ",
		                     str(a, "new", NULL),   " (", str(a, "rule", NULL), ")\n"};
		const char *note[] = {str(a, "field", NULL), ": ", str(a, "note", NULL), "\n"};

		if (adjustments != (str(a, "new", NULL) != NULL) ||
		    (!adjustments && str(a, "note", NULL) == NULL))
			continue;
		if (!said)
			fputs(adjustments ? "adjusted by the policy:\n" : "policy notes:\n", out);
		said = true;
		fputs("  ", out);
		joined(out, adjustments ? adj : note, adjustments ? 4 : 2);
	}
}

static void details(FILE *out, yajl_val r)
{
	yajl_val first = get(r, "deniedSyscalls", "first");
	yajl_val audit = get(r, "audit", NULL);

	fputs("\nrun:", out);
	line(out, "id", str(r, "id", NULL));
	line(out, "bundle", str(r, "bundle", NULL));
	line(out, "profile", str(r, "profile", NULL));
	line(out, "policy",
	     str(r, "policyDigest", NULL) ? str(r, "policyDigest", NULL) : "built-in defaults");
	line(out, "created", str(r, "created", NULL));
	line(out, "started", str(r, "started", NULL) ? str(r, "started", NULL) : "never");
	line(out, "ended", str(r, "ended", NULL));
	limits_line(out, r);
	/* Without a cgroup (rootless without a delegated one) nothing was
	 * measured: unknown, not a zero nobody read. */
	if (truth(r, "figures", "fromCgroup")) {
		fprintf(out, "  cpu:      user %.3fs, system %.3fs\n",
		        (double)num(r, "figures", "cpuUserUs") / 1e6,
		        (double)num(r, "figures", "cpuSystemUs") / 1e6);
		fprintf(out, "  OOM kills: %lld, pids-limit hits: %lld\n",
		        num(r, "figures", "oomKills"), num(r, "figures", "pidsLimitHits"));
	} else {
		fputs("  cpu:      unknown (no cgroup to read it from)\n", out);
		fputs("  OOM kills: unknown, pids-limit hits: unknown\n", out);
	}
	fputs("  supervisor: ", out);
	esc(out, str(r, "supervisor", "ended"));
	fputc('\n', out);
	if (!truth(r, "deniedSyscalls", "recorded")) {
		fputs("denied syscalls: not recorded: ", out);
		esc(out, str(r, "deniedSyscalls", "why"));
		fputc('\n', out);
	} else if (first && YAJL_IS_ARRAY(first) && YAJL_GET_ARRAY(first)->len) {
		fputs("denied syscalls (first ones):\n", out);
		for (size_t i = 0; i < YAJL_GET_ARRAY(first)->len; i++) {
			yajl_val e = YAJL_GET_ARRAY(first)->values[i];
			yajl_val args = get(e, "args", NULL);

			fprintf(out, "  pid %lld ", num(e, "pid", NULL));
			esc(out, str(e, "comm", NULL));
			fputs(": ", out);
			esc(out, str(e, "syscall", NULL));
			fputc('(', out);
			for (size_t k = 0;
			     args && YAJL_IS_ARRAY(args) && k < 3 && k < YAJL_GET_ARRAY(args)->len;
			     k++) {
				yajl_val a = YAJL_GET_ARRAY(args)->values[k];

				fputs(k ? ", " : "", out);
				esc(out, YAJL_IS_STRING(a) ? YAJL_GET_STRING(a) : "?");
			}
			fputs(", ...) [", out);
			esc(out, str(e, "arch", NULL));
			fputs("]\n", out);
		}
	}
	audit_lines(out, audit, true);
	audit_lines(out, audit, false);
}

/* The summary line (without its newline). */
static void summary(FILE *out, yajl_val r)
{
	exit_line(out, r);
	fputs(", ", out);
	secs(out, num(r, "figures", "wallMs"));
	fputs(", peak memory ", out);
	bytes(out, num(r, "figures", "memoryPeakBytes"));
	fputs(", ", out);
	denied_summary(out, r);
	egress_summary(out, r);
	dns_summary(out, r);
	if (truth(r, "timeout", "timedOut")) {
		fputs(", timed out after ", out);
		secs(out, num(r, "timeout", "limitMs"));
		if (truth(r, "timeout", "killedAfterGrace"))
			fputs(" (killed after the grace period)", out);
	}
	if (num(r, "figures", "oomKills"))
		fprintf(out, ", %lld OOM kill(s)", num(r, "figures", "oomKills"));
	if (num(r, "figures", "pidsLimitHits"))
		fprintf(out, ", pids limit hit %lld time(s)", num(r, "figures", "pidsLimitHits"));
}

static yajl_val parse(const char *json, size_t len, struct werror *err)
{
	yajl_val r = jparse_document(json, len, 6, "the run report", err);

	if (r && !YAJL_IS_OBJECT(r)) {
		yajl_tree_free(r);
		werr(err, 0, "the run report is not a JSON object");
		return NULL;
	}
	return r;
}

int report_print_line(const char *json, size_t len, FILE *out, struct werror *err)
{
	yajl_val r = parse(json, len, err);

	if (r == NULL)
		return -1;
	esc(out, str(r, "ended", NULL) ? str(r, "ended", NULL) : "-");
	fputc('\t', out);
	esc(out, str(r, "id", NULL) ? str(r, "id", NULL) : "?");
	fputc('\t', out);
	esc(out, str(r, "profile", NULL) ? str(r, "profile", NULL) : "?");
	fputc('\t', out);
	exit_word(out, r);
	fputc('\t', out);
	summary(out, r);
	fputc('\n', out);
	yajl_tree_free(r);
	return 0;
}

int report_print_text(const char *json, size_t len, FILE *out, struct werror *err)
{
	yajl_val r = parse(json, len, err);

	if (r == NULL)
		return -1;
	summary(out, r);
	fputc('\n', out);
	details(out, r);
	yajl_tree_free(r);
	return 0;
}
