/* State JSON: round trip, and that a tampered file cannot set the status. */
#include "lib/error.h"
#include "oci/oci_state.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

int main(void)
{
	struct jkv ann[] = {{"k", "v\"quoted\""}};
	struct oci_state s = {.oci_version = "1.2.0",
	                      .id = "c1",
	                      .status = "running",
	                      .pid = 42,
	                      .bundle = "/b",
	                      .rootfs = "/b/rootfs",
	                      .created = "2026-01-01T00:00:00.000000000Z",
	                      .owner = "root",
	                      .annotations = ann,
	                      .n_annotations = 1,
	                      .pid_start = 123456789};
	struct oci_state *back;
	char *json;
	size_t len;

	ok(oci_state_to_json(&s, true, &json, &len, err) == 0, "serialise with private fields");
	back = oci_state_parse(json, len, "state.json", err);
	ok(back != NULL, "parse back");
	if (back) {
		ok(back->pid == 42 && back->pid_start == 123456789, "pid and start time");
		ok(strcmp(back->id, "c1") == 0 && strcmp(back->bundle, "/b") == 0, "id, bundle");
		ok(back->n_annotations == 1 &&
		       strcmp(back->annotations[0].value, "v\"quoted\"") == 0,
		   "annotations escaped");
		ok(back->status == NULL, "status is never read from the file");
	}
	oci_state_free(back);
	free(json);

	ok(oci_state_to_json(&s, false, &json, &len, err) == 0 &&
	       strstr(json, "wardPidStart") == NULL &&
	       strstr(json, "\"status\": \"running\"") != NULL,
	   "public form has status, no private fields");
	free(json);

	back = oci_state_parse("{\"id\":\"x\"}", 10, "state.json", err);
	ok(back == NULL && strstr(werr_msg(err), "ociVersion"), "incomplete state refused");
	return tap_done();
}
