/*
 * crowd.c - the crowd rule `pass` (docs/ai.md, "Crowds: priority
 * passing"): a hunter that follows the shared distance field steps to the
 * best free neighbour nearer its goal, and when the cells nearer are held
 * by other hunters of the same goal it asks them to move on first, the
 * way priority inheritance does in multi-agent path finding (PIBT,
 * Okumura et al.): the monster ahead takes its own best step nearer the
 * goal (and may ask the next one, so a corridor moves as one), or, when it
 * ranks lower (it has waited fewer actions, or stands farther from the
 * goal) and the pusher gains more than it loses, it is pushed aside.  A
 * pushed monster spends its own move and energy (the rules carry the push
 * out: game.c), so speeds hold.  Two hunters of one goal never trade
 * places (a swap gains nothing for the crowd); a monster that hunts
 * nothing, of a kind whose `swap` knob allows it, swaps with the hunter.
 * A detour search is left for a monster that found no step nearer for
 * more than its `wait_detour` actions.  Cells other hunters wanted this
 * turn cost `congestion` hundredths of a step more each for the choice
 * of those who come later, so a crowd spreads over parallel ways.
 *
 * It reads the game through the view and writes only the acting monster's
 * mind and struct ai's scratch (the pushes of this decision, this turn's
 * wants).  It only ever returns a cell from the field's ranking: the
 * planner rule (ai_planned).
 */
#include "ai_internal.h"

#include <math.h>

/* Candidate cells of one mover, best first. */
struct cand {
	int cell;
	double d;     /* field distance */
	double score; /* the step's cost plus d, plus the congestion cost */
};

static int wants(const struct ai *ai, const struct ai_view *v, int cell)
{
	return ai->want_turn[cell] == v->turn ? ai->want[cell] : 0;
}

static void want_add(struct ai *ai, const struct ai_view *v, int cell)
{
	if (ai->want_turn[cell] != v->turn) {
		ai->want_turn[cell] = v->turn;
		ai->want[cell] = 0;
	}
	if (ai->want[cell] < UINT16_MAX)
		ai->want[cell]++;
}

/*
 * The neighbours of `here` a mover of kind k may step to, with a field
 * distance (settled in fl), not the player's cell (*pc_step says whether
 * that is one of them), sorted best first by
 * the cost of the route through them (the step's cost plus the distance
 * from there) plus congestion; only those nearer than `here` unless `all`.
 */
static int candidates(const struct ai *ai, const struct ai_view *v, struct flood_ctx *fl,
		      const struct monster_kind *k, int here, bool all, struct cand *out, bool *pc_step)
{
	struct grid_step s[GRID_MAX_NEIGHBOURS];
	int n = grid_neighbours(v->grid, here, false, s), m = 0, pc = ai_player_cell(v);
	double dh = flood_distance(fl, here), w = k->congestion / 100.0;
	*pc_step = false;
	for (int i = 0; i < n; i++) {
		int c = s[i].cell;
		if (c == pc) {
			*pc_step = true; /* the player's cell: never a step, maybe an attack */
			continue;
		}
		double d = flood_distance(fl, c);
		if (d < 0 || (!all && !(d < dh)))
			continue;
		/* the step's own cost plus the rest: the best start of a route */
		struct cand x = { c, d, d + s[i].step * v->grid->cost[c] + w * wants(ai, v, c) };
		int j = m++;
		while (j > 0 && out[j - 1].score > x.score) {
			out[j] = out[j - 1];
			j--;
		}
		out[j] = x;
	}
	return m;
}

static bool pushed_already(const struct ai *ai, int b)
{
	for (int i = 0; i < ai->push_n; i++)
		if (ai->push_who[i] == b)
			return true;
	return false;
}

/* Whether `cell` is held by the acting monster or one already pushed in
 * this decision (the chain): a pushed monster never steps there. */
static bool in_chain(const struct ai *ai, const struct ai_view *v, int self, int cell)
{
	int o = v->occupant[cell];
	return o >= 0 && (o == self || pushed_already(ai, o));
}

/* Whether monster b hunts `goal` by the shared field, as the acting one
 * does, or will as soon as it acts (it sees the player, whose cell is the
 * goal, but has not looked yet this turn). */
static bool follower(const struct ai *ai, const struct ai_view *v, const struct monster *b, int goal)
{
	const struct mind *mi = &b->mind;
	if (mi->fleeing || mi->asleep || b->kind->behaviour != MIND_CHASE || !ai_crowd_shareable(ai, b->kind))
		return false;
	if (mi->hunting && grid_index(v->grid, mi->target_x, mi->target_y) == goal)
		return true;
	return goal == ai_player_cell(v) && ai_sees_player(ai, v, b);
}

/* Whether monster b hunts nothing and will not when it next acts. */
static bool idle_body(const struct ai *ai, const struct ai_view *v, const struct monster *b)
{
	const struct mind *mi = &b->mind;
	return !mi->hunting && !mi->fleeing && !mi->asleep && !ai_sees_player(ai, v, b);
}

/* Priority: more waited actions, then nearer the goal, then the lower index. */
static bool ranks_above(const struct ai_view *v, struct flood_ctx *fl, int a, int b)
{
	const struct monster *ma = &v->monsters[a], *mb = &v->monsters[b];
	if (ma->mind.waited != mb->mind.waited)
		return ma->mind.waited > mb->mind.waited;
	double da = flood_distance(fl, ai_monster_cell(v, ma)), db = flood_distance(fl, ai_monster_cell(v, mb));
	if (da != db)
		return da < db;
	return a < b;
}

static void push_record(struct ai *ai, int b, int to)
{
	ai->push_who[ai->push_n] = b;
	ai->push_to[ai->push_n] = to;
	ai->push_n++;
}

/*
 * Makes room at `cell` for `pusher` (standing at `from`, gaining `gain` of
 * field distance by the step), on behalf of the acting monster `self`:
 * the monster b there moves on (recorded in push_who/push_to, with the
 * monsters it pushes in turn).  False, with nothing recorded, when it
 * cannot.
 */
static bool make_room(struct ai *ai, const struct ai_view *v, struct flood_ctx *fl, int self, int goal, int cell,
		      int from, double gain, int depth)
{
	int b = v->occupant[cell];
	if (b < 0)
		return true;
	const struct monster *mb = &v->monsters[b];
	if (b == self || depth >= 16 || ai->push_n >= AI_PUSH_MAX || ai->tried[b] == ai->decision || !mb->alive ||
	    mb->energy < 100 || !mb->kind->swap)
		return false;
	ai->tried[b] = ai->decision;
	if (!follower(ai, v, mb, goal)) {
		/* one that hunts nothing (awake, not running) swaps places */
		if (!idle_body(ai, v, mb) || !ai_can_step(v->grid, cell, from))
			return false;
		push_record(ai, b, from);
		return true;
	}
	double db = flood_distance(fl, cell);
	if (db < 0)
		return false;
	struct cand c[GRID_MAX_NEIGHBOURS];
	bool lower = mb->kind->swap >= 2 && ranks_above(v, fl, self, b), pc_step;
	int n = candidates(ai, v, fl, mb->kind, cell, lower, c, &pc_step);
	int mark = ai->push_n;
	for (int i = 0; i < n; i++) {
		int to = c[i].cell;
		/* never into the chain (no swap, no rotation between hunters) */
		if (in_chain(ai, v, self, to) || to == from)
			continue;
		/* a step that is not nearer only for a lower rank, and only when
		 * the pusher gains more than b loses */
		if (!(c[i].d < db) && !(c[i].d - db < gain))
			continue;
		push_record(ai, b, to);
		if (make_room(ai, v, fl, self, goal, to, cell, db - c[i].d, depth + 1))
			return true;
		ai->push_n = mark;
	}
	return false;
}

int ai_pushed(const struct ai *ai, int index)
{
	for (int i = 0; i < ai->push_n; i++)
		if (ai->push_who[i] == index)
			return ai->push_to[i];
	return -1;
}

/* The route the sim's metrics and the editor read: here, then the cell it steps to or waits for. */
static void route_set(struct mind *mi, int here, int next, int goal, int turn)
{
	mi->route[0] = here;
	mi->route[1] = next;
	mi->route_len = next >= 0 ? 2 : 1;
	mi->route_pos = 0;
	mi->route_goal = goal;
	mi->route_stuck = false;
	mi->commit_until = 0;
	mi->next_repath = turn;
}

int ai_crowd_step(struct ai *ai, const struct ai_view *v, int self, struct mind *mi, int goal)
{
	const struct monster *m = &v->monsters[self];
	const struct monster_kind *k = m->kind;
	int here = ai_monster_cell(v, m);
	ai->decision++;
	ai->push_n = 0;
	/* a detour it searched is walked while committed and free */
	if (mi->commit_until > v->turn && mi->route_goal == goal && mi->route_pos + 1 < mi->route_len &&
	    mi->route[mi->route_pos] == here) {
		int next = mi->route[mi->route_pos + 1];
		struct flood_ctx *fl = ai_crowd_field(ai, v, goal, here);
		if (ai_can_step(v->grid, here, next) && next != ai_player_cell(v) &&
		    (v->occupant[next] < 0 || (fl && make_room(ai, v, fl, self, goal, next, here, 0.0, 0)))) {
			ai->plan_cell = next;
			return next;
		}
		/* held by a hunter of the same goal: it waits on its detour, as
		 * the detour rule does; held by one that is not on its way (a
		 * pack at its post, a sleeper), the route is given up */
		if (v->occupant[next] >= 0 && follower(ai, v, &v->monsters[v->occupant[next]], goal))
			return -1;
		mi->commit_until = 0;
	}
	struct flood_ctx *fl = ai_crowd_field(ai, v, goal, here);
	if (!fl) {
		int next = ai_next_step(ai, v, m, mi, goal);
		return next >= 0 && ai_can_step(v->grid, here, next) ? next : -1;
	}
	struct cand c[GRID_MAX_NEIGHBOURS];
	bool pc_step;
	int n = candidates(ai, v, fl, k, here, false, c, &pc_step);
	int pc = ai_player_cell(v);
	double dpc = pc_step ? flood_distance(fl, pc) : -1;
	/* the player beside it, nearer the goal than any other step (or it
	 * stands next to its goal): attack */
	if (dpc >= 0 && dpc < (n > 0 ? c[0].d : flood_distance(fl, here))) {
		ai->plan_cell = pc;
		return pc;
	}
	if (n == 0) {
		route_set(mi, here, -1, goal, v->turn);
		return -1;
	}
	want_add(ai, v, c[0].cell);
	double dh = flood_distance(fl, here);
	bool queue = false; /* a hunter of the same goal holds a cell ahead: it moves on in its turn */
	for (int i = 0; i < n; i++) {
		int to = c[i].cell;
		if (v->occupant[to] >= 0 && !make_room(ai, v, fl, self, goal, to, here, dh - c[i].d, 0)) {
			queue |= follower(ai, v, &v->monsters[v->occupant[to]], goal);
			continue;
		}
		route_set(mi, here, to, goal, v->turn);
		mi->waited = 0;
		ai->plan_cell = to;
		return to;
	}
	/* walled in by the crowd: wait in the queue, and past the knob's
	 * actions search a detour; held back only by monsters that are not
	 * on their way (a pack at its posts, a sleeper, another mind's), a
	 * queue would never move: search the detour at once */
	if (mi->waited < INT32_MAX)
		mi->waited++;
	route_set(mi, here, c[0].cell, goal, v->turn);
	if ((mi->waited > k->wait_detour || !queue) && k->crowd > 0) {
		/* one search per wait_detour + 1 actions at most: the count starts again */
		mi->waited = 0;
		ai_crowd_detour(ai, v, m, mi, goal);
		if (mi->route_pos + 1 < mi->route_len) {
			int next = mi->route[mi->route_pos + 1];
			if (v->occupant[next] < 0 && ai_can_step(v->grid, here, next)) {
				ai->plan_cell = next;
				return next;
			}
		}
		/* the metrics see the cell it waits for */
		route_set(mi, here, c[0].cell, goal, v->turn);
	}
	return -1;
}
