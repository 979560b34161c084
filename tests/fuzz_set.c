/*
 * fuzz_set.c - libFuzzer target for the values of --set KIND.KEY=VALUE
 * (bestiary_set) and of --compare 'A' 'B' (sim_apply_settings, a list of
 * them): applied to the test bestiary, any text is applied or refused
 * with a message, and a refusal changes nothing.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bestiary.h"
#include "sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char kinds[] =
	"kind: rat\nglyph: r\nhp: 3\n\nkind: goblin\nglyph: g\nhp: 7\nsight: 8\nbudget: 500\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct bestiary *b = malloc(sizeof *b), *before = malloc(sizeof *before);
	if (!text || !b || !before)
		goto out;
	memcpy(text, data, size);
	text[size] = '\0';
	if (!bestiary_parse("fuzz.txt", kinds, sizeof kinds - 1, b, NULL))
		abort();
	memcpy(before, b, sizeof *b);
	char err[512] = "";
	if (!bestiary_set(b, text, err, sizeof err)) {
		if (!err[0] || memcmp(b, before, sizeof *b) != 0)
			abort();
	}
	memcpy(b, before, sizeof *b);
	err[0] = '\0';
	if (!sim_apply_settings(b, text, err, sizeof err) && !err[0])
		abort();
out:
	free(text);
	free(b);
	free(before);
	return 0;
}
