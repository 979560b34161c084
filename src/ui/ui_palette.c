/*
 * ui_palette.c - the colour table.  A colour pair is made per foreground
 * (not per role), so the roles fit in the few pairs an 8-colour terminal
 * offers; the terminal's own foreground needs no pair.
 */
#include "ui_palette.h"

#include <stdlib.h>

/* foreground (-1 = the terminal's own), extra attributes in colour, and
 * what stands in for the colour without it */
static const struct {
	short fg;
	attr_t colour_attr;
	attr_t mono_attr;
} palette[UI_COL_COUNT] = {
	[UI_COL_NONE] = { -1, A_NORMAL, A_NORMAL },
	[UI_COL_WALL] = { COLOR_WHITE, A_NORMAL, A_NORMAL },
	[UI_COL_FLOOR] = { -1, A_NORMAL, A_NORMAL },
	[UI_COL_RUBBLE] = { COLOR_YELLOW, A_NORMAL, A_NORMAL },
	[UI_COL_WATER] = { COLOR_BLUE, A_BOLD, A_NORMAL },
	[UI_COL_DOOR] = { COLOR_YELLOW, A_NORMAL, A_NORMAL },
	[UI_COL_EXIT] = { COLOR_MAGENTA, A_BOLD, A_BOLD },
	[UI_COL_POTION] = { COLOR_MAGENTA, A_NORMAL, A_BOLD },
	[UI_COL_GOLD] = { COLOR_YELLOW, A_BOLD, A_BOLD },
	[UI_COL_PLAYER] = { COLOR_WHITE, A_BOLD, A_BOLD },
	[UI_COL_MONSTER] = { COLOR_RED, A_NORMAL, A_BOLD },
	[UI_COL_BOSS] = { COLOR_RED, A_BOLD, A_BOLD | A_UNDERLINE },
	[UI_COL_ROUTE] = { COLOR_CYAN, A_BOLD, A_BOLD },
	[UI_COL_MROUTE] = { COLOR_RED, A_NORMAL, A_NORMAL },
	[UI_COL_TARGET] = { COLOR_RED, A_REVERSE, A_REVERSE },
	[UI_COL_REMEMBERED] = { COLOR_BLUE, A_NORMAL, A_DIM },
	[UI_COL_STATUS] = { -1, A_REVERSE, A_REVERSE },
	[UI_COL_WARN] = { COLOR_RED, A_BOLD, A_BOLD | A_REVERSE },
	[UI_COL_DIM] = { -1, A_DIM, A_DIM },
	[UI_COL_MARKER] = { COLOR_GREEN, A_BOLD | A_REVERSE, A_BOLD | A_REVERSE },
	[UI_COL_ERROR] = { COLOR_RED, A_BOLD | A_REVERSE, A_BOLD | A_REVERSE },
	[UI_COL_CAUTION] = { COLOR_YELLOW, A_REVERSE, A_UNDERLINE },
	[UI_COL_BANNER] = { COLOR_YELLOW, A_NORMAL, A_NORMAL },
	[UI_COL_KEY] = { COLOR_CYAN, A_NORMAL, A_NORMAL },
	[UI_COL_HINT] = { COLOR_BLUE, A_NORMAL, A_NORMAL },
};

/* pair n + 1 has foreground n (COLOR_BLACK ... COLOR_WHITE) */
static short palette_pair(short fg)
{
	return fg < 0 ? 0 : (short)(fg + 1);
}

bool ui_palette_init(void)
{
	const char *no_colour = getenv("NO_COLOR");
	if (!has_colors() || (no_colour && *no_colour) || start_color() == ERR)
		return false;
	use_default_colors();
	for (short fg = COLOR_BLACK; fg <= COLOR_WHITE; fg++)
		init_pair(palette_pair(fg), fg, -1);
	return true;
}

attr_t ui_palette_attr(bool colour, enum ui_colour c)
{
	if ((unsigned)c >= UI_COL_COUNT)
		c = UI_COL_NONE;
	if (colour)
		return (attr_t)COLOR_PAIR(palette_pair(palette[c].fg)) | palette[c].colour_attr;
	return palette[c].mono_attr;
}
