/* Name ↔ number tables for capabilities, rlimits and namespaces. */
#ifndef WARD_OCI_NAMES_H
#define WARD_OCI_NAMES_H

#include <stddef.h>

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

#endif
