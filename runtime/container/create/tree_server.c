#include "container/create/tree_server.h"
#include "lib/error.h"
#include "lib/sigreset.h"
#include "container/protocol.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

/* One request: mounts[i]'s trees, then the end mark, or the reason. Each
 * mount is served once (the init asks once per mount; more would only
 * stack copies). */
static int serve_one(int sock, const struct tree_plan *p, bool *served, int32_t i,
                     struct werror *err)
{
	size_t n = 0;
	int *fds = NULL;
	int r = 0;

	if (i < 0 || (size_t)i >= p->cfg->n_mounts || served[i])
		return werr(err, EPROTO, "tree channel: unexpected request for mounts[%d]", (int)i);
	served[i] = true;
	if (mount_trees(p, (size_t)i, &fds, &n, err) < 0)
		return -1;
	for (size_t k = 0; k < n; k++) {
		if (r == 0)
			r = sync_send_fd(sock, SYNC_TREE_FD, fds[k], err);
		close(fds[k]);
	}
	free(fds);
	return r < 0 ? r : sync_send(sock, SYNC_TREE_END, err);
}

static _Noreturn void serve(int sock, const struct tree_plan *p, struct werror *err)
{
	bool *served = calloc(p->cfg->n_mounts ? p->cfg->n_mounts : 1, sizeof(bool));
	struct sync_msg m;

	if (served == NULL)
		_exit(1);
	/* Until the init closes its end (mounts done) or is gone. */
	while (sync_recv(sock, &m, NULL, err) == 0 && m.type == SYNC_TREE) {
		if (serve_one(sock, p, served, m.err, err) < 0) {
			sync_send_error(sock, err);
			_exit(1);
		}
	}
	_exit(0);
}

pid_t tree_server_start(const struct tree_plan *p, int *init_end, const int *keep_closed, size_t n,
                        struct werror *err)
{
	pid_t parent = getpid(), pid;
	int sv[2];

	*init_end = -1;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return werr(err, errno, "creating the tree channel");
	pid = fork();
	if (pid < 0) {
		werr(err, errno, "forking the tree server");
		close(sv[0]);
		close(sv[1]);
		return -1;
	}
	if (pid == 0) {
		sig_reset_default();
		/* Never outlives the create that needs it. */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || getppid() != parent)
			_exit(1);
		close(sv[1]);
		for (size_t i = 0; i < n; i++)
			if (keep_closed[i] >= 0)
				close(keep_closed[i]);
		serve(sv[0], p, err);
	}
	close(sv[0]);
	*init_end = sv[1];
	return pid;
}

void tree_server_stop(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}
