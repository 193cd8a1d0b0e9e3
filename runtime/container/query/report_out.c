#include "container/query/report_out.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "lib/strfmt.h"

#include <errno.h>
#include <string.h>

int rout_init(struct rout *o, bool json, FILE *t, struct werror *err)
{
	memset(o, 0, sizeof(*o));
	o->t = t;
	if (json) {
		o->g = yajl_gen_alloc(NULL);
		if (o->g == NULL)
			return werr(err, ENOMEM, "out of memory");
		yajl_gen_config(o->g, yajl_gen_beautify, 1);
		yajl_gen_map_open(o->g);
	}
	return 0;
}

int rout_finish(struct rout *o)
{
	const unsigned char *buf;
	size_t len;

	if (o->g == NULL)
		return 0;
	yajl_gen_map_close(o->g);
	yajl_gen_get_buf(o->g, &buf, &len);
	fwrite(buf, 1, len, o->t);
	yajl_gen_free(o->g);
	o->g = NULL;
	return 0;
}

static void key(struct rout *o, const char *k)
{
	if (o->g && k)
		yajl_gen_string(o->g, (const unsigned char *)k, strlen(k));
}

/* Text: indentation, and a pending list bullet. */
static void lead(struct rout *o, const char *k)
{
	int d = o->depth;

	if (o->item_open) {
		fprintf(o->t, "%*s- ", (d - 1) * 2, "");
		o->item_open = false;
	} else {
		fprintf(o->t, "%*s", d * 2, "");
	}
	if (k)
		fprintf(o->t, "%s: ", k);
}

void rout_str(struct rout *o, const char *k, const char *v)
{
	if (o->g) {
		key(o, k);
		yajl_gen_string(o->g, (const unsigned char *)v, strlen(v));
		return;
	}
	lead(o, k);
	/* A config's strings (paths, names, reasons) as one line each. */
	_cleanup_free_ char *line = str_one_line(v);

	fprintf(o->t, "%s\n", line);
}

void rout_int(struct rout *o, const char *k, long long v)
{
	if (o->g) {
		key(o, k);
		yajl_gen_integer(o->g, v);
		return;
	}
	lead(o, k);
	fprintf(o->t, "%lld\n", v);
}

void rout_bool(struct rout *o, const char *k, bool v)
{
	if (o->g) {
		key(o, k);
		yajl_gen_bool(o->g, v);
		return;
	}
	lead(o, k);
	fprintf(o->t, "%s\n", v ? "yes" : "no");
}

void rout_obj(struct rout *o, const char *k)
{
	if (o->g) {
		key(o, k);
		yajl_gen_map_open(o->g);
		return;
	}
	if (k) {
		lead(o, NULL);
		fprintf(o->t, "%s:\n", k);
	} else {
		o->item_open = true; /* the first field carries the bullet */
	}
	o->depth++;
}

void rout_obj_end(struct rout *o)
{
	if (o->g)
		yajl_gen_map_close(o->g);
	else
		o->depth--;
}

void rout_list(struct rout *o, const char *k)
{
	if (o->g) {
		key(o, k);
		yajl_gen_array_open(o->g);
		return;
	}
	lead(o, NULL);
	fprintf(o->t, "%s:\n", k);
	o->depth++;
}

void rout_list_end(struct rout *o)
{
	if (o->g)
		yajl_gen_array_close(o->g);
	else
		o->depth--;
}

void rout_item(struct rout *o, const char *v)
{
	if (o->g) {
		yajl_gen_string(o->g, (const unsigned char *)v, strlen(v));
		return;
	}
	_cleanup_free_ char *line = str_one_line(v);

	fprintf(o->t, "%*s- %s\n", o->depth * 2, "", line);
}
