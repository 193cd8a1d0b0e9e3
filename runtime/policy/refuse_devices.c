/* Refusals: device nodes and device-cgroup rules that reach host hardware. */
#include "policy/rules.h"

#include <stdio.h>
#include <string.h>

static const struct {
	char type;
	int64_t major, minor;
	const char *name, *why;
} bad_devices[] = {
    {'c', 1, 1, "mem", "physical memory"},
    {'c', 1, 2, "kmem", "kernel memory"},
    {'c', 1, 4, "port", "I/O ports"},
    {'c', 10, 232, "kvm", "the hypervisor (kvm)"},
    {'c', 10, 229, "fuse", "FUSE, a kernel attack surface"},
    {'c', 10, 200, "tun", "creating network interfaces (tun)"},
};

/* The opt-out a device needs, NULL if it is harmless. */
const char *policy_device_optout(char type, int64_t major, int64_t minor, const char **why)
{
	static char buf[32];

	if (type == 'b') {
		*why = "raw host storage (a block device)";
		return "device.block";
	}
	for (size_t i = 0; i < sizeof(bad_devices) / sizeof(bad_devices[0]); i++)
		if (bad_devices[i].type == type && bad_devices[i].major == major &&
		    bad_devices[i].minor == minor) {
			*why = bad_devices[i].why;
			snprintf(buf, sizeof(buf), "device.%s", bad_devices[i].name);
			return buf;
		}
	return NULL;
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
	for (size_t i = 0; r && i < r->n_devices; i++) {
		const struct oci_device_rule *d = &r->devices[i];
		char t = d->type ? d->type[0] : 'a';
		bool any_major = !d->has_major || d->major < 0;
		const char *why, *opt;
		char field[64];

		if (!d->allow)
			continue;
		snprintf(field, sizeof(field), ".linux.resources.devices[%zu]", i);
		if (t == 'a' || any_major) {
			if (!policy_optout(x, "devices-all") &&
			    policy_refuse(x, field, "devices-all",
			                  "allows every %sdevice of the host",
			                  t == 'a'   ? ""
			                  : t == 'b' ? "block "
			                             : "character ") < 0)
				return -1;
			continue;
		}
		opt = policy_device_optout(t, d->major, d->has_minor ? d->minor : -1, &why);
		if (opt && !policy_optout(x, opt) &&
		    policy_refuse(x, field, opt, "allows %c %lld:%lld, a device node for %s", t,
		                  (long long)d->major, (long long)d->minor, why) < 0)
			return -1;
	}
	return 0;
}
