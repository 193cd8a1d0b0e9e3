#include "rootfs/mount_opts.h"
#include "lib/error.h"

#include <errno.h>
#include <libmount.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>

bool mount_is_bind(const struct oci_mount *m)
{
	if (m->type && strcmp(m->type, "bind") == 0)
		return true;
	for (size_t i = 0; i < m->n_options; i++)
		if (strcmp(m->options[i], "bind") == 0 || strcmp(m->options[i], "rbind") == 0)
			return true;
	return false;
}

void mount_opts_free(struct mount_opts *o)
{
	free(o->data);
	o->data = NULL;
}

/* The runtime-spec's recursive variants (mount_setattr(2) with
 * AT_RECURSIVE); libmount does not know them. */
static const struct {
	const char *name;
	unsigned long attr;
	bool clear;
} rec_opts[] = {
    {"rro", MOUNT_ATTR_RDONLY, false},
    {"rrw", MOUNT_ATTR_RDONLY, true},
    {"rnosuid", MOUNT_ATTR_NOSUID, false},
    {"rsuid", MOUNT_ATTR_NOSUID, true},
    {"rnodev", MOUNT_ATTR_NODEV, false},
    {"rdev", MOUNT_ATTR_NODEV, true},
    {"rnoexec", MOUNT_ATTR_NOEXEC, false},
    {"rexec", MOUNT_ATTR_NOEXEC, true},
    {"rnodiratime", MOUNT_ATTR_NODIRATIME, false},
    {"rdiratime", MOUNT_ATTR_NODIRATIME, true},
    {"rnosymfollow", MOUNT_ATTR_NOSYMFOLLOW, false},
    {"rsymfollow", MOUNT_ATTR_NOSYMFOLLOW, true},
};

static bool rec_option(const char *opt, struct mount_opts *o)
{
	for (size_t i = 0; i < sizeof(rec_opts) / sizeof(rec_opts[0]); i++)
		if (strcmp(opt, rec_opts[i].name) == 0) {
			if (rec_opts[i].clear) {
				o->rec_clr |= rec_opts[i].attr;
				o->rec_set &= ~rec_opts[i].attr;
			} else {
				o->rec_set |= rec_opts[i].attr;
				o->rec_clr &= ~rec_opts[i].attr;
			}
			return true;
		}
	return false;
}

/* opt ("name=value") names an option of the kernel's flag map. */
static bool flag_option(const struct libmnt_optmap *map, const char *opt)
{
	size_t n = strcspn(opt, "=");

	for (; map && map->name; map++) {
		size_t m = strcspn(map->name, "=[");

		if (m == n && strncmp(map->name, opt, n) == 0)
			return true;
	}
	return false;
}

int mount_parse_options(char *const *opts, size_t n, struct mount_opts *o, struct werror *err)
{
	const struct libmnt_optmap *linux_map = mnt_get_builtin_optmap(MNT_LINUX_MAP);
	char *vfs = NULL, *fs = NULL;

	memset(o, 0, sizeof(*o));
	for (size_t i = 0; i < n; i++) {
		unsigned long set = 0, all = 0;
		char *vfs1 = NULL, *fs1 = NULL;

		if (opts[i][0] == '\0' || strchr(opts[i], ',') != NULL)
			return werr_k(err, WERR_INVALID, 0,
			              "option \"%s\": must be a single, non-empty option", opts[i]);
		if (rec_option(opts[i], o))
			continue;
		/* idmap/ridmap: the tree was idmapped by the parent (idmap.c). */
		if (strcmp(opts[i], "idmap") == 0 || strcmp(opts[i], "ridmap") == 0)
			continue;
		/* Options of Podman/crun, not of the kernel (a tmpfs over an image
		 * directory starts as a copy of it). */
		if (strcmp(opts[i], "tmpcopyup") == 0 || strcmp(opts[i], "notmpcopyup") == 0) {
			o->tmpcopyup = opts[i][0] == 't';
			continue;
		}
		/* "rw=", "remount=x": libmount reads a flag option with a value as
		 * the flag, which would slip past every check on the option's
		 * spelling (a policy's "remount" refusal, its forced "ro"). */
		if (strchr(opts[i], '=') && flag_option(linux_map, opts[i]))
			return werr_k(err, WERR_INVALID, 0, "option \"%s\": %.*s takes no value",
			              opts[i], (int)strcspn(opts[i], "="), opts[i]);
		if (mnt_split_optstr(opts[i], NULL, &vfs1, &fs1, 0, 0) != 0)
			return werr(err, ENOMEM, "parsing option \"%s\"", opts[i]);
		if (vfs1 != NULL) {
			/* What "rw"/"suid"/... clear shows as a bit that flips when
			 * the option is applied to all-ones. */
			all = ~0UL;
			mnt_optstr_get_flags(vfs1, &set, linux_map);
			mnt_optstr_get_flags(vfs1, &all, linux_map);
			if (set & MS_BIND) {
				o->bind = true;
				o->recursive = o->recursive || (set & MS_REC);
			} else if (set & PROPAGATION_MASK) {
				o->propagation = set & (PROPAGATION_MASK | MS_REC);
			} else {
				/* Later options win over earlier ones. */
				o->flags = (o->flags | set) & all;
				o->cleared = (o->cleared | ~all) & ~set;
			}
			free(vfs1);
		}
		if (fs1 != NULL) {
			size_t a = fs ? strlen(fs) : 0, b = strlen(fs1);
			char *nfs = realloc(fs, a + b + 2);

			if (nfs == NULL) {
				free(fs1);
				free(fs);
				return werr(err, ENOMEM, "out of memory");
			}
			if (a)
				nfs[a++] = ',';
			memcpy(nfs + a, fs1, b + 1);
			fs = nfs;
			free(fs1);
		}
	}
	free(vfs);
	o->data = fs;
	return 0;
}

bool mount_is_read_only(const struct oci_mount *m, struct werror *err)
{
	struct mount_opts o;
	bool ro;

	if (mount_parse_options(m->options, m->n_options, &o, err) < 0)
		return false;
	ro = (o.flags & MS_RDONLY) || (o.rec_set & MOUNT_ATTR_RDONLY);
	mount_opts_free(&o);
	return ro;
}
