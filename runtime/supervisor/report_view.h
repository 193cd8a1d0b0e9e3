/* The run report for a person at a terminal: a summary line first (exit,
 * time, peak memory, denied syscalls, the deadline), details after. Every
 * string from the report is printed escaped: the command names in it are
 * the container's to choose. */
#ifndef WARD_REPORT_VIEW_H
#define WARD_REPORT_VIEW_H

#include "lib/error.h"

#include <stddef.h>
#include <stdio.h>

int report_print_text(const char *json, size_t len, FILE *out, struct werror *err);
/* One line for `ward report --list`: when it ended, the id, the profile,
 * the summary (tab-separated). */
int report_print_line(const char *json, size_t len, FILE *out, struct werror *err);

#endif
