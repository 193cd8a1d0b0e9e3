#include "linux/hostns.h"
#include "oci/names.h"

#include <stdio.h>
#include <sys/stat.h>

bool ns_is_hosts(const char *path, int flag)
{
	const char *pn = oci_ns_proc_name(flag);
	char own[64];
	struct stat a, b;

	if (pn == NULL || stat(path, &a) < 0)
		return false;
	for (int i = 0; i < 2; i++) {
		snprintf(own, sizeof(own), "/proc/%s/ns/%s", i ? "1" : "self", pn);
		if (stat(own, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			return true;
	}
	return false;
}
