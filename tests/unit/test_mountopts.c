/* Mount option parsing through libmount. */
#include "lib/error.h"
#include "rootfs/mount_opts.h"
#include "tap.h"

#include <string.h>
#include <sys/mount.h>

static int parse(const char *const *opts, size_t n, struct mount_opts *o)
{
	return mount_parse_options((char *const *)opts, n, o, err);
}

int main(void)
{
	struct mount_opts o;

	{
		const char *v[] = {"nosuid", "noexec", "mode=755", "size=65536k", "strictatime"};

		ok(parse(v, 5, &o) == 0, "tmpfs options parse");
		ok((o.flags & (MS_NOSUID | MS_NOEXEC | MS_STRICTATIME)) ==
		       (MS_NOSUID | MS_NOEXEC | MS_STRICTATIME),
		   "vfs flags");
		ok(o.data && strcmp(o.data, "mode=755,size=65536k") == 0, "fs data kept in order");
		mount_opts_free(&o);
	}
	{
		const char *v[] = {"rbind", "ro", "rprivate"};

		ok(parse(v, 3, &o) == 0 && o.bind && o.recursive, "rbind");
		ok(o.flags & MS_RDONLY, "ro");
		ok(o.propagation == (MS_PRIVATE | MS_REC), "rprivate propagation");
		ok(o.data == NULL, "no fs data");
		mount_opts_free(&o);
	}
	{
		const char *v[] = {"ro", "rw", "nosuid", "suid", "nodev"};

		ok(parse(v, 5, &o) == 0, "conflicting options parse");
		ok(!(o.flags & MS_RDONLY) && (o.cleared & MS_RDONLY), "later rw wins over ro");
		ok(!(o.flags & MS_NOSUID) && (o.cleared & MS_NOSUID), "later suid wins");
		ok(o.flags & MS_NODEV, "nodev kept");
		mount_opts_free(&o);
	}
	{
		const char *v[] = {"bind", "bogus-option"};

		ok(parse(v, 2, &o) == 0 && o.bind && o.data && strcmp(o.data, "bogus-option") == 0,
		   "unknown options are collected as data");
		mount_opts_free(&o);
	}
	{
		const char *v[] = {"rbind", "rro", "rnosuid", "rsuid", "rnoexec"};

		ok(parse(v, 5, &o) == 0 && o.data == NULL, "recursive options are not fs data");
		ok(o.rec_set == (MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOEXEC) &&
		       o.rec_clr == MOUNT_ATTR_NOSUID && !(o.flags & MS_RDONLY),
		   "rro/rnoexec set, a later rsuid clears rnosuid, none of them top-only");
		mount_opts_free(&o);
	}
	{
		const char *v[] = {"ro,nosuid"};

		ok(parse(v, 1, &o) < 0 && strstr(werr_msg(err), "single"),
		   "comma-joined option refused");
	}
	/* libmount reads a flag option with a value as the flag: "rw=" after
	 * "ro" made a forced read-only mount writable, "remount=" remounted. */
	{
		static const char *const bad[][2] = {
		    {"rw=", "option \"rw=\": rw takes no value"},
		    {"remount=x", "option \"remount=x\": remount takes no value"},
		    {"nosuid=1", "option \"nosuid=1\": nosuid takes no value"},
		    {"bind=", "option \"bind=\": bind takes no value"}};

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			const char *v[] = {"ro", bad[i][0]};

			/* ok()'s arguments are evaluated in any order: the message
			 * read for the text must not be one parse() replaces. */
			werr_clear(err);
			ok(parse(v, 2, &o) < 0 && strcmp(werr_msg(err), bad[i][1]) == 0,
			   "flag option with a value refused: %s (%s)", bad[i][0], werr_msg(err));
		}
	}
	{
		const char *v[] = {"size=64m", "mode=1777", "lowerdir=/a"};

		ok(parse(v, 3, &o) == 0 && o.data &&
		       strcmp(o.data, "size=64m,mode=1777,lowerdir=/a") == 0,
		   "filesystem options with values still pass");
		mount_opts_free(&o);
	}
	return tap_done();
}
