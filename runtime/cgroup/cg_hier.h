/* The handle of one hierarchy of the container's cgroup (struct cgroup
 * holds one per hierarchy; cg_files.h reads and writes through it). */
#ifndef WARD_CG_HIER_H
#define WARD_CG_HIER_H

/* One hierarchy, and the container's cgroup directory in it. */
struct cg_hier {
	char *mnt;  /* mount point of the hierarchy */
	char *opts; /* its controllers ("cpu,cpuacct", "name=systemd"); "" for cgroup2 */
	char *name; /* mnt + the cgroup path: the directory, as messages name it */
	int fd;     /* O_PATH fd of that directory; -1 if not open */
	int err;    /* why it is not open (0: not tried) */
	/* How many leading levels of the path were there before create;
	 * destroy removes the deeper ones (and always the leaf). */
	unsigned kept;
};

#endif
