/* The device rules of a container, in the order of evaluation, for the v1
 * devices controller (cgroup_v1.c) and the eBPF program (cgroup_bpfdev.c). */
#ifndef WARD_DEV_RULES_H
#define WARD_DEV_RULES_H

#include "lib/error.h"

#include "oci/config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CG_DEV_READ  1u
#define CG_DEV_WRITE 2u
#define CG_DEV_MKNOD 4u

/* One device rule, in the order of evaluation: later rules win. */
struct cg_dev_rule {
	bool allow;
	char type;            /* 'a', 'c' or 'b' */
	int64_t major, minor; /* -1: any */
	unsigned access;      /* CG_DEV_* bits */
	const char *field;    /* where it came from, for errors */
	size_t index;
	bool is_default; /* one of ward's (runc's) defaults, not the config's */
};

/* linux.resources.devices (none: a deny-all, as runc), then the default
 * /dev nodes (tun/tap only in compat: r->no_console), then linux.devices
 * when r->allow_listed:
 * the full list (the caller frees *out). */
int cg_device_rules(const struct oci_resources *r, const struct oci_linux *l,
                    struct cg_dev_rule **out, size_t *n, struct werror *err);

#endif
