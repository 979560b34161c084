/*
 * ui_curses.c - the play screen's loop and keys: it starts the terminal
 * (through ui_screen.c), reads keys and mouse events, turns them into
 * game actions through the curses-free tables of input.c (the --More--
 * pages, the travel cursor, help and history scrolling, the quit
 * question), animates travel one step per turn with a short pause in
 * which any key stops it, and always gives the terminal back (endwin) on
 * quit, death, victory, a signal or a closed terminal.  It changes the
 * game only through game_act (a key that stops travel is ACT_STOP, so the
 * journal replays it) and, at the game's end, game_travel_cancel; rules
 * live in game.c.  Each frame is drawn by ui_draw.c; the key-press benchmark that
 * drives this screen is ui_bench.c's.  Like every file of src/ui (and no
 * other layer's) it includes curses.
 */
#include "ui.h"
#include "ui_curses_internal.h"

#include <curses.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "game.h"
#include "input.h"
#include "level.h"
#include "ui_options.h"
#include "ui_screen.h"

#define UI_IDLE_TIMEOUT_MS 200 /* how often an idle loop looks at the signal flag */
#define UI_MOUSE_EVENTS                                                                            \
	(BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON1_CLICKED | BUTTON3_PRESSED | BUTTON3_RELEASED | \
	 BUTTON3_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED)
/* the mask with the pointer's motion, when its route is wanted */
static mmask_t ui_mouse_mask(bool pointer)
{
	return UI_MOUSE_EVENTS | (pointer ? REPORT_MOUSE_POSITION : 0);
}

static void ui_notice(struct ui *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ui_notice(struct ui *u, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(u->notice, sizeof u->notice, fmt, ap);
	va_end(ap);
	u->notice_seen = 0; /* a new notice: from its first row, and not a warning */
	u->notice_paged = false;
}

/* Whether a key pages on through --More--: any key on the map; on the end
 * screen the keys that leave or show the history keep their meaning. */
static bool ui_pages_more(const struct ui *u, int key)
{
	if (u->screen == SCREEN_MAP)
		return true;
	if (u->screen != SCREEN_END)
		return false;
	enum input_command_kind k = input_key(key).kind;
	return k != INPUT_CONFIRM && k != INPUT_HISTORY && k != INPUT_HELP && k != INPUT_CANCEL;
}

/* A key while --More-- is shown: the next page (Escape: past them all);
 * a notice that took every message row goes first, to make room. */
static void ui_more_key(struct ui *u, int key)
{
	if (u->notice_more) {
		u->notice_more = false;
		u->notice_seen += UI_MESSAGE_ROWS;
		if (u->notice_seen >= u->notice_rows || key == INPUT_ESC)
			u->notice[0] = '\0'; /* read: the messages come next (Escape: past them too) */
		if (key != INPUT_ESC) {
			u->more = false;
			return;
		}
	}
	u->more_seen += key == INPUT_ESC ? UI_MSG_LINES : UI_MESSAGE_ROWS - (u->notice[0] ? 1 : 0);
	u->more = false;
}

/* Keeps text among the UI's notes, which the history (P) shows in their
 * place among the game's messages (the oldest goes when they are full). */
static void ui_note_keep(struct ui *u, const char *text)
{
	if (u->n_notes == UI_NOTES) {
		memmove(u->notes, u->notes + 1, (UI_NOTES - 1) * sizeof u->notes[0]);
		u->n_notes--;
	}
	struct ui_note *n = &u->notes[u->n_notes++];
	n->stamp = u->g->message_stamp;
	n->turn = u->g->turn;
	snprintf(n->text, sizeof n->text, "%s", text);
}

/* A warning the player must read (a failed snapshot, a full save,
 * saving failed): the notice, wrapped and paged whole
 * (ui_draw_messages), and kept in the history. */
static void ui_warn(struct ui *u, const char *text)
{
	ui_notice(u, "%s", text);
	u->notice_paged = true;
	ui_note_keep(u, text);
}

/*
 * Which grid a level uses, said on entering it (with the game's own entry
 * messages, on the notice row): the move keys differ by grid, and nothing
 * else tells a player that y u b n are the only moves on a diamond4 map.
 * Square8, the grid every roguelike player expects, is said only when the
 * level before was another grid: on an all-square8 campaign it would be
 * noise.  The notice is the UI's, not a game message: a game message is
 * part of the state every journal's checksums hash, so a new one would
 * make every saved game on those levels drift; the UI keeps it among its
 * notes, which the history (P) shows in their place.  NULL: nothing to say.
 */
static const char *ui_grid_note(enum grid_topology t)
{
	switch (t) {
	case GRID_SQUARE8:
		return "a square8 map: h j k l y u b n, all eight directions";
	case GRID_SQUARE4:
		return "a square4 map: h j k l move, no diagonal steps";
	case GRID_HEX:
		return "a hex map: y u up, h l sideways, b n down";
	case GRID_DIAMOND4:
		return "a diamond4 map: y u b n move, diagonally on screen";
	case GRID_DIAMOND8:
		return "a diamond8 map: y u b n diagonally, h j k l straight";
	}
	return NULL;
}

/* On entering a level (the game's start or stairs): the grid, when it is news. */
static void ui_say_grid(struct ui *u, bool first)
{
	enum grid_topology t = u->g->grid->topo;
	bool news = t != GRID_SQUARE8 || (!first && u->grid_said != GRID_SQUARE8);
	u->grid_said = t;
	const char *note = ui_grid_note(t);
	if (news && note && !u->notice[0]) { /* a hook's warning (saving failed) comes first */
		ui_notice(u, "This level is %s (? keys).", note);
		ui_note_keep(u, u->notice); /* and into the history, where P finds it again */
	}
}

/* ---- the options screen (O) ------------------------------------------- */

void ui_options_open(struct ui *u)
{
	u->opt_back = u->screen;
	u->screen = SCREEN_OPTIONS;
	u->opt_changed = false;
	u->shown = (struct settings){ .delay_ms = u->opt.step_delay_ms, .colour = u->colour || (!u->colour_ok && u->settings.colour),
				      .mouse = u->mouse_on, .pointer = u->settings.pointer };
	if (u->opt.settings_dir)
		snprintf(u->opt_note, sizeof u->opt_note, "Kept in %s/%s for the next games.", u->opt.settings_dir,
			 SETTINGS_FILE);
	else
		snprintf(u->opt_note, sizeof u->opt_note, "Not kept after this game: it is played with --no-save.");
}

/* A change on row sel of the options screen takes effect now, and goes
 * into what the file will keep. */
static void ui_options_apply(struct ui *u, int sel)
{
	const struct settings *s = &u->shown;
	if (sel == 0) {
		u->opt.step_delay_ms = s->delay_ms;
		u->settings.delay_ms = s->delay_ms;
	} else if (sel == 1) {
		u->settings.colour = s->colour;
		u->colour = u->colour_ok && s->colour;
		if (s->colour && !u->colour_ok)
			snprintf(u->opt_note, sizeof u->opt_note,
				 "This terminal shows no colours (or NO_COLOR is set): kept for one that does.");
	} else {
		u->settings.mouse = s->mouse;
		u->settings.pointer = s->pointer;
		u->mouse_on = s->mouse;
		if (u->tty)
			ui_screen_mouse_set(u->tty, s->mouse, UI_MOUSE_EVENTS, s->pointer);
		u->hover = false;
	}
}

static void ui_options_key_in(struct ui *u, int key)
{
	bool changed;
	int sel = u->opt_sel;
	bool done = ui_options_key(&u->shown, &u->opt_sel, key, &changed);
	if (changed) {
		ui_options_apply(u, sel);
		u->opt_changed = true;
	}
	if (!done)
		return;
	u->screen = u->opt_back;
	if (!u->opt_changed)
		return;
	char err[400];
	if (!u->opt.settings_dir)
		ui_notice(u, "Options changed for this game (not kept: --no-save).");
	else if (settings_save(u->opt.settings_dir, &u->settings, err, sizeof err))
		ui_notice(u, "Options kept in %s.", SETTINGS_FILE);
	else
		ui_notice(u, "The options could not be kept: %s", err);
}

/* ---- acting ----------------------------------------------------------- */

void ui_act(struct ui *u, struct action a)
{
	struct game *g = u->g;
	u->hover = false; /* the player moves: the pointer's route is planned again when it moves */
	u->msg_mark = g->message_stamp;
	u->more_seen = 0;
	enum act_result r = game_act(g, &a);
	const struct ui_hooks *h = u->opt.hooks;
	char msg[sizeof u->notice];
	if (h && h->acted && !h->acted(h->ud, g, &a, r, msg, sizeof msg)) {
		/* keys typed ahead would take the notice away unseen; it is
		 * wrapped over the message rows, and kept in the history */
		flushinp();
		ui_warn(u, msg);
	}
	if (r == RESULT_NEW_LEVEL) {
		u->level_mark = u->msg_mark;
		u->view.col0 = u->view.row0 = -1; /* centre the new level */
		u->screen = SCREEN_MAP;
		ui_say_grid(u, false);
	}
	if (r == RESULT_DIED || r == RESULT_WON || g->over) {
		game_travel_cancel(g);
		u->screen = SCREEN_END;
		u->outcome = g->won ? UI_WON : UI_DIED;
	}
}

/* A left click on a cell, or Enter on the cursor: the same thing. */
static void ui_go_to(struct ui *u, int x, int y)
{
	struct game *g = u->g;
	if (x == g->player.x && y == g->player.y) {
		/* on the stairs a click on oneself takes them; elsewhere it waits */
		bool stairs = g->tiles[grid_index(g->grid, x, y)] == TILE_EXIT;
		ui_act(u, (struct action){ .kind = stairs ? ACT_DESCEND : ACT_WAIT });
		return;
	}
	/* a click on a monster one step away attacks it, as walking into it */
	const struct monster *m = grid_in_bounds(g->grid, x, y) ? game_monster_at(g, x, y) : NULL;
	if (m && m->alive && g->visible[grid_index(g->grid, x, y)])
		for (int d = 0; d < GRID_DIR_COUNT; d++) {
			int nx, ny;
			if (grid_dir_step(g->grid, g->player.x, g->player.y, (enum grid_dir)d, &nx, &ny) && nx == x &&
			    ny == y) {
				ui_act(u, (struct action){ .kind = ACT_MOVE, .dir = (enum grid_dir)d });
				return;
			}
		}
	ui_act(u, (struct action){ .kind = ACT_TRAVEL, .x = x, .y = y });
}

/* > off the stairs, on the map or in the cursor: the nearest known down
 * stairs, as a travel goal (DCSS's G>, Brogue's >). */
static bool ui_stairs_goal(struct ui *u, int *x, int *y)
{
	if (game_known_stairs(u->g, x, y))
		return true;
	ui_notice(u, "You have not seen any stairs down yet.");
	return false;
}

static void ui_describe(struct ui *u, int x, int y)
{
	char what[GAME_MESSAGE_LEN];
	game_describe(u->g, x, y, what, sizeof what);
	ui_notice(u, "%s (%d,%d)", what, x, y);
	ui_describe_open(u, x, y); /* and in full, for a monster or known terrain */
}

static void ui_no_direction(struct ui *u, enum grid_dir d)
{
	if (u->g->grid->topo == GRID_HEX && input_is_vertical(d))
		ui_notice(u, "No straight up or down on a hex map: use y u b n (numpad 7 9 1 3).");
	else if (u->g->grid->topo == GRID_SQUARE4)
		ui_notice(u, "No diagonal steps on this map: it is 4-connected.");
	else if (u->g->grid->topo == GRID_DIAMOND4)
		ui_notice(u, "No corner steps on a diamond4 map: use y u b n (numpad 7 9 1 3).");
	else
		ui_notice(u, "You cannot go that way.");
}

static void ui_move(struct ui *u, enum grid_dir d)
{
	struct game *g = u->g;
	int nx, ny;
	if (!grid_dir_step(g->grid, g->player.x, g->player.y, d, &nx, &ny)) {
		ui_no_direction(u, d);
		return;
	}
	ui_act(u, (struct action){ .kind = ACT_MOVE, .dir = d });
}

/* The step of a move key (input_move_dir); on hex, when the upper (lower)
 * neighbour that keeps the column is a wall the player knows and the
 * other is not, the other: up goes up where it can. */
static enum grid_dir ui_hex_vertical(const struct game *g, int key, enum grid_dir d)
{
	enum grid_dir step = input_move_dir(g->grid->topo, key, d, g->player.y);
	if (g->grid->topo != GRID_HEX || !input_is_vertical(d))
		return step;
	enum grid_dir other = step == GRID_NE ? GRID_NW : step == GRID_NW ? GRID_NE : step == GRID_SE ? GRID_SW : GRID_SE;
	int x1, y1, x2, y2;
	/* off the map is a wall too: a level need not have a border */
	bool ok1 = grid_dir_step(g->grid, g->player.x, g->player.y, step, &x1, &y1) && grid_in_bounds(g->grid, x1, y1),
	     ok2 = grid_dir_step(g->grid, g->player.x, g->player.y, other, &x2, &y2) && grid_in_bounds(g->grid, x2, y2);
	bool wall1 = !ok1 || (g->remembered[grid_index(g->grid, x1, y1)] && g->known[grid_index(g->grid, x1, y1)] == 0);
	bool wall2 = !ok2 || (g->remembered[grid_index(g->grid, x2, y2)] && g->known[grid_index(g->grid, x2, y2)] == 0);
	return wall1 && !wall2 ? other : step;
}

/* Shifted direction keys run straight on (ACT_RUN, interruptible like
 * travel); a run that cannot start is a plain move (bump, attack, door). */
static void ui_run_dir(struct ui *u, enum grid_dir d)
{
	struct game *g = u->g;
	int nx, ny;
	if (!grid_dir_step(g->grid, g->player.x, g->player.y, d, &nx, &ny)) {
		ui_no_direction(u, d);
		return;
	}
	ui_act(u, (struct action){ .kind = ACT_RUN, .dir = d });
}

/* Plans the route travel to (x, y) would walk and keeps it in u->preview
 * for drawing (when it fits in memory); *len its cells, the player's first. */
static enum path_status ui_plan_preview(struct ui *u, int x, int y, int *len)
{
	const int *cells;
	u->preview_len = 0;
	enum path_status st = game_travel_plan(u->g, x, y, &cells, len);
	if (*len > u->preview_cap) {
		int *grown = realloc(u->preview, (size_t)*len * sizeof *grown);
		if (grown) {
			u->preview = grown;
			u->preview_cap = *len;
		}
	}
	if (*len <= u->preview_cap && *len > 0) {
		memcpy(u->preview, cells, (size_t)*len * sizeof *cells);
		u->preview_len = *len;
	}
	return st;
}

/* What a plan of status st and len cells (the player's first) says of the
 * way, for the travel cursor's line and (`brief`) the pointer's. */
static void ui_way_words(const struct game *g, enum path_status st, int len, bool brief, char *buf, size_t size)
{
	const int steps = len - 1;
	const char *s = steps == 1 ? "" : "s";
	const bool weighted = g->reach.weight > 1.0;
	if (len < 2)
		snprintf(buf, size, brief ? "no way closer" : "no way closer from here");
	else if (st == PATH_FOUND)
		snprintf(buf, size, "%d step%s%s", steps, s, weighted && !brief ? " (a long way: a near-shortest route)" : "");
	else if (st == PATH_BUDGET)
		snprintf(buf, size, "%d step%s toward it%s", steps, s,
			 brief ? "" : weighted ? " (the rest planned as you walk)" : " (planned in part)");
	else
		snprintf(buf, size, brief ? "out of reach, %d step%s closer" : "out of reach, %d step%s to the closest point",
			 steps, s);
}

/* Plans the route Enter would travel from the cursor, keeps it for drawing,
 * and says where it leads. */
void ui_cursor_preview(struct ui *u)
{
	struct game *g = u->g;
	char what[GAME_MESSAGE_LEN];
	game_describe(g, u->cursor_x, u->cursor_y, what, sizeof what);
	u->preview_len = 0;
	if (u->targeting) {
		int steps = grid_step_distance(g->grid, grid_index(g->grid, g->player.x, g->player.y),
					       grid_index(g->grid, u->cursor_x, u->cursor_y));
		const bool throwing = u->throw_slot >= 0;
		const int range = throwing ? game_throw_range(g, u->throw_slot) : game_fire_range(g);
		char reach[48] = "";
		if (steps > range)
			snprintf(reach, sizeof reach, ": out of range (%d)", range);
		/* the figures first: a monster's description is long and its end is cut */
		ui_notice(u, "%s %d step%s%s (Enter %s, Tab next, Esc cancels): %s", throwing ? "Throw" : "Fire",
			  steps, steps == 1 ? "" : "s", reach, throwing ? "throws" : "fires", what);
		return;
	}
	/* the way first, then the cell: a description is long, and the line
	 * is cut at the screen's edge */
	char way[96];
	if (u->cursor_x == g->player.x && u->cursor_y == g->player.y) {
		snprintf(way, sizeof way, "Enter waits a turn");
	} else {
		int len;
		const enum path_status st = ui_plan_preview(u, u->cursor_x, u->cursor_y, &len);
		ui_way_words(g, st, len, false, way, sizeof way);
	}
	ui_notice(u, "Travel to (%d,%d): %s; %s", u->cursor_x, u->cursor_y, way, what);
}

static void ui_cursor_move(struct ui *u, enum grid_dir d, int count)
{
	const struct game *g = u->g;
	for (int i = 0; i < count; i++) {
		int nx, ny;
		if (!grid_dir_step(g->grid, u->cursor_x, u->cursor_y, d, &nx, &ny)) {
			if (g->grid->topo != GRID_HEX || !input_is_vertical(d)) {
				ui_no_direction(u, d);
				return;
			}
			/* the cursor may go straight up or down a row on hex */
			nx = u->cursor_x;
			ny = u->cursor_y + (d == GRID_N ? -1 : 1);
		}
		if (!grid_in_bounds(g->grid, nx, ny))
			break;
		u->cursor_x = nx;
		u->cursor_y = ny;
	}
	ui_cursor_preview(u);
}

static void ui_key_map(struct ui *u, int key)
{
	struct input_command c = input_key(key);
	switch (c.kind) {
	case INPUT_MOVE:
		if (c.count > 1)
			ui_run_dir(u, c.dir);
		else
			ui_move(u, ui_hex_vertical(u->g, key, c.dir));
		break;
	case INPUT_WAIT:
		ui_act(u, (struct action){ .kind = ACT_WAIT });
		break;
	case INPUT_DESCEND: {
		const struct game *g = u->g;
		int x, y;
		if (g->tiles[grid_index(g->grid, g->player.x, g->player.y)] == TILE_EXIT)
			ui_act(u, (struct action){ .kind = ACT_DESCEND });
		else if (ui_stairs_goal(u, &x, &y))
			ui_act(u, (struct action){ .kind = ACT_TRAVEL, .x = x, .y = y });
		break;
	}
	case INPUT_HELP:
		u->screen = SCREEN_HELP;
		u->back = SCREEN_MAP;
		u->help_top = 0;
		break;
	case INPUT_HISTORY:
		u->screen = SCREEN_HISTORY;
		u->back = SCREEN_MAP;
		u->history_back = 0;
		break;
	case INPUT_REST:
		ui_act(u, (struct action){ .kind = ACT_REST });
		break;
	case INPUT_QUAFF:
	case INPUT_READ:
	case INPUT_ZAP:
	case INPUT_THROW:
	case INPUT_FIRE:
	case INPUT_WIELD:
	case INPUT_WEAR:
	case INPUT_DROP:
	case INPUT_PICKUP:
	case INPUT_CLOSE:
	case INPUT_NEXT:
	case INPUT_INVENTORY:
		ui_pack_command(u, c.kind);
		break;
	case INPUT_EXPLORE:
		ui_act(u, (struct action){ .kind = ACT_EXPLORE });
		break;
	case INPUT_QUIT:
		u->screen = SCREEN_QUIT;
		break;
	case INPUT_CURSOR:
	case INPUT_DESCRIBE: /* v on the map: the cursor, where v describes */
		u->screen = SCREEN_CURSOR;
		u->targeting = false;
		u->cursor_x = u->g->player.x;
		u->cursor_y = u->g->player.y;
		ui_cursor_move(u, GRID_N, 0);
		break;
	case INPUT_ROUTES:
		u->routes = !u->routes;
		ui_notice(u, u->routes ? "Monster routes (:) and targets shown; r hides them."
				       : "Monster routes hidden.");
		break;
	case INPUT_REDRAW:
		clearok(curscr, TRUE);
		break;
	case INPUT_OPTIONS:
		ui_options_open(u);
		break;
	case INPUT_CONFIRM:
	case INPUT_CANCEL:
		break;
	case INPUT_NONE:
		/* one wording, as the editor's */
		if (key > ' ' && key < 127)
			ui_notice(u, "Unknown key '%c': press ? for help.", key);
		else if (key == '\t')
			ui_notice(u, "Unknown key Tab: press ? for help.");
		else
			ui_notice(u, "Unknown key: press ? for help.");
		break;
	}
}

void ui_key(struct ui *u, int key)
{
	struct input_command c = input_key(key);
	switch (u->screen) {
	case SCREEN_MAP:
		ui_key_map(u, key);
		break;
	case SCREEN_PACK:
		ui_pack_key(u, key);
		break;
	case SCREEN_DIR:
		ui_dir_key(u, key);
		break;
	case SCREEN_CURSOR:
		if (u->targeting && ui_target_key(u, key))
			break;
		if (c.kind == INPUT_MOVE) {
			/* hex: the cursor goes straight up a row (ui_cursor_move) */
			enum grid_topology topo = u->g->grid->topo;
			ui_cursor_move(u, topo == GRID_HEX ? c.dir : input_move_dir(topo, key, c.dir, u->cursor_y),
				       c.count);
		} else if (c.kind == INPUT_DESCEND) {
			int x, y;
			if (ui_stairs_goal(u, &x, &y)) {
				u->cursor_x = x;
				u->cursor_y = y;
				ui_cursor_move(u, GRID_N, 0);
			}
		} else if (c.kind == INPUT_DESCRIBE) {
			if (!ui_describe_open(u, u->cursor_x, u->cursor_y))
				ui_cursor_preview(u); /* unexplored, or you: the line says it */
		} else if (c.kind == INPUT_CONFIRM || c.kind == INPUT_CURSOR) {
			u->screen = SCREEN_MAP;
			u->notice[0] = '\0';
			ui_go_to(u, u->cursor_x, u->cursor_y);
		} else if (c.kind == INPUT_CANCEL || c.kind == INPUT_QUIT || c.kind == INPUT_QUAFF) {
			u->screen = SCREEN_MAP;
			u->notice[0] = '\0';
		} else {
			ui_notice(u, "Move the cursor (> the stairs); v describes, Enter goes there, Esc cancels.");
		}
		break;
	case SCREEN_HELP: {
		int page = LINES > 3 ? LINES - 2 : 1;
		int lines = ui_help_count(u);
		int most = lines - (LINES - 1) > 0 ? lines - (LINES - 1) : 0;
		if (key == INPUT_UP || key == 'k')
			u->help_top--;
		else if (key == INPUT_DOWN || key == 'j')
			u->help_top++;
		else if (key == INPUT_PGUP)
			u->help_top -= page;
		else if (key == INPUT_PGDN)
			u->help_top += page;
		else
			u->screen = u->back;
		if (u->help_top > most)
			u->help_top = most;
		if (u->help_top < 0)
			u->help_top = 0;
		break;
	}
	case SCREEN_HISTORY: {
		int page = LINES > 4 ? LINES - 3 : 1;
		int lines = ui_history_lines(u);
		int most = lines - (LINES - 1) > 0 ? lines - (LINES - 1) : 0;
		if (key == INPUT_UP || key == 'k')
			u->history_back++;
		else if (key == INPUT_DOWN || key == 'j')
			u->history_back--;
		else if (key == INPUT_PGUP)
			u->history_back += page;
		else if (key == INPUT_PGDN)
			u->history_back -= page;
		else
			u->screen = u->back;
		if (u->history_back > most)
			u->history_back = most;
		if (u->history_back < 0)
			u->history_back = 0;
		break;
	}
	case SCREEN_OPTIONS:
		ui_options_key_in(u, key);
		break;
	case SCREEN_DESCRIBE:
		/* any key returns; one that means something there (a move, Q)
		 * does it too, so reading a monster costs no extra key */
		u->screen = u->desc_back;
		if (c.kind != INPUT_CANCEL && c.kind != INPUT_CONFIRM && c.kind != INPUT_DESCRIBE && key != ' ')
			ui_key(u, key);
		break;
	case SCREEN_QUIT:
		if (key == 'y' || key == 'Y') {
			u->outcome = UI_QUIT;
			u->done = true;
		} else {
			u->screen = SCREEN_MAP;
		}
		break;
	case SCREEN_END:
		if (c.kind == INPUT_HISTORY) {
			u->screen = SCREEN_HISTORY;
			u->back = SCREEN_END;
			u->history_back = 0;
		} else if (c.kind == INPUT_HELP) {
			u->screen = SCREEN_HELP;
			u->back = SCREEN_END;
			u->help_top = 0;
		} else if (c.kind == INPUT_CONFIRM || c.kind == INPUT_CANCEL || c.kind == INPUT_QUIT ||
			   key == 'q' || key == ' ') {
			u->done = true;
		}
		break;
	}
}

/* ---- curses input ----------------------------------------------------- */

/* curses key codes to the names input.c knows; F1 is help, as in most programs. */
static int ui_translate_key(int ch)
{
	return ch == KEY_F(1) ? '?' : ui_screen_key(ch);
}

static void ui_click(struct ui *u, enum input_button b, int scol, int srow)
{
	if (ui_screen_too_small())
		return;
	int x, y;
	if (u->screen == SCREEN_MAP && b == INPUT_BUTTON_LEFT && srow == LINES - 1 && scol >= u->help_col0 &&
	    scol <= u->help_col1 && u->help_col0 >= 0) {
		u->screen = SCREEN_HELP; /* the status line's "? help" */
		u->back = SCREEN_MAP;
		u->help_top = 0;
		return;
	}
	if ((u->screen == SCREEN_MAP || u->screen == SCREEN_CURSOR) && u->side_w && scol >= COLS - u->side_w) {
		/* the list of what is in view: a click on a line describes its
		 * monster or item; the rest of it is not the map */
		const int r = srow - u->view.top;
		const int c = r >= 0 && r < UI_SIDE_ROWS ? u->side_cell[r] : -1;
		if (c >= 0 && c < u->g->grid->w * u->g->grid->h)
			ui_describe(u, grid_x(u->g->grid, c), grid_y(u->g->grid, c));
		return;
	}
	switch (u->screen) {
	case SCREEN_MAP:
	case SCREEN_CURSOR:
		input_screen_to_cell(&u->view, u->g->grid, scol, srow, &x, &y);
		if (b == INPUT_BUTTON_RIGHT) {
			ui_describe(u, x, y);
			break;
		}
		if (u->screen == SCREEN_CURSOR && u->targeting) {
			ui_aim_act(u, x, y); /* aiming, a click fires or throws there */
			break;
		}
		u->screen = SCREEN_MAP;
		u->notice[0] = '\0';
		ui_go_to(u, x, y);
		break;
	case SCREEN_HELP:
		u->screen = u->back;
		break;
	case SCREEN_DESCRIBE:
		u->screen = u->desc_back;
		break;
	case SCREEN_OPTIONS: {
		const int r = ui_options_row_at(srow);
		if (r >= 0)
			u->opt_sel = r;
		ui_options_key_in(u, r < 0 ? INPUT_ESC : b == INPUT_BUTTON_RIGHT ? 'h' : '\n');
		break;
	}
	case SCREEN_DIR:
		/* a direction asked for: a click gives the line toward it */
		input_screen_to_cell(&u->view, u->g->grid, scol, srow, &x, &y);
		if (b == INPUT_BUTTON_LEFT)
			ui_dir_click(u, x, y);
		else
			u->screen = SCREEN_MAP;
		break;
	case SCREEN_QUIT:
		u->screen = SCREEN_MAP;
		break;
	case SCREEN_PACK:
		if (b == INPUT_BUTTON_LEFT)
			ui_pack_click(u, srow);
		break;
	case SCREEN_HISTORY:
	case SCREEN_END:
		break;
	}
}

/*
 * The pointer moved (no button down): on a map cell, on the map screen,
 * idle, its travel route is planned and drawn (as Brogue does), the cell
 * described beside the map when the monster list is up; anywhere else,
 * nothing.  A burst of motion is read to its end first, so only where the
 * pointer stops is planned (a far plan on a 4096x4096 level takes up to
 * a frame).
 */
static void ui_hover(struct ui *u, MEVENT ev)
{
	for (;;) {
		int c = ui_screen_waiting();
		if (c == ERR)
			break;
		if (c != KEY_MOUSE) {
			ui_screen_unread(c, NULL);
			break;
		}
		MEVENT run[UI_MOUSE_RUN];
		const int n = ui_screen_mouse_run(run, UI_MOUSE_RUN);
		bool motion = n > 0;
		for (int k = 0; k < n; k++)
			motion = motion && (run[k].bstate & REPORT_MOUSE_POSITION);
		if (motion) {
			ev = run[0]; /* the newest */
			continue;
		}
		/* a click or the wheel behind the motion: all of the run back,
		 * oldest first, for ui_mouse (an empty run: its KEY_MOUSE) */
		for (int k = n - 1; k >= 0; k--)
			ui_screen_unread(c, &run[k]);
		if (n == 0)
			ui_screen_unread(c, NULL);
		break;
	}
	const struct game *g = u->g;
	const struct input_view *v = &u->view;
	int x = -1, y = -1;
	/* over the map's own text (between two hex cells: the one a click
	 * there goes to), not the blank around a small map */
	const int col = ev.x - v->left + v->col0, row = ev.y - v->top + v->row0;
	const bool over_map = !g->over && !u->more && !ui_screen_too_small() && ev.y >= v->top &&
			      ev.y < v->top + v->height && ev.x >= v->left && ev.x < v->left + v->width && col >= 0 &&
			      col < grid_screen_width(g->grid) && row >= 0 && row < g->grid->h;
	if (over_map)
		grid_screen_to_cell(g->grid, col, row, &x, &y);
	if (u->screen == SCREEN_CURSOR) {
		/* aiming (f, t) or the travel cursor (x): the cursor follows the
		 * pointer, so a click acts where it shows (a travel plan only
		 * when no thread would hold it up) */
		if (over_map && (x != u->cursor_x || y != u->cursor_y) && (u->targeting || !game_travel_busy(g))) {
			u->cursor_x = x;
			u->cursor_y = y;
			ui_cursor_preview(u);
		}
		return;
	}
	const bool on_map = over_map && u->screen == SCREEN_MAP && !g->travel.active;
	if (!on_map || (x == g->player.x && y == g->player.y) || game_travel_busy(g)) {
		/* off the map; or a thread is peeling a large maze, which a
		 * plan would wait for (a click waits; a mouse moved does not) */
		u->hover = false;
		return;
	}
	if (u->hover && x == u->hover_x && y == u->hover_y)
		return;
	u->hover = true;
	u->hover_x = x;
	u->hover_y = y;
	int len;
	enum path_status st = ui_plan_preview(u, x, y, &len);
	/* the way first, then the cell: a monster's description is long */
	char what[GAME_MESSAGE_LEN], way[64];
	game_describe(g, x, y, what, sizeof what);
	ui_way_words(g, st, len, true, way, sizeof way);
	snprintf(u->hover_what, sizeof u->hover_what, "(%d,%d) %s: %s", x, y, way, what);
}

static void ui_mouse_event(struct ui *u, MEVENT ev);

/* A KEY_MOUSE: its run of reports, oldest first; of several motions in a
 * row only the last one counts. */
static void ui_mouse(struct ui *u)
{
	MEVENT run[UI_MOUSE_RUN];
	const int n = ui_screen_mouse_run(run, UI_MOUSE_RUN);
	for (int k = n - 1; k >= 0; k--) {
		if ((run[k].bstate & REPORT_MOUSE_POSITION) && k > 0 && (run[k - 1].bstate & REPORT_MOUSE_POSITION))
			continue;
		ui_mouse_event(u, run[k]);
	}
}

static void ui_mouse_event(struct ui *u, MEVENT ev)
{
	if (ev.bstate & REPORT_MOUSE_POSITION) {
		ui_hover(u, ev);
		return;
	}
	static const struct {
		mmask_t mask;
		enum input_button button;
		enum input_mouse_phase phase;
	} events[] = {
		{ BUTTON1_PRESSED, INPUT_BUTTON_LEFT, INPUT_PRESSED },
		{ BUTTON1_RELEASED, INPUT_BUTTON_LEFT, INPUT_RELEASED },
		{ BUTTON1_CLICKED, INPUT_BUTTON_LEFT, INPUT_CLICKED },
		{ BUTTON1_DOUBLE_CLICKED, INPUT_BUTTON_LEFT, INPUT_CLICKED },
		{ BUTTON1_TRIPLE_CLICKED, INPUT_BUTTON_LEFT, INPUT_CLICKED },
		{ BUTTON3_PRESSED, INPUT_BUTTON_RIGHT, INPUT_PRESSED },
		{ BUTTON3_RELEASED, INPUT_BUTTON_RIGHT, INPUT_RELEASED },
		{ BUTTON3_CLICKED, INPUT_BUTTON_RIGHT, INPUT_CLICKED },
		{ BUTTON3_DOUBLE_CLICKED, INPUT_BUTTON_RIGHT, INPUT_CLICKED },
		{ BUTTON3_TRIPLE_CLICKED, INPUT_BUTTON_RIGHT, INPUT_CLICKED },
	};
	if (u->screen == SCREEN_HISTORY) {
		/* the wheel scrolls the history; it means nothing elsewhere */
		if (ev.bstate & BUTTON4_PRESSED)
			ui_key(u, INPUT_UP);
		else if (ev.bstate & BUTTON5_PRESSED)
			ui_key(u, INPUT_DOWN);
		return;
	}
	for (size_t i = 0; i < sizeof events / sizeof events[0]; i++) {
		if (!(ev.bstate & events[i].mask))
			continue;
		/* a press stops travel at once; its release (or the click) then acts */
		if (u->g->travel.active && events[i].button == INPUT_BUTTON_LEFT)
			ui_act(u, (struct action){ .kind = ACT_STOP });
		if (!input_click_event(&u->click, events[i].button, events[i].phase))
			continue;
		if (u->more && u->screen == SCREEN_MAP)
			ui_more_key(u, ' '); /* a click pages on like a key, and does nothing else */
		else
			ui_click(u, events[i].button, ev.x, ev.y);
	}
}

void ui_init(struct ui *u, struct game *g, const struct ui_options *opt)
{
	memset(u, 0, sizeof *u);
	u->g = g;
	u->opt = *opt;
	u->screen = SCREEN_MAP;
	u->view.col0 = u->view.row0 = -1;
	for (int r = 0; r < UI_SIDE_ROWS; r++)
		u->side_cell[r] = -1; /* no list drawn yet */
	u->outcome = UI_QUIT;
	u->mouse_on = opt->mouse;
	if (opt->settings)
		u->settings = *opt->settings;
	else
		settings_default(&u->settings);
	/* A game resumed past its start has its whole message log rebuilt by
	 * the replay: that is history (P), not news to page through with
	 * --More-- while a monster closes in.  A new game shows its opening
	 * messages. */
	u->msg_mark = g->turn > 0 ? g->message_stamp : 0;
	u->grid_said = g->grid->topo;
	if (g->turn > 0) {
		const struct level *lv = game_level(g);
		const char *grid = g->grid->topo == GRID_SQUARE8 ? "" : grid_topology_name(g->grid->topo);
		ui_notice(u, "Welcome back: %s%s%s%s, turn %d; P: messages.",
			  lv && lv->name ? lv->name : "your game", grid[0] ? " (a " : "", grid, grid[0] ? " map)" : "",
			  g->turn);
	} else {
		ui_say_grid(u, true);
	}
}


static void ui_loop(struct ui *u)
{
	struct game *g = u->g;
	while (!u->done) {
		if (ui_screen_signal()) {
			u->outcome = UI_SIGNAL;
			break;
		}
		ui_draw(u);
		/* the first frame is up (a resumed game shows as soon as it is
		 * rebuilt): now what the first clicks need (once; later levels
		 * do it as they load) */
		game_prefault(g);
		bool travelling = g->travel.active && u->screen == SCREEN_MAP && !ui_screen_too_small() && !u->more;
		/* travel's next step is due at a time, not after a quiet spell:
		 * the pointer's motion, read meanwhile, must not hold it back */
		int wait = UI_IDLE_TIMEOUT_MS;
		if (travelling) {
			const double now = clock_us() / 1000.0;
			if (u->step_at <= 0)
				u->step_at = now + u->opt.step_delay_ms;
			wait = u->step_at > now ? (int)(u->step_at - now + 0.5) : 0;
		} else {
			u->step_at = 0;
		}
		int ch = ui_screen_read(wait, &u->stale_reads);
		if (ch == UI_READ_SIGNAL)
			continue;
		if (ch == UI_READ_GONE) {
			u->outcome = UI_HANGUP;
			break;
		}
		if (ch == ERR) {
			if (travelling) {
				u->step_at = 0;
				ui_act(u, (struct action){ .kind = ACT_TRAVEL_STEP });
			}
			continue;
		}
		if (ch == KEY_RESIZE)
			continue; /* the next frame is laid out for the new size */
		if (ch == KEY_MOUSE) {
			ui_mouse(u);
			continue;
		}
		u->hover = false; /* a key: the keys' screens, not the pointer's route */
		if (ui_screen_too_small()) {
			if (ch == 'q' || ch == 'Q' || ch == INPUT_CTRL('q')) {
				u->outcome = UI_QUIT; /* nothing to confirm on: the notice says Q quits */
				u->done = true;
			}
			continue;
		}
		if (u->more && ui_pages_more(u, ui_translate_key(ch))) {
			ui_more_key(u, ui_translate_key(ch));
			continue;
		}
		if (u->screen == SCREEN_MAP)
			u->notice[0] = '\0';
		if (g->travel.active && u->screen == SCREEN_MAP) {
			/* any key stops travel, and does nothing else: said, as
			 * every other stop is; an action, so that the journal
			 * replays the stop */
			ui_act(u, (struct action){ .kind = ACT_STOP });
			ui_notice(u, "You stop: you pressed a key.");
			continue;
		}
		ui_key(u, ui_translate_key(ch));
	}
}

enum ui_outcome ui_run(struct game *g, const struct ui_options *opt, int *signal_number,
		       char *err, size_t errlen)
{
	struct ui_signals sigs;
	ui_screen_signals_install(&sigs);
	*signal_number = 0;
	struct ui_tty scr;
	if (!ui_screen_start(&scr, opt->mouse, ui_mouse_mask(!opt->settings || opt->settings->pointer), false, err,
			     errlen)) {
		ui_screen_signals_restore(&sigs);
		return UI_ERROR;
	}
	struct ui u;
	ui_init(&u, g, opt);
	u.tty = &scr;
	u.colour_ok = scr.colour;
	u.colour = scr.colour && !opt->no_colour;
	if (opt->note && opt->note[0]) {
		/* a broken options file, a saved game found ended: said first
		 * on its row (the first key stays the player's), and kept in
		 * the history whole */
		ui_notice(&u, "%s", opt->note);
		ui_note_keep(&u, opt->note);
	}
	ui_loop(&u);
	if (opt->hooks && opt->hooks->stopping)
		opt->hooks->stopping(opt->hooks->ud, g);
	free(u.preview);
	ui_screen_stop(&scr);
	ui_screen_signals_restore(&sigs);
	*signal_number = ui_screen_signal();
	if (u.outcome == UI_SIGNAL && *signal_number == SIGHUP)
		u.outcome = UI_HANGUP;
	return u.outcome;
}
