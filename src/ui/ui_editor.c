/*
 * ui_editor.c - the screen of `astray edit`.  It draws the editor model
 * (src/world/tools/editor.h) every frame in one place (ued_draw): the map with
 * the problem cells, the marker route and the monsters' routes laid over
 * it, a side panel with the palette, the tool, the route figures and the
 * list of problems; it turns keys (through input.h's table, so the cursor
 * moves with the game's keys) and mouse presses, drags and releases into
 * editor calls, shows the header screen (I) with its line editor and the
 * resize mode (R), saves through editor_save, and starts a play-test through
 * ui_run on the level as it is in memory.  It changes the level only
 * through editor.h and gives the terminal back (endwin) however it ends.
 */
#include "ui_editor.h"

#include <curses.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "game.h"
#include "input.h"
#include "level.h"
#include "ui_palette.h"
#include "ui_screen.h"

#define UED_IDLE_MS 200
#define UED_PANEL_W 34        /* the side panel's least width, when the terminal is wide enough */
#define UED_PANEL_MIN_COLS 64 /* below this width the panel is left out */
#define UED_TOP_ROWS 2        /* status line, notice line */
#define UED_BOTTOM_ROWS 1     /* key hints */
#define UED_VOID '_'          /* how a void cell (no cell: outside the map's shape) is drawn */

enum ued_screen { UED_EDIT, UED_HELP, UED_QUIT, UED_MONSTER, UED_HEADER, UED_INPUT, UED_RESIZE, UED_SIM };

#define UED_SIM_TURNS 1000    /* a quick sim's game is out of turns here, as sim's default */
#define UED_SIM_SLICE_US 50000 /* games played between two looks at the keyboard, in wall time */
static const int ued_sim_sizes[] = { 20, 100, 500, 2000 };
enum ued_tool { TOOL_PENCIL, TOOL_LINE, TOOL_RECT, TOOL_BOX, TOOL_FILL, TOOL_MARKER, TOOL_SELECT, TOOL_STAMP,
		TOOL_COUNT };

static const struct {
	const char *name;
	int key;
} tools[TOOL_COUNT] = {
	[TOOL_PENCIL] = { "pencil", 'd' }, [TOOL_LINE] = { "line", 'i' },
	[TOOL_RECT] = { "rectangle", 'o' }, [TOOL_BOX] = { "filled rectangle", 'O' },
	[TOOL_FILL] = { "fill", 'f' },       [TOOL_MARKER] = { "marker", 'M' },
	[TOOL_SELECT] = { "select and copy", 'v' }, [TOOL_STAMP] = { "stamp", 'P' },
};

struct ued {
	struct editor *ed;
	const struct ui_editor_options *opt;
	struct ui_tty tty;
	struct grid *grid;        /* the map's shape, for the layout maths of input.h */
	bool colour;
	enum ued_screen screen;
	enum ued_tool tool;
	char glyph;               /* what the tools paint */
	int cx, cy;               /* the cursor, a cell */
	bool anchor;              /* line and rectangle: the first corner is set ... */
	int ax, ay;               /* ... here */
	bool stroke;              /* the left button is down on the map */
	bool anchor_by_press;     /* this press set the anchor (a click then waits for the second) */
	int lx, ly;               /* last cell of the stroke */
	bool mroutes;             /* show every monster's plan (its route to the start without a bestiary) */
	bool reveal;              /* play-tests start with the whole map known */
	int help_top;             /* the help screen's first line shown */
	struct editor_sim *sim;   /* S: the quick sim, running or done (its heat drawn) */
	bool sim_running;
	int sim_player;           /* S's settings: enum sim_player ... */
	int sim_size;             /* ... an index into ued_sim_sizes */
	bool heat_deaths;         /* the heat drawn: deaths, else first contacts */
	bool heat_on;
	int sim_undo, sim_redo;   /* the history when it started: the heat is of that level */
	bool sight;               /* x: the sight view is on ... */
	int sight_x, sight_y;     /* ... of the monster on this cell, or (-1) of the start: who sees it */
	uint8_t *seen;            /* the cells seen, as drawn last (w * h) */
	size_t seen_cap;
	int sel;                  /* selected problem, -1 none */
	struct input_view view;   /* as drawn last: clicks are read through it */
	bool panel;               /* as drawn last */
	int panel_left;
	int panel_w;             /* the side panel's width, from ued_layout */
	int pal_row, pal_per_row, pal_n;
	int marker_row;           /* the panel's "markers: A B" line, as drawn last */
	int marker_next;          /* the marker tool places this one (0 A, 1 B) next */
	struct editor_clip clip;  /* what the select tool copied last; the stamp tool stamps it */
	bool sel_on;              /* the rectangle selected last, until a resize: */
	int sx0, sy0, sx1, sy1;   /* its corners (| and - mirror it in place) */
	char pal[64];
	int prob_row, prob_rows, prob_top;
	char notice[320];
	bool done;
	enum ui_outcome outcome;
	int stale_reads;
	uint64_t seed;
	enum editor_field field;  /* UED_INPUT: the header key being typed */
	char input[256];          /* UED_INPUT: its text so far */
	char err[DIAG_ERR_LEN];            /* why the outcome is UI_ERROR */
	bool recover_removed;     /* the restored LEVEL.recover is saved into the level and removed */
};

#define UED_INPUT_MAX 200     /* characters a header value may have here */

__attribute__((format(printf, 2, 3))) static void ued_notice(struct ued *u, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(u->notice, sizeof u->notice, fmt, ap);
	va_end(ap);
}

/* ---- looks ------------------------------------------------------------ */

static attr_t ued_attr(const struct ued *u, enum ui_colour c)
{
	return ui_palette_attr(u->colour, c);
}

static enum ui_colour glyph_colour(char c)
{
	switch (c) {
	case '#':
	case '%': return UI_COL_WALL;
	case ',': return UI_COL_RUBBLE;
	case '~': return UI_COL_WATER;
	case '+': return UI_COL_DOOR;
	case '>': return UI_COL_EXIT;
	case '!':
	case '?':
	case '/':
	case ')':
	case '[':
	case '(':
	case '}': return UI_COL_POTION;
	case '$': return UI_COL_GOLD;
	case '@': return UI_COL_PLAYER;
	default:
		if (c >= 'a' && c <= 'z')
			return UI_COL_MONSTER;
		if (c >= 'A' && c <= 'Z')
			return UI_COL_BOSS;
		return UI_COL_NONE;
	}
}

static chtype ued_look(const struct ued *u, char c)
{
	return (chtype)(unsigned char)c | ued_attr(u, glyph_colour(c));
}

/* What a cell shows: its glyph, but void (' ' in the file, no cell) as
 * '_', so the map's shape shows; the palette and the '_' key agree. */
static char ued_char(char c)
{
	return c == ' ' ? UED_VOID : c;
}

/* A cell as drawn on the map: void dim, the rest in its colour. */
static chtype ued_cell(const struct ued *u, char c)
{
	return c == ' ' ? ((chtype)UED_VOID | ued_attr(u, UI_COL_DIM)) : ued_look(u, c);
}

/* ---- layout ----------------------------------------------------------- */

/* After a resize (or its undo) the layout grid follows the map's size and
 * the cursor stays on it.  False on no memory (the editor then ends). */
static bool ued_sync(struct ued *u)
{
	int w = editor_width(u->ed), h = editor_height(u->ed);
	if (u->grid->w != w || u->grid->h != h || u->grid->topo != editor_topology(u->ed)) {
		struct grid *g = grid_create(w, h, editor_topology(u->ed));
		if (!g) {
			snprintf(u->err, sizeof u->err, "out of memory");
			u->outcome = UI_ERROR;
			u->done = true;
			return false;
		}
		grid_destroy(u->grid);
		u->grid = g;
		u->view.col0 = u->view.row0 = -1;
	}
	u->cx = u->cx < 0 ? 0 : u->cx >= w ? w - 1 : u->cx;
	u->cy = u->cy < 0 ? 0 : u->cy >= h ? h - 1 : u->cy;
	if (u->anchor && (u->ax >= w || u->ay >= h))
		u->anchor = false;
	if (u->sel_on && (u->sx1 >= w || u->sy1 >= h))
		u->sel_on = false;
	return true;
}

static void ued_layout(struct ued *u)
{
	u->panel = COLS >= UED_PANEL_MIN_COLS;
	/* the map takes the columns it needs; the panel the rest (up to half
	 * the screen), so its problem lines are cut only when space is short */
	int spare = COLS - grid_screen_width(u->grid) - 1;
	u->panel_w = spare > COLS / 2 ? COLS / 2 : spare > UED_PANEL_W ? spare : UED_PANEL_W;
	u->panel_left = u->panel ? COLS - u->panel_w : COLS;
	u->view.top = UED_TOP_ROWS;
	u->view.left = 0;
	u->view.width = u->panel ? u->panel_left - 1 : COLS;
	u->view.height = LINES - UED_TOP_ROWS - UED_BOTTOM_ROWS;
	input_view_update(&u->view, u->grid, u->cx, u->cy);
}

static void ued_put_cell(const struct ued *u, int x, int y, chtype ch)
{
	int col, row;
	if (input_cell_to_screen(&u->view, u->grid, x, y, &col, &row))
		mvaddch(row, col, ch);
}

/* A route mark on bare floor; anything else keeps its glyph in the route's colour. */
static void ued_mark(const struct ued *u, int cell, char mark, enum ui_colour col)
{
	int w = editor_width(u->ed), x = cell % w, y = cell / w;
	char c = editor_glyph(u->ed, x, y);
	ued_put_cell(u, x, y, (chtype)(unsigned char)(c == '.' ? mark : c) | ued_attr(u, col));
}

/* ---- drawing ---------------------------------------------------------- */

static void ued_line(int row, int col, int width, const char *text, attr_t attr);

/*
 * The sight view's cells into u->seen: what the monster on (sight_x,
 * sight_y) sees with its kind's radius, or the cells that see the start
 * within the widest sight on the map.  The count seen, 0 when there is
 * nothing to show (the view then turns itself off, with a word), -1 on
 * no memory.
 */
static int ued_sight_compute(struct ued *u)
{
	struct editor *ed = u->ed;
	int w = editor_width(ed), h = editor_height(ed), x = u->sight_x, y = u->sight_y, r;
	if (x >= 0) {
		r = editor_sight_radius(ed, x, y);
		if (r < 0) {
			u->sight = false;
			ued_notice(u, "Sight view off: no monster stands on %d,%d any more.", x, y);
			return 0;
		}
	} else {
		const struct level *lv = editor_level(ed);
		if (!lv || lv->player_x < 0) {
			u->sight = false;
			ued_notice(u, "Sight view off: the level has no start.");
			return 0;
		}
		x = lv->player_x;
		y = lv->player_y;
		r = editor_sight_widest(ed);
	}
	size_t n = (size_t)w * (size_t)h;
	if (n > u->seen_cap) {
		uint8_t *s = realloc(u->seen, n);
		if (!s)
			return -1;
		u->seen = s;
		u->seen_cap = n;
	}
	return editor_sight(ed, x, y, r, u->seen);
}

/* x's lines on the panel: whose view, how far, and who sees the start. */
static int ued_draw_sight_legend(struct ued *u, int row, int left, int width)
{
	struct editor *ed = u->ed;
	char line[240];
	const struct level *lv = editor_level(ed);
	int sx = lv ? lv->player_x : -1, sy = lv ? lv->player_y : -1;
	int count = 0;
	if (u->seen) {
		size_t n = (size_t)editor_width(ed) * (size_t)editor_height(ed);
		for (size_t i = 0; i < n && i < u->seen_cap; i++)
			count += u->seen[i] != 0;
	}
	if (u->sight_x >= 0) {
		char g = editor_glyph(ed, u->sight_x, u->sight_y);
		int r = editor_sight_radius(ed, u->sight_x, u->sight_y);
		int sees = sx >= 0 ? editor_sees(ed, u->sight_x, u->sight_y, sx, sy, r) : 0;
		snprintf(line, sizeof line, "x sight: %s %d,%d r%d: %d cells", editor_glyph_name(ed, g), u->sight_x,
			 u->sight_y, r, count);
		ued_line(row++, left, width, line, ued_attr(u, UI_COL_TARGET));
		snprintf(line, sizeof line, "  sees the start: %s", sx < 0 ? "no start" : sees > 0 ? "yes" : "no");
		ued_line(row++, left, width, line, A_NORMAL);
		return row;
	}
	snprintf(line, sizeof line, "x sight: cells that see @ (r%d): %d", editor_sight_widest(ed), count);
	ued_line(row++, left, width, line, ued_attr(u, UI_COL_TARGET));
	/* the monsters that see it, each with its own radius */
	char who[120] = "";
	size_t k = 0;
	int seers = 0;
	for (int i = 0; lv && i < lv->n_monsters; i++) {
		int mx = lv->monsters[i].x, my = lv->monsters[i].y;
		int r = editor_sight_radius(ed, mx, my);
		if (r > 0 && editor_sees(ed, mx, my, sx, sy, r) > 0) {
			seers++;
			if (k + 16 < sizeof who)
				k += (size_t)snprintf(who + k, sizeof who - k, " %c%d,%d", lv->monsters[i].glyph, mx, my);
		}
	}
	snprintf(line, sizeof line, "  monsters seeing it: %d%s", seers, who);
	ued_line(row++, left, width, line, seers ? ued_attr(u, UI_COL_CAUTION) : A_NORMAL);
	return row;
}

static void ued_draw_map(struct ued *u)
{
	struct editor *ed = u->ed;
	int w = editor_width(ed), h = editor_height(ed);
	bool staggered = grid_is_staggered(editor_topology(ed));
	const struct editor_route *route = editor_route(ed);
	struct editor_route_options ro = editor_route_get_options(ed);
	for (int r = 0; r < u->view.height; r++) {
		int y = u->view.row0 + r;
		if (y < 0 || y >= h)
			continue;
		for (int c = 0; c < u->view.width; c++) {
			int col = u->view.col0 + c, x = col;
			if (staggered) {
				if (col < (y & 1) || ((col - (y & 1)) & 1))
					continue;
				x = (col - (y & 1)) / 2;
			}
			if (x < 0 || x >= w)
				continue;
			char g = editor_glyph(ed, x, y);
			chtype ch = ued_cell(u, g);
			if (ro.explored && route->active && g == '.' && editor_route_explored(ed, x, y))
				ch = ':' | ued_attr(u, UI_COL_REMEMBERED);
			mvaddch(u->view.top + r, u->view.left + c, ch);
		}
	}
	if (u->sight && ued_sight_compute(u) > 0) {
		for (int y = 0; y < h; y++)
			for (int x = 0; x < w; x++)
				if (u->seen[(size_t)y * (size_t)w + (size_t)x])
					ued_put_cell(u, x, y,
						     (chtype)(unsigned char)ued_char(editor_glyph(ed, x, y)) |
							     ued_attr(u, UI_COL_TARGET) | A_BOLD | A_UNDERLINE);
	}
	if (u->sim && u->heat_on) {
		int hw, hh;
		double max;
		const double *v = editor_sim_heat(u->sim, u->heat_deaths, &hw, &hh, &max);
		for (int y = 0; v && max > 0 && y < hh && y < h; y++)
			for (int x = 0; x < hw && x < w; x++) {
				double c = v[(size_t)y * (size_t)hw + (size_t)x];
				if (c <= 0)
					continue;
				int d = (int)ceil(9.0 * c / max);
				ued_put_cell(u, x, y,
					     (chtype)('0' + (d < 1 ? 1 : d > 9 ? 9 : d)) |
						     ued_attr(u, u->heat_deaths ? UI_COL_ERROR : UI_COL_CAUTION) | A_BOLD);
			}
	}
	if (u->mroutes) {
		/* past EDITOR_PLAN_MONSTERS, routes only (editor.h) */
		int n = editor_monster_routes(ed);
		int planned = n <= EDITOR_PLAN_MONSTERS ? editor_monster_plans(ed) : 0;
		for (int i = 0; i < n; i++) {
			int mx, my, len;
			const int *cells;
			bool reach;
			struct editor_monster_plan p;
			if (!editor_monster_route(ed, i, &mx, &my, &cells, &len, &reach))
				continue;
			if (planned == n && editor_monster_plan(ed, i, &p) && p.mind >= 0) {
				/* its own mind's plan, as the game's AI plays it (marks
				 * below), drawn in the monster's own letter: whose walk is whose */
				char letter = editor_glyph(ed, mx, my);
				for (int j = 1; j < p.walk_len; j++)
					ued_mark(u, p.walk[j], letter, UI_COL_MROUTE);
			} else {
				for (int j = 1; j + 1 < len; j++)
					ued_mark(u, cells[j], ':', UI_COL_MROUTE);
			}
			if (!reach)
				ued_put_cell(u, mx, my,
					     (chtype)(unsigned char)editor_glyph(ed, mx, my) | ued_attr(u, UI_COL_ERROR));
		}
		/* over every walk (others follow a digger through its breach): the
		 * walls dug, '=' instead of '#', and the posts */
		for (int i = 0; i < n && planned == n; i++) {
			struct editor_monster_plan p;
			if (!editor_monster_plan(ed, i, &p) || p.mind < 0)
				continue;
			for (int j = 0; j < p.n_dug; j++)
				ued_put_cell(u, p.dug[j] % w, p.dug[j] / w, '=' | ued_attr(u, UI_COL_CAUTION));
			if (p.post >= 0)
				ued_mark(u, p.post, '&', UI_COL_MROUTE);
			/* where it arrives: the cell it first strikes the player from */
			if (p.strike >= 0)
				ued_put_cell(u, p.strike % w, p.strike / w,
					     (chtype)(unsigned char)editor_glyph(ed, p.x, p.y) |
						     ued_attr(u, UI_COL_MROUTE) | A_REVERSE);
		}
	}
	if (route->active && route->status != PATH_BAD_INPUT) {
		for (int j = 1; j + 1 < route->len; j++)
			ued_mark(u, route->cells[j], '*', UI_COL_ROUTE);
		if (!route->reached && route->len > 1)
			ued_mark(u, route->end, 'E', UI_COL_ROUTE);
	}
	/* problem cells */
	const struct diag_list *d = editor_diags(ed);
	for (int i = 0; i < d->n; i++) {
		int x, y;
		if (d->items[i].severity == DIAG_NOTE || !editor_diag_cell(ed, i, &x, &y))
			continue;
		enum ui_colour col = d->items[i].severity == DIAG_ERROR ? UI_COL_ERROR : UI_COL_CAUTION;
		ued_put_cell(u, x, y, (chtype)(unsigned char)ued_char(editor_glyph(ed, x, y)) | ued_attr(u, col));
	}
	if (u->sel_on)
		/* underlined over what is drawn there (heat, routes, sight stay) */
		for (int y = u->sy0; y <= u->sy1; y++)
			for (int x = u->sx0; x <= u->sx1; x++) {
				int col, row;
				if (input_cell_to_screen(&u->view, u->grid, x, y, &col, &row))
					mvaddch(row, col, mvinch(row, col) | A_UNDERLINE);
			}
	if (u->tool == TOOL_STAMP && u->clip.glyphs)
		/* where a stamp at the cursor would go */
		for (int j = 0; j < u->clip.h; j++)
			for (int i = 0; i < u->clip.w; i++)
				if (u->cx + i < w && u->cy + j < h)
					ued_put_cell(u, u->cx + i, u->cy + j,
						     (chtype)(unsigned char)ued_char(u->clip.glyphs[j * u->clip.w + i]) |
							     A_DIM | A_UNDERLINE);
	for (int k = 0; k < 2; k++) {
		int x, y;
		if (editor_marker(ed, k, &x, &y))
			ued_put_cell(u, x, y, (chtype)(k ? 'B' : 'A') | ued_attr(u, UI_COL_MARKER));
	}
	if (u->anchor)
		ued_put_cell(u, u->ax, u->ay,
			     (chtype)(unsigned char)ued_char(editor_glyph(ed, u->ax, u->ay)) | A_REVERSE | A_BLINK);
	ued_put_cell(u, u->cx, u->cy, (chtype)(unsigned char)ued_char(editor_glyph(ed, u->cx, u->cy)) | A_REVERSE);
}

static void ued_line(int row, int col, int width, const char *text, attr_t attr)
{
	if (row < 0 || row >= LINES || width <= 0)
		return;
	attron(attr);
	mvaddnstr(row, col, text, width);
	attroff(attr);
}

static const char *status_word(const struct editor_route *r)
{
	switch (r->status) {
	case PATH_FOUND: return "found";
	case PATH_FALLBACK: return "out of reach";
	case PATH_NO_ROUTE: return "no route";
	case PATH_BUDGET: return "budget";
	case PATH_BAD_INPUT: return "a marker is on a wall";
	}
	return "?";
}

/*
 * r's legend: each monster by its letter and cell, and the turn it
 * arrives (strikes the player on the start, reversed on the map), settles
 * at its post, or that it sleeps or stays; as many as leave the problems
 * a few rows.  Returns the next row.
 */
static int ued_draw_legend(struct ued *u, int row, int left, int width, int last)
{
	struct editor *ed = u->ed;
	int n = editor_monster_plans(ed), room = (last - row + 1) / 2;
	char line[200];
	for (int i = 0; i < n; i++) {
		struct editor_monster_plan p;
		if (!editor_monster_plan(ed, i, &p))
			continue;
		if (i >= room - 1 && n > room) {
			snprintf(line, sizeof line, "  ... %d more (the first listed)", n - i);
			ued_line(row++, left, width, line, ued_attr(u, UI_COL_DIM));
			break;
		}
		char what[96];
		if (p.mind < 0)
			snprintf(what, sizeof what, "no plan (unknown kind)");
		else if (p.strike_turn > 0)
			snprintf(what, sizeof what, "strikes @ on turn %d", p.strike_turn);
		else if (p.asleep)
			snprintf(what, sizeof what, "asleep");
		else if (p.post >= 0 && p.settle_turn > 0)
			snprintf(what, sizeof what, "at its post on turn %d", p.settle_turn);
		else if (p.settle_turn > 0)
			snprintf(what, sizeof what, "stops on turn %d", p.settle_turn);
		else
			snprintf(what, sizeof what, "stays");
		char g = editor_glyph(ed, p.x, p.y);
		snprintf(line, sizeof line, "  %c %d,%d %s: %s", g, p.x, p.y, editor_glyph_name(ed, g), what);
		ued_line(row++, left, width, line, p.strike_turn > 0 ? ued_attr(u, UI_COL_MROUTE) : A_NORMAL);
	}
	return row;
}

static void ued_draw_panel(struct ued *u)
{
	struct editor *ed = u->ed;
	int left = u->panel_left, width = u->panel_w - 1, row = UED_TOP_ROWS;
	int last = LINES - UED_BOTTOM_ROWS - 1;
	for (int r = UED_TOP_ROWS; r <= last; r++)
		mvaddch(r, left - 1, '|' | ued_attr(u, UI_COL_DIM));
	char line[560];
	ued_line(row++, left, width, "Palette (key, m+letter, click, [ ]):", A_BOLD);
	u->pal_n = editor_palette(ed, u->pal, sizeof u->pal);
	u->pal_per_row = width / 2;
	u->pal_row = row;
	for (int i = 0; i < u->pal_n; i++) {
		int r = row + i / u->pal_per_row, c = left + 2 * (i % u->pal_per_row);
		if (r > last)
			break;
		char g = u->pal[i];
		chtype ch = ued_cell(u, g);
		if (g == u->glyph)
			ch = (ch & A_CHARTEXT) | A_REVERSE | A_BOLD;
		mvaddch(r, c, ch);
	}
	row += (u->pal_n + u->pal_per_row - 1) / u->pal_per_row;
	snprintf(line, sizeof line, "paint '%c' %s", ued_char(u->glyph), editor_glyph_name(ed, u->glyph));
	ued_line(row++, left, width, line, A_NORMAL);
	snprintf(line, sizeof line, "%c void: no cell (the map's shape)", UED_VOID);
	ued_line(row++, left, width, line, ued_attr(u, UI_COL_DIM));
	if (u->tool == TOOL_MARKER)
		snprintf(line, sizeof line, "tool: marker (places %c next)", u->marker_next ? 'B' : 'A');
	else
		snprintf(line, sizeof line, "tool: %s%s", tools[u->tool].name, u->anchor ? " (anchor set)" : "");
	ued_line(row++, left, width, line, A_NORMAL);
	/* the marker tool by mouse: click A or B here, then the map */
	u->marker_row = row;
	ued_line(row, left, width, "markers: A B  (or shift/ctrl-click)", A_NORMAL);
	for (int k = 0; k < 2; k++) {
		chtype ch = (chtype)(k ? 'B' : 'A') | ued_attr(u, UI_COL_MARKER);
		if (u->tool == TOOL_MARKER && u->marker_next == k)
			ch = (ch & A_CHARTEXT) | A_REVERSE | A_BOLD;
		if (row <= last && width > 12 + 2 * k)
			mvaddch(row, left + 9 + 2 * k, ch);
	}
	row++;
	row++;
	const struct editor_route *r = editor_route(ed);
	struct editor_route_options ro = editor_route_get_options(ed);
	int ax, ay, bx, by;
	bool a = editor_marker(ed, 0, &ax, &ay), b = editor_marker(ed, 1, &bx, &by);
	if (!a && !b)
		snprintf(line, sizeof line, "Route: a, t place A and B");
	else if (!r->active)
		snprintf(line, sizeof line, "Route: %s placed; %s sets %s", a ? "A" : "B", a ? "t" : "a",
			 a ? "B" : "A");
	else
		snprintf(line, sizeof line, "Route %d,%d -> %d,%d", ax, ay, bx, by);
	ued_line(row++, left, width, line, A_BOLD);
	if (r->active) {
		if (r->status == PATH_BAD_INPUT)
			snprintf(line, sizeof line, "%s (F: fallback)", status_word(r));
		else
			snprintf(line, sizeof line, "cost=%.3f steps=%d %s", r->cost, r->steps, status_word(r));
		ued_line(row++, left, width, line, ued_attr(u, r->reached ? UI_COL_ROUTE : UI_COL_CAUTION));
		if (r->status != PATH_BAD_INPUT) {
			snprintf(line, sizeof line, "expanded=%ld end=%d,%d", r->expanded,
				 r->end % editor_width(ed), r->end / editor_width(ed));
			ued_line(row++, left, width, line, A_NORMAL);
		}
	}
	snprintf(line, sizeof line, "F fallback:%s W weight:%g", ro.fallback ? "on" : "off", ro.weight);
	ued_line(row++, left, width, line, A_NORMAL);
	snprintf(line, sizeof line, "C corners:%s X explored:%s", ro.corners ? "on" : "off",
		 ro.explored ? "on" : "off");
	ued_line(row++, left, width, line, A_NORMAL);
	if (u->mroutes) {
		int n = editor_monster_routes(ed), stuck = 0;
		for (int i = 0; i < n; i++) {
			int mx, my, len;
			const int *cells;
			bool reach;
			if (editor_monster_route(ed, i, &mx, &my, &cells, &len, &reach) && !reach)
				stuck++;
		}
		snprintf(line, sizeof line, "r monsters: %d, %d never reach", n, stuck);
		ued_line(row++, left, width, line, ued_attr(u, stuck ? UI_COL_CAUTION : UI_COL_NONE));
		bool cut;
		int turns = n <= EDITOR_PLAN_MONSTERS ? editor_monster_plan_turns(ed, &cut) : 0;
		if (turns > 0) {
			snprintf(line, sizeof line, "  %d turn%s%s: letter walks & post = digs", turns,
				 turns == 1 ? "" : "s", cut ? " (cut)" : "");
			ued_line(row++, left, width, line, A_NORMAL);
			row = ued_draw_legend(u, row, left, width, last);
		} else if (n > EDITOR_PLAN_MONSTERS) {
			snprintf(line, sizeof line, "  routes only: >%d monsters", EDITOR_PLAN_MONSTERS);
			ued_line(row++, left, width, line, ued_attr(u, UI_COL_DIM));
		}
	} else {
		ued_line(row++, left, width, "r: every monster's plan", A_NORMAL);
	}
	snprintf(line, sizeof line, "play: p start, G cursor; V reveal:%s", u->reveal ? "on" : "off");
	ued_line(row++, left, width, line, A_NORMAL);
	if (u->sim) {
		const struct editor_sim_result *sr = editor_sim_result(u->sim);
		snprintf(line, sizeof line, "S sim %s %d/%d: escaped %d killed %d", editor_sim_player_name(sr->player),
			 sr->done, sr->games, sr->escaped, sr->killed);
		ued_line(row++, left, width, line, u->sim_running ? A_BOLD : A_NORMAL);
		snprintf(line, sizeof line, "  out of turns %d, turns %.1f%s", sr->out_of_turns, sr->mean_turns,
			 editor_undo_count(u->ed) != u->sim_undo || editor_redo_count(u->ed) != u->sim_redo
				 ? " (of an older map)" : "");
		ued_line(row++, left, width, line, A_NORMAL);
		if (u->heat_on) {
			snprintf(line, sizeof line, "  heat 1-9: %s (S: h other, x hide)",
				 u->heat_deaths ? "deaths" : "first contacts");
			ued_line(row++, left, width, line, ued_attr(u, u->heat_deaths ? UI_COL_ERROR : UI_COL_CAUTION));
		}
	} else {
		ued_line(row++, left, width, "S: quick sim, its heat on the map", A_NORMAL);
	}
	if (u->sight)
		row = ued_draw_sight_legend(u, row, left, width);
	else
		ued_line(row++, left, width, "x: sight (a monster's, or who sees @)", A_NORMAL);
	row++;
	const struct diag_list *d = editor_diags(ed);
	if (d->errors == 0 && d->warnings == 0)
		snprintf(line, sizeof line, "No problems%s", d->n ? " (notes:)" : "");
	else
		snprintf(line, sizeof line, "Problems: %d error%s, %d warning%s (e E)", d->errors,
			 d->errors == 1 ? "" : "s", d->warnings, d->warnings == 1 ? "" : "s");
	ued_line(row++, left, width, line, d->errors ? ued_attr(u, UI_COL_ERROR) : A_BOLD);
	u->prob_row = row;
	u->prob_rows = last - row + 1;
	if (u->prob_rows < 0)
		u->prob_rows = 0;
	if (u->sel >= d->n)
		u->sel = d->n - 1;
	if (u->sel >= 0 && u->sel < u->prob_top)
		u->prob_top = u->sel;
	if (u->sel >= 0 && u->prob_rows > 0 && u->sel >= u->prob_top + u->prob_rows)
		u->prob_top = u->sel - u->prob_rows + 1;
	if (u->prob_top > d->n - 1)
		u->prob_top = d->n > 0 ? d->n - 1 : 0;
	for (int i = 0; i < u->prob_rows && u->prob_top + i < d->n; i++) {
		int k = u->prob_top + i, x, y;
		const struct diag *di = &d->items[k];
		char pos[48] = "";
		if (k < editor_file_diag_count(ed))
			snprintf(pos, sizeof pos, "file %d:%d ", di->line, di->col); /* as loaded */
		else if (editor_diag_cell(ed, k, &x, &y))
			snprintf(pos, sizeof pos, "%d,%d ", x, y);
		snprintf(line, sizeof line, "%c %s%s", di->severity == DIAG_ERROR ? 'E'
						       : di->severity == DIAG_WARNING ? 'W' : 'n',
			 pos, di->msg);
		attr_t at = di->severity == DIAG_ERROR ? ued_attr(u, UI_COL_ERROR) & ~A_REVERSE : A_NORMAL;
		if (k == u->sel)
			at |= A_REVERSE;
		ued_line(row + i, left, width, line, at);
	}
}

static void ued_draw_status(struct ued *u)
{
	struct editor *ed = u->ed;
	char left[256];
	char g = editor_glyph(ed, u->cx, u->cy);
	snprintf(left, sizeof left, " %s%s  %s %dx%d  %d,%d %s  undo %d redo %d",
		 u->opt->path ? u->opt->path : editor_file(ed), editor_modified(ed) ? " [modified]" : "",
		 grid_topology_name(editor_topology(ed)), editor_width(ed), editor_height(ed), u->cx,
		 u->cy, editor_glyph_name(ed, g), editor_undo_count(ed), editor_redo_count(ed));
	attr_t bar = ued_attr(u, UI_COL_STATUS);
	attron(bar);
	move(0, 0);
	for (int c = 0; c < COLS; c++)
		addch(' ');
	mvaddnstr(0, 0, left, COLS);
	attroff(bar);
	const char *hint = u->screen == UED_QUIT
				   ? NULL
				   : " ? help  s save  p play  q quit  z undo  Z redo  Space paint";
	if (hint)
		ued_line(LINES - 1, 0, COLS, hint, ued_attr(u, UI_COL_DIM));
}

static const char *const ued_help[] = {
	"astray edit - keys",
	"",
	"  cursor      h j k l y u b n, arrows, numpad (shifted: 8 cells)",
	"  paint       Space or Enter: the current tool at the cursor",
	"  glyphs      # % . , ~ + @ > ! $ choose, paint (pencil); _ void: no cell, dim _",
	"              (% a permanent wall: no monster can dig it); items: ! potion",
	"              / wand ) weapon ( ammunition } tool $ gold; ? scroll and [ armour",
	"              from the palette ([ ] step, or a click): ? and [ are keys here",
	"              m then a letter: a monster kind; [ ] step through the palette",
	"  tools       d pencil   i line   o rectangle   O filled rectangle   f fill",
	"              M marker   v select   P stamp (below)",
	"              line and rectangles: Space at one corner, then at the other",
	"  copy        v select: two corners (or a drag) copy a rectangle; P stamp:",
	"              Space or a click stamps the copy at the cursor (a paste; again",
	"              and again: a stamp); | - mirror the selection in place, or with",
	"              the stamp tool the copy (left-right, top-bottom); z undoes",
	"  undo        z undo   Z or Ctrl-R redo (every change, a fill too, is one step);",
	"              past its memory cap (--undo-mb) the oldest steps go, with a word",
	"  route       a marker A at the cursor, t marker B, c clears them; M the marker",
	"              tool (Space or click: A, then B); shift-click A, ctrl-click B",
	"              F fallback  W weight 1/2/5/0  C corners  X explored cells",
	"  quick sim   S: p player, n games, h heat (deaths, first contacts), x hides",
	"              it; Enter plays on the level in memory; any key stops the run",
	"  sight       x on a monster: what it sees (its kind's sight); elsewhere: the",
	"              cells that see the start, and which monsters do; x hides it",
	"  monsters    r every monster's plan, walked in its letter, reversed where it",
	"              strikes; the panel lists when each arrives (turn); stuck: red",
	"  problems    e next, E previous: moves the cursor to it (or click it)",
	"  save        s: a temporary file renamed over the level (FILE~ keeps the last)",
	"  play        p plays the level as it is now, G from the cursor; V: the whole",
	"              map known from the first turn (on/off); quitting comes back",
	"  header      I: every key: n name, a author, d description, s sealed cells,",
	"              t topology (within its layout); R resize: h l k j grow the",
	"              left, right, top, bottom side, H L K J shrink it (hex: 2 rows)",
	"  quit        q (asks when there are unsaved changes)",
	"",
	"  Mouse: click or drag paints with the tool; right click picks a glyph up;",
	"  a click on the palette chooses a glyph, on a problem goes there, on A or",
	"  B of the markers line the marker tool; shift-click places A, ctrl-click B.",
	"  A click off the map's cells does nothing.",
	"",
	"Any key but j, k and Space returns.",
};

/* I: the header as it will be written, and the line being typed. */
static void ued_draw_header(struct ued *u)
{
	struct editor *ed = u->ed;
	char line[400];
	int row = 0;
	ued_line(row++, 0, COLS, "Level header (s saves it with the map; z undoes a change)", A_BOLD);
	row++;
	static const char keys[EDITOR_FIELDS] = { 'n', 'a', 'd', 's', 't' };
	for (int f = 0; f < EDITOR_FIELDS; f++) {
		const char *v = editor_header(ed, (enum editor_field)f);
		snprintf(line, sizeof line, "  %c  %-12s %s%s", keys[f], editor_field_name((enum editor_field)f),
			 v ? v : "(none)",
			 f == EDITOR_TOPOLOGY ? (grid_is_staggered(editor_topology(ed)) ? "  (or hex, diamond4, diamond8)"
											 : "  (or square4, square8)")
			 : f == EDITOR_SEALED ? "  (X,Y cells inside regions walled off on purpose)"
					       : "");
		ued_line(row++, 0, COLS, line, v ? A_NORMAL : ued_attr(u, UI_COL_DIM));
	}
	snprintf(line, sizeof line, "  R  %-12s %dx%d cells", "size", editor_width(ed), editor_height(ed));
	ued_line(row++, 0, COLS, line, A_NORMAL);
	row++;
	ued_line(row++, 0, COLS, "n a d s t: edit that value   R: resize the map   Esc or Enter: back to the map",
		 ued_attr(u, UI_COL_DIM));
	row++;
	if (u->notice[0])
		ued_line(row++, 0, COLS, u->notice, A_BOLD);
	if (u->screen == UED_INPUT) {
		int r = LINES - 2;
		snprintf(line, sizeof line, "%s: %s", editor_field_name(u->field), u->input);
		ued_line(r, 0, COLS, line, A_REVERSE);
		ued_line(r + 1, 0, COLS, "Enter sets it (empty removes author, description, sealed), Esc cancels, "
				       "Ctrl-U clears", ued_attr(u, UI_COL_DIM));
	}
}

static void ued_draw(struct ued *u)
{
	erase();
	if (ui_screen_too_small()) {
		/* keys wait until it grows: a quit may need to ask about changes */
		ui_screen_draw_too_small("enlarge it to go on");
		refresh();
		return;
	}
	if (u->screen == UED_HELP) {
		/* longer than a small terminal: it scrolls, the last row says so */
		int n = (int)(sizeof ued_help / sizeof ued_help[0]), rows = LINES - 1;
		if (u->help_top > n - rows)
			u->help_top = n - rows > 0 ? n - rows : 0;
		for (int i = 0; i < rows && u->help_top + i < n; i++)
			mvaddnstr(i, 0, ued_help[u->help_top + i], COLS);
		ued_line(LINES - 1, 0, COLS,
			 u->help_top + rows < n ? "-- more: j or Space scrolls down, k up; any other key returns --"
						: "-- end: k scrolls up; any other key returns --",
			 ued_attr(u, UI_COL_DIM));
		refresh();
		return;
	}
	if (u->screen == UED_HEADER || (u->screen == UED_INPUT)) {
		ued_draw_header(u);
		refresh();
		return;
	}
	if (!ued_sync(u))
		return;
	ued_layout(u);
	ued_draw_map(u);
	if (u->panel)
		ued_draw_panel(u);
	ued_draw_status(u);
	const char *note = u->notice;
	attr_t na = A_BOLD;
	char prompt[400];
	if (u->screen == UED_RESIZE) {
		snprintf(prompt, sizeof prompt,
			 "Resize %dx%d: h l k j grow the left/right/top/bottom, H L K J shrink it%s; "
			 "z undo; Enter done",
			 editor_width(u->ed), editor_height(u->ed),
			 grid_is_staggered(editor_topology(u->ed)) ? " (top: 2 rows)" : "");
		note = u->notice[0] ? u->notice : prompt;
	} else if (u->screen == UED_QUIT) {
		note = "Unsaved changes. s: save and quit, y: quit without saving, n: stay";
		na = ued_attr(u, UI_COL_ERROR);
	} else if (u->screen == UED_SIM) {
		snprintf(prompt, sizeof prompt,
			 "Quick sim: Enter or S plays %d games, player %s (p player, n games, h heat %s, x hide "
			 "heat, Esc back)",
			 ued_sim_sizes[u->sim_size], editor_sim_player_name(u->sim_player),
			 u->heat_deaths ? "deaths" : "contacts");
		note = u->notice[0] ? u->notice : prompt;
	} else if (u->screen == UED_MONSTER) {
		char known[64];
		int n = editor_palette(u->ed, known, sizeof known), k = 0;
		char letters[64];
		for (int i = 0; i < n; i++)
			if ((known[i] >= 'a' && known[i] <= 'z') || (known[i] >= 'A' && known[i] <= 'Z'))
				letters[k++] = known[i];
		letters[k] = '\0';
		snprintf(prompt, sizeof prompt, "Monster letter? (%s; Esc cancels)", letters);
		note = prompt;
	}
	ued_line(1, 0, COLS, note, na);
	refresh();
}

/* ---- actions ---------------------------------------------------------- */

static void ued_report(struct ued *u, int changed)
{
	if (changed < 0)
		ued_notice(u, "'%c' cannot be painted here (out of memory?)", u->glyph);
}

static void ued_select_glyph(struct ued *u, char g)
{
	if (!editor_glyph_ok(u->ed, g)) {
		ued_notice(u, "No monster kind has the letter '%c' in the bestiary.", g);
		return;
	}
	u->glyph = g;
	ued_notice(u, "Painting '%c' (%s).", ued_char(g), editor_glyph_name(u->ed, g));
}

static void ued_shape(struct ued *u, int x0, int y0, int x1, int y1)
{
	int r = 0;
	switch (u->tool) {
	case TOOL_LINE: r = editor_line(u->ed, x0, y0, x1, y1, u->glyph); break;
	case TOOL_RECT: r = editor_rect(u->ed, x0, y0, x1, y1, u->glyph, false); break;
	case TOOL_BOX: r = editor_rect(u->ed, x0, y0, x1, y1, u->glyph, true); break;
	case TOOL_SELECT:
		if (!editor_copy(u->ed, x0, y0, x1, y1, &u->clip)) {
			ued_notice(u, "Nothing copied (out of memory?).");
			return;
		}
		u->sel_on = true;
		u->sx0 = x0 < x1 ? x0 : x1;
		u->sx1 = x0 < x1 ? x1 : x0;
		u->sy0 = y0 < y1 ? y0 : y1;
		u->sy1 = y0 < y1 ? y1 : y0;
		ued_notice(u, "Copied %dx%d cells: P stamps them at the cursor; | - mirror the selection.",
			   u->clip.w, u->clip.h);
		return;
	default: r = editor_paint(u->ed, x1, y1, u->glyph); break;
	}
	ued_report(u, r);
}

/* Marker `which` (0 A, 1 B) at (x, y): the route between them shows. */
static void ued_place_marker(struct ued *u, int which, int x, int y)
{
	editor_set_marker(u->ed, which, x, y);
	ued_notice(u, "Marker %c at %d,%d.", which ? 'B' : 'A', x, y);
}

/* | or -: the stamp tool's clip turned over, else the selection on the map. */
static void ued_mirror(struct ued *u, bool left_right)
{
	const char *how = left_right ? "left to right" : "top to bottom";
	if (u->tool == TOOL_STAMP && u->clip.glyphs) {
		editor_clip_mirror(&u->clip, left_right);
		ued_notice(u, "The stamp is mirrored %s.", how);
	} else if (u->sel_on) {
		int n = editor_mirror(u->ed, u->sx0, u->sy0, u->sx1, u->sy1, left_right);
		if (n < 0)
			ued_notice(u, "Not mirrored (out of memory?).");
		else
			ued_notice(u, "Mirrored %d,%d..%d,%d %s: %d cell%s changed (z undoes it).", u->sx0, u->sy0,
				   u->sx1, u->sy1, how, n, n == 1 ? "" : "s");
	} else {
		ued_notice(u, "Nothing to mirror: v selects a rectangle first.");
	}
}

/* x: the sight view of the monster at the cursor, or of who sees the start; x again hides it. */
static void ued_sight_toggle(struct ued *u)
{
	int r = editor_sight_radius(u->ed, u->cx, u->cy);
	if (u->sight && (r < 0 || (u->sight_x == u->cx && u->sight_y == u->cy))) {
		u->sight = false;
		ued_notice(u, "Sight view hidden.");
		return;
	}
	u->sight = true;
	if (r >= 0) {
		u->sight_x = u->cx;
		u->sight_y = u->cy;
		char g = editor_glyph(u->ed, u->cx, u->cy);
		ued_notice(u, "What the %s on %d,%d sees (sight %d); x on another monster shows its, x here hides it.",
			   editor_glyph_name(u->ed, g), u->cx, u->cy, r);
	} else {
		u->sight_x = u->sight_y = -1;
		ued_notice(u, "The cells that see the start within sight %d; x on a monster shows what it sees.",
			   editor_sight_widest(u->ed));
	}
}

/* Space or Enter: the tool at the cursor. */
static void ued_apply(struct ued *u)
{
	switch (u->tool) {
	case TOOL_MARKER:
		ued_place_marker(u, u->marker_next, u->cx, u->cy);
		u->marker_next = !u->marker_next;
		break;
	case TOOL_STAMP: {
		if (!u->clip.glyphs) {
			ued_notice(u, "Nothing to stamp: v selects and copies a rectangle first.");
			break;
		}
		int n = editor_stamp(u->ed, &u->clip, u->cx, u->cy);
		if (n < 0)
			ued_notice(u, "Not stamped (out of memory, or a monster this bestiary lacks).");
		else
			ued_notice(u, "Stamped %dx%d at %d,%d: %d cell%s changed.", u->clip.w, u->clip.h, u->cx, u->cy,
				   n, n == 1 ? "" : "s");
		break;
	}
	case TOOL_PENCIL:
		ued_report(u, editor_paint(u->ed, u->cx, u->cy, u->glyph));
		break;
	case TOOL_FILL: {
		int n = editor_fill(u->ed, u->cx, u->cy, u->glyph);
		ued_report(u, n);
		if (n >= 0)
			ued_notice(u, "Filled %d cell%s.", n, n == 1 ? "" : "s");
		break;
	}
	default:
		if (!u->anchor) {
			u->anchor = true;
			u->ax = u->cx;
			u->ay = u->cy;
			ued_notice(u, "First corner at %d,%d: move, then Space again (Esc cancels).", u->cx,
				   u->cy);
		} else {
			ued_shape(u, u->ax, u->ay, u->cx, u->cy);
			u->anchor = false;
		}
		break;
	}
}

static void ued_cursor_move(struct ued *u, enum grid_dir d, int count)
{
	for (int i = 0; i < count; i++) {
		int nx, ny;
		if (!grid_dir_step(u->grid, u->cx, u->cy, d, &nx, &ny)) {
			enum grid_topology t = editor_topology(u->ed);
			int dcol, drow;
			if (t == GRID_HEX && input_is_vertical(d)) {
				nx = u->cx; /* straight up or down a row, as the game's cursor */
				ny = u->cy + (d == GRID_N ? -1 : 1);
			} else if (t == GRID_DIAMOND4 && grid_dir_offset(GRID_DIAMOND8, d, &dcol, &drow)) {
				/* the cursor is no mover: it takes the corner steps
				 * too, so h j k l reach along a row or column */
				ny = u->cy + drow;
				nx = (2 * u->cx + (u->cy & 1) + dcol - (ny & 1)) / 2;
			} else {
				ued_notice(u, "No such step on this map (square4 has no diagonals).");
				return;
			}
		}
		if (!grid_in_bounds(u->grid, nx, ny))
			break;
		u->cx = nx;
		u->cy = ny;
	}
}

static void ued_select_problem(struct ued *u, int k)
{
	const struct diag_list *d = editor_diags(u->ed);
	if (d->n == 0) {
		ued_notice(u, "No problems.");
		u->sel = -1;
		return;
	}
	k = ((k % d->n) + d->n) % d->n;
	u->sel = k;
	int x, y;
	if (editor_diag_cell(u->ed, k, &x, &y)) {
		u->cx = x;
		u->cy = y;
	}
	const struct diag *di = &d->items[k];
	if (k < editor_file_diag_count(u->ed))
		ued_notice(u, "The file as loaded, line %d column %d: %s: %s", di->line, di->col,
			   diag_severity_name(di->severity), di->msg);
	else
		ued_notice(u, "%s: %s", diag_severity_name(di->severity), di->msg);
}

static void ued_save(struct ued *u)
{
	char err[DIAG_ERR_LEN];
	int from_file = editor_file_diag_count(u->ed);
	if (editor_save(u->ed, u->opt->path, true, true, err, sizeof err)) {
		int errors = editor_diags(u->ed)->errors;
		if (from_file)
			ued_notice(u, "Saved %s: the map as shown, so the file's errors are gone "
				      "(the old text is in %s~).%s",
				   u->opt->path, u->opt->path, errors ? " The level still has errors." : "");
		else if (errors)
			ued_notice(u, "Saved %s (it has %d error%s: astray check will refuse it).",
				   u->opt->path, errors, errors == 1 ? "" : "s");
		else
			ued_notice(u, "Saved %s.", u->opt->path);
		/* the restored changes are in the level now: their rescue file goes */
		if (u->opt->recover && !u->recover_removed && !editor_past_mark(u->ed)) {
			ued_notice(u, "Saved %s without the restored changes (undone): %s is kept.", u->opt->path,
				   u->opt->recover);
		} else if (u->opt->recover && !u->recover_removed) {
			if (unlink(u->opt->recover) == 0 || errno == ENOENT) {
				u->recover_removed = true;
				ued_notice(u, "Saved %s; its .recover file is removed.%s",
					   u->opt->path, errors ? " The level still has errors." : "");
			} else {
				ued_notice(u, "Saved %s, but %s could not be removed: %s.", u->opt->path,
					   u->opt->recover, strerror(errno));
			}
		}
	} else {
		ued_notice(u, "Not saved: %s", err);
	}
}

/* press, drag and release paint; the right button picks */
#define UED_MOUSE_EVENTS \
	(BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON1_CLICKED | BUTTON3_PRESSED | BUTTON3_CLICKED | \
	 REPORT_MOUSE_POSITION | BUTTON_SHIFT | BUTTON_CTRL | BUTTON_ALT)

/* Our screen: made at the start and again after a play-test (whose own
 * screen left the terminal in shell mode). */
static bool ued_screen_start(struct ued *u, char *err, size_t errlen)
{
	if (!ui_screen_start(&u->tty, u->opt->mouse, UED_MOUSE_EVENTS, true, err, errlen))
		return false;
	u->colour = u->tty.colour;
	return true;
}

static const char *outcome_text(enum ui_outcome o)
{
	switch (o) {
	case UI_DIED: return "you died";
	case UI_WON: return "you won";
	case UI_QUIT: return "you quit";
	default: return "stopped";
	}
}

/* p: the game on the level as it is in memory; back here where we were. */
static void ued_play(struct ued *u, bool from_cursor)
{
	/* the file's errors as loaded do not count: the game plays the map in
	 * memory, which has none of them */
	int errors = editor_diags(u->ed)->errors - editor_file_errors(u->ed);
	if (errors) {
		ued_notice(u, "Cannot play: %d error%s (e shows them).", errors, errors == 1 ? "" : "s");
		return;
	}
	struct editor_playtest pt;
	char why[DIAG_ERR_LEN];
	if (!editor_playtest_start(u->ed, from_cursor ? u->cx : -1, from_cursor ? u->cy : -1, u->reveal, u->opt->b,
				   u->seed, &pt, why, sizeof why)) {
		ued_notice(u, "Cannot play: %s.", why);
		return;
	}
	struct game *g = pt.g;
	uint64_t seed = u->seed++;
	/* ui_run makes and removes a screen of its own, and ncurses' delscreen
	 * frees the windows of every screen: ours goes first and comes back after */
	ui_screen_stop(&u->tty);
	struct ui_options po = { .mouse = u->opt->mouse, .step_delay_ms = u->opt->step_delay_ms };
	int signo = 0;
	char err[DIAG_ERR_LEN] = "";
	enum ui_outcome o = ui_run(g, &po, &signo, err, sizeof err);
	int turns = g->turn;
	editor_playtest_end(&pt);
	char again[256];
	if (!ued_screen_start(u, again, sizeof again)) {
		u->outcome = UI_ERROR;
		u->done = true;
		return;
	}
	switch (o) {
	case UI_SIGNAL:
		ui_screen_signal_note(signo);
		break;
	case UI_HANGUP:
		u->outcome = UI_HANGUP;
		u->done = true;
		break;
	case UI_ERROR:
		ued_notice(u, "Cannot play: %s", err);
		break;
	default:
		ued_notice(u, "Play-test over: %s after %d turn%s (seed %llu). %s plays again.",
			   outcome_text(o), turns, turns == 1 ? "" : "s", (unsigned long long)seed,
			   from_cursor ? "G" : "p");
		break;
	}
}

static void ued_toggle_option(struct ued *u, int key)
{
	struct editor_route_options o = editor_route_get_options(u->ed);
	switch (key) {
	case 'F': o.fallback = !o.fallback; break;
	case 'C': o.corners = !o.corners; break;
	case 'X': o.explored = !o.explored; break;
	case 'W': o.weight = o.weight == 1 ? 2 : o.weight == 2 ? 5 : o.weight == 5 ? 0 : 1; break;
	default: return;
	}
	editor_route_set_options(u->ed, &o);
	ued_notice(u, "Route: fallback %s, weight %g, corners %s, explored %s.",
		   o.fallback ? "on" : "off", o.weight, o.corners ? "on" : "off",
		   o.explored ? "on" : "off");
}

static void ued_palette_step(struct ued *u, int by)
{
	char pal[64];
	int n = editor_palette(u->ed, pal, sizeof pal), at = 0;
	for (int i = 0; i < n; i++)
		if (pal[i] == u->glyph)
			at = i;
	ued_select_glyph(u, pal[((at + by) % n + n) % n]);
}

/* When the history's cap dropped the oldest steps: a word, once. */
static void ued_history_note(struct ued *u)
{
	long all;
	int n = editor_undo_dropped(u->ed, &all);
	if (n > 0)
		ued_notice(u, "Undo over its %zu MB cap: the oldest %d step%s dropped (%ld in all), %d left.",
			   editor_undo_cap(u->ed) >> 20, n, n == 1 ? "" : "s", all, editor_undo_count(u->ed));
}

/* z undoes, Z or Ctrl-R redoes, on every screen that edits. */
static void ued_history_key(struct ued *u, int key)
{
	if (key == 'z') {
		if (!editor_undo(u->ed))
			ued_notice(u, "Nothing to undo.");
	} else if (!editor_redo(u->ed)) {
		ued_notice(u, "Nothing to redo.");
	}
}

static void ued_key_edit(struct ued *u, int key)
{
	struct input_command c = input_key(key);
	if (c.kind == INPUT_MOVE) {
		ued_cursor_move(u, c.dir, c.count);
		return;
	}
	if (strchr("#%.,~+@>!$/)(}", key) && key) {
		ued_select_glyph(u, (char)key);
		if (u->tool == TOOL_PENCIL)
			ued_apply(u);
		return;
	}
	for (int t = 0; t < TOOL_COUNT; t++)
		if (tools[t].key == key) {
			u->tool = (enum ued_tool)t;
			u->anchor = false;
			if (t == TOOL_MARKER) {
				u->marker_next = 0;
				ued_notice(u, "Tool: marker: Space or a click places A, then B.");
			} else if (t == TOOL_STAMP) {
				if (u->clip.glyphs)
					ued_notice(u, "Tool: stamp %dx%d: Space or a click stamps at the cursor; | - "
						      "mirror it.", u->clip.w, u->clip.h);
				else
					ued_notice(u, "Tool: stamp: nothing copied yet (v selects a rectangle).");
			} else if (t == TOOL_SELECT) {
				ued_notice(u, "Tool: select: Space at two corners (or a drag) copies the rectangle.");
			} else {
				ued_notice(u, "Tool: %s.", tools[t].name);
			}
			return;
		}
	switch (key) {
	case ' ':
	case '\n':
	case '\r':
	case INPUT_ENTER:
		ued_apply(u);
		break;
	case '_':
		ued_select_glyph(u, ' ');
		if (u->tool == TOOL_PENCIL)
			ued_apply(u);
		break;
	case 'm':
		u->screen = UED_MONSTER;
		break;
	case '[':
		ued_palette_step(u, -1);
		break;
	case ']':
		ued_palette_step(u, 1);
		break;
	case 'z':
	case 'Z':
	case INPUT_CTRL('r'):
		ued_history_key(u, key);
		break;
	case 'a':
	case 't':
		ued_place_marker(u, key == 't', u->cx, u->cy);
		break;
	case 'c':
		editor_set_marker(u->ed, 0, -1, -1);
		editor_set_marker(u->ed, 1, -1, -1);
		ued_notice(u, "Route markers removed.");
		break;
	case 'F':
	case 'C':
	case 'X':
	case 'W':
		ued_toggle_option(u, key);
		break;
	case '|':
	case '-':
		ued_mirror(u, key == '|');
		break;
	case 'r':
		u->mroutes = !u->mroutes;
		ued_notice(u, u->mroutes ? "Monster plans: each walks in its letter, reversed where it strikes; "
					   "& post, = digs; r hides."
					 : "Monster routes hidden.");
		break;
	case 'e':
		ued_select_problem(u, u->sel + 1);
		break;
	case 'E':
		ued_select_problem(u, u->sel < 0 ? -1 : u->sel - 1);
		break;
	case 's':
		ued_save(u);
		break;
	case 'p':
	case 'G':
		ued_play(u, key == 'G');
		break;
	case 'x':
		ued_sight_toggle(u);
		break;
	case 'S':
		u->screen = UED_SIM;
		break;
	case 'V':
		u->reveal = !u->reveal;
		ued_notice(u, "Play-tests %s.", u->reveal ? "start with the whole map known (V: as in play)"
						       : "start as in play (V: with the whole map known)");
		break;
	case 'I':
		u->screen = UED_HEADER;
		break;
	case 'R':
		u->screen = UED_RESIZE;
		break;
	case '?':
		u->screen = UED_HELP;
		break;
	case 'q':
	case 'Q':
		if (editor_modified(u->ed))
			u->screen = UED_QUIT;
		else
			u->done = true;
		break;
	case INPUT_ESC:
		if (u->anchor) {
			u->anchor = false;
			ued_notice(u, "Cancelled.");
		}
		break;
	case INPUT_CTRL('l'):
		clearok(curscr, TRUE);
		break;
	default:
		if (((key >= 'a' && key <= 'z') || (key >= 'A' && key <= 'Z')) && editor_glyph_ok(u->ed, (char)key))
			/* the palette shows monsters by their letters, which are
			 * not keys of their own (o, r, b... are taken) */
			ued_notice(u, "'%c' is a %s: press m then %c to paint it.", key,
				   editor_glyph_name(u->ed, (char)key), key);
		else if (key > ' ' && key < 127)
			ued_notice(u, "Unknown key '%c': press ? for help.", key);
		break;
	}
}

/* R: each key one resize, one undo step. */
static void ued_key_resize(struct ued *u, int key)
{
	static const struct {
		int key;
		int left, top, right, bottom; /* by 1; top by 2 on hex and diamond */
	} sides[] = {
		{ 'h', 1, 0, 0, 0 },  { 'l', 0, 0, 1, 0 },  { 'k', 0, 1, 0, 0 },  { 'j', 0, 0, 0, 1 },
		{ 'H', -1, 0, 0, 0 }, { 'L', 0, 0, -1, 0 }, { 'K', 0, -1, 0, 0 }, { 'J', 0, 0, 0, -1 },
		{ INPUT_LEFT, 1, 0, 0, 0 }, { INPUT_RIGHT, 0, 0, 1, 0 }, { INPUT_UP, 0, 1, 0, 0 },
		{ INPUT_DOWN, 0, 0, 0, 1 },
	};
	u->notice[0] = '\0';
	int rows = grid_is_staggered(editor_topology(u->ed)) ? 2 : 1;
	for (size_t i = 0; i < sizeof sides / sizeof sides[0]; i++) {
		if (sides[i].key != key)
			continue;
		char err[DIAG_ERR_LEN];
		int top = sides[i].top * rows;
		if (editor_resize(u->ed, sides[i].left, top, sides[i].right, sides[i].bottom, err, sizeof err) < 0) {
			ued_notice(u, "Not resized: %s.", err);
			return;
		}
		u->cx += sides[i].left;
		u->cy += top;
		if (u->anchor) {
			u->ax += sides[i].left;
			u->ay += top;
		}
		ued_sync(u);
		return;
	}
	switch (key) {
	case 'z':
	case 'Z':
	case INPUT_CTRL('r'):
		ued_history_key(u, key);
		break;
	case '\n':
	case '\r':
	case INPUT_ENTER:
	case INPUT_ESC:
	case 'q':
	case 'R':
		u->screen = UED_EDIT;
		ued_notice(u, "Map size %dx%d.", editor_width(u->ed), editor_height(u->ed));
		break;
	default:
		ued_notice(u, "Resize: h l k j grow a side, H L K J shrink it, Enter when done.");
		break;
	}
}

/* S then Enter: a new run on the level as it is now. */
static void ued_sim_start(struct ued *u)
{
	char why[DIAG_ERR_LEN];
	struct editor_sim *s = editor_sim_start(u->ed, u->opt->b, ued_sim_sizes[u->sim_size], u->sim_player,
						UED_SIM_TURNS, u->seed, why, sizeof why);
	if (!s) {
		ued_notice(u, "Cannot sim: %s.", why);
		return;
	}
	editor_sim_destroy(u->sim);
	u->sim = s;
	u->sim_running = true;
	u->heat_on = true;
	u->sim_undo = editor_undo_count(u->ed);
	u->sim_redo = editor_redo_count(u->ed);
	ued_notice(u, "Quick sim: %d games, player %s; any key stops it.", ued_sim_sizes[u->sim_size],
		   editor_sim_player_name(u->sim_player));
}

/* The words when a run ends (done, stopped, failed). */
static void ued_sim_said(struct ued *u, const char *how)
{
	const struct editor_sim_result *r = editor_sim_result(u->sim);
	ued_notice(u, "Quick sim %s after %d of %d games: escaped %d, killed %d, out of turns %d; heat: %s.", how,
		   r->done, r->games, r->escaped, r->killed, r->out_of_turns,
		   u->heat_deaths ? "deaths" : "first contacts");
}

/* S: the quick sim's settings; Enter or S runs it. */
static void ued_key_sim(struct ued *u, int key)
{
	u->notice[0] = '\0';
	switch (key) {
	case 'p':
		u->sim_player = (u->sim_player + 1) % editor_sim_players();
		break;
	case 'n':
		u->sim_size = (u->sim_size + 1) % (int)(sizeof ued_sim_sizes / sizeof ued_sim_sizes[0]);
		break;
	case 'h':
		u->heat_deaths = !u->heat_deaths;
		u->heat_on = u->sim != NULL;
		break;
	case 'x':
		u->heat_on = false;
		u->screen = UED_EDIT;
		ued_notice(u, "Heat hidden (S then h shows it again).");
		break;
	case 'S':
	case '\n':
	case '\r':
	case INPUT_ENTER:
		u->screen = UED_EDIT;
		ued_sim_start(u);
		break;
	default:
		u->screen = UED_EDIT;
		break;
	}
}

/* I: the header screen; n a d start typing a value. */
static void ued_key_header(struct ued *u, int key)
{
	static const struct {
		int key;
		enum editor_field f;
	} fields[] = { { 'n', EDITOR_NAME },   { 'a', EDITOR_AUTHOR },   { 'd', EDITOR_DESCRIPTION },
		       { 's', EDITOR_SEALED }, { 't', EDITOR_TOPOLOGY } };
	u->notice[0] = '\0';
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
		if (fields[i].key == key) {
			const char *v = editor_header(u->ed, fields[i].f);
			u->field = fields[i].f;
			snprintf(u->input, sizeof u->input, "%s", v ? v : "");
			u->input[UED_INPUT_MAX] = '\0';
			u->screen = UED_INPUT;
			return;
		}
	switch (key) {
	case 'R':
		u->screen = UED_RESIZE;
		break;
	case 'z':
	case 'Z':
	case INPUT_CTRL('r'):
		ued_history_key(u, key);
		break;
	case '\n':
	case '\r':
	case INPUT_ENTER:
	case INPUT_ESC:
	case 'q':
	case 'I':
		u->screen = UED_EDIT;
		break;
	default:
		ued_notice(u, "n a d s t edit a value, R resizes, Esc returns to the map.");
		break;
	}
}

/* Typing a header value: printable ASCII is appended, the rest edits. */
static void ued_key_input(struct ued *u, int key)
{
	size_t n = strlen(u->input);
	if (key == '\n' || key == '\r' || key == INPUT_ENTER) {
		char err[DIAG_ERR_LEN];
		int r = editor_set_header(u->ed, u->field, u->input, err, sizeof err);
		if (r < 0) {
			ued_notice(u, "Not set: %s.", err);
			return; /* keep typing */
		}
		const char *v = editor_header(u->ed, u->field);
		if (r == 0)
			ued_notice(u, "%s: is unchanged.", editor_field_name(u->field));
		else if (v)
			ued_notice(u, "%s: is now '%s' (z undoes it).", editor_field_name(u->field), v);
		else
			ued_notice(u, "%s: is removed (z undoes it).", editor_field_name(u->field));
		u->screen = UED_HEADER;
	} else if (key == INPUT_ESC) {
		ued_notice(u, "Not changed.");
		u->screen = UED_HEADER;
	} else if (key == INPUT_BACKSPACE || key == 127 || key == 8) {
		if (n > 0)
			u->input[n - 1] = '\0';
	} else if (key == INPUT_CTRL('u')) {
		u->input[0] = '\0';
	} else if (key >= 0x20 && key < 0x7f) {
		if (n < UED_INPUT_MAX) {
			u->input[n] = (char)key;
			u->input[n + 1] = '\0';
		} else {
			ued_notice(u, "At most %d characters here.", UED_INPUT_MAX);
		}
	} else if (key >= 0x80 && key < INPUT_KEY_BASE) {
		ued_notice(u, "Level files are plain ASCII text: that character cannot go in.");
	}
}

static void ued_key(struct ued *u, int key)
{
	switch (u->screen) {
	case UED_EDIT:
		ued_key_edit(u, key);
		break;
	case UED_MONSTER:
		u->screen = UED_EDIT;
		if ((key >= 'a' && key <= 'z') || (key >= 'A' && key <= 'Z')) {
			if (editor_glyph_ok(u->ed, (char)key)) {
				ued_select_glyph(u, (char)key);
				if (u->tool == TOOL_PENCIL)
					ued_apply(u);
			} else {
				ued_notice(u, "No monster kind has the letter '%c' in the bestiary.", key);
			}
		}
		break;
	case UED_QUIT:
		if (key == 's' || key == 'S') {
			ued_save(u);
			if (!editor_modified(u->ed))
				u->done = true;
			else
				u->screen = UED_EDIT;
		} else if (key == 'y' || key == 'Y') {
			u->done = true;
		} else {
			u->screen = UED_EDIT;
		}
		break;
	case UED_HELP: /* j k Space scroll, any other key returns */
		if (key == 'j' || key == INPUT_DOWN || key == ' ' || key == INPUT_PGDN)
			u->help_top += key == ' ' || key == INPUT_PGDN ? LINES - 2 : 1;
		else if (key == 'k' || key == INPUT_UP || key == INPUT_PGUP)
			u->help_top = u->help_top - (key == INPUT_PGUP ? LINES - 2 : 1) < 0
					      ? 0 : u->help_top - (key == INPUT_PGUP ? LINES - 2 : 1);
		else
			u->screen = UED_EDIT;
		break;
	case UED_HEADER:
		ued_key_header(u, key);
		break;
	case UED_INPUT:
		ued_key_input(u, key);
		break;
	case UED_RESIZE:
		ued_key_resize(u, key);
		break;
	case UED_SIM:
		ued_key_sim(u, key);
		break;
	}
}

/* ---- mouse ------------------------------------------------------------ */

static bool ued_in_map(const struct ued *u, int col, int row)
{
	return row >= u->view.top && row < u->view.top + u->view.height && col >= u->view.left &&
	       col < u->view.left + u->view.width;
}

/*
 * The map cell drawn at screen (col, row), or false when none is: the
 * blank around a small map, the status and hint lines, the panel, the
 * half column before an odd staggered row.  A press off the cells does
 * nothing (a click meant for the palette must never paint the nearest
 * wall); only a drag already under way follows the pointer to the edge.
 */
static bool ued_cell_at(const struct ued *u, int col, int row, int *x, int *y)
{
	if (!ued_in_map(u, col, row))
		return false;
	int cx, cy, scol, srow;
	input_screen_to_cell(&u->view, u->grid, col, row, &cx, &cy);
	if (!input_cell_to_screen(&u->view, u->grid, cx, cy, &scol, &srow) || srow != row)
		return false;
	/* a staggered cell is drawn in one column, with a gap column between
	 * two cells of a row: the gap goes to a neighbour, past the ends to none */
	int d = col - scol, slack = grid_is_staggered(editor_topology(u->ed)) ? 1 : 0;
	if (d < -slack || d > slack)
		return false;
	int tc = col - u->view.left + u->view.col0;
	if (tc < (cy & 1) || tc >= grid_screen_width(u->grid))
		return false;
	*x = cx;
	*y = cy;
	return true;
}

/* A press on the panel: a palette glyph or a problem. */
static void ued_panel_click(struct ued *u, int col, int row)
{
	if (!u->panel || col < u->panel_left)
		return;
	int k = (row - u->pal_row) * u->pal_per_row + (col - u->panel_left) / 2;
	if (row >= u->pal_row && k >= 0 && k < u->pal_n && (row - u->pal_row) * u->pal_per_row < u->pal_n &&
	    (col - u->panel_left) / 2 < u->pal_per_row) {
		ued_select_glyph(u, u->pal[k]);
		return;
	}
	if (row == u->marker_row && (col - u->panel_left == 9 || col - u->panel_left == 11)) {
		u->tool = TOOL_MARKER;
		u->anchor = false;
		u->marker_next = col - u->panel_left == 11;
		ued_notice(u, "Tool: marker: a click on the map places %c.", u->marker_next ? 'B' : 'A');
		return;
	}
	if (row >= u->prob_row && row < u->prob_row + u->prob_rows) {
		int i = u->prob_top + row - u->prob_row;
		if (i < editor_diags(u->ed)->n)
			ued_select_problem(u, i);
	}
}

static void ued_press(struct ued *u, int col, int row)
{
	int x, y;
	if (!ued_cell_at(u, col, row, &x, &y)) {
		ued_panel_click(u, col, row);
		return;
	}
	u->cx = x;
	u->cy = y;
	u->stroke = true;
	u->lx = x;
	u->ly = y;
	switch (u->tool) {
	case TOOL_PENCIL:
		editor_begin(u->ed);
		ued_report(u, editor_paint(u->ed, x, y, u->glyph));
		break;
	case TOOL_FILL:
	case TOOL_MARKER:
	case TOOL_STAMP:
		u->stroke = false;
		ued_apply(u);
		break;
	default:
		u->anchor_by_press = !u->anchor;
		if (!u->anchor) {
			u->anchor = true;
			u->ax = x;
			u->ay = y;
		}
		break;
	}
}

static void ued_drag(struct ued *u, int col, int row)
{
	int x, y;
	input_screen_to_cell(&u->view, u->grid, col, row, &x, &y);
	if (u->tool == TOOL_PENCIL && (x != u->lx || y != u->ly))
		ued_report(u, editor_line(u->ed, u->lx, u->ly, x, y, u->glyph));
	u->lx = u->cx = x;
	u->ly = u->cy = y;
}

static void ued_release(struct ued *u, int col, int row)
{
	if (!u->stroke)
		return;
	ued_drag(u, col, row);
	u->stroke = false;
	if (u->tool == TOOL_PENCIL) {
		editor_end(u->ed);
		return;
	}
	/* a click sets the first corner and waits; a drag, or a second click, draws */
	if (u->anchor && (u->lx != u->ax || u->ly != u->ay || !u->anchor_by_press)) {
		ued_shape(u, u->ax, u->ay, u->lx, u->ly);
		u->anchor = false;
	} else if (u->anchor) {
		ued_notice(u, "First corner at %d,%d: click or Space at the other.", u->ax, u->ay);
	}
}

static void ued_pick(struct ued *u, int col, int row)
{
	int x, y;
	if (!ued_cell_at(u, col, row, &x, &y))
		return;
	ued_select_glyph(u, editor_glyph(u->ed, x, y));
}

static void ued_mouse(struct ued *u)
{
	MEVENT ev;
	if (getmouse(&ev) != OK || ui_screen_too_small() || !ued_sync(u))
		return;
	if (u->screen != UED_EDIT) {
		if (ev.bstate & (BUTTON1_CLICKED | BUTTON1_RELEASED))
			u->screen = UED_EDIT;
		return;
	}
	/* Button bits first: a release may come with the position bit set,
	 * and a drag with the press bit; a press during a stroke is a drag. */
	mmask_t b = ev.bstate;
	if ((b & (BUTTON_SHIFT | BUTTON_CTRL | BUTTON_ALT)) && !u->stroke) {
		/* shift-click places marker A, ctrl- (or alt-) click B, where
		 * the terminal reports them; the marker tool works everywhere */
		int x, y;
		if ((b & (BUTTON1_PRESSED | BUTTON1_CLICKED)) && ued_cell_at(u, ev.x, ev.y, &x, &y)) {
			u->cx = x;
			u->cy = y;
			ued_place_marker(u, (b & BUTTON_SHIFT) ? 0 : 1, x, y);
		}
		return;
	}
	if (b & BUTTON1_RELEASED) {
		ued_release(u, ev.x, ev.y);
	} else if (b & BUTTON1_CLICKED) {
		if (u->stroke)
			ued_release(u, ev.x, ev.y);
		ued_press(u, ev.x, ev.y);
		ued_release(u, ev.x, ev.y);
	} else if (b & BUTTON1_PRESSED) {
		if (u->stroke)
			ued_drag(u, ev.x, ev.y);
		else
			ued_press(u, ev.x, ev.y);
	} else if (b & (BUTTON3_PRESSED | BUTTON3_CLICKED)) {
		ued_pick(u, ev.x, ev.y);
	} else if ((b & REPORT_MOUSE_POSITION) && u->stroke) {
		ued_drag(u, ev.x, ev.y);
	}
}

/* ---- terminal --------------------------------------------------------- */

static void ued_redraw(void *u)
{
	ued_draw(u);
}

/*
 * One slice of a running quick sim: the screen drawn, a key looked for
 * without waiting (any key stops the run, and is not taken as a
 * command), then games for UED_SIM_SLICE_US.  False when the loop must
 * end (a signal, the terminal gone).
 */
static bool ued_sim_slice(struct ued *u)
{
	ued_draw(u);
	int ch = ui_screen_read(0, &u->stale_reads);
	if (ch == UI_READ_SIGNAL || ch == UI_READ_GONE) {
		u->outcome = ch == UI_READ_SIGNAL ? UI_SIGNAL : UI_HANGUP;
		return false;
	}
	if (ch != ERR && ch != KEY_RESIZE) {
		if (ch == KEY_MOUSE) {
			MEVENT ev;
			(void)getmouse(&ev);
		}
		u->sim_running = false;
		ued_sim_said(u, "stopped");
		return true;
	}
	double t0 = clock_us();
	while (!editor_sim_finished(u->sim) && clock_us() - t0 < UED_SIM_SLICE_US)
		if (editor_sim_step(u->sim, 1) < 0)
			break;
	if (editor_sim_finished(u->sim)) {
		u->sim_running = false;
		const struct editor_sim_result *r = editor_sim_result(u->sim);
		ued_sim_said(u, r->done < r->games ? "failed" : "done");
	}
	return true;
}

static void ued_loop(struct ued *u)
{
	while (!u->done) {
		if (u->sim_running) {
			if (!ued_sim_slice(u))
				break;
			continue;
		}
		int ch = ui_screen_wait(ued_redraw, u, UED_IDLE_MS, &u->stale_reads);
		if (ch == UI_READ_SIGNAL || ch == UI_READ_GONE) {
			u->outcome = ch == UI_READ_SIGNAL ? UI_SIGNAL : UI_HANGUP;
			break;
		}
		if (ch == KEY_MOUSE) {
			ued_mouse(u);
		} else if (!ui_screen_too_small()) {
			if (u->screen == UED_EDIT)
				u->notice[0] = '\0';
			ued_key(u, ui_screen_key(ch));
		}
		ued_history_note(u);
	}
	if (u->stroke) {
		editor_end(u->ed); /* a stroke cut short by a signal still counts */
		u->stroke = false;
	}
}

enum ui_outcome ui_editor_run(struct editor *ed, const struct ui_editor_options *opt,
			      int *signal_number, char *err, size_t errlen)
{
	struct ui_signals sigs;
	ui_screen_signals_install(&sigs);
	*signal_number = 0;
	struct ued u;
	memset(&u, 0, sizeof u);
	u.ed = ed;
	u.opt = opt;
	u.glyph = '#';
	u.heat_deaths = true;
	u.sim_size = 1; /* 100 games */
	u.sel = -1;
	u.seed = opt->seed;
	u.outcome = UI_QUIT;
	u.view.col0 = u.view.row0 = -1;
	u.grid = grid_create(editor_width(ed), editor_height(ed), editor_topology(ed));
	if (!u.grid) {
		snprintf(err, errlen, "out of memory");
		ui_screen_signals_restore(&sigs);
		return UI_ERROR;
	}
	const struct level *lv = editor_level(ed);
	if (lv && lv->player_x >= 0) {
		u.cx = lv->player_x;
		u.cy = lv->player_y;
	} else {
		u.cx = editor_width(ed) / 2;
		u.cy = editor_height(ed) / 2;
	}
	if (opt->notice)
		ued_notice(&u, "%s", opt->notice);
	if (!ued_screen_start(&u, err, errlen)) {
		grid_destroy(u.grid);
		ui_screen_signals_restore(&sigs);
		return UI_ERROR;
	}
	ued_loop(&u);
	ui_screen_stop(&u.tty);
	grid_destroy(u.grid);
	editor_clip_free(&u.clip);
	editor_sim_destroy(u.sim);
	free(u.seen);
	if (u.outcome == UI_ERROR)
		snprintf(err, errlen, "%s", u.err[0] ? u.err : "cannot use the terminal again after the play-test");
	/* Stopped by a signal or a closed terminal, the caller now writes the
	 * recovery file: the handlers stay, so a second hangup (a closed
	 * terminal sends more than one) is only noted instead of killing the
	 * program in the middle of that write.  The caller restores the
	 * default action before it raises the signal again. */
	if (u.outcome != UI_SIGNAL && u.outcome != UI_HANGUP)
		ui_screen_signals_restore(&sigs);
	*signal_number = ui_screen_signal();
	if (u.outcome == UI_SIGNAL && *signal_number == SIGHUP)
		u.outcome = UI_HANGUP;
	return u.outcome;
}
