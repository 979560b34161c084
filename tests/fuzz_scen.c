/*
 * fuzz_scen.c - libFuzzer target for the Moving AI .scen reader: every
 * scenario it accepts has its start and goal inside its map; a refusal
 * has a message; never a crash.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "movingai.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256] = "";
	struct movingai_scenario *sc = NULL;
	int n = movingai_parse_scen((const char *)data, size, &sc, err, sizeof err);
	if (n < 0 && !err[0])
		abort();
	for (int i = 0; i < n; i++) {
		const struct movingai_scenario *s = &sc[i];
		if (s->sx < 0 || s->sy < 0 || s->sx >= s->map_w || s->sy >= s->map_h || s->gx < 0 ||
		    s->gy < 0 || s->gx >= s->map_w || s->gy >= s->map_h || !memchr(s->map, '\0', sizeof s->map))
			abort();
	}
	free(sc);
	return 0;
}
