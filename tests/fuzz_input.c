/*
 * fuzz_input.c - libFuzzer target for the terminal input decoder: any
 * bytes decode into keys and mouse reports (X10 and SGR) that go through
 * the real input code (the key table, the click state machine, the click
 * to cell mapping on a square and a hex map), never a crash, an overflow
 * or a cell outside the map.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "grid.h"
#include "input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct grid *maps[2] = { grid_create(37, 23, GRID_SQUARE8), grid_create(31, 17, GRID_HEX) };
	if (!maps[0] || !maps[1])
		goto out;
	struct input_view views[2] = {
		{ .top = 2, .left = 0, .width = 80, .height = 21, .col0 = 0, .row0 = 0 },
		{ .top = 2, .left = 0, .width = 20, .height = 8, .col0 = 0, .row0 = 0 },
	};
	struct input_click click = { { false } };
	size_t at = 0;
	while (at < size) {
		struct input_event ev;
		size_t used = input_decode(data + at, size - at, &ev);
		if (used == 0) {
			/* an unfinished sequence at the end: the UI would wait, then
			 * take the Escape alone */
			used = 1;
			ev.kind = INPUT_EV_KEY;
			ev.key = INPUT_ESC;
		}
		if (used > size - at)
			abort();
		at += used;
		if (ev.kind == INPUT_EV_KEY) {
			struct input_command c = input_key(ev.key);
			if (c.kind == INPUT_MOVE && (c.count < 1 || (int)c.dir < 0 || c.dir >= GRID_DIR_COUNT))
				abort();
			for (int m = 0; m < 2; m++)
				input_view_update(&views[m], maps[m], ev.key % maps[m]->w, (ev.key / 7) % maps[m]->h);
			continue;
		}
		if (ev.kind != INPUT_EV_MOUSE)
			continue;
		if (ev.col < -1 || ev.row < -1 || ev.col > INPUT_COORD_MAX || ev.row > INPUT_COORD_MAX)
			abort();
		if (ev.button == INPUT_BUTTONS)
			continue;
		if (!input_click_event(&click, ev.button, ev.phase))
			continue;
		for (int m = 0; m < 2; m++) {
			int x = -1, y = -1;
			input_screen_to_cell(&views[m], maps[m], ev.col, ev.row, &x, &y);
			if (x < 0 || y < 0 || x >= maps[m]->w || y >= maps[m]->h)
				abort();
		}
	}
out:
	grid_destroy(maps[0]);
	grid_destroy(maps[1]);
	return 0;
}
