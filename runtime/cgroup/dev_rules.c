/* The device rules of a container: linux.resources.devices, the default
 * nodes every container gets, linux.devices. */
#include "cgroup/dev_rules.h"
#include "lib/error.h"

#include <errno.h>
#include <stdlib.h>

/* What every container gets on top of its rules (runc 1.1.5's list,
 * libcontainer/specconv AllowedDevices): mknod of any node (opening one
 * needs r or w, which only the exact rules give: this is what lets the
 * linux.devices nodes be made under a deny-all), null, zero, full, random,
 * urandom, tty, ptmx, the pty slaves and tun/tap. Not the host's console
 * (c 5:1): the container's /dev/console is its own pty. tun/tap (c 10:200)
 * only in compat: baseline and strict keep it out (r->no_console). */
#define RWM (CG_DEV_READ | CG_DEV_WRITE | CG_DEV_MKNOD)
static const struct {
	char type;
	int64_t major, minor;
	unsigned access;
} default_allowed[] = {{'c', -1, -1, CG_DEV_MKNOD},
                       {'b', -1, -1, CG_DEV_MKNOD},
                       {'c', 1, 3, RWM},
                       {'c', 1, 5, RWM},
                       {'c', 1, 7, RWM},
                       {'c', 1, 8, RWM},
                       {'c', 1, 9, RWM},
                       {'c', 5, 0, RWM},
                       {'c', 5, 2, RWM},
                       {'c', 136, -1, RWM},
                       {'c', 10, 200, RWM}};

int cg_device_rules(const struct oci_resources *r, const struct oci_linux *l,
                    struct cg_dev_rule **out, size_t *n, struct werror *err)
{
	size_t nd = sizeof(default_allowed) / sizeof(default_allowed[0]);
	size_t max = 1 + r->n_devices + nd + (l ? l->n_devices : 0), k = 0;
	struct cg_dev_rule *v = calloc(max ? max : 1, sizeof(*v));

	if (v == NULL)
		return werr(err, ENOMEM, "out of memory");
	/* No rules at all: everything denied but the defaults, as runc does
	 * (an image's /dev/mem or the host's serial port never opens). */
	if (r->n_devices == 0)
		v[k++] = (struct cg_dev_rule){false, 'a', -1, -1, RWM, "default device", 0, true};
	for (size_t i = 0; i < r->n_devices; i++) {
		const struct oci_device_rule *d = &r->devices[i];

		v[k++] = (struct cg_dev_rule){
		    .allow = d->allow,
		    .type = d->type ? d->type[0] : 'a',
		    .major = d->has_major ? d->major : -1,
		    .minor = d->has_minor ? d->minor : -1,
		    .access = oci_device_access(d->access),
		    .field = "linux.resources.devices",
		    .index = i,
		};
		/* A negative number is a wildcard for that number alone (as the
		 * policy reads it: c 136:-2 is c 136:*, not every device). */
		if (v[k - 1].major < 0)
			v[k - 1].major = -1;
		if (v[k - 1].minor < 0)
			v[k - 1].minor = -1;
		/* No r, w or m (runc's "a"): a rule about nothing. */
		if (v[k - 1].access == 0)
			k--;
	}
	for (size_t i = 0; i < nd; i++) {
		if (r->no_console && default_allowed[i].major == 10 &&
		    default_allowed[i].minor == 200)
			continue;
		v[k++] = (struct cg_dev_rule){true,
		                              default_allowed[i].type,
		                              default_allowed[i].major,
		                              default_allowed[i].minor,
		                              default_allowed[i].access,
		                              "default device",
		                              i,
		                              true};
	}
	/* runc (1.1) makes the linux.devices nodes but allows none of them: a
	 * config that denies everything and lists /dev/kmsg does not open it.
	 * Only where the policy's own deny-all came first are they allowed
	 * (their config had no deny-all, so without ward they opened). */
	for (size_t i = 0; r->allow_listed && l && i < l->n_devices; i++) {
		const struct oci_device *dev = &l->devices[i];

		if (dev->type[0] == 'p')
			continue;
		v[k++] = (struct cg_dev_rule){true,
		                              dev->type[0] == 'u' ? 'c' : dev->type[0],
		                              dev->major,
		                              dev->minor,
		                              CG_DEV_READ | CG_DEV_WRITE | CG_DEV_MKNOD,
		                              "linux.devices",
		                              i,
		                              false};
	}
	*out = v;
	*n = k;
	return 0;
}
