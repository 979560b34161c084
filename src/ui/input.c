/*
 * input.c - the curses-free half of the user interface: the table from keys
 * to commands, the click state machine that makes both click forms act
 * once, and the viewport maths that maps cells to screen positions and
 * clicks back to cells.  It never draws and never reads the terminal:
 * ncurses decodes the bytes (getch, getmouse), ui_curses.c feeds the
 * result here, and the tests and tests/fuzz_input.c drive it directly.
 */
#include "input.h"

#include <stddef.h>
#include <string.h>

struct key_binding {
	int key;
	enum input_command_kind kind;
	enum grid_dir dir;
	int count;
};

/* One table for every key the game knows.  On hex maps the same keys
 * mean the same compass directions (y u h l b n are the six hex steps);
 * the UI reports the ones that have no meaning there. */
static const struct key_binding bindings[] = {
	/* vi keys */
	{ 'k', INPUT_MOVE, GRID_N, 1 },  { 'j', INPUT_MOVE, GRID_S, 1 },
	{ 'h', INPUT_MOVE, GRID_W, 1 },  { 'l', INPUT_MOVE, GRID_E, 1 },
	{ 'y', INPUT_MOVE, GRID_NW, 1 }, { 'u', INPUT_MOVE, GRID_NE, 1 },
	{ 'b', INPUT_MOVE, GRID_SW, 1 }, { 'n', INPUT_MOVE, GRID_SE, 1 },
	/* shifted vi keys: eight cells at a time (the travel cursor) */
	{ 'K', INPUT_MOVE, GRID_N, 8 },  { 'J', INPUT_MOVE, GRID_S, 8 },
	{ 'H', INPUT_MOVE, GRID_W, 8 },  { 'L', INPUT_MOVE, GRID_E, 8 },
	{ 'Y', INPUT_MOVE, GRID_NW, 8 }, { 'U', INPUT_MOVE, GRID_NE, 8 },
	{ 'B', INPUT_MOVE, GRID_SW, 8 }, { 'N', INPUT_MOVE, GRID_SE, 8 },
	/* arrows */
	{ INPUT_UP, INPUT_MOVE, GRID_N, 1 },    { INPUT_DOWN, INPUT_MOVE, GRID_S, 1 },
	{ INPUT_LEFT, INPUT_MOVE, GRID_W, 1 },  { INPUT_RIGHT, INPUT_MOVE, GRID_E, 1 },
	/* the numpad, as keypad keys and as digits */
	{ INPUT_A1, INPUT_MOVE, GRID_NW, 1 },   { INPUT_A3, INPUT_MOVE, GRID_NE, 1 },
	{ INPUT_C1, INPUT_MOVE, GRID_SW, 1 },   { INPUT_C3, INPUT_MOVE, GRID_SE, 1 },
	{ INPUT_HOME, INPUT_MOVE, GRID_NW, 1 }, { INPUT_PGUP, INPUT_MOVE, GRID_NE, 1 },
	{ INPUT_END, INPUT_MOVE, GRID_SW, 1 },  { INPUT_PGDN, INPUT_MOVE, GRID_SE, 1 },
	{ INPUT_B2, INPUT_WAIT, GRID_N, 0 },
	{ '7', INPUT_MOVE, GRID_NW, 1 }, { '8', INPUT_MOVE, GRID_N, 1 }, { '9', INPUT_MOVE, GRID_NE, 1 },
	{ '4', INPUT_MOVE, GRID_W, 1 },  { '5', INPUT_WAIT, GRID_N, 0 },  { '6', INPUT_MOVE, GRID_E, 1 },
	{ '1', INPUT_MOVE, GRID_SW, 1 }, { '2', INPUT_MOVE, GRID_S, 1 },  { '3', INPUT_MOVE, GRID_SE, 1 },
	/* everything else */
	{ '.', INPUT_WAIT, GRID_N, 0 },  { 's', INPUT_WAIT, GRID_N, 0 },
	{ '>', INPUT_DESCEND, GRID_N, 0 },
	{ '?', INPUT_HELP, GRID_N, 0 },
	{ 'P', INPUT_HISTORY, GRID_N, 0 }, { INPUT_CTRL('p'), INPUT_HISTORY, GRID_N, 0 },
	/* as in DCSS: R rests, s . and numpad 5 wait a turn, q quaffs, o explores,
	 * i shows the pack; quitting is Q or Ctrl-Q (it asks first) */
	{ 'R', INPUT_REST, GRID_N, 0 },
	{ 'q', INPUT_QUAFF, GRID_N, 0 },
	{ 'o', INPUT_EXPLORE, GRID_N, 0 },
	{ 'i', INPUT_INVENTORY, GRID_N, 0 },
	/* items, as in NetHack and DCSS; reading is a (r shows routes) */
	{ 'a', INPUT_READ, GRID_N, 0 },  { 'z', INPUT_ZAP, GRID_N, 0 },
	{ 't', INPUT_THROW, GRID_N, 0 }, { 'f', INPUT_FIRE, GRID_N, 0 },
	{ 'w', INPUT_WIELD, GRID_N, 0 }, { 'W', INPUT_WEAR, GRID_N, 0 },
	{ 'd', INPUT_DROP, GRID_N, 0 },  { ',', INPUT_PICKUP, GRID_N, 0 },
	{ 'g', INPUT_PICKUP, GRID_N, 0 }, { 'c', INPUT_CLOSE, GRID_N, 0 },
	{ '\t', INPUT_NEXT, GRID_N, 0 },
	{ 'Q', INPUT_QUIT, GRID_N, 0 },  { INPUT_CTRL('q'), INPUT_QUIT, GRID_N, 0 },
	{ '_', INPUT_CURSOR, GRID_N, 0 }, { 'x', INPUT_CURSOR, GRID_N, 0 },
	{ 'r', INPUT_ROUTES, GRID_N, 0 },
	{ 'v', INPUT_DESCRIBE, GRID_N, 0 }, { ';', INPUT_DESCRIBE, GRID_N, 0 },
	{ 'O', INPUT_OPTIONS, GRID_N, 0 },
	{ '\n', INPUT_CONFIRM, GRID_N, 0 }, { '\r', INPUT_CONFIRM, GRID_N, 0 },
	{ INPUT_ENTER, INPUT_CONFIRM, GRID_N, 0 },
	{ INPUT_ESC, INPUT_CANCEL, GRID_N, 0 },
	{ INPUT_CTRL('l'), INPUT_REDRAW, GRID_N, 0 },
};

struct input_command input_key(int key)
{
	for (size_t i = 0; i < sizeof bindings / sizeof bindings[0]; i++)
		if (bindings[i].key == key)
			return (struct input_command){ bindings[i].kind, bindings[i].dir, bindings[i].count };
	return (struct input_command){ INPUT_NONE, GRID_N, 0 };
}

bool input_is_vertical(enum grid_dir d)
{
	return d == GRID_N || d == GRID_S;
}

enum grid_dir input_move_dir(enum grid_topology topo, int key, enum grid_dir d, int y)
{
	if (topo == GRID_DIAMOND4) {
		switch (key) {
		case INPUT_UP:
			return GRID_NE;
		case INPUT_RIGHT:
			return GRID_SE;
		case INPUT_DOWN:
			return GRID_SW;
		case INPUT_LEFT:
			return GRID_NW;
		default:
			return d;
		}
	}
	if (topo == GRID_HEX && input_is_vertical(d)) {
		/* odd rows sit half a cell to the right: from an even row the
		 * right-hand neighbour, from an odd one the left-hand one */
		const bool even = (y & 1) == 0;
		if (d == GRID_N)
			return even ? GRID_NE : GRID_NW;
		return even ? GRID_SE : GRID_SW;
	}
	return d;
}

/* The key of an application-mode keypad's final byte after ESC O, or of
 * a cursor key's after ESC [ or ESC O; -1 for none. */
static int keypad_final(int c)
{
	static const char ops[] = "jklmnoX", op_keys[] = "*+,-./=";
	if (c >= 'p' && c <= 'y')
		return '0' + (c - 'p');
	for (int i = 0; ops[i]; i++)
		if (c == ops[i])
			return op_keys[i];
	switch (c) {
	case 'M':
		return '\n';
	case 'A':
		return INPUT_UP;
	case 'B':
		return INPUT_DOWN;
	case 'C':
		return INPUT_RIGHT;
	case 'D':
		return INPUT_LEFT;
	case 'H':
		return INPUT_HOME;
	case 'F':
		return INPUT_END;
	case 'E':
		return INPUT_B2;
	default:
		return -1;
	}
}

/* ESC [ n ~ */
static int csi_tilde(int n)
{
	switch (n) {
	case 1:
	case 7:
		return INPUT_HOME;
	case 4:
	case 8:
		return INPUT_END;
	case 5:
		return INPUT_PGUP;
	case 6:
		return INPUT_PGDN;
	default:
		return INPUT_ESC;
	}
}

int input_after_escape(int (*next)(void *ctx), void *ctx, int *unread)
{
	*unread = -1;
	int c = next(ctx);
	if (c < 0)
		return INPUT_ESC;
	if (c == 'O') {
		int f = next(ctx);
		if (f < 0)
			return 'O'; /* Alt-O */
		int k = keypad_final(f);
		if (k >= 0)
			return k;
		*unread = f;
		return 'O';
	}
	if (c == '[') {
		/* a control sequence: parameter bytes, then one final byte;
		 * only cursor keys and ESC [ n ~ mean a key (a mouse report
		 * ncurses did not take, ESC [ M or ESC [ <, means nothing) */
		int n = 0;
		for (int i = 0; i < 32; i++) {
			int f = next(ctx);
			if (f < 0)
				return INPUT_ESC; /* cut short: nothing */
			if (f >= '0' && f <= '9') {
				if (n < 1000)
					n = n * 10 + (f - '0');
				continue;
			}
			if (f >= 0x20 && f <= 0x3f)
				continue;
			if (f == '~')
				return csi_tilde(n);
			if (f == 'M' && i == 0) {
				/* an X10 mouse report: three bytes more */
				for (int k = 0; k < 3 && next(ctx) >= 0; k++)
					;
				return INPUT_ESC;
			}
			if (f >= 0x40 && f <= 0x7e)
				return f != 'M' && strchr("ABCDHFE", f) ? keypad_final(f) : INPUT_ESC;
			*unread = f; /* not a sequence after all */
			return INPUT_ESC;
		}
		return INPUT_ESC;
	}
	if (c >= ' ' && c < 127)
		return c; /* Alt with a key: the key */
	*unread = c;
	return INPUT_ESC;
}

int input_key_named(const char *name)
{
	static const struct {
		const char *name;
		int key;
	} names[] = {
		{ "ka2", '8' },   { "kb1", '4' },   { "kb3", '6' },   { "kc2", '2' },   { "kpZRO", '0' },
		{ "kpDOT", '.' }, { "kpADD", '+' }, { "kpSUB", '-' }, { "kpMUL", '*' }, { "kpDIV", '/' },
		{ "kpCMA", ',' },
	};
	for (size_t i = 0; name && i < sizeof names / sizeof names[0]; i++)
		if (strcmp(name, names[i].name) == 0)
			return names[i].key;
	return -1;
}

bool input_click_event(struct input_click *c, enum input_button b, enum input_mouse_phase p)
{
	if ((int)b < 0 || b >= INPUT_BUTTONS)
		return false;
	switch (p) {
	case INPUT_PRESSED:
		c->pressed[b] = true;
		return false;
	case INPUT_RELEASED:
		if (!c->pressed[b])
			return false;
		c->pressed[b] = false;
		return true;
	case INPUT_CLICKED:
		c->pressed[b] = false;
		return true;
	}
	return false;
}

void input_view_follow(int *origin, int pos, int map_size, int area_size)
{
	if (area_size <= 0)
		return;
	if (map_size <= area_size) {
		*origin = -((area_size - map_size) / 2);
		return;
	}
	int margin = area_size / 4;
	if (*origin < 0 || pos < *origin + margin || pos >= *origin + area_size - margin)
		*origin = pos - area_size / 2;
	if (*origin > map_size - area_size)
		*origin = map_size - area_size;
	if (*origin < 0)
		*origin = 0;
}

void input_view_update(struct input_view *v, const struct grid *g, int px, int py)
{
	int col, row;
	grid_cell_to_screen(g, px, py, &col, &row);
	input_view_follow(&v->col0, col, grid_screen_width(g), v->width);
	input_view_follow(&v->row0, row, g->h, v->height);
}

bool input_cell_to_screen(const struct input_view *v, const struct grid *g, int x, int y,
			  int *scol, int *srow)
{
	int col, row;
	grid_cell_to_screen(g, x, y, &col, &row);
	col -= v->col0;
	row -= v->row0;
	*scol = v->left + col;
	*srow = v->top + row;
	return col >= 0 && row >= 0 && col < v->width && row < v->height;
}

/* a - b + c in wide arithmetic, brought into [lo, hi]: screen positions
 * come from the terminal and may be anything an int holds. */
static int clamp_sum(int a, int b, int c, int lo, int hi)
{
	long long v = (long long)a - b + c;
	return v < lo ? lo : v > hi ? hi : (int)v;
}

void input_screen_to_cell(const struct input_view *v, const struct grid *g, int scol, int srow,
			  int *x, int *y)
{
	/* one past each edge still says "outside"; the nearest cell is the same */
	int col = clamp_sum(scol, v->left, v->col0, -1, grid_screen_width(g));
	int row = clamp_sum(srow, v->top, v->row0, -1, g->h);
	grid_screen_to_cell(g, col, row, x, y);
}
