/* The field table (design "The policy is total", issue 25): every field of
 * config.json ward reads has, per profile, exactly one class. The rules
 * (refuse_*.c, policy_adjust.c, policy_caps.c) decide the fields they
 * name; the table says which rule that is, and for a field no rule names,
 * the table's class is the rule: the generic rule below refuses, under
 * strict, every field the table refuses. `ward check` shows the class of
 * each field a config sets, ward-policy(7)'s FIELDS section is generated
 * from the table (runtime/policy/fields-man.sh), and tests/unit/test_fields checks
 * it against config-schema/config.schema.json and oci/config.c. */
#ifndef WARD_POLICY_FIELDS_H
#define WARD_POLICY_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

#include "policy/findings.h"

enum field_class {
	FC_ACCEPT, /* as is (values a cited rule refuses excepted) */
	FC_ADJUST, /* ward changes or fills it: why says to what */
	FC_HOST,   /* decided on the opened host object (bind sources, root.path, ...) */
	FC_REFUSE, /* refused when set: by the cited rule, or by the table's own */
};

struct field_rule {
	const char *path;     /* "linux.resources.memory.limit", "mounts[].options" */
	unsigned char cls[3]; /* enum field_class, by enum ward_profile */
	const char *why;      /* the reason (required unless ACCEPT everywhere) */
	const char *optout;   /* as ward-policy(7) spells it, or NULL */
	const char *rule;     /* the code that decides it; NULL: the table itself */
	bool (*only_if)(const struct oci_config *c); /* REFUSE only when this holds */
};

extern const struct field_rule policy_fields[];
extern const size_t policy_n_fields;

const char *field_class_name(enum field_class c);
/* The entry for a field path in the table's notation, or NULL. */
const struct field_rule *policy_field(const char *path);

/* The fields a config sets (its known fields as parsed, then the org.ward.*
 * annotations as the table names them): calls fn for each, with its entry
 * (NULL: a field the table lacks). */
void policy_fields_present(const struct oci_config *c,
                           void (*fn)(const char *path, const struct field_rule *r, void *arg),
                           void *arg);

/* strict: refuse each field set whose class is REFUSE and that no rule
 * refused already (nor a field above it), and each field the table lacks. */
int policy_fields_refuse(struct policy_ctx *x);
/* Unknown fields: strict refuses those in process, linux, mounts[] and root;
 * otherwise they are logged (warning in those, debug elsewhere). */
int policy_fields_unknown(struct policy_ctx *x);
/* Whether the profile refuses this unknown field (a JSON path, ".root.x"). */
bool policy_unknown_refused(enum ward_profile p, const char *path);

#endif
