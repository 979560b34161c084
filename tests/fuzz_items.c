/*
 * fuzz_items.c - libFuzzer target for the item catalogue's parser: any
 * bytes give a catalogue or errors with positions, never a crash, a hang
 * or a leak; a catalogue that parses has every kind named, of a class,
 * every launcher's ammunition of class ammo, and reads back equal from
 * its own description.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "items.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diag_list d = { 0 };
	struct item_catalogue *c = malloc(sizeof *c), *back = malloc(sizeof *back);
	if (!c || !back) {
		free(c);
		free(back);
		return 0;
	}
	bool ok = items_parse("fuzz.txt", (const char *)data, size, c, &d);
	if (ok) {
		if (c->n < 1 || c->n > ITEMS_MAX)
			abort();
		for (int i = 0; i < c->n; i++) {
			const struct item_def *k = &c->kinds[i];
			if (!k->id[0] || !k->name[0] || k->cls < 0 || k->cls >= ITEM_CLASS_COUNT ||
			    items_find(c, k->id, strlen(k->id)) != i)
				abort();
			if (k->ammo[0]) {
				int a = items_find(c, k->ammo, strlen(k->ammo));
				if (a < 0 || c->kinds[a].cls != ITEM_AMMO)
					abort();
			}
		}
		size_t n = items_describe(c, NULL, 0);
		char *text = malloc(n + 1);
		if (text) {
			items_describe(c, text, n + 1);
			if (!items_parse("back.txt", text, n, back, NULL) || back->n != c->n ||
			    memcmp(back->kinds, c->kinds, sizeof c->kinds[0] * (size_t)c->n) != 0)
				abort();
			free(text);
		}
	} else if (d.errors == 0) {
		abort(); /* a refusal always says why */
	}
	free(c);
	free(back);
	diag_list_fini(&d);
	return 0;
}
