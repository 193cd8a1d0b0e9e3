/* linux.intelRdt (config-linux.md "IntelRdt"): decoded and checked here;
 * ward refuses it at create (container/support.c). */
#include "oci/intel_rdt.h"
#include "lib/jwalk_macros.h"

#include <string.h>

/* Values that go into resctrl's schemata file line by line: a newline
 * would smuggle in a line of its own (config-linux.md "IntelRdt": MUST
 * NOT contain newlines; memBwSchema MUST start with "MB:"). */
static int check_intel_rdt(void *obj, const struct jpath *p, struct werror *err)
{
	struct oci_intel_rdt *r = obj;
	struct jpath lp = {p, "l3CacheSchema", 0}, mp = {p, "memBwSchema", 0},
	             sp = {p, "schemata", 0};

	if (r->l3_cache_schema && strchr(r->l3_cache_schema, '\n'))
		return jerr(err, &lp, "must not contain a newline");
	if (r->mem_bw_schema &&
	    (strncmp(r->mem_bw_schema, "MB:", 3) != 0 || strchr(r->mem_bw_schema, '\n')))
		return jerr(err, &mp, "must start with \"MB:\" and have no newline");
	for (size_t i = 0; i < r->n_schemata; i++) {
		struct jpath ip = {&sp, NULL, i};

		if (strchr(r->schemata[i], '\n'))
			return jerr(err, &ip, "must not contain a newline (one line each)");
	}
	return 0;
}

static const struct jfield intel_rdt_fields[] = {
    FLD("closID", JK_STR, struct oci_intel_rdt, clos_id, 0),
    FLD("l3CacheSchema", JK_STR, struct oci_intel_rdt, l3_cache_schema, 0),
    FLD("memBwSchema", JK_STR, struct oci_intel_rdt, mem_bw_schema, 0),
    FLD_N("schemata", JK_STRV, struct oci_intel_rdt, schemata, 0, NULL),
    FLD("enableMonitoring", JK_BOOL, struct oci_intel_rdt, enable_monitoring, 0),
    FLD("enableCMT", JK_BOOL, struct oci_intel_rdt, enable_cmt, 0),
    FLD("enableMBM", JK_BOOL, struct oci_intel_rdt, enable_mbm, 0),
};
const struct jschema oci_intel_rdt_schema =
    SCHEMA(struct oci_intel_rdt, intel_rdt_fields, check_intel_rdt, NULL);
