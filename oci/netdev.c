/* linux.netDevices: an object keyed by host device name, each value an
 * object with an optional "name". Names are checked as the kernel checks
 * them (dev_valid_name: 1-15 bytes, not "." or "..", no '/', ':' or
 * white space), so a bad one fails here with its JSON path rather than as
 * a netlink error halfway through create. */
#include "oci/netdev.h"
#include "lib/error.h"

#include <ctype.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_name(const char *s, const struct jpath *p, bool template_ok, struct werror *err)
{
	const char *pct = strchr(s, '%');

	if (s[0] == '\0' || strlen(s) >= IFNAMSIZ)
		return jerr(err, p, "a network device name is 1 to %d bytes (got \"%s\")",
		            IFNAMSIZ - 1, s);
	if (strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
		return jerr(err, p, "\"%s\" is not a valid network device name", s);
	for (const char *c = s; *c; c++)
		if (*c == '/' || *c == ':' || isspace((unsigned char)*c))
			return jerr(err, p,
			            "a network device name has no '/', ':' or white space "
			            "(got \"%s\")",
			            s);
	/* The spec's template: "%d" once, for the kernel to number. */
	if (pct && (!template_ok || pct[1] != 'd' || strchr(pct + 1, '%')))
		return jerr(err, p,
		            template_ok ? "the only template is one \"%%d\" (got \"%s\")"
		                        : "a host device name is no template (got \"%s\")",
		            s);
	return 0;
}

const char *oci_netdev_inner(const struct oci_net_device *d)
{
	return d->name ? d->name : d->host;
}

static int decode_one(yajl_val v, const struct jpath *p, struct oci_net_device *d,
                      struct werror *err)
{
	const char *path[] = {"name", NULL};
	struct jpath np = {p, "name", 0};
	yajl_val name;

	if (check_name(d->host, p, false, err) < 0)
		return -1;
	if (YAJL_IS_NULL(v))
		return 0;
	if (!YAJL_IS_OBJECT(v))
		return jerr(err, p, "must be an object");
	name = yajl_tree_get(v, path, yajl_t_any);
	if (name == NULL || YAJL_IS_NULL(name))
		return 0;
	if (jget_str(name, &np, true, &d->name, err) < 0)
		return -1;
	return check_name(d->name, &np, true, err);
}

int oci_netdevs_decode(yajl_val v, const struct jpath *p, void *dst, struct werror *err)
{
	struct oci_net_devices *d = dst;
	size_t n;

	if (!YAJL_IS_OBJECT(v))
		return jerr(err, p, "must be an object of host device names");
	n = v->u.object.len;
	d->dev = calloc(n ? n : 1, sizeof(*d->dev));
	if (d->dev == NULL)
		return werr(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		char key[IFNAMSIZ * 4 + 32];
		struct jpath ep;

		/* The path as ward spells map keys: .linux.netDevices["eth0"]. */
		snprintf(key, sizeof(key), "%s[\"%.*s\"]", p->key, IFNAMSIZ * 3,
		         v->u.object.keys[i]);
		ep = (struct jpath){p->up, key, 0};
		d->dev[i].host = strdup(v->u.object.keys[i]);
		d->n = i + 1;
		if (d->dev[i].host == NULL)
			return werr(err, ENOMEM, "out of memory");
		if (decode_one(v->u.object.values[i], &ep, &d->dev[i], err) < 0)
			return -1;
		/* Two devices may not ask for one name (a template excepted). */
		for (size_t j = 0; j < i; j++)
			if (strcmp(oci_netdev_inner(&d->dev[i]), oci_netdev_inner(&d->dev[j])) ==
			        0 &&
			    strchr(oci_netdev_inner(&d->dev[i]), '%') == NULL)
				return jerr(err, &ep,
				            "\"%s\" is also the name of %s inside the container",
				            oci_netdev_inner(&d->dev[i]), d->dev[j].host);
	}
	return 0;
}

void oci_netdevs_free(struct oci_net_devices *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->dev[i].host);
		free(d->dev[i].name);
	}
	free(d->dev);
	d->dev = NULL;
	d->n = 0;
}
