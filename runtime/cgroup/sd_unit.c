/* The systemd cgroup driver's calls to systemd (org.freedesktop.systemd1,
 * over sd-bus): start the container's transient scope, set its properties,
 * stop it. Each call that makes a job waits for that job to end (bounded),
 * as runc and systemd-run do, and fails with systemd's own words. */
#include "cgroup/cg_systemd.h"
#include "lib/error.h"
#include "lib/log.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#ifdef HAVE_SYSTEMD
#include <dlfcn.h>
#include <systemd/sd-bus.h>

/* libsystemd is loaded when the driver is used, not linked: it and what it
 * pulls in (lzma, zstd, lz4, gcrypt, cap) cost every ward command about
 * 3 ms of dynamic linking, the systemd driver's few calls nothing. */
#define SD_FUNCS(X)                                                                                \
	X(sd_bus_open_system)                                                                      \
	X(sd_bus_new)                                                                              \
	X(sd_bus_set_address)                                                                      \
	X(sd_bus_start)                                                                            \
	X(sd_bus_unref)                                                                            \
	X(sd_bus_flush_close_unref)                                                                \
	X(sd_bus_is_bus_client)                                                                    \
	X(sd_bus_match_signal)                                                                     \
	X(sd_bus_slot_unref)                                                                       \
	X(sd_bus_call)                                                                             \
	X(sd_bus_call_method)                                                                      \
	X(sd_bus_process)                                                                          \
	X(sd_bus_wait)                                                                             \
	X(sd_bus_error_has_name)                                                                   \
	X(sd_bus_error_free)                                                                       \
	X(sd_bus_message_new_method_call)                                                          \
	X(sd_bus_message_unref)                                                                    \
	X(sd_bus_message_read)                                                                     \
	X(sd_bus_message_append)                                                                   \
	X(sd_bus_message_append_array)                                                             \
	X(sd_bus_message_open_container)                                                           \
	X(sd_bus_message_close_container)

#define SD_MEMBER(f) __typeof__(f) *f;
static struct {
	SD_FUNCS(SD_MEMBER)
} lib;

static int lib_load(struct werror *err)
{
	static void *h;
	void *p;

	if (h)
		return 0;
	if ((p = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL)) == NULL)
		return werr(err, ENOTSUP, "the systemd cgroup manager needs libsystemd.so.0: %s",
		            dlerror());
#define SD_LOAD(f)                                                                                 \
	if ((*(void **)&lib.f = dlsym(p, #f)) == NULL) {                                           \
		werr(err, ENOTSUP, "libsystemd.so.0 lacks %s: systemd >= 244 is needed", #f);      \
		dlclose(p);                                                                        \
		return -1;                                                                         \
	}
	SD_FUNCS(SD_LOAD)
	h = p;
	return 0;
}

#define SD_DEST "org.freedesktop.systemd1"
#define SD_PATH "/org/freedesktop/systemd1"
#define SD_MGR  "org.freedesktop.systemd1.Manager"
/* How long a job may take: systemd answers in milliseconds; a job still
 * queued after this is a systemd in trouble. */
#define SD_JOB_TIMEOUT_US (30ULL * 1000000)

#define _cleanup_bus_ __attribute__((cleanup(bus_close)))
#define _cleanup_msg_ __attribute__((cleanup(msg_unref)))

static void bus_close(sd_bus **b)
{
	if (*b)
		lib.sd_bus_flush_close_unref(*b);
}

static void msg_unref(sd_bus_message **m)
{
	if (*m)
		lib.sd_bus_message_unref(*m);
}

/* The system bus, else systemd's own socket (a host without a bus daemon:
 * systemctl does the same). */
static int bus_connect(sd_bus **bus, struct werror *err)
{
	sd_bus *b = NULL;
	int r, r2;

	if (lib_load(err) < 0)
		return -1;
	if ((r = lib.sd_bus_open_system(bus)) >= 0)
		return 0;
	*bus = NULL;
	r2 = lib.sd_bus_new(&b);
	if (r2 >= 0)
		r2 = lib.sd_bus_set_address(b, "unix:path=/run/systemd/private");
	if (r2 >= 0)
		r2 = lib.sd_bus_start(b);
	if (r2 >= 0) {
		*bus = b;
		return 0;
	}
	lib.sd_bus_unref(b);
	return werr(err, -r,
	            "the systemd cgroup manager cannot reach systemd (the system bus: %s; "
	            "/run/systemd/private: %s): is systemd the init of this host?",
	            strerror(-r), strerror(-r2));
}

bool sd_available(void)
{
	_cleanup_bus_ sd_bus *bus = NULL;
	bool ok = bus_connect(&bus, NULL) == 0;

	return ok;
}

struct job {
	char path[256];
	char result[64];
	bool done;
};

static int on_job_removed(sd_bus_message *m, void *ud, sd_bus_error *e)
{
	struct job *j = ud;
	const char *path, *unit, *result;
	uint32_t id;

	(void)e;
	if (lib.sd_bus_message_read(m, "uoss", &id, &path, &unit, &result) >= 0 && j->path[0] &&
	    strcmp(path, j->path) == 0) {
		snprintf(j->result, sizeof(j->result), "%s", result);
		j->done = true;
	}
	return 0;
}

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

/* Send m (a call that answers with a job's object path) and wait for that
 * job to end. A unit systemd does not know is *gone when gone is given. */
static int call_job(sd_bus *bus, sd_bus_message *m, const char *what, const char *unit, bool *gone,
                    struct werror *err)
{
	sd_bus_error bus_err = SD_BUS_ERROR_NULL;
	_cleanup_msg_ sd_bus_message *reply = NULL;
	sd_bus_slot *slot = NULL;
	struct job j = {0};
	const char *path;
	uint64_t deadline = now_us() + SD_JOB_TIMEOUT_US;
	int r;

	/* Matched before the call: the job may end before its reply is read.
	 * On the bus only systemd's own name may send it. */
	r = lib.sd_bus_match_signal(bus, &slot, lib.sd_bus_is_bus_client(bus) > 0 ? SD_DEST : NULL,
	                            SD_PATH, SD_MGR, "JobRemoved", on_job_removed, &j);
	if (r < 0)
		return werr(err, -r, "systemd: watching the job of %s", unit);
	r = lib.sd_bus_call(bus, m, SD_JOB_TIMEOUT_US, &bus_err, &reply);
	if (r < 0) {
		if (gone &&
		    lib.sd_bus_error_has_name(&bus_err, "org.freedesktop.systemd1.NoSuchUnit")) {
			*gone = true;
			r = 0;
		} else if (lib.sd_bus_error_has_name(&bus_err,
		                                     "org.freedesktop.systemd1.UnitExists")) {
			r = werr(err, EEXIST, "systemd: %s %s: the unit already exists", what,
			         unit);
		} else {
			r = werr(err, -r, "systemd: %s %s: %s", what, unit,
			         bus_err.message ? bus_err.message : strerror(-r));
		}
		lib.sd_bus_error_free(&bus_err);
		lib.sd_bus_slot_unref(slot);
		return r;
	}
	if ((r = lib.sd_bus_message_read(reply, "o", &path)) < 0) {
		lib.sd_bus_slot_unref(slot);
		return werr(err, -r, "systemd: %s %s: no job in the answer", what, unit);
	}
	snprintf(j.path, sizeof(j.path), "%s", path);
	while (!j.done) {
		uint64_t t = now_us();

		r = lib.sd_bus_process(bus, NULL);
		if (r > 0)
			continue;
		if (r >= 0 && t >= deadline)
			r = -ETIMEDOUT;
		if (r >= 0)
			r = lib.sd_bus_wait(bus, deadline - t);
		if (r < 0 && r != -EINTR) {
			lib.sd_bus_slot_unref(slot);
			return werr(err, -r, "systemd: waiting for the job of %s %s", what, unit);
		}
	}
	lib.sd_bus_slot_unref(slot);
	if (strcmp(j.result, "done") != 0)
		return werr(err, EIO,
		            "systemd: %s %s: the job ended \"%s\" (journalctl -u %s says why)",
		            what, unit, j.result, unit);
	return 0;
}

static int append_props(sd_bus_message *m, const struct sd_props *p)
{
	int r = 0;

	for (size_t i = 0; r >= 0 && i < p->n; i++) {
		const struct sd_prop *q = &p->p[i];

		if (q->type == 't')
			r = lib.sd_bus_message_append(m, "(sv)", q->name, "t", q->u);
		else if (q->type == 'b')
			r = lib.sd_bus_message_append(m, "(sv)", q->name, "b", (int)q->u);
		else if ((r = lib.sd_bus_message_open_container(m, 'r', "sv")) >= 0 &&
		         (r = lib.sd_bus_message_append(m, "s", q->name)) >= 0 &&
		         (r = lib.sd_bus_message_open_container(m, 'v', "ay")) >= 0 &&
		         (r = lib.sd_bus_message_append_array(m, 'y', q->bytes, q->n_bytes)) >= 0 &&
		         (r = lib.sd_bus_message_close_container(m)) >= 0)
			r = lib.sd_bus_message_close_container(m);
	}
	return r;
}

int sd_unit_start(const char *unit, const char *slice, const char *id, pid_t pid,
                  const struct oci_resources *res, bool v2, struct werror *err)
{
	_cleanup_bus_ sd_bus *bus = NULL;
	_cleanup_msg_ sd_bus_message *m = NULL;
	struct sd_props p;
	char desc[320];
	int r;

	if (sd_props_from_resources(res, v2, true, &p, err) < 0)
		return -1;
	if (bus_connect(&bus, err) < 0) {
		sd_props_free(&p);
		return -1;
	}
	snprintf(desc, sizeof(desc), "ward container %s", id);
	r = lib.sd_bus_message_new_method_call(bus, &m, SD_DEST, SD_PATH, SD_MGR,
	                                       "StartTransientUnit");
	if (r >= 0)
		r = lib.sd_bus_message_append(m, "ss", unit, "fail");
	if (r >= 0)
		r = lib.sd_bus_message_open_container(m, 'a', "(sv)");
	/* Delegate: the cgroup below the scope is ward's (and the
	 * container's); DefaultDependencies=no: no ordering against
	 * shutdown.target that would stop it before the engine does. */
	/* CollectMode: a scope that ends "failed" (an OOM kill on systemd
	 * before 253 stops it) is collected too, never left behind. */
	if (r >= 0)
		r = lib.sd_bus_message_append(m, "(sv)(sv)(sv)(sv)(sv)(sv)", "Description", "s",
		                              desc, "Slice", "s", slice, "Delegate", "b", 1,
		                              "DefaultDependencies", "b", 0, "CollectMode", "s",
		                              "inactive-or-failed", "PIDs", "au", 1, (uint32_t)pid);
	if (r >= 0)
		r = append_props(m, &p);
	if (r >= 0)
		r = lib.sd_bus_message_close_container(m);
	if (r >= 0)
		r = lib.sd_bus_message_append(m, "a(sa(sv))", 0);
	sd_props_free(&p);
	if (r < 0)
		return werr(err, -r, "systemd: building the request for %s", unit);
	log_debug("systemd: starting %s in %s", unit, slice);
	return call_job(bus, m, "starting", unit, NULL, err);
}

int sd_unit_set(const char *unit, const struct oci_resources *res, bool v2, struct werror *err)
{
	_cleanup_bus_ sd_bus *bus = NULL;
	_cleanup_msg_ sd_bus_message *m = NULL;
	sd_bus_error bus_err = SD_BUS_ERROR_NULL;
	struct sd_props p;
	int r;

	if (sd_props_from_resources(res, v2, false, &p, err) < 0)
		return -1;
	if (p.n == 0)
		return 0;
	if (bus_connect(&bus, err) < 0) {
		sd_props_free(&p);
		return -1;
	}
	r = lib.sd_bus_message_new_method_call(bus, &m, SD_DEST, SD_PATH, SD_MGR,
	                                       "SetUnitProperties");
	if (r >= 0)
		r = lib.sd_bus_message_append(m, "sb", unit, 1);
	if (r >= 0)
		r = lib.sd_bus_message_open_container(m, 'a', "(sv)");
	if (r >= 0)
		r = append_props(m, &p);
	if (r >= 0)
		r = lib.sd_bus_message_close_container(m);
	sd_props_free(&p);
	if (r < 0)
		return werr(err, -r, "systemd: building the request for %s", unit);
	r = lib.sd_bus_call(bus, m, SD_JOB_TIMEOUT_US, &bus_err, NULL);
	if (r < 0) {
		r = werr(err, -r, "systemd: setting the limits of %s: %s", unit,
		         bus_err.message ? bus_err.message : strerror(-r));
		lib.sd_bus_error_free(&bus_err);
	}
	return r;
}

int sd_unit_stop(const char *unit, struct werror *err)
{
	_cleanup_bus_ sd_bus *bus = NULL;
	_cleanup_msg_ sd_bus_message *m = NULL;
	bool gone = false;
	int r;

	if (bus_connect(&bus, err) < 0)
		return -1;
	r = lib.sd_bus_message_new_method_call(bus, &m, SD_DEST, SD_PATH, SD_MGR, "StopUnit");
	if (r >= 0)
		r = lib.sd_bus_message_append(m, "ss", unit, "replace");
	if (r < 0)
		return werr(err, -r, "systemd: building the request for %s", unit);
	r = call_job(bus, m, "stopping", unit, &gone, err);
	/* A scope killed by its processes' signal ends "failed" and would stay
	 * listed until reset. */
	lib.sd_bus_call_method(bus, SD_DEST, SD_PATH, SD_MGR, "ResetFailedUnit", NULL, NULL, "s",
	                       unit);
	return r;
}

#else

static int unavailable(struct werror *err)
{
	return werr_k(err, WERR_UNSUPPORTED, ENOTSUP,
	              "the systemd cgroup manager is unavailable: this ward was built "
	              "without libsystemd (install libsystemd-dev and run configure again)");
}

bool sd_available(void)
{
	return false;
}

int sd_unit_start(const char *unit, const char *slice, const char *id, pid_t pid,
                  const struct oci_resources *res, bool v2, struct werror *err)
{
	(void)unit, (void)slice, (void)id, (void)pid, (void)res, (void)v2;
	return unavailable(err);
}

int sd_unit_set(const char *unit, const struct oci_resources *res, bool v2, struct werror *err)
{
	(void)unit, (void)res, (void)v2;
	return unavailable(err);
}

int sd_unit_stop(const char *unit, struct werror *err)
{
	(void)unit;
	return unavailable(err);
}
#endif
