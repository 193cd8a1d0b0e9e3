#include "oci/config_edit.h"
#include "lib/error.h"
#include "oci/names.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int cfg_strv_add(char ***v, size_t *n, const char *s, struct werror *err)
{
	char **nv = realloc(*v, (*n + 2) * sizeof(*nv));

	if (nv == NULL)
		return werr(err, ENOMEM, "out of memory");
	*v = nv;
	nv[*n + 1] = NULL;
	nv[*n] = strdup(s);
	if (nv[*n] == NULL)
		return werr(err, ENOMEM, "out of memory");
	(*n)++;
	return 0;
}

bool cfg_strv_has(char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return true;
	return false;
}

struct oci_linux *cfg_linux(struct oci_config *c, struct werror *err)
{
	if (c->linux == NULL && (c->linux = calloc(1, sizeof(*c->linux))) == NULL)
		werr(err, ENOMEM, "out of memory");
	return c->linux;
}

struct oci_resources *cfg_resources(struct oci_config *c, struct werror *err)
{
	struct oci_linux *l = cfg_linux(c, err);

	if (l && l->resources == NULL && (l->resources = calloc(1, sizeof(*l->resources))) == NULL)
		werr(err, ENOMEM, "out of memory");
	return l ? l->resources : NULL;
}

int cfg_ns_add(struct oci_config *c, int flag, struct werror *err)
{
	struct oci_linux *l = cfg_linux(c, err);
	struct oci_namespace *v;

	if (l == NULL)
		return -1;
	v = realloc(l->namespaces, (l->n_namespaces + 1) * sizeof(*v));
	if (v == NULL)
		return werr(err, ENOMEM, "out of memory");
	l->namespaces = v;
	memset(&v[l->n_namespaces], 0, sizeof(*v));
	v[l->n_namespaces].flag = flag;
	v[l->n_namespaces].type = strdup(oci_ns_type(flag));
	if (v[l->n_namespaces].type == NULL)
		return werr(err, ENOMEM, "out of memory");
	l->n_namespaces++;
	return 0;
}

int cfg_mount_add(struct oci_config *c, const char *dest, const char *type, const char *source,
                  const char *const *opts, struct werror *err)
{
	struct oci_mount *v = realloc(c->mounts, (c->n_mounts + 1) * sizeof(*v));
	struct oci_mount *m;

	if (v == NULL)
		return werr(err, ENOMEM, "out of memory");
	c->mounts = v;
	m = &v[c->n_mounts];
	memset(m, 0, sizeof(*m));
	c->n_mounts++;
	m->destination = strdup(dest);
	m->type = strdup(type);
	m->source = strdup(source);
	if (!m->destination || !m->type || !m->source)
		return werr(err, ENOMEM, "out of memory");
	for (size_t i = 0; opts && opts[i]; i++)
		if (cfg_strv_add(&m->options, &m->n_options, opts[i], err) < 0)
			return -1;
	return 0;
}

int cfg_rlimit_set(struct oci_process *p, const char *type, int resource, uint64_t soft,
                   uint64_t hard, struct werror *err)
{
	struct oci_rlimit *v;

	for (size_t i = 0; i < p->n_rlimits; i++)
		if (p->rlimits[i].resource == resource) {
			p->rlimits[i].soft = soft;
			p->rlimits[i].hard = hard;
			return 0;
		}
	v = realloc(p->rlimits, (p->n_rlimits + 1) * sizeof(*v));
	if (v == NULL)
		return werr(err, ENOMEM, "out of memory");
	p->rlimits = v;
	v[p->n_rlimits] = (struct oci_rlimit){
	    .type = strdup(type), .resource = resource, .soft = soft, .hard = hard};
	p->n_rlimits++;
	return v[p->n_rlimits - 1].type ? 0 : werr(err, ENOMEM, "out of memory");
}
