#include "lib/log.h"
#include "lib/strfmt.h"
#include "lib/cleanup.h"
#include "lib/xalloc.h"
#include "lib/error.h"
#include "lib/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <yajl/yajl_gen.h>

static int log_fd = -1;
/* A --log file was given: what is said after log_close (in the container's
 * init, which closes every fd of ward's) is dropped, not sent to stderr,
 * which is the container's by then. */
static int log_had_file;
static int log_json;
static enum log_level log_max = LOG_WARN;

static const char *const level_names[] = {"error", "warning", "info", "debug"};

int log_setup(const char *path, const char *format, const char *level, int debug,
              struct werror *err)
{
	if (format != NULL) {
		if (strcmp(format, "json") == 0)
			log_json = 1;
		else if (strcmp(format, "text") != 0)
			return werr_k(err, WERR_INVALID, 0,
			              "--log-format: must be text or json (got \"%s\")", format);
	}
	if (level != NULL) {
		int found = 0;

		for (int i = 0; i <= LOG_DEBUG; i++)
			if (strcasecmp(level, level_names[i]) == 0 ||
			    (i == LOG_WARN && strcasecmp(level, "warn") == 0)) {
				log_max = (enum log_level)i;
				found = 1;
			}
		if (!found)
			return werr_k(err, WERR_INVALID, 0, "--log-level: unknown level \"%s\"",
			              level);
	}
	if (debug)
		log_max = LOG_DEBUG;
	if (path != NULL && path[0] != '\0') {
		log_fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0600);
		log_had_file = 1;
		if (log_fd < 0)
			return werr(err, errno, "--log: cannot open %s", path);
	}
	return 0;
}

int log_is_debug(void)
{
	return log_max >= LOG_DEBUG;
}

void log_timestamp(char *buf, size_t len)
{
	struct timespec now;
	struct tm tm;
	size_t n;

	clock_gettime(CLOCK_REALTIME, &now);
	gmtime_r(&now.tv_sec, &tm);
	n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, len - n, ".%09ldZ", now.tv_nsec);
}

/* logrus's text format, as runc's --log files and debug output have it:
 * time="..." level=debug msg="..." (the message quoted, " and \ escaped;
 * str_one_line has made it one line). */
static int text_line(char *line, size_t size, const char *ts, enum log_level lvl, const char *msg)
{
	size_t n =
	    (size_t)snprintf(line, size, "time=\"%s\" level=%s msg=\"", ts, level_names[lvl]);

	for (const char *p = msg; *p && n + 4 < size; p++) {
		if (*p == '"' || *p == '\\')
			line[n++] = '\\';
		line[n++] = *p;
	}
	line[n++] = '"';
	line[n++] = '\n';
	line[n] = '\0';
	return (int)n;
}

static void emit(enum log_level lvl, const char *raw, int to_stderr)
{
	_cleanup_free_ char *msg = str_one_line(raw);
	/* Each character of msg takes at most two (escaped), the rest fits in
	 * 128: nothing is cut. */
	size_t size = 2 * strlen(msg) + 128;
	_cleanup_free_ char *line = xmalloc(size);
	char ts[64];
	int n;

	log_timestamp(ts, sizeof(ts));

	if (log_fd >= 0 && log_json) {
		yajl_gen g = yajl_gen_alloc(NULL);
		const unsigned char *out;
		size_t len;

		if (g != NULL) {
			yajl_gen_map_open(g);
			yajl_gen_string(g, (const unsigned char *)"level", 5);
			yajl_gen_string(g, (const unsigned char *)level_names[lvl],
			                strlen(level_names[lvl]));
			yajl_gen_string(g, (const unsigned char *)"msg", 3);
			yajl_gen_string(g, (const unsigned char *)raw, strlen(raw));
			yajl_gen_string(g, (const unsigned char *)"time", 4);
			yajl_gen_string(g, (const unsigned char *)ts, strlen(ts));
			yajl_gen_map_close(g);
			if (yajl_gen_get_buf(g, &out, &len) == yajl_gen_status_ok) {
				write_all(log_fd, (const char *)out, len);
				write_all(log_fd, "\n", 1);
			}
			yajl_gen_free(g);
		}
	} else if (log_fd >= 0) {
		n = text_line(line, size, ts, lvl, msg);
		write_all(log_fd, line, (size_t)n);
	}
	if (to_stderr) {
		/* Debug and info as runc writes them (its tests and tools grep
		 * "level=debug"); warnings and errors in ward's own words. */
		if (lvl >= LOG_INFO)
			n = text_line(line, size, ts, lvl, msg);
		else if (lvl == LOG_ERROR)
			n = snprintf(line, size, "ward: %s\n", msg);
		else
			n = snprintf(line, size, "ward: %s: %s\n", level_names[lvl], msg);
		if (n > 0)
			write_all(2, line, (size_t)n < size ? (size_t)n : size - 1);
	}
}

static char *vmsg(const char *fmt, va_list ap)
{
	char *msg = NULL;

	if (vasprintf(&msg, fmt, ap) < 0)
		xalloc_die();
	return msg;
}

void log_msg(enum log_level lvl, const char *fmt, ...)
{
	_cleanup_free_ char *msg = NULL;
	va_list ap;
	int saved = errno;

	if (lvl > log_max)
		return;
	va_start(ap, fmt);
	msg = vmsg(fmt, ap);
	va_end(ap);
	/* Without a log file, warnings and debug output go to stderr. */
	if (!(log_fd < 0 && log_had_file))
		emit(lvl, msg, log_fd < 0);
	errno = saved;
}

void log_file_msg(enum log_level lvl, const char *fmt, ...)
{
	_cleanup_free_ char *msg = NULL;
	va_list ap;
	int saved = errno;

	if (log_fd < 0)
		return;
	va_start(ap, fmt);
	msg = vmsg(fmt, ap);
	va_end(ap);
	emit(lvl, msg, 0);
	errno = saved;
}

void log_fatal(const char *msg)
{
	emit(LOG_ERROR, msg, 1);
}

void log_close(void)
{
	if (log_fd >= 0)
		close(log_fd);
	log_fd = -1;
}
