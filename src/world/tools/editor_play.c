/*
 * editor_play.c - the play-tests of `astray edit`: the game on the level
 * as it is in memory, from its start or from any cell one can stand on
 * (the designer's cursor), the whole map known from the first turn when
 * asked (as a scroll of magic mapping shows it).  A play-test is not
 * saved or journaled; the level it plays is a copy of the editor's with
 * another start, borrowed from the editor until editor_playtest_end.
 */
#include "editor.h"
#include "editor_internal.h"

#include <stdio.h>
#include <string.h>

#include "game.h"

bool editor_playtest_start(struct editor *ed, int x, int y, bool reveal, const struct bestiary *b, uint64_t seed,
			   struct editor_playtest *pt, char *err, size_t errlen)
{
	memset(pt, 0, sizeof *pt);
	const struct level *lv = editor_level(ed);
	if (!lv || !b) {
		snprintf(err, errlen, "%s", lv ? "no bestiary" : "out of memory");
		return false;
	}
	pt->lv = *lv;
	if (x >= 0) {
		if (x >= ed->w || y < 0 || y >= ed->h) {
			snprintf(err, errlen, "%d,%d is off the map", x, y);
			return false;
		}
		char g = ed->glyphs[y * ed->w + x];
		if (editor_is_letter(g)) {
			snprintf(err, errlen, "a %s stands on %d,%d: start on a free cell", editor_glyph_name(ed, g), x, y);
			return false;
		}
		if (tile_info(level_tile(lv, x, y))->cost == 0) {
			snprintf(err, errlen, "%d,%d is %s: start on a cell one can stand on", x, y,
				 tile_info(level_tile(lv, x, y))->name);
			return false;
		}
		pt->lv.player_x = x;
		pt->lv.player_y = y;
	}
	if (pt->lv.player_x < 0) {
		snprintf(err, errlen, "no start '@'");
		return false;
	}
	pt->levels[0] = &pt->lv;
	pt->g = game_create(pt->levels, 1, b, seed);
	if (!pt->g) {
		snprintf(err, errlen, "out of memory");
		return false;
	}
	game_prefault(pt->g); /* a person clicks through it */
	if (reveal) {
		game_map_level(pt->g, 0);
		game_message_add(pt->g, "Play-test: the whole map is known.");
	}
	return true;
}

void editor_playtest_end(struct editor_playtest *pt)
{
	game_destroy(pt->g);
	memset(pt, 0, sizeof *pt);
}
