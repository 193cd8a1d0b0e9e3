#include "container/ops/report_file.h"
#include "lib/cleanup.h"
#include "lib/strfmt.h"
#include "container/query/query.h"
#include "container/query/report_out.h"
#include "lib/fileio.h"
#include "lib/log.h"
#include "policy/policy_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int report_file_write(const char *to, const char *buf, size_t len, struct werror *err)
{
	char dir[PATH_MAX], *slash;
	const char *name = to;
	_cleanup_close_ int dfd = AT_FDCWD;

	if (snprintf(dir, sizeof(dir), "%s", to) >= (int)sizeof(dir))
		return werr_k(err, WERR_INVALID, ENAMETOOLONG, "--report %s", to);
	if ((slash = strrchr(dir, '/')) != NULL) {
		*slash = '\0';
		name = to + (slash - dir) + 1;
		dfd = open(dir[0] ? dir : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	return dfd == -1
	           ? werr(err, errno, "--report %s", to)
	           : atomic_write_at(dfd, name,
	                             (struct iovec[]){{.iov_base = (void *)buf, .iov_len = len}}, 1,
	                             0644, to, err);
}

void report_file_error(const struct create_request *cc, const char *bundle,
                       const struct policy_ctx *x, const struct werror *why)
{
	_cleanup_werror_ struct werror werr_write = WERROR_INIT;
	char *buf = NULL, path[PATH_MAX + 16];
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	struct rout o;

	if (m == NULL || rout_init(&o, true, m, &werr_write) < 0) {
		if (m)
			fclose(m);
		free(buf);
		log_warn("--report %s: %s", cc->report,
		         m ? werr_msg(&werr_write) : strerror(errno));
		return;
	}
	if (fmt_fit(path, sizeof(path), "%s/config.json", bundle ? bundle : cc->bundle) < 0)
		snprintf(path, sizeof(path), "%s", "(a bundle path too long to show)");
	rout_str(&o, "id", cc->id);
	rout_bool(&o, "refused",
	          werr_kind_of(why) == WERR_REFUSED || werr_kind_of(why) == WERR_INVALID);
	rout_str(&o, "kind", werr_kind_name(werr_kind_of(why)));
	rout_str(&o, "error", werr_msg(why));
	rout_str(&o, "config", path);
	if (x && x->profile_from) {
		rout_str(&o, "profile", profile_name(x->profile));
		rout_str(&o, "profileFrom", x->profile_from);
		query_findings(&o, x, FIND_REFUSE, "refusals");
	}
	rout_finish(&o);
	fputc('\n', m);
	fclose(m);
	if (report_file_write(cc->report, buf, len, &werr_write) < 0)
		log_warn("%s", werr_msg(&werr_write));
	free(buf);
}
