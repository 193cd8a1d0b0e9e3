#include "rootfs/tree_fetch.h"
#include "lib/error.h"
#include "lib/sync.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

void trees_close(int *fds, size_t n)
{
	for (size_t k = 0; fds && k < n; k++)
		if (fds[k] >= 0)
			close(fds[k]);
	free(fds);
}

int tree_fetch(int sock, size_t idx, int **fds, size_t *n)
{
	struct sync_msg m;
	int fd;

	*fds = NULL;
	*n = 0;
	if (sock < 0)
		return werr(EBADF, "mounts[%zu]: no tree channel from the parent", idx);
	if (sync_send_num(sock, SYNC_TREE, (int32_t)idx) < 0)
		return -1;
	for (;;) {
		if (sync_recv(sock, &m, &fd) < 0)
			break;
		if (m.type == SYNC_TREE_END && fd < 0)
			return 0;
		if (m.type == SYNC_TREE_FD && fd >= 0) {
			int *more = realloc(*fds, (*n + 1) * sizeof(int));

			if (more == NULL) {
				close(fd);
				werr(ENOMEM, "out of memory");
				break;
			}
			*fds = more;
			(*fds)[(*n)++] = fd;
			continue;
		}
		if (fd >= 0)
			close(fd);
		if (m.type == SYNC_ERROR)
			werr_set(m.err, m.text);
		else if (m.type == SYNC_EOF)
			werr(EPIPE, "mounts[%zu]: the tree server ended", idx);
		else
			werr(EPROTO, "tree channel: unexpected message %u", m.type);
		break;
	}
	trees_close(*fds, *n);
	*fds = NULL;
	*n = 0;
	return -1;
}
