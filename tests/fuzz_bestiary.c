/*
 * fuzz_bestiary.c - libFuzzer target for the bestiary parser: any bytes
 * give a bestiary or errors with positions, never a crash, a hang or a
 * leak; a bestiary that parses has every kind named and lettered.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bestiary.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diag_list d = { 0 };
	struct bestiary *b = malloc(sizeof *b);
	if (!b)
		return 0;
	bool ok = bestiary_parse("fuzz.txt", (const char *)data, size, b, &d);
	if (ok) {
		if (b->n < 1 || b->n > BESTIARY_MAX_KINDS)
			abort();
		for (int i = 0; i < b->n; i++)
			if (!b->kinds[i].name[0] || !bestiary_find_glyph(b, b->kinds[i].glyph))
				abort();
	} else if (d.errors == 0) {
		abort(); /* a refusal always says why */
	}
	free(b);
	diag_list_fini(&d);
	return 0;
}
