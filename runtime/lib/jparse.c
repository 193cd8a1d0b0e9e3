/* A JSON document's text before yajl builds its tree: UTF-8 as RFC 8259
 * requires, no NUL byte, nesting capped, and a parse error told by line and
 * column (the walker over the tree is jwalk.c). */
#include "lib/jwalk.h"
#include "lib/error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>
#include <yajl/yajl_tree.h>

/* Length of the valid UTF-8 sequence at b[0] (RFC 3629: no overlong forms,
 * no surrogates, nothing past U+10FFFF), or 0. yajl checks strings but not
 * comments, and a policy's text is copied into create's record as a JSON
 * string, which exec must be able to read back. */
static size_t utf8_seq(const unsigned char *b, size_t left)
{
	size_t n;
	unsigned lo = 0x80, hi = 0xbf;

	if (b[0] < 0x80)
		return 1;
	if (b[0] >= 0xc2 && b[0] <= 0xdf)
		n = 2;
	else if (b[0] >= 0xe0 && b[0] <= 0xef)
		n = 3;
	else if (b[0] >= 0xf0 && b[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (b[0] == 0xe0)
		lo = 0xa0;
	else if (b[0] == 0xed)
		hi = 0x9f;
	else if (b[0] == 0xf0)
		lo = 0x90;
	else if (b[0] == 0xf4)
		hi = 0x8f;
	if (left < n || b[1] < lo || b[1] > hi)
		return 0;
	for (size_t k = 2; k < n; k++)
		if (b[k] < 0x80 || b[k] > 0xbf)
			return 0;
	return n;
}

/* The value of 4 hex digits at p (of left bytes), or -1. */
static long hex4(const char *p, size_t left)
{
	long v = 0;

	if (left < 4)
		return -1;
	for (int k = 0; k < 4; k++) {
		char c = p[k];
		int d = c >= '0' && c <= '9'   ? c - '0'
		        : c >= 'a' && c <= 'f' ? c - 'a' + 10
		        : c >= 'A' && c <= 'F' ? c - 'A' + 10
		                               : -1;

		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

bool json_utf8_ok(const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t seq = utf8_seq((const unsigned char *)s + i, n - i);

		if (seq == 0)
			return false;
		i += seq;
	}
	return true;
}

/* Where byte off of buf is, as editors count: "line L, column C" (1-based;
 * a column counts bytes). */
static const char *where(const char *buf, size_t len, size_t off, char *out, size_t n)
{
	size_t line = 1, col = 1;

	for (size_t i = 0; i < off && i < len; i++) {
		if (buf[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	snprintf(out, n, "line %zu, column %zu", line, col);
	return out;
}

/* The offset yajl's stream parser stops at: yajl_tree_parse says what is
 * wrong, not where. */
static size_t error_offset(const char *buf, size_t len)
{
	yajl_handle h = yajl_alloc(NULL, NULL, NULL);
	size_t off = len;

	if (h == NULL)
		return len;
	if (yajl_parse(h, (const unsigned char *)buf, len) != yajl_status_ok)
		off = yajl_get_bytes_consumed(h);
	else if (yajl_complete_parse(h) != yajl_status_ok)
		off = len;
	yajl_free(h);
	return off;
}

yajl_val jparse_document(const char *buf, size_t len, unsigned max_depth, const char *what,
                         struct werror *err)
{
	char at[64];
	char errbuf[256];
	unsigned depth = 0;
	bool in_str = false;
	yajl_val tree;

	for (size_t i = 0; i < len; i++) {
		char c = buf[i];
		size_t seq = utf8_seq((const unsigned char *)buf + i, len - i);

		if (seq == 0) {
			werr_k(err, WERR_INVALID, 0, "%s: %s: not UTF-8 (RFC 8259 requires it)",
			       what, where(buf, len, i, at, sizeof(at)));
			return NULL;
		}
		if (seq > 1) {
			i += seq - 1;
			continue;
		}

		if (c == '\0') {
			werr_k(err, WERR_INVALID, 0, "%s: %s: NUL byte in JSON text", what,
			       where(buf, len, i, at, sizeof(at)));
			return NULL;
		}
		if (in_str) {
			if (c == '\\' && i + 1 < len) {
				long u = buf[i + 1] == 'u' ? hex4(buf + i + 2, len - i - 2) : -1;

				if (u == 0) {
					werr_k(err, WERR_INVALID, 0,
					       "%s: %s: strings must not contain NUL (\\u0000)",
					       what, where(buf, len, i, at, sizeof(at)));
					return NULL;
				}
				/* A high surrogate escape must be followed by a low one;
				 * a lone low one would decode to bytes that are not
				 * UTF-8 (yajl takes it), and a lone high one to '?'. */
				if (u >= 0xd800 && u <= 0xdbff && i + 7 < len &&
				    buf[i + 6] == '\\' && buf[i + 7] == 'u' &&
				    hex4(buf + i + 8, len - i - 8) >= 0xdc00 &&
				    hex4(buf + i + 8, len - i - 8) <= 0xdfff) {
					i += 11;
					continue;
				}
				if (u >= 0xd800 && u <= 0xdfff) {
					werr_k(err, WERR_INVALID, 0,
					       "%s: %s: a lone UTF-16 surrogate (\\u%04lx)", what,
					       where(buf, len, i, at, sizeof(at)), u);
					return NULL;
				}
				i++;
			} else if (c == '"') {
				in_str = false;
			}
			continue;
		}
		if (c == '"') {
			in_str = true;
		} else if (c == '[' || c == '{') {
			if (++depth > max_depth) {
				werr_k(err, WERR_INVALID, 0,
				       "%s: %s: JSON nested deeper than %u levels", what,
				       where(buf, len, i, at, sizeof(at)), max_depth);
				return NULL;
			}
		} else if ((c == ']' || c == '}') && depth > 0) {
			depth--;
		}
	}
	errbuf[0] = '\0';
	tree = yajl_tree_parse(buf, errbuf, sizeof(errbuf));
	if (tree == NULL) {
		/* yajl's message spans lines; keep the first. */
		errbuf[strcspn(errbuf, "\n")] = '\0';
		werr_k(err, WERR_INVALID, 0, "%s: %s: invalid JSON: %s", what,
		       where(buf, len, error_offset(buf, len), at, sizeof(at)),
		       errbuf[0] ? errbuf : "parse error");
	}
	return tree;
}
