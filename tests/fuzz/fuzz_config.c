/* libFuzzer target: config.json parsing must never crash, leak or hang,
 * whatever the bytes. Build and run with `make fuzz-run`. */
#include "oci/config.h"
#include "lib/error.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
	c = oci_config_parse(buf, size, "config.json");
	if (c == NULL && werr_msg(err)[0] == '\0')
		abort(); /* every refusal must say why */
	oci_config_free(c);
	free(buf);
	return 0;
}
