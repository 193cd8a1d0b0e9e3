/* "key": value pairs for the supervisor's JSON (its plan and its report). */
#ifndef WARD_SUP_JSON_KV_H
#define WARD_SUP_JSON_KV_H

#include <stdbool.h>
#include <string.h>
#include <yajl/yajl_gen.h>

static inline void kv_key(yajl_gen g, const char *k)
{
	yajl_gen_string(g, (const unsigned char *)k, strlen(k));
}

/* A string; null for NULL. */
static inline void kv_str(yajl_gen g, const char *k, const char *v)
{
	kv_key(g, k);
	if (v)
		yajl_gen_string(g, (const unsigned char *)v, strlen(v));
	else
		yajl_gen_null(g);
}

static inline void kv_int(yajl_gen g, const char *k, long long v)
{
	kv_key(g, k);
	yajl_gen_integer(g, v);
}

static inline void kv_bool(yajl_gen g, const char *k, bool v)
{
	kv_key(g, k);
	yajl_gen_bool(g, v);
}

#endif
