#include "cgroup/cg_manager.h"
#include "cgroup/cg_driver.h"
#include "lib/trace.h"

#include <limits.h>
#include <string.h>

/* systemd's scope starts around a holder process, which counts against
 * pids.max while the init is made: a limit of 1 would fail the clone. It
 * starts at 2 then (the copies), and is set once the holder is gone
 * (cgroup_admit). */
static bool holder_limits(const struct oci_linux *l, struct oci_linux *ls, struct oci_resources *rs,
                          struct oci_pids *ps)
{
	if (!l || !l->resources || !l->resources->pids || l->resources->pids->limit != 1)
		return false;
	*ls = *l;
	*rs = *l->resources;
	*ps = (struct oci_pids){.limit = 2};
	rs->pids = ps;
	ls->resources = rs;
	return true;
}

static int record(struct cgroup *cg, const struct cgroup_request *r, struct werror *err)
{
	char rec[PATH_MAX * 2 + 4];

	cgroup_record(cg, rec, sizeof(rec));
	return r->record(r->record_arg, rec, err);
}

int cgroup_make(struct cgroup *cg, const struct cgroup_request *r, bool *made, struct werror *err)
{
	struct oci_linux lin_start;
	struct oci_resources res_start;
	struct oci_pids pids_start;
	const struct oci_linux *lin = r->limits;

	*made = false;
	if ((r->systemd ? cgroup_init_systemd : cgroup_init)(cg, r->cgroups_path, r->id, err) < 0)
		return -1;
	/* Until systemd has made the scope, a unit of that name is nobody's
	 * to stop (delete --force of a create killed now leaves it alone). */
	cg->pending = cg->unit != NULL;
	if (cg_driver_of(cg)->holder &&
	    holder_limits(r->limits, &lin_start, &res_start, &pids_start))
		lin = &lin_start;
	cgroup_plan(cg);
	if (record(cg, r, err) < 0)
		return -1;
	/* The manager's part first (systemd: the scope, with its limits). */
	if (cg_driver_of(cg)->start(cg, r->id, lin, err) < 0)
		return -1;
	*made = cg->unit != NULL;
	if (cgroup_create(cg, r->shared_ok, err) < 0)
		return -1;
	*made = true;
	/* Recorded again with what was found (the same, unless another
	 * create made a shared parent meanwhile). */
	if (cgroup_pin(cg, err) < 0 || record(cg, r, err) < 0)
		return -1;
	trace_mark("create: cgroup made");
	if (cgroup_apply(cg, lin, err) < 0)
		return -1;
	trace_mark("create: cgroup limits written");
	return 0;
}

int cgroup_admit(struct cgroup *cg, pid_t pid, bool in_unified, bool v1_entered,
                 const struct oci_linux *limits, struct werror *err)
{
	struct oci_linux lin_start;
	struct oci_resources res_start;
	struct oci_pids pids_start;
	bool held =
	    cg_driver_of(cg)->holder && holder_limits(limits, &lin_start, &res_start, &pids_start);

	if (cgroup_add_pid(cg, pid, in_unified, v1_entered, err) < 0)
		return -1;
	cg_driver_of(cg)->release(cg);
	if (held) {
		struct oci_resources rs = {.pids = limits->resources->pids};
		struct oci_linux l = {.resources = &rs};

		return cgroup_update(cg, &l, err);
	}
	return 0;
}

bool cgroup_self_entry_ok(const struct cgroup *cg)
{
	return cg->unit == NULL && cg->n_v1 > 0 && !cg_driver_of(cg)->holder;
}
