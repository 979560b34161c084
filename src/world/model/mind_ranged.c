/*
 * mind_ranged.c - the ranged mind (docs/ai.md, "Mind: ranged"): archers
 * and casters hold a band of distance from the player with a line of
 * sight to it, shoot from there, back off when the player comes nearer,
 * and fight in melee only when cornered, or when the player has pressed
 * them for their kind's `patience` of back-offs in a row (rules 15: on
 * square4 the walls of a room never corner one, and it came back to shoot
 * as soon as the player stopped).  The count is the mind's `pressed`.
 *
 * The band is [keep, range]: `keep` counts the turns the player needs to
 * walk to the monster (the player's turn map below: walls, doors and
 * water count, so a monster behind a wall is far however near it stands),
 * `range` the steps a shot flies (grid_step_distance, as the sight rule
 * counts, with fov_line_of_sight: the same line as everyone's sight).
 *
 * It owns two things, both sized once per level (ranged_map_create, from
 * ai_level_init) and never part of the saved state:
 *   - the player's turn map: how many turns the player needs to walk to
 *     each cell near it (a Dijkstra in turns, each step costing the
 *     multiplier of the cell entered, as the rules charge energy), out to
 *     RANGED_REACH turns in a window round the player.  It is made at
 *     most once per game turn, by the first ranged monster that needs it,
 *     and shared by all of them (ai_turn_begin forgets it), so it is a
 *     pure function of the grid and the player's cell;
 *   - the scratch of one monster's own search for a firing spot: the same
 *     Dijkstra from the monster, out to RANGED_REACH turns, over cells no
 *     other monster holds and the player could not reach in fewer than
 *     `keep` turns, stopped at the nearest cell of the band that sees the
 *     player.  Bounded: at most the window's cells, usually a few dozen.
 * It does not carry the shot out: game.c does (game_shot_stop).
 */
#include "ai_internal.h"

#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "fov.h"

/* Turns the player's map and a firing-spot search reach: beyond the
 * largest `keep` (16), so every comparison with keep is exact. */
#define RANGED_REACH AI_PLAYER_REACH
#define RANGED_FAR 255 /* not reached within RANGED_REACH */

/* A Dijkstra in turns over a window of cells round its source. */
struct ranged_window {
	int x0, y0;    /* the window's top-left cell (may lie outside the map) */
	uint8_t *dist; /* ww * wh: turns from the source, RANGED_FAR unreached */
	int *from; /* ww * wh: window index each came from (the spot search; NULL in the player's) */
};

struct ranged_map {
	const struct grid *grid;
	int ww, wh; /* window size: 2 reach + 1 columns, 2 reach x (rows a step may move) + 1 rows */
	int src;    /* the player's cell the player map was made from; -1 none this turn */
	struct ranged_window player, spot;
	/* the bucket queue: one FIFO per distance 0..RANGED_REACH, of entries in a pool */
	int head[RANGED_REACH + 1], tail[RANGED_REACH + 1];
	int *entry_cell, *entry_next; /* pool_cap entries: window index, next in its FIFO */
	int pool_cap;
};

struct ranged_map *ranged_map_create(const struct grid *g)
{
	struct ranged_map *rm = calloc(1, sizeof *rm);
	if (!rm)
		return NULL;
	rm->grid = g;
	rm->src = -1;
	rm->ww = 2 * RANGED_REACH + 1;
	/* a step moves at most one column, and one row (two on diamond8) */
	rm->wh = 2 * RANGED_REACH * (grid_is_diamond(g->topo) ? 2 : 1) + 1;
	size_t n = (size_t)rm->ww * (size_t)rm->wh;
	/* a cell enters a FIFO only when its distance drops, at most once per
	 * neighbour that settles before it: the pool never runs out */
	rm->pool_cap = (int)n * GRID_MAX_NEIGHBOURS + 1;
	rm->player.dist = malloc(n);
	rm->spot.dist = malloc(n);
	rm->spot.from = malloc(n * sizeof *rm->spot.from);
	rm->entry_cell = malloc((size_t)rm->pool_cap * sizeof *rm->entry_cell);
	rm->entry_next = malloc((size_t)rm->pool_cap * sizeof *rm->entry_next);
	if (!rm->player.dist || !rm->spot.dist || !rm->spot.from || !rm->entry_cell ||
	    !rm->entry_next) {
		ranged_map_destroy(rm);
		return NULL;
	}
	return rm;
}

void ranged_map_destroy(struct ranged_map *rm)
{
	if (!rm)
		return;
	free(rm->player.dist);
	free(rm->spot.dist);
	free(rm->spot.from);
	free(rm->entry_cell);
	free(rm->entry_next);
	free(rm);
}

void ranged_map_forget(struct ranged_map *rm)
{
	if (rm)
		rm->src = -1;
}

/* The window index of `cell` in w, or -1 outside the window. */
static int win_index(const struct ranged_map *rm, const struct ranged_window *w, int cell)
{
	int x = grid_x(rm->grid, cell) - w->x0, y = grid_y(rm->grid, cell) - w->y0;
	if ((unsigned)x >= (unsigned)rm->ww || (unsigned)y >= (unsigned)rm->wh)
		return -1;
	return y * rm->ww + x;
}

static int win_cell(const struct ranged_map *rm, const struct ranged_window *w, int i)
{
	return grid_index(rm->grid, w->x0 + i % rm->ww, w->y0 + i / rm->ww);
}

/* Turns from w's source to cell, RANGED_FAR when not within reach. */
static int win_turns(const struct ranged_map *rm, const struct ranged_window *w, int cell)
{
	int i = win_index(rm, w, cell);
	return i < 0 ? RANGED_FAR : w->dist[i];
}

/* What a firing-spot search needs to know of the monster and the player. */
struct spot_query {
	const struct ai_view *v;
	int pc, px, py;           /* the player's cell */
	int keep, range;          /* the band */
	int best, best_t, best_d; /* the spot so far, its player turns and search turns; -1 none */
};

/* Whether monster-free `cell` is in the band and sees the player: a cell to shoot from. */
static bool firing_cell(const struct ranged_map *rm, const struct spot_query *q, int cell, int *t)
{
	*t = win_turns(rm, &rm->player, cell);
	if (cell == q->pc || *t < q->keep || grid_step_distance(rm->grid, cell, q->pc) > q->range)
		return false;
	return fov_line_of_sight(rm->grid, q->v->opaque, grid_x(rm->grid, cell),
				 grid_y(rm->grid, cell), q->px, q->py, q->range);
}

/*
 * A Dijkstra in turns from `src` over window w (centred on it): a step
 * costs the multiplier of the cell entered (the energy the rules charge),
 * out to RANGED_REACH turns; FIFO within a distance, so the order is
 * fixed.  With q (a firing-spot search) it leaves out cells another
 * monster holds, the player's and those the player reaches in fewer than
 * q->keep turns, records where each cell was reached from, and stops
 * after the distance at which the first firing cell settled, keeping the
 * one the player needs most turns to reach (the first such on a tie).
 */
static long win_flood(struct ranged_map *rm, struct ranged_window *w, int src, struct spot_query *q)
{
	const struct grid *g = rm->grid;
	w->x0 = grid_x(g, src) - RANGED_REACH;
	w->y0 = grid_y(g, src) - (rm->wh - 1) / 2;
	memset(w->dist, RANGED_FAR, (size_t)rm->ww * (size_t)rm->wh);
	for (int b = 0; b <= RANGED_REACH; b++)
		rm->head[b] = rm->tail[b] = -1;
	int used = 0, si = win_index(rm, w, src);
	long settled = 0;
	w->dist[si] = 0;
	if (w->from)
		w->from[si] = -1;
	rm->entry_cell[used] = si;
	rm->entry_next[used] = -1;
	rm->head[0] = rm->tail[0] = used++;
	for (int d = 0; d <= RANGED_REACH; d++) {
		if (q && q->best >= 0 && d > q->best_d)
			return settled;
		for (int e = rm->head[d]; e >= 0; e = rm->entry_next[e]) {
			int i = rm->entry_cell[e];
			if (w->dist[i] != d)
				continue; /* reached again more cheaply since */
			settled++;
			int cell = win_cell(rm, w, i), t;
			if (q && cell != src && firing_cell(rm, q, cell, &t) && t > q->best_t) {
				q->best = cell;
				q->best_t = t;
				q->best_d = d;
			}
			struct grid_step s[GRID_MAX_NEIGHBOURS];
			int n = grid_neighbours(g, cell, false, s);
			for (int k = 0; k < n; k++) {
				int c = s[k].cell, nd = d + g->cost[c], j = win_index(rm, w, c);
				if (j < 0 || nd > RANGED_REACH || nd >= w->dist[j])
					continue;
				if (q && (c == q->pc || q->v->occupant[c] >= 0 ||
					  win_turns(rm, &rm->player, c) < q->keep))
					continue;
				w->dist[j] = (uint8_t)nd;
				if (w->from)
					w->from[j] = i;
				if (used >= rm->pool_cap)
					return settled; /* cannot happen (see ranged_map_create) */
				rm->entry_cell[used] = j;
				rm->entry_next[used] = -1;
				if (rm->tail[nd] >= 0)
					rm->entry_next[rm->tail[nd]] = used;
				else
					rm->head[nd] = used;
				rm->tail[nd] = used++;
			}
		}
	}
	return settled;
}

/* The player's turn map, made once per game turn (ai_turn_begin forgets
 * it); counted as a search in the AI's statistics. */
static void player_map(struct ai *ai, int pc)
{
	struct ranged_map *rm = ai->ranged;
	if (rm->src == pc)
		return;
	double t0 = clock_us();
	long settled = win_flood(rm, &rm->player, pc, NULL);
	ai_count_flood(ai, settled, clock_us() - t0);
	rm->src = pc;
}

int ai_player_turns(struct ai *ai, const struct ai_view *v, int cell)
{
	if (!ai->ranged)
		return -1;
	player_map(ai, ai_player_cell(v));
	int t = win_turns(ai->ranged, &ai->ranged->player, cell);
	return t == RANGED_FAR ? -1 : t;
}

/* Leaves the action to the chase rule, dropping a route of this mind's
 * (toward a firing spot, which the chase rule must not follow). */
static bool hand_over(struct mind *mi)
{
	if (mi->post >= 0) {
		mi->post = -1;
		ai_mind_fini(mi);
	}
	return false;
}

/* A route of this mind: route[0] = here, the step taken now is route[1]. */
static struct ai_decision walk(const struct ai_view *v, struct mind *mi, int goal)
{
	mi->route_goal = goal;
	mi->route_pos = 1; /* the rules carry the step out before the next decision */
	mi->route_stuck = false;
	mi->commit_until = 0;
	mi->next_repath = v->turn;
	mi->post = goal;
	return ai_step(mi->route[1]);
}

/*
 * Backing off: the free neighbour the player needs more turns to reach
 * than here, best one in the band that sees the player, then the one the
 * player needs most turns to reach, then the first in grid_neighbours
 * order; -1 when every step would bring it no farther (cornered).
 */
static int back_off(const struct ranged_map *rm, const struct spot_query *q, int here)
{
	int t_here = win_turns(rm, &rm->player, here), best = -1, best_t = -1;
	bool best_fires = false;
	struct grid_step s[GRID_MAX_NEIGHBOURS];
	int n = grid_neighbours(rm->grid, here, false, s);
	for (int k = 0; k < n; k++) {
		int c = s[k].cell, t;
		if (c == q->pc || q->v->occupant[c] >= 0 || win_turns(rm, &rm->player, c) <= t_here)
			continue;
		bool fires = firing_cell(rm, q, c, &t);
		if (best < 0 || (fires && !best_fires) || (fires == best_fires && t > best_t)) {
			best = c;
			best_t = t;
			best_fires = fires;
		}
	}
	return best;
}

bool ai_mind_ranged(struct ai *ai, const struct ai_view *v, int self, struct mind *mi, bool sees,
		    struct ai_decision *d)
{
	const struct monster *m = &v->monsters[self];
	const struct monster_kind *k = m->kind;
	/* it shoots no farther than it sees */
	int range = k->range < k->sight ? k->range : k->sight;
	if (range <= 0 || !ai->ranged)
		return hand_over(mi);
	/* the reload counts the monster's own actions after a shot */
	bool loaded = mi->timer <= 0;
	if (mi->timer > 0)
		mi->timer--;
	/* its back-offs in a row: kept only by another back-off, or by standing
	 * while the player presses it (below) */
	int pressed = mi->pressed;
	mi->pressed = 0;
	/* Not seeing the player, it knows only where it saw it last: the chase
	 * rule walks there, and the line of sight comes back on the way. */
	if (!sees)
		return hand_over(mi);
	const struct grid *g = v->grid;
	int here = ai_monster_cell(v, m), pc = ai_player_cell(v);
	int dist = grid_step_distance(g, here, pc);
	if (dist > range + RANGED_REACH)
		return hand_over(mi); /* no firing spot within its search: come nearer first */
	struct ranged_map *rm = ai->ranged;
	player_map(ai, pc);
	struct spot_query q = { .v = v,
				.pc = pc,
				.px = v->player_x,
				.py = v->player_y,
				.keep = k->keep < range ? k->keep : range,
				.range = range,
				.best = -1,
				.best_t = -1,
				.best_d = -1 };
	int t_here = win_turns(rm, &rm->player, here);
	bool line = dist <= range &&
		    fov_line_of_sight(g, v->opaque, m->x, m->y, v->player_x, v->player_y, range);
	bool adjacent = ai_can_step(g, here, pc);
	enum ai_tell tell = AI_TELL_NONE;

	if (t_here < q.keep) {
		/* too near: back off, or, cornered, fight where it stands.  Driven
		 * back for its kind's patience of its actions in a row, it stands
		 * for as long as the player presses it (rules 15: on square4 a
		 * player walking at it never corners it in a room, and it shoots
		 * again as soon as the player stops). */
		bool stands = k->patience > 0 && pressed >= k->patience;
		int to = stands ? -1 : back_off(rm, &q, here);
		if (stands) {
			mi->pressed = pressed;
			if (pressed == k->patience)
				tell = AI_TELL_RANGED_STAND; /* said once, then pressed is patience + 1 */
		}
		if (to >= 0) {
			mi->pressed = pressed + (pressed < k->patience);
			ai_mind_fini(mi);
			mi->route[0] = here;
			mi->route[1] = to;
			mi->route_len = 2;
			ai->plan_cell = to;
			*d = walk(v, mi, to);
			return true;
		}
		if (adjacent) {
			ai_mind_fini(mi);
			mi->post = -1;
			*d = ai_attack(pc);
			d->tell = tell;
			mi->pressed += tell != AI_TELL_NONE;
			return true;
		}
		if (!line)
			return hand_over(mi);
	}
	if (line) {
		/* in the band (or cornered out of reach of a blow): hold and shoot */
		ai_mind_fini(mi);
		mi->post = here;
		if (adjacent) {
			*d = ai_attack(pc);
		} else if (loaded) {
			mi->timer = k->reload;
			*d = (struct ai_decision){ .act = AI_SHOOT, .cell = pc };
		} else {
			*d = ai_wait();
		}
		d->tell = tell;
		mi->pressed += tell != AI_TELL_NONE;
		return true;
	}

	/* out of range or out of line: the nearest firing spot, by its own
	 * bounded search, and the first step of the way there */
	double t0 = clock_us();
	long settled = win_flood(rm, &rm->spot, here, &q);
	ai_count_flood(ai, settled, clock_us() - t0);
	if (q.best < 0)
		return hand_over(mi);
	int len = 0;
	for (int i = win_index(rm, &rm->spot, q.best); i >= 0 && len < mi->route_cap;
	     i = rm->spot.from[i])
		mi->route[len++] = win_cell(rm, &rm->spot, i);
	if (len < 2 || mi->route[len - 1] != here)
		return hand_over(mi); /* cannot happen: the spot is not here and the route fits */
	for (int a = 0, b = len - 1; a < b; a++, b--) {
		int t = mi->route[a];
		mi->route[a] = mi->route[b];
		mi->route[b] = t;
	}
	ai_mind_fini(mi);
	mi->route_len = len;
	ai->plan_cell = mi->route[1];
	*d = walk(v, mi, q.best);
	return true;
}
