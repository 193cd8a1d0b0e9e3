/* libFuzzer target: the files ward reads back from its state dir and report
 * directory must never crash it, whatever their bytes (a corrupted or
 * truncated file, a full disk, another tool's edit). The first byte picks
 * the reader: '0' state.json (opened as delete --force and list open it,
 * and as every other command does), '1' a run report (ward report), '2' the
 * supervisor's plan. The rest is the file. Build and run with
 * `make fuzz-run`; the exec record is fuzz_policy's. */
#include "container/store.h"
#include "lib/error.h"
#include "supervisor/report_view.h"
#include "supervisor/sup_plan.h"
#include "supervisor/supervisor.h"

#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The error object the code under test records into. */
static struct werror fuzz_err;
static struct werror *const err = &fuzz_err;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define ID "fuzz"

static int rootfd = -1, dirfd_ = -1;
static FILE *devnull;

/* One state root for the whole run: <tmp>/fuzz/ holds the file under test. */
static void setup(void)
{
	char root[] = "/tmp/ward-fuzz-state.XXXXXX";

	if (mkdtemp(root) == NULL)
		abort();
	rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0 || mkdirat(rootfd, ID, 0700) < 0)
		abort();
	dirfd_ = openat(rootfd, ID, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	devnull = fopen("/dev/null", "w");
	if (dirfd_ < 0 || devnull == NULL)
		abort();
}

static void put(const char *name, const uint8_t *data, size_t size)
{
	int fd = openat(dirfd_, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		abort();
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct container c;
	struct sup_plan plan;
	char *buf;

	if (size == 0)
		return 0;
	if (rootfd < 0)
		setup();
	werr_clear(err);
	switch (data[0] % 3) {
	case 0:
		put(STATE_FILE, data + 1, size - 1);
		/* Strict: every refusal says why. Tolerant: never a refusal. */
		if (store_open(rootfd, ID, false, &c, err) < 0 && !werr_errno(err))
			abort();
		store_close(&c);
		werr_clear(err);
		if (store_open_any(rootfd, ID, true, &c, err) < 0)
			abort();
		if (c.status == ST_UNKNOWN && (c.load_err == NULL || c.load_err[0] == '\0'))
			abort();
		store_close(&c);
		break;
	case 1:
		/* The loader appends a NUL; do the same. */
		buf = malloc(size);
		if (buf == NULL)
			return 0;
		memcpy(buf, data + 1, size - 1);
		buf[size - 1] = '\0';
		if (report_print_text(buf, size - 1, devnull, err) < 0 && !werr_errno(err))
			abort();
		free(buf);
		break;
	default:
		put(SUP_PLAN_FILE, data + 1, size - 1);
		if (sup_plan_read(dirfd_, &plan, err) < 0 && !werr_errno(err))
			abort();
		break;
	}
	werr_clear(err);
	return 0;
}
