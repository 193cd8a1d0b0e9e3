/* What the systemd driver asks systemd for, worked out from the config
 * without systemd:
 * - runc's cgroupsPath, "slice:prefix:name", into the unit and the cgroup
 *   path systemd gives it (systemd.slice(5): a dash in a slice's name is a
 *   level of the tree);
 * - linux.resources as unit properties (systemd.resource-control(5)). What
 *   systemd has a property for is given to it as one: systemd rewrites a
 *   scope's own cgroup files from its properties on every daemon-reload,
 *   so a limit written only to the file would be undone. The same values
 *   are then written to the files as with cgroupfs (cgroup_apply), which
 *   also covers what systemd has no property for. */
#include "cgroup/cg_systemd.h"
#include "lib/error.h"
#include "cgroup/cgroup_v2.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WHAT "config.json: .linux.cgroupsPath"

/* The characters systemd takes in a unit name (unit_name_is_valid), less
 * '@' and '\\': ward makes no template instances and no escapes. */
static bool unit_chars_ok(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == ':' || s[i] == '_' || s[i] == '.' ||
		      s[i] == '-'))
			return false;
	return true;
}

/* "a-b.slice" → "/a.slice/a-b.slice"; "-.slice" (the root slice) → "". */
static int expand_slice(const char *slice, const char *given, char *out, size_t len,
                        struct werror *err)
{
	size_t n = strlen(slice), base, k = 0;

	out[0] = '\0';
	if (n < 6 || strcmp(slice + n - 6, ".slice") != 0 || !unit_chars_ok(slice, n))
		return werr_k(err, WERR_INVALID, 0,
		              WHAT
		              " \"%s\": the slice \"%s\" is not a slice unit name (NAME.slice)",
		              given, slice);
	if (strcmp(slice, "-.slice") == 0)
		return 0;
	base = n - 6;
	for (size_t i = 0; i <= base; i++) {
		if (i < base && slice[i] != '-')
			continue;
		/* A level ends here: its name is slice[0..i) + ".slice". */
		if (i == 0 || slice[i - 1] == '-')
			return werr_k(err, WERR_INVALID, 0,
			              WHAT
			              " \"%s\": the slice \"%s\" has an empty level (a leading, "
			              "trailing or double dash)",
			              given, slice);
		if (k + i + 8 >= len)
			return werr_k(err, WERR_INVALID, ENAMETOOLONG, WHAT " \"%s\": too long",
			              given);
		k += (size_t)snprintf(out + k, len - k, "/%.*s.slice", (int)i, slice);
	}
	return 0;
}

int sd_parse_path(const char *cgroups_path, const char *id, char *path, size_t path_len, char *unit,
                  size_t unit_len, char *slice, size_t slice_len, struct werror *err)
{
	char given[SD_UNIT_MAX * 3], sl[SD_UNIT_MAX], pre[SD_UNIT_MAX], name[SD_UNIT_MAX];
	char spath[SD_UNIT_MAX * 4];
	const char *c1, *c2;
	int n;

	if (cgroups_path == NULL || cgroups_path[0] == '\0')
		snprintf(given, sizeof(given), "system.slice:ward:%s", id);
	else if ((size_t)snprintf(given, sizeof(given), "%s", cgroups_path) >= sizeof(given))
		return werr_k(err, WERR_INVALID, ENAMETOOLONG, WHAT ": too long for a unit name");
	c1 = strchr(given, ':');
	c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	if (c1 == NULL || c2 == NULL || strchr(c2 + 1, ':'))
		return werr_k(err, WERR_INVALID, 0,
		              WHAT
		              " \"%s\": the systemd cgroup manager takes \"slice:prefix:name\" "
		              "(as runc's --systemd-cgroup), not a cgroupfs path",
		              given);
	/* Each part whole or not at all: a cut slice would be another slice. */
	if (c1 - given >= (ptrdiff_t)sizeof(sl) || c2 - c1 - 1 >= (ptrdiff_t)sizeof(pre) ||
	    strlen(c2 + 1) >= sizeof(name))
		return werr_k(err, WERR_INVALID, ENAMETOOLONG,
		              WHAT " \"%s\": a part is too long for a unit name", given);
	snprintf(sl, sizeof(sl), "%.*s", (int)(c1 - given), given);
	snprintf(pre, sizeof(pre), "%.*s", (int)(c2 - c1 - 1), c1 + 1);
	snprintf(name, sizeof(name), "%s", c2 + 1);
	if (sl[0] == '\0')
		snprintf(sl, sizeof(sl), "system.slice");
	if (name[0] == '\0')
		return werr_k(err, WERR_INVALID, 0,
		              WHAT " \"%s\": the name (after the second ':') is empty", given);
	if (!unit_chars_ok(pre, strlen(pre)) || !unit_chars_ok(name, strlen(name)))
		return werr_k(err, WERR_INVALID, 0,
		              WHAT " \"%s\": prefix and name may hold only letters, digits and "
		                   "\":_.-\" (they make the unit's name)",
		              given);
	if (strlen(name) > 6 && strcmp(name + strlen(name) - 6, ".slice") == 0)
		return werr_k(err, WERR_UNSUPPORTED, 0,
		              WHAT " \"%s\": a name ending in .slice (a slice of the container's "
		                   "own) is not supported; ward makes a scope",
		              given);
	if (expand_slice(sl, given, spath, sizeof(spath), err) < 0)
		return -1;
	n = pre[0] ? snprintf(unit, unit_len, "%s-%s.scope", pre, name)
	           : snprintf(unit, unit_len, "%s.scope", name);
	if (n < 0 || (size_t)n >= unit_len || (size_t)n >= SD_UNIT_MAX)
		return werr_k(err, WERR_INVALID, ENAMETOOLONG,
		              WHAT " \"%s\": the unit name is too long", given);
	if ((size_t)snprintf(slice, slice_len, "%s", sl) >= slice_len ||
	    (size_t)snprintf(path, path_len, "%s/%s", spath, unit) >= path_len)
		return werr_k(err, WERR_INVALID, ENAMETOOLONG, WHAT " \"%s\": too long", given);
	return 0;
}

#define SD_INFINITY UINT64_MAX

static int add(struct sd_props *o, const char *name, char type, uint64_t u, struct werror *err)
{
	if (o->n == SD_PROPS_MAX)
		return werr(err, E2BIG, "too many systemd properties");
	o->p[o->n++] = (struct sd_prop){.name = name, .type = type, .u = u};
	return 0;
}

int sd_cpuset_mask(const char *list, const char *what, uint8_t **mask, size_t *n,
                   struct werror *err)
{
	const char *p = list;

	*mask = NULL;
	*n = 0;
	while (*p) {
		char *end;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;

		if (end == p)
			goto bad;
		if (*end == '-') {
			p = end + 1;
			hi = strtoul(p, &end, 10);
			if (end == p)
				goto bad;
		}
		/* CONFIG_NR_CPUS tops out at 8192 (and so do memory nodes). */
		if (hi < lo || hi >= 8192)
			goto bad;
		if (hi / 8 + 1 > *n) {
			uint8_t *m = realloc(*mask, hi / 8 + 1);

			if (m == NULL) {
				free(*mask);
				*mask = NULL;
				return werr(err, ENOMEM, "out of memory");
			}
			memset(m + *n, 0, hi / 8 + 1 - *n);
			*mask = m;
			*n = hi / 8 + 1;
		}
		for (unsigned long i = lo; i <= hi; i++)
			(*mask)[i / 8] |= (uint8_t)(1u << (i % 8));
		/* A comma before the next range; a newline only at the end. */
		if (*end == ',' && end[1] != '\0')
			end++;
		else if (*end == '\n' && end[1] == '\0')
			end++;
		else if (*end != '\0')
			goto bad;
		p = end;
	}
	return 0;
bad:
	free(*mask);
	*mask = NULL;
	*n = 0;
	return werr(err, EINVAL, "%s: \"%s\" is not a list such as 0-3,8", what, list);
}

static int add_mask(struct sd_props *o, const char *name, const char *list, const char *what,
                    struct werror *err)
{
	uint8_t *m;
	size_t n;

	if (sd_cpuset_mask(list, what, &m, &n, err) < 0)
		return -1;
	if (add(o, name, 'y', 0, err) < 0) {
		free(m);
		return -1;
	}
	o->p[o->n - 1].bytes = m;
	o->p[o->n - 1].n_bytes = n;
	return 0;
}

static int memory_props(const struct oci_memory *m, bool v2, struct sd_props *o, struct werror *err)
{
	if (m->has_limit && add(o, v2 ? "MemoryMax" : "MemoryLimit", 't',
	                        m->limit < 0 ? SD_INFINITY : (uint64_t)m->limit, err) < 0)
		return -1;
	if (!v2)
		return 0;
	/* As cgroup_apply writes them: -1 is "max". */
	if (m->has_reservation &&
	    add(o, "MemoryLow", 't', m->reservation < 0 ? SD_INFINITY : (uint64_t)m->reservation,
	        err) < 0)
		return -1;
	/* OCI's swap is memory+swap; MemorySwapMax is swap alone (the swap
	 * itself without a memory limit). A swap below the limit is left to
	 * cgroup_apply, whose error names the field. */
	if (m->has_swap && m->swap < 0)
		return add(o, "MemorySwapMax", 't', SD_INFINITY, err);
	if (m->has_swap && !(m->has_limit && m->limit >= 0))
		return add(o, "MemorySwapMax", 't', (uint64_t)m->swap, err);
	if (m->has_swap && m->swap >= m->limit)
		return add(o, "MemorySwapMax", 't', (uint64_t)(m->swap - m->limit), err);
	return 0;
}

static int cpu_props(const struct oci_cpu *c, bool v2, struct sd_props *o, struct werror *err)
{
	if (c->has_shares && (v2 ? add(o, "CPUWeight", 't', cg2_shares_to_weight(c->shares), err)
	                         : add(o, "CPUShares", 't', c->shares, err)) < 0)
		return -1;
	if (c->has_quota || c->has_period) {
		uint64_t period = c->has_period && c->period ? c->period : 100000, q = SD_INFINITY;

		/* systemd keeps the quota per second at 10 ms granularity: round
		 * up (the exact value goes to cpu.max right after, as runc does). */
		if (c->has_quota && c->quota > 0 &&
		    (uint64_t)c->quota <= UINT64_MAX / 1000000 / 2) {
			q = (uint64_t)c->quota * 1000000 / period;
			if (q % 10000)
				q = (q / 10000 + 1) * 10000;
		}
		if (add(o, "CPUQuotaPerSecUSec", 't', q, err) < 0 ||
		    (c->has_period && add(o, "CPUQuotaPeriodUSec", 't', period, err) < 0))
			return -1;
	}
	/* systemd 252 has AllowedCPUs only on cgroup2. */
	if (v2 && c->cpus && c->cpus[0] &&
	    add_mask(o, "AllowedCPUs", c->cpus, "linux.resources.cpu.cpus", err) < 0)
		return -1;
	if (v2 && c->mems && c->mems[0] &&
	    add_mask(o, "AllowedMemoryNodes", c->mems, "linux.resources.cpu.mems", err) < 0)
		return -1;
	return 0;
}

/* linux.resources.unified keys systemd also writes from its properties
 * (a daemon-reload would undo the file otherwise): "max" or a number. */
static int unified_props(const struct oci_resources *r, struct sd_props *o, struct werror *err)
{
	static const struct {
		const char *key, *prop;
	} map[] = {{"memory.max", "MemoryMax"},          {"memory.high", "MemoryHigh"},
	           {"memory.low", "MemoryLow"},          {"memory.min", "MemoryMin"},
	           {"memory.swap.max", "MemorySwapMax"}, {"pids.max", "TasksMax"},
	           {"cpu.weight", "CPUWeight"}};

	for (size_t i = 0; i < r->n_unified; i++)
		for (size_t k = 0; k < sizeof(map) / sizeof(map[0]); k++) {
			const char *v = r->unified[i].value;
			char *end;
			unsigned long long n;

			if (strcmp(r->unified[i].key, map[k].key) != 0)
				continue;
			/* Anything else is the file's to refuse (cgroup_apply). */
			if (strcmp(v, "max") == 0 || strcmp(v, "max\n") == 0) {
				if (add(o, map[k].prop, 't', SD_INFINITY, err) < 0)
					return -1;
			} else if (v[0] >= '0' && v[0] <= '9' &&
			           (n = strtoull(v, &end, 10), *end == '\0')) {
				if (add(o, map[k].prop, 't', n, err) < 0)
					return -1;
			}
		}
	return 0;
}

int sd_props_from_resources(const struct oci_resources *r, bool v2, bool start, struct sd_props *o,
                            struct werror *err)
{
	uint64_t tasks =
	    r && r->pids && r->pids->limit > 0 ? (uint64_t)r->pids->limit : SD_INFINITY;

	memset(o, 0, sizeof(*o));
	if (start && (add(o, "MemoryAccounting", 'b', 1, err) < 0 ||
	              add(o, "CPUAccounting", 'b', 1, err) < 0 ||
	              add(o, "TasksAccounting", 'b', 1, err) < 0 ||
	              add(o, v2 ? "IOAccounting" : "BlockIOAccounting", 'b', 1, err) < 0))
		return -1;
	/* update: only what it names. */
	if ((start || (r && r->pids)) && add(o, "TasksMax", 't', tasks, err) < 0)
		return -1;
	if (r == NULL)
		return 0;
	if ((r->memory && memory_props(r->memory, v2, o, err) < 0) ||
	    (r->cpu && cpu_props(r->cpu, v2, o, err) < 0))
		goto fail;
	if (v2 && unified_props(r, o, err) < 0)
		goto fail;
	if (r->block_io && r->block_io->has_weight &&
	    (v2 ? add(o, "IOWeight", 't', cg2_blkio_to_io_weight(r->block_io->weight), err)
	        : add(o, "BlockIOWeight", 't', r->block_io->weight, err)) < 0)
		goto fail;
	return 0;
fail:
	sd_props_free(o);
	return -1;
}

void sd_props_free(struct sd_props *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->p[i].bytes);
	memset(p, 0, sizeof(*p));
}
