/* process.terminal: a pty from the container's own devpts, its master sent
 * over the engine's --console-socket (SCM_RIGHTS, as runc does), its peer
 * made the process's controlling terminal and /dev/console. */
#ifndef WARD_CONSOLE_H
#define WARD_CONSOLE_H

#include "lib/error.h"

#include <stdbool.h>
#include <sys/ioctl.h>

#include "oci/config.h"

/* Connect to the console socket (a host path), in the parent. */
int console_connect(const char *path, struct werror *err);
/* The terminal relay's own console socket (a foreground run or exec
 * without --console-socket): ours[0] is ward's end, ours[1] the one the
 * container's pty is sent over. */
int console_pair(int ours[2], struct werror *err);
/* The pty master the container sent over sock (closed here), checked to be
 * a pty multiplexer's; -1 with werr if none came. */
int console_take_master(int sock, struct werror *err);
/* The window size of ward's own terminal (stdin's, else stdout's) into ws:
 * 0, or -1 when neither is a terminal. */
int console_caller_size(struct winsize *ws);
/* In the container (rootfd: its root, paths resolved inside it): allocate the
 * pty, size it (caller_size: the relaying ward's terminal, when it has one;
 * else consoleSize), send the master over sock, bind the peer onto
 * /dev/console (when bind_console), and make it fds 0-2 and the
 * controlling terminal. */
int console_setup(int rootfd, int sock, const struct oci_process *p, int bind_console,
                  bool caller_size, struct werror *err);

#endif
