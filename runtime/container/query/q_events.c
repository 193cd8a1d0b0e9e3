/* events: runc's JSON lines. --stats prints one stats event; otherwise a
 * stats event every --interval and an "oom" event whenever the OOM killer
 * struck, until the container stops. */
#include "cgroup/cgroup_stats.h"
#include "container/container.h"
#include "container/query/query.h"
#include "lib/error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define S(g, s) yajl_gen_string((g), (const unsigned char *)(s), strlen(s))

static int emit(const char *type, const char *id, const struct cgroup *cg, struct werror *err)
{
	yajl_gen g = yajl_gen_alloc(NULL);
	const unsigned char *buf;
	size_t len;
	int r = 0;

	if (g == NULL)
		return werr(err, ENOMEM, "out of memory");
	yajl_gen_map_open(g);
	S(g, "type");
	S(g, type);
	S(g, "id");
	S(g, id);
	if (cg) {
		S(g, "data");
		r = cgroup_stats_gen(cg, g, err);
	}
	yajl_gen_map_close(g);
	if (r == 0 && yajl_gen_get_buf(g, &buf, &len) == yajl_gen_status_ok) {
		printf("%.*s\n", (int)len, buf);
		fflush(stdout);
	}
	yajl_gen_free(g);
	return r;
}

int query_events(struct container *c, bool stats, long ms, struct werror *err)
{
	_cleanup_cgroup_ struct cgroup cg = {0};
	uint64_t ooms;
	int r = -1;

	if (c->status == ST_STOPPED || c->status == ST_CREATING) {
		werr(err, 0, "container \"%s\" is %s", c->id, status_name(c->status));
		goto out;
	}
	if (c->st->cgroup_path == NULL || cgroup_open(&cg, c->st->cgroup_path, c->id, err) < 0) {
		werr(err, ENOENT, "container \"%s\" has no cgroup", c->id);
		goto out;
	}
	if (stats) {
		r = emit("stats", c->id, &cg, err);
		goto out;
	}
	ooms = cgroup_oom_kills(&cg, err);
	for (;;) {
		uint64_t now;

		if (emit("stats", c->id, &cg, err) < 0)
			goto out;
		/* Watch the OOM counter more often than the stats go out. */
		for (long waited = 0; waited < ms; waited += 100) {
			struct timespec step = {0, 100 * 1000000L};

			if (ms - waited < 100)
				step.tv_nsec = (ms - waited) * 1000000L;
			nanosleep(&step, NULL);
			now = cgroup_oom_kills(&cg, err);
			if (now > ooms && emit("oom", c->id, NULL, err) < 0)
				goto out;
			ooms = now > ooms ? now : ooms;
		}
		store_refresh(c, err);
		if (c->status == ST_STOPPED)
			break;
	}
	r = 0;
out:
	return r;
}
