/* update: new limits for a live container's cgroup (the device rules stay
 * create's). */
#include "cgroup/cgroup.h"
#include "container/container.h"
#include "container/ops/ops.h"
#include "lib/error.h"
#include "lib/log.h"

#include <errno.h>

int ops_update(struct container *c, struct oci_resources *r, struct werror *err)
{
	_cleanup_cgroup_ struct cgroup cg = {0};

	/* The sentence says why: no strerror tacked on. */
	if (!container_cgroup(c, &cg))
		return werr_k(err, WERR_UNSUPPORTED, 0,
		              "container \"%s\" has no cgroup (rootless, without a delegated "
		              "cgroup2 subtree): there are no limits to update",
		              c->id);
	/* The device policy is create's (the profile's default deny, the
	 * refusals): update never changes it. As runc, device rules here are
	 * ignored (containerd sends the container's own back on every update). */
	if (r->n_devices)
		log_debug("update: linux.resources.devices ignored: the device rules are "
		          "create's");
	oci_resources_drop_devices(r);
	{
		struct oci_linux l = {.resources = r};

		return cgroup_update(&cg, &l, err);
	}
}
