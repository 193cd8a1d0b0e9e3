#include "linux/console.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "linux/mount_prim.h"
#include "lib/fdpass.h"
#include "linux/pathres.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <termios.h>
#include <unistd.h>

#ifndef TIOCGPTPEER
#define TIOCGPTPEER _IO('T', 0x41)
#endif

int console_connect(const char *path, struct werror *err)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	_cleanup_close_ int fd = -1;

	if (strlen(path) >= sizeof(sa.sun_path))
		return werr(err, ENAMETOOLONG, "--console-socket %s", path);
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return werr(err, errno, "--console-socket");
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return werr(err, errno, "--console-socket %s", path);
	return TAKE_FD(fd);
}

int console_pair(int ours[2], struct werror *err)
{
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ours) < 0)
		return werr(err, errno, "the terminal relay's socket");
	return 0;
}

int console_take_master(int sock, struct werror *err)
{
	char name[64];
	struct stat st;
	_cleanup_close_ int master = -1;
	ssize_t n = fdpass_recv(sock, name, sizeof(name), &master);
	int e = errno;

	close(sock);
	if (n < 0 || master < 0)
		return werr(err, n < 0 ? e : EPROTO, "receiving the container's terminal");
	if (fstat(master, &st) < 0 || !S_ISCHR(st.st_mode) || st.st_rdev != makedev(5, 2))
		return werr(err, EPROTO, "the container's terminal is not a pty master");
	return TAKE_FD(master);
}

static int send_master(int sock, int master, const char *name, struct werror *err)
{
	if (fdpass_send(sock, name, strlen(name), master) < 0)
		return werr(err, errno, "sending the terminal over --console-socket");
	return 0;
}

/* CVE-2025-52565 class: /dev/console is created with O_EXCL|O_NOFOLLOW in a
 * /dev resolved inside the rootfs, and the pty bound onto it by fd. */
static int bind_console(int rootfd, int peer, struct werror *err)
{
	_cleanup_close_ int devfd = -1, made = -1, dst = -1;

	devfd = root_open(rootfd, "/dev", O_RDONLY | O_DIRECTORY);
	if (devfd < 0)
		return werr(err, errno, "/dev");
	unlinkat(devfd, "console", 0);
	made = openat(devfd, "console", O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (made >= 0)
		dst = openat(devfd, "console", O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (dst < 0)
		return werr(err, errno, "creating /dev/console");
	if (mount_bind_fd(peer, dst, false, 0, 0, err) < 0)
		return werr_ctx(err, "/dev/console");
	return 0;
}

int console_caller_size(struct winsize *ws)
{
	return ioctl(0, TIOCGWINSZ, ws) == 0 || ioctl(1, TIOCGWINSZ, ws) == 0 ? 0 : -1;
}

int console_setup(int rootfd, int sock, const struct oci_process *p, int want_console,
                  bool caller_size, struct werror *err)
{
	struct winsize ws;
	char name[32];
	_cleanup_close_ int master = -1, peer = -1;
	int ptn, unlock = 0;
	struct stat st;

	master = root_open(rootfd, "/dev/pts/ptmx", O_RDWR | O_NOCTTY);
	if (master < 0)
		return werr(err, errno,
		            "opening the container's /dev/pts/ptmx (is devpts mounted?)");
	/* Only a real devpts multiplexer (5:2) may hand out our terminal. */
	if (fstat(master, &st) < 0 || !S_ISCHR(st.st_mode) || st.st_rdev != makedev(5, 2))
		return werr(err, EPERM, "the container's /dev/pts/ptmx is not a pty multiplexer");
	if (ioctl(master, TIOCSPTLCK, &unlock) < 0 || ioctl(master, TIOCGPTN, &ptn) < 0)
		return werr(err, errno, "setting up the pty");
	/* The peer by fd, not by a path the container could swap. */
	peer = ioctl(master, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (peer < 0)
		return werr(err, errno, "opening the pty peer");
	/* Sized before the process runs: a later change would send it a
	 * SIGWINCH it did not ask for (and a program that reads the size at
	 * start would see 0x0). Still ours here: fds 0-2 are ward's. */
	if (caller_size && console_caller_size(&ws) == 0) {
		if (ioctl(master, TIOCSWINSZ, &ws) < 0)
			return werr(err, errno, "sizing the pty");
	} else if (p->console_size) {
		ws = (struct winsize){.ws_row = (unsigned short)p->console_size->height,
		                      .ws_col = (unsigned short)p->console_size->width};
		if (ioctl(master, TIOCSWINSZ, &ws) < 0)
			return werr(err, errno, "process.consoleSize");
	}
	snprintf(name, sizeof(name), "/dev/pts/%d", ptn);
	if (send_master(sock, master, name, err) < 0)
		return -1;
	if (want_console && bind_console(rootfd, peer, err) < 0)
		return -1;
	if (ioctl(peer, TIOCSCTTY, 0) < 0)
		return werr(err, errno, "making the pty the controlling terminal");
	for (int fd = 0; fd < 3; fd++)
		if (dup2(peer, fd) < 0)
			return werr(err, errno, "dup2 of the pty");
	return 0;
}
