#ifndef WARD_REEXEC_H
#define WARD_REEXEC_H

#include "lib/error.h"

/* CVE-2019-5736: a process in the container that can open /proc/PID/exe of a
 * ward process inside the container could rewrite the ward binary on the host.
 * Before building a container, ward re-executes itself from a sealed,
 * anonymous memfd copy; the host binary is then never mapped by anything the
 * container can reach. Returns only on failure, or at once when this process
 * already runs from a sealed memfd. */
int reexec_sealed(char **argv, char **envp, struct werror *err);

#endif
