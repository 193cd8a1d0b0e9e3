/* libFuzzer target: config.json parsing must never crash, leak or hang,
 * whatever the bytes. Build and run with `make fuzz-run`. */
#include "oci/config.h"
#include "lib/error.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The error object the code under test records into. */
static struct werror fuzz_err;
static struct werror *const err = &fuzz_err;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The loader appends a NUL; do the same. */
	char *buf = malloc(size + 1);
	struct oci_config *c;

	if (buf == NULL)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	c = oci_config_parse(buf, size, "config.json", err);
	if (c == NULL && !werr_errno(err))
		abort(); /* every refusal must say why */
	oci_config_free(c);
	free(buf);
	return 0;
}
