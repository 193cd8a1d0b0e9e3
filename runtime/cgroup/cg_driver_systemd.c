/* systemd: a transient scope per container (sd_unit.c speaks to systemd
 * over D-Bus), made around a holder process, its limits set as the unit's
 * properties as well as in the files. */
#include "cgroup/cg_driver.h"
#include "cgroup/cg_files.h"
#include "cgroup/cg_systemd.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* systemd makes a scope only around a process (StartTransientUnit refuses
 * one with no PIDs): a child that waits, killed once the init is in the
 * scope (or with ward: PR_SET_PDEATHSIG, and the empty scope is then
 * systemd's to collect). The init itself is then made in the scope's
 * cgroup directly (CLONE_INTO_CGROUP) under the limits already set. */
static pid_t holder_spawn(struct werror *err)
{
	pid_t parent = getpid(), p = fork();

	if (p == 0) {
		/* It sits in the container's cgroup: none of ward's fds (the
		 * state dir, the caller's) with it. */
		close_range(3, ~0U, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(0);
		for (;;)
			pause();
	}
	return p < 0 ? werr(err, errno, "systemd: starting the scope's holder process") : p;
}

static void sd_release(struct cgroup *cg)
{
	cg_holder_end(&cg->holder);
}

/* Is the holder in cg->path, in the hierarchy systemd runs (cgroup2, or
 * its name=systemd one on hybrid and v1 hosts)? */
static bool holder_at(const struct cgroup *cg, struct werror *err)
{
	char buf[8192];
	size_t plen = strlen(cg->path);

	if (!cg_proc_cgroup(cg->holder, buf, sizeof(buf), err))
		return false;
	for (char *l = strtok(buf, "\n"); l; l = strtok(NULL, "\n")) {
		const char *path = strchr(l, ':') ? strchr(strchr(l, ':') + 1, ':') : NULL;
		bool systemds = strncmp(l, "0::", 3) == 0 || strstr(l, ":name=systemd:") != NULL;

		if (systemds && path)
			return strncmp(path + 1, cg->path, plen) == 0 && path[1 + plen] == '\0';
	}
	return false;
}

static int sd_start(struct cgroup *cg, const char *id, const struct oci_linux *l,
                    struct werror *err)
{
	if ((cg->holder = holder_spawn(err)) < 0) {
		cg->holder = 0;
		return -1;
	}
	if (sd_unit_start(cg->unit, cg->slice, id, cg->holder, l ? l->resources : NULL,
	                  cg->layout == CG_V2, err) < 0) {
		sd_release(cg);
		return -1;
	}
	/* Where systemd put the scope (a drop-in's Slice=, a nested systemd)
	 * must be where ward makes the container's cgroup. */
	if (!holder_at(cg, err)) {
		sd_release(cg);
		sd_unit_stop(cg->unit, err);
		return werr(err, EXDEV, "systemd put %s elsewhere than %s: refused", cg->unit,
		            cg->path);
	}
	return 0;
}

/* A unit is changed only while its cgroup is still the container's: the
 * name of one systemd collected may be another's by now. */
static int sd_set(const struct cgroup *cg, const struct oci_linux *l, struct werror *err)
{
	if (!cgroup_alive(cg))
		return werr(err, ESTALE, "cgroup %s is no longer the container's", cg->path);
	return sd_unit_set(cg->unit, l->resources, cg->layout == CG_V2, err);
}

/* systemd removes the scope's directories; then ward the rest. A scope
 * already collected (the name may be another's by now) is not asked for
 * again, nor a pending one that is no longer empty. */
static int sd_stop(const struct cgroup *cg, struct werror *err)
{
	if (!cgroup_alive(cg) || (cg->pending && !cg_settles_empty(cg->unified, 0, err)))
		return 0;
	return sd_unit_stop(cg->unit, err);
}

const struct cg_driver cg_driver_systemd = {.name = "systemd",
                                            .owns_parents = true,
                                            .holder = true,
                                            .start = sd_start,
                                            .release = sd_release,
                                            .set = sd_set,
                                            .stop = sd_stop};
