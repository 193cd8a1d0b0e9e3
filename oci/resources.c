/* Schema tables for linux.resources. */
#include "oci/resources.h"
#include "lib/error.h"
#include "lib/jwalk_macros.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int check_device_rule(void *obj, const struct jpath *p, struct werror *err)
{
	struct oci_device_rule *d = obj;

	if (d->type && strcmp(d->type, "a") != 0 && strcmp(d->type, "c") != 0 &&
	    strcmp(d->type, "b") != 0) {
		struct jpath tp = {p, "type", 0};

		return jerr(err, &tp, "must be a, c or b (got \"%s\")", d->type);
	}
	/* Letters, as runc takes them; only r, w and m mean anything. */
	for (const char *a = d->access; a && *a; a++)
		if (!((*a >= 'a' && *a <= 'z') || (*a >= 'A' && *a <= 'Z'))) {
			struct jpath ap = {p, "access", 0};

			return jerr(err, &ap, "must be letters such as rwm (got \"%s\")",
			            d->access);
		}
	return 0;
}

unsigned oci_device_access(const char *a)
{
	unsigned b = 0;

	if (a == NULL || a[0] == '\0')
		return 7u;
	for (; *a; a++)
		b |= *a == 'r' ? 1u : *a == 'w' ? 2u : *a == 'm' ? 4u : 0u;
	return b;
}

static const struct jfield device_rule_fields[] = {
    FLD("allow", JK_BOOL, struct oci_device_rule, allow, JF_REQUIRED),
    FLD("type", JK_STR, struct oci_device_rule, type, 0),
    FLD_HAS("major", JK_I64, struct oci_device_rule, major, 0),
    FLD_HAS("minor", JK_I64, struct oci_device_rule, minor, 0),
    FLD("access", JK_STR, struct oci_device_rule, access, 0),
};
static const struct jschema device_rule_schema =
    SCHEMA(struct oci_device_rule, device_rule_fields, check_device_rule, NULL);

static int check_memory(void *obj, const struct jpath *p, struct werror *err)
{
	struct oci_memory *m = obj;

	if (m->has_swappiness && m->swappiness > 100) {
		struct jpath sp = {p, "swappiness", 0};

		return jerr(err, &sp, "must be between 0 and 100");
	}
	return 0;
}

static const struct jfield memory_fields[] = {
    FLD_HAS("limit", JK_I64, struct oci_memory, limit, 0),
    FLD_HAS("reservation", JK_I64, struct oci_memory, reservation, 0),
    FLD_HAS("swap", JK_I64, struct oci_memory, swap, 0),
    FLD_HAS("kernel", JK_I64, struct oci_memory, kernel, 0),
    FLD_HAS("kernelTCP", JK_I64, struct oci_memory, kernel_tcp, 0),
    FLD_HAS("swappiness", JK_U64, struct oci_memory, swappiness, 0),
    FLD("disableOOMKiller", JK_BOOL, struct oci_memory, disable_oom_killer, 0),
    FLD("useHierarchy", JK_BOOL, struct oci_memory, use_hierarchy, 0),
    FLD("checkBeforeUpdate", JK_BOOL, struct oci_memory, check_before_update, 0),
};
static const struct jschema memory_schema =
    SCHEMA(struct oci_memory, memory_fields, check_memory, NULL);

static const struct jfield cpu_fields[] = {
    FLD_HAS("shares", JK_U64, struct oci_cpu, shares, 0),
    FLD_HAS("quota", JK_I64, struct oci_cpu, quota, 0),
    FLD_HAS("burst", JK_U64, struct oci_cpu, burst, 0),
    FLD_HAS("period", JK_U64, struct oci_cpu, period, 0),
    FLD_HAS("realtimeRuntime", JK_I64, struct oci_cpu, realtime_runtime, 0),
    FLD_HAS("realtimePeriod", JK_U64, struct oci_cpu, realtime_period, 0),
    FLD("cpus", JK_STR, struct oci_cpu, cpus, 0),
    FLD("mems", JK_STR, struct oci_cpu, mems, 0),
    FLD_HAS("idle", JK_I64, struct oci_cpu, idle, 0),
};
static const struct jschema cpu_schema = SCHEMA(struct oci_cpu, cpu_fields, NULL, NULL);

static const struct jfield pids_fields[] = {
    FLD("limit", JK_I64, struct oci_pids, limit, JF_REQUIRED),
};
static const struct jschema pids_schema = SCHEMA(struct oci_pids, pids_fields, NULL, NULL);

/* blkio.weight and blkio.leaf_weight accept 10..1000 (cgroup v1 blkio). */
static int check_weights(const struct jpath *p, bool has_weight, uint32_t weight, bool has_leaf,
                         uint32_t leaf, struct werror *err)
{
	if ((has_weight && (weight < 10 || weight > 1000)) ||
	    (has_leaf && (leaf < 10 || leaf > 1000)))
		return jerr(err, p, "weights must be between 10 and 1000");
	return 0;
}

static int check_weight(void *obj, const struct jpath *p, struct werror *err)
{
	const struct oci_weight_device *w = obj;

	return check_weights(p, w->has_weight, w->weight, w->has_leaf_weight, w->leaf_weight, err);
}

static const struct jfield weight_device_fields[] = {
    FLD("major", JK_I64, struct oci_weight_device, major, JF_REQUIRED),
    FLD("minor", JK_I64, struct oci_weight_device, minor, JF_REQUIRED),
    FLD_HAS("weight", JK_U16, struct oci_weight_device, weight, 0),
    FLD_HAS("leafWeight", JK_U16, struct oci_weight_device, leaf_weight, 0),
};
static const struct jschema weight_device_schema =
    SCHEMA(struct oci_weight_device, weight_device_fields, check_weight, NULL);

static const struct jfield throttle_fields[] = {
    FLD("major", JK_I64, struct oci_throttle_device, major, JF_REQUIRED),
    FLD("minor", JK_I64, struct oci_throttle_device, minor, JF_REQUIRED),
    FLD("rate", JK_U64, struct oci_throttle_device, rate, JF_REQUIRED),
};
static const struct jschema throttle_schema =
    SCHEMA(struct oci_throttle_device, throttle_fields, NULL, NULL);

static int check_blockio(void *obj, const struct jpath *p, struct werror *err)
{
	const struct oci_blockio *b = obj;

	return check_weights(p, b->has_weight, b->weight, b->has_leaf_weight, b->leaf_weight, err);
}

static const struct jfield blockio_fields[] = {
    FLD_HAS("weight", JK_U16, struct oci_blockio, weight, 0),
    FLD_HAS("leafWeight", JK_U16, struct oci_blockio, leaf_weight, 0),
    FLD_N("weightDevice", JK_ARR, struct oci_blockio, weight_device, 0, &weight_device_schema),
    FLD_N("throttleReadBpsDevice", JK_ARR, struct oci_blockio, throttle_read_bps, 0,
          &throttle_schema),
    FLD_N("throttleWriteBpsDevice", JK_ARR, struct oci_blockio, throttle_write_bps, 0,
          &throttle_schema),
    FLD_N("throttleReadIOPSDevice", JK_ARR, struct oci_blockio, throttle_read_iops, 0,
          &throttle_schema),
    FLD_N("throttleWriteIOPSDevice", JK_ARR, struct oci_blockio, throttle_write_iops, 0,
          &throttle_schema),
};
static const struct jschema blockio_schema =
    SCHEMA(struct oci_blockio, blockio_fields, check_blockio, NULL);

/* pageSize becomes part of a file name (hugetlb.<size>.max): digits and a
 * unit only, so it cannot walk out of the cgroup directory. */
static int check_hugepage(void *obj, const struct jpath *p, struct werror *err)
{
	const struct oci_hugepage_limit *h = obj;
	size_t digits = strspn(h->page_size, "0123456789");
	const char *unit = h->page_size + digits;

	if (digits == 0 || digits > 6 ||
	    (strcmp(unit, "KB") != 0 && strcmp(unit, "MB") != 0 && strcmp(unit, "GB") != 0)) {
		struct jpath sp = {p, "pageSize", 0};

		return jerr(err, &sp, "must be a size like 2MB or 1GB (got \"%s\")", h->page_size);
	}
	return 0;
}

static const struct jfield hugepage_fields[] = {
    FLD("pageSize", JK_STR, struct oci_hugepage_limit, page_size, JF_REQUIRED | JF_NONEMPTY),
    FLD("limit", JK_U64, struct oci_hugepage_limit, limit, JF_REQUIRED),
};
static const struct jschema hugepage_schema =
    SCHEMA(struct oci_hugepage_limit, hugepage_fields, check_hugepage, NULL);

static const struct jfield priority_fields[] = {
    FLD("name", JK_STR, struct oci_net_priority, name, JF_REQUIRED | JF_NONEMPTY),
    FLD("priority", JK_U32, struct oci_net_priority, priority, JF_REQUIRED),
};
static const struct jschema priority_schema =
    SCHEMA(struct oci_net_priority, priority_fields, NULL, NULL);

static const struct jfield network_fields[] = {
    FLD_HAS("classID", JK_U32, struct oci_network, class_id, 0),
    FLD_N("priorities", JK_ARR, struct oci_network, priorities, 0, &priority_schema),
};
static const struct jschema network_schema = SCHEMA(struct oci_network, network_fields, NULL, NULL);

static const struct jfield rdma_fields[] = {
    FLD_HAS("hcaHandles", JK_U32, struct oci_rdma, hca_handles, 0),
    FLD_HAS("hcaObjects", JK_U32, struct oci_rdma, hca_objects, 0),
};
static const struct jschema rdma_schema = SCHEMA(struct oci_rdma, rdma_fields, NULL, NULL);

/* rdma is an object keyed by device name: decode it into an array. */
static int decode_rdma(yajl_val v, const struct jpath *p, void *dst, struct werror *err)
{
	struct oci_resources *r =
	    (struct oci_resources *)((char *)dst - offsetof(struct oci_resources, rdma));
	size_t n;

	if (!YAJL_IS_OBJECT(v))
		return jerr(err, p, "must be an object keyed by device name");
	n = v->u.object.len;
	r->rdma = calloc(n ? n : 1, sizeof(*r->rdma));
	if (r->rdma == NULL)
		return werr(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		struct jpath ep = {p, v->u.object.keys[i], 0};

		r->n_rdma = i + 1;
		if (jwalk_object(&rdma_schema, v->u.object.values[i], &ep, &r->rdma[i], err) < 0)
			return -1;
		/* The name is written into rdma.max as "<device> key=value". */
		if (v->u.object.keys[i][0] == '\0' ||
		    strpbrk(v->u.object.keys[i], " \t\n=") != NULL)
			return jerr(err, &ep, "is not an RDMA device name");
		r->rdma[i].device = strdup(v->u.object.keys[i]);
		if (r->rdma[i].device == NULL)
			return werr(err, ENOMEM, "out of memory");
	}
	return 0;
}

/* unified keys name files of the container's cgroup2 directory. Only
 * "<controller>.<file>" is accepted: no '/', no "..", and nothing of the
 * cgroup core ("cgroup.procs" would move host processes in, "cgroup.
 * subtree_control" would reshape the tree ward manages). */
static int check_resources(void *obj, const struct jpath *p, struct werror *err)
{
	const struct oci_resources *r = obj;

	for (size_t i = 0; i < r->n_unified; i++) {
		const char *k = r->unified[i].key;
		struct jpath up = {p, "unified", 0}, kp = {&up, k, 0};
		size_t ctl = strspn(k, "abcdefghijklmnopqrstuvwxyz_");

		if (ctl == 0 || k[ctl] != '.' || k[ctl + 1] == '\0' ||
		    strspn(k + ctl + 1,
		           "abcdefghijklmnopqrstuvwxyz"
		           "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.") != strlen(k + ctl + 1) ||
		    strstr(k, "..") != NULL)
			return jerr(err, &kp,
			            "is not a cgroup2 interface file (\"<controller>.<name>\")");
		if (strncmp(k, "cgroup.", 7) == 0)
			return jerr(err, &kp, "cgroup core files are ward's to manage");
	}
	return 0;
}

static void free_resources(void *obj)
{
	struct oci_resources *r = obj;

	for (size_t i = 0; i < r->n_rdma; i++)
		free(r->rdma[i].device);
	free(r->rdma);
}

static const struct jfield resources_fields[] = {
    FLD_N("devices", JK_ARR, struct oci_resources, devices, 0, &device_rule_schema),
    FLD_OBJ("memory", struct oci_resources, memory, 0, &memory_schema),
    FLD_OBJ("cpu", struct oci_resources, cpu, 0, &cpu_schema),
    FLD_OBJ("pids", struct oci_resources, pids, 0, &pids_schema),
    FLD_OBJ("blockIO", struct oci_resources, block_io, 0, &blockio_schema),
    FLD_N("hugepageLimits", JK_ARR, struct oci_resources, hugepage_limits, 0, &hugepage_schema),
    FLD_OBJ("network", struct oci_resources, network, 0, &network_schema),
    {.key = "rdma",
     .kind = JK_CUSTOM,
     .off = offsetof(struct oci_resources, rdma),
     .has_off = -1,
     .custom = decode_rdma},
    FLD_N("unified", JK_MAP, struct oci_resources, unified, 0, NULL),
};
const struct jschema oci_resources_schema =
    SCHEMA(struct oci_resources, resources_fields, check_resources, free_resources);

void oci_resources_drop_devices(struct oci_resources *r)
{
	for (size_t i = 0; i < r->n_devices; i++) {
		free(r->devices[i].type);
		free(r->devices[i].access);
	}
	free(r->devices);
	r->devices = NULL;
	r->n_devices = 0;
	r->skip_devices = true;
}

bool oci_resources_empty(const struct oci_resources *r)
{
	return r == NULL || (r->n_devices == 0 && r->memory == NULL && r->cpu == NULL &&
	                     r->pids == NULL && r->block_io == NULL && r->n_hugepage_limits == 0 &&
	                     r->network == NULL && r->n_rdma == 0 && r->n_unified == 0);
}
