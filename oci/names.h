/* Name ↔ number tables for capabilities, rlimits and namespaces. */
#ifndef WARD_OCI_NAMES_H
#define WARD_OCI_NAMES_H

#include "lib/error.h"

#include <stddef.h>
#include <stdint.h>

/* "CAP_SYS_ADMIN" → 21; -1 if unknown. */
int oci_cap_from_name(const char *name);
/* 21 → "CAP_SYS_ADMIN"; NULL if unknown. */
const char *oci_cap_name(int cap);
/* Highest capability number ward knows. */
int oci_cap_last(void);

/* "RLIMIT_NOFILE" → RLIMIT_NOFILE; -1 if unknown. */
int oci_rlimit_from_name(const char *name);

/* "pid" → CLONE_NEWPID; 0 if unknown. */
int oci_ns_flag(const char *type);
/* CLONE_NEWPID → "pid" ; NULL if unknown. */
const char *oci_ns_type(int flag);
/* The /proc/self/ns/ entry name for a flag ("pid", "net", "mnt", ...). */
const char *oci_ns_proc_name(int flag);

/* A table from names to bits ("SECCOMP_FILTER_FLAG_LOG" → its flag). */
struct oci_name_bit {
	const char *name;
	uint64_t bit;
};

/* OR together the bits of names; an unknown name is an error reading
 * "<what>[i]: unknown flag \"name\"". */
int oci_names_to_mask(char *const *names, size_t n, const struct oci_name_bit *table,
                      size_t n_table, const char *what, uint64_t *mask, struct werror *err);

#endif
