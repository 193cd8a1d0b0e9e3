/* The supervisor's DNS gate (net/dns_gate.h): a process of its own,
 * forked while the supervisor is still root, that enters the container's
 * network namespace, binds its listeners there, gives up root (uid and
 * gid nobody, no capability, no_new_privs) and serves the container's
 * queries with the allow map's fd. It dies with the supervisor (parent
 * death signal) and is killed when the supervisor ends; what it did comes
 * back as records, counted here for the report: refused names per name and
 * the first ones in full. */
#ifndef WARD_SUP_GATE_H
#define WARD_SUP_GATE_H

#include "lib/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "net/dns_gate.h"

#define GATE_FIRST_MAX 100 /* refusals recorded in full */
#define GATE_NAMES_MAX 512 /* distinct refused names counted */

struct gate_name_count {
	char name[DNS_NAME_BUF];
	uint64_t count;
};

struct gate_log {
	bool on; /* a gate served the container */
	char listen[16];
	uint64_t allowed, refused, empty, failed, denied;
	struct gate_record first[GATE_FIRST_MAX]; /* refused, failed, denied */
	size_t n_first;
	struct gate_name_count names[GATE_NAMES_MAX]; /* refused names, most first */
	size_t n_names;
	uint64_t uncounted;
	int chan; /* the records (-1: none, or the gate ended) */
	pid_t pid;
};

/* Start the gate when the state dir has its plan (net/gate_conf.h), with
 * the allow map and port sets' fds (kept by the gate, closed here). 0 (no
 * gate: l->on false) or the fd to poll; -1 with werr. */
int sup_gate_start(struct gate_log *l, int dirfd, int init_pidfd, int allow_fd, int ports_fd,
                   struct werror *err);
/* Take the records waiting (poll said so). */
void sup_gate_read(struct gate_log *l);
/* End the gate: its last records taken, killed, reaped; names sorted. */
void sup_gate_stop(struct gate_log *l);

#endif
