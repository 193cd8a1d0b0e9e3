/* The JSON walker's building blocks: paths, number edges, pre-scan. */
#include "lib/error.h"
#include "lib/jwalk.h"
#include "tap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void test_paths(void)
{
	struct jpath a = {NULL, "linux", 0};
	struct jpath b = {&a, "mounts", 0};
	struct jpath c = {&b, NULL, 12};
	struct jpath d = {&c, "options", 0};
	char buf[JPATH_MAX];

	ok(strcmp(jpath_str(&d, buf, sizeof(buf)), ".linux.mounts[12].options") == 0,
	   "path rendering");
	ok(strcmp(jpath_str(NULL, buf, sizeof(buf)), "(top level)") == 0, "root path");
	ok(strlen(jpath_str(&d, buf, 8)) == 7, "path truncated safely");
}

static void test_numbers(void)
{
	const char *doc = "[0, 18446744073709551615, -9223372036854775808, 9223372036854775807,"
	                  " -1, 1.0, 2e2, 18446744073709551616]";
	yajl_val t = jparse_document(doc, strlen(doc), 4, "t", err);
	uint64_t u;
	int64_t i;

	if (!ok(t != NULL, "number document parses"))
		return;
	ok(jget_u64(t->u.array.values[0], NULL, UINT64_MAX, &u, err) == 0 && u == 0, "u64 0");
	ok(jget_u64(t->u.array.values[1], NULL, UINT64_MAX, &u, err) == 0 && u == UINT64_MAX,
	   "u64 max exact");
	ok(jget_i64(t->u.array.values[2], NULL, INT64_MIN, INT64_MAX, &i, err) == 0 &&
	       i == INT64_MIN,
	   "i64 min");
	ok(jget_i64(t->u.array.values[3], NULL, INT64_MIN, INT64_MAX, &i, err) == 0 &&
	       i == INT64_MAX,
	   "i64 max");
	ok(jget_u64(t->u.array.values[4], NULL, UINT64_MAX, &u, err) < 0,
	   "negative refused for u64");
	ok(jget_u64(t->u.array.values[5], NULL, UINT64_MAX, &u, err) < 0, "1.0 is not an integer");
	ok(jget_u64(t->u.array.values[6], NULL, UINT64_MAX, &u, err) < 0, "2e2 is not an integer");
	ok(jget_u64(t->u.array.values[7], NULL, UINT64_MAX, &u, err) < 0, "2^64 out of range");
	ok(jget_u64(t->u.array.values[1], NULL, 10, &u, err) < 0 &&
	       strstr(werr_msg(err), "maximum 10") != NULL,
	   "caller's maximum enforced");
	yajl_tree_free(t);
}

static void test_prescan(void)
{
	const char *ok_escape = "{\"a\":\"\\\\u0000 is text here\"}";
	const char *deep = "[[[[[]]]]]";
	const char *in_string = "{\"a\":\"[[[[[[[[[[[[\"}";

	ok(jparse_document(deep, strlen(deep), 4, "t", err) == NULL &&
	       strstr(werr_msg(err), "deeper than 4"),
	   "depth limit");
	{
		yajl_val t = jparse_document(in_string, strlen(in_string), 2, "t", err);

		ok(t != NULL, "brackets inside strings do not count as depth");
		yajl_tree_free(t);
	}
	{
		yajl_val t = jparse_document(ok_escape, strlen(ok_escape), 4, "t", err);

		ok(t != NULL, "an escaped backslash before u0000 is plain text");
		yajl_tree_free(t);
	}
	ok(jparse_document("{\"a\":\"\\u0000\"}", 14, 4, "t", err) == NULL, "\\u0000 refused");
	ok(jparse_document("{\"a\":\"\\U0000\"}", 14, 4, "t", err) == NULL ||
	       strstr(werr_msg(err), "invalid JSON"),
	   "\\U0000 is not valid JSON either");
}

static void test_strv(void)
{
	const char *doc = "[[\"a\",\"b\"],[],[\"a\",null]]";
	yajl_val t = jparse_document(doc, strlen(doc), 4, "t", err);
	char **v = NULL;
	size_t n = 0;

	ok(jget_strv(t->u.array.values[0], NULL, true, &v, &n, err) == 0 && n == 2 && v[2] == NULL,
	   "string array");
	jfree_strv(v);
	ok(jget_strv(t->u.array.values[1], NULL, true, &v, &n, err) < 0,
	   "empty refused when nonempty");
	ok(jget_strv(t->u.array.values[2], NULL, false, &v, &n, err) < 0 &&
	       strstr(werr_msg(err), "[1]: must be a string"),
	   "null element refused with its index");
	yajl_tree_free(t);
}

int main(void)
{
	test_paths();
	test_numbers();
	test_prescan();
	test_strv();
	return tap_done();
}
