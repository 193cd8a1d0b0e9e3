#include "oci/spec.h"
#include "lib/error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_gen.h>

#define S(g, s) yajl_gen_string((g), (const unsigned char *)(s), strlen(s))

static void kv(yajl_gen g, const char *k, const char *v)
{
	S(g, k);
	S(g, v);
}

static void strings(yajl_gen g, const char *k, const char *const *v)
{
	S(g, k);
	yajl_gen_array_open(g);
	for (; *v; v++)
		S(g, *v);
	yajl_gen_array_close(g);
}

static void mount(yajl_gen g, const char *dest, const char *type, const char *src,
                  const char *const *opts)
{
	yajl_gen_map_open(g);
	kv(g, "destination", dest);
	kv(g, "type", type);
	kv(g, "source", src);
	strings(g, "options", opts);
	yajl_gen_map_close(g);
}

static const char *const runc_caps[] = {"CAP_AUDIT_WRITE", "CAP_KILL", "CAP_NET_BIND_SERVICE",
                                        NULL};
/* baseline's safe set keeps these two of runc's three (ward-policy(7)). */
static const char *const safe_caps[] = {"CAP_KILL", "CAP_NET_BIND_SERVICE", NULL};

static void rlimit(yajl_gen g, const char *type, long long v)
{
	yajl_gen_map_open(g);
	kv(g, "type", type);
	S(g, "hard");
	yajl_gen_integer(g, v);
	S(g, "soft");
	yajl_gen_integer(g, v);
	yajl_gen_map_close(g);
}

const char *const oci_default_masked[] = {"/proc/acpi",
                                          "/proc/asound",
                                          "/proc/kcore",
                                          "/proc/keys",
                                          "/proc/latency_stats",
                                          "/proc/timer_list",
                                          "/proc/timer_stats",
                                          "/proc/sched_debug",
                                          "/proc/scsi",
                                          "/proc/interrupts",
                                          "/sys/firmware",
                                          "/sys/devices/virtual/powercap",
                                          NULL};

const char *const oci_default_readonly[] = {
    "/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger", NULL};

static void idmap(yajl_gen g, const char *key, uint32_t host)
{
	S(g, key);
	yajl_gen_array_open(g);
	yajl_gen_map_open(g);
	S(g, "containerID");
	yajl_gen_integer(g, 0);
	S(g, "hostID");
	yajl_gen_integer(g, host);
	S(g, "size");
	yajl_gen_integer(g, 1);
	yajl_gen_map_close(g);
	yajl_gen_array_close(g);
}

/* .process: sh as root, runc's or baseline's capabilities and rlimits. */
static void process_part(yajl_gen g, const struct oci_spec_opts *o)
{
	const char *const *caps = o->runc_process ? runc_caps : safe_caps;

	S(g, "process");
	yajl_gen_map_open(g);
	S(g, "terminal");
	yajl_gen_bool(g, 0);
	S(g, "user");
	yajl_gen_map_open(g);
	S(g, "uid");
	yajl_gen_integer(g, 0);
	S(g, "gid");
	yajl_gen_integer(g, 0);
	yajl_gen_map_close(g);
	strings(g, "args", (const char *const[]){"sh", NULL});
	strings(g, "env",
	        (const char *const[]){
	            "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
	            "TERM=xterm", NULL});
	kv(g, "cwd", "/");
	S(g, "capabilities");
	yajl_gen_map_open(g);
	strings(g, "bounding", caps);
	strings(g, "effective", caps);
	strings(g, "permitted", caps);
	yajl_gen_map_close(g);
	S(g, "rlimits");
	yajl_gen_array_open(g);
	rlimit(g, "RLIMIT_NOFILE", 1024);
	if (!o->runc_process)
		rlimit(g, "RLIMIT_CORE", 0);
	yajl_gen_array_close(g);
	S(g, "noNewPrivileges");
	yajl_gen_bool(g, 1);
	yajl_gen_map_close(g);
}

/* .root, .hostname and .mounts (devpts without gid=5 when rootless). */
static void fs_part(yajl_gen g, const struct oci_spec_rootless *rootless)
{
	S(g, "root");
	yajl_gen_map_open(g);
	kv(g, "path", "rootfs");
	S(g, "readonly");
	yajl_gen_bool(g, 1);
	yajl_gen_map_close(g);
	kv(g, "hostname", "ward");

	S(g, "mounts");
	yajl_gen_array_open(g);
	mount(g, "/proc", "proc", "proc", (const char *const[]){"nosuid", "noexec", "nodev", NULL});
	mount(g, "/dev", "tmpfs", "tmpfs",
	      (const char *const[]){"nosuid", "noexec", "strictatime", "mode=755", "size=65536k",
	                            NULL});
	/* tty (5) is no group of a single-id user namespace. */
	mount(g, "/dev/pts", "devpts", "devpts",
	      (const char *const[]){"nosuid", "noexec", "newinstance", "ptmxmode=0666", "mode=0620",
	                            rootless ? NULL : "gid=5", NULL});
	mount(g, "/dev/shm", "tmpfs", "shm",
	      (const char *const[]){"nosuid", "noexec", "nodev", "mode=1777", "size=65536k", NULL});
	mount(g, "/dev/mqueue", "mqueue", "mqueue",
	      (const char *const[]){"nosuid", "noexec", "nodev", NULL});
	mount(g, "/sys", "sysfs", "sysfs",
	      (const char *const[]){"nosuid", "noexec", "nodev", "ro", NULL});
	mount(g, "/tmp", "tmpfs", "tmpfs",
	      (const char *const[]){"nosuid", "nodev", "noexec", "mode=1777", "size=65536k", NULL});
	yajl_gen_array_close(g);
}

/* .linux: namespaces, id maps, masks, baseline's resources, seccomp. */
static void linux_part(yajl_gen g, const struct oci_spec_opts *o)
{
	const struct oci_spec_rootless *rootless = o->rootless;

	S(g, "linux");
	yajl_gen_map_open(g);
	S(g, "namespaces");
	yajl_gen_array_open(g);
	for (const char *const *ns =
	         (const char *const[]){"pid", "network", "ipc", "uts", "mount", "cgroup", NULL};
	     *ns; ns++) {
		yajl_gen_map_open(g);
		kv(g, "type", *ns);
		yajl_gen_map_close(g);
	}
	if (rootless) {
		yajl_gen_map_open(g);
		kv(g, "type", "user");
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
	if (rootless) {
		idmap(g, "uidMappings", rootless->uid);
		idmap(g, "gidMappings", rootless->gid);
	}
	strings(g, "maskedPaths", oci_default_masked);
	strings(g, "readonlyPaths", oci_default_readonly);
	/* Deny every device first, and a pids limit: baseline's floor (a
	 * rootless container may have no cgroup to hold them). */
	if (!o->runc_process && !rootless) {
		S(g, "resources");
		yajl_gen_map_open(g);
		S(g, "devices");
		yajl_gen_array_open(g);
		yajl_gen_map_open(g);
		S(g, "allow");
		yajl_gen_bool(g, 0);
		kv(g, "access", "rwm");
		yajl_gen_map_close(g);
		yajl_gen_array_close(g);
		S(g, "pids");
		yajl_gen_map_open(g);
		S(g, "limit");
		yajl_gen_integer(g, 4096);
		yajl_gen_map_close(g);
		yajl_gen_map_close(g);
	}
	if (o->seccomp_gen) {
		S(g, "seccomp");
		o->seccomp_gen(g);
	}
	yajl_gen_map_close(g);
}

int oci_spec_default(char **out, size_t *len, const struct oci_spec_opts *o, struct werror *err)
{
	yajl_gen g = yajl_gen_alloc(NULL);
	const unsigned char *buf;
	int r = -1;

	if (g == NULL)
		return werr(err, ENOMEM, "out of memory");
	yajl_gen_config(g, yajl_gen_beautify, 1);
	yajl_gen_map_open(g);
	kv(g, "ociVersion", "1.3.0");
	process_part(g, o);
	fs_part(g, o->rootless);
	linux_part(g, o);
	yajl_gen_map_close(g);

	if (yajl_gen_get_buf(g, &buf, len) == yajl_gen_status_ok) {
		*out = malloc(*len + 1);
		if (*out) {
			memcpy(*out, buf, *len);
			(*out)[*len] = '\0';
			r = 0;
		}
	}
	yajl_gen_free(g);
	return r < 0 ? werr(err, ENOMEM, "generating the default spec") : 0;
}
