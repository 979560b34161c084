/*
 * ui_describe.c - what a seasoned player asks of a cell (issue 30 item
 * 8): for a monster in view its hit points, its blow, its speed against
 * the player's, its odds, its sight and how it hunts (its mind, in the
 * words of docs/ai.md); for known terrain what it costs to enter and what
 * it does.  Opened by a right click or by v (;) in the travel cursor, it
 * says only what the player knows: a remembered cell by what was seen,
 * an unseen monster not at all, a cell never seen as unexplored.  It
 * builds lines of text and draws them in a box over the map, on the side
 * away from the cell; it changes nothing.  No curses but in the drawing.
 */
#include "ui_curses_internal.h"

#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bestiary.h"
#include "game.h"
#include "level.h"
#include "ui_screen.h"

/* How each mind hunts, for the player (docs/ai.md, "Minds"). */
static const char *const mind_words[MIND_COUNT] = {
	[MIND_CHASE] = "chases you by the shortest way it knows, round costly ground",
	[MIND_PACK] = "hunts in a pack: each takes a side round you before they close in",
	[MIND_RANGED] = "shoots from a distance and backs off when you come near, but not for ever: pressed long, it stands; break its line of sight",
	[MIND_DIG] = "digs through walls toward you, a wall taking it some turns",
	[MIND_TRACK] = "follows your scent trail and noises when it loses sight of you",
	[MIND_AMBUSH] = "waits out of sight at a narrow place on your way to the stairs",
	[MIND_SWARM] = "holds back until enough of its kind are near, then all rush you; a few alone, or tired of waiting, come anyway",
	[MIND_BREED] = "buds off another of its kind while you do not see it: kill it quickly",
};

/* What each terrain does, beside its cost. */
static const char *const tile_words[TILE_COUNT] = {
	[TILE_VOID] = "nothing: no one walks or sees through it",
	[TILE_WALL] = "blocks walking and sight; a digger (or a wand of digging) turns it to rubble",
	[TILE_FLOOR] = "open ground",
	[TILE_RUBBLE] = "broken stone: slow going, sight passes",
	[TILE_WATER] = "shallow water: slow to wade, sight passes; routes go round it when that is cheaper",
	[TILE_DOOR] = "walk into a closed door to open it; closed, it blocks sight; c closes an open one",
	[TILE_EXIT] = "stairs down: stand on them and press > to descend",
	[TILE_BEDROCK] = "blocks walking and sight; no one can dig it",
};

static void desc_add(struct ui *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void desc_add(struct ui *u, const char *fmt, ...)
{
	if (u->n_desc >= UI_DESC_LINES)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(u->desc[u->n_desc++], sizeof u->desc[0], fmt, ap);
	va_end(ap);
}

/* A monster's speed against the player's (100 energy a turn). */
static void speed_words(int speed, char *buf, size_t size)
{
	if (speed == 100)
		snprintf(buf, size, "as fast as you (one action a turn)");
	else if (speed > 100)
		snprintf(buf, size, "faster than you (%d.%d actions a turn)", speed / 100, speed % 100 / 10);
	else if (speed > 0)
		snprintf(buf, size, "slower than you (an action every %d.%d turns)", 100 / speed,
			 100 * 10 / speed % 10);
	else
		snprintf(buf, size, "never moves");
}

static void describe_monster(struct ui *u, const struct monster *m)
{
	const struct game *g = u->g;
	const struct monster_kind *k = m->kind;
	desc_add(u, "%c  %s %s%s%s", k->glyph, game_article(k->name), k->name, k->about[0] ? ": " : "", k->about);
	char speed[80];
	speed_words(k->speed, speed, sizeof speed);
	desc_add(u, "Health %d of %d hp.  Its blow: %d damage.  Speed: %s.", m->hp, k->hp, k->damage, speed);
	desc_add(u, "It hits you %d%% of the time, you hit it %d%%.  It sees %d cell%s.",
		 game_monster_hit_chance(g, k), game_player_hit_chance(g, k), k->sight, k->sight == 1 ? "" : "s");
	int mind = k->behaviour >= 0 && k->behaviour < MIND_COUNT ? k->behaviour : MIND_CHASE;
	desc_add(u, "How it hunts (%s): %s.", bestiary_mind_name(mind), mind_words[mind]);
	if (k->range > 0)
		desc_add(u, "It shoots up to %d step%s.", k->range, k->range == 1 ? "" : "s");
	if (k->flee > 0)
		desc_add(u, "It flees when below %d%% of its hp.", (int)(k->flee * 100 + 0.5));
	desc_add(u, "Now: %s.", game_monster_doing(m));
}

static void describe_terrain(struct ui *u, int c)
{
	const struct game *g = u->g;
	enum tile t = game_tile_known(g, c);
	const struct tile_info *ti = tile_info(t);
	const char *name = t == TILE_DOOR ? (g->open[c] ? "an open door" : "a closed door")
			   : t == TILE_EXIT ? "stairs down" : ti->name;
	desc_add(u, "%c  %s%s", ti->glyph, name, g->visible[c] ? "" : " (remembered: as you saw it last)");
	int known = g->known[c];
	if (known == 0 || ti->cost == 0) {
		desc_add(u, "Cost: none can enter it.");
	} else {
		/* a step costs the terrain's cost times the step's length: 1, or
		 * about 1.4 for a diagonal (square8) or corner step (diamond8) */
		desc_add(u, "Cost to enter: %d (floor is 1)%s.  A step costs this times its length%s.", known,
			 g->hazard[c] ? ", caltrops included" : "",
			 g->grid->topo == GRID_SQUARE8 ? ": 1 straight, 1.4 diagonal"
			 : g->grid->topo == GRID_DIAMOND8 ? ": 1 an edge step, 1.4 a corner step" : ", 1 on this map");
	}
	const char *does = tile_words[t < TILE_COUNT ? t : TILE_VOID];
	desc_add(u, "%c%s.", does[0] >= 'a' && does[0] <= 'z' ? does[0] - 'a' + 'A' : does[0], does + 1);
	if (g->hazard[c])
		desc_add(u, "Caltrops are strewn here: every route, yours and the monsters', pays %d more to cross.",
			 g->hazard[c]);
	if (g->items[c]) {
		char what[GAME_MESSAGE_LEN / 2];
		game_item_name(g, g->items[c] - 1, g->item_qty[c], what, sizeof what);
		desc_add(u, "On it: %s (walk onto it to pick it up).", what);
		char about[GAME_MESSAGE_LEN * 2];
		game_item_about(g, g->items[c] - 1, about, sizeof about);
		if (about[0])
			desc_add(u, "%s", about);
	}
}

bool ui_describe_open(struct ui *u, int x, int y)
{
	const struct game *g = u->g;
	u->n_desc = 0;
	if (!grid_in_bounds(g->grid, x, y))
		return false;
	int c = grid_index(g->grid, x, y);
	if (!g->remembered[c] || (x == g->player.x && y == g->player.y))
		return false; /* unexplored, or you: the one line says it all */
	const struct monster *m = game_monster_at(g, x, y);
	if (m && m->alive && g->visible[c]) {
		describe_monster(u, m);
		desc_add(u, "%s", "");
	}
	describe_terrain(u, c);
	u->desc_x = x;
	u->desc_y = y;
	u->desc_back = u->screen == SCREEN_DESCRIBE ? u->desc_back : u->screen;
	u->screen = SCREEN_DESCRIBE;
	return true;
}

bool ui_describe_slot(struct ui *u, int s)
{
	const struct game *g = u->g;
	if (s < 0 || s >= PACK_SLOTS || g->pack[s].kind < 0)
		return false;
	char name[GAME_MESSAGE_LEN / 2], about[GAME_MESSAGE_LEN * 2];
	game_item_name(g, g->pack[s].kind, g->pack[s].qty, name, sizeof name);
	game_item_about(g, g->pack[s].kind, about, sizeof about);
	u->n_desc = 0;
	desc_add(u, "%c - %s%s", 'a' + s, name, g->wielded == s ? " (wielded)" : g->worn == s ? " (worn)" : "");
	if (about[0])
		desc_add(u, "%s", about);
	u->desc_x = g->player.x; /* the box keeps off the player */
	u->desc_y = g->player.y;
	u->desc_back = u->screen == SCREEN_DESCRIBE ? u->desc_back : u->screen;
	u->screen = SCREEN_DESCRIBE;
	return true;
}

/* Splits text at spaces into rows of at most width; returns how many (at most max, and one empty row for empty text). */
static int desc_wrap(const char *text, int width, int start[], int len[], int max)
{
	int n = ui_screen_wrap(text, width, start, len, max);
	if (n == 0 && max > 0) {
		start[0] = len[0] = 0;
		n = 1;
	}
	return n;
}

#define DESC_ROWS 40

void ui_draw_describe(struct ui *u, int cell_row)
{
	int width = COLS - 2 < 78 ? COLS - 2 : 78, inner = width - 4;
	if (inner < 10)
		return;
	int start[DESC_ROWS], len[DESC_ROWS], from[DESC_ROWS], n = 0;
	for (int i = 0; i < u->n_desc && n < DESC_ROWS; i++) {
		int k = desc_wrap(u->desc[i], inner, start + n, len + n, DESC_ROWS - n);
		for (int j = 0; j < k; j++)
			from[n + j] = i;
		n += k;
	}
	const char *foot = "any key or click returns";
	int height = n + 3; /* the frame and the foot */
	int avail = LINES - UI_MESSAGE_ROWS - UI_STATUS_ROWS;
	if (height > avail) {
		n -= height - avail;
		height = avail;
	}
	if (n < 1)
		return;
	/* away from the cell described: under it when there is room below,
	 * else over it when there is room above, else on the roomier side */
	int first = UI_MESSAGE_ROWS, end = UI_MESSAGE_ROWS + avail; /* the map rows [first, end) */
	int below = end - (cell_row + 1), above = cell_row - first;
	int room = below > above ? below : above;
	if (height > room && room >= 5) {
		/* neither side holds it whole: the last lines (the ground
		 * under a monster) give way rather than hide the cell */
		n -= height - room;
		height = room;
	}
	int top = below >= height ? end - height : above >= height ? first : below > above ? end - height : first;
	int left = (COLS - width) / 2;
	for (int r = 0; r < height; r++) {
		move(top + r, left);
		for (int c = 0; c < width; c++)
			addch(r == 0 || r == height - 1 ? (c == 0 || c == width - 1 ? '+' : '-')
							: c == 0 || c == width - 1 ? '|' : ' ');
	}
	for (int r = 0; r < n; r++) {
		attr_t a = from[r] == 0 ? A_BOLD : A_NORMAL;
		attron(a);
		mvaddnstr(top + 1 + r, left + 2, u->desc[from[r]] + start[r], len[r]);
		attroff(a);
	}
	mvaddnstr(top + height - 2, left + width - 2 - (int)strlen(foot), foot, (int)strlen(foot));
}
