/* One writer for reports that are printed either as JSON (yajl_gen) or as
 * indented text: `ward check` (and `features`). */
#ifndef WARD_REPORT_OUT_H
#define WARD_REPORT_OUT_H

#include "lib/error.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <yajl/yajl_gen.h>

struct rout {
	yajl_gen g; /* JSON when set */
	FILE *t;    /* else text here */
	int depth;
	bool item_open; /* text: the "- " of a list item is pending */
};

int rout_init(struct rout *o, bool json, FILE *t, struct werror *err);
/* Print the JSON (if any) and free. */
int rout_finish(struct rout *o);
void rout_str(struct rout *o, const char *key, const char *v);
void rout_int(struct rout *o, const char *key, long long v);
void rout_bool(struct rout *o, const char *key, bool v);
void rout_obj(struct rout *o, const char *key); /* key NULL: inside a list */
void rout_obj_end(struct rout *o);
void rout_list(struct rout *o, const char *key);
void rout_list_end(struct rout *o);
/* A string element of a list. */
void rout_item(struct rout *o, const char *v);

#endif
