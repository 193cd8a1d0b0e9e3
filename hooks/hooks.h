/* OCI hooks: each runs with the container state as JSON on its stdin, with
 * exactly the env it was given, killed when its timeout expires. */
#ifndef WARD_HOOKS_H
#define WARD_HOOKS_H

#include "lib/error.h"

#include <stdbool.h>

#include "oci/config.h"
#include "oci/oci_state.h"

/* Hooks pinned to the file the policy decided on: .hooks.<point>[index]
 * runs from fd (an O_PATH fd of the file the policy judged, hook_file.h;
 * a close-on-exec copy owned here) rather than by its path, which names
 * whatever is there when it runs. Owned by create, which hands them on. */
struct hook_pin {
	enum oci_hook_point point;
	size_t index;
	int fd;
};
struct hook_pins {
	struct hook_pin *v;
	size_t n;
};

int hooks_pin(struct hook_pins *p, enum oci_hook_point point, size_t index, int fd,
              struct werror *err);
void hook_pins_close(struct hook_pins *p);
#define _cleanup_hook_pins_ __attribute__((cleanup(hook_pins_close)))

/* Run the hooks of one point in order, each from its pin if pins has one
 * (NULL: none); the first failure stops them and is returned as an error
 * naming the point, index, path and why (exit status, signal or timeout,
 * with the end of the hook's stderr). */
int hooks_run(const struct oci_config *c, enum oci_hook_point point, const struct oci_state *st,
              const struct hook_pins *pins, struct werror *err);
/* The same for points whose failures the spec says to log only
 * (poststart, poststop): every hook runs, by path; each failure is logged;
 * returns the number that failed. */
int hooks_run_logged(const struct oci_config *c, enum oci_hook_point point,
                     const struct oci_state *st);
bool hooks_any(const struct oci_config *c, enum oci_hook_point point);
/* Whether create has a hook round: the init stops before pivot_root, the
 * parent runs prestart and createRuntime, then the init runs
 * createContainer (and learns its host pid for startContainer). The parent
 * and the init both decide with this one function: if they disagreed,
 * create would deadlock. */
bool hooks_create_round(const struct oci_config *c);
const char *hooks_point_name(enum oci_hook_point point);

#endif
