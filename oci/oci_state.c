#include "oci/oci_state.h"
#include "lib/error.h"
#include "lib/jwalk.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_gen.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const struct jfield state_fields[] = {
    {.key = "ociVersion",
     .kind = JK_STR,
     .flags = JF_REQUIRED,
     .off = offsetof(struct oci_state, oci_version),
     .has_off = -1},
    {.key = "id",
     .kind = JK_STR,
     .flags = JF_REQUIRED | JF_NONEMPTY,
     .off = offsetof(struct oci_state, id),
     .has_off = -1},
    {.key = "pid", .kind = JK_I32, .off = offsetof(struct oci_state, pid), .has_off = -1},
    {.key = "bundle",
     .kind = JK_STR,
     .flags = JF_REQUIRED,
     .off = offsetof(struct oci_state, bundle),
     .has_off = -1},
    {.key = "rootfs", .kind = JK_STR, .off = offsetof(struct oci_state, rootfs), .has_off = -1},
    {.key = "created", .kind = JK_STR, .off = offsetof(struct oci_state, created), .has_off = -1},
    {.key = "owner", .kind = JK_STR, .off = offsetof(struct oci_state, owner), .has_off = -1},
    {.key = "annotations",
     .kind = JK_MAP,
     .off = offsetof(struct oci_state, annotations),
     .has_off = -1,
     .n_off = offsetof(struct oci_state, n_annotations)},
    {.key = "wardPidStart",
     .kind = JK_U64,
     .off = offsetof(struct oci_state, pid_start),
     .has_off = -1},
    {.key = "wardCgroup",
     .kind = JK_STR,
     .off = offsetof(struct oci_state, cgroup_path),
     .has_off = -1},
};

static void free_status(void *obj)
{
	free(((struct oci_state *)obj)->status);
}

static const struct jschema state_schema = {sizeof(struct oci_state), state_fields,
                                            ARRAY_SIZE(state_fields), NULL, free_status};

static void gen_str(yajl_gen g, const char *k, const char *v)
{
	yajl_gen_string(g, (const unsigned char *)k, strlen(k));
	yajl_gen_string(g, (const unsigned char *)(v ? v : ""), v ? strlen(v) : 0);
}

static void gen_int(yajl_gen g, const char *k, long long v)
{
	yajl_gen_string(g, (const unsigned char *)k, strlen(k));
	yajl_gen_integer(g, v);
}

/* What ward writes it must be able to read back: every string UTF-8
 * (a bundle path is any bytes the filesystem takes). */
static int state_utf8(const struct oci_state *s, struct werror *err)
{
	const char *f[] = {"id",      s->id,   "bundle", s->bundle,    "rootfs",
	                   s->rootfs, "owner", s->owner, "wardCgroup", s->cgroup_path};

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i += 2)
		if (f[i + 1] && !json_utf8_ok(f[i + 1], strlen(f[i + 1])))
			return werr_k(err, WERR_INVALID, EILSEQ,
			              "the state's %s \"%s\" is not UTF-8, which JSON must be",
			              f[i], f[i + 1]);
	for (size_t i = 0; i < s->n_annotations; i++)
		if (!json_utf8_ok(s->annotations[i].key, strlen(s->annotations[i].key)) ||
		    !json_utf8_ok(s->annotations[i].value, strlen(s->annotations[i].value)))
			return werr(err, EILSEQ, "annotation %zu is not UTF-8, which JSON must be",
			            i);
	return 0;
}

int oci_state_gen(struct yajl_gen_t *g, const struct oci_state *s, bool with_private,
                  struct werror *err)
{
	if (state_utf8(s, err) < 0)
		return -1;
	yajl_gen_map_open(g);
	gen_str(g, "ociVersion", s->oci_version);
	gen_str(g, "id", s->id);
	/* runc's order (its list test matches the JSON text): pid, then status. */
	gen_int(g, "pid", s->pid);
	if (s->status)
		gen_str(g, "status", s->status);
	gen_str(g, "bundle", s->bundle);
	if (s->rootfs)
		gen_str(g, "rootfs", s->rootfs);
	if (s->created)
		gen_str(g, "created", s->created);
	if (s->owner)
		gen_str(g, "owner", s->owner);
	if (s->n_annotations > 0) {
		yajl_gen_string(g, (const unsigned char *)"annotations", 11);
		yajl_gen_map_open(g);
		for (size_t i = 0; i < s->n_annotations; i++)
			gen_str(g, s->annotations[i].key, s->annotations[i].value);
		yajl_gen_map_close(g);
	}
	/* Last: runc's list test matches the text from "ociVersion" to
	 * "created"; engines ignore a field they do not know. */
	if (!with_private && s->profile)
		gen_str(g, "wardProfile", s->profile);
	/* pid_start is a clock-tick count; it fits an int64 for 10^9 years. */
	if (with_private) {
		gen_int(g, "wardPidStart", (long long)s->pid_start);
		if (s->cgroup_path)
			gen_str(g, "wardCgroup", s->cgroup_path);
	}
	return yajl_gen_map_close(g) == yajl_gen_status_ok ? 0 : -1;
}

int oci_state_to_json(const struct oci_state *s, bool with_private, char **out, size_t *len,
                      struct werror *err)
{
	yajl_gen g = yajl_gen_alloc(NULL);
	const unsigned char *buf;
	int r = -1;

	if (g == NULL)
		return werr(err, ENOMEM, "out of memory");
	yajl_gen_config(g, yajl_gen_beautify, !with_private);
	if (oci_state_gen(g, s, with_private, err) < 0) {
		/* the reason is recorded */
	} else if (yajl_gen_get_buf(g, &buf, len) != yajl_gen_status_ok ||
	           (*out = malloc(*len + 1)) == NULL) {
		werr(err, ENOMEM, "out of memory");
	} else {
		memcpy(*out, buf, *len);
		(*out)[*len] = '\0';
		r = 0;
	}
	yajl_gen_free(g);
	return r < 0 ? werr_ctx(err, "cannot serialise state") : 0;
}

struct oci_state *oci_state_parse(const char *buf, size_t len, const char *what, struct werror *err)
{
	return jdecode_document(&state_schema, buf, len, 8, what, err);
}

void oci_state_free(struct oci_state *s)
{
	if (s == NULL)
		return;
	jwalk_free(&state_schema, s);
	free(s);
}
