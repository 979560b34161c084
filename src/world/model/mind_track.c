/*
 * mind_track.c - the track mind (MIND_TRACK, the bestiary's `behaviour:
 * track`): a hunter that lost sight of the player follows the player's
 * scent instead of giving up when its memory runs out.
 *
 * The scent is the game's, not this file's: a per-cell map of the turn
 * the player last stood on each cell (struct ai_view's `scent`, stamped
 * by the rules once per game turn; water keeps none), so a trail decays
 * for free: a cell is fresh to a kind while turn - stamp <= its `scent`
 * knob.  A tracker reads only the cells next to it (and, for the `r`
 * overlay, the few cells of the trail ahead of those), so its cost is a
 * handful of cell reads a turn, whatever the level's size; it makes a
 * search only to walk back to where it last saw the player.  The rule,
 * in order (docs/ai.md, "Mind: track"):
 *
 *   1. seeing the player, it hunts as a chaser (returns false) and notes
 *      the turn and the cell: the trail starts there;
 *   2. unseen, it steps to the neighbour with the freshest scent that is
 *      newer than all it knows (the trail it followed, what it saw or
 *      heard last, the cell it stands on): it walks the player's way,
 *      round corners it cannot see past; the newer scent also replaces
 *      a remembered or heard place (it stops hunting that);
 *   3. with no such neighbour, while it hunts a remembered or heard place
 *      the chase rule takes it there; once its memory ran out it walks
 *      back to where it last saw the player while the scent there is
 *      fresh, and sniffs again from there;
 *   4. otherwise the trail is lost: it is idle (waits or wanders).
 *
 * Water and closed doors break the trail: the player leaves no scent in
 * water, a closed door holds none, and a tracker only smells the cells
 * next to it, so it cannot jump a gap.
 */
#include "ai_internal.h"

#include "level.h"

/* Cells of the trail past the next one that a tracker keeps as its
 * route, for the `r` overlay (it re-reads the trail every turn). */
#define TRACK_AHEAD 8

/* The scent stamp of cell c, if fresh to a kind with this `scent` knob
 * now, else -1.  A closed door (a door that blocks sight) holds none. */
static int fresh(const struct ai_view *v, int c, int scent)
{
	int s = v->scent[c];
	if (s < 0 || v->turn - s > scent)
		return -1;
	if (v->tiles[c] == TILE_DOOR && v->opaque[c])
		return -1;
	return s;
}

/* The cell a mover at c may step to whose scent is the freshest and newer
 * than `floor`, or -1; its stamp in *stamp.  Ties go to the first in
 * grid_neighbours order. */
static int freshest_next(const struct ai_view *v, int c, int floor, int scent, int *stamp)
{
	struct grid_step s[GRID_MAX_NEIGHBOURS];
	int n = grid_neighbours(v->grid, c, false, s), best = -1, best_s = floor;
	for (int i = 0; i < n; i++) {
		int st = fresh(v, s[i].cell, scent);
		if (st > best_s) {
			best_s = st;
			best = s[i].cell;
		}
	}
	*stamp = best_s;
	return best;
}

/* The route it will follow if the trail stays as it is: here, next, and
 * up to TRACK_AHEAD cells more, each the freshest newer neighbour of the
 * last (stamps rise strictly, so it never loops). */
static void trail_route(const struct ai_view *v, struct mind *mi, int here, int next, int stamp, int scent)
{
	int len = 0, c = next, st = stamp;
	mi->route[len++] = here;
	mi->route[len++] = next;
	while (len < TRACK_AHEAD + 2 && len < mi->route_cap) {
		int s2;
		int n2 = freshest_next(v, c, st, scent, &s2);
		if (n2 < 0)
			break;
		mi->route[len++] = c = n2;
		st = s2;
	}
	mi->route_len = len;
	mi->route_pos = 0;
	mi->route_goal = mi->route[len - 1];
	mi->route_stuck = false;
	mi->commit_until = 0;
	mi->next_repath = v->turn + 1;
}

/* Steps to `next` (a cell it may step to), or attacks the player there,
 * or waits when another monster holds it. */
static struct ai_decision go(const struct ai_view *v, struct mind *mi, int next)
{
	if (next == ai_player_cell(v))
		return ai_attack(next);
	if (v->occupant[next] >= 0)
		return ai_wait();
	mi->route_pos++; /* the rules carry the step out before the next decision */
	return ai_step(next);
}

bool ai_mind_track(struct ai *ai, const struct ai_view *v, int self, struct mind *mi, bool sees,
		   struct ai_decision *d)
{
	const struct monster *m = &v->monsters[self];
	const int scent = m->kind->scent;
	if (scent <= 0 || !v->scent)
		return false;
	int here = ai_monster_cell(v, m);
	if (sees) {
		/* rule 1 */
		mi->tracking = false;
		mi->trail = v->turn;
		mi->post = ai_player_cell(v);
		return false;
	}
	/* rule 2: only what is newer than all it knows */
	int floor = mi->trail;
	if (mi->hunting && mi->last_seen_turn > floor)
		floor = mi->last_seen_turn;
	int own = fresh(v, here, scent);
	if (own > floor)
		floor = own;
	int stamp;
	int next = freshest_next(v, here, floor, scent, &stamp);
	if (next >= 0) {
		mi->tracking = true;
		mi->trail = stamp;
		mi->post = -1;
		mi->hunting = false; /* the scent is newer than the place it remembered or heard */
		mi->wander = -1;
		trail_route(v, mi, here, next, stamp, scent);
		ai->plan_cell = next;
		*d = go(v, mi, next);
		return true;
	}
	mi->tracking = false;
	/* rule 3: the chase rule takes it to a place it remembers or heard */
	if (mi->hunting)
		return false;
	if (mi->post >= 0 && mi->post != here && fresh(v, mi->post, scent) >= 0) {
		int step = ai_next_step(ai, v, m, mi, mi->post);
		if (step < 0 || !ai_can_step(v->grid, here, step)) {
			if (mi->route_stuck || mi->route_len < 2)
				mi->post = -1;
			*d = ai_wait();
			return true;
		}
		mi->tracking = true;
		if (step == ai_player_cell(v)) {
			*d = ai_attack(step);
		} else {
			mi->route_pos++;
			*d = ai_step(step);
		}
		return true;
	}
	/* rule 4 */
	mi->post = -1;
	return false;
}
