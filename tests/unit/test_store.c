/* container/store: the state store in a scratch state root. Ids, the trust
 * check of the root, create/open/remove, the records (written atomically,
 * read whole or refused), and the status derived from a process, never
 * from the file (this test process stands in for a container's init). */
#include "container/proc.h"
#include "container/store.h"
#include "lib/error.h"
#include "tap.h"
#include "tmptree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char base[PATH_MAX];

/* Every id the rule allows, and what it refuses (with the refusal's words). */
static void test_ids(void)
{
	char id200[STORE_ID_MAX + 1], id201[STORE_ID_MAX + 2];
	const char *good[] = {"a",   "Z",   "0",   "c1",    "a.b",       "a_b", "a+b",
	                      "a-b", "a..", "a--", "9._+-", "ABCxyz019", id200};
	const struct {
		const char *id, *why;
	} bad[] = {
	    {"", "must not be empty"},         {".", "invalid container id"},
	    {"..", "invalid container id"},    {"/", "invalid container id"},
	    {"a/b", "invalid container id"},   {"../x", "invalid container id"},
	    {"-a", "invalid container id"},    {"_a", "invalid container id"},
	    {".a", "invalid container id"},    {"+a", "invalid container id"},
	    {"a b", "invalid container id"},   {"a\tb", "invalid container id"},
	    {"a\nb", "invalid container id"},  {"a\\b", "invalid container id"},
	    {"a:b", "invalid container id"},   {"a*", "invalid container id"},
	    {"a@b", "invalid container id"},   {"a\x01", "invalid container id"},
	    {"a\x7f", "invalid container id"}, {"\xc3\xa9t\xc3\xa9", "invalid container id"},
	    {"a\xff", "invalid container id"}, {id201, "at most 200"},
	};
	int fails = 0;

	memset(id200, 'x', STORE_ID_MAX);
	id200[STORE_ID_MAX] = '\0';
	memset(id201, 'y', STORE_ID_MAX + 1);
	id201[STORE_ID_MAX + 1] = '\0';
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		if (store_check_id(good[i], err) != 0) {
			fails++;
			diag("refused: \"%.20s\": %s", good[i], werr_msg(err));
		}
	ok(fails == 0, "%zu valid ids (200 characters included) are taken",
	   sizeof(good) / sizeof(good[0]));
	fails = 0;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		werr_clear(err);
		if (store_check_id(bad[i].id, err) != -1 || werr_kind_of(err) != WERR_INVALID ||
		    strstr(werr_msg(err), bad[i].why) == NULL) {
			fails++;
			diag("bad[%zu] \"%.20s\": %s", i, bad[i].id, werr_msg(err));
		}
	}
	ok(fails == 0, "%zu invalid ids refused, invalid, with the rule's reason",
	   sizeof(bad) / sizeof(bad[0]));
	werr_clear(err);
	store_check_id(id201, err);
	ok(strstr(werr_msg(err), "is 201 characters long") != NULL, "the length is told");
	werr_clear(err);
}

/* The root: made 0700 level by level; one that others could have written
 * (mode, or another owner) is not trusted. Modes, not permissions: this
 * holds for root too. */
static void test_root(void)
{
	char p[PATH_MAX + 64];
	struct stat st;
	int fd;

	werr_clear(err);
	ok(store_open_root("relative/root", err) < 0 && werr_kind_of(err) == WERR_INVALID &&
	       strstr(werr_msg(err), "must be an absolute path"),
	   "a relative root is invalid");
	werr_clear(err);
	snprintf(p, sizeof(p), "%s/deep/er/root", base);
	fd = store_open_root(p, err);
	ok(fd >= 0, "a missing root is made");
	if (fd >= 0)
		close(fd);
	{
		const char *lv[] = {"deep", "deep/er", "deep/er/root"};
		int modes = 0;

		for (size_t i = 0; i < 3; i++) {
			snprintf(p, sizeof(p), "%s/%s", base, lv[i]);
			modes +=
			    stat(p, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 0777) == 0700;
		}
		ok(modes == 3, "each level it made is 0700");
	}
	snprintf(p, sizeof(p), "%s/deep/er/root", base);
	fd = store_open_root(p, err);
	ok(fd >= 0, "an existing root opens");
	if (fd >= 0)
		close(fd);
	{
		const struct {
			mode_t mode;
			bool taken;
		} m[] = {{0700, true},  {0750, true},  {0755, true},  {0770, false},
		         {0707, false}, {0777, false}, {0702, false}, {01777, false}};
		int fails = 0;

		for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
			werr_clear(err);
			chmod(p, m[i].mode);
			fd = store_open_root(p, err);
			if ((fd >= 0) != m[i].taken ||
			    (!m[i].taken && !strstr(werr_msg(err), "is writable by others"))) {
				fails++;
				diag("mode %04o: fd %d, %s", (unsigned)m[i].mode, fd,
				     werr_msg(err));
			}
			if (fd >= 0)
				close(fd);
		}
		ok(fails == 0, "a root with group or other write is refused, others taken");
		chmod(p, 0700);
		werr_clear(err);
		chmod(p, 0777);
		store_open_root(p, err);
		ok(strstr(werr_msg(err), "(mode 777)") != NULL, "the mode is told");
		chmod(p, 0700);
	}
	werr_clear(err);
	/* Another owner: as root, give the dir away; as a user, "/" is root's. */
	if (geteuid() == 0) {
		snprintf(p, sizeof(p), "%s/others", base);
		mkdir(p, 0700);
		ok(chown(p, 65534, 65534) == 0 && store_open_root(p, err) < 0 &&
		       strstr(werr_msg(err), "belongs to uid 65534"),
		   "a root of another user is refused");
	} else {
		ok(store_open_root("/", err) < 0 && strstr(werr_msg(err), "belongs to uid 0"),
		   "a root of another user is refused");
	}
	werr_clear(err);
	snprintf(p, sizeof(p), "%s/afile", base);
	put_file(AT_FDCWD, p, "x");
	ok(store_open_root(p, err) < 0 && werr_errno(err) == ENOTDIR &&
	       strstr(werr_msg(err), "cannot open state root"),
	   "a root that is a file is refused");
	werr_clear(err);
	{
		char *longp = malloc(5000);

		memset(longp, 'r', 4999);
		longp[0] = '/';
		longp[4999] = '\0';
		ok(store_open_root(longp, err) < 0 && werr_errno(err) == ENAMETOOLONG,
		   "a root past 4095 bytes: ENAMETOOLONG");
		free(longp);
	}
	werr_clear(err);
}

/* A state for this very process: alive, with its own start time. */
static struct oci_state self_state(const char *id, uint64_t start)
{
	return (struct oci_state){.oci_version = "1.2.0",
	                          .id = (char *)id,
	                          .pid = getpid(),
	                          .bundle = "/b",
	                          .created = "2026-01-01T00:00:00Z",
	                          .owner = "",
	                          .pid_start = start};
}

/* A pid that was a process a moment ago and is not one now. */
static pid_t gone_pid(void)
{
	pid_t p = fork();

	if (p == 0)
		_exit(0);
	if (p > 0)
		waitpid(p, NULL, 0);
	return p;
}

static void test_lifecycle(int rootfd)
{
	struct container c, d;
	struct stat st;
	uint64_t start = 0;
	char state, buf[64];
	struct oci_state s;

	ok(proc_stat(getpid(), &start, &state, err) == 0 && start > 0, "own start time");
	s = self_state("c1", start);

	ok(store_create(rootfd, "c1", &c, err) == 0 && c.status == ST_CREATING &&
	       strcmp(c.id, "c1") == 0 && c.st == NULL,
	   "create c1: creating, no state");
	ok(fstatat(rootfd, "c1", &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode) &&
	       (st.st_mode & 0777) == 0700,
	   "its directory is 0700");
	{
		int other = openat(rootfd, "c1", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		ok(other >= 0 && flock(other, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK,
		   "create holds the lock");
		store_unlock(&c);
		ok(flock(other, LOCK_EX | LOCK_NB) == 0 && flock(other, LOCK_UN) == 0,
		   "store_unlock drops it");
		ok(store_relock(&c, err) == 0 && flock(other, LOCK_EX | LOCK_NB) < 0,
		   "store_relock takes it again");
		if (other >= 0)
			close(other);
	}
	werr_clear(err);
	ok(store_create(rootfd, "c1", &d, err) < 0 &&
	       strcmp(werr_msg(err), "container \"c1\" already exists") == 0,
	   "a second create");
	store_close(&d);
	werr_clear(err);
	ok(store_create(rootfd, "../c2", &d, err) < 0 && werr_kind_of(err) == WERR_INVALID &&
	       !exists_at(rootfd, "../c2") && !exists_at(rootfd, "c2"),
	   "create with a bad id makes nothing");
	store_close(&d);
	werr_clear(err);

	/* Records. */
	ok(store_write(&c, "rec", "hello", 5, err) == 0 &&
	       store_read(&c, "rec", buf, 6, err) == 0 && strcmp(buf, "hello") == 0,
	   "store_write / store_read round trip (exactly len - 1 bytes)");
	ok(fstatat(c.dirfd, "rec", &st, 0) == 0 && (st.st_mode & 0777) == 0600, "a record is 0600");
	ok(store_read(&c, "rec", buf, 5, err) < 0 && werr_errno(err) == EFBIG &&
	       strstr(werr_msg(err), "larger than 4 bytes") &&
	       strstr(werr_msg(err), "rec of \"c1\""),
	   "a record larger than len - 1 is an error, not cut");
	werr_clear(err);
	ok(store_write(&c, "rec", "hi", 2, err) == 0 && store_read(&c, "rec", buf, 6, err) == 0 &&
	       strcmp(buf, "hi") == 0,
	   "a shorter rewrite replaces the whole record");
	{
		int n = 0;
		DIR *dd = fdopendir(dup(c.dirfd));
		struct dirent *de;

		while (dd && (de = readdir(dd)) != NULL)
			n += de->d_name[0] != '.';
		if (dd)
			closedir(dd);
		ok(n == 1, "no temporary file is left beside it (%d entries)", n);
	}
	ok(store_read(&c, "nothing", buf, sizeof(buf), err) < 0 && werr_errno(err) == ENOENT &&
	       strstr(werr_msg(err), "nothing of \"c1\"") && buf[0] == '\0',
	   "a missing record names it");
	werr_clear(err);
	{
		char target[PATH_MAX + 16];
		char *big;
		size_t len;
		int fd;

		snprintf(target, sizeof(target), "%s/outside-record", base);
		put_file(AT_FDCWD, target, "planted");
		symlinkat(target, c.dirfd, "link");
		ok(store_read(&c, "link", buf, sizeof(buf), err) < 0 && werr_errno(err) == ELOOP,
		   "store_read does not follow a symlink");
		werr_clear(err);
		ok(store_read_alloc(&c, "link", &big, &len, err) < 0 && werr_errno(err) == ELOOP,
		   "store_read_alloc does not follow a symlink");
		werr_clear(err);
		unlinkat(c.dirfd, "link", 0);
		mkfifoat(c.dirfd, "fifo", 0600);
		/* (O_RDONLY on a fifo blocks for a writer: keep one open.) */
		fd = openat(c.dirfd, "fifo", O_RDWR | O_CLOEXEC);
		ok(store_read_alloc(&c, "fifo", &big, &len, err) < 0 &&
		       strstr(werr_msg(err), "not a regular file"),
		   "store_read_alloc refuses a fifo");
		if (fd >= 0)
			close(fd);
		unlinkat(c.dirfd, "fifo", 0);
		werr_clear(err);
		big = malloc(100001);
		memset(big, 'z', 100000);
		big[100000] = '\0';
		ok(store_write(&c, "big", big, 100000, err) == 0, "a 100 kB record");
		free(big);
		big = NULL;
		ok(store_read_alloc(&c, "big", &big, &len, err) == 0 && len == 100000 &&
		       big[99999] == 'z' && big[100000] == '\0',
		   "store_read_alloc gives it whole");
		free(big);
		unlinkat(c.dirfd, "big", 0);
	}

	/* Status: from the process and the fifo, never from the file. */
	c.st = &s;
	s.status = (char *)"running"; /* a forged status, not written */
	ok(store_save(&c, err) == 0, "store_save");
	c.st = NULL;
	store_close(&c);
	ok(store_open(rootfd, "c1", false, &d, err) == 0 && d.st && d.st->pid == getpid() &&
	       d.status == ST_RUNNING && strcmp(d.st->status, "running") == 0,
	   "this process, no exec.fifo: running");
	ok(mkfifoat(d.dirfd, EXEC_FIFO, 0600) == 0, "make exec.fifo");
	store_refresh(&d, err);
	ok(d.status == ST_CREATED && strcmp(d.st->status, "created") == 0,
	   "with exec.fifo: created");
	d.st->pid_start = start + 1;
	store_refresh(&d, err);
	ok(d.status == ST_STOPPED && strcmp(d.st->status, "stopped") == 0,
	   "another start time (a recycled pid): stopped");
	d.st->pid_start = start;
	d.st->pid = gone_pid();
	store_refresh(&d, err);
	ok(d.st->pid > 0 && d.status == ST_STOPPED, "a pid that has exited: stopped");
	d.st->pid = 0;
	store_refresh(&d, err);
	ok(d.status == ST_STOPPED, "pid 0: stopped");
	werr_clear(err);
	store_close(&d);

	/* A state.json that cannot be read: an error, or unknown for --force. */
	put_file(rootfd, "c1/" STATE_FILE, "{not json");
	ok(store_open(rootfd, "c1", false, &d, err) < 0 &&
	       strstr(werr_msg(err), "container \"c1\"") != NULL,
	   "a broken state.json fails store_open");
	store_close(&d);
	werr_clear(err);
	ok(store_open_any(rootfd, "c1", false, &d, err) == 0 && d.status == ST_UNKNOWN &&
	       d.st == NULL && d.load_err && strstr(d.load_err, "container \"c1\"") &&
	       werr_errno(err) == 0,
	   "store_open_any: unknown, with the reason kept");
	store_close(&d);
	werr_clear(err);
	unlinkat(rootfd, "c1/" STATE_FILE, 0);
	ok(store_open(rootfd, "c1", true, &d, err) == 0 && d.status == ST_CREATING,
	   "no state.json: creating");
	ok(store_write(&d, CONFIG_FILE, "{}", 2, err) == 0 && store_load_config(&d, err) == NULL &&
	       werr_errno(err) != 0,
	   "a saved config.json that does not parse: NULL with the error");
	werr_clear(err);
	put_file(d.dirfd, DELETING_FILE, "");
	store_close(&d);
	ok(store_open(rootfd, "c1", false, &d, err) == 0 && d.status == ST_DELETING,
	   "state set aside by a delete: deleting");
	store_close(&d);

	/* Remove: everything, the directory last; then the id is free. */
	s.id = (char *)"c1";
	ok(store_open(rootfd, "c1", true, &d, err) == 0, "open c1 locked");
	d.st = NULL;
	put_file(d.dirfd, STATE_FILE, "{}");
	put_file(d.dirfd, "extra", "x");
	ok(store_remove(&d, err) == 0 && !exists_at(rootfd, "c1"), "store_remove: the dir is gone");
	store_close(&d);
	werr_clear(err);
	ok(store_open(rootfd, "c1", false, &d, err) < 0 && werr_kind_of(err) == WERR_NOT_FOUND &&
	       werr_errno(err) == ENOENT &&
	       strcmp(werr_msg(err), "container \"c1\" does not exist") == 0,
	   "open of a missing id: not found, ENOENT");
	store_close(&d);
	werr_clear(err);
	ok(store_create(rootfd, "c1", &c, err) == 0, "the id can be created again");
	store_close(&c);
}

static void test_odd_entries(int rootfd)
{
	struct container d;
	char p[PATH_MAX + 16];

	/* An id that is a symlink to a directory (elsewhere): not followed. */
	snprintf(p, sizeof(p), "%s/elsewhere", base);
	mkdir(p, 0700);
	symlinkat(p, rootfd, "sl");
	werr_clear(err);
	ok(store_open(rootfd, "sl", false, &d, err) < 0 && werr_kind_of(err) != WERR_NOT_FOUND,
	   "an id that is a symlink is not opened");
	store_close(&d);
	werr_clear(err);
	ok(store_create(rootfd, "sl", &d, err) < 0 && strstr(werr_msg(err), "already exists"),
	   "nor created over");
	store_close(&d);
	werr_clear(err);
	ok(store_open(rootfd, "..", false, &d, err) < 0 && werr_kind_of(err) == WERR_INVALID,
	   "store_open checks the id");
	store_close(&d);
	werr_clear(err);

	/* Caches: .<name>, 0700, ours only. */
	{
		int fd = store_cache_dir(rootfd, "cache");
		struct stat st;

		ok(fd >= 0 && fstatat(rootfd, ".cache", &st, 0) == 0 && (st.st_mode & 0777) == 0700,
		   "store_cache_dir makes .cache 0700");
		if (fd >= 0)
			close(fd);
		fchmodat(rootfd, ".cache", 0755, 0);
		fd = store_cache_dir(rootfd, "cache");
		ok(fd < 0, "a cache dir others can read or write is not used");
		if (fd >= 0)
			close(fd);
		ok(store_check_id(".cache", err) < 0, "and no id can name it");
		werr_clear(err);
	}
	{
		const char *names[] = {"creating", "created",  "running", "stopped",
		                       "paused",   "deleting", "unknown"};
		int fails = 0;

		for (int i = ST_CREATING; i <= ST_UNKNOWN; i++)
			fails += strcmp(status_name((enum container_status)i), names[i]) != 0;
		ok(fails == 0, "status names");
	}
}

int main(void)
{
	char p[PATH_MAX + 16];
	int rootfd;

	umask(022);
	test_ids();
	if (!ok(tmp_make(base, sizeof(base), "store") != NULL, "scratch dir %s", base))
		return tap_done();
	test_root();
	snprintf(p, sizeof(p), "%s/state", base);
	rootfd = store_open_root(p, err);
	if (ok(rootfd >= 0, "state root %s", p)) {
		test_lifecycle(rootfd);
		test_odd_entries(rootfd);
		close(rootfd);
	}
	tmp_remove(base);
	werr_clear(err);
	return tap_done();
}
