/*
 * ui_draw.c - the play screen's frame, drawn from the state in one place
 * (ui_draw): the map as the player knows it with the routes laid over it
 * (travel, the cursor's preview or the pointer's, the monsters' with r),
 * the monsters in view beside it on a wide terminal, the message rows
 * with their --More-- pages and the quit question, the status line, the
 * help for the grid being played and the message history; and the same
 * frame for other screens (ui_draw_game, the replay viewer).  It reads
 * the game and changes nothing of it; the keys that change what is shown
 * are ui_curses.c's.
 */
#include "ui.h"
#include "ui_curses_internal.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "input.h"
#include "level.h"
#include "ui_options.h"
#include "ui_palette.h"
#include "ui_screen.h"

#define UI_MORE " --More--"   /* ends a page of messages when more follow */

static attr_t ui_attr(const struct ui *u, enum ui_colour c)
{
	return ui_palette_attr(u->colour, c);
}

/* Lays out the map area for the current terminal size and scrolls the
 * view to keep the player (or the travel cursor) in sight. */
static void ui_layout(struct ui *u)
{
	const struct game *g = u->g;
	u->view.top = UI_MESSAGE_ROWS;
	u->view.left = 0;
	u->side_w = COLS >= UI_SIDE_MIN_COLS ? UI_SIDE_W : 0;
	u->view.width = COLS - u->side_w;
	u->view.height = LINES - UI_MESSAGE_ROWS - UI_STATUS_ROWS;
	if (u->screen == SCREEN_CURSOR || (u->screen == SCREEN_DESCRIBE && u->desc_back == SCREEN_CURSOR))
		input_view_update(&u->view, g->grid, u->cursor_x, u->cursor_y);
	else
		input_view_update(&u->view, g->grid, g->player.x, g->player.y);
}

/* ---- drawing ---------------------------------------------------------- */

static const enum ui_colour tile_colour[TILE_COUNT] = {
	[TILE_VOID] = UI_COL_NONE, [TILE_WALL] = UI_COL_WALL, [TILE_FLOOR] = UI_COL_FLOOR,
	[TILE_RUBBLE] = UI_COL_RUBBLE, [TILE_WATER] = UI_COL_WATER, [TILE_DOOR] = UI_COL_DOOR,
	[TILE_EXIT] = UI_COL_EXIT, [TILE_BEDROCK] = UI_COL_WALL,
};

/* A monster as the map shows it: its letter, a capital one (a boss) in its own colour. */
static chtype ui_monster_look(const struct ui *u, const struct monster *m)
{
	const char c = m->kind->glyph;
	return (chtype)(unsigned char)c | ui_attr(u, c >= 'A' && c <= 'Z' ? UI_COL_BOSS : UI_COL_MONSTER);
}

/* An item's colour on the map by its class: gold its own, the rest alike. */
static enum ui_colour ui_item_colour(int cls)
{
	return cls == ITEM_GOLD ? UI_COL_GOLD : UI_COL_POTION;
}

/* What cell (x, y) looks like now; false for a cell never seen. */
static bool ui_cell_look(const struct ui *u, int x, int y, chtype *out)
{
	const struct game *g = u->g;
	int i = y * g->grid->w + x;
	bool visible = g->visible[i] != 0;
	if (!visible && !g->remembered[i])
		return false;
	if (x == g->player.x && y == g->player.y) {
		*out = '@' | ui_attr(u, UI_COL_PLAYER);
		return true;
	}
	if (visible && g->occupant[i] >= 0) {
		const struct monster *m = &g->monsters[g->occupant[i]];
		if (m->alive) {
			*out = ui_monster_look(u, m);
			return true;
		}
	}
	chtype ch;
	enum ui_colour col;
	if (g->items[i]) {
		const struct item_def *d = game_item_def(g, g->items[i] - 1);
		int cls = d ? d->cls : ITEM_POTION;
		ch = (chtype)(unsigned char)item_class_glyph(cls);
		col = ui_item_colour(cls);
	} else if (g->hazard && g->hazard[i] && game_tile_known(g, i) != TILE_WALL) {
		ch = '^';
		col = UI_COL_WARN;
	} else {
		enum tile t = game_tile_known(g, i);
		if (t >= TILE_COUNT)
			t = TILE_VOID;
		ch = (chtype)(unsigned char)tile_info(t)->glyph;
		col = tile_colour[t];
		if (g->open && g->open[i]) {
			ch = '\'';
			col = UI_COL_DOOR;
		}
	}
	*out = ch | ui_attr(u, visible ? col : UI_COL_REMEMBERED);
	return true;
}

static void ui_draw_at_cell(const struct ui *u, int x, int y, chtype ch)
{
	int col, row;
	if (input_cell_to_screen(&u->view, u->g->grid, x, y, &col, &row))
		mvaddch(row, col, ch);
}

/* Whether the player has seen cell: an overlay draws on no other, so a
 * route that would show a corridor never seen is cut where it enters the
 * unknown. */
static bool ui_cell_known(const struct game *g, int cell)
{
	return cell >= 0 && cell < g->grid->w * g->grid->h && (g->visible[cell] || g->remembered[cell]);
}

/* A route cell keeps what stands on it; bare ground shows the route mark.
 * Only known cells come here (ui_draw_route). */
static void ui_draw_route_cell(const struct ui *u, int cell, chtype mark, enum ui_colour col)
{
	const struct game *g = u->g;
	int x = cell % g->grid->w, y = cell / g->grid->w;
	if (x == g->player.x && y == g->player.y)
		return;
	if (g->visible[cell] && g->occupant[cell] >= 0)
		return;
	if (g->items[cell])
		return;
	enum tile t = game_tile_known(g, cell);
	chtype ch = t == TILE_FLOOR ? mark : (chtype)(unsigned char)tile_info(t < TILE_COUNT ? t : TILE_VOID)->glyph;
	ui_draw_at_cell(u, x, y, ch | ui_attr(u, col));
}

/* Cells [from, len) of a route, up to the first the player has not seen. */
static void ui_draw_route(const struct ui *u, const int *cells, int from, int len, chtype mark,
			  enum ui_colour col)
{
	for (int j = from; j < len && ui_cell_known(u->g, cells[j]); j++)
		ui_draw_route_cell(u, cells[j], mark, col);
}

/* Monster m's route, when it is in view, as it is after its last move:
 * from its cell on (a step that did not happen, a door opened or a
 * blocked step, leaves route_pos one ahead); a route its cell is not on is
 * replanned on its next turn: none drawn. */
static void ui_draw_monster_route(const struct ui *u, const struct monster *m)
{
	const struct game *g = u->g;
	if (!m->alive || !g->visible[m->y * g->grid->w + m->x])
		return;
	const struct mind *mind = &m->mind;
	int here = m->y * g->grid->w + m->x, from = -1;
	for (int j = mind->route_pos; mind->route && j >= 0 && j >= mind->route_pos - 1 && from < 0; j--)
		if (j < mind->route_len && mind->route[j] == here)
			from = j;
	if (from >= 0)
		ui_draw_route(u, mind->route, from + 1, mind->route_len, ':', UI_COL_MROUTE);
}

static void ui_draw_routes(const struct ui *u)
{
	const struct game *g = u->g;
	if (u->routes) {
		for (int k = 0; k < g->n_monsters; k++)
			ui_draw_monster_route(u, &g->monsters[k]);
		for (int k = 0; k < g->n_monsters; k++) {
			const struct monster *m = &g->monsters[k];
			if (!m->alive || !m->mind.hunting || !g->visible[m->y * g->grid->w + m->x])
				continue;
			int tx = m->mind.target_x, ty = m->mind.target_y;
			if (!grid_in_bounds(g->grid, tx, ty) || !ui_cell_known(g, grid_index(g->grid, tx, ty)))
				continue;
			chtype under;
			if (!ui_cell_look(u, tx, ty, &under))
				under = 'X';
			ui_draw_at_cell(u, tx, ty, (under & A_CHARTEXT) | ui_attr(u, UI_COL_TARGET));
		}
	}
	const struct travel *t = &g->travel;
	if (t->active && t->cells)
		ui_draw_route(u, t->cells, t->pos + 1, t->len, '*', UI_COL_ROUTE);
}

static void ui_draw_map(const struct ui *u)
{
	const struct game *g = u->g;
	const struct grid *gr = g->grid;
	bool hex = grid_is_staggered(gr->topo);
	for (int r = 0; r < u->view.height; r++) {
		int y = u->view.row0 + r;
		if (y < 0 || y >= gr->h)
			continue;
		int parity = hex ? (y & 1) : 0;
		for (int c = 0; c < u->view.width; c++) {
			int col = u->view.col0 + c;
			int x;
			if (hex) {
				if (col < parity || ((col - parity) & 1))
					continue;
				x = (col - parity) / 2;
			} else {
				x = col;
			}
			if (x < 0 || x >= gr->w)
				continue;
			chtype ch;
			if (ui_cell_look(u, x, y, &ch))
				mvaddch(u->view.top + r, u->view.left + c, ch);
		}
	}
	ui_draw_routes(u);
	if (u->hover && u->screen == SCREEN_MAP && !g->travel.active) {
		/* where a click on the pointer's cell would walk, and on a
		 * monster where it is going, over it (the two share most of
		 * their cells when it comes for the player; r shows every
		 * monster's) */
		ui_draw_route(u, u->preview, 1, u->preview_len, '*', UI_COL_ROUTE);
		const struct monster *m = game_monster_at(g, u->hover_x, u->hover_y);
		if (m && !u->routes)
			ui_draw_monster_route(u, m);
		int col, row;
		chtype ch;
		if (input_cell_to_screen(&u->view, gr, u->hover_x, u->hover_y, &col, &row) &&
		    ui_cell_look(u, u->hover_x, u->hover_y, &ch))
			mvaddch(row, col, (ch & A_CHARTEXT) | A_REVERSE);
	}
	if (u->screen == SCREEN_CURSOR) {
		ui_draw_route(u, u->preview, 1, u->preview_len, '*', UI_COL_ROUTE);
		int col, row;
		if (input_cell_to_screen(&u->view, gr, u->cursor_x, u->cursor_y, &col, &row)) {
			chtype ch;
			if (!ui_cell_look(u, u->cursor_x, u->cursor_y, &ch))
				ch = ' ';
			mvaddch(row, col, (ch & A_CHARTEXT) | A_REVERSE);
		}
	}
}

static size_t ui_line_take(const char *text, size_t at, size_t len, int width);

/* Keeps id at distance d among the *n nearest so far (at most fit, in
 * rising distance, ties in the order seen): the farthest gives way. */
static void side_keep(int *ids, int *dist, int *n, int fit, int id, int d)
{
	int at;
	if (*n < fit)
		at = (*n)++;
	else if (fit > 0 && d < dist[fit - 1])
		at = fit - 1;
	else
		return;
	while (at > 0 && dist[at - 1] > d) {
		ids[at] = ids[at - 1];
		dist[at] = dist[at - 1];
		at--;
	}
	ids[at] = id;
	dist[at] = d;
}

/*
 * The items in view, under the monsters of the list: a title row at row
 * `from` of the map area, then a row each, nearest first, as many as end
 * before row `to`; the rows after the last used returned.  Only the cells
 * the last field of view may have set are looked at (g->fov_box), not the
 * whole level.
 */
static int ui_draw_side_items(struct ui *u, int x0, int from, int to)
{
	const struct game *g = u->g;
	const int *b = g->fov_box;
	if (b[0] < 0 || b[0] > b[2] || b[1] > b[3] || b[2] >= g->grid->w || b[3] >= g->grid->h || from + 1 >= to)
		return from - 1;
	enum { MAX_ITEMS = 32 };
	int cells[MAX_ITEMS], dist[MAX_ITEMS], n = 0, total = 0;
	const int fit = to - from - 1 < MAX_ITEMS ? to - from - 1 : MAX_ITEMS;
	const int pc = grid_index(g->grid, g->player.x, g->player.y);
	for (int y = b[1]; y <= b[3]; y++)
		for (int x = b[0]; x <= b[2]; x++) {
			const int c = grid_index(g->grid, x, y);
			if (!g->visible[c] || !g->items[c])
				continue;
			total++;
			side_keep(cells, dist, &n, fit, c, grid_step_distance(g->grid, pc, c));
		}
	if (total == 0)
		return from - 1;
	const int top = u->view.top, w = u->side_w - 2;
	char line[UI_SIDE_W + 1], name[GAME_MESSAGE_LEN];
	snprintf(line, sizeof line, "Items in view: %d", total);
	mvaddnstr(top + from, x0 + 2, line, w);
	for (int k = 0; k < n; k++) {
		const int c = cells[k], row = from + 1 + k;
		const struct item_def *d = game_item_def(g, g->items[c] - 1);
		const int cls = d ? d->cls : ITEM_POTION;
		mvaddch(top + row, x0 + 2,
			(chtype)(unsigned char)item_class_glyph(cls) | ui_attr(u, ui_item_colour(cls)));
		game_item_name(g, g->items[c] - 1, g->item_qty[c], name, sizeof name);
		mvaddnstr(top + row, x0 + 4, name, w - 2);
		if (row < UI_SIDE_ROWS)
			u->side_cell[row] = c;
	}
	return from + n;
}

/*
 * On a wide terminal, the monsters in view beside the map, nearest first
 * (as DCSS's monster list and Brogue's sidebar): each its glyph in the
 * map's colour, its name and a bar of its health, and under it what it
 * is doing.  A click on one describes it (ui_click).
 */
static void ui_draw_side(struct ui *u)
{
	for (int r = 0; r < UI_SIDE_ROWS; r++)
		u->side_cell[r] = -1;
	if (!u->side_w)
		return;
	const struct game *g = u->g;
	const int x0 = COLS - u->side_w, top = u->view.top, rows = u->view.height;
	const attr_t dim = ui_attr(u, UI_COL_REMEMBERED);
	for (int r = 0; r < rows; r++)
		mvaddch(top + r, x0, ACS_VLINE | dim);
	/* the nearest that fit, two rows each under a title row */
	enum { MAX_SHOWN = 64 };
	int shown[MAX_SHOWN], dist[MAX_SHOWN], n = 0, total = 0;
	const bool hover = u->hover && u->screen == SCREEN_MAP && !g->travel.active;
	const int room = (rows - 1 - (hover ? UI_SIDE_HOVER_ROWS + 1 : 0)) / 2; /* the pointer's cell keeps the foot */
	const int fit = room < 0 ? 0 : room < MAX_SHOWN ? room : MAX_SHOWN;
	const int pc = grid_index(g->grid, g->player.x, g->player.y);
	for (int i = 0; i < g->n_monsters; i++) {
		const struct monster *m = &g->monsters[i];
		const int c = grid_index(g->grid, m->x, m->y);
		if (!m->alive || !g->visible[c] || g->occupant[c] != i)
			continue;
		total++;
		side_keep(shown, dist, &n, fit, i, grid_step_distance(g->grid, pc, c));
	}
	const int w = u->side_w - 2; /* text columns after the rule and a space */
	char line[UI_SIDE_W + 1];
	if (total == 0)
		snprintf(line, sizeof line, "No monster in view");
	else
		snprintf(line, sizeof line, "Monsters in view: %d", total);
	mvaddnstr(top, x0 + 2, line, w);
	for (int k = 0; k < n; k++) {
		const struct monster *m = &g->monsters[shown[k]];
		const int row = 1 + 2 * k;
		mvaddch(top + row, x0 + 2, ui_monster_look(u, m));
		/* the bar: 8 marks, a part of one counts */
		const int max = m->kind->hp > 0 ? m->kind->hp : 1, hp = m->hp < 0 ? 0 : m->hp;
		const int marks = hp >= max ? 8 : (8 * hp + max - 1) / max;
		char bar[11] = "[--------]";
		for (int b = 0; b < marks && b < 8; b++)
			bar[1 + b] = '#';
		const int name_w = w - 2 - 11;
		snprintf(line, sizeof line, "%-*.*s", name_w, name_w, m->kind->name);
		mvaddnstr(top + row, x0 + 4, line, name_w);
		const attr_t hurt = 3 * hp <= max ? ui_attr(u, UI_COL_WARN) : A_NORMAL;
		attron(hurt);
		mvaddstr(top + row, x0 + 4 + name_w + 1, bar);
		attroff(hurt);
		snprintf(line, sizeof line, "%s", game_monster_doing(m));
		mvaddnstr(top + row + 1, x0 + 4, line, w - 2);
		if (row + 1 < UI_SIDE_ROWS) {
			u->side_cell[row] = grid_index(g->grid, m->x, m->y);
			u->side_cell[row + 1] = u->side_cell[row];
		}
	}
	int used = 1 + 2 * n; /* rows taken so far */
	if (total > n && used < rows) {
		snprintf(line, sizeof line, "and %d more", total - n);
		mvaddnstr(top + used++, x0 + 2, line, w);
	}
	used = ui_draw_side_items(u, x0, used + 1, rows - (hover ? UI_SIDE_HOVER_ROWS + 1 : 0));
	if (hover) {
		/* the pointer's cell at the list's foot, word-wrapped */
		int n_rows = 0, starts[UI_SIDE_HOVER_ROWS], lens[UI_SIDE_HOVER_ROWS];
		size_t at = 0, len = strlen(u->hover_what);
		while (at < len && n_rows < UI_SIDE_HOVER_ROWS) {
			size_t take = ui_line_take(u->hover_what, at, len, w);
			starts[n_rows] = (int)at;
			lens[n_rows++] = (int)take;
			at += take;
			while (at < len && u->hover_what[at] == ' ')
				at++;
		}
		const int first = rows - n_rows;
		if (first > used)
			for (int k = 0; k < n_rows; k++)
				mvaddnstr(top + first + k, x0 + 2, u->hover_what + starts[k], lens[k]);
	}
}

static void ui_draw_line(int row, const char *text, attr_t attr)
{
	move(row, 0);
	clrtoeol();
	attron(attr);
	mvaddnstr(row, 0, text, COLS);
	attroff(attr);
}

/* How much of text[at..len) one row of `width` columns takes: all of
 * it, up to the last space that fits, or `width` characters of a word
 * longer than the row. */
static size_t ui_line_take(const char *text, size_t at, size_t len, int width)
{
	size_t take = len - at;
	if (take > (size_t)width) {
		take = (size_t)width;
		while (take > 0 && text[at + take] != ' ')
			take--;
		if (take == 0)
			take = (size_t)width;
	}
	return take;
}

/* Word-wraps `text` into u->lines from *n on, each line at most `width`
 * columns; false when the lines are full. */
static bool ui_wrap(struct ui *u, int *n, const char *text, int width, bool fresh)
{
	size_t len = strlen(text), at = 0;
	if (width < 8)
		width = 8;
	do {
		if (*n >= UI_MSG_LINES)
			return false;
		size_t take = ui_line_take(text, at, len, width);
		snprintf(u->lines[*n], sizeof u->lines[*n], "%.*s", (int)take, text + at);
		u->line_fresh[*n] = fresh;
		(*n)++;
		at += take;
		while (at < len && text[at] == ' ')
			at++;
	} while (at < len);
	return true;
}

/* Cuts text to at most width columns: at the last space that leaves room
 * for "...", or mid-word when a single word is longer than that. */
static void ui_ellipsize(char *text, int width)
{
	size_t len = strlen(text);
	if (width < 4 || len <= (size_t)width)
		return;
	size_t cut = (size_t)width - 3;
	size_t at = cut;
	while (at > 0 && text[at] != ' ')
		at--;
	if (at > (size_t)width / 2)
		cut = at;
	while (cut > 0 && text[cut - 1] == ' ')
		cut--;
	memcpy(text + cut, "...", 4);
}

/* Message i (0 the newest) as shown: a merged one says how many times. */
static void ui_message_text(const struct message *m, char *buf, size_t size)
{
	if (m->count > 1)
		snprintf(buf, size, "%s (x%d)", m->text, m->count);
	else
		snprintf(buf, size, "%s", m->text);
}

/* The hooks' standing warning (a broken save), or NULL. */
static const char *ui_warning(const struct ui *u)
{
	const struct ui_hooks *h = u->opt.hooks;
	return h && h->warning ? h->warning(h->ud) : NULL;
}

/* The start of the message game.c says on stepping onto stairs. */
#define UI_STAIRS_HERE "There are stairs down here"

/*
 * The message rows.  The messages of the last action (fresh) are shown
 * oldest first, word-wrapped, a page at a time: when they need more rows
 * than there are, the page ends with --More-- and the next key shows the
 * next page, so no message is ever skipped.  Rows left over show older
 * messages, dim.
 */
static void ui_draw_messages(struct ui *u)
{
	const struct game *g = u->g;
	int rows = UI_MESSAGE_ROWS;
	const char *prompt = NULL;
	attr_t prompt_attr = A_BOLD;
	char end[GAME_MESSAGE_LEN * 2];
	switch (u->screen) {
	case SCREEN_QUIT:
		prompt = ui_warning(u) && u->opt.hooks->failed_quit_prompt ? u->opt.hooks->failed_quit_prompt
			 : u->opt.hooks && u->opt.hooks->quit_prompt ? u->opt.hooks->quit_prompt
								   : "Really quit? Nothing is saved. (y/n)";
		prompt_attr = ui_attr(u, UI_COL_WARN);
		break;
	case SCREEN_END:
		if (g->won)
			snprintf(end, sizeof end, "You escaped with your life! P: messages, Enter leaves.");
		else
			snprintf(end, sizeof end, "You died, killed by %s on level %d. P: messages, Enter leaves.",
				 g->killer[0] ? g->killer : "something", g->depth + 1);
		prompt = end;
		prompt_attr = ui_attr(u, g->won ? UI_COL_GOLD : UI_COL_WARN);
		break;
	default:
		if (u->notice[0])
			prompt = u->notice;
		break;
	}
	/* fresh messages, oldest first, wrapped (before the prompt: whether
	 * any wait unseen decides how a long notice is shown) */
	int width = COLS - (int)strlen(UI_MORE);
	int fresh = 0;
	while (fresh < GAME_MESSAGES && game_message(g, fresh) && game_message(g, fresh)->stamp > u->msg_mark)
		fresh++;
	int n = 0;
	char text[GAME_MESSAGE_LEN + 16];
	for (int i = fresh - 1; i >= 0; i--) {
		ui_message_text(game_message(g, i), text, sizeof text);
		if (!ui_wrap(u, &n, text, width, true))
			break;
	}
	/* The quit question, too long for a row of a narrow terminal, takes
	 * the rows it needs, word-wrapped, so its (y/n) shows: the messages
	 * can wait while it is asked.  A warning on the map (a failed
	 * snapshot, a full save, saving failed: news the player must read,
	 * ui_warn) is wrapped and paged as messages are: when it needs
	 * more rows than there are, or takes them all while fresh messages
	 * wait, its page ends with --More-- and the next key shows the rest,
	 * then the messages.  Elsewhere a warning takes the rows there are;
	 * any other notice (the cursor's line, a description's) and the end
	 * line keep to their row, the fresh messages need theirs.  What is
	 * still too long ends with "..." (a warning is in the history, P,
	 * whole). */
	char prompt_rows[UI_MESSAGE_ROWS][GAME_MESSAGE_LEN * 2];
	int np = 0;
	bool notice_more = false;
	if (prompt && prompt == u->notice && u->notice_paged && u->screen == SCREEN_MAP && !u->viewer) {
		size_t len = strlen(prompt), at = 0;
		int total = 0;
		while (at < len) {
			size_t take = ui_line_take(prompt, at, len, width);
			if (total >= u->notice_seen && np < UI_MESSAGE_ROWS) {
				snprintf(prompt_rows[np], sizeof prompt_rows[np], "%.*s", (int)take, prompt + at);
				np++;
			}
			total++;
			at += take;
			while (prompt[at] == ' ')
				at++;
		}
		u->notice_rows = total;
		notice_more = u->notice_seen + np < total || (np == UI_MESSAGE_ROWS && n - u->more_seen > 0);
		rows -= np;
	} else if (prompt) {
		const int most = u->screen == SCREEN_QUIT || (prompt == u->notice && u->notice_paged) ? UI_MESSAGE_ROWS : 1;
		size_t len = strlen(prompt), at = 0;
		while (at < len && np < most) {
			/* the last row it gets takes the rest, to be cut with "..." */
			size_t take = np + 1 < most ? ui_line_take(prompt, at, len, COLS) : len - at;
			snprintf(prompt_rows[np], sizeof prompt_rows[np], "%.*s", (int)take, prompt + at);
			at += take;
			while (prompt[at] == ' ')
				at++;
			np++;
		}
		if (np > 0)
			ui_ellipsize(prompt_rows[np - 1], COLS);
		rows -= np;
	}
	int first, shown;
	u->more = notice_more;
	u->notice_more = notice_more;
	if (n - u->more_seen > rows && rows > 0) {
		first = u->more_seen;
		shown = rows;
		u->more = true;
	} else {
		first = n - rows;
		shown = rows;
	}
	/* older messages above, when the fresh ones leave rows free: of
	 * this level only, and not one about where the player stood that
	 * no longer holds (stairs left behind) */
	int row = 0;
	if (first < 0) {
		int need = -first, m = 0;
		int older[UI_MESSAGE_ROWS];
		const bool on_stairs = g->tiles[grid_index(g->grid, g->player.x, g->player.y)] == TILE_EXIT;
		for (int i = fresh; m < need && game_message(g, i) && game_message(g, i)->stamp > u->level_mark; i++)
			if (on_stairs || strncmp(game_message(g, i)->text, UI_STAIRS_HERE, strlen(UI_STAIRS_HERE)) != 0)
				older[m++] = i;
		for (int k = m - 1; k >= 0 && row < rows; k--) {
			ui_message_text(game_message(g, older[k]), text, sizeof text);
			/* an old message too long for the row shows its start, cut
			 * at a word, with "..." (P shows it whole) */
			ui_ellipsize(text, COLS);
			ui_draw_line(row++, text, ui_attr(u, UI_COL_DIM));
		}
		for (; row < need; row++) {
			move(row, 0);
			clrtoeol();
		}
		shown = rows - need;
		first = 0;
	}
	for (int k = 0; k < shown && row < rows; k++, row++) {
		int li = first + k;
		if (li >= n) {
			move(row, 0);
			clrtoeol();
			continue;
		}
		ui_draw_line(row, u->lines[li], A_BOLD);
		if (u->more && k == shown - 1) {
			attr_t warn = A_REVERSE;
			attron(warn);
			addstr(UI_MORE);
			attroff(warn);
		}
	}
	for (int k = 0; k < np; k++)
		ui_draw_line(rows + k, prompt_rows[k], prompt_attr);
	if (notice_more) {
		attron(A_REVERSE);
		addstr(UI_MORE);
		attroff(A_REVERSE);
	}
}

static void ui_draw_status(struct ui *u)
{
	const struct game *g = u->g;
	const struct level *lv = game_level(g);
	char left[256], right[96], pack[32] = "";
	int carried = 0;
	for (int s = 0; s < PACK_SLOTS; s++)
		carried += g->pack[s].kind >= 0;
	if (carried > 0)
		snprintf(pack, sizeof pack, "  Pack %d/%d", carried, PACK_SLOTS);
	/* monsters in view that know of the player (game_noticed_by) */
	char aware[32] = "";
	int noticed = g->over ? 0 : game_noticed_by(g);
	if (noticed > 0)
		snprintf(aware, sizeof aware, "  noticed by %d", noticed);
	/* the experience level and the way to the next as a bar of ten (full at the top level) */
	long from = game_xp_for_level(g, g->player.xlevel), to = game_xp_for_level(g, g->player.xlevel + 1);
	int pct = g->player.xlevel >= g->bestiary.rules.level_max || to <= from ? 100
		  : (int)(100 * (g->player.xp - from) / (to - from));
	pct = pct < 0 ? 0 : pct > 100 ? 100 : pct;
	int tenths = pct / 10;
	char xpbar[16];
	for (int i = 0; i < 10; i++)
		xpbar[i] = i < tenths ? '=' : '-';
	xpbar[10] = '\0';
	const char *mode = "";
	static const char *const modes[] = {
		[MODE_TRAVEL] = "TRAVEL: any key stops  ", [MODE_REST] = "RESTING: any key stops  ",
		[MODE_EXPLORE] = "EXPLORING: any key stops  ", [MODE_RUN] = "RUNNING: any key stops  ",
	};
	if (u->screen == SCREEN_CURSOR)
		mode = !u->targeting ? "CURSOR: Enter=go Esc=back  "
		       : u->throw_slot >= 0 ? "THROW: Enter=throw Tab=next Esc=back  "
		       : "FIRE: Enter=fire Tab=next Esc=back  ";
	else if (u->screen == SCREEN_DIR)
		mode = "WHICH WAY? Esc=back  ";
	else if (g->travel.active && u->screen == SCREEN_MAP && !g->over && !u->viewer)
		mode = modes[g->travel.mode];
	/* a broken save is said before all of them, on every width */
	const char *warning = ui_warning(u);
	char standing[40] = "";
	if (warning)
		snprintf(standing, sizeof standing, "%s  ", warning);
	snprintf(left, sizeof left, " HP %d/%d  XL %d [%s]  %s (%d/%d)  Turn %d  Gold %d%s%s", g->player.hp,
		 g->player.max_hp, g->player.xlevel, xpbar, lv && lv->name ? lv->name : "?", g->depth + 1, g->n_levels,
		 g->turn, g->player.gold, pack, aware);
	if ((int)strlen(left) + 8 >= COLS) /* the bar gives way first: the level as a percentage */
		snprintf(left, sizeof left, " HP %d/%d  XL%d:%d%%  %s (%d/%d)  Turn %d  Gold %d%s%s", g->player.hp,
			 g->player.max_hp, g->player.xlevel, pct, lv && lv->name ? lv->name : "?", g->depth + 1,
			 g->n_levels, g->turn, g->player.gold, pack, aware);
	if ((int)strlen(left) + 8 >= COLS) {
		/* a narrow screen: every figure, short, rather than gold cut off */
		if (carried > 0)
			snprintf(pack, sizeof pack, "  p%d", carried);
		if (noticed > 0)
			snprintf(aware, sizeof aware, "  seen:%d", noticed);
		snprintf(left, sizeof left, " HP %d/%d  XL%d:%d%%  L%d/%d  Turn %d  $%d%s%s", g->player.hp,
			 g->player.max_hp, g->player.xlevel, pct, g->depth + 1, g->n_levels, g->turn,
			 g->player.gold, pack, aware);
		if ((int)strlen(left) + 8 >= COLS) /* narrower still: the level without its percentage */
			snprintf(left, sizeof left, " HP %d/%d  XL%d  L%d/%d  Turn %d  $%d%s%s", g->player.hp,
				 g->player.max_hp, g->player.xlevel, g->depth + 1, g->n_levels, g->turn, g->player.gold,
				 pack, aware);
	}
	/* the mode matters most, then the routes flag, then the help hint (a
	 * replay viewer has its own keys, on its own bar) */
	int ll = (int)strlen(left);
	snprintf(right, sizeof right, "%s%s%s%s", standing, mode, u->routes ? "[routes] " : "", u->viewer ? "" : "? help ");
	if (ll + (int)strlen(right) >= COLS)
		snprintf(right, sizeof right, "%s%s%s", standing, mode, u->routes ? "[routes] " : "");
	if (ll + (int)strlen(right) >= COLS)
		snprintf(right, sizeof right, "%s%s", standing, mode);
	int row = LINES - 1;
	attr_t bar = ui_attr(u, UI_COL_STATUS);
	attron(bar);
	move(row, 0);
	for (int c = 0; c < COLS; c++)
		addch(' ');
	int rl = (int)strlen(right);
	u->help_col0 = u->help_col1 = -1;
	const char *hint = strstr(right, "? help");
	if (hint && rl < COLS) {
		u->help_col0 = COLS - rl + (int)(hint - right);
		u->help_col1 = u->help_col0 + 5;
	}
	if (rl > 0 && rl < COLS) {
		/* on a narrow screen the mode wins over the right end of the figures,
		 * which end at a whole figure ("Pack 3/16", not "Pack 3/16  no") */
		int cut = ll + rl < COLS ? COLS : COLS - rl - 1;
		if (cut < ll) {
			const char *gap = NULL;
			for (const char *q = strstr(left, "  "); q && q - left <= cut; q = strstr(q + 2, "  "))
				gap = q;
			if (gap && gap > left)
				cut = (int)(gap - left);
		}
		mvaddnstr(row, 0, left, cut);
		mvaddstr(row, COLS - rl, right);
	} else {
		mvaddnstr(row, 0, left, COLS);
	}
	attroff(bar);
	if (standing[0] && rl > 0 && rl < COLS) {
		attr_t w = ui_attr(u, UI_COL_WARN) | A_BOLD | A_REVERSE;
		attron(w);
		mvaddnstr(row, COLS - rl, standing, (int)strlen(standing) - 2);
		attroff(w);
	}
	if (g->player.hp * 3 <= g->player.max_hp) {
		/* low hit points stand out */
		char hp[32];
		snprintf(hp, sizeof hp, " HP %d/%d", g->player.hp, g->player.max_hp);
		attr_t warn = ui_attr(u, UI_COL_WARN);
		attron(warn);
		mvaddnstr(row, 0, hp, COLS);
		attroff(warn);
	}
}

/*
 * The help.  The move keys differ by grid, so the help shows only the
 * lines of the map being played (help_grids: a mask of (1 << topology),
 * 0 for every grid); the title line names the grid.
 */
#define HELP_SQUARE8 (1u << GRID_SQUARE8)
#define HELP_SQUARE4 (1u << GRID_SQUARE4)
#define HELP_HEX (1u << GRID_HEX)
#define HELP_DIAMOND4 (1u << GRID_DIAMOND4)
#define HELP_DIAMOND8 (1u << GRID_DIAMOND8)
static const struct {
	unsigned grids;          /* the grids the line is for (0: all) */
	const char *text;
} help_lines[] = {
	{ HELP_SQUARE8, "astray - keys" },
	{ HELP_SQUARE4, "astray - keys (this level is a square4 map)" },
	{ HELP_HEX, "astray - keys (this level is a hex map)" },
	{ HELP_DIAMOND4, "astray - keys (this level is a diamond4 map)" },
	{ HELP_DIAMOND8, "astray - keys (this level is a diamond8 map)" },
	{ 0, "" },
	{ HELP_SQUARE8, "  move        h j k l y u b n   arrows   numpad 1-9 (numlock on or off)" },
	{ HELP_SQUARE4, "  move        h j k l   arrows   numpad 4 6 8 2 (numlock on or off);" },
	{ HELP_SQUARE4, "              a square4 map: no diagonal steps" },
	{ HELP_HEX, "  move        y u up, h l sideways, b n down; numpad 7 9 4 6 1 3" },
	{ HELP_HEX, "              (numlock on or off); k j 8 2 and the arrows go up and down" },
	{ HELP_HEX, "              by the two upper (lower) cells in turn, keeping the column;" },
	{ HELP_HEX, "              past a wall by the other one" },
	{ HELP_DIAMOND4 | HELP_DIAMOND8, "  move        y u b n   numpad 7 9 1 3   the edge steps, diagonal on screen" },
	{ HELP_DIAMOND4, "              (numlock on or off); a diamond4 map: no other steps;" },
	{ HELP_DIAMOND4, "              the arrows turn to them: up u, right n, down b, left y" },
	{ HELP_DIAMOND8, "              h l k j   numpad 4 6 8 2   arrows   the corner steps, straight" },
	{ HELP_DIAMOND8, "              across or up and down two rows; a diamond8 map" },
	{ 0, "  run         the move keys shifted (H J K L Y U B N): straight on; stops" },
	{ 0, "              at junctions, doors, items, stairs and for monsters" },
	{ 0, "  explore     o   walk to the nearest unexplored place, a step a turn;" },
	{ 0, "              not with a monster in view (one fleeing from you is let be)" },
	{ 0, "  wait        .  s  5 (numpad 5), or click on yourself" },
	{ 0, "  rest        R   until healed or disturbed (1 hp every 10 turns); stops" },
	{ 0, "              for a monster in view, a blow, a noise heard" },
	{ 0, "  pack        i   what you carry (letters a-p); a letter or a click uses it," },
	{ 0, "              a capital letter says what it does" },
	{ 0, "  quaff       q   drink a potion" },
	{ 0, "  read        a   read a scroll or apply a tool (caltrops); r is routes" },
	{ 0, "  zap         z   zap a wand, then a direction or a click that way" },
	{ 0, "  wield/wear  w  W   a weapon, armour (- takes it off)" },
	{ 0, "  fire        f   fire the wielded sling or bow: the cursor starts on the" },
	{ 0, "              nearest monster, Tab the next, Enter or a click fires; with" },
	{ 0, "              no launcher in hand, f throws a stone or arrow by hand" },
	{ 0, "  throw       t   throw a stone or arrow by hand: which, then the same" },
	{ 0, "              cursor (a thrown stone flies 5 steps); Enter throws" },
	{ 0, "  pick up     , or g   (walking onto an item picks it up too)" },
	{ 0, "  drop        d" },
	{ 0, "  close       c   then a direction (or a click on it): close an open door" },
	{ 0, "  stairs      >   on the stairs (stepping on them does not descend);" },
	{ 0, "              a click on the stairs you stand on too; elsewhere > travels" },
	{ 0, "              to the nearest stairs seen (> in the cursor goes there)" },
	{ 0, "  travel      left click anywhere: walk there one step per turn, the route" },
	{ 0, "              shown as *; it plans over what you have seen (unseen places" },
	{ 0, "              count as open) and replans as you see more.  A wall or an" },
	{ 0, "              unreachable place walks as close as it can.  Any key stops." },
	{ 0, "              The pointer resting on a cell shows the route first." },
	{ 0, "              _ or x: a cursor; move it (its route shows, with the steps)," },
	{ 0, "              Enter travels there, v describes, Esc cancels" },
	{ 0, "              (shifted keys move the cursor 8 cells)" },
	{ 0, "  describe    right click on a cell, or v (;) in the cursor: a monster's" },
	{ 0, "              health, blow, speed, odds and mind; terrain's cost; an item" },
	{ 0, "  routes      r   show each visible monster's route (:) and target (reversed)" },
	{ 0, "  history     P or Ctrl-P   the message history" },
	{ 0, "  --More--    any key shows the next messages (Esc: all of them)" },
	{ 0, "  redraw      Ctrl-L" },
	{ 0, "  help        ? or F1" },
	{ 0, "  options     O   animation speed (or instant), colours, mouse; kept" },
	{ 0, "              for the next games" },
	{ 0, "  quit        Q or Ctrl-Q (asks first)" },
	{ 0, "" },
	{ 0, "  Walk into (or click on) a monster next to you to attack it, into a" },
	{ 0, "  door to open it.  Alt with a key is the key.  Blows may miss; kills" },
	{ 0, "  give experience (XL and its bar on the status line).  Time costs:" },
	{ 0, "  wandering monsters come, more the longer you stay; hurt monsters heal." },
	{ 0, "  ! potion  ? scroll  / wand  ) weapon  [ armour  ( ammunition  } tool" },
	{ 0, "  $ gold (your score)  ^ caltrops  > leads down.  Potions, scrolls and" },
	{ 0, "  wands look alike until you use one: a gamble, new each game." },
	{ 0, "" },
	{ 0, "  Costs: a step costs what its cell costs to enter (floor . 1, rubble , 2," },
	{ 0, "  water ~ 3, caltrops ^ more; walls none) times its length.  Travel," },
	{ 0, "  explore and every monster take the cheapest way they know: v in the" },
	{ 0, "  cursor or a right click tells what a cell costs and a monster does." },
	{ HELP_SQUARE8, "  square8: straight steps cost 1, diagonal steps 1.4.  The corner rule: a diagonal step "
			"needs both cells beside it open (from @ to x below, the first is blocked, the second is not)." },
	{ HELP_SQUARE8, "      y k u     #x    .x" },
	{ HELP_SQUARE8, "      h @ l     @#    @." },
	{ HELP_SQUARE8, "      b j n" },
	{ HELP_SQUARE4, "  square4: four steps, each costing 1; no diagonals, so no corners to cut." },
	{ HELP_SQUARE4, "        k" },
	{ HELP_SQUARE4, "      h @ l" },
	{ HELP_SQUARE4, "        j" },
	{ HELP_HEX, "  hex: six steps, each costing 1, every way alike; no corners to cut." },
	{ HELP_HEX, "       y   u" },
	{ HELP_HEX, "     h   @   l" },
	{ HELP_HEX, "       b   n" },
	{ HELP_DIAMOND4, "  diamond4: four edge steps, each costing 1, diagonal on screen; no corner steps, so no "
			 "corners to cut." },
	{ HELP_DIAMOND4, "       y   u" },
	{ HELP_DIAMOND4, "         @" },
	{ HELP_DIAMOND4, "       b   n" },
	{ HELP_DIAMOND8, "  diamond8: y u b n the edge steps, each costing 1; h l k j the corner steps, 1.4, straight "
			 "across or two rows up or down.  The corner rule: a corner step needs both diamonds beside "
			 "that corner open." },
	{ HELP_DIAMOND8, "         k" },
	{ HELP_DIAMOND8, "       y   u" },
	{ HELP_DIAMOND8, "     h   @   l" },
	{ HELP_DIAMOND8, "       b   n" },
	{ HELP_DIAMOND8, "         j" },
};

#define HELP_LINES ((int)(sizeof help_lines / sizeof help_lines[0]))
#define HELP_KEY_COL 14   /* where the descriptions start in help_lines */
#define HELP_WRAPPED 256  /* screen lines of the help at the narrowest width */

/*
 * The help as screen lines of at most width columns: a line too long is
 * wrapped at spaces, its continuation indented under the descriptions
 * (or by 2 when the screen is too narrow for that).  Each entry of out
 * is a start within help_lines[line[k]] and a length; returns the count.
 * Only the lines for the grid topo are shown.
 */
struct help_piece {
	int line;
	int from, len, indent;
};
static int ui_help_wrap(enum grid_topology topo, int width, struct help_piece *out, int max)
{
	int n = 0;
	for (int i = 0; i < HELP_LINES && n < max; i++) {
		if (help_lines[i].grids && !(help_lines[i].grids & (1u << topo)))
			continue;
		const char *t = help_lines[i].text;
		int len = (int)strlen(t), at = 0, pad = 0;
		/* a key line ("  move        ...") continues under its
		 * description; a plain paragraph under its own first word */
		bool key_line = len > HELP_KEY_COL && t[HELP_KEY_COL - 1] == ' ' && t[HELP_KEY_COL - 2] == ' ';
		int indent = (int)strspn(t, " ");
		if (key_line && width >= HELP_KEY_COL + 16)
			indent = HELP_KEY_COL;
		else if (indent > 2)
			indent = 2;
		do {
			int room = width - pad, take = len - at;
			if (take > room) {
				take = room;
				while (take > room / 2 && t[at + take] != ' ')
					take--;
				if (t[at + take] != ' ')
					take = room;
			}
			out[n++] = (struct help_piece){ .line = i, .from = at, .len = take, .indent = pad };
			at += take;
			while (at < len && t[at] == ' ')
				at++;
			pad = indent;
		} while (at < len && n < max);
	}
	return n;
}

int ui_help_count(const struct ui *u)
{
	struct help_piece p[HELP_WRAPPED];
	return ui_help_wrap(u->g->grid->topo, COLS, p, HELP_WRAPPED);
}

/* The help, wrapped to the screen and scrolled to u->help_top; the last
 * row says how to scroll. */
static void ui_draw_help(const struct ui *u)
{
	int rows = LINES - 1;
	struct help_piece p[HELP_WRAPPED];
	int n = ui_help_wrap(u->g->grid->topo, COLS, p, HELP_WRAPPED);
	for (int i = 0; i < rows && u->help_top + i < n; i++) {
		const struct help_piece *h = &p[u->help_top + i];
		mvprintw(i, 0, "%*s%.*s", h->indent, "", h->len, help_lines[h->line].text + h->from);
	}
	const char *hint = n > rows ? (COLS >= 50 ? "j/k arrows PgUp/PgDn scroll; any other key returns"
						  : "j/k scroll; other keys return")
				    : "Press any key to return.";
	ui_draw_line(LINES - 1, hint, A_BOLD);
}

/* The history screen's text: "TURN  message", wrapped at the screen's
 * width with the continuation lines under the message. */
#define UI_HISTORY_INDENT 7
#define UI_HISTORY_MAX_LINES (GAME_MESSAGE_LEN + 16)

/* Splits text into lines of at most width columns at spaces (a word
 * longer than width is cut); start[k], len[k] for each; returns how many. */
static int ui_history_split(const char *text, int width, int start[], int len[])
{
	int n = ui_screen_wrap(text, width < 8 ? 8 : width, start, len, UI_HISTORY_MAX_LINES);
	if (n == 0) { /* an empty message still takes its row */
		start[0] = len[0] = 0;
		n = 1;
	}
	return n;
}

/* Entry k of the history, newest first: the game's messages with the
 * UI's notes among them (a note after the messages up to its stamp);
 * false past the end. */
static bool ui_history_entry(const struct ui *u, int k, int *turn, char *text, size_t size)
{
	const struct game *g = u->g;
	int total = g->n_messages < GAME_MESSAGES ? g->n_messages : GAME_MESSAGES;
	int mi = 0, ni = u->n_notes - 1;
	for (;;) {
		const struct message *m = mi < total ? game_message(g, mi) : NULL;
		bool note = ni >= 0 && (!m || u->notes[ni].stamp >= m->stamp);
		if (!note && !m)
			return false;
		if (k-- == 0) {
			if (note) {
				*turn = u->notes[ni].turn;
				snprintf(text, size, "%s", u->notes[ni].text);
			} else {
				*turn = m->turn;
				ui_message_text(m, text, size);
			}
			return true;
		}
		if (note)
			ni--;
		else
			mi++;
	}
}

/* Lines the history takes at this screen width (the scroll limit). */
int ui_history_lines(const struct ui *u)
{
	int lines = 0, turn;
	int start[UI_HISTORY_MAX_LINES], len[UI_HISTORY_MAX_LINES];
	char text[GAME_MESSAGE_LEN * 2 + 16];
	for (int i = 0; ui_history_entry(u, i, &turn, text, sizeof text); i++)
		lines += ui_history_split(text, COLS - UI_HISTORY_INDENT, start, len);
	return lines;
}

/* The newest line at the bottom; history_back counts lines scrolled back. */
static void ui_draw_history(const struct ui *u)
{
	ui_draw_line(0, "Message history: arrows/PgUp/PgDn scroll, any other key returns", A_BOLD);
	int row = LINES - 1, skip = u->history_back, turn;
	int start[UI_HISTORY_MAX_LINES], len[UI_HISTORY_MAX_LINES];
	char text[GAME_MESSAGE_LEN * 2 + 16];
	for (int i = 0; row >= 1 && ui_history_entry(u, i, &turn, text, sizeof text); i++) {
		int n = ui_history_split(text, COLS - UI_HISTORY_INDENT, start, len);
		for (int k = n - 1; k >= 0 && row >= 1; k--) {
			if (skip > 0) {
				skip--;
				continue;
			}
			char line[GAME_MESSAGE_LEN * 2 + 32];
			if (k == 0)
				snprintf(line, sizeof line, "%5d  %.*s", turn, len[k], text + start[k]);
			else
				snprintf(line, sizeof line, "%*s%.*s", UI_HISTORY_INDENT, "", len[k], text + start[k]);
			mvaddnstr(row--, 0, line, COLS);
		}
	}
}

/* One frame, from the state, in one place. */
void ui_draw(struct ui *u)
{
	erase();
	if (ui_screen_too_small()) {
		ui_screen_draw_too_small("Q quits");
	} else if (u->screen == SCREEN_HELP) {
		ui_draw_help(u);
	} else if (u->screen == SCREEN_HISTORY) {
		ui_draw_history(u);
	} else if (u->screen == SCREEN_OPTIONS) {
		ui_options_draw(&u->shown, u->opt_sel, u->opt_note);
	} else {
		ui_layout(u);
		ui_draw_map(u);
		ui_draw_side(u);
		ui_draw_messages(u);
		ui_draw_status(u);
		if (u->screen == SCREEN_PACK)
			ui_draw_pack(u);
		if (u->screen == SCREEN_DESCRIBE) {
			int col, row;
			if (!input_cell_to_screen(&u->view, u->g->grid, u->desc_x, u->desc_y, &col, &row))
				row = 0;
			ui_draw_describe(u, row);
		}
	}
	wnoutrefresh(stdscr);
	doupdate();
}

/* ---- drawing for other screens (the replay viewer) --------------------- */

void ui_draw_game(struct game *g, bool routes, unsigned msg_mark, const char *notice)
{
	struct ui *u = malloc(sizeof *u);
	if (!u)
		return;
	struct ui_options opt = { .mouse = false, .step_delay_ms = 0 };
	ui_init(u, g, &opt);
	u->colour = ui_palette_init();
	u->routes = routes;
	u->msg_mark = msg_mark;
	u->more_seen = UI_MSG_LINES; /* no --More--: the newest lines show */
	u->viewer = true;
	if (notice)
		snprintf(u->notice, sizeof u->notice, "%s", notice);
	ui_draw(u);
	free(u->preview);
	free(u);
}
