#include "container/create/tree_fetch.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "container/protocol.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

void tree_channel_close(void *chan)
{
	struct tree_channel *t = chan;

	/* The server ends with the channel. */
	if (t->sock >= 0)
		close(t->sock);
	t->sock = -1;
}

int tree_fetch(void *chan, size_t idx, int **fds, size_t *n, struct werror *err)
{
	int sock = ((struct tree_channel *)chan)->sock;

	struct sync_msg m;

	*fds = NULL;
	*n = 0;
	if (sock < 0)
		return werr(err, EBADF, "mounts[%zu]: no tree channel from the parent", idx);
	if (sync_send_num(sock, SYNC_TREE, (int32_t)idx, err) < 0)
		return -1;
	for (;;) {
		_cleanup_close_ int fd = -1;

		if (sync_recv(sock, &m, &fd, err) < 0)
			break;
		if (m.type == SYNC_TREE_END && fd < 0)
			return 0;
		if (m.type == SYNC_TREE_FD && fd >= 0) {
			int *more = realloc(*fds, (*n + 1) * sizeof(int));

			if (more == NULL) {
				werr(err, ENOMEM, "out of memory");
				break;
			}
			*fds = more;
			(*fds)[(*n)++] = TAKE_FD(fd);
			continue;
		}
		if (m.type == SYNC_ERROR)
			werr_set(err, (enum werr_kind)m.kind, m.err, m.text);
		else if (m.type == SYNC_EOF)
			werr(err, EPIPE, "mounts[%zu]: the tree server ended", idx);
		else
			werr(err, EPROTO, "tree channel: unexpected message %u", m.type);
		break;
	}
	fds_close_free(*fds, *n);
	*fds = NULL;
	*n = 0;
	return -1;
}
