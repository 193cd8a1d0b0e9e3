/* rootfs/ and the mount primitives above a fake kernel (fake_sys_mount.h):
 * what each config.json mount asks the kernel for, in order, with which
 * attributes, onto which target, without root or a mount namespace. The
 * bats tests mount for real; these pin the sequences and the refusals.
 * The rootfs is a tmp directory; destinations resolve in it for real. */
#include "fake_sys_mount.h"
#include "tap.h"

#include "rootfs/masks.h"
#include "rootfs/mounts.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char base[256], root[300], mnts[300], outside[300];
static int rootfd = -1;

static void world(void)
{
	char cmd[PATH_MAX * 2];

	if (rootfd >= 0) {
		close(rootfd);
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
		if (system(cmd) != 0)
			abort();
	}
	snprintf(base, sizeof(base), "/tmp/ward-test-rootfs-XXXXXX");
	if (mkdtemp(base) == NULL)
		abort();
	snprintf(root, sizeof(root), "%s/root", base);
	snprintf(mnts, sizeof(mnts), "%s/mnts", base);
	snprintf(outside, sizeof(outside), "%s/outside", base);
	if (mkdir(root, 0755) < 0 || mkdir(mnts, 0755) < 0 || mkdir(outside, 0755) < 0)
		abort();
	rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		abort();
	fake_reset(root, mnts);
	werr_clear(err);
}

/* mount_entry for one entry; late_ro receives the read-only-later fd. */
static int entry(const char *dest, const char *type, const char *source, char **opts, size_t n,
                 int src_fd, int *late_ro)
{
	struct oci_mount m = {.destination = (char *)dest,
	                      .type = (char *)type,
	                      .source = (char *)source,
	                      .options = opts,
	                      .n_options = n};
	struct cgroup_self self = {0};

	int r;

	*late_ro = -1;
	werr_clear(err);
	r = mount_entry(rootfd, &m, src_fd, false, NULL, 0, 0, &self, late_ro, err);
	if (r < 0)
		diag("mount_entry %s: %s", dest, werr_msg(err));
	return r;
}

static bool expect(const char *const *lines, const char *what)
{
	int from = 0;

	for (size_t i = 0; lines[i]; i++)
		if (!fake_logged(lines[i], &from)) {
			ok(0, "%s: \"%s\" (in this order)", what, lines[i]);
			fake_dump();
			return false;
		}
	return ok(1, "%s", what);
}

static void tmpfs_shm(void)
{
	char *opts[] = {"nosuid", "noexec", "nodev", "mode=1777", "size=65536k"};
	int late;

	world();
	ok(entry("/dev/shm", "tmpfs", "shm", opts, 5, -1, &late) == 0, "tmpfs on /dev/shm");
	expect((const char *const[]){"fsopen tmpfs", "fsconfig source=shm", "fsconfig mode=1777",
	                             "fsconfig size=65536k", "fsconfig create",
	                             "fsmount tmpfs attr=NOSUID|NODEV|NOEXEC",
	                             "move mnt:tmpfs -> /dev/shm", NULL},
	       "tmpfs: made detached with its options one by one, attached to the destination");
	ok(late < 0, "a read-write tmpfs is not kept for later");
}

/* A read-only tmpfs is made writable, filled, and only then read-only on
 * its own fd (mounts_finish_readonly): never read-only in the sequence
 * before it is filled, and never left writable. */
static void tmpfs_readonly_later(void)
{
	char *opts[] = {"ro", "nosuid"};
	struct oci_mount m = {.destination = "/dev"};
	struct oci_config c = {.mounts = &m, .n_mounts = 1};
	int late, from = 0;

	world();
	ok(entry("/dev", "tmpfs", "tmpfs", opts, 2, -1, &late) == 0, "ro tmpfs");
	ok(fake_logged("fsmount tmpfs attr=NOSUID", &from), "ro tmpfs: made without RDONLY");
	ok(late >= 0, "ro tmpfs: its fd kept for later");
	ok(!fake_logged_prefix("setattr mnt:tmpfs set=RDONLY"), "not read-only yet");
	ok(mounts_finish_readonly(&c, &late, err) == 0, "finish read-only");
	ok(fake_logged("setattr mnt:tmpfs set=RDONLY clr=0", &from),
	   "then read-only on its own fd");
	if (!fake_logged("setattr mnt:tmpfs set=RDONLY clr=0", NULL))
		fake_dump();
	ok(late == -1, "and the fd closed");
}

static void bind_readonly(void)
{
	char *opts[] = {"rbind", "ro", "nosuid", "nodev"};
	char src[PATH_MAX + 32];
	int sfd, late;

	world();
	snprintf(src, sizeof(src), "%s/vol", outside);
	if (mkdir(src, 0755) < 0 || (sfd = open(src, O_PATH | O_CLOEXEC)) < 0)
		abort();
	ok(entry("/data", "bind", src, opts, 4, sfd, &late) == 0, "ro rbind");
	char l1[PATH_MAX + 64], l2[PATH_MAX + 128], l3[PATH_MAX + 128], l4[PATH_MAX + 128];
	snprintf(l1, sizeof(l1), "open_tree host:%s recursive clone", src);
	snprintf(l2, sizeof(l2), "setattr tree(host:%s) recursive set=0 clr=0 slave", src);
	snprintf(l3, sizeof(l3), "setattr tree(host:%s) set=RDONLY|NOSUID|NODEV clr=0", src);
	snprintf(l4, sizeof(l4), "move tree(host:%s) -> /data", src);
	expect((const char *const[]){l1, l2, l3, l4, NULL},
	       "bind: a recursive clone of the source's fd, made a slave, its attributes set "
	       "while detached, then attached");
	ok(access(root, F_OK) == 0 && faccessat(rootfd, "data", F_OK, 0) == 0,
	   "the destination was made inside the rootfs");
	close(sfd);
}

/* CVE-2023-25809: in a user namespace without its own cgroup namespace a
 * read-only recursive bind is read-only all the way down. */
static void bind_rro_in_userns(void)
{
	char *opts[] = {"rbind", "ro"};
	struct oci_mount m = {
	    .destination = "/sys", .type = "bind", .options = opts, .n_options = 2};
	struct cgroup_self self = {.read_only = true};
	char line[PATH_MAX + 128];
	int sfd, late = -1;

	world();
	m.source = outside;
	sfd = open(outside, O_PATH | O_CLOEXEC);
	ok(mount_entry(rootfd, &m, sfd, false, NULL, 0, 0, &self, &late, err) == 0,
	   "rbind ro under read_only cgroups");
	snprintf(line, sizeof(line), "setattr tree(host:%s) recursive set=RDONLY clr=0", outside);
	ok(fake_logged(line, NULL), "read-only on every mount of the tree (CVE-2023-25809)");
	if (!fake_logged(line, NULL))
		fake_dump();
	close(sfd);
}

/* CVE-2019-16884 class: what goes on /proc must be procfs, checked on the
 * new mount itself; a filesystem that is not is never attached. */
static void proc_type_checked(void)
{
	char *opts[] = {"nosuid", "noexec", "nodev"};
	int late;

	world();
	ok(entry("/proc", "proc", "proc", opts, 3, -1, &late) == 0, "proc");
	ok(fake_logged("move mnt:proc -> /proc", NULL), "a real procfs is attached");
	world();
	fake_fs_lies = true;
	ok(entry("/proc", "proc", "proc", opts, 3, -1, &late) < 0 &&
	       strstr(werr_msg(err), "not proc") != NULL,
	   "a new mount that is not procfs is refused");
	ok(!fake_logged_prefix("move "), "and never attached");
	world();
	fake_fs_lies = true;
	ok(entry("/sys", "sysfs", "sysfs", opts, 3, -1, &late) < 0 && !fake_logged_prefix("move "),
	   "the same for sysfs");
}

/* A destination is resolved inside the rootfs whatever the image plants:
 * a symlink to the host's directory, absolute or by "..", is followed as
 * if the rootfs were "/" (CVE-2021-30465 class). */
static void destination_stays_inside(void)
{
	static const char *const targets[] = {"", "../../../../../../..", "/../..", NULL};
	char *opts[] = {"nosuid"};

	for (size_t i = 0; targets[i]; i++)
		for (int mirror = 0; mirror < 2; mirror++) {
			char link[600], probe[700], cmd[1400];
			int late, r;

			world();
			snprintf(link, sizeof(link), "%s%s", targets[i], outside);
			if (symlinkat(link, rootfd, "evil") < 0)
				abort();
			/* mirror: the path the link names exists inside the rootfs
			 * too (else the link dangles there) */
			snprintf(cmd, sizeof(cmd), "mkdir -p '%s%s'", root, outside);
			if (mirror && system(cmd) != 0)
				abort();
			r = entry("/evil/x", "tmpfs", "tmpfs", opts, 1, -1, &late);
			snprintf(probe, sizeof(probe), "%s/x", outside);
			ok(access(probe, F_OK) < 0, "nothing made outside the rootfs (\"%s...\"%s)",
			   targets[i], mirror ? "" : ", dangling inside");
			ok(!fake_logged_prefix("move mnt:tmpfs -> host:"),
			   "never attached outside the rootfs");
			if (mirror) {
				snprintf(probe, sizeof(probe), "move mnt:tmpfs -> %s/x", outside);
				ok(r == 0 && fake_logged(probe, NULL),
				   "attached where the link leads inside the rootfs");
			} else {
				ok(r < 0 && !fake_logged_prefix("move "),
				   "a link dangling inside the rootfs: refused, nothing attached");
			}
		}
}

/* A filesystem's refusal of an option stops the mount before anything is
 * attached, and the error names the entry. */
static void option_refused(void)
{
	char *opts[] = {"nosuchopt=1"};
	int late;

	world();
	fake_fail_on = "fsconfig nosuchopt=1";
	ok(entry("/tmp", "tmpfs", "tmpfs", opts, 1, -1, &late) < 0 &&
	       strstr(werr_msg(err), "mounts[0] (/tmp)") != NULL,
	   "a refused option fails the entry");
	ok(!fake_logged_prefix("fsmount") && !fake_logged_prefix("move "),
	   "nothing mounted or attached");
}

/* tmpcopyup: the directory's contents are copied into the new tmpfs
 * before it covers them. */
static void tmpcopyup(void)
{
	char *opts[] = {"tmpcopyup"};
	char probe[PATH_MAX * 2];
	int fd, late;

	world();
	if (mkdirat(rootfd, "etc", 0755) < 0)
		abort();
	snprintf(probe, sizeof(probe), "%s/etc/hosts", root);
	fd = open(probe, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, "x\n", 2) != 2)
		abort();
	close(fd);
	ok(entry("/etc", "tmpfs", "tmpfs", opts, 1, -1, &late) == 0, "tmpcopyup");
	snprintf(probe, sizeof(probe), "%s/mnt%d/hosts", mnts, fake_mnt_seq);
	ok(access(probe, F_OK) == 0, "the file is in the new tmpfs");
	ok(fake_logged("move mnt:tmpfs -> /etc", NULL), "then attached");
}

/* Propagation asked for in the options goes on the attached mount, by fd. */
static void propagation(void)
{
	char *opts[] = {"rbind", "rshared"};
	char line[PATH_MAX + 64];
	int sfd, late;

	world();
	sfd = open(outside, O_PATH | O_CLOEXEC);
	ok(entry("/shared", "bind", outside, opts, 2, sfd, &late) == 0, "rshared bind");
	snprintf(line, sizeof(line), "mount - tree(host:%s) - 0x%lx -", outside,
	         (unsigned long)(MS_SHARED | MS_REC));
	ok(fake_logged(line, NULL), "propagation set on the attached tree's fd");
	if (!fake_logged(line, NULL))
		fake_dump();
	close(sfd);
}

/* maskedPaths: a directory gets an empty read-only tmpfs on its own fd,
 * a file the host's verified /dev/null; a path the image makes a symlink
 * to the host's file is masked where the link leads inside the rootfs;
 * a missing one is skipped. readonlyPaths: a read-only bind onto itself. */
static void masks(void)
{
	char *masked[] = {"/proc/kcore", "/proc/acpi", "/proc/nothere", "/proc/evil"};
	char *ro[] = {"/proc/sys", "/proc/gone"};
	struct oci_linux l = {.masked_paths = masked,
	                      .n_masked_paths = 4,
	                      .readonly_paths = ro,
	                      .n_readonly_paths = 2};
	char host_file[400], cmd[4096];
	int from = 0, fd;

	world();
	snprintf(host_file, sizeof(host_file), "%s/secret", outside);
	snprintf(
	    cmd, sizeof(cmd),
	    "mkdir -p '%s/proc/acpi' '%s/proc/sys' '%s/%s' && touch '%s' '%s/proc/kcore' '%s/%s'",
	    root, root, root, outside, host_file, root, root, host_file);
	if (system(cmd) != 0)
		abort();
	snprintf(cmd, sizeof(cmd), "%s", host_file);
	if ((fd = openat(rootfd, "proc", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0 ||
	    symlinkat(cmd, fd, "evil") < 0)
		abort();
	close(fd);
	ok(rootfs_mask_paths(rootfd, &l, err) == 0, "maskedPaths");
	ok(fake_logged("setattr tree(host:/dev/null) recursive set=0 clr=0 slave", &from) &&
	       fake_logged("move tree(host:/dev/null) -> /proc/kcore", &from),
	   "a file: the host's /dev/null bound on it");
	ok(fake_logged("mount tmpfs /proc/acpi tmpfs 0xf size=0,mode=0555", &from),
	   "a directory: an empty read-only tmpfs on its fd");
	snprintf(cmd, sizeof(cmd), "move tree(host:/dev/null) -> %s", host_file);
	ok(fake_logged(cmd, &from), "a symlink: masked where it leads inside the rootfs");
	ok(!fake_logged_prefix("move tree(host:/dev/null) -> host:") &&
	       !fake_logged_substr("nothere"),
	   "never outside, a missing path skipped");
	from = fake_n;
	ok(rootfs_readonly_paths(rootfd, &l, err) == 0, "readonlyPaths");
	ok(fake_logged("open_tree /proc/sys recursive clone", &from) &&
	       fake_logged("setattr tree(/proc/sys) set=RDONLY|NOSUID|NODEV clr=0", &from) &&
	       fake_logged("move tree(/proc/sys) -> /proc/sys", &from),
	   "readonlyPaths: a read-only recursive bind onto itself");
	ok(!fake_logged_substr("/proc/gone"), "a missing read-only path skipped");
}

int main(void)
{
	tmpfs_shm();
	tmpfs_readonly_later();
	bind_readonly();
	bind_rro_in_userns();
	proc_type_checked();
	destination_stays_inside();
	option_refused();
	tmpcopyup();
	propagation();
	masks();
	{
		char cmd[PATH_MAX * 2];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
		if (system(cmd) != 0)
			return 1;
	}
	return tap_done();
}
