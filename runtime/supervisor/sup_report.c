#include "supervisor/sup_report.h"
#include "supervisor/json_kv.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "lib/fileio.h"
#include "lib/jwalk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yajl/yajl_gen.h>
#include <yajl/yajl_tree.h>

/* A limit: null when there is none. */
static void kv_limit(yajl_gen g, const char *k, unsigned long long v)
{
	kv_key(g, k);
	if (v)
		yajl_gen_integer(g, (long long)v);
	else
		yajl_gen_null(g);
}

static void gen_exit(yajl_gen g, const struct run_result *r)
{
	kv_key(g, "exit");
	yajl_gen_map_open(g);
	switch (r->exit) {
	case RUN_EXITED:
		kv_str(g, "kind", "exited");
		kv_int(g, "code", r->exit_code);
		break;
	case RUN_SIGNALED: {
		const char *name = sigabbrev_np(r->exit_signal);
		char sig[32];

		snprintf(sig, sizeof(sig), "SIG%s", name ? name : "?");
		kv_str(g, "kind", "signaled");
		kv_int(g, "signal", r->exit_signal);
		kv_str(g, "signalName", sig);
		break;
	}
	default:
		kv_str(g, "kind", "unknown");
		kv_str(g, "why", r->exit_why ? r->exit_why : "unknown");
	}
	yajl_gen_map_close(g);
}

static void gen_timeout(yajl_gen g, const struct run_result *r)
{
	kv_key(g, "timeout");
	yajl_gen_map_open(g);
	kv_limit(g, "limitMs", (unsigned long long)r->plan->timeout_ms);
	kv_str(g, "from", r->plan->timeout_ms ? r->plan->timeout_from : NULL);
	kv_int(g, "graceMs", r->plan->grace_ms);
	kv_bool(g, "timedOut", r->timed_out);
	kv_bool(g, "killedAfterGrace", r->killed_after_grace);
	yajl_gen_map_close(g);
}

static void gen_figures(yajl_gen g, const struct run_result *r)
{
	const struct cg_figures *f = &r->fig;

	kv_key(g, "limits");
	yajl_gen_map_open(g);
	kv_limit(g, "memoryBytes", f->memory_limit);
	kv_limit(g, "pids", f->pids_limit);
	kv_limit(g, "cpuQuotaUs", f->cpu_quota_us);
	kv_limit(g, "cpuPeriodUs", f->cpu_period_us);
	yajl_gen_map_close(g);
	kv_key(g, "figures");
	yajl_gen_map_open(g);
	kv_int(g, "wallMs", r->wall_ms);
	kv_int(g, "cpuUserUs", (long long)f->cpu_user_us);
	kv_int(g, "cpuSystemUs", (long long)f->cpu_system_us);
	kv_int(g, "memoryPeakBytes", (long long)f->memory_peak);
	kv_int(g, "oomKills", (long long)f->oom_kills);
	kv_int(g, "pidsLimitHits", (long long)f->pids_max_hits);
	kv_bool(g, "fromCgroup", r->have_fig);
	yajl_gen_map_close(g);
}

static void gen_denied(yajl_gen g, const struct run_result *r)
{
	const struct denied_log *d = r->denied;

	kv_key(g, "deniedSyscalls");
	yajl_gen_map_open(g);
	kv_bool(g, "recorded", r->plan->record_denied);
	if (!r->plan->record_denied)
		kv_str(g, "why", r->plan->denied_off);
	kv_int(g, "errno", r->plan->errno_ret);
	kv_int(g, "total", d ? (long long)d->total : 0);
	kv_key(g, "counts");
	yajl_gen_array_open(g);
	for (size_t i = 0; d && i < d->n_counts; i++) {
		yajl_gen_map_open(g);
		kv_str(g, "syscall", d->counts[i].syscall);
		kv_int(g, "count", (long long)d->counts[i].count);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
	kv_int(g, "uncounted", d ? (long long)d->uncounted : 0);
	kv_key(g, "first");
	yajl_gen_array_open(g);
	for (size_t i = 0; d && i < d->n_first; i++) {
		const struct denied_event *e = &d->first[i];

		yajl_gen_map_open(g);
		kv_int(g, "pid", e->pid);
		kv_str(g, "comm", e->comm);
		kv_str(g, "syscall", e->syscall);
		kv_str(g, "arch", e->arch);
		/* As hex strings: 64-bit values do not survive JSON readers
		 * that use doubles (jq 1.6). */
		kv_key(g, "args");
		yajl_gen_array_open(g);
		for (int k = 0; k < 6; k++) {
			char hex[24];

			snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)e->args[k]);
			yajl_gen_string(g, (const unsigned char *)hex, strlen(hex));
		}
		yajl_gen_array_close(g);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
	yajl_gen_map_close(g);
}

/* The container's audit log (JSON lines of strings, ward's own file). */
static void gen_audit(yajl_gen g, int dirfd, struct werror *err)
{
	char *buf = NULL;
	_cleanup_close_ int fd = openat(dirfd, "audit.log", O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	FILE *f = NULL;
	size_t cap = 0;
	ssize_t n;

	if (fd >= 0 && (f = fdopen(fd, "r")) != NULL)
		TAKE_FD(fd); /* f owns it */
	kv_key(g, "audit");
	yajl_gen_array_open(g);
	while (f && (n = getline(&buf, &cap, f)) > 0) {
		yajl_val v = jparse_document(buf, (size_t)n, 2, "audit log", NULL);

		if (v && YAJL_IS_OBJECT(v)) {
			yajl_gen_map_open(g);
			for (size_t i = 0; i < YAJL_GET_OBJECT(v)->len; i++) {
				yajl_val x = YAJL_GET_OBJECT(v)->values[i];

				if (YAJL_IS_STRING(x))
					kv_str(g, YAJL_GET_OBJECT(v)->keys[i], YAJL_GET_STRING(x));
			}
			yajl_gen_map_close(g);
		}
		yajl_tree_free(v);
	}
	yajl_gen_array_close(g);
	free(buf);
	if (f)
		fclose(f);
	werr_clear(err);
}

/* Only the newest keep reports stay (by modification time); only ward's
 * own files (regular, ours, *.json) are ever removed from the directory. */
static void prune(int dfd, long long keep)
{
	struct entry {
		char name[300];
		struct timespec t;
	} *v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	_cleanup_close_ int fd = dup(dfd);
	DIR *d = NULL;

	if (fd < 0 || (d = fdopendir(fd)) == NULL)
		return;
	TAKE_FD(fd); /* closedir() closes it */
	while ((de = readdir(d)) != NULL) {
		struct stat st;
		size_t len = strlen(de->d_name);

		if (de->d_name[0] == '.' || len < 6 || len >= sizeof(v->name) ||
		    strcmp(de->d_name + len - 5, ".json") != 0 ||
		    fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(st.st_mode) || st.st_uid != geteuid())
			continue;
		if (n == cap) {
			struct entry *nv = realloc(v, (cap = cap ? cap * 2 : 64) * sizeof(*v));

			if (nv == NULL)
				break;
			v = nv;
		}
		snprintf(v[n].name, sizeof(v[n].name), "%s", de->d_name);
		v[n++].t = st.st_mtim;
	}
	closedir(d);
	while ((long long)n > keep) {
		size_t old = 0;

		for (size_t i = 1; i < n; i++)
			if (v[i].t.tv_sec < v[old].t.tv_sec ||
			    (v[i].t.tv_sec == v[old].t.tv_sec && v[i].t.tv_nsec < v[old].t.tv_nsec))
				old = i;
		unlinkat(dfd, v[old].name, 0);
		v[old] = v[--n];
	}
	free(v);
}

/* mkdir -p, 0700 for what it makes. */
static int open_dir(const char *path, struct werror *err)
{
	char p[4096];
	int fd;

	snprintf(p, sizeof(p), "%s", path);
	for (char *s = p + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0700);
			*s = '/';
		}
	mkdir(p, 0700);
	fd = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? werr(err, errno, "report directory %s", p) : fd;
}

static void kv_dest(yajl_gen g, const struct egress_dest *d)
{
	char a[64];

	egress_addr_str(d->addr, a, sizeof(a));
	kv_str(g, "destination", a);
	kv_int(g, "port", d->port);
	kv_str(g, "protocol", egress_proto_str(d->proto));
}

/* Refused connections (sup_egress.c): counts per destination, the first
 * ones in full; the programs' own counts of allowed and refused calls. */
static void gen_egress(yajl_gen g, const struct run_result *r)
{
	const struct egress_log *l = r->egress;

	kv_key(g, "egress");
	yajl_gen_map_open(g);
	kv_bool(g, "recorded", l != NULL && l->recorded);
	kv_int(g, "allowed", l ? (long long)l->allowed : 0);
	kv_int(g, "refused", l ? (long long)l->refused : 0);
	kv_int(g, "lost", l ? (long long)l->lost : 0);
	kv_int(g, "socketsRefused", l ? (long long)l->sockets : 0);
	kv_key(g, "counts");
	yajl_gen_array_open(g);
	for (size_t i = 0; l && i < l->n_dests; i++) {
		yajl_gen_map_open(g);
		kv_dest(g, &l->dests[i]);
		kv_int(g, "count", (long long)l->dests[i].count);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
	kv_int(g, "uncounted", l ? (long long)l->uncounted : 0);
	kv_key(g, "first");
	yajl_gen_array_open(g);
	for (size_t i = 0; l && i < l->n_first; i++) {
		yajl_gen_map_open(g);
		kv_int(g, "pid", l->first[i].pid);
		kv_str(g, "comm", l->first[i].comm);
		kv_dest(g, &l->first[i].d);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
	yajl_gen_map_close(g);
}

static const char *const kinds[] = {"refused", "failed", "denied"};

/* The DNS gate (sup_gate.c): refused names counted per name, the first
 * refusals, failures and denied answers in full. */
static void gen_dns(yajl_gen g, const struct run_result *r)
{
	const struct gate_log *l = r->gate && r->gate->on ? r->gate : NULL;

	kv_key(g, "dns");
	yajl_gen_map_open(g);
	kv_bool(g, "gate", l != NULL);
	kv_str(g, "listen", l ? l->listen : NULL);
	kv_int(g, "allowed", l ? (long long)l->allowed : 0);
	kv_int(g, "refused", l ? (long long)l->refused : 0);
	kv_int(g, "answeredEmpty", l ? (long long)l->empty : 0);
	kv_int(g, "failed", l ? (long long)l->failed : 0);
	kv_int(g, "deniedAnswers", l ? (long long)l->denied : 0);
	kv_key(g, "counts");
	yajl_gen_array_open(g);
	for (size_t i = 0; l && i < l->n_names; i++) {
		yajl_gen_map_open(g);
		kv_str(g, "name", l->names[i].name);
		kv_int(g, "count", (long long)l->names[i].count);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
	kv_int(g, "uncounted", l ? (long long)l->uncounted : 0);
	kv_key(g, "first");
	yajl_gen_array_open(g);
	for (size_t i = 0; l && i < l->n_first; i++) {
		const struct gate_record *f = &l->first[i];

		yajl_gen_map_open(g);
		kv_str(g, "what",
		       kinds[f->kind == GATE_REFUSED  ? 0
		             : f->kind == GATE_FAILED ? 1
		                                      : 2]);
		kv_str(g, "name", f->name);
		kv_int(g, "type", f->qtype);
		kv_str(g, "why", f->why);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
	yajl_gen_map_close(g);
}

int sup_report_write(const struct run_result *r, struct werror *err)
{
	yajl_gen g = yajl_gen_alloc(NULL);
	const unsigned char *buf;
	char name[1100];
	size_t len;
	_cleanup_close_ int dfd = -1;
	int rc;

	if (g == NULL)
		return werr(err, ENOMEM, "out of memory");
	yajl_gen_config(g, yajl_gen_beautify, 1);
	yajl_gen_map_open(g);
	kv_int(g, "reportVersion", 1);
	kv_str(g, "id", r->id);
	kv_str(g, "bundle", r->plan->bundle);
	kv_str(g, "profile", r->plan->profile);
	kv_str(g, "policyDigest", r->plan->policy_digest[0] ? r->plan->policy_digest : NULL);
	kv_str(g, "created", r->created);
	kv_str(g, "started", r->started[0] ? r->started : NULL);
	kv_str(g, "ended", r->ended);
	gen_exit(g, r);
	gen_timeout(g, r);
	gen_figures(g, r);
	gen_denied(g, r);
	gen_egress(g, r);
	gen_dns(g, r);
	if (r->dirfd >= 0)
		gen_audit(g, r->dirfd, err);
	kv_key(g, "supervisor");
	yajl_gen_map_open(g);
	kv_str(g, "ended", r->supervisor_end);
	yajl_gen_map_close(g);
	yajl_gen_map_close(g);
	yajl_gen_get_buf(g, &buf, &len);
	dfd = open_dir(r->plan->report_dir, err);
	if (dfd < 0) {
		yajl_gen_free(g);
		return -1;
	}
	snprintf(name, sizeof(name), "%s.json", r->id);
	rc = atomic_write_at(dfd, name, (struct iovec[]){{.iov_base = (void *)buf, .iov_len = len}},
	                     1, 0600, "the run report", err);
	yajl_gen_free(g);
	if (rc == 0)
		prune(dfd, r->plan->report_keep);
	return rc;
}

int sup_report_dir(const char *policy_dir, const char *root, char *out, size_t len,
                   struct werror *err)
{
	char abs[4096];

	if (policy_dir) {
		snprintf(out, len, "%s", policy_dir);
		return 0;
	}
	if (realpath(root, abs) == NULL)
		return werr(err, errno, "state root %s", root);
	if ((size_t)snprintf(out, len, "%s/.reports", abs) >= len)
		return werr(err, ENAMETOOLONG, "report directory");
	return 0;
}
