/*
 * ui_curses.c - the terminal front end and the only file that includes
 * curses.  It draws every frame from the game state in one place
 * (ui_draw), turns keys and mouse events into game actions through the
 * curses-free tables of input.c, animates travel one step per turn with a
 * short pause in which any key stops it, and always gives the terminal
 * back (endwin) on quit, death, victory, a signal or a closed terminal.
 * It reads the game through its public struct and changes it only through
 * game_act and game_travel_cancel; rules live in game.c.  The key-press
 * benchmark that drives the same screen is ui_bench.c's.
 */
#include "ui.h"
#include "ui_curses_internal.h"

#include <curses.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "game.h"
#include "input.h"
#include "level.h"
#include "ui_palette.h"
#include "ui_screen.h"

#define UI_IDLE_TIMEOUT_MS 200 /* how often an idle loop looks at the signal flag */
#define UI_MORE " --More--"   /* ends a page of messages when more follow */

static attr_t ui_attr(const struct ui *u, enum ui_colour c)
{
	return ui_palette_attr(u->colour, c);
}

static void ui_notice(struct ui *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ui_notice(struct ui *u, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(u->notice, sizeof u->notice, fmt, ap);
	va_end(ap);
}

/* Lays out the map area for the current terminal size and scrolls the
 * view to keep the player (or the travel cursor) in sight. */
static void ui_layout(struct ui *u)
{
	const struct game *g = u->g;
	u->view.top = UI_MESSAGE_ROWS;
	u->view.left = 0;
	u->view.width = COLS;
	u->view.height = LINES - UI_MESSAGE_ROWS - UI_STATUS_ROWS;
	if (u->screen == SCREEN_CURSOR)
		input_view_update(&u->view, g->grid, u->cursor_x, u->cursor_y);
	else
		input_view_update(&u->view, g->grid, g->player.x, g->player.y);
}

/* ---- drawing ---------------------------------------------------------- */

static const enum ui_colour tile_colour[TILE_COUNT] = {
	[TILE_VOID] = UI_COL_NONE, [TILE_WALL] = UI_COL_WALL, [TILE_FLOOR] = UI_COL_FLOOR,
	[TILE_RUBBLE] = UI_COL_RUBBLE, [TILE_WATER] = UI_COL_WATER, [TILE_DOOR] = UI_COL_DOOR,
	[TILE_EXIT] = UI_COL_EXIT,
};

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
			char c = m->kind->glyph;
			*out = (chtype)(unsigned char)c |
			       ui_attr(u, c >= 'A' && c <= 'Z' ? UI_COL_BOSS : UI_COL_MONSTER);
			return true;
		}
	}
	chtype ch;
	enum ui_colour col;
	if (g->items[i]) {
		bool gold = g->items[i] - 1 == ITEM_GOLD;
		ch = gold ? '$' : '!';
		col = gold ? UI_COL_GOLD : UI_COL_POTION;
	} else {
		enum tile t = (enum tile)g->tiles[i];
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

/* A route cell keeps what stands on it; bare ground shows the route mark. */
static void ui_draw_route_cell(const struct ui *u, int cell, chtype mark, enum ui_colour col)
{
	const struct game *g = u->g;
	int x = cell % g->grid->w, y = cell / g->grid->w;
	if (x == g->player.x && y == g->player.y)
		return;
	if (g->visible[cell] && g->occupant[cell] >= 0)
		return;
	if (g->items[cell] && (g->visible[cell] || g->remembered[cell]))
		return;
	enum tile t = (enum tile)g->tiles[cell];
	chtype ch = t == TILE_FLOOR || (!g->visible[cell] && !g->remembered[cell])
			    ? mark
			    : (chtype)(unsigned char)tile_info(t < TILE_COUNT ? t : TILE_VOID)->glyph;
	ui_draw_at_cell(u, x, y, ch | ui_attr(u, col));
}

static void ui_draw_routes(const struct ui *u)
{
	const struct game *g = u->g;
	int n = g->grid->w * g->grid->h;
	if (u->routes) {
		for (int k = 0; k < g->n_monsters; k++) {
			const struct monster *m = &g->monsters[k];
			if (!m->alive || !g->visible[m->y * g->grid->w + m->x])
				continue;
			/* the route as it is after the monster's last move: from its
			 * cell on (a step that did not happen, a door opened or a
			 * blocked step, leaves route_pos one ahead); a route its
			 * cell is not on is replanned on its next turn: none drawn */
			const struct mind *mind = &m->mind;
			int here = m->y * g->grid->w + m->x, from = -1;
			for (int j = mind->route_pos; mind->route && j >= 0 && j >= mind->route_pos - 1 && from < 0; j--)
				if (j < mind->route_len && mind->route[j] == here)
					from = j;
			for (int j = from + 1; from >= 0 && j < mind->route_len; j++)
				if (mind->route[j] >= 0 && mind->route[j] < n)
					ui_draw_route_cell(u, mind->route[j], ':', UI_COL_MROUTE);
		}
		for (int k = 0; k < g->n_monsters; k++) {
			const struct monster *m = &g->monsters[k];
			if (!m->alive || !m->mind.hunting || !g->visible[m->y * g->grid->w + m->x])
				continue;
			int tx = m->mind.target_x, ty = m->mind.target_y;
			if (!grid_in_bounds(g->grid, tx, ty))
				continue;
			chtype under;
			if (!ui_cell_look(u, tx, ty, &under))
				under = 'X';
			ui_draw_at_cell(u, tx, ty, (under & A_CHARTEXT) | ui_attr(u, UI_COL_TARGET));
		}
	}
	const struct travel *t = &g->travel;
	if (t->active && t->cells)
		for (int j = t->pos + 1; j < t->len; j++)
			if (t->cells[j] >= 0 && t->cells[j] < n)
				ui_draw_route_cell(u, t->cells[j], '*', UI_COL_ROUTE);
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
	if (u->screen == SCREEN_CURSOR) {
		const int n = gr->w * gr->h;
		for (int j = 1; j < u->preview_len; j++)
			if (u->preview[j] >= 0 && u->preview[j] < n)
				ui_draw_route_cell(u, u->preview[j], '*', UI_COL_ROUTE);
		int col, row;
		if (input_cell_to_screen(&u->view, gr, u->cursor_x, u->cursor_y, &col, &row)) {
			chtype ch;
			if (!ui_cell_look(u, u->cursor_x, u->cursor_y, &ch))
				ch = ' ';
			mvaddch(row, col, (ch & A_CHARTEXT) | A_REVERSE);
		}
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
	/* The quit question, too long for a row of a narrow terminal, takes
	 * the rows it needs, word-wrapped, so its (y/n) shows: the messages
	 * can wait while it is asked.  Anything else keeps to its row (the
	 * fresh messages need theirs) and ends with "..." when cut. */
	char prompt_rows[UI_MESSAGE_ROWS][GAME_MESSAGE_LEN * 2];
	int np = 0;
	if (prompt) {
		const int most = u->screen == SCREEN_QUIT ? UI_MESSAGE_ROWS : 1;
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
	int width = COLS - (int)strlen(UI_MORE);
	/* fresh messages, oldest first */
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
	int first, shown;
	u->more = false;
	if (n - u->more_seen > rows && rows > 0) {
		first = u->more_seen;
		shown = rows;
		u->more = true;
	} else {
		first = n - rows;
		shown = rows;
	}
	/* older messages above, when the fresh ones leave rows free */
	int row = 0;
	if (first < 0) {
		int need = -first, m = 0;
		int older[UI_MESSAGE_ROWS];
		for (int i = fresh; m < need && game_message(g, i); i++)
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

/* A key while --More-- is shown: the next page (Escape: past them all). */
static void ui_more_key(struct ui *u, int key)
{
	u->more_seen += key == INPUT_ESC ? UI_MSG_LINES : UI_MESSAGE_ROWS - (u->notice[0] ? 1 : 0);
	u->more = false;
}

static void ui_draw_status(struct ui *u)
{
	const struct game *g = u->g;
	const struct level *lv = game_level(g);
	char left[256], right[96], pack[32] = "";
	if (g->player.potions > 0)
		snprintf(pack, sizeof pack, "  Potions %d", g->player.potions);
	snprintf(left, sizeof left, " HP %d/%d  %s (%d/%d)  Turn %d  Gold %d%s", g->player.hp,
		 g->player.max_hp, lv && lv->name ? lv->name : "?", g->depth + 1, g->n_levels,
		 g->turn, g->player.gold, pack);
	if ((int)strlen(left) + 8 >= COLS) {
		/* a narrow screen: every figure, short, rather than gold cut off */
		if (g->player.potions > 0)
			snprintf(pack, sizeof pack, "  !%d", g->player.potions);
		snprintf(left, sizeof left, " HP %d/%d  L%d/%d  Turn %d  $%d%s", g->player.hp, g->player.max_hp,
			 g->depth + 1, g->n_levels, g->turn, g->player.gold, pack);
	}
	const char *mode = "";
	static const char *const modes[] = {
		[MODE_TRAVEL] = "TRAVEL: any key stops  ", [MODE_REST] = "RESTING: any key stops  ",
		[MODE_EXPLORE] = "EXPLORING: any key stops  ", [MODE_RUN] = "RUNNING: any key stops  ",
	};
	if (u->screen == SCREEN_CURSOR)
		mode = "CURSOR: Enter=go Esc=back  ";
	else if (g->travel.active && u->screen == SCREEN_MAP && !g->over && !u->viewer)
		mode = modes[g->travel.mode];
	/* the mode matters most, then the routes flag, then the help hint (a
	 * replay viewer has its own keys, on its own bar) */
	int ll = (int)strlen(left);
	/* a broken save is said before all of them, on every width */
	const char *warning = ui_warning(u);
	char standing[40] = "";
	if (warning)
		snprintf(standing, sizeof standing, "%s  ", warning);
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
		/* on a narrow screen the mode wins over the right end of the figures */
		mvaddnstr(row, 0, left, ll + rl < COLS ? COLS : COLS - rl - 1);
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
	{ HELP_HEX, "              (numlock on or off); a hex map: no straight up or down" },
	{ HELP_DIAMOND4 | HELP_DIAMOND8, "  move        y u b n   numpad 7 9 1 3   the edge steps, diagonal on screen" },
	{ HELP_DIAMOND4, "              (numlock on or off); a diamond4 map: no other steps" },
	{ HELP_DIAMOND8, "              h l k j   numpad 4 6 8 2   arrows   the corner steps, straight" },
	{ HELP_DIAMOND8, "              across or up and down two rows; a diamond8 map" },
	{ 0, "  run         the move keys shifted (H J K L Y U B N): straight on; stops" },
	{ 0, "              at junctions, doors, items, stairs and for monsters" },
	{ 0, "  explore     o   walk to the nearest unexplored place, a step a turn;" },
	{ 0, "              not with a monster in view" },
	{ 0, "  wait        .  s  numpad 5, or click on yourself" },
	{ 0, "  rest        5  R   until healed or disturbed (1 hp every 10 turns)" },
	{ 0, "  quaff       q   drink a healing potion from your pack" },
	{ 0, "  pack        i   what you carry" },
	{ 0, "  stairs      >   on the stairs (stepping on them does not descend);" },
	{ 0, "              a click on the stairs you stand on too" },
	{ 0, "  travel      left click anywhere: walk there one step per turn, the route" },
	{ 0, "              shown as *; it plans over what you have seen (unseen places" },
	{ 0, "              count as open) and replans as you see more.  A wall or an" },
	{ 0, "              unreachable place walks as close as it can.  Any key stops." },
	{ 0, "              _ or x: a cursor; move it (its route shows, with the steps)," },
	{ 0, "              Enter travels there, Esc cancels" },
	{ 0, "              (shifted keys move the cursor 8 cells)" },
	{ 0, "  describe    right click on a cell" },
	{ 0, "  routes      r   show each visible monster's route (:) and target (reversed)" },
	{ 0, "  history     P or Ctrl-P   the message history" },
	{ 0, "  --More--    any key shows the next messages (Esc: all of them)" },
	{ 0, "  redraw      Ctrl-L" },
	{ 0, "  help        ? or F1" },
	{ 0, "  quit        Q or Ctrl-Q (asks first)" },
	{ 0, "" },
	{ 0, "  Walk into a monster to attack it, into a door to open it." },
	{ 0, "  ! heals (into the pack), $ is gold (your score), > leads down." },
};

#define HELP_LINES ((int)(sizeof help_lines / sizeof help_lines[0]))
#define HELP_KEY_COL 14   /* where the descriptions start in help_lines */
#define HELP_WRAPPED 160  /* screen lines of the help at the narrowest width */

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

static int ui_help_count(const struct ui *u)
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
	int n = 0, total = (int)strlen(text), at = 0;
	if (width < 8)
		width = 8;
	do {
		int take = total - at;
		if (take > width) {
			take = width;
			while (take > 0 && text[at + take] != ' ')
				take--;
			if (take == 0)
				take = width;
		}
		start[n] = at;
		len[n++] = take;
		at += take;
		while (at < total && text[at] == ' ')
			at++;
	} while (at < total && n < UI_HISTORY_MAX_LINES);
	return n;
}

/* Lines the history takes at this screen width (the scroll limit). */
static int ui_history_lines(const struct game *g)
{
	int total = g->n_messages < GAME_MESSAGES ? g->n_messages : GAME_MESSAGES, lines = 0;
	int start[UI_HISTORY_MAX_LINES], len[UI_HISTORY_MAX_LINES];
	for (int i = 0; i < total; i++) {
		char text[GAME_MESSAGE_LEN + 16];
		ui_message_text(game_message(g, i), text, sizeof text);
		lines += ui_history_split(text, COLS - UI_HISTORY_INDENT, start, len);
	}
	return lines;
}

/* The newest line at the bottom; history_back counts lines scrolled back. */
static void ui_draw_history(const struct ui *u)
{
	const struct game *g = u->g;
	int total = g->n_messages < GAME_MESSAGES ? g->n_messages : GAME_MESSAGES;
	ui_draw_line(0, "Message history: arrows/PgUp/PgDn scroll, any other key returns", A_BOLD);
	int row = LINES - 1, skip = u->history_back;
	int start[UI_HISTORY_MAX_LINES], len[UI_HISTORY_MAX_LINES];
	for (int i = 0; i < total && row >= 1; i++) {
		const struct message *m = game_message(g, i);
		char text[GAME_MESSAGE_LEN + 16];
		ui_message_text(m, text, sizeof text);
		int n = ui_history_split(text, COLS - UI_HISTORY_INDENT, start, len);
		for (int k = n - 1; k >= 0 && row >= 1; k--) {
			if (skip > 0) {
				skip--;
				continue;
			}
			char line[GAME_MESSAGE_LEN + 32];
			if (k == 0)
				snprintf(line, sizeof line, "%5d  %.*s", m->turn, len[k], text + start[k]);
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
	} else {
		ui_layout(u);
		ui_draw_map(u);
		ui_draw_messages(u);
		ui_draw_status(u);
	}
	wnoutrefresh(stdscr);
	doupdate();
}

/*
 * Which grid a level uses, said on entering it (with the game's own entry
 * messages, on the notice row): the move keys differ by grid, and nothing
 * else tells a player that y u b n are the only moves on a diamond4 map.
 * Square8, the grid every roguelike player expects, is said only when the
 * level before was another grid: on an all-square8 campaign it would be
 * noise.  The notice is the UI's, not a game message: a game message is
 * part of the state every journal's checksums hash, so a new one would
 * make every saved game on those levels drift.  NULL: nothing to say.
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
	if (news && note && !u->notice[0]) /* a hook's warning (saving failed) comes first */
		ui_notice(u, "This level is %s (? keys).", note);
}

/* ---- acting ----------------------------------------------------------- */

static void ui_act(struct ui *u, struct action a)
{
	struct game *g = u->g;
	u->msg_mark = g->message_stamp;
	u->more_seen = 0;
	enum act_result r = game_act(g, &a);
	const struct ui_hooks *h = u->opt.hooks;
	char msg[sizeof u->notice];
	if (h && h->acted && !h->acted(h->ud, g, &a, r, msg, sizeof msg)) {
		/* keys typed ahead would take the notice away unseen */
		flushinp();
		ui_notice(u, "%s", msg);
	}
	if (r == RESULT_NEW_LEVEL) {
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
	ui_act(u, (struct action){ .kind = ACT_TRAVEL, .x = x, .y = y });
}

static void ui_describe(struct ui *u, int x, int y)
{
	char what[GAME_MESSAGE_LEN];
	game_describe(u->g, x, y, what, sizeof what);
	ui_notice(u, "%s (%d,%d)", what, x, y);
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

/* Plans the route Enter would travel from the cursor, keeps it for drawing,
 * and says where it leads. */
static void ui_cursor_preview(struct ui *u)
{
	struct game *g = u->g;
	char what[GAME_MESSAGE_LEN];
	game_describe(g, u->cursor_x, u->cursor_y, what, sizeof what);
	u->preview_len = 0;
	if (u->cursor_x == g->player.x && u->cursor_y == g->player.y) {
		ui_notice(u, "Travel to: %s (%d,%d); Enter waits a turn", what, u->cursor_x,
			  u->cursor_y);
		return;
	}
	const int *cells;
	int len;
	enum path_status st = game_travel_plan(g, u->cursor_x, u->cursor_y, &cells, &len);
	if (len > u->preview_cap) {
		int *grown = realloc(u->preview, (size_t)len * sizeof *grown);
		if (grown) {
			u->preview = grown;
			u->preview_cap = len;
		}
	}
	if (len <= u->preview_cap && len > 0) {
		memcpy(u->preview, cells, (size_t)len * sizeof *cells);
		u->preview_len = len;
	}
	int steps = len - 1;
	if (len < 2)
		ui_notice(u, "Travel to: %s (%d,%d); no way closer from here", what, u->cursor_x,
			  u->cursor_y);
	else if (st == PATH_FOUND)
		ui_notice(u, "Travel to: %s (%d,%d); %d step%s", what, u->cursor_x, u->cursor_y,
			  steps, steps == 1 ? "" : "s");
	else if (st == PATH_BUDGET)
		ui_notice(u, "Travel to: %s (%d,%d); %d step%s toward it (planned in part)", what,
			  u->cursor_x, u->cursor_y, steps, steps == 1 ? "" : "s");
	else
		ui_notice(u, "Travel to: %s (%d,%d); out of reach, %d step%s to the closest point",
			  what, u->cursor_x, u->cursor_y, steps, steps == 1 ? "" : "s");
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
			ui_move(u, c.dir);
		break;
	case INPUT_WAIT:
		ui_act(u, (struct action){ .kind = ACT_WAIT });
		break;
	case INPUT_DESCEND:
		ui_act(u, (struct action){ .kind = ACT_DESCEND });
		break;
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
		ui_act(u, (struct action){ .kind = ACT_QUAFF });
		break;
	case INPUT_EXPLORE:
		ui_act(u, (struct action){ .kind = ACT_EXPLORE });
		break;
	case INPUT_INVENTORY: {
		const struct player *p = &u->g->player;
		if (p->potions > 0)
			ui_notice(u, "Your pack: %d healing potion%s (q quaffs, +%d hp each; room for %d); %d gold.",
				  p->potions, p->potions == 1 ? "" : "s", POTION_HEAL, PACK_POTIONS, p->gold);
		else
			ui_notice(u, "Your pack is empty (room for %d potions); %d gold.", PACK_POTIONS, p->gold);
		break;
	}
	case INPUT_QUIT:
		u->screen = SCREEN_QUIT;
		break;
	case INPUT_CURSOR:
		u->screen = SCREEN_CURSOR;
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
	case INPUT_CONFIRM:
	case INPUT_CANCEL:
		break;
	case INPUT_NONE:
		if (key > ' ' && key < 127)
			ui_notice(u, "Unknown key '%c': press ? for help.", key);
		else if (key == '\t')
			ui_notice(u, "Tab does nothing here: press ? for help.");
		else
			ui_notice(u, "That key does nothing here: press ? for help.");
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
	case SCREEN_CURSOR:
		if (c.kind == INPUT_MOVE) {
			ui_cursor_move(u, c.dir, c.count);
		} else if (c.kind == INPUT_CONFIRM || c.kind == INPUT_CURSOR) {
			u->screen = SCREEN_MAP;
			u->notice[0] = '\0';
			ui_go_to(u, u->cursor_x, u->cursor_y);
		} else if (c.kind == INPUT_CANCEL || c.kind == INPUT_QUIT || c.kind == INPUT_QUAFF) {
			u->screen = SCREEN_MAP;
			u->notice[0] = '\0';
		} else {
			ui_notice(u, "Move the cursor; Enter travels there, Esc cancels.");
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
		int lines = ui_history_lines(u->g);
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
	switch (u->screen) {
	case SCREEN_MAP:
	case SCREEN_CURSOR:
		input_screen_to_cell(&u->view, u->g->grid, scol, srow, &x, &y);
		if (b == INPUT_BUTTON_RIGHT) {
			ui_describe(u, x, y);
			break;
		}
		u->screen = SCREEN_MAP;
		u->notice[0] = '\0';
		ui_go_to(u, x, y);
		break;
	case SCREEN_HELP:
		u->screen = u->back;
		break;
	case SCREEN_QUIT:
		u->screen = SCREEN_MAP;
		break;
	case SCREEN_HISTORY:
	case SCREEN_END:
		break;
	}
}

static void ui_mouse(struct ui *u)
{
	MEVENT ev;
	if (getmouse(&ev) != OK)
		return;
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
			game_travel_cancel(u->g);
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
	u->outcome = UI_QUIT;
	/* A game resumed past its start has its whole message log rebuilt by
	 * the replay: that is history (P), not news to page through with
	 * --More-- while a monster closes in.  A new game shows its opening
	 * messages. */
	u->msg_mark = g->turn > 0 ? g->message_stamp : 0;
	u->grid_said = g->grid->topo;
	if (g->turn > 0) {
		const struct level *lv = game_level(g);
		const char *grid = g->grid->topo == GRID_SQUARE8 ? "" : grid_topology_name(g->grid->topo);
		ui_notice(u, "Welcome back: %s%s%s%s, turn %d. P shows the messages so far.",
			  lv && lv->name ? lv->name : "your game", grid[0] ? " (a " : "", grid, grid[0] ? " map)" : "",
			  g->turn);
	} else {
		ui_say_grid(u, true);
	}
}

#define UI_MOUSE_EVENTS                                                                            \
	(BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON1_CLICKED | BUTTON3_PRESSED | BUTTON3_RELEASED | \
	 BUTTON3_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED)

static void ui_loop(struct ui *u)
{
	struct game *g = u->g;
	while (!u->done) {
		if (ui_screen_signal()) {
			u->outcome = UI_SIGNAL;
			break;
		}
		ui_draw(u);
		bool travelling = g->travel.active && u->screen == SCREEN_MAP && !ui_screen_too_small() && !u->more;
		int ch = ui_screen_read(travelling ? u->opt.step_delay_ms : UI_IDLE_TIMEOUT_MS, &u->stale_reads);
		if (ch == UI_READ_SIGNAL)
			continue;
		if (ch == UI_READ_GONE) {
			u->outcome = UI_HANGUP;
			break;
		}
		if (ch == ERR) {
			if (travelling)
				ui_act(u, (struct action){ .kind = ACT_TRAVEL_STEP });
			continue;
		}
		if (ch == KEY_RESIZE)
			continue; /* the next frame is laid out for the new size */
		if (ch == KEY_MOUSE) {
			ui_mouse(u);
			continue;
		}
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
			/* any key stops travel, and does nothing else */
			game_travel_cancel(g);
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
	if (!ui_screen_start(&scr, opt->mouse, UI_MOUSE_EVENTS, false, err, errlen)) {
		ui_screen_signals_restore(&sigs);
		return UI_ERROR;
	}
	struct ui u;
	ui_init(&u, g, opt);
	u.colour = scr.colour;
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
