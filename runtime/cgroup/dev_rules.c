/* The device rules of a container: linux.resources.devices, the default
 * nodes every container gets, linux.devices. */
#include "cgroup/dev_rules.h"
#include "lib/error.h"

#include <errno.h>
#include <stdlib.h>

/* What every container gets on top of its rules (as runc does): null,
 * zero, full, random, urandom, tty, console, ptmx and the pty slaves. */
static const struct {
	int64_t major, minor;
} default_allowed[] = {{1, 3}, {1, 5}, {1, 7}, {1, 8}, {1, 9}, {5, 0}, {5, 1}, {5, 2}, {136, -1}};

int cg_device_rules(const struct oci_resources *r, const struct oci_linux *l,
                    struct cg_dev_rule **out, size_t *n)
{
	size_t nd = sizeof(default_allowed) / sizeof(default_allowed[0]);
	size_t max = r->n_devices + nd + (l ? l->n_devices : 0), k = 0;
	struct cg_dev_rule *v = calloc(max ? max : 1, sizeof(*v));

	if (v == NULL)
		return werr(ENOMEM, "out of memory");
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
	for (size_t i = 0; i < nd; i++)
		v[k++] = (struct cg_dev_rule){true,
		                              'c',
		                              default_allowed[i].major,
		                              default_allowed[i].minor,
		                              CG_DEV_READ | CG_DEV_WRITE | CG_DEV_MKNOD,
		                              "default device",
		                              i};
	for (size_t i = 0; l && i < l->n_devices; i++) {
		const struct oci_device *dev = &l->devices[i];

		if (dev->type[0] == 'p')
			continue;
		v[k++] = (struct cg_dev_rule){
		    true,       dev->type[0] == 'u' ? 'c' : dev->type[0],  dev->major,
		    dev->minor, CG_DEV_READ | CG_DEV_WRITE | CG_DEV_MKNOD, "linux.devices",
		    i};
	}
	*out = v;
	*n = k;
	return 0;
}
