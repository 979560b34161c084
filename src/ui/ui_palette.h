/* ui_palette.h - the one colour table of every curses screen (game, editor, title). */
#ifndef ASTRAY_UI_PALETTE_H
#define ASTRAY_UI_PALETTE_H

#include <curses.h>
#include <stdbool.h>

/* What a thing on screen is; each role has one colour and one stand-in
 * for terminals without colour (or with NO_COLOR set). */
enum ui_colour {
	UI_COL_NONE,       /* the terminal's own look */
	UI_COL_WALL, UI_COL_FLOOR, UI_COL_RUBBLE, UI_COL_WATER, UI_COL_DOOR, UI_COL_EXIT,
	UI_COL_POTION, UI_COL_GOLD, UI_COL_PLAYER, UI_COL_MONSTER, UI_COL_BOSS,
	UI_COL_ROUTE,      /* the player's route, a route that reaches */
	UI_COL_MROUTE,     /* a monster's route */
	UI_COL_TARGET,     /* where a monster is heading */
	UI_COL_REMEMBERED, /* seen before, not now (the editor: explored cells) */
	UI_COL_STATUS,     /* the status bar */
	UI_COL_WARN,       /* the game's warnings: low health, death */
	UI_COL_DIM,        /* old messages, hints, separators */
	UI_COL_MARKER,     /* editor: the route's end markers A and B */
	UI_COL_ERROR,      /* editor: a problem that stops play */
	UI_COL_CAUTION,    /* editor: a warning, a route that does not reach */
	UI_COL_BANNER,     /* title: the name */
	UI_COL_KEY,        /* title: an entry's key letter */
	UI_COL_HINT,       /* title: the lines under the menu */
	UI_COL_COUNT
};

/*
 * Sets up the colours on the current curses screen, once per screen:
 * false (use the monochrome stand-ins) when the terminal has none, when
 * NO_COLOR is set and not empty, or when start_color fails.
 */
bool ui_palette_init(void);

/* The attributes that draw role c, in colour when colour is set. */
attr_t ui_palette_attr(bool colour, enum ui_colour c);

#endif
