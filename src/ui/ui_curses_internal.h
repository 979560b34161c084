/* ui_curses_internal.h - what the play screen's files share: its state, and the calls between them. */
#ifndef ASTRAY_UI_CURSES_INTERNAL_H
#define ASTRAY_UI_CURSES_INTERNAL_H

/*
 * Only for the play screen: ui_curses.c (the loop and the keys), ui_draw.c
 * (the frame) and ui_bench.c (the key-press benchmark).  No curses here:
 * what the files share is the game's state as the screen keeps it.
 */
#include <stdbool.h>

#include "game.h"
#include "input.h"
#include "ui.h"

#define UI_MESSAGE_ROWS 2   /* rows of messages above the map */
#define UI_STATUS_ROWS 1    /* the status line below it */
#define UI_MSG_LINES 256       /* wrapped message lines one frame may page through */

enum ui_screen {
	SCREEN_MAP,      /* play */
	SCREEN_CURSOR,   /* the travel cursor */
	SCREEN_HELP,
	SCREEN_HISTORY,
	SCREEN_QUIT,     /* "really quit?" */
	SCREEN_END,      /* died or won: the last look at the map */
	SCREEN_PACK,     /* the pack, to look at or choose from (pack_mode) */
	SCREEN_DIR,      /* which way? (a wand, a throw, a door) */
	SCREEN_DESCRIBE, /* a cell described in full over the map (ui_describe.c) */
	SCREEN_OPTIONS   /* the options screen (ui_options.c) */
};

#define UI_NOTES 16 /* UI lines kept for the history */
#define UI_DESC_LINES 16 /* lines of a description (SCREEN_DESCRIBE) */
#define UI_SIDE_MIN_COLS 110 /* a terminal this wide shows the monsters in view beside the map */
#define UI_SIDE_W 28         /* that list's columns, its rule included */
#define UI_SIDE_ROWS 256     /* rows of the list a click can name */
#define UI_SIDE_HOVER_ROWS 8 /* rows at its foot for the cell under the pointer */

struct ui {
	struct game *g;
	struct ui_options opt;
	bool colour;             /* colours in use (else the mono attributes) */
	enum ui_screen screen;
	struct input_view view;  /* as drawn last: clicks are read through it */
	int side_w;              /* columns of the monster list right of the map, as drawn last (0: none) */
	int side_cell[UI_SIDE_ROWS]; /* the cell (a monster's, an item's) on each row of that list
	                                from view.top, -1 none */
	double step_at;          /* travelling: when the next step is due (clock_us / 1000), 0 none yet */
	bool hover;              /* SCREEN_MAP: the pointer rests on a map cell; its travel route is
	                            in preview, drawn as a click there would walk it */
	int hover_x, hover_y;    /* hover: the cell */
	char hover_what[GAME_MESSAGE_LEN + 96]; /* hover: the cell's steps, and the cell described */
	bool routes;             /* draw the routes and targets of visible monsters */
	int cursor_x, cursor_y;  /* the travel cursor, a cell */
	int *preview;            /* cursor screen: the route Enter would travel ... */
	int preview_len, preview_cap; /* ... its cells (0: none), and the room allocated */
	int history_back;        /* history screen: lines scrolled back from the newest */
	enum ui_screen back;     /* the screen the history or help returns to */
	int help_top;            /* help screen: first line shown */
	int help_col0, help_col1;/* status line: the columns of "? help" (a click there opens help) */
	int more_seen;           /* fresh message lines already paged past (--More--) */
	bool more;               /* a --More-- is on screen: the next key pages on */
	bool notice_more;        /* ... ending a page of the notice: the key shows its next page, or clears it */
	bool notice_paged;       /* the notice is a warning (ui_warn): wrapped and paged, not cut */
	int notice_seen;         /* rows of the notice (wrapped) already paged past */
	int notice_rows;         /* rows the whole notice takes, wrapped (set as it is drawn) */
	bool viewer;             /* drawn for the replay viewer: no play keys on the status line */
	char lines[UI_MSG_LINES][GAME_MESSAGE_LEN + 16]; /* the message lines of the frame, wrapped */
	bool line_fresh[UI_MSG_LINES];
	struct input_click click;
	char notice[GAME_MESSAGE_LEN * 2]; /* the UI's own one-frame message */
	unsigned msg_mark;       /* g->message_stamp when the last action began: newer ones are new */
	unsigned level_mark;     /* g->message_stamp before the action that entered this level: older
				  * messages belong to a level left behind and are not shown dim */
	bool done;
	enum ui_outcome outcome;
	int stale_reads;
	enum grid_topology grid_said; /* the grid of the level entered last (said on entering a level) */
	/* the UI's own lines kept for the history (P): the grid hints, which
	 * are not game messages (ui_say_grid), and the warnings of the hooks
	 * and the caller (a failed snapshot, a full save, a note at the
	 * start); the newest UI_NOTES */
	struct ui_note {
		unsigned stamp; /* g->message_stamp when said: after the messages up to it */
		int turn;
		char text[GAME_MESSAGE_LEN * 2]; /* as long as a notice */
	} notes[UI_NOTES];
	int n_notes;
	int pack_mode;           /* SCREEN_PACK: the key that opened it ('i', 'q', 'a', 'z', 't', 'w', 'W', 'd') */
	int pack_row0;           /* SCREEN_PACK: the screen row of its first item (clicks) */
	int pack_rows[PACK_SLOTS]; /* SCREEN_PACK: the slot shown on each row after pack_row0 (-1 none) */
	int pending;             /* SCREEN_DIR: the key waiting for a direction ('z', 'c') */
	int pending_slot;        /* SCREEN_DIR: its pack slot */
	bool targeting;          /* SCREEN_CURSOR chooses where f fires or t throws (Enter or a click
	                            acts, Tab the next monster) */
	int throw_slot;          /* targeting: the pack slot t throws by hand; -1: f, the launcher fires */
	int target;              /* targeting: the monster the cursor is on, -1 none */
	char desc[UI_DESC_LINES][2 * GAME_MESSAGE_LEN]; /* SCREEN_DESCRIBE: its lines */
	int n_desc;
	int desc_x, desc_y;      /* SCREEN_DESCRIBE: the cell described */
	enum ui_screen desc_back;/* SCREEN_DESCRIBE: the screen it returns to */
	struct settings settings;/* the options file's content, as O last kept it */
	struct settings shown;   /* SCREEN_OPTIONS: what is in effect now */
	bool colour_ok;          /* the terminal shows colours (u->colour may still be off) */
	bool mouse_on;           /* the mouse is taken now */
	struct ui_tty *tty;      /* the screen, whose mouse O switches (NULL: the key bench's, left alone) */
	int opt_sel;             /* SCREEN_OPTIONS: the row chosen */
	bool opt_changed;        /* SCREEN_OPTIONS: something changed since it opened */
	char opt_note[300];      /* SCREEN_OPTIONS: the line under it */
	enum ui_screen opt_back; /* SCREEN_OPTIONS: the screen it returns to */
};

/* ui_curses.c: a screen on g with options opt, as play starts it (the
 * welcome notice, the grid said); no curses call. */
void ui_init(struct ui *u, struct game *g, const struct ui_options *opt);
/* ui_curses.c: one key (input.h's names) on the screen shown now. */
void ui_key(struct ui *u, int key);
/* ui_curses.c: the player acts (cancels a --More--, says the result). */
void ui_act(struct ui *u, struct action a);
/* ui_curses.c: the cursor's notice after it moved. */
void ui_cursor_preview(struct ui *u);

/* ui_pack.c: the item keys on the map, the pack screen's keys and clicks,
 * the direction prompt, and the fire cursor's keys. */
void ui_pack_command(struct ui *u, int command);     /* an INPUT_* item command on the map */
void ui_pack_key(struct ui *u, int key);             /* a key on SCREEN_PACK */
void ui_pack_click(struct ui *u, int srow);          /* a left click on SCREEN_PACK */
void ui_dir_key(struct ui *u, int key);              /* a key on SCREEN_DIR */
void ui_dir_click(struct ui *u, int x, int y);       /* a left click on cell (x, y) on SCREEN_DIR */
bool ui_target_key(struct ui *u, int key);           /* SCREEN_CURSOR while targeting: true when taken */
void ui_aim_act(struct ui *u, int x, int y);         /* targeting: fire or throw at the cell, aiming ends */
/* ui_describe.c: describes cell (x, y) in full (a monster in view: hp,
 * blow, speed, odds, mind; known terrain: cost, what it does) and shows
 * SCREEN_DESCRIBE; false, nothing shown, for a cell never seen or the
 * player's own (the one-line description says it all). */
bool ui_describe_open(struct ui *u, int x, int y);
/* The box for the item in pack slot s (a capital letter in the pack); false: none there. */
bool ui_describe_slot(struct ui *u, int s);
/* ui_describe.c: the description's box over the map, away from the cell's screen row. */
void ui_draw_describe(struct ui *u, int cell_row);
/* ui_curses.c: opens the options screen from the screen shown now. */
void ui_options_open(struct ui *u);
/* ui_draw.c: the pack over the map. */
void ui_draw_pack(struct ui *u);

/* ui_draw.c: one frame, from the state, in one place. */
void ui_draw(struct ui *u);
/* ui_draw.c: the screen lines of the help at this width (its scroll limit). */
int ui_help_count(const struct ui *u);
/* ui_draw.c: the lines the history takes at this width (its scroll limit). */
int ui_history_lines(const struct ui *u);

#endif
