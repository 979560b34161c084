/*
 * ui_pack.c - the item keys of the play screen: the pack (i) and the
 * menus that choose from it (q a z t w W d: a letter or a click picks),
 * the direction prompt (a wand, a door: a key, or a click that way),
 * picking up, and the aiming cursor of f and t (on the nearest monster in
 * view, Tab the next, Enter or a click fires or throws).  Every key makes
 * an action for game_act or says why not.
 */
#include <curses.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ui_curses_internal.h"

static void notice(struct ui *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void notice(struct ui *u, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(u->notice, sizeof u->notice, fmt, ap);
	va_end(ap);
}

/* Whether the item of slot s fits menu `mode`. */
static bool fits(const struct ui *u, int mode, int s)
{
	const struct item_def *d = game_item_def(u->g, u->g->pack[s].kind);
	if (!d)
		return false;
	switch (mode) {
	case 'q':
		return d->cls == ITEM_POTION;
	case 'a':
		return d->cls == ITEM_SCROLL || d->cls == ITEM_TOOL;
	case 'z':
		return d->cls == ITEM_WAND;
	case 't':
		return d->cls == ITEM_AMMO;
	case 'w':
		return d->cls == ITEM_WEAPON;
	case 'W':
		return d->cls == ITEM_ARMOUR;
	default:
		return true;
	}
}

static int count_fitting(const struct ui *u, int mode)
{
	int n = 0;
	for (int s = 0; s < PACK_SLOTS; s++)
		n += fits(u, mode, s);
	return n;
}

static const char *mode_title(int mode)
{
	switch (mode) {
	case 'q': return "Quaff which potion?";
	case 'a': return "Read which scroll (or apply which tool)?";
	case 'z': return "Zap which wand?";
	case 't': return "Throw what?";
	case 'w': return "Wield which weapon? (- bare hands)";
	case 'W': return "Wear which armour? (- take it off)";
	case 'd': return "Drop what?";
	default: return "Your pack (a letter uses it, a capital letter tells what it does)";
	}
}

static const char *none_of(int mode)
{
	switch (mode) {
	case 'q': return "You have no potions to quaff.";
	case 'a': return "You have no scrolls to read and no tools to apply.";
	case 'z': return "You have no wands to zap.";
	case 't': return "You have nothing to throw: stones and arrows fly.";
	case 'w': return "You have no weapons to wield.";
	case 'W': return "You have no armour to wear.";
	default: return "Your pack is empty.";
	}
}

static void open_menu(struct ui *u, int mode)
{
	bool has_off = (mode == 'w' && u->g->wielded >= 0) || (mode == 'W' && u->g->worn >= 0);
	if (count_fitting(u, mode) == 0 && !has_off) {
		notice(u, "%s (%d gold)", none_of(mode), u->g->player.gold);
		return;
	}
	u->pack_mode = mode;
	u->screen = SCREEN_PACK;
}

static void start_aim(struct ui *u, int s);

/* What choosing slot s in the menu does. */
static void choose(struct ui *u, int s)
{
	const int mode = u->pack_mode;
	if (s < 0 || s >= PACK_SLOTS || u->g->pack[s].kind < 0) {
		notice(u, "You have no item %c.", 'a' + (s < 0 ? 0 : s));
		return;
	}
	if (!fits(u, mode, s)) {
		notice(u, "%s: not that one.", mode_title(mode));
		return;
	}
	const struct item_def *d = game_item_def(u->g, u->g->pack[s].kind);
	u->screen = SCREEN_MAP;
	switch (mode) {
	case 'd':
		ui_act(u, (struct action){ .kind = ACT_DROP, .x = s });
		return;
	case 'w':
		ui_act(u, (struct action){ .kind = ACT_WIELD, .x = s });
		return;
	case 'W':
		ui_act(u, (struct action){ .kind = ACT_WEAR, .x = s });
		return;
	case 't':
		start_aim(u, s);
		return;
	default:
		break;
	}
	if (d->cls == ITEM_WAND) {
		u->pending = 'z';
		u->pending_slot = s;
		u->screen = SCREEN_DIR;
		notice(u, "Zap which way? (a direction key, or a click that way; Esc cancels)");
		return;
	}
	ui_act(u, (struct action){ .kind = ACT_USE, .x = s, .dir = GRID_N });
}

void ui_pack_key(struct ui *u, int key)
{
	if (key >= 'a' && key < 'a' + PACK_SLOTS) {
		choose(u, key - 'a');
		return;
	}
	if (key >= 'A' && key < 'A' + PACK_SLOTS) {
		/* a capital letter tells what the item does; the menu stays */
		if (!ui_describe_slot(u, key - 'A'))
			notice(u, "You have no item %c.", key - 'A' + 'a');
		return;
	}
	if (key == '-' && (u->pack_mode == 'w' || u->pack_mode == 'W')) {
		u->screen = SCREEN_MAP;
		ui_act(u, (struct action){ .kind = u->pack_mode == 'w' ? ACT_WIELD : ACT_WEAR, .x = -1 });
		return;
	}
	u->screen = SCREEN_MAP;
	u->notice[0] = '\0';
}

void ui_pack_click(struct ui *u, int srow)
{
	int i = srow - u->pack_row0;
	if (i >= 0 && i < PACK_SLOTS && u->pack_rows[i] >= 0) {
		choose(u, u->pack_rows[i]);
		return;
	}
	u->screen = SCREEN_MAP;
}

/* The zap or the closing waiting for a direction, that way. */
static void dir_act(struct ui *u, enum grid_dir d)
{
	u->screen = SCREEN_MAP;
	u->notice[0] = '\0';
	switch (u->pending) {
	case 'z':
		ui_act(u, (struct action){ .kind = ACT_USE, .x = u->pending_slot, .dir = d });
		break;
	case 'c':
		ui_act(u, (struct action){ .kind = ACT_CLOSE, .dir = d });
		break;
	default:
		break;
	}
}

void ui_dir_key(struct ui *u, int key)
{
	struct input_command c = input_key(key);
	if (c.kind != INPUT_MOVE) {
		u->screen = SCREEN_MAP;
		notice(u, c.kind == INPUT_CANCEL ? "Never mind." : "That is not a direction: never mind.");
		return;
	}
	dir_act(u, c.dir);
}

/*
 * A left click while a direction is asked for: the step of this grid that
 * points nearest the cell clicked, as the map is drawn (a text row about
 * twice a column's width tall), so a click on a door beside the player,
 * or anywhere along one of the lines, gives that line.  A click on the
 * player cancels.
 */
void ui_dir_click(struct ui *u, int x, int y)
{
	const struct grid *gr = u->g->grid;
	int pc, pr, cc, cr;
	grid_cell_to_screen(gr, u->g->player.x, u->g->player.y, &pc, &pr);
	grid_cell_to_screen(gr, x, y, &cc, &cr);
	const double vx = cc - pc, vy = 2.0 * (cr - pr);
	int best = -1;
	double best_cos = -2;
	for (int d = 0; d < GRID_DIR_COUNT; d++) {
		int dc, dr;
		if (!grid_dir_offset(gr->topo, (enum grid_dir)d, &dc, &dr))
			continue;
		const double sx = dc, sy = 2.0 * dr;
		const double cs = (vx * sx + vy * sy) / sqrt((vx * vx + vy * vy) * (sx * sx + sy * sy));
		if (cs > best_cos + 1e-9) {
			best_cos = cs;
			best = d;
		}
	}
	if ((vx == 0 && vy == 0) || best < 0) {
		u->screen = SCREEN_MAP;
		notice(u, "Never mind.");
		return;
	}
	dir_act(u, (enum grid_dir)best);
}

/* Puts the fire cursor on monster i (the nearest when i < 0); false: none in view. */
static bool aim_at(struct ui *u, int i)
{
	const struct game *g = u->g;
	if (i < 0)
		i = game_nearest_target(g);
	if (i < 0)
		return false;
	u->target = i;
	u->cursor_x = g->monsters[i].x;
	u->cursor_y = g->monsters[i].y;
	return true;
}

/* The next monster in view after the current target, in index order. */
static void aim_next(struct ui *u)
{
	const struct game *g = u->g;
	for (int k = 1; k <= g->n_monsters; k++) {
		int i = (u->target + k + g->n_monsters) % g->n_monsters;
		if (g->monsters[i].alive && g->monsters[i].seen) {
			aim_at(u, i);
			return;
		}
	}
}

/* The aiming cursor, on the nearest monster in view (else on the player):
 * for the launcher (slot -1) or for a piece of slot s thrown by hand. */
static void start_aim(struct ui *u, int s)
{
	struct game *g = u->g;
	u->targeting = true;
	u->throw_slot = s;
	u->target = -1;
	u->screen = SCREEN_CURSOR;
	if (!aim_at(u, -1)) {
		u->cursor_x = g->player.x;
		u->cursor_y = g->player.y;
	}
	ui_cursor_preview(u);
}

static void start_fire(struct ui *u)
{
	struct game *g = u->g;
	const struct item_def *w = g->wielded >= 0 ? game_item_def(g, g->pack[g->wielded].kind) : NULL;
	if (!w || !w->ammo[0]) {
		/* no launcher in hand: f throws by hand, as DCSS's f does */
		for (int s = 0; s < PACK_SLOTS; s++)
			if (game_throw_range(g, s) > 0) {
				start_aim(u, s);
				return;
			}
	}
	if (game_pack_ammo(g, g->wielded) < 0) {
		/* said before the aim, not after it */
		char why[GAME_MESSAGE_LEN];
		game_fire_none(g, why, sizeof why);
		notice(u, "%s", why);
		return;
	}
	start_aim(u, -1);
}

void ui_aim_act(struct ui *u, int x, int y)
{
	u->targeting = false;
	u->screen = SCREEN_MAP;
	u->notice[0] = '\0';
	if (u->throw_slot >= 0)
		ui_act(u, (struct action){ .kind = ACT_THROW_AT, .item = u->throw_slot, .x = x, .y = y });
	else
		ui_act(u, (struct action){ .kind = ACT_FIRE, .x = x, .y = y });
}

bool ui_target_key(struct ui *u, int key)
{
	struct input_command c = input_key(key);
	const bool throwing = u->throw_slot >= 0;
	if (c.kind == INPUT_NEXT) {
		aim_next(u);
		ui_cursor_preview(u);
		return true;
	}
	if (c.kind == INPUT_CONFIRM || c.kind == INPUT_FIRE || (c.kind == INPUT_THROW && throwing)) {
		ui_aim_act(u, u->cursor_x, u->cursor_y);
		return true;
	}
	if (c.kind == INPUT_CANCEL || c.kind == INPUT_QUIT) {
		u->targeting = false;
		u->screen = SCREEN_MAP;
		u->notice[0] = '\0';
		return true;
	}
	if (c.kind == INPUT_MOVE)
		return false; /* the cursor moves */
	notice(u, throwing ? "Aiming: move the cursor, Tab the next monster, Enter, t or f throws, Esc cancels."
			   : "Aiming: move the cursor, Tab the next monster, Enter or f fires, Esc cancels.");
	return true;
}

void ui_pack_command(struct ui *u, int command)
{
	switch ((enum input_command_kind)command) {
	case INPUT_INVENTORY:
		open_menu(u, 'i');
		break;
	case INPUT_QUAFF:
		open_menu(u, 'q');
		break;
	case INPUT_READ:
		open_menu(u, 'a');
		break;
	case INPUT_ZAP:
		open_menu(u, 'z');
		break;
	case INPUT_THROW:
		open_menu(u, 't');
		break;
	case INPUT_WIELD:
		open_menu(u, 'w');
		break;
	case INPUT_WEAR:
		open_menu(u, 'W');
		break;
	case INPUT_DROP:
		open_menu(u, 'd');
		break;
	case INPUT_FIRE:
		start_fire(u);
		break;
	case INPUT_PICKUP:
		ui_act(u, (struct action){ .kind = ACT_PICKUP });
		break;
	case INPUT_CLOSE:
		u->pending = 'c';
		u->screen = SCREEN_DIR;
		notice(u, "Close the door which way? (a direction key, or a click on it; Esc cancels)");
		break;
	case INPUT_NEXT:
		notice(u, "Tab chooses the next target after f (fire).");
		break;
	default:
		break;
	}
}

void ui_draw_pack(struct ui *u)
{
	const struct game *g = u->g;
	const int mode = u->pack_mode;
	int row = UI_MESSAGE_ROWS, width = COLS;
	char line[GAME_MESSAGE_LEN + 32];
	for (int i = 0; i < PACK_SLOTS; i++)
		u->pack_rows[i] = -1;
	move(row, 0);
	clrtoeol();
	snprintf(line, sizeof line, " %s", mode_title(mode));
	attron(A_BOLD);
	mvaddnstr(row++, 0, line, width);
	attroff(A_BOLD);
	u->pack_row0 = row;
	int shown = 0;
	for (int s = 0; s < PACK_SLOTS && row < LINES - 2; s++) {
		if (g->pack[s].kind < 0 || (mode != 'i' && mode != 'd' && !fits(u, mode, s)))
			continue;
		char name[GAME_MESSAGE_LEN];
		game_item_name(g, g->pack[s].kind, g->pack[s].qty, name, sizeof name);
		snprintf(line, sizeof line, "  %c - %s%s", 'a' + s, name,
			 g->wielded == s ? " (wielded)" : g->worn == s ? " (worn)" : "");
		move(row, 0);
		clrtoeol();
		mvaddnstr(row, 0, line, width);
		u->pack_rows[row - u->pack_row0] = s;
		row++;
		shown++;
	}
	if (shown == 0) {
		move(row, 0);
		clrtoeol();
		mvaddnstr(row++, 0, "  (nothing)", width);
	}
	int used = 0;
	for (int s = 0; s < PACK_SLOTS; s++)
		used += g->pack[s].kind >= 0;
	/* the count and the keys, on two rows when one would cut the keys'
	 * sentence (an 80-column terminal) and the screen has one more */
	static const char keys[] = "A letter or a click chooses; any other key closes.";
	snprintf(line, sizeof line, "  %d of %d letters used, %d gold.", used, PACK_SLOTS, g->player.gold);
	const bool two = (int)(strlen(line) + 2 + sizeof keys - 1) > width && row + 1 < LINES - 1;
	move(row, 0);
	clrtoeol();
	if (two) {
		mvaddnstr(row++, 0, line, width);
		move(row, 0);
		clrtoeol();
		snprintf(line, sizeof line, "  %s", keys);
	} else {
		const size_t at = strlen(line);
		snprintf(line + at, sizeof line - at, "  %s", keys);
	}
	mvaddnstr(row, 0, line, width);
}
