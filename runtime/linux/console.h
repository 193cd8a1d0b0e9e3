/* process.terminal: a pty from the container's own devpts, its master sent
 * over the engine's --console-socket (SCM_RIGHTS, as runc does), its peer
 * made the process's controlling terminal and /dev/console. */
#ifndef WARD_CONSOLE_H
#define WARD_CONSOLE_H

#include "oci/config.h"

/* Connect to the console socket (a host path), in the parent. */
int console_connect(const char *path);
/* The terminal relay's own console socket (a foreground run or exec
 * without --console-socket): ours[0] is ward's end, ours[1] the one the
 * container's pty is sent over. */
int console_pair(int ours[2]);
/* The pty master the container sent over sock (closed here), checked to be
 * a pty multiplexer's; -1 with werr if none came. */
int console_take_master(int sock);
/* In the container (rootfd: its root, paths resolved inside it): allocate the
 * pty, apply consoleSize, send the master over sock, bind the peer onto
 * /dev/console (when bind_console), and make it fds 0-2 and the
 * controlling terminal. */
int console_setup(int rootfd, int sock, const struct oci_process *p, int bind_console);

#endif
