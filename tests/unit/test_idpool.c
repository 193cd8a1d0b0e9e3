/* The id pool of strict containers: which range is free (pure), the
 * host's /etc/subuid ranges kept clear, and the leases (in a temporary
 * state root): disjoint, released, taken over after a crash, never while
 * their create runs or their state dir records them. */
#include "idpool/idpool.h"
#include "idpool/lease.h"
#include "idpool/subid.h"
#include "lib/error.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static void test_pick(void)
{
	struct idpool p = {1000, 4000, 1000, NULL};
	struct id_range busy[3];
	uint32_t s = 0;

	ok(idpool_pick(&p, NULL, 0, &s) == 0 && s == 1000, "pick: an empty pool gives its first");
	busy[0] = (struct id_range){1000, 1000};
	ok(idpool_pick(&p, busy, 1, &s) == 0 && s == 2000, "pick: the first taken, the second");
	/* A subuid entry over part of the second and third range. */
	busy[1] = (struct id_range){2500, 1000};
	ok(idpool_pick(&p, busy, 2, &s) == 0 && s == 4000,
	   "pick: a range partly inside another's ids is not given");
	busy[2] = (struct id_range){4999, 1};
	errno = 0;
	ok(idpool_pick(&p, busy, 3, &s) < 0 && errno == ENOSPC, "pick: exhausted: ENOSPC");
	busy[2] = (struct id_range){0, 999};
	ok(idpool_pick(&p, busy, 3, &s) == 0 && s == 4000, "pick: ids below the pool do not count");
	/* A pool that does not divide: the rest is never handed out. */
	p = (struct idpool){1000, 2500, 1000, NULL};
	busy[0] = (struct id_range){1000, 2000};
	ok(idpool_pick(&p, busy, 1, &s) < 0 && idpool_slots(&p) == 2,
	   "pick: a part range at the pool's end is not given");
	/* Up to the last id below (uid_t)-1. */
	p = (struct idpool){UINT32_MAX - 2000, 2000, 1000, NULL};
	busy[0] = (struct id_range){UINT32_MAX - 2000, 1000};
	ok(idpool_pick(&p, busy, 1, &s) == 0 && s == UINT32_MAX - 1000,
	   "pick: the pool's last range, ending at 4294967294");
	p = (struct idpool){1000, 4000, 1000, NULL};
	busy[0] = (struct id_range){1500, 1000};
	busy[1] = (struct id_range){2000, 100}; /* subuid and subgid overlap */
	busy[2] = (struct id_range){0, 1100};
	ok(idpool_covered(&p, busy, 3) == 1100, "covered: overlapping ranges counted once");
}

static void test_subid(void)
{
	struct id_range *v = NULL;
	size_t n = 0;

	ok(subid_parse("alice:100000:65536\n# bob:1:2\nbad line\ncarol:x:5\ndave:7:\n"
	               "erin:200000:0\nfrank:4294967295:10\nzed:300000:1",
	               &v, &n, err) == 0 &&
	       n == 3 && v[0].start == 100000 && v[0].size == 65536 && v[1].start == UINT32_MAX &&
	       v[1].size == 1 && v[2].start == 300000 && v[2].size == 1,
	   "subid: entries read, comments and malformed lines skipped, a wrapping one cut");
	free(v);
}

static char root[64];

static int rootfd(void)
{
	return open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

static void put(const char *rel, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if ((f = fopen(path, "w")) != NULL) {
		fputs(text, f);
		fclose(f);
	}
}

static bool exists(const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return access(path, F_OK) == 0;
}

/* A state dir for id, recording the lease l took (as container_create). */
static int state_dir(int rfd, const char *id, struct id_lease *l)
{
	int sd, r;

	if (mkdirat(rfd, id, 0700) < 0 || (sd = openat(rfd, id, O_RDONLY | O_DIRECTORY)) < 0)
		return -1;
	r = id_lease_commit(l, sd, err);
	close(sd);
	return r;
}

static void test_leases(void)
{
	char subuid[128], pool[128];
	const char *files[] = {subuid, NULL};
	/* Four ranges of 1000 from 1000; the subuid file takes the second. */
	struct idpool p = {1000, 4000, 1000, files};
	struct id_lease a = ID_LEASE_INIT, b = ID_LEASE_INIT, c = ID_LEASE_INIT, d = ID_LEASE_INIT,
	                e = ID_LEASE_INIT;
	uint32_t s = 0;
	int rfd;

	snprintf(root, sizeof(root), "/tmp/ward-idpool-XXXXXX");
	if (mkdtemp(root) == NULL || (rfd = rootfd()) < 0) {
		ok(0, "a temporary state root");
		return;
	}
	snprintf(subuid, sizeof(subuid), "%s/subuid", root);
	/* The host's pool directory, here the test's own. */
	snprintf(pool, sizeof(pool), "%s/.idpool", root);
	id_lease_use_dir(pool);
	put("subuid", "someone:2000:1000\n");
	ok(id_lease_peek(&p, &s, err) == 0 && s == 1000, "peek: nothing leased yet: the first");
	ok(!exists(".idpool"), "peek: leases nothing, makes nothing");
	ok(id_lease_take(root, "a", &p, &a, err) == 0 && a.range.start == 1000 &&
	       a.range.size == 1000,
	   "take: the first range");
	ok(id_lease_take(root, "b", &p, &b, err) == 0 && b.range.start == 3000,
	   "take: the next, around the subuid entry");
	/* a's create still runs (its lease flocked), with no state dir yet. */
	ok(id_lease_take(root, "c", &p, &c, err) == 0 && c.range.start == 4000,
	   "take: a lease whose create still runs is not taken over");
	ok(id_lease_take(root, "d", &p, &d, err) < 0 &&
	       strstr(werr_msg(err), "no free host id range in the pool 1000-4999 (strict.idPool: "
	                             "4 ranges of 1000 ids; 3 leased to live containers, 1000 ids "
	                             "of it are /etc/subuid or /etc/subgid ranges)") != NULL,
	   "take: exhausted: refused naming the pool");
	id_lease_drop(&d);
	/* a and b made their state dirs; c's create was killed (its lease
	 * left, unlocked, no state dir). */
	ok(state_dir(rfd, "a", &a) == 0 && state_dir(rfd, "b", &b) == 0, "commit: recorded");
	close(c.fd);
	c.fd = -1;
	c.keep = true; /* (killed: nothing gives it back) */
	id_lease_drop(&c);
	ok(exists(".idpool/4000"), "a killed create's lease is left");
	ok(id_lease_take(root, "e", &p, &e, err) == 0 && e.range.start == 4000,
	   "take: a lease no create holds and no state dir records is taken over");
	ok(state_dir(rfd, "e", &e) == 0, "commit e");
	/* A state dir of the same id that records another lease (its token):
	 * b's lease is stale once b's dir records something else. */
	put("b/" IDPOOL_RECORD, "3000 1000 0123456789abcdef\n");
	ok(id_lease_take(root, "f", &p, &d, err) == 0 && d.range.start == 3000,
	   "take: a lease its container's state dir no longer records is taken over");
	id_lease_drop(&d);
	ok(!exists(".idpool/3000"), "drop: a failed create's lease is given back");
	/* Delete: the lease of the record goes, and the range is free. */
	{
		int sd = openat(rfd, "a", O_RDONLY | O_DIRECTORY);

		ok(id_lease_release(sd, err) == 0 && !exists(".idpool/1000"),
		   "release: delete gives the range back");
		close(sd);
	}
	ok(id_lease_peek(&p, &s, err) == 0 && s == 1000, "peek: the freed range is next");
	/* A lease someone else holds now is not released by an old record. */
	put(".idpool/1000", "other 00000000000000ff 1000 /nonexistent\n");
	{
		int sd = openat(rfd, "a", O_RDONLY | O_DIRECTORY);

		ok(id_lease_release(sd, err) == 0 && exists(".idpool/1000"),
		   "release: another container's lease of the same range stays");
		close(sd);
	}
	a.keep = b.keep = e.keep = true;
	id_lease_drop(&a);
	id_lease_drop(&b);
	id_lease_drop(&e);
	close(rfd);
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		if (system(cmd) != 0)
			diag("could not remove %s", root);
	}
}

int main(void)
{
	test_pick();
	test_subid();
	test_leases();
	return tap_done();
}
