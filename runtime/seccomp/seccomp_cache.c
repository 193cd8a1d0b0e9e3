/* Compiled filters cached under the state root (<root>/.seccomp/, 0700,
 * root's): compiling a 300-rule profile costs more than the rest of a
 * container start. The key is a canonical serialisation of the seccomp
 * section plus everything that shapes the output (ward's filter format,
 * libseccomp's version, the native architecture); the file stores that key
 * in full and is used only if it matches byte for byte, so a hash collision
 * can only cost a recompile. */
#include "lib/cleanup.h"
#include "lib/error.h"
#include "lib/fileio.h"
#include "lib/log.h"
#include "seccomp/seccomp_filter.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <seccomp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CACHE_MAGIC 0x77736331U /* "wsc1" */
#define CACHE_MAX   128         /* files; beyond that, compile without caching */
/* Bumped whenever the same section compiles differently (3: socketcall and
 * ipc guarded, issue #12): an old entry is then never used. */
#define FORMAT_SALT "ward-seccomp-3"

struct buf {
	char *p;
	size_t len, cap;
	int failed;
};

static void put(struct buf *b, const void *data, size_t n)
{
	if (b->failed)
		return;
	if (b->len + n > b->cap) {
		size_t cap = (b->cap ? b->cap * 2 : 1024) + n;
		char *np = realloc(b->p, cap);

		if (np == NULL) {
			b->failed = 1;
			return;
		}
		b->p = np;
		b->cap = cap;
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
}

static void put_u64(struct buf *b, uint64_t v)
{
	put(b, &v, sizeof(v));
}

/* Length-prefixed, so that ("ab","c") and ("a","bc") differ. */
static void put_str(struct buf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	put_u64(b, s ? n : UINT64_MAX);
	put(b, s ? s : "", n);
}

static void put_strv(struct buf *b, char **v, size_t n)
{
	put_u64(b, n);
	for (size_t i = 0; i < n; i++)
		put_str(b, v[i]);
}

int filter_canonical(const struct oci_seccomp *s, char **out, size_t *len, struct werror *err)
{
	const struct scmp_version *v = seccomp_version();
	struct buf b = {0};

	put_str(&b, FORMAT_SALT);
	put_u64(&b, ((uint64_t)v->major << 32) | (v->minor << 16) | v->micro);
	put_u64(&b, seccomp_arch_native());
	put_str(&b, s->default_action);
	put_u64(&b, s->has_default_errno_ret ? s->default_errno_ret : UINT64_MAX);
	put_strv(&b, s->architectures, s->n_architectures);
	put_strv(&b, s->flags, s->n_flags);
	put_str(&b, s->listener_path);
	put_u64(&b, s->n_syscalls);
	for (size_t i = 0; i < s->n_syscalls; i++) {
		const struct oci_seccomp_syscall *sc = &s->syscalls[i];

		put_strv(&b, sc->names, sc->n_names);
		put_str(&b, sc->action);
		put_u64(&b, sc->has_errno_ret ? sc->errno_ret : UINT64_MAX);
		put_u64(&b, sc->n_args);
		for (size_t a = 0; a < sc->n_args; a++) {
			put_u64(&b, sc->args[a].index);
			put_u64(&b, sc->args[a].value);
			put_u64(&b, sc->args[a].value_two);
			put_str(&b, sc->args[a].op);
		}
	}
	if (b.failed) {
		free(b.p);
		return werr(err, ENOMEM, "out of memory");
	}
	*out = b.p;
	*len = b.len;
	return 0;
}

static uint64_t fnv1a(const char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 0x100000001b3ULL;
	return h;
}

struct cache_head {
	uint32_t magic;
	uint32_t flags;
	uint32_t notify;
	uint32_t n_insns;
	uint64_t key_len;
};

static int read_all(int fd, void *p, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, (char *)p + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

/* 1 on a verified hit, 0 on a miss. */
static int cache_get(int dirfd, const char *name, const char *key, size_t key_len,
                     struct filter_prog *out)
{
	struct cache_head h;
	struct stat st;
	_cleanup_free_ char *stored = NULL;
	_cleanup_close_ int fd = -1;

	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return 0;
	/* Only a file ward itself wrote: root's, not writable by others. */
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != 0 || (st.st_mode & 022) ||
	    read_all(fd, &h, sizeof(h)) < 0 || h.magic != CACHE_MAGIC || h.key_len != key_len ||
	    h.n_insns == 0 || h.n_insns > 4096)
		goto miss;
	stored = malloc(key_len);
	out->insns = malloc(h.n_insns * sizeof(*out->insns));
	if (stored == NULL || out->insns == NULL || read_all(fd, stored, key_len) < 0 ||
	    memcmp(stored, key, key_len) != 0 ||
	    read_all(fd, out->insns, h.n_insns * sizeof(*out->insns)) < 0)
		goto miss;
	out->len = h.n_insns;
	out->flags = h.flags;
	out->notify = h.notify != 0;
	return 1;
miss:
	filter_prog_free(out);
	return 0;
}

static bool cache_full(int dirfd)
{
	_cleanup_close_ int fd = dup(dirfd);
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	if (fd < 0 || (d = fdopendir(fd)) == NULL)
		return true;
	TAKE_FD(fd); /* closedir() closes it */
	while ((de = readdir(d)) != NULL)
		n++;
	closedir(d);
	return n >= CACHE_MAX + 2;
}

static void cache_put(int dirfd, const char *name, const char *key, size_t key_len,
                      const struct filter_prog *p, struct werror *err)
{
	struct cache_head h = {CACHE_MAGIC, p->flags, p->notify, (uint32_t)p->len, key_len};
	const struct iovec iov[] = {
	    {&h, sizeof(h)}, {(void *)key, key_len}, {p->insns, p->len * sizeof(*p->insns)}};

	/* A cache that cannot be written is only slower: the error is dropped. */
	if (!cache_full(dirfd))
		(void)atomic_write_at(dirfd, name, iov, 3, 0600, "seccomp cache", err);
}

int filter_compile_cached(const struct oci_seccomp *s, int cache_dirfd, struct filter_prog *out,
                          struct werror *err)
{
	char *key;
	size_t key_len;
	char name[32];

	memset(out, 0, sizeof(*out));
	if (cache_dirfd < 0)
		return filter_compile(s, out, err);
	if (filter_canonical(s, &key, &key_len, err) < 0)
		return -1;
	/* A supervised filter never answers for a config's own (refused)
	 * SCMP_ACT_NOTIFY default: the key says which it is. */
	if (s->supervised) {
		char *k = realloc(key, key_len + 12);

		if (k == NULL) {
			free(key);
			return werr(err, ENOMEM, "out of memory");
		}
		key = k;
		memcpy(key + key_len, "\nsupervised", 11);
		key_len += 11;
	}
	snprintf(name, sizeof(name), "%016llx.bpf", (unsigned long long)fnv1a(key, key_len));
	if (cache_get(cache_dirfd, name, key, key_len, out)) {
		log_debug("seccomp: filter %s from the cache", name);
		free(key);
		return 0;
	}
	if (filter_compile(s, out, err) < 0) {
		free(key);
		return -1;
	}
	cache_put(cache_dirfd, name, key, key_len, out, err);
	free(key);
	return 0;
}
