#include "supervisor/sup_plan.h"
#include "supervisor/json_kv.h"
#include "lib/cleanup.h"
#include "lib/error.h"
#include "lib/fileio.h"
#include "lib/jwalk.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yajl/yajl_gen.h>
#include <yajl/yajl_tree.h>

int sup_plan_write(int dirfd, const struct sup_plan *p, struct werror *err)
{
	yajl_gen g = yajl_gen_alloc(NULL);
	const unsigned char *buf;
	size_t len;
	int r;

	if (g == NULL)
		return werr(err, ENOMEM, "out of memory");
	yajl_gen_map_open(g);
	kv_int(g, "timeoutMs", p->timeout_ms);
	kv_int(g, "graceMs", p->grace_ms);
	kv_str(g, "timeoutFrom", p->timeout_from);
	kv_str(g, "profile", p->profile);
	kv_str(g, "policyDigest", p->policy_digest);
	kv_str(g, "reportDir", p->report_dir);
	kv_int(g, "reportKeep", p->report_keep);
	kv_bool(g, "recordDenied", p->record_denied);
	kv_int(g, "errnoRet", p->errno_ret);
	kv_str(g, "deniedOff", p->denied_off);
	kv_str(g, "bundle", p->bundle);
	kv_bool(g, "pasta", p->pasta);
	kv_str(g, "pastaDns", p->pasta_dns);
	yajl_gen_map_close(g);
	yajl_gen_get_buf(g, &buf, &len);
	r = atomic_write_at(dirfd, SUP_PLAN_FILE,
	                    (struct iovec[]){{.iov_base = (void *)buf, .iov_len = len}}, 1, 0600,
	                    "the supervisor's plan", err);
	yajl_gen_free(g);
	return r;
}

static long long get_int(yajl_val root, const char *key, bool *bad)
{
	const char *path[] = {key, NULL};
	yajl_val v = yajl_tree_get(root, path, yajl_t_number);

	if (v == NULL || !YAJL_IS_INTEGER(v)) {
		*bad = true;
		return 0;
	}
	return YAJL_GET_INTEGER(v);
}

static void get_str(yajl_val root, const char *key, char *out, size_t len, bool *bad)
{
	const char *path[] = {key, NULL};
	yajl_val v = yajl_tree_get(root, path, yajl_t_string);
	const char *s = v ? YAJL_GET_STRING(v) : NULL;

	if (s == NULL || strlen(s) >= len) {
		*bad = true;
		return;
	}
	snprintf(out, len, "%s", s);
}

int sup_plan_read(int dirfd, struct sup_plan *p, struct werror *err)
{
	const char *rec[] = {"recordDenied", NULL}, *pasta[] = {"pasta", NULL};
	_cleanup_free_ char *buf = NULL;
	yajl_val root, v;
	bool bad = false;
	size_t n;
	_cleanup_close_ int fd = openat(dirfd, SUP_PLAN_FILE, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return werr(err, errno, "the supervisor's plan");
	/* Its lists (allowed names, egress rules) come from the config. */
	if (read_fd(fd, "the supervisor's plan", 16 << 20, &buf, &n, err) < 0)
		return -1;
	root = jparse_document(buf, n, 2, "the supervisor's plan", err);
	if (root == NULL)
		return -1;
	memset(p, 0, sizeof(*p));
	p->timeout_ms = get_int(root, "timeoutMs", &bad);
	p->grace_ms = get_int(root, "graceMs", &bad);
	get_str(root, "timeoutFrom", p->timeout_from, sizeof(p->timeout_from), &bad);
	get_str(root, "profile", p->profile, sizeof(p->profile), &bad);
	get_str(root, "policyDigest", p->policy_digest, sizeof(p->policy_digest), &bad);
	get_str(root, "reportDir", p->report_dir, sizeof(p->report_dir), &bad);
	p->report_keep = get_int(root, "reportKeep", &bad);
	v = yajl_tree_get(root, rec, yajl_t_any);
	p->record_denied = v && YAJL_IS_TRUE(v);
	p->errno_ret = (int)get_int(root, "errnoRet", &bad);
	get_str(root, "deniedOff", p->denied_off, sizeof(p->denied_off), &bad);
	get_str(root, "bundle", p->bundle, sizeof(p->bundle), &bad);
	v = yajl_tree_get(root, pasta, yajl_t_any);
	p->pasta = v && YAJL_IS_TRUE(v);
	get_str(root, "pastaDns", p->pasta_dns, sizeof(p->pasta_dns), &bad);
	yajl_tree_free(root);
	return bad ? werr(err, 0, "the supervisor's plan is malformed") : 0;
}
