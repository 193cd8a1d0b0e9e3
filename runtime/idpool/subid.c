/* The host's /etc/subuid and /etc/subgid ranges (see subid.h). */
#include "idpool/subid.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "lib/fileio.h"

#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* These files list a few entries per user: a megabyte is far beyond any. */
#define SUBID_MAX_BYTES (1 << 20)

static bool parse_u32(const char *s, size_t len, uint32_t *out)
{
	uint64_t v = 0;

	if (len == 0 || len > 10)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

static int add(struct id_range **v, size_t *n, uint32_t start, uint32_t size, struct werror *err)
{
	struct id_range *nv = realloc(*v, (*n + 1) * sizeof(**v));

	if (nv == NULL)
		return werr(err, ENOMEM, "out of memory");
	nv[(*n)++] = (struct id_range){start, size};
	*v = nv;
	return 0;
}

int subid_parse(const char *text, struct id_range **v, size_t *n, struct werror *err)
{
	for (const char *line = text; *line;) {
		size_t len = strcspn(line, "\n");
		const char *c1 = memchr(line, ':', len), *c2;
		uint32_t start, count;

		c2 = c1 ? memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - line)) : NULL;
		/* (A range of 0 ids, or one that wraps, gives nothing away.) */
		if (line[0] != '#' && c1 && c2 && c1 > line &&
		    parse_u32(c1 + 1, (size_t)(c2 - c1 - 1), &start) &&
		    parse_u32(c2 + 1, len - (size_t)(c2 + 1 - line), &count) && count > 0) {
			uint64_t end = (uint64_t)start + count;

			if (add(v, n, start, end > UINT32_MAX ? UINT32_MAX - start + 1 : count,
			        err) < 0)
				return -1;
		}
		line += len + (line[len] == '\n');
	}
	return 0;
}

int subid_read(const char *const *files, struct id_range **v, size_t *n, struct werror *err)
{
	for (size_t i = 0; files[i]; i++) {
		_cleanup_free_ char *text = NULL;
		size_t len;

		if (read_file(files[i], SUBID_MAX_BYTES, &text, &len, err) < 0) {
			if (werr_errno(err) == ENOENT) {
				werr_clear(err);
				continue;
			}
			return werr_ctx(err, "the id pool keeps clear of subordinate ids");
		}
		if (subid_parse(text, v, n, err) < 0)
			return -1;
	}
	return 0;
}
