/*
 * fuzz_map.c - libFuzzer target for the Moving AI .map reader: a grid of
 * the size the header says, or an error with its line; never a crash.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "movingai.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256] = "";
	struct grid *g = movingai_parse_map((const char *)data, size, err, sizeof err);
	if (g) {
		if (g->w <= 0 || g->h <= 0 || (size_t)g->w * (size_t)g->h > size)
			abort(); /* every cell came from a byte of the file */
		grid_destroy(g);
	} else if (!err[0]) {
		abort();
	}
	return 0;
}
