/* linux.resources (runtime-spec 1.2, config-linux.md "Control groups"). */
#ifndef WARD_OCI_RESOURCES_H
#define WARD_OCI_RESOURCES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/jwalk.h"

struct oci_device_rule {
	bool allow;
	char *type; /* a, c or b; NULL = all */
	int64_t major, minor;
	bool has_major, has_minor; /* absent = wildcard */
	char *access;              /* subset of "rwm" */
};

struct oci_memory {
	int64_t limit, reservation, swap, kernel, kernel_tcp;
	bool has_limit, has_reservation, has_swap, has_kernel, has_kernel_tcp;
	uint64_t swappiness;
	bool has_swappiness;
	bool disable_oom_killer, use_hierarchy, check_before_update;
};

struct oci_cpu {
	uint64_t shares, period, realtime_period, burst;
	bool has_shares, has_period, has_realtime_period, has_burst;
	int64_t quota, realtime_runtime, idle;
	bool has_quota, has_realtime_runtime, has_idle;
	char *cpus, *mems;
};

struct oci_pids {
	int64_t limit;
};

struct oci_weight_device {
	int64_t major, minor;
	uint32_t weight, leaf_weight;
	bool has_weight, has_leaf_weight;
};

struct oci_throttle_device {
	int64_t major, minor;
	uint64_t rate;
};

struct oci_blockio {
	uint32_t weight, leaf_weight;
	bool has_weight, has_leaf_weight;
	struct oci_weight_device *weight_device;
	size_t n_weight_device;
	struct oci_throttle_device *throttle_read_bps, *throttle_write_bps, *throttle_read_iops,
	    *throttle_write_iops;
	size_t n_throttle_read_bps, n_throttle_write_bps, n_throttle_read_iops,
	    n_throttle_write_iops;
};

struct oci_hugepage_limit {
	char *page_size;
	uint64_t limit;
};

struct oci_net_priority {
	char *name;
	uint32_t priority;
};

struct oci_network {
	uint32_t class_id;
	bool has_class_id;
	struct oci_net_priority *priorities;
	size_t n_priorities;
};

struct oci_rdma {
	char *device;
	uint32_t hca_handles, hca_objects;
	bool has_hca_handles, has_hca_objects;
};

struct oci_resources {
	struct oci_device_rule *devices;
	size_t n_devices;
	struct oci_memory *memory;
	struct oci_cpu *cpu;
	struct oci_pids *pids;
	struct oci_blockio *block_io;
	struct oci_hugepage_limit *hugepage_limits;
	size_t n_hugepage_limits;
	struct oci_network *network;
	struct oci_rdma *rdma; /* from the object keyed by device name */
	size_t n_rdma;
	struct jkv *unified;
	size_t n_unified;
	/* Not config.json's: set by the baseline and strict policy for the
	 * device cgroup (cgroup/dev_rules.c). no_console: ward's default rules
	 * leave out the host console (c 5:1), which the container's own
	 * /dev/console (a pty, 136:N) does not need. allow_listed: the
	 * linux.devices nodes are allowed after the rules, because the policy
	 * put a deny-all first where the config had none (without it those
	 * nodes opened); otherwise, as runc, only the rules decide. */
	bool no_console, allow_listed;
	/* No device cgroup at all (rootless: cgroup2's device program needs
	 * the host's CAP_BPF; runc's SkipDevices). Otherwise the device
	 * cgroup is always set up, rules or not, as runc does. */
	bool skip_devices;
};

extern const struct jschema oci_resources_schema;
/* Free the device rules and leave none. */
void oci_resources_drop_devices(struct oci_resources *r);
/* True when nothing at all is asked for. */
bool oci_resources_empty(const struct oci_resources *r);
/* A device rule's access as bits: r 1, w 2, m 4; absent or "" is all
 * three. Other letters count for nothing, as runc reads them (its own
 * tests deny "rwa"): an allow rule never gains from them, a deny rule
 * denies what its r, w and m say. */
unsigned oci_device_access(const char *access);

#endif
