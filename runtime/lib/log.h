/* Runtime logging: --log FILE, --log-format text|json, --log-level.
 * JSON lines carry level/msg/time as runc writes them; containerd and Podman
 * read the last error line from this file to show to their users. */
#ifndef WARD_LOG_H
#define WARD_LOG_H

#include "lib/error.h"

#include <stddef.h>

enum log_level { LOG_ERROR, LOG_WARN, LOG_INFO, LOG_DEBUG };

int log_setup(const char *path, const char *format, const char *level, int debug,
              struct werror *err);
void log_msg(enum log_level lvl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* To the --log file alone, whatever --log-level says (nothing without a
 * file): detail an engine keeps for its user beside the one error line. */
void log_file_msg(enum log_level lvl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The one place an error reaches the user: stderr and the log file. */
void log_fatal(const char *msg);
/* Close the log fd (before handing the process to the container). */
void log_close(void);
int log_is_debug(void);
/* Now as RFC 3339 UTC with nanoseconds ("2026-01-02T03:04:05.123456789Z"). */
void log_timestamp(char *buf, size_t len);

#define log_debug(...) log_msg(LOG_DEBUG, __VA_ARGS__)
#define log_warn(...)  log_msg(LOG_WARN, __VA_ARGS__)

#endif
