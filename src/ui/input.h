/* input.h - keys, mouse clicks and screen positions turned into commands, without curses. */
#ifndef ASTRAY_INPUT_H
#define ASTRAY_INPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "grid.h"

/*
 * Special keys, named without curses: ui_curses.c translates the curses
 * KEY_* codes to these, so the table below and its tests need no terminal.
 * They sit above every Unicode code point; plain characters are themselves.
 */
enum input_key {
	INPUT_KEY_BASE = 0x200000,
	INPUT_UP, INPUT_DOWN, INPUT_LEFT, INPUT_RIGHT,
	INPUT_HOME, INPUT_END, INPUT_PGUP, INPUT_PGDN,   /* numpad 7 1 9 3 on many terminals */
	INPUT_A1, INPUT_A3, INPUT_B2, INPUT_C1, INPUT_C3, /* keypad 7 9 5 1 3 */
	INPUT_ENTER, INPUT_BACKSPACE
};

#define INPUT_CTRL(c) ((c) & 0x1f)
#define INPUT_ESC 27

/* What a key means, before the game or the current screen gives it a context. */
enum input_command_kind {
	INPUT_NONE,      /* unbound */
	INPUT_MOVE,      /* dir (count: 1, or 8 for the shifted keys: run, or the cursor 8 cells) */
	INPUT_WAIT,
	INPUT_DESCEND,
	INPUT_HELP,
	INPUT_HISTORY,
	INPUT_QUIT,
	INPUT_CURSOR,    /* enter the travel cursor */
	INPUT_ROUTES,    /* toggle drawing monster routes and targets */
	INPUT_CONFIRM,   /* Enter */
	INPUT_CANCEL,    /* Escape */
	INPUT_REDRAW,    /* Ctrl-L */
	INPUT_REST,      /* rest until healed or disturbed */
	INPUT_QUAFF,     /* drink a potion from the pack */
	INPUT_EXPLORE,   /* autoexplore */
	INPUT_INVENTORY, /* show the pack */
	INPUT_READ,      /* read a scroll, apply a tool (a) */
	INPUT_ZAP,       /* zap a wand (z) */
	INPUT_THROW,     /* throw (t) */
	INPUT_FIRE,      /* fire the wielded launcher (f) */
	INPUT_WIELD,     /* wield a weapon (w) */
	INPUT_WEAR,      /* wear armour (W) */
	INPUT_DROP,      /* drop (d) */
	INPUT_PICKUP,    /* pick up (, or g) */
	INPUT_CLOSE,     /* close a door (c) */
	INPUT_NEXT,      /* Tab: the next target */
	INPUT_DESCRIBE,  /* v or ;: describe what the travel cursor is on */
	INPUT_OPTIONS    /* O: the options screen */
};

struct input_command {
	enum input_command_kind kind;
	enum grid_dir dir;        /* for INPUT_MOVE */
	int count;           /* for INPUT_MOVE: cells per press */
};

/* The meaning of one key (a character or an enum input_key). */
struct input_command input_key(int key);

/* Keys whose direction exists on square maps but not on hex maps (k j 8 2
 * and the up and down arrows): the UI names them in its message. */
bool input_is_vertical(enum grid_dir d);

/*
 * The step a move key takes on a topo map from row y, where the table's
 * compass direction d has none: on hex maps up and down (k j 8 2, the
 * arrows) take the upper or lower neighbour that keeps to the column,
 * alternating (NE then NW going up from an even row); on diamond4 maps the
 * arrows take the edge steps the screen shows that way round (up NE,
 * right SE, down SW, left NW).  Any other key keeps d.
 */
enum grid_dir input_move_dir(enum grid_topology topo, int key, enum grid_dir d, int y);

/*
 * What an escape sequence the terminal's own key table did not know
 * stands for, its ESC already read.  next(ctx) returns the next key
 * already waiting, or -1 when none is (the sequence ends there).
 * Keypads in application mode (PuTTY, tmux): ESC O p..y are the digits
 * 0..9, ESC O M is Enter, ESC O j k l m n o X are * + , - . / =, ESC O
 * A..D the arrows, ESC O H/F Home/End, ESC O E the keypad's 5; the same
 * after ESC [ (and ESC [ n ~: 1 7 Home, 4 8 End, 5 6 PgUp PgDn).  Alt with
 * a key sends ESC then the key: that key.  ESC alone is Escape.  Anything
 * else is Escape, and *unread (else -1) is a key read that belongs to
 * what follows, for the caller to read again.
 */
int input_after_escape(int (*next)(void *ctx), void *ctx, int *unread);

/*
 * The key a terminal description's extended key name stands for: xterm's
 * entries name the application-mode keypad keys the classic table lacks
 * (ka2 kb1 kb3 kc2: 8 4 6 2, kpZRO 0, kpDOT . kpADD + kpSUB - kpMUL *
 * kpDIV / kpCMA ,), and ncurses gives each a code of its own; -1 for any
 * other name.
 */
int input_key_named(const char *name);

/*
 * Mouse clicks: a terminal reports a click either as one CLICKED event or
 * as PRESSED then RELEASED.  input_click_event turns either form into
 * exactly one "act now" (true): CLICKED acts, RELEASED acts only after a
 * PRESSED of the same button, a lone PRESSED waits.
 */
enum input_mouse_phase { INPUT_PRESSED, INPUT_RELEASED, INPUT_CLICKED };
enum input_button { INPUT_BUTTON_LEFT, INPUT_BUTTON_RIGHT, INPUT_BUTTONS };

struct input_click {
	bool pressed[INPUT_BUTTONS]; /* a PRESSED is waiting for its RELEASED */
};

bool input_click_event(struct input_click *c, enum input_button b, enum input_mouse_phase p);

/*
 * The viewport: which part of the map (in text columns and rows, the
 * doubled layout on hex) shows in the map area of the screen.
 */
struct input_view {
	int top, left;       /* screen position of the map area */
	int width, height;   /* size of the map area in text cells */
	int col0, row0;      /* map text position drawn at the area's top-left; negative centres a small map */
};

/*
 * Moves one axis of the view so that `pos` (the player's text position)
 * stays inside, away from the edges: a map smaller than the area is
 * centred; a larger one scrolls by half an area when the player comes
 * within a quarter of an edge, and never shows past the map's far edge.
 */
void input_view_follow(int *origin, int pos, int map_size, int area_size);

/* Places the view for the player at cell (px, py) on grid g. */
void input_view_update(struct input_view *v, const struct grid *g, int px, int py);

/* Screen position of cell (x, y); false when it is outside the map area. */
bool input_cell_to_screen(const struct input_view *v, const struct grid *g, int x, int y,
			  int *scol, int *srow);

/*
 * The map cell under a click at screen (scol, srow): a click outside the
 * map (or the map area) goes to the nearest cell, a click between two hex
 * cells to a neighbouring one (grid_screen_to_cell).  Always yields a cell.
 */
void input_screen_to_cell(const struct input_view *v, const struct grid *g, int scol, int srow,
			  int *x, int *y);

#endif
