/* cgroupfs: ward makes the directories (cgroup_dirs.c) and nothing else
 * manages them. */
#include "cgroup/cg_driver.h"

static int fs_start(struct cgroup *cg, const char *id, const struct oci_linux *l,
                    struct werror *err)
{
	(void)cg, (void)id, (void)l, (void)err;
	return 0;
}

static void fs_release(struct cgroup *cg)
{
	(void)cg;
}

static int fs_set(const struct cgroup *cg, const struct oci_linux *l, struct werror *err)
{
	(void)cg, (void)l, (void)err;
	return 0;
}

static int fs_stop(const struct cgroup *cg, struct werror *err)
{
	(void)cg, (void)err;
	return 0;
}

const struct cg_driver cg_driver_fs = {
    .name = "cgroupfs", .start = fs_start, .release = fs_release, .set = fs_set, .stop = fs_stop};
