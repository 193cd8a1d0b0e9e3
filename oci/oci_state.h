/* The runtime-spec state document, plus the private fields ward keeps in
 * <root>/<id>/state.json to recognise its container process. */
#ifndef WARD_OCI_STATE_H
#define WARD_OCI_STATE_H

#include "lib/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/jwalk.h"

struct oci_state {
	char *oci_version;
	char *id;
	char *status; /* derived on load; not trusted from the file */
	int32_t pid;
	char *bundle;
	char *rootfs;
	char *created; /* RFC 3339 */
	char *owner;
	struct jkv *annotations;
	size_t n_annotations;
	/* private: start time of pid in clock ticks since boot (/proc/PID/stat
	 * field 22), so that a recycled pid is never mistaken for ours. */
	uint64_t pid_start;
	char *cgroup_path; /* private: the container's cgroup, in every hierarchy */
	/* The profile create decided (its policy record), set by whoever shows
	 * the state; shown as "wardProfile", never written to state.json
	 * (the record is the truth). Static; NULL: unknown. */
	const char *profile;
};

/* Serialise. with_private adds the fields only ward reads. The caller frees
 * *out. */
int oci_state_to_json(const struct oci_state *s, bool with_private, char **out, size_t *len,
                      struct werror *err);
/* Append one state as an object to an open yajl generator (for `list`). */
struct yajl_gen_t;
int oci_state_gen(struct yajl_gen_t *g, const struct oci_state *s, bool with_private,
                  struct werror *err);
struct oci_state *oci_state_parse(const char *buf, size_t len, const char *what,
                                  struct werror *err);
void oci_state_free(struct oci_state *s);

#endif
