/* Refusals: device nodes and device-cgroup rules that reach host hardware
 * or kernel interfaces a container does not need.
 *
 * Nodes (linux.devices, bind-mounted host nodes, exact allow rules): any
 * block device; mem, kmem, port; and every misc device (major 10): kvm,
 * fuse, tun, vhost-net and vhost-vsock by name, every other misc minor by
 * number, since the kernel gives many misc minors out at boot (userfaultfd
 * is 10:257 on one host, another number on the next), so none can be told
 * harmless by its number.
 *
 * Wildcards (an allow rule without a major or a minor): refused unless it
 * is exactly one of std_wildcards, the entries runc's defaults need. */
#include "policy/rules.h"

#include "oci/config_edit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MISC_MAJOR 10

#define ACC_R   1u
#define ACC_W   2u
#define ACC_M   4u
#define ACC_RWM (ACC_R | ACC_W | ACC_M)

static const struct {
	char type;
	int64_t major, minor;
	const char *name, *why;
} bad_devices[] = {
    {'c', 1, 1, "mem", "physical memory"},
    {'c', 1, 2, "kmem", "kernel memory"},
    {'c', 1, 4, "port", "I/O ports"},
    {'c', 5, 1, "console", "the host's console (the kernel's messages, a login on it)"},
    {'c', MISC_MAJOR, 232, "kvm", "the hypervisor (kvm)"},
    {'c', MISC_MAJOR, 229, "fuse", "FUSE, a kernel attack surface"},
    {'c', MISC_MAJOR, 200, "tun", "creating network interfaces (tun)"},
    {'c', MISC_MAJOR, 238, "vhost-net", "the kernel's virtio-net backend (vhost-net)"},
    {'c', MISC_MAJOR, 241, "vhost-vsock", "the kernel's vsock backend (vhost-vsock)"},
};

/* The wildcard allow rules a container may have, exactly: the pty slaves
 * (devpts numbers them, c 136:*, with any of rwm), and mknod alone of any
 * character or block device (b/c *:* m, which runc adds to every
 * container). mknod alone is harmless here: opening a node needs r or w,
 * which only the exact rules give, so what the container makes it cannot
 * open; and baseline caps CAP_MKNOD away and strict's user namespace cannot
 * mknod at all. */
static const struct {
	char type;
	int64_t major; /* -1: any */
	unsigned access;
} std_wildcards[] = {
    {'c', 136, ACC_RWM},
    {'c', -1, ACC_M},
    {'b', -1, ACC_M},
};

static bool std_wildcard(char type, int64_t major, bool any_major, unsigned access)
{
	for (size_t i = 0; i < sizeof(std_wildcards) / sizeof(std_wildcards[0]); i++)
		if (std_wildcards[i].type == type &&
		    (std_wildcards[i].major < 0 ? any_major
		                                : !any_major && std_wildcards[i].major == major) &&
		    (access & ~std_wildcards[i].access) == 0)
			return true;
	return false;
}

/* "kvm, fuse, tun, ..." of the named devices under a major. */
static void names_under(int64_t major, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(bad_devices) / sizeof(bad_devices[0]) && n < len; i++)
		if (bad_devices[i].type == 'c' && bad_devices[i].major == major)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
			                      bad_devices[i].name);
}

/* The nodes every container gets (cgroup/dev_rules.c allows the same). */
static bool standard_node(int64_t major, int64_t minor)
{
	static const int64_t std[][2] = {{1, 3}, {1, 5}, {1, 7}, {1, 8},
	                                 {1, 9}, {5, 0}, {5, 2}, {136, -1}};

	for (size_t i = 0; i < sizeof(std) / sizeof(std[0]); i++)
		if (std[i][0] == major && (std[i][1] == minor || std[i][1] < 0))
			return true;
	return false;
}

/* The opt-out a device needs, NULL if it is harmless. */
const char *policy_device_optout(char type, int64_t major, int64_t minor, const char **why)
{
	static char opt[64], reason[224];
	char names[96];

	if (type == 'b') {
		*why = "raw host storage (a block device)";
		return "device.block";
	}
	if (minor < 0) {
		names_under(major, names, sizeof(names));
		if (major == MISC_MAJOR)
			snprintf(reason, sizeof(reason),
			         "every misc device of the host (%s, userfaultfd and the "
			         "others the kernel numbers at boot)",
			         names);
		else if (names[0])
			snprintf(reason, sizeof(reason),
			         "every device of major %lld (%s among them)", (long long)major,
			         names);
		else
			snprintf(reason, sizeof(reason),
			         "every device the host numbers under major %lld",
			         (long long)major);
		*why = reason;
		snprintf(opt, sizeof(opt), "device.c%lld:*", (long long)major);
		return opt;
	}
	for (size_t i = 0; i < sizeof(bad_devices) / sizeof(bad_devices[0]); i++)
		if (bad_devices[i].type == type && bad_devices[i].major == major &&
		    bad_devices[i].minor == minor) {
			*why = bad_devices[i].why;
			snprintf(opt, sizeof(opt), "device.%s", bad_devices[i].name);
			return opt;
		}
	/* The host's terminals: what is typed on them and shown to whoever is
	 * logged in there (a container has its own pty). */
	if (major == 4 || major == 204) {
		snprintf(reason, sizeof(reason), "a %s of the host (c %lld:%lld)",
		         major == 4 && minor < 64 ? "virtual console" : "serial port",
		         (long long)major, (long long)minor);
		*why = reason;
		snprintf(opt, sizeof(opt), "device.c%lld:%lld", (long long)major, (long long)minor);
		return opt;
	}
	if (major == MISC_MAJOR) {
		snprintf(reason, sizeof(reason),
		         "a kernel misc interface (c 10:%lld; misc minors such as userfaultfd's "
		         "are given out at boot, so none is allowed by number)",
		         (long long)minor);
		*why = reason;
		snprintf(opt, sizeof(opt), "device.c10:%lld", (long long)minor);
		return opt;
	}
	/* An allow-list: sg (raw SCSI), input, vcs, fb, kmsg, ttys, NVMe
	 * generic nodes ... each reach host hardware or other sessions. GPUs
	 * and serial lines are the operator's to allow, node by node. */
	if (!standard_node(major, minor)) {
		snprintf(reason, sizeof(reason),
		         "a host device outside the standard set (null, zero, full, random, "
		         "urandom, tty, ptmx, pts)");
		*why = reason;
		snprintf(opt, sizeof(opt), "device.c%lld:%lld", (long long)major, (long long)minor);
		return opt;
	}
	return NULL;
}

/* An allow rule for exactly the host console: Podman's and runc's
 * generated configs carry "c 5:1 rwm", so it is dropped (below), not
 * refused. */
static bool is_console_rule(const struct oci_device_rule *d)
{
	return d->allow && d->type && strcmp(d->type, "c") == 0 && d->has_major && d->major == 5 &&
	       d->has_minor && d->minor == 1;
}

static int refuse_rule(struct policy_ctx *x, size_t i, const struct oci_device_rule *d)
{
	char t = d->type ? d->type[0] : 'a';
	bool any_major = t == 'a' || !d->has_major || d->major < 0;
	bool any_minor = !d->has_minor || d->minor < 0;
	const char *why, *opt;
	char field[64], minor[24] = "*";

	if (!d->allow ||
	    (any_minor && std_wildcard(t, d->major, any_major, oci_device_access(d->access))) ||
	    is_console_rule(d))
		return 0;
	snprintf(field, sizeof(field), ".linux.resources.devices[%zu]", i);
	if (any_major) {
		if (policy_optout(x, "devices-all"))
			return 0;
		return policy_refuse(x, field, "devices-all", "allows every %sdevice of the host",
		                     t == 'a'   ? ""
		                     : t == 'b' ? "block "
		                                : "character ");
	}
	opt = policy_device_optout(t, d->major, any_minor ? -1 : d->minor, &why);
	if (opt == NULL || policy_optout(x, opt))
		return 0;
	if (!any_minor)
		snprintf(minor, sizeof(minor), "%lld", (long long)d->minor);
	if (any_minor && t == 'c')
		return policy_refuse(x, field, opt, "allows c %lld:* (a wildcard minor), %s",
		                     (long long)d->major, why);
	return policy_refuse(x, field, opt, "allows %c %lld:%s, a device node for %s", t,
	                     (long long)d->major, minor, why);
}

int policy_refuse_devices(struct policy_ctx *x)
{
	const struct oci_linux *l = x->cfg->linux;
	const struct oci_resources *r = l ? l->resources : NULL;

	for (size_t i = 0; l && i < l->n_devices; i++) {
		const struct oci_device *d = &l->devices[i];
		const char *why, *opt;
		char field[64];
		char t = d->type[0] == 'u' ? 'c' : d->type[0];

		if (t == 'p' || (opt = policy_device_optout(t, d->major, d->minor, &why)) == NULL ||
		    policy_optout(x, opt))
			continue;
		snprintf(field, sizeof(field), ".linux.devices[%zu]", i);
		if (policy_refuse(x, field, opt, "%s (%c %lld:%lld) is a device node for %s",
		                  d->path, t, (long long)d->major, (long long)d->minor, why) < 0)
			return -1;
	}
	for (size_t i = 0; r && i < r->n_devices; i++)
		if (refuse_rule(x, i, &r->devices[i]) < 0)
			return -1;
	return 0;
}

/* baseline and strict: the host console never opens. Config rules that
 * allow it are dropped (engines write one into every config; the
 * container's /dev/console is its own pty and needs none), and ward's
 * default rules leave it out (r->no_console: the cgroup writer appends
 * its defaults after the config's rules, so a deny rule here would not
 * hold). allow.device.console keeps the config's rules. */
int policy_adjust_devices(struct policy_ctx *x)
{
	struct oci_resources *r = cfg_resources(x->cfg);

	if (r == NULL)
		return -1;
	r->no_console = true;
	if (policy_optout(x, "device.console"))
		return 0;
	for (size_t i = 0, orig = 0; i < r->n_devices; orig++) {
		char field[64];

		if (!is_console_rule(&r->devices[i])) {
			i++;
			continue;
		}
		free(r->devices[i].type);
		free(r->devices[i].access);
		memmove(&r->devices[i], &r->devices[i + 1],
		        (r->n_devices - i - 1) * sizeof(*r->devices));
		r->n_devices--;
		snprintf(field, sizeof(field), ".linux.resources.devices[%zu]", orig);
		if (policy_adjusted(x, "device-console", field, "allow c 5:1 (the host's console)",
		                    "(dropped: the container's /dev/console is its pty)") < 0)
			return -1;
	}
	return 0;
}
