/* WARD_TRACE=1: one line per phase on stderr, "ward trace: +12.345 ms
 * create: cgroup made", the monotonic time since the command started
 * (across ward's sealed re-exec). For finding where a command waits; off,
 * it costs one getenv per command. */
#ifndef WARD_LIB_TRACE_H
#define WARD_LIB_TRACE_H

/* Once, first thing in main. */
void trace_init(void);
void trace_mark(const char *what);

#endif
