#include "lib/jwalk.h"
#include "lib/cleanup.h"
#include "lib/xalloc.h"
#include "lib/error.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#define MEMBER(obj, off, T) ((T *)(void *)((char *)(obj) + (off)))

static size_t jpath_render(const struct jpath *p, char *buf, size_t len)
{
	size_t n = 0;
	int w;

	if (p == NULL)
		return 0;
	n = jpath_render(p->up, buf, len);
	if (n >= len)
		return n;
	if (p->key)
		w = snprintf(buf + n, len - n, ".%s", p->key);
	else
		w = snprintf(buf + n, len - n, "[%zu]", p->idx);
	return n + (w > 0 ? (size_t)w : 0);
}

const char *jpath_str(const struct jpath *p, char *buf, size_t len)
{
	if (p == NULL) {
		snprintf(buf, len, "(top level)");
		return buf;
	}
	buf[0] = '\0';
	jpath_render(p, buf, len);
	return buf;
}

int jerr(struct werror *err, const struct jpath *p, const char *fmt, ...)
{
	char path[JPATH_MAX];
	_cleanup_free_ char *msg = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		xalloc_die();
	return werr_k(err, WERR_INVALID, 0, "%s: %s", jpath_str(p, path, sizeof(path)), msg);
}

int jget_str(yajl_val v, const struct jpath *p, bool nonempty, char **out, struct werror *err)
{
	if (!YAJL_IS_STRING(v))
		return jerr(err, p, nonempty ? "must be a non-empty string" : "must be a string");
	if (nonempty && v->u.string[0] == '\0')
		return jerr(err, p, "must be a non-empty string");
	*out = strdup(v->u.string);
	if (*out == NULL)
		return werr(err, ENOMEM, "out of memory");
	return 0;
}

/* yajl keeps the literal text of every number: convert from it so that values
 * beyond int64 (uint64 limits) and non-integers are judged exactly. */
static int number_text(yajl_val v, const struct jpath *p, const char **txt, struct werror *err)
{
	const char *r;

	if (!YAJL_IS_NUMBER(v))
		return jerr(err, p, "must be an integer");
	r = v->u.number.r;
	if (strpbrk(r, ".eE") != NULL)
		return jerr(err, p, "must be an integer, not %s", r);
	*txt = r;
	return 0;
}

int jget_u64(yajl_val v, const struct jpath *p, uint64_t max, uint64_t *out, struct werror *err)
{
	const char *r;
	char *end;
	unsigned long long x;

	if (number_text(v, p, &r, err) < 0)
		return -1;
	if (r[0] == '-')
		return jerr(err, p, "must not be negative (got %s)", r);
	errno = 0;
	x = strtoull(r, &end, 10);
	if (errno == ERANGE || *end != '\0' || x > max)
		return jerr(err, p, "out of range (got %s, maximum %" PRIu64 ")", r, max);
	*out = x;
	return 0;
}

int jget_i64(yajl_val v, const struct jpath *p, int64_t min, int64_t max, int64_t *out,
             struct werror *err)
{
	const char *r;
	char *end;
	long long x;

	if (number_text(v, p, &r, err) < 0)
		return -1;
	errno = 0;
	x = strtoll(r, &end, 10);
	if (errno == ERANGE || *end != '\0' || x < min || x > max)
		return jerr(err, p, "out of range (got %s, allowed %" PRId64 "..%" PRId64 ")", r,
		            min, max);
	*out = x;
	return 0;
}

void jfree_strv(char **v)
{
	if (v == NULL)
		return;
	for (char **s = v; *s; s++)
		free(*s);
	free(v);
}

int jget_strv(yajl_val v, const struct jpath *p, bool nonempty, char ***out, size_t *n,
              struct werror *err)
{
	size_t len;
	char **arr;

	if (!YAJL_IS_ARRAY(v) || (nonempty && v->u.array.len == 0))
		return jerr(err, p,
		            nonempty ? "must be a non-empty array of strings"
		                     : "must be an array of strings");
	len = v->u.array.len;
	arr = calloc(len + 1, sizeof(*arr));
	if (arr == NULL)
		return werr(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < len; i++) {
		struct jpath ep = {p, NULL, i};

		if (!YAJL_IS_STRING(v->u.array.values[i])) {
			jfree_strv(arr);
			return jerr(err, &ep, "must be a string");
		}
		arr[i] = strdup(v->u.array.values[i]->u.string);
		if (arr[i] == NULL) {
			jfree_strv(arr);
			return werr(err, ENOMEM, "out of memory");
		}
	}
	*out = arr;
	*n = len;
	return 0;
}

static int cmp_key(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Refuse duplicate keys in O(n log n): an object with a million keys must
 * not turn into 10^12 comparisons. */
static int check_unique_keys(yajl_val v, const struct jpath *p, struct werror *err)
{
	size_t n = v->u.object.len;
	const char **keys;
	int r = 0;

	if (n < 2)
		return 0;
	keys = malloc(n * sizeof(*keys));
	if (keys == NULL)
		return werr(err, ENOMEM, "out of memory");
	memcpy(keys, v->u.object.keys, n * sizeof(*keys));
	qsort(keys, n, sizeof(*keys), cmp_key);
	for (size_t i = 1; i < n; i++)
		if (strcmp(keys[i - 1], keys[i]) == 0) {
			struct jpath kp = {p, keys[i], 0};

			r = jerr(err, &kp, "duplicate key");
			break;
		}
	free(keys);
	return r;
}

static int decode_map(yajl_val v, const struct jpath *p, struct jkv **out, size_t *n,
                      struct werror *err)
{
	size_t len;
	struct jkv *kv;

	if (!YAJL_IS_OBJECT(v))
		return jerr(err, p, "must be an object of strings");
	len = v->u.object.len;
	kv = calloc(len ? len : 1, sizeof(*kv));
	if (kv == NULL)
		return werr(err, ENOMEM, "out of memory");
	*out = kv;
	*n = 0;
	if (check_unique_keys(v, p, err) < 0)
		return -1;
	for (size_t i = 0; i < len; i++) {
		struct jpath ep = {p, v->u.object.keys[i], 0};

		if (jget_str(v->u.object.values[i], &ep, false, &kv[i].value, err) < 0)
			return -1;
		kv[i].key = strdup(v->u.object.keys[i]);
		*n = i + 1;
		if (kv[i].key == NULL)
			return werr(err, ENOMEM, "out of memory");
	}
	return 0;
}

static int decode_array(const struct jfield *f, yajl_val v, const struct jpath *p, void *obj,
                        struct werror *err)
{
	const struct jschema *s = f->sub;
	size_t len;
	char *arr;

	if (!YAJL_IS_ARRAY(v) || ((f->flags & JF_NONEMPTY) && v->u.array.len == 0))
		return jerr(err, p,
		            (f->flags & JF_NONEMPTY) ? "must be a non-empty array of objects"
		                                     : "must be an array of objects");
	len = v->u.array.len;
	arr = calloc(len ? len : 1, s->size);
	if (arr == NULL)
		return werr(err, ENOMEM, "out of memory");
	*MEMBER(obj, f->off, void *) = arr;
	for (size_t i = 0; i < len; i++) {
		struct jpath ep = {p, NULL, i};

		/* Count first: a failure must still free the partial element. */
		*MEMBER(obj, f->n_off, size_t) = i + 1;
		if (jwalk_object(s, v->u.array.values[i], &ep, arr + i * s->size, err) < 0)
			return -1;
	}
	return 0;
}

static int decode_field(const struct jfield *f, yajl_val v, const struct jpath *p, void *obj,
                        struct werror *err)
{
	uint64_t u;
	int64_t i;
	bool nonempty = (f->flags & JF_NONEMPTY) != 0;

	switch (f->kind) {
	case JK_STR:
		return jget_str(v, p, nonempty, MEMBER(obj, f->off, char *), err);
	case JK_BOOL:
		if (!YAJL_IS_TRUE(v) && !YAJL_IS_FALSE(v))
			return jerr(err, p, "must be true or false");
		*MEMBER(obj, f->off, bool) = YAJL_IS_TRUE(v);
		return 0;
	case JK_U16:
	case JK_U32:
		if (jget_u64(v, p, f->kind == JK_U16 ? UINT16_MAX : UINT32_MAX, &u, err) < 0)
			return -1;
		*MEMBER(obj, f->off, uint32_t) = (uint32_t)u;
		return 0;
	case JK_U64:
		return jget_u64(v, p, UINT64_MAX, MEMBER(obj, f->off, uint64_t), err);
	case JK_I32:
		if (jget_i64(v, p, INT32_MIN, INT32_MAX, &i, err) < 0)
			return -1;
		*MEMBER(obj, f->off, int32_t) = (int32_t)i;
		return 0;
	case JK_I64:
		return jget_i64(v, p, INT64_MIN, INT64_MAX, MEMBER(obj, f->off, int64_t), err);
	case JK_STRV:
		return jget_strv(v, p, nonempty, MEMBER(obj, f->off, char **),
		                 MEMBER(obj, f->n_off, size_t), err);
	case JK_MAP:
		return decode_map(v, p, MEMBER(obj, f->off, struct jkv *),
		                  MEMBER(obj, f->n_off, size_t), err);
	case JK_OBJ: {
		void *sub = calloc(1, f->sub->size);

		if (sub == NULL)
			return werr(err, ENOMEM, "out of memory");
		*MEMBER(obj, f->off, void *) = sub;
		return jwalk_object(f->sub, v, p, sub, err);
	}
	case JK_ARR:
		return decode_array(f, v, p, obj, err);
	case JK_CUSTOM:
		return f->custom(v, p, MEMBER(obj, f->off, void), err);
	case JK_REFUSE:
		return jerr(err, p, "not supported by ward: %s", f->note);
	}
	return jerr(err, p, "internal error: unknown field kind");
}

/* An empty object or array counts as absent for JK_REFUSE: engines often
 * write "field": {} for sections they leave unset. */
static bool is_empty(yajl_val v)
{
	return (YAJL_IS_OBJECT(v) && v->u.object.len == 0) ||
	       (YAJL_IS_ARRAY(v) && v->u.array.len == 0) ||
	       (YAJL_IS_STRING(v) && v->u.string[0] == '\0');
}

int jwalk_object(const struct jschema *s, yajl_val v, const struct jpath *p, void *obj,
                 struct werror *err)
{
	if (!YAJL_IS_OBJECT(v))
		return jerr(err, p, "must be an object");
	if (check_unique_keys(v, p, err) < 0)
		return -1;
	for (size_t k = 0; k < s->n_fields; k++) {
		const struct jfield *f = &s->fields[k];
		struct jpath fp = {p, f->key, 0};
		yajl_val fv = NULL;

		for (size_t i = 0; i < v->u.object.len; i++)
			if (strcmp(v->u.object.keys[i], f->key) == 0) {
				fv = v->u.object.values[i];
				break;
			}
		/* null reads as absent, as Go's encoding/json (used by the engines)
		 * writes it for unset optional fields. */
		if (fv == NULL || YAJL_IS_NULL(fv) || (f->kind == JK_REFUSE && is_empty(fv))) {
			if (f->flags & JF_REQUIRED)
				return jerr(err, &fp, "required field is missing");
			continue;
		}
		if (decode_field(f, fv, &fp, obj, err) < 0)
			return -1;
		if (f->has_off >= 0)
			*MEMBER(obj, (size_t)f->has_off, bool) = true;
	}
	return s->check ? s->check(obj, p, err) : 0;
}

void jwalk_free(const struct jschema *s, void *obj)
{
	if (obj == NULL)
		return;
	if (s->free_extra)
		s->free_extra(obj);
	for (size_t k = 0; k < s->n_fields; k++) {
		const struct jfield *f = &s->fields[k];

		switch (f->kind) {
		case JK_STR:
			free(*MEMBER(obj, f->off, char *));
			break;
		case JK_STRV:
			jfree_strv(*MEMBER(obj, f->off, char **));
			break;
		case JK_MAP: {
			struct jkv *kv = *MEMBER(obj, f->off, struct jkv *);
			size_t n = *MEMBER(obj, f->n_off, size_t);

			for (size_t i = 0; kv && i < n; i++) {
				free(kv[i].key);
				free(kv[i].value);
			}
			free(kv);
			break;
		}
		case JK_OBJ: {
			void *sub = *MEMBER(obj, f->off, void *);

			jwalk_free(f->sub, sub);
			free(sub);
			break;
		}
		case JK_ARR: {
			char *arr = *MEMBER(obj, f->off, char *);
			size_t n = *MEMBER(obj, f->n_off, size_t);

			for (size_t i = 0; arr && i < n; i++)
				jwalk_free(f->sub, arr + i * f->sub->size);
			free(arr);
			break;
		}
		default:
			break;
		}
	}
}

int jcheck_known_keys(const struct jschema *s, yajl_val v, const struct jpath *p,
                      struct werror *err)
{
	if (!YAJL_IS_OBJECT(v))
		return 0;
	for (size_t i = 0; i < v->u.object.len; i++) {
		const char *k = v->u.object.keys[i];
		struct jpath kp = {p, k, 0};
		const struct jfield *f = NULL;

		for (size_t j = 0; j < s->n_fields && f == NULL; j++)
			if (strcmp(s->fields[j].key, k) == 0)
				f = &s->fields[j];
		if (f == NULL)
			return jerr(err, &kp, "unknown property");
		if (f->kind == JK_OBJ &&
		    jcheck_known_keys(f->sub, v->u.object.values[i], &kp, err) < 0)
			return -1;
	}
	return 0;
}

static size_t jpath_norm_render(const struct jpath *p, char *buf, size_t len)
{
	size_t n;
	int w;

	if (p == NULL)
		return 0;
	n = jpath_norm_render(p->up, buf, len);
	if (n >= len)
		return n;
	if (p->key)
		w = snprintf(buf + n, len - n, "%s%s", n ? "." : "", p->key);
	else
		w = snprintf(buf + n, len - n, "[]");
	return n + (w > 0 ? (size_t)w : 0);
}

const char *jpath_norm(const struct jpath *p, char *buf, size_t len)
{
	buf[0] = '\0';
	jpath_norm_render(p, buf, len);
	return buf;
}

static int strv_push(char ***v, size_t *n, const char *s, struct werror *err)
{
	char **nv = realloc(*v, (*n + 1) * sizeof(**v));

	if (nv == NULL)
		return werr(err, ENOMEM, "out of memory");
	*v = nv;
	if ((nv[*n] = strdup(s)) == NULL)
		return werr(err, ENOMEM, "out of memory");
	(*n)++;
	return 0;
}

static int collect_present(struct jkeys *k, const struct jpath *p, struct werror *err)
{
	char norm[JPATH_MAX];

	jpath_norm(p, norm, sizeof(norm));
	for (size_t i = 0; i < k->n_present; i++)
		if (strcmp(k->present[i], norm) == 0)
			return 0;
	return strv_push(&k->present, &k->n_present, norm, err);
}

int jcollect_keys(const struct jschema *s, yajl_val v, const struct jpath *p, struct jkeys *k,
                  struct werror *err)
{
	if (!YAJL_IS_OBJECT(v))
		return 0;
	for (size_t i = 0; i < v->u.object.len; i++) {
		const char *key = v->u.object.keys[i];
		yajl_val fv = v->u.object.values[i];
		struct jpath kp = {p, key, 0};
		const struct jfield *f = NULL;
		char path[JPATH_MAX];

		for (size_t j = 0; j < s->n_fields && f == NULL; j++)
			if (strcmp(s->fields[j].key, key) == 0)
				f = &s->fields[j];
		if (f == NULL) {
			if (strv_push(&k->unknown, &k->n_unknown,
			              jpath_str(&kp, path, sizeof(path)), err) < 0)
				return -1;
			continue;
		}
		if (fv == NULL || YAJL_IS_NULL(fv) || is_empty(fv))
			continue;
		if (collect_present(k, &kp, err) < 0)
			return -1;
		if (f->kind == JK_OBJ && jcollect_keys(f->sub, fv, &kp, k, err) < 0)
			return -1;
		for (size_t e = 0; f->kind == JK_ARR && YAJL_IS_ARRAY(fv) && e < fv->u.array.len;
		     e++) {
			struct jpath ep = {&kp, NULL, e};

			if (jcollect_keys(f->sub, fv->u.array.values[e], &ep, k, err) < 0)
				return -1;
		}
	}
	return 0;
}

void jkeys_free(struct jkeys *k)
{
	for (size_t i = 0; i < k->n_unknown; i++)
		free(k->unknown[i]);
	for (size_t i = 0; i < k->n_present; i++)
		free(k->present[i]);
	free(k->unknown);
	free(k->present);
	memset(k, 0, sizeof(*k));
}

void *jdecode_document(const struct jschema *s, const char *buf, size_t len, unsigned max_depth,
                       const char *what, struct werror *err)
{
	yajl_val tree = jparse_document(buf, len, max_depth, what, err);
	void *obj;

	if (tree == NULL)
		return NULL;
	obj = calloc(1, s->size);
	if (obj == NULL) {
		werr(err, ENOMEM, "out of memory");
	} else if (jwalk_object(s, tree, NULL, obj, err) < 0) {
		werr_ctx(err, "%s", what);
		jwalk_free(s, obj);
		free(obj);
		obj = NULL;
	}
	yajl_tree_free(tree);
	return obj;
}
