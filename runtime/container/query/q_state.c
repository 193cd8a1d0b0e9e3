/* state: the container's state JSON, with what the supervisor noted. */
#include "container/container.h"
#include "container/query/query.h"
#include "container/store.h"
#include "lib/error.h"
#include "supervisor/supervisor.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A supervisor that died killed its container: the state says why
 * (annotation org.ward.supervisor, from the guard's note). */
static int note_supervisor(struct container *c, struct werror *err)
{
	char why[256];
	struct jkv *a;

	if (store_read(c, SUP_DIED_FILE, why, sizeof(why), err) < 0) {
		werr_clear(err);
		return 0;
	}
	a = realloc(c->st->annotations, (c->st->n_annotations + 1) * sizeof(*a));
	if (a == NULL)
		return werr(err, ENOMEM, "out of memory");
	c->st->annotations = a;
	a[c->st->n_annotations].key = strdup("org.ward.supervisor");
	a[c->st->n_annotations].value = strdup(why);
	if (!a[c->st->n_annotations].key || !a[c->st->n_annotations].value) {
		free(a[c->st->n_annotations].key);
		free(a[c->st->n_annotations].value);
		return werr(err, ENOMEM, "out of memory");
	}
	c->st->n_annotations++;
	return 0;
}

int query_state(struct container *c, struct werror *err)
{
	size_t len;
	char *json;

	if (c->st == NULL && c->status == ST_DELETING)
		return werr(err, 0,
		            "container \"%s\" is being deleted (a delete that did not finish: "
		            "delete --force removes it)",
		            c->id);
	if (c->st == NULL)
		return werr_k(err, WERR_NOT_RUNNING, 0, "container \"%s\" is still being created",
		              c->id);
	c->st->profile = container_profile_name(c);
	if (note_supervisor(c, err) < 0 || oci_state_to_json(c->st, false, &json, &len, err) < 0)
		return -1;
	printf("%s\n", json);
	free(json);
	return 0;
}
