/* linux.intelRdt (runtime-spec 1.3, config-linux.md "IntelRdt"). */
#ifndef WARD_OCI_INTEL_RDT_H
#define WARD_OCI_INTEL_RDT_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/jwalk.h"

struct oci_intel_rdt {
	char *clos_id;
	char *l3_cache_schema;
	char *mem_bw_schema;
	char **schemata;
	size_t n_schemata;
	bool enable_monitoring;      /* 1.3 */
	bool enable_cmt, enable_mbm; /* 1.1-1.2, replaced by enableMonitoring */
};

extern const struct jschema oci_intel_rdt_schema;

#endif
