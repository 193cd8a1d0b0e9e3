/* run: create, start, and in the foreground wait, relay and clean up. */
#include "container/ops/op_create.h"
#include "container/ops/ops.h"
#include "container/ops/report_file.h"
#include "lib/cleanup.h"
#include "container/query/query.h"
#include "container/waitfwd.h"
#include "lib/error.h"
#include "lib/fileio.h"

#include <errno.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yajl/yajl_tree.h>

/* run --report FILE: the report, where a CI job archives it. */
static int copy_report(struct globals *g, const char *id, const char *to, struct werror *err)
{
	_cleanup_free_ char *buf = NULL;
	size_t len;

	if (query_report_read(g, id, &buf, &len, err) < 0)
		return -1;
	return report_file_write(to, buf, len, err);
}

static long long tree_num(yajl_val v, const char *k1, const char *k2)
{
	const char *path[] = {k1, k2, NULL};
	yajl_val n = yajl_tree_get(v, path, yajl_t_number);

	return n && YAJL_IS_INTEGER(n) ? YAJL_GET_INTEGER(n) : -1;
}

/* A job the wall-clock limit ended says so on stderr: what, after how
 * long, whether the grace ran out. From the run report, once the
 * supervisor wrote it. Whether it timed out. */
static bool say_timeout(struct globals *g, const char *id)
{
	const char *timed[] = {"timeout", "timedOut", NULL};
	const char *graced[] = {"timeout", "killedAfterGrace", NULL};
	const char *from[] = {"timeout", "from", NULL};
	char *buf = NULL, perr[128];
	size_t len;
	yajl_val v, f;
	bool out = false;

	if (query_report_read(g, id, &buf, &len, NULL) < 0)
		return false;
	v = yajl_tree_parse(buf, perr, sizeof(perr));
	if (v && YAJL_IS_TRUE(yajl_tree_get(v, timed, yajl_t_any))) {
		out = true;
		bool killed = YAJL_IS_TRUE(yajl_tree_get(v, graced, yajl_t_any));

		f = yajl_tree_get(v, from, yajl_t_string);
		if (killed)
			fprintf(
			    stderr,
			    "ward: container \"%s\" timed out after %.3gs (its limit, from %s): "
			    "SIGTERM, then SIGKILL to every process once the %.3gs grace ran out\n",
			    id, (double)tree_num(v, "timeout", "limitMs") / 1000.0,
			    f ? YAJL_GET_STRING(f) : "the policy",
			    (double)tree_num(v, "timeout", "graceMs") / 1000.0);
		else
			fprintf(
			    stderr,
			    "ward: container \"%s\" timed out after %.3gs (its limit, from %s): "
			    "SIGTERM, and it ended within the grace\n",
			    id, (double)tree_num(v, "timeout", "limitMs") / 1000.0,
			    f ? YAJL_GET_STRING(f) : "the policy");
	}
	yajl_tree_free(v);
	free(buf);
	return out;
}

int ops_run(struct globals *g, const struct create_request *cc, struct werror *err)
{
	struct container c;
	sigset_t set, old;
	_cleanup_close_ int pidfd = -1, master = -1;
	int status;

	/* Blocked before the clone so that no signal is lost; the init resets
	 * its mask before anything else. */
	fwd_block(&set, &old);
	/* In the foreground, a terminal without --console-socket is relayed
	 * (runc's default config, and `ward run` of a shell by hand). */
	if (create_from_request(g, cc, &c, &pidfd, cc->detach ? NULL : &master, err) < 0) {
		/* A refused or invalid config has a report too, and so has a
		 * create ward failed: nothing ran, and it says why. */
		if (cc->report && !g->refusal_reported)
			report_file_error(cc, NULL, NULL, err);
		return -1;
	}
	if (container_start(&c, err) < 0) {
		_cleanup_werror_ struct werror undo_err = WERROR_INIT;

		/* The job's program did not run (missing from the image, its
		 * startContainer hook failed): the CI job still finds a report. */
		if (cc->report)
			report_file_error(cc, NULL, NULL, err);

		container_destroy(&c, true, &undo_err);
		store_close(&c);
		return -1;
	}
	if (cc->detach) {
		store_close(&c);
		return 0;
	}
	store_unlock(&c);
	status = fwd_wait(pidfd, &set, TAKE_FD(master), true, err); /* it closes master */
	sigprocmask(SIG_SETMASK, &old, NULL);
	/* The run supervisor's report (it ends once the init is gone). */
	if (store_relock(&c, err) == 0) {
		container_supervisor_wait(&c, err);
		/* Outside compat a timed-out job's status is timeout(1)'s. */
		if (say_timeout(g, cc->id) && status >= 0 && ops_ward_statuses(g))
			status = EXIT_TIMED_OUT;
		if (cc->report && copy_report(g, cc->id, cc->report, err) < 0)
			status = -1;
		store_unlock(&c);
	}
	if (!cc->keep) {
		struct stat sb;

		/* Someone may have deleted it while it ran: then nothing is left
		 * to do. */
		if (fstatat(c.rootfd, c.id, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
		    (store_relock(&c, err) < 0 ||
		     (store_refresh(&c, err), container_destroy(&c, true, err) < 0)))
			status = -1;
	}
	/* Reaped only now: until the supervisor is done, it may need the
	 * zombie's status (see fwd_wait). */
	if (cc->keep && !cc->report)
		container_supervisor_wait(&c, err);
	{
		siginfo_t si;

		while (waitid(P_PIDFD, (id_t)pidfd, &si, WEXITED) < 0 && errno == EINTR)
			;
	}
	store_close(&c);
	return status;
}
