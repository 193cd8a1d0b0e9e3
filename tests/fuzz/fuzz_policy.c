/* libFuzzer target: the operator policy (ward-policy(7)) must never crash,
 * leak or hang, whatever the bytes. Each input is
 *
 *  1. a policy file: policy_parse, as `ward --policy FILE` reads it;
 *  2. when it parses, the policy applied the way `ward check` and create
 *     apply it (policy_ctx_init, then policy_apply with host facts) to a few
 *     fixed configs, under each profile, on a faked host (the approach of
 *     tests/unit/test_policy_rules.c: no root, nothing on the host looked
 *     at); then the record create writes (policy_record_gen) read back the
 *     way exec reads it (policy_prepare), which must give the same profile
 *     and opt-outs;
 *  3. a policy record, as exec reads it (policy_prepare with .record).
 *
 * Build and run with `make fuzz-run`. Deterministic; touches no file (the
 * audit lines go to a memfd). */
#include "cgroup/dev_rules.h"
#include "facts/host_facts.h"
#include "lib/error.h"
#include "oci/config.h"
#include "policy/policy.h"
#include "policy/prepare.h"
#include "policy/rules.h"

#include <errno.h>
#include <linux/capability.h>
#include <linux/magic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "../unit/fake_sens.h"

/* The error object the code under test records into. */
static struct werror fuzz_err;
static struct werror *const err = &fuzz_err;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define BIT(c) (1ULL << (c))

/* ---- the configs: `ward spec` (its seccomp list cut short) and two that
 * ask for much of what the policy refuses. "%s" is where the annotations
 * go (members of an object, each with a leading comma). ---- */

static const char cfg_spec[] =
    "{\"ociVersion\":\"1.2.0\",\"process\":{\"terminal\":false,\"user\":{\"uid\":0,\"gid\":0},"
    "\"args\":[\"sh\"],\"env\":[\"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:"
    "/bin\",\"TERM=xterm\"],\"cwd\":\"/\",\"capabilities\":{\"bounding\":[\"CAP_AUDIT_WRITE\","
    "\"CAP_KILL\",\"CAP_NET_BIND_SERVICE\"],\"effective\":[\"CAP_AUDIT_WRITE\",\"CAP_KILL\","
    "\"CAP_NET_BIND_SERVICE\"],\"permitted\":[\"CAP_AUDIT_WRITE\",\"CAP_KILL\","
    "\"CAP_NET_BIND_SERVICE\"]},\"rlimits\":[{\"type\":\"RLIMIT_NOFILE\",\"hard\":1024,"
    "\"soft\":1024}],\"noNewPrivileges\":true},\"root\":{\"path\":\"rootfs\",\"readonly\":true},"
    "\"hostname\":\"ward\",\"mounts\":["
    "{\"destination\":\"/proc\",\"type\":\"proc\",\"source\":\"proc\",\"options\":[\"nosuid\","
    "\"noexec\",\"nodev\"]},"
    "{\"destination\":\"/dev\",\"type\":\"tmpfs\",\"source\":\"tmpfs\",\"options\":[\"nosuid\","
    "\"noexec\",\"strictatime\",\"mode=755\",\"size=65536k\"]},"
    "{\"destination\":\"/dev/pts\",\"type\":\"devpts\",\"source\":\"devpts\",\"options\":["
    "\"nosuid\",\"noexec\",\"newinstance\",\"ptmxmode=0666\",\"mode=0620\",\"gid=5\"]},"
    "{\"destination\":\"/dev/shm\",\"type\":\"tmpfs\",\"source\":\"shm\",\"options\":[\"nosuid\","
    "\"noexec\",\"nodev\",\"mode=1777\",\"size=65536k\"]},"
    "{\"destination\":\"/dev/mqueue\",\"type\":\"mqueue\",\"source\":\"mqueue\",\"options\":["
    "\"nosuid\",\"noexec\",\"nodev\"]},"
    "{\"destination\":\"/sys\",\"type\":\"sysfs\",\"source\":\"sysfs\",\"options\":[\"nosuid\","
    "\"noexec\",\"nodev\",\"ro\"]},"
    "{\"destination\":\"/tmp\",\"type\":\"tmpfs\",\"source\":\"tmpfs\",\"options\":[\"nosuid\","
    "\"nodev\",\"noexec\",\"mode=1777\",\"size=65536k\"]}],"
    "\"annotations\":{\"org.opencontainers.image.title\":\"fuzz\"%s},"
    "\"linux\":{\"namespaces\":[{\"type\":\"pid\"},{\"type\":\"network\"},{\"type\":\"ipc\"},"
    "{\"type\":\"uts\"},{\"type\":\"mount\"},{\"type\":\"cgroup\"}],"
    "\"maskedPaths\":[\"/proc/acpi\",\"/proc/kcore\",\"/proc/keys\",\"/sys/firmware\"],"
    "\"readonlyPaths\":[\"/proc/bus\",\"/proc/fs\",\"/proc/irq\",\"/proc/sys\","
    "\"/proc/sysrq-trigger\"],"
    "\"seccomp\":{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"defaultErrnoRet\":1,"
    "\"architectures\":[\"SCMP_ARCH_X86_64\",\"SCMP_ARCH_X86\",\"SCMP_ARCH_X32\"],"
    "\"syscalls\":[{\"names\":[\"read\",\"write\",\"exit_group\"],"
    "\"action\":\"SCMP_ACT_ALLOW\"}]}}}";

/* The host's network (no network namespace), its pid namespace by path,
 * binds of what is the host's, devices, capabilities, secrets in the
 * environment, hooks of every kind; no seccomp, no limits. */
static const char cfg_hostile[] =
    "{\"ociVersion\":\"1.2.0\",\"process\":{\"user\":{\"uid\":0,\"gid\":0},\"args\":[\"sh\"],"
    "\"cwd\":\"/\",\"env\":[\"PATH=/bin\",\"API_TOKEN=x\",\"aws_region=y\",\"GITHUB_SHA=z\","
    "\"DB_PASSWORD=p\",\"HOME=/root\"],\"capabilities\":{\"bounding\":[\"CAP_SYS_ADMIN\","
    "\"CAP_SYS_PTRACE\",\"CAP_NET_ADMIN\",\"CAP_CHOWN\",\"CAP_SYS_MODULE\"],\"effective\":["
    "\"CAP_SYS_ADMIN\",\"CAP_CHOWN\"],\"permitted\":[\"CAP_SYS_ADMIN\",\"CAP_CHOWN\"],"
    "\"ambient\":[\"CAP_CHOWN\"]}},\"root\":{\"path\":\"rootfs\"},\"mounts\":["
    "{\"destination\":\"/proc\",\"type\":\"proc\",\"source\":\"proc\"},"
    "{\"destination\":\"/sys\",\"type\":\"sysfs\",\"source\":\"sysfs\"},"
    "{\"destination\":\"/sys/fs/cgroup\",\"type\":\"cgroup\",\"source\":\"cgroup\","
    "\"options\":[\"rw\"]},"
    "{\"destination\":\"/host-etc\",\"type\":\"bind\",\"source\":\"/etc\",\"options\":["
    "\"rbind\"]},"
    "{\"destination\":\"/etc/resolv.conf\",\"type\":\"bind\",\"source\":\"/etc/resolv.conf\","
    "\"options\":[\"bind\",\"ro\"]},"
    "{\"destination\":\"/data\",\"type\":\"bind\",\"source\":\"/var/lib/data\",\"options\":["
    "\"rbind\"]},"
    "{\"destination\":\"/srv\",\"source\":\"/srv\",\"options\":[\"rbind\",\"ro\"]},"
    "{\"destination\":\"/scratch\",\"type\":\"bind\",\"source\":\"/srv/data\",\"options\":["
    "\"bind\"]},"
    "{\"destination\":\"/var/run/docker.sock\",\"type\":\"bind\","
    "\"source\":\"/var/run/docker.sock\",\"options\":[\"bind\"]},"
    "{\"destination\":\"/usr\",\"type\":\"bind\",\"source\":\"/usr\",\"options\":[\"rbind\","
    "\"idmap\"]},"
    "{\"destination\":\"/gone\",\"type\":\"bind\",\"source\":\"/srv/missing\",\"options\":["
    "\"bind\"]},"
    "{\"destination\":\"/merged\",\"type\":\"overlay\",\"source\":\"overlay\",\"options\":["
    "\"lowerdir=/srv/o/l1:/srv/o/l2\",\"upperdir=/srv/o/up\",\"workdir=/srv/o/work\"]},"
    "{\"destination\":\"/tmp\",\"type\":\"tmpfs\",\"source\":\"tmpfs\"},"
    "{\"destination\":\"/dev\",\"type\":\"tmpfs\",\"source\":\"tmpfs\",\"options\":["
    "\"mode=755\"]},"
    "{\"destination\":\"/dev/net/tun\",\"type\":\"bind\",\"source\":\"/dev/net/tun\","
    "\"options\":[\"bind\"]},"
    "{\"destination\":\"/bus\",\"type\":\"bind\","
    "\"source\":\"/run/dbus/system_bus_socket\",\"options\":[\"bind\"]},"
    "{\"destination\":\"/psys\",\"type\":\"bind\",\"source\":\"/proc/sys\",\"options\":["
    "\"rbind\",\"ro\"]},"
    "{\"destination\":\"/vol\",\"type\":\"bind\","
    "\"source\":\"/var/lib/containers/storage/volumes/v\",\"options\":[\"bind\"]},"
    "{\"destination\":\"/big\",\"type\":\"bind\",\"source\":\"/srv/big\",\"options\":["
    "\"rbind\"]},"
    "{\"destination\":\"/eng\",\"type\":\"bind\",\"source\":\"/srv/engine\",\"options\":["
    "\"rbind\",\"ro\"]},"
    "{\"destination\":\"/nfs\",\"type\":\"nfs\",\"source\":\"srv:/x\"},"
    "{\"destination\":\"/proc2\",\"type\":\"proc\",\"source\":\"proc\"},"
    "{\"destination\":\"/ro\",\"type\":\"tmpfs\",\"source\":\"tmpfs\",\"options\":["
    "\"remount\",\"ro\"]}],"
    "\"hooks\":{\"prestart\":[{\"path\":\"/usr/libexec/oci/hooks.d/h\"},"
    "{\"path\":\"/tmp/h\"}],\"createRuntime\":[{\"path\":\"/usr/libexec/oci/hooks.d/.h\"}],"
    "\"poststart\":[{\"path\":\"/srv/data/hook\"}],\"poststop\":[{\"path\":\"/opt/missing\"},"
    "{\"path\":\"/srv/bundle/h\"},{\"path\":\"/srv/bundle/rootfs/bin/h\"}],"
    "\"startContainer\":[{\"path\":\"/bin/true\"}]},"
    "\"annotations\":{\"org.ward.allow.host-ipc\":\"yes\"%s},"
    "\"linux\":{\"namespaces\":[{\"type\":\"pid\",\"path\":\"/proc/1/ns/pid\"},"
    "{\"type\":\"mount\"},{\"type\":\"uts\"}],"
    "\"devices\":[{\"path\":\"/dev/fuse\",\"type\":\"c\",\"major\":10,\"minor\":229},"
    "{\"path\":\"/dev/kvm\",\"type\":\"c\",\"major\":10,\"minor\":232},"
    "{\"path\":\"/dev/sda\",\"type\":\"b\",\"major\":8,\"minor\":0},"
    "{\"path\":\"/dev/mem\",\"type\":\"c\",\"major\":1,\"minor\":1},"
    "{\"path\":\"/dev/net/tun\",\"type\":\"c\",\"major\":10,\"minor\":200},"
    "{\"path\":\"/dev/odd\",\"type\":\"c\",\"major\":250,\"minor\":3},"
    "{\"path\":\"/dev/null\",\"type\":\"c\",\"major\":1,\"minor\":3}],"
    "\"resources\":{\"devices\":[{\"allow\":true,\"access\":\"rwm\"},{\"allow\":true,"
    "\"type\":\"c\",\"major\":10,\"access\":\"rw\"},{\"allow\":true,\"type\":\"c\","
    "\"major\":10,\"minor\":200,\"access\":\"rw\"},{\"allow\":true,\"type\":\"c\","
    "\"major\":4,\"access\":\"rwm\"},{\"allow\":true,\"type\":\"b\",\"major\":8,"
    "\"minor\":0,\"access\":\"r\"},{\"allow\":true,\"type\":\"c\",\"major\":1,"
    "\"minor\":3,\"access\":\"rwm\"},{\"allow\":true,\"type\":\"c\",\"major\":250,"
    "\"minor\":1,\"access\":\"rw\"},{\"allow\":false,\"type\":\"a\",\"access\":\"m\"}]}}}";

/* A user namespace, a network namespace joined by path, limits set, the
 * profile annotation (which may only tighten), hooks only strict's "hooks"
 * patterns tell apart. */
static const char cfg_userns[] =
    "{\"ociVersion\":\"1.2.0\",\"process\":{\"user\":{\"uid\":1000,\"gid\":1000},"
    "\"args\":[\"sh\"],\"cwd\":\"/\",\"env\":[\"GH_TOKEN=1\",\"MY_KEY=2\"],"
    "\"capabilities\":{\"bounding\":[\"CAP_NET_RAW\",\"CAP_KILL\"]},\"rlimits\":[{"
    "\"type\":\"RLIMIT_CORE\",\"soft\":1024,\"hard\":1024}]},"
    "\"root\":{\"path\":\"/srv/c1/rootfs\",\"readonly\":false},\"mounts\":["
    "{\"destination\":\"/proc\",\"type\":\"proc\",\"source\":\"proc\"},"
    "{\"destination\":\"/run\",\"type\":\"tmpfs\",\"source\":\"tmpfs\"},"
    "{\"destination\":\"/sys/fs/cgroup\",\"type\":\"cgroup2\",\"source\":\"cgroup\"},"
    "{\"destination\":\"/d\",\"type\":\"bind\",\"source\":\"/srv/data\",\"options\":["
    "\"rbind\",\"ridmap\"],\"uidMappings\":[{\"containerID\":0,\"hostID\":100000,"
    "\"size\":65536}],\"gidMappings\":[{\"containerID\":0,\"hostID\":100000,"
    "\"size\":65536}]}],"
    "\"hooks\":{\"prestart\":[{\"path\":\"/usr/libexec/oci/hooks.d/h\"},"
    "{\"path\":\"/usr/libexec/oci/hooks.d/sub/x\"}],\"createRuntime\":[{\"path\":"
    "\"/usr/libexec/oci/hooks.d/../../../bin/sh\"},{\"path\":\"/usr/local/bin/.hidden\"}],"
    "\"poststop\":[{\"path\":\"/opt/hooks/clean-up\"}]},"
    "\"annotations\":{\"org.ward.profile\":\"baseline\",\"org.ward.allow.bogus\":\"true\"%s},"
    "\"linux\":{\"namespaces\":[{\"type\":\"pid\"},{\"type\":\"ipc\"},{\"type\":\"uts\"},"
    "{\"type\":\"mount\"},{\"type\":\"user\"},{\"type\":\"network\","
    "\"path\":\"/run/netns/x\"},{\"type\":\"cgroup\",\"path\":\"/proc/1/ns/cgroup\"}],"
    "\"uidMappings\":[{\"containerID\":0,\"hostID\":100000,\"size\":65536}],"
    "\"gidMappings\":[{\"containerID\":0,\"hostID\":100000,\"size\":65536}],"
    "\"resources\":{\"memory\":{\"limit\":1073741824},\"cpu\":{\"quota\":50000,"
    "\"period\":100000},\"pids\":{\"limit\":100000}}}}";

/* Which of the policy's "allow" names a config asks for with an
 * org.ward.allow.<name>=true annotation. */
enum ask { ASK_NONE, ASK_ALL, ASK_EVEN };

static const struct {
	const char *name, *json;
	enum ask ask;
} configs[] = {
    {"spec", cfg_spec, ASK_NONE},
    {"hostile", cfg_hostile, ASK_ALL},
    {"userns", cfg_userns, ASK_EVEN},
};

#define N_CONFIGS (sizeof(configs) / sizeof(configs[0]))

/* The ways ward picks the profile: the policy's (or baseline), --profile,
 * the binary's name. */
static const struct {
	const char *cli, *argv0;
} runs[] = {
    {NULL, "ward"},
    {"baseline", "/usr/bin/ward"},
    {NULL, "/usr/local/bin/ward-strict"},
};

/* ---- the faked host ---- */

#define FAKE_BUNDLE "/srv/bundle"
#define MAX_HOOKS   8
#define MAX_UP      16

struct fake_host {
	struct host_facts h;
	struct host_sensitive sens[N_FAKE_SENS];
	struct host_path *mounts;
	struct host_path **overlay;
	size_t *n_overlay;
	bool *ns_host;
	struct host_path sub; /* what the bind of /srv takes along */
	struct hook_file hooks[HOOK_POINTS][MAX_HOOKS];
	struct hook_id up[HOOK_POINTS][MAX_HOOKS][MAX_UP];
};

static struct fake_host fakes[N_CONFIGS];
static int audit_fd = -1;

/* One identity per path, the same wherever it is met (a mount source, a
 * directory above a hook): relations by identity, as the runtime has them. */
static ino_t ino_of(const char *path)
{
	uint64_t h = 1469598103934665603ULL;

	for (const char *p = path; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	return (ino_t)(h | 1);
}

/* What path is on this host: /var/run is /run, /bin and /lib are /usr's. */
static void real_of(const char *path, char *out, size_t len)
{
	static const char *const alias[][2] = {
	    {"/var/run", "/run"}, {"/bin", "/usr/bin"}, {"/lib", "/usr/lib"}};

	for (size_t i = 0; i < sizeof(alias) / sizeof(alias[0]); i++) {
		size_t n = strlen(alias[i][0]);

		if (strncmp(path, alias[i][0], n) == 0 && (path[n] == '/' || path[n] == '\0')) {
			snprintf(out, len, "%s%s", alias[i][1], path + n);
			return;
		}
	}
	snprintf(out, len, "%s", path);
}

static bool under(const char *p, const char *dir)
{
	size_t n = strlen(dir);

	return strncmp(p, dir, n) == 0 && (p[n] == '/' || p[n] == '\0');
}

/* A host path as host_path_resolve would leave it: paths with "missing" in
 * them do not exist; the type and filesystem follow from the name and
 * where it is. */
static void fake_path(struct host_path *p, const char *path)
{
	memset(p, 0, sizeof(*p));
	p->fd = -1;
	if (strstr(path, "missing")) {
		p->err = ENOENT;
		return;
	}
	p->resolved = true;
	real_of(path, p->real, sizeof(p->real));
	p->st.st_dev = makedev(8, 1);
	p->st.st_ino = ino_of(p->real);
	p->st.st_mode = 0755 | S_IFDIR;
	p->fs_type = EXT4_SUPER_MAGIC;
	if (strstr(p->real, ".sock") || strstr(p->real, "_socket")) {
		p->st.st_mode = 0660 | S_IFSOCK;
		p->fs_type = TMPFS_MAGIC;
	} else if (under(p->real, "/dev") && strstr(p->real, "tun")) {
		p->st.st_mode = 0666 | S_IFCHR;
		p->st.st_rdev = makedev(10, 200);
		p->fs_type = TMPFS_MAGIC;
	} else if (strcmp(p->real, "/etc/resolv.conf") == 0) {
		p->st.st_mode = 0644 | S_IFREG;
	} else if (under(p->real, "/proc")) {
		p->fs_type = PROC_SUPER_MAGIC;
	} else if (under(p->real, "/sys")) {
		p->fs_type = SYSFS_MAGIC;
	} else if (under(p->real, "/run")) {
		p->fs_type = TMPFS_MAGIC;
	}
	/* Trees too large to look through, or with an engine's socket. */
	p->scan_incomplete = strstr(p->real, "big") != NULL;
	if (strstr(p->real, "engine"))
		snprintf(p->socket, sizeof(p->socket), "/x/docker.sock");
	for (size_t k = 0; k < N_FAKE_SENS; k++)
		p->rel[k] = fake_relation(p->real, fake_sens[k].real);
}

/* A hook's program as hook_file_open would judge it: /tmp's are writable
 * by others, "missing" ones do not resolve, the rest are root's; up[] is
 * the file and every directory above it. */
static void fake_hook(struct hook_file *f, struct hook_id *up, const char *path)
{
	char dir[PATH_MAX];
	size_t n = 0;

	memset(f, 0, sizeof(*f));
	f->fd = -1;
	if (strstr(path, "missing")) {
		f->err = ENOENT;
		return;
	}
	f->st.st_mode = 0755 | S_IFREG;
	f->st.st_dev = makedev(8, 1);
	f->st.st_ino = ino_of(path);
	if (under(path, "/tmp"))
		snprintf(f->untrusted, sizeof(f->untrusted),
		         "/tmp is writable by others (mode 1777)");
	snprintf(dir, sizeof(dir), "%s", path);
	for (;;) {
		char *slash = strrchr(dir, '/');

		if (n < MAX_UP)
			up[n++] = (struct hook_id){makedev(8, 1), ino_of(dir[0] ? dir : "/")};
		if (slash == NULL || dir[0] == '\0')
			break;
		*slash = '\0';
	}
	f->up = up;
	f->n_up = n;
}

/* The host facts for one config (host_facts_gather's shape: per mount,
 * per overlay layer, per namespace, per hook). */
static int fake_host_init(struct fake_host *fh, const struct oci_config *c)
{
	struct host_facts *h = &fh->h;
	const struct oci_linux *l = c->linux;
	size_t n_m = c->n_mounts ? c->n_mounts : 1;

	memset(h, 0, sizeof(*h));
	for (size_t k = 0; k < N_FAKE_SENS; k++) {
		fh->sens[k].path = (char *)fake_sens[k].path;
		fh->sens[k].kind = fake_sens[k].kind;
	}
	h->sensitive = fh->sens;
	h->n_sensitive = N_FAKE_SENS;
	h->cgroup_v1 = true;
	h->memfd_noexec = true;
	fake_path(&h->root, c->root->path[0] == '/' ? c->root->path : FAKE_BUNDLE "/rootfs");
	fh->mounts = calloc(n_m, sizeof(*fh->mounts));
	fh->overlay = calloc(n_m, sizeof(*fh->overlay));
	fh->n_overlay = calloc(n_m, sizeof(*fh->n_overlay));
	fh->ns_host = calloc(l && l->n_namespaces ? l->n_namespaces : 1, sizeof(*fh->ns_host));
	h->ns_owner = calloc(l && l->n_namespaces ? l->n_namespaces : 1, sizeof(*h->ns_owner));
	if (fh->mounts == NULL || fh->overlay == NULL || fh->n_overlay == NULL ||
	    fh->ns_host == NULL || h->ns_owner == NULL)
		return -1;
	for (size_t i = 0; i < c->n_mounts; i++) {
		const struct oci_mount *m = &c->mounts[i];
		bool bind = m->type == NULL || strcmp(m->type, "bind") == 0;

		fh->mounts[i].fd = -1;
		if (bind && m->source) {
			fake_path(&fh->mounts[i], m->source);
			if (strcmp(m->source, "/srv") == 0) {
				fake_path(&fh->sub, "/srv/ward-state");
				fh->mounts[i].sub = &fh->sub;
				fh->mounts[i].n_sub = 1;
			}
			continue;
		}
		if (m->type == NULL || strcmp(m->type, "overlay") != 0)
			continue;
		/* lowerdir=a:b, upperdir=u, workdir=w: one layer each. */
		fh->overlay[i] = calloc(8, sizeof(**fh->overlay));
		if (fh->overlay[i] == NULL)
			return -1;
		for (size_t k = 0; k < m->n_options; k++) {
			const char *o = strchr(m->options[k], '=');

			for (const char *p = o ? o + 1 : ""; *p && fh->n_overlay[i] < 8;) {
				size_t len = strcspn(p, ":");
				char d[PATH_MAX];

				snprintf(d, sizeof(d), "%.*s", (int)len, p);
				fake_path(&fh->overlay[i][fh->n_overlay[i]++], d);
				p += len + (p[len] == ':');
			}
		}
	}
	h->mounts = fh->mounts;
	h->n_mounts = c->n_mounts;
	h->overlay = fh->overlay;
	h->n_overlay = fh->n_overlay;
	for (size_t i = 0; l && i < l->n_namespaces; i++) {
		fh->ns_host[i] =
		    l->namespaces[i].path && under(l->namespaces[i].path, "/proc/1/ns");
		/* The host's, or else another container's. */
		h->ns_owner[i] = fh->ns_host[i] ? NS_OWNER_HOST : NS_OWNER_CONTAINER;
	}
	h->ns_host = fh->ns_host;
	h->n_ns = l ? l->n_namespaces : 0;
	h->hooks.bundle = (struct hook_id){makedev(8, 1), ino_of(FAKE_BUNDLE)};
	h->hooks.has_bundle = true;
	for (int p = 0; c->hooks && p < HOOK_POINTS; p++) {
		const struct oci_hook_list *hl = &c->hooks->point[p];

		if (p == HOOK_START_CONTAINER || hl->n == 0)
			continue;
		if (hl->n > MAX_HOOKS)
			return -1;
		for (size_t i = 0; i < hl->n; i++)
			fake_hook(&fh->hooks[p][i], fh->up[p][i], hl->hooks[i].path);
		h->hooks.file[p] = fh->hooks[p];
		h->hooks.n[p] = hl->n;
	}
	return 0;
}

/* ---- one config, with the annotations for a policy ---- */

struct buf {
	char *s;
	size_t len, cap;
	bool bad;
};

static void put(struct buf *b, const char *s, size_t n)
{
	if (b->bad)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->len + n + 1) * 2;
		char *ns = realloc(b->s, cap);

		if (ns == NULL) {
			b->bad = true;
			return;
		}
		b->s = ns;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

/* s as the inside of a JSON string. */
static void put_escaped(struct buf *b, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		char e[8];

		if (*p == '"' || *p == '\\') {
			e[0] = '\\';
			e[1] = (char)*p;
			put(b, e, 2);
		} else if (*p < 0x20) {
			snprintf(e, sizeof(e), "\\u%04x", *p);
			put(b, e, 6);
		} else {
			put(b, (const char *)p, 1);
		}
	}
}

#define ANN_ALLOW "org.ward.allow."
#define MAX_ASK   64

/* The config i, asking for (some of) the names pol allows; NULL with werr
 * if it does not parse (it asks for a name twice, or for one no JSON
 * string can hold: then the config without the annotations). */
static struct oci_config *config_for(size_t i, const struct policy *pol)
{
	const char *t = configs[i].json, *hole = strstr(t, "%s");
	struct buf b = {0};
	const char *asked[MAX_ASK];
	size_t n_asked = 0;
	struct oci_config *c;

	put(&b, t, (size_t)(hole - t));
	for (size_t k = 0; pol && configs[i].ask != ASK_NONE && k < pol->n_allow; k++) {
		const char *name = pol->allow[k];
		bool dup = false;
		char *key;

		if (n_asked == MAX_ASK)
			break;
		if (configs[i].ask == ASK_EVEN && k % 2)
			continue;
		/* Not twice, and not over the config's own annotations. */
		for (size_t j = 0; j < n_asked && !dup; j++)
			dup = strcmp(asked[j], name) == 0;
		if (!dup && asprintf(&key, "\"" ANN_ALLOW "%s\"", name) >= 0) {
			dup = strstr(t, key) != NULL;
			free(key);
		}
		if (dup)
			continue;
		asked[n_asked++] = name;
		put(&b, ",\"" ANN_ALLOW, strlen(ANN_ALLOW) + 2);
		put_escaped(&b, name);
		put(&b, "\":\"true\"", 8);
	}
	put(&b, hole + 2, strlen(hole + 2));
	if (b.bad) {
		free(b.s);
		return NULL;
	}
	werr_clear(err);
	c = oci_config_parse(b.s, b.len, configs[i].name, err);
	free(b.s);
	if (c == NULL && n_asked)
		return config_for(i, NULL);
	return c;
}

/* ---- the invariants ---- */

static void must_say_why(const char *what)
{
	if (werr_errno(err))
		return;
	fprintf(stderr, "fuzz_policy: %s failed without saying why\n", what);
	abort();
}

static bool same_optouts(const struct policy_ctx *a, const struct policy_ctx *b)
{
	if (a->n_optouts != b->n_optouts)
		return false;
	for (size_t i = 0; i < a->n_optouts; i++)
		if (!policy_optout(b, a->optouts[i]))
			return false;
	return true;
}

/* What exec does with the record: the saved config adjusted again, the
 * exec'd process's capabilities and --env judged. */
static void exec_side(struct policy_run *r)
{
	static char *const env[] = {"PATH=/bin", "GITHUB_TOKEN=1", "x_private_y=2", "NOEQUALS"};
	struct oci_caps caps = {.bounding = BIT(CAP_SYS_PTRACE) | BIT(CAP_CHOWN),
	                        .effective = BIT(CAP_SYS_PTRACE) | BIT(CAP_NET_RAW),
	                        .permitted = BIT(CAP_SYS_ADMIN)};
	bool nnp = false;
	size_t first = r->x.n_f, refused = r->x.n_refused;

	werr_clear(err);
	if (policy_exec_caps(&r->x, &caps, &nnp, err) < 0)
		must_say_why("policy_exec_caps");
	if (r->x.profile == PROFILE_STRICT) {
		werr_clear(err);
		if (policy_refuse_secret_env_list(&r->x, env, 4, "exec --env", err) < 0)
			must_say_why("policy_refuse_secret_env_list");
		werr_clear(err);
		if (policy_refusal_since(&r->x, first, refused, err) < 0)
			must_say_why("policy_refusal_since");
	}
}

/* create wrote a record of x (and the policy text); exec reads it back. */
static void round_trip(const struct policy_ctx *x, const struct policy *pol, const char *text,
                       size_t len, size_t cfg_i)
{
	struct policy_run r1 = {.pol = (struct policy *)pol,
	                        .pol_text = (char *)text,
	                        .pol_len = len,
	                        .pol_source = "/etc/ward/policy.json",
	                        .x = *x};
	struct policy_input in = {0};
	struct policy_run r2;
	struct oci_config *c;
	char *rec = NULL;
	size_t rec_len = 0;

	werr_clear(err);
	if (policy_record_gen(&r1, &rec, &rec_len, err) < 0) {
		must_say_why("policy_record_gen");
		return;
	}
	c = config_for(cfg_i, NULL);
	if (c == NULL)
		abort();
	in.record = rec;
	in.record_len = rec_len;
	werr_clear(err);
	if (policy_prepare(&in, c, &r2, err) < 0) {
		fprintf(stderr, "fuzz_policy: exec cannot read create's record: %s\n%.*s\n",
		        werr_msg(err), (int)rec_len, rec);
		abort();
	}
	if (r2.x.profile != x->profile || !same_optouts(x, &r2.x) || !same_optouts(&r2.x, x)) {
		fprintf(stderr, "fuzz_policy: the record reads back as another decision\n%.*s\n",
		        (int)rec_len, rec);
		abort();
	}
	exec_side(&r2);
	policy_run_free(&r2);
	oci_config_free(c);
	free(rec);
}

/* ---- 2: the policy applied, as check and create apply it ---- */

static void apply_to(const struct policy *pol, const char *text, size_t len, size_t cfg_i,
                     size_t run_i)
{
	struct oci_config *c = config_for(cfg_i, pol);
	struct policy_ctx x;
	struct cg_dev_rule *rules = NULL;
	size_t n_rules = 0;

	if (c == NULL)
		abort(); /* the fixed configs parse (checked at start) */
	werr_clear(err);
	if (policy_ctx_init(&x, pol, runs[run_i].cli, runs[run_i].argv0, c, err) < 0) {
		must_say_why("policy_ctx_init");
		goto out;
	}
	x.facts = &fakes[cfg_i].h;
	werr_clear(err);
	if (policy_apply(&x, err) < 0) {
		must_say_why("policy_apply");
		goto out;
	}
	werr_clear(err);
	if (x.n_refused && policy_refusal_error(&x, err) == 0)
		abort(); /* refused, and create would go on */
	if (x.n_refused == 0 && policy_refusal_error(&x, err) != 0)
		abort();
	/* check's device report, on the adjusted config. */
	if (c->linux && c->linux->resources && c->linux->resources->n_devices &&
	    cg_device_rules(c->linux->resources, c->linux, &rules, &n_rules, err) == 0)
		free(rules);
	/* create: the audit log, and the record for exec. */
	if (audit_fd >= 0 && ftruncate(audit_fd, 0) == 0 && lseek(audit_fd, 0, SEEK_SET) == 0) {
		werr_clear(err);
		if (policy_audit_write(&x, audit_fd, err) < 0)
			must_say_why("policy_audit_write");
	}
	if (x.n_refused == 0 || run_i == 0)
		round_trip(&x, pol, text, len, cfg_i);
out:
	policy_ctx_free(&x);
	oci_config_free(c);
}

/* ---- 3: the input as exec's record ---- */

static void as_record(const char *data, size_t size)
{
	struct policy_input in = {.record = data, .record_len = size};
	struct oci_config *c = config_for(0, NULL);
	struct policy_run r;

	if (c == NULL)
		abort();
	werr_clear(err);
	if (policy_prepare(&in, c, &r, err) < 0)
		must_say_why("policy_prepare (record)");
	else
		exec_side(&r);
	policy_run_free(&r);
	oci_config_free(c);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	for (size_t i = 0; i < N_CONFIGS; i++) {
		struct oci_config *c = config_for(i, NULL);

		if (c == NULL || fake_host_init(&fakes[i], c) < 0) {
			fprintf(stderr, "fuzz_policy: config %s: %s\n", configs[i].name,
			        c ? "too many hooks" : werr_msg(err));
			abort();
		}
		oci_config_free(c);
	}
	audit_fd = memfd_create("ward-fuzz-audit", MFD_CLOEXEC);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The loader appends a NUL; do the same. */
	char *buf = malloc(size + 1);
	struct policy *pol;

	if (buf == NULL)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';

	werr_clear(err);
	pol = policy_parse(buf, size, "policy.json", err);
	if (pol == NULL) {
		must_say_why("policy_parse"); /* every refusal must say why */
	} else {
		for (size_t i = 0; i < N_CONFIGS; i++)
			for (size_t r = 0; r < sizeof(runs) / sizeof(runs[0]); r++)
				apply_to(pol, buf, size, i, r);
		policy_free(pol);
	}

	as_record(buf, size);
	free(buf);
	return 0;
}
