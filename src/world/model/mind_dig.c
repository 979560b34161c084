/*
 * mind_dig.c - the dig mind (docs/ai.md, "Mind: dig"): a tunneller hunts
 * the player through walls.  It plans with the obstacle-penalty fallback
 * itself (DESIGN section 4, rule 6): a wall it could dig costs its step
 * plus the kind's `dig` knob as P, so it digs where the way round costs
 * more than that; the walls no one can dig (the map's edge, '%', void:
 * struct ai's solid[]) are closed to the search.  It never walks through a
 * wall: the walk is cut before the first wall of the route, and standing
 * there it spends its actions digging that wall (AI_DIG), then steps into
 * the rubble like anyone else.
 *
 * It owns the digger's plan and its digging state in struct mind: `post`
 * is the wall it is digging (-1 none) and `timer` the actions it has
 * worked on it.  The rules (game.c) carry out each AI_DIG and turn the
 * wall into rubble when the timer reaches the kind's `dig_turns`; they
 * tell the AI through ai_cell_changed.  It does not own the chase rule
 * (ai.c), which acts for a digger that is not hunting or has `dig 0`.
 *
 * The route it keeps (mind->route) is the walk and, as its last cell, the
 * wall it will dig: the `r` overlay shows where it will break through.
 */
#include "ai_internal.h"

#include "clock.h"
#include "level.h"

static void dig_forget(struct mind *mi)
{
	mi->post = -1;
	mi->timer = 0;
}

static bool diggable(const struct ai_view *v, int cell)
{
	const struct grid *g = v->grid;
	return !g->cost[cell] &&
	       tile_diggable((enum tile)v->tiles[cell], g->w, g->h, grid_x(g, cell), grid_y(g, cell));
}

/*
 * Whether it must plan toward `goal` now: the chase rule's schedule (ai.c,
 * needs_plan).  A due replan toward the same goal is skipped for an exact
 * search (weight 1, no budget): the rest of an optimal route is optimal.
 * On a large level (more than AI_SHARE_MIN x AI_SHARE_CELLS open cells,
 * where the chase keeps its flood while the goal moves: docs/ai.md, "A
 * goal that moves") a digger keeps its route while the goal has not
 * moved far from the one it planned toward (ai_route_fresh: less than
 * AI_STALE_DIST when it is farther than AI_NEAR_DIST, else less than an
 * eighth of its distance): it heads for where the player was a few turns
 * ago, and plans at every due turn once it comes near.  Without it each
 * of 1,000 diggers of a walking player searched every turn.
 */
static bool needs_plan(const struct ai *ai, const struct ai_view *v, const struct monster *m,
		       const struct mind *mi, int goal)
{
	enum ai_route_due due = ai_route_due(v, m, mi, goal);
	if (due != AI_ROUTE_DUE)
		return due == AI_ROUTE_PLAN;
	if (ai_route_fresh(ai, v, m, mi, goal))
		return false;
	return !(m->kind->weight == 1.0 && m->kind->budget <= 0 && mi->route_goal == goal &&
		 mi->commit_until == 0);
}

/*
 * Plans from its cell toward goal: the fallback with P = dig and the solid
 * cells closed, other monsters costing `crowd` extra when `crowd` is set.
 * The route is the walk, then the first wall of the whole route (if any).
 * When solid cells wall the goal off it plans as a chaser would (any
 * detour, walls all alike) and waits at the cut point without digging.
 */
static void plan(struct ai *ai, const struct ai_view *v, const struct monster *m, struct mind *mi, int goal,
		 bool crowd)
{
	const struct monster_kind *k = m->kind;
	int here = ai_monster_cell(v, m);
	/* far from its goal on a large level: round the monster in its way
	 * and back onto its route, never a search across the level */
	if (crowd && ai_far_rejoin(ai, v, k, mi, here, goal))
		return;
	int every = k->repath > 1 ? k->repath : 1;
	mi->next_repath = (v->turn / every + 1) * every;
	mi->commit_until = crowd ? v->turn + (every > AI_CROWD_COMMIT ? every : AI_CROWD_COMMIT) : 0;
	mi->route_goal = goal;
	mi->route_pos = 0;
	mi->route_stuck = false;
	/* far from its goal and digging would not pay (the walk of the
	 * shared flood costs at most `dig` more than the straight distance):
	 * it walks the flood's way, as a chaser does */
	if (!crowd && ai_far_flood(ai, v, k, mi, here, goal, k->dig))
		return;

	struct path_options opt = path_options_default();
	opt.weight = k->weight;
	opt.budget = k->budget;
	opt.fallback = true;
	opt.penalty = k->dig;
	opt.solid = ai->solid;
	if (crowd)
		opt.extra = ai_crowd(ai, v, k->crowd);
	struct path_result r;
	double t0 = clock_us();
	enum path_status st = path_find(ai->path, here, goal, &opt, &r);
	ai_count_search(ai, &r, clock_us() - t0);
	bool walled = st == PATH_NO_ROUTE;
	if (walled) {
		opt.penalty = 0;
		opt.solid = NULL;
		t0 = clock_us();
		st = path_find(ai->path, here, goal, &opt, &r);
		ai_count_search(ai, &r, clock_us() - t0);
	}
	if (st == PATH_BAD_INPUT || r.len < 1) {
		mi->route[0] = here;
		mi->route_len = 1;
		mi->route_stuck = true;
		return;
	}
	int len = r.len < mi->route_cap ? r.len : mi->route_cap;
	for (int i = 0; i < len; i++)
		mi->route[i] = r.cells[i];
	bool wall = !walled && r.first_blocked >= 0 && len == r.len && len < mi->route_cap;
	if (wall)
		mi->route[len++] = r.first_blocked;
	mi->route_len = len;
	mi->route_stuck = walled || (!wall && len == r.len && !r.reached);
}

/* A turn of work on `wall` (the first of a new wall sets the timer to 1). */
static struct ai_decision dig(struct mind *mi, int wall)
{
	if (mi->post != wall) {
		mi->post = wall;
		mi->timer = 0;
	}
	mi->timer++;
	return (struct ai_decision){ .act = AI_DIG, .cell = wall };
}

/*
 * The route's next cell is the wall `wall`.  Digging it is the way in when
 * the step into it will be legal once it is rubble.  A long step (a
 * square8 diagonal, a diamond8 corner step) needs both cells beside it
 * open (the corner rule, which the fallback's hypothetical steps into
 * walls do not check): with one of them open it steps there first, and
 * the wall is then a short step away; with both blocked it digs the first
 * it can.  When neither works (both beside it solid: rare) it waits there
 * as at a cut point, until its goal moves.
 */
static struct ai_decision into_wall(struct ai *ai, const struct ai_view *v, struct mind *mi, int here, int wall)
{
	const struct grid *g = v->grid;
	struct grid_step s[GRID_MAX_NEIGHBOURS];
	int n = grid_adjacent(g, here, s);
	bool long_step = false;
	for (int i = 0; i < n; i++)
		if (s[i].cell == wall)
			long_step = s[i].step > 1.0;
	int target = wall;
	if (long_step) {
		int open = -1, closed = -1;
		bool blocked = false;
		for (int i = 0; i < n; i++) {
			int f = s[i].cell;
			if (s[i].step > 1.0 || !grid_is_adjacent(g, f, wall))
				continue; /* not one of the two cells beside the step */
			if (g->cost[f]) {
				if (open < 0)
					open = f;
			} else {
				blocked = true;
				if (closed < 0 && diggable(v, f))
					closed = f;
			}
		}
		if (blocked && open >= 0) {
			if (v->occupant[open] >= 0 || open == ai_player_cell(v))
				return ai_wait();
			mi->route_len = 0; /* off the route: plan again from there */
			ai->plan_cell = open;
			return ai_step(open);
		}
		if (blocked)
			target = closed;
	}
	if (target < 0 || !diggable(v, target)) {
		mi->route_len = mi->route_pos + 1; /* a cut point: wait here until the goal moves */
		mi->route_stuck = true;
		return ai_wait();
	}
	return dig(mi, target);
}

bool ai_mind_dig(struct ai *ai, const struct ai_view *v, int self, struct mind *mi, bool sees,
		 struct ai_decision *d)
{
	const struct monster *m = &v->monsters[self];
	const struct monster_kind *k = m->kind;
	int here = ai_monster_cell(v, m), pc = ai_player_cell(v);
	if (k->dig <= 0 || !mi->hunting) {
		dig_forget(mi);
		return false; /* the chase rule: it walks, or waits */
	}
	if (sees && ai_can_step(v->grid, here, pc)) {
		dig_forget(mi);
		*d = ai_attack(pc);
		return true;
	}
	/* A wall begun is finished before anything but a bite: no search
	 * while it digs, and the player learns where it will come through. */
	if (mi->post >= 0) {
		if (diggable(v, mi->post) && grid_is_adjacent(v->grid, here, mi->post)) {
			*d = dig(mi, mi->post);
			return true;
		}
		bool dug = v->grid->cost[mi->post] != 0;
		dig_forget(mi);
		if (dug)
			mi->route_len = 0; /* the wall is rubble now: plan over the new map */
	}
	int goal = grid_index(v->grid, mi->target_x, mi->target_y);
	if (needs_plan(ai, v, m, mi, goal))
		plan(ai, v, m, mi, goal, false);
	if (mi->route_pos + 1 >= mi->route_len) {
		*d = ai_wait();
		return true;
	}
	int next = mi->route[mi->route_pos + 1];
	if (next != pc && v->occupant[next] >= 0) {
		/* held by another monster: a detour with crowd costs, as the
		 * chase rule's (ai.c rule 4), or wait; on a large level at most
		 * one detour per commit window, as the chase rule's */
		bool again = ai->share_need > AI_SHARE_MIN && mi->commit_until > v->turn;
		if (k->crowd > 0 && !again)
			plan(ai, v, m, mi, goal, true);
		else if (again) {
			*d = ai_wait();
			return true;
		}
		next = mi->route_pos + 1 < mi->route_len ? mi->route[mi->route_pos + 1] : -1;
		if (k->crowd <= 0 || next < 0 || (next != pc && v->occupant[next] >= 0)) {
			*d = ai_wait();
			return true;
		}
	}
	if (!v->grid->cost[next]) {
		*d = into_wall(ai, v, mi, here, next);
		return true;
	}
	if (!ai_can_step(v->grid, here, next)) {
		*d = ai_wait();
		return true;
	}
	if (next == pc) {
		*d = ai_attack(pc);
		return true;
	}
	mi->route_pos++; /* the rules carry the step out before the next decision */
	ai->plan_cell = next;
	*d = ai_step(next);
	return true;
}
