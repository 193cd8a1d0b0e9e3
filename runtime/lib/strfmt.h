/* Formatting into a fixed buffer that fails rather than cuts short: a path
 * or a name cut short names something else (a cgroupsPath cut to its
 * first levels is another cgroup; a policy path cut is another file).
 * tests/arch/layering.py refuses a bare snprintf of a path ("%s" with a
 * "/" in the format) whose result is not looked at. */
#ifndef WARD_LIB_STRFMT_H
#define WARD_LIB_STRFMT_H

#include <stddef.h>

/* snprintf(buf, len, fmt, ...): 0, or -1 with errno ENAMETOOLONG when the
 * result (and its NUL) does not fit; buf then holds "" (never a prefix). */
int fmt_fit(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), warn_unused_result));

/* s as one line of text, allocated: a newline, a carriage return, an
 * escape sequence or any other control character (a config's strings
 * reach ward's messages and reports) becomes \n, \r or \xHH, so that a
 * message can neither forge lines of its own (engines show the last one)
 * nor drive the reader's terminal. Tabs and UTF-8 stay as they are. */
char *str_one_line(const char *s) __attribute__((returns_nonnull));

#endif
