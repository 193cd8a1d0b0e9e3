/* Lookups in a decoded config that every layer makes. */
#include "oci/config.h"

#include <string.h>

const struct oci_namespace *oci_config_namespace(const struct oci_config *c, int flag)
{
	if (c->linux == NULL)
		return NULL;
	for (size_t i = 0; i < c->linux->n_namespaces; i++)
		if (c->linux->namespaces[i].flag == flag)
			return &c->linux->namespaces[i];
	return NULL;
}

const char *oci_config_annotation(const struct oci_config *c, const char *key)
{
	for (size_t i = 0; i < c->n_annotations; i++)
		if (strcmp(c->annotations[i].key, key) == 0)
			return c->annotations[i].value;
	return NULL;
}
