/* runc's systemd cgroupsPath, "slice:prefix:name", into the unit and the
 * cgroup path systemd gives it (systemd.slice(5): a dash in a slice's name
 * is a level of the tree). */
#include "cgroup/cg_systemd.h"
#include "lib/error.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
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
static int expand_slice(const char *slice, const char *given, char *out, size_t len)
{
	size_t n = strlen(slice), base, k = 0;

	out[0] = '\0';
	if (n < 6 || strcmp(slice + n - 6, ".slice") != 0 || !unit_chars_ok(slice, n))
		return werr(0,
		            WHAT " \"%s\": the slice \"%s\" is not a slice unit name (NAME.slice)",
		            given, slice);
	if (strcmp(slice, "-.slice") == 0)
		return 0;
	base = n - 6;
	for (size_t i = 0; i <= base; i++) {
		if (i < base && slice[i] != '-')
			continue;
		/* A level ends here: its name is slice[0..i) + ".slice". */
		if (i == 0 || slice[i - 1] == '-')
			return werr(0,
			            WHAT " \"%s\": the slice \"%s\" has an empty level (a leading, "
			                 "trailing or double dash)",
			            given, slice);
		if (k + i + 8 >= len)
			return werr(ENAMETOOLONG, WHAT " \"%s\": too long", given);
		k += (size_t)snprintf(out + k, len - k, "/%.*s.slice", (int)i, slice);
	}
	return 0;
}

int sd_parse_path(const char *cgroups_path, const char *id, char *path, size_t path_len, char *unit,
                  size_t unit_len, char *slice, size_t slice_len)
{
	char given[SD_UNIT_MAX * 3], sl[SD_UNIT_MAX], pre[SD_UNIT_MAX], name[SD_UNIT_MAX];
	char spath[SD_UNIT_MAX * 4];
	const char *c1, *c2;
	int n;

	if (cgroups_path == NULL || cgroups_path[0] == '\0')
		snprintf(given, sizeof(given), "system.slice:ward:%s", id);
	else if ((size_t)snprintf(given, sizeof(given), "%s", cgroups_path) >= sizeof(given))
		return werr(ENAMETOOLONG, WHAT ": too long for a unit name");
	c1 = strchr(given, ':');
	c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	if (c1 == NULL || c2 == NULL || strchr(c2 + 1, ':'))
		return werr(0,
		            WHAT " \"%s\": the systemd cgroup manager takes \"slice:prefix:name\" "
		                 "(as runc's --systemd-cgroup), not a cgroupfs path",
		            given);
	/* Each part whole or not at all: a cut slice would be another slice. */
	if (c1 - given >= (ptrdiff_t)sizeof(sl) || c2 - c1 - 1 >= (ptrdiff_t)sizeof(pre) ||
	    strlen(c2 + 1) >= sizeof(name))
		return werr(ENAMETOOLONG, WHAT " \"%s\": a part is too long for a unit name",
		            given);
	snprintf(sl, sizeof(sl), "%.*s", (int)(c1 - given), given);
	snprintf(pre, sizeof(pre), "%.*s", (int)(c2 - c1 - 1), c1 + 1);
	snprintf(name, sizeof(name), "%s", c2 + 1);
	if (sl[0] == '\0')
		snprintf(sl, sizeof(sl), "system.slice");
	if (name[0] == '\0')
		return werr(0, WHAT " \"%s\": the name (after the second ':') is empty", given);
	if (!unit_chars_ok(pre, strlen(pre)) || !unit_chars_ok(name, strlen(name)))
		return werr(0,
		            WHAT " \"%s\": prefix and name may hold only letters, digits and "
		                 "\":_.-\" (they make the unit's name)",
		            given);
	if (strlen(name) > 6 && strcmp(name + strlen(name) - 6, ".slice") == 0)
		return werr(0,
		            WHAT " \"%s\": a name ending in .slice (a slice of the container's "
		                 "own) is not supported; ward makes a scope",
		            given);
	if (expand_slice(sl, given, spath, sizeof(spath)) < 0)
		return -1;
	n = pre[0] ? snprintf(unit, unit_len, "%s-%s.scope", pre, name)
	           : snprintf(unit, unit_len, "%s.scope", name);
	if (n < 0 || (size_t)n >= unit_len || (size_t)n >= SD_UNIT_MAX)
		return werr(ENAMETOOLONG, WHAT " \"%s\": the unit name is too long", given);
	if ((size_t)snprintf(slice, slice_len, "%s", sl) >= slice_len ||
	    (size_t)snprintf(path, path_len, "%s/%s", spath, unit) >= path_len)
		return werr(ENAMETOOLONG, WHAT " \"%s\": too long", given);
	return 0;
}
