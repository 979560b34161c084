/*
 * mind_ambush.c - the ambush mind (behaviour ambush; docs/ai.md, "Mind:
 * ambush"): the ambusher does not come to the player; it waits where the
 * player must pass, out of its sight, and strikes from there.
 *
 * The chokepoint (shared, made at most once a turn at the first ambusher
 * that asks): walking the player's likely way from its cell to the
 * nearest stairs (mind_stairs.c, downhill on one field made once per
 * level), the first cell where that way enters a narrow place (a doorway,
 * or a cell with walls on two sides: mind_narrow; coming from a cell that
 * is not narrow): the mouth every shortest way from there funnels through.
 * It depends on the player's cell only, so it stays put while the player
 * keeps to its way and moves when the way changes (or once the player is
 * past it).  The lairs: the cells within AMBUSH_LAIR_STEPS of it (by cost,
 * mind_field.c) that are not on the way, not stairs, and out of the line
 * of sight of the last AMBUSH_APPROACH cells of the way before it (within
 * AMBUSH_HIDE cells: the player sees 8), nearest first: a side passage or
 * the cells round the corner.  Each ambusher keeps its lair while it is
 * one, else takes the nearest no other ambusher holds (mind->post).
 *
 * An ambusher that has not noticed the player walks to its lair (its own
 * route, which the `r` overlay draws), then waits (mind->timer counts the
 * turns).  It springs when it sees the player (its own sight: a player
 * who sees farther may spot it first) or when the player comes within
 * `ambush` cells (grid_step_distance: it feels the floor), and from then
 * on hunts as a chaser (the chase rule, its memory); one that loses the
 * player goes back to lying in wait.  One that sees the player before it
 * lies in wait simply hunts.  The tell: springing from its lair the
 * decision carries AI_TELL_AMBUSH_SPRING ("A spider drops from its lair!";
 * unseen, the player hears it), and the cursor describes a waiting
 * one as lying in wait.  Cost: one walk along the player's way and a
 * field of 49 cells with a few hundred lines of sight a turn, shared; each
 * ambusher's own route to its lair is planned once per lair.
 */
#include "ai_internal.h"

#include <math.h>
#include <stdlib.h>

#include "clock.h"
#include "fov.h"
#include "level.h"

#define AMBUSH_APPROACH 12  /* cells of the way before the chokepoint a lair is hidden from */
#define AMBUSH_HIDE 10      /* ... within this many cells (the player sees PLAYER_SIGHT = 8) */
#define AMBUSH_LAIR_STEPS 3 /* a lair lies within this cost of the chokepoint */
#define AMBUSH_AFTER 4      /* cells of the way past the chokepoint that are no lair */
#define LAIR_CELLS ((2 * AMBUSH_LAIR_STEPS + 1) * (2 * AMBUSH_LAIR_STEPS + 1))
#define AMBUSH_WAIT_MAX (1 << 24) /* mind->timer stops counting here */

struct mind_ambush {
	int turn;  /* the game turn it was made for; -1 none */
	int choke; /* the chokepoint; -1 none */
	int n_way; /* the player's way round it: */
	int way[AMBUSH_APPROACH + 1 +
		AMBUSH_AFTER]; /* the approach, the chokepoint, the cells after */
	int n_lairs;
	int lair[LAIR_CELLS];   /* nearest first */
	int owner[LAIR_CELLS];  /* the ambusher whose post it is; -1 none */
	struct mind_field near; /* from the chokepoint, AMBUSH_LAIR_STEPS round it */
};

struct mind_ambush *mind_ambush_create(void)
{
	struct mind_ambush *a = calloc(1, sizeof *a);
	if (!a)
		return NULL;
	a->turn = -1;
	a->choke = -1;
	if (!mind_field_init(&a->near, LAIR_CELLS)) {
		mind_ambush_destroy(a);
		return NULL;
	}
	return a;
}

void mind_ambush_destroy(struct mind_ambush *a)
{
	if (!a)
		return;
	mind_field_fini(&a->near);
	free(a);
}

void mind_ambush_turn(struct mind_ambush *a)
{
	if (a)
		a->turn = -1;
}

/* The chokepoint and the way round it, from the player's cell. */
static void find_choke(struct mind_ambush *a, struct ai *ai, const struct ai_view *v)
{
	const int cells = v->grid->w * v->grid->h;
	int ring[AMBUSH_APPROACH], seen = 0;
	int prev = ai_player_cell(v);
	bool prev_narrow = mind_narrow(v, prev);
	a->choke = -1;
	a->n_way = 0;
	for (int steps = 0; steps < cells; steps++) {
		int c = mind_stairs_next(ai, v, prev);
		if (c < 0)
			return; /* the stairs, or none in reach: no narrow place ahead */
		ring[seen++ % AMBUSH_APPROACH] = prev;
		bool narrow = mind_narrow(v, c);
		if (narrow && !prev_narrow) {
			a->choke = c;
			break;
		}
		prev = c;
		prev_narrow = narrow;
	}
	if (a->choke < 0)
		return;
	int first = seen > AMBUSH_APPROACH ? seen - AMBUSH_APPROACH : 0;
	for (int j = first; j < seen; j++)
		a->way[a->n_way++] = ring[j % AMBUSH_APPROACH];
	a->way[a->n_way++] = a->choke;
	for (int j = 0, c = a->choke; j < AMBUSH_AFTER && (c = mind_stairs_next(ai, v, c)) >= 0;
	     j++)
		a->way[a->n_way++] = c;
}

/* Whether a player on the approach to the chokepoint could see `cell`. */
static bool in_view_of_way(const struct mind_ambush *a, const struct ai_view *v, int cell)
{
	const struct grid *g = v->grid;
	for (int j = 0; j < a->n_way && a->way[j] != a->choke; j++) {
		int w = a->way[j];
		if (grid_step_distance(g, w, cell) <= AMBUSH_HIDE &&
		    fov_line_of_sight(g, v->opaque, grid_x(g, w), grid_y(g, w), grid_x(g, cell),
				      grid_y(g, cell), AMBUSH_HIDE))
			return true;
	}
	return false;
}

/* This turn's chokepoint and lairs (made at the first ambusher that asks). */
static struct mind_ambush *lie_of_land(struct ai *ai, const struct ai_view *v)
{
	struct mind_ambush *a = ai->ambush;
	if (a->turn == v->turn)
		return a;
	a->turn = v->turn;
	a->n_lairs = 0;
	find_choke(a, ai, v);
	if (a->choke < 0)
		return a;
	const struct grid *g = v->grid;
	double t0 = clock_us();
	long settled = mind_field_run(&a->near, g, a->choke, AMBUSH_LAIR_STEPS, &a->choke, 1, -1);
	ai_count_flood(ai, settled, clock_us() - t0);
	float dist[LAIR_CELLS];
	for (int y = a->near.y0; y < a->near.y0 + a->near.h; y++)
		for (int x = a->near.x0; x < a->near.x0 + a->near.w; x++) {
			int c = grid_index(g, x, y);
			float d = mind_field_dist(&a->near, g, c);
			if (!(d > 0) || d > AMBUSH_LAIR_STEPS || v->tiles[c] == TILE_EXIT)
				continue;
			bool on_way = false;
			for (int j = 0; j < a->n_way && !on_way; j++)
				on_way = a->way[j] == c;
			if (on_way || in_view_of_way(a, v, c))
				continue;
			/* nearest first, then by cell: insertion into a list of at most 49 */
			int at = a->n_lairs++;
			while (at > 0 &&
			       (dist[at - 1] > d || (dist[at - 1] == d && a->lair[at - 1] > c))) {
				dist[at] = dist[at - 1];
				a->lair[at] = a->lair[at - 1];
				at--;
			}
			dist[at] = d;
			a->lair[at] = c;
		}
	for (int j = 0; j < a->n_lairs; j++)
		a->owner[j] = -1;
	for (int i = 0; i < v->n_monsters; i++) {
		const struct monster *m = &v->monsters[i];
		if (!m->alive || m->kind->behaviour != MIND_AMBUSH || m->mind.post < 0)
			continue;
		for (int j = 0; j < a->n_lairs; j++)
			if (a->lair[j] == m->mind.post && a->owner[j] < 0)
				a->owner[j] = i;
	}
	return a;
}

/* The lair of ambusher `self`: the one it holds if it still is one, else
 * the nearest free one it can reach; -1 none. */
static int choose_lair(struct mind_ambush *a, struct ai *ai, const struct ai_view *v, int self,
		       int here)
{
	for (int j = 0; j < a->n_lairs; j++)
		if (a->owner[j] == self)
			return a->lair[j];
	for (int j = 0; j < a->n_lairs; j++) {
		int c = a->lair[j], occ = v->occupant[c];
		if (a->owner[j] >= 0 || (occ >= 0 && occ != self) ||
		    ai_regions(ai, v->grid)[c] != ai_regions(ai, v->grid)[here])
			continue;
		a->owner[j] = self;
		return c;
	}
	return -1;
}

/* The first move of a hunt, as the chase rule makes it. */
static struct ai_decision strike(struct ai *ai, const struct ai_view *v, const struct monster *m,
				 struct mind *mi)
{
	const int here = ai_monster_cell(v, m), pc = ai_player_cell(v);
	if (ai_can_step(v->grid, here, pc))
		return ai_attack(pc);
	int next = ai_next_step(ai, v, m, mi, pc);
	if (next < 0 || !ai_can_step(v->grid, here, next))
		return ai_wait();
	if (next == pc)
		return ai_attack(pc);
	mi->route_pos++; /* the rules carry the step out before the next decision */
	return ai_step(next);
}

bool mind_ambush(struct ai *ai, const struct ai_view *v, int self, struct mind *mi, bool sees,
		 struct ai_decision *d)
{
	const struct monster *m = &v->monsters[self];
	const int here = ai_monster_cell(v, m), pc = ai_player_cell(v);
	const bool lurking = mi->post >= 0 || mi->timer > 0;
	if (!ai->ambush || (mi->hunting && !lurking))
		return false; /* a hunter (it sprang, or saw the player first): the chase rule */
	if (sees || grid_step_distance(v->grid, here, pc) <= m->kind->ambush) {
		/* it springs: it saw the player (perception made it hunt), or felt it come near */
		const bool waited = mi->timer > 0;
		mi->post = -1;
		mi->timer = 0;
		ai_mind_fini(mi); /* the route was to the lair */
		if (!sees)
			ai_mind_alert(mi, m->kind, v->player_x, v->player_y, v->turn);
		*d = strike(ai, v, m, mi);
		if (waited)
			d->tell = AI_TELL_AMBUSH_SPRING;
		return true;
	}
	if (mi->hunting) { /* cannot be while lurking, but never lurk while hunting */
		mi->post = -1;
		mi->timer = 0;
		return false;
	}
	struct mind_ambush *a = lie_of_land(ai, v);
	int lair = choose_lair(a, ai, v, self, here);
	if (lair != mi->post) {
		mi->post = lair;
		mi->timer = 0;
		ai_mind_fini(mi); /* a route to another lair, or none */
	}
	if (lair < 0 || lair == here) {
		/* in its lair, or with nowhere better: it lies in wait where it is */
		if (mi->timer < AMBUSH_WAIT_MAX)
			mi->timer++;
		*d = ai_wait();
		return true;
	}
	int next = ai_next_step(ai, v, m, mi, lair);
	if (next < 0 || next == pc || !ai_can_step(v->grid, here, next)) {
		*d = ai_wait();
		return true;
	}
	mi->route_pos++;
	*d = ai_step(next);
	return true;
}
