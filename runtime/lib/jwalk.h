/* Table-driven JSON → C struct decoding on top of the yajl tree API.
 *
 * A struct is described by a jschema: one jfield per JSON property, with the
 * offset of the C member it fills. Errors name the JSON path of the bad value,
 * e.g. ".mounts[2].destination: must be an absolute path". Unknown properties
 * are ignored, as the runtime-spec requires; duplicate keys are refused (two
 * readers could otherwise disagree on which value counts). */
#ifndef WARD_JWALK_H
#define WARD_JWALK_H

#include "lib/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <yajl/yajl_tree.h>

/* A JSON path, built on the stack as the walker descends. */
struct jpath {
	const struct jpath *up;
	const char *key; /* NULL for an array element */
	size_t idx;
};

#define JPATH_MAX 512
/* Render as ".a.b[3].c" ("(top level)" for the root). */
const char *jpath_str(const struct jpath *p, char *buf, size_t len);
/* werr(err, EINVAL, "<path>: <message>"); returns -1. */
int jerr(struct werror *err, const struct jpath *p, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

enum jkind {
	JK_STR,    /* char * */
	JK_BOOL,   /* bool */
	JK_U16,    /* uint32_t holding a uint16 */
	JK_U32,    /* uint32_t */
	JK_I32,    /* int32_t */
	JK_U64,    /* uint64_t */
	JK_I64,    /* int64_t */
	JK_STRV,   /* char ** (NULL-terminated) + size_t count */
	JK_OBJ,    /* pointer to a calloc'd struct of sub->size */
	JK_ARR,    /* pointer to an array of sub->size elements + size_t count */
	JK_MAP,    /* struct jkv * + size_t count: an object of string values */
	JK_CUSTOM, /* decoded by a callback */
	JK_REFUSE, /* recognised but not supported: refused when present */
};

#define JF_REQUIRED 0x1u
#define JF_NONEMPTY 0x2u /* strings and arrays must not be empty */

struct jschema;

struct jfield {
	const char *key;
	enum jkind kind;
	unsigned flags;
	size_t off;
	ssize_t has_off; /* offset of a bool set when present, or -1 */
	size_t n_off;    /* count for JK_STRV / JK_ARR / JK_MAP */
	const struct jschema *sub;
	int (*custom)(yajl_val v, const struct jpath *p, void *dst, struct werror *err);
	const char *note; /* JK_REFUSE: why */
};

struct jschema {
	size_t size;
	const struct jfield *fields;
	size_t n_fields;
	/* Cross-field checks after the fields are decoded. */
	int (*check)(void *obj, const struct jpath *p, struct werror *err);
	/* Frees what custom fields allocated. */
	void (*free_extra)(void *obj);
};

struct jkv {
	char *key;
	char *value;
};

/* Decode object v into obj (zeroed, schema->size bytes). */
int jwalk_object(const struct jschema *s, yajl_val v, const struct jpath *p, void *obj,
                 struct werror *err);
/* Free everything jwalk_object allocated inside obj (not obj itself). */
void jwalk_free(const struct jschema *s, void *obj);

/* Scalar decoders, also used by custom callbacks. */
int jget_str(yajl_val v, const struct jpath *p, bool nonempty, char **out, struct werror *err);
int jget_u64(yajl_val v, const struct jpath *p, uint64_t max, uint64_t *out, struct werror *err);
int jget_i64(yajl_val v, const struct jpath *p, int64_t min, int64_t max, int64_t *out,
             struct werror *err);
int jget_strv(yajl_val v, const struct jpath *p, bool nonempty, char ***out, size_t *n,
              struct werror *err);
void jfree_strv(char **v);

/* Refuse properties the schema does not know, recursively through JK_OBJ
 * fields (for ward's own files, where a typo must not go unnoticed; the
 * runtime-spec wants config.json's unknown properties ignored). */
int jcheck_known_keys(const struct jschema *s, yajl_val v, const struct jpath *p,
                      struct werror *err);

/* What a document holds besides what the schema decodes (config.json's
 * unknown properties, which the runtime-spec wants ignored and ward reports),
 * and which known fields it sets. Collected through JK_OBJ fields and
 * JK_ARR elements; not inside maps or custom fields. A null value, and an
 * empty object, array or string, count as absent. */
struct jkeys {
	char **unknown; /* concrete JSON paths: ".root.readOnly", ".mounts[2].opts" */
	size_t n_unknown;
	char **present; /* known fields set, once each, arrays as "[]":
	                 * "linux.intelRdt", "mounts[].options" */
	size_t n_present;
};
int jcollect_keys(const struct jschema *s, yajl_val v, const struct jpath *p, struct jkeys *k,
                  struct werror *err);
void jkeys_free(struct jkeys *k);
/* Render p as "a.b[].c" (no leading dot, any index as "[]"). */
const char *jpath_norm(const struct jpath *p, char *buf, size_t len);

/* Parse a JSON document after checking it for things yajl_tree cannot take
 * safely: NUL bytes (yajl_tree reads a C string), \u0000 escapes (values
 * become C strings) and nesting deeper than max_depth (yajl_tree_free
 * recurses). what names the source in errors, e.g. "config.json". */
yajl_val jparse_document(const char *buf, size_t len, unsigned max_depth, const char *what,
                         struct werror *err);

/* Is s (n bytes) UTF-8 as RFC 3629 has it (what JSON text must be)? */
bool json_utf8_ok(const char *s, size_t n);

/* jparse_document + jwalk_object into a calloc'd struct of s->size bytes;
 * NULL with werr ("<what>: <path>: <problem>") on any error. Free with
 * jwalk_free + free. */
void *jdecode_document(const struct jschema *s, const char *buf, size_t len, unsigned max_depth,
                       const char *what, struct werror *err);

#endif
