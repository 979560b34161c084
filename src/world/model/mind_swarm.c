/*
 * mind_swarm.c - the swarm mind (behaviour swarm; docs/ai.md, "Mind:
 * swarm"): many weak monsters that will not fight one at a time.  While
 * too few of them are near the player they hold back out of its reach; as
 * soon as enough are near, they all rush it together, from wherever they
 * were holding, so from several sides at once.
 *
 * The rule, for a member that sees the player:
 *   1. near: the members (monsters of any swarm kind, awake and hunting)
 *      whose cell the player could walk to in at most their gather + 2
 *      turns, by the player's turn map (mind_ranged.c: one Dijkstra in
 *      turns round the player a game turn, shared with the ranged mind);
 *      counted once a game turn, at the first member that asks;
 *   2. with at least its kind's `swarm` members near, it rushes: it bites
 *      beside the player, else steps along the chase rule's route (the
 *      shared distance field);
 *   3. with fewer, it holds at `gather` turns from the player: farther,
 *      it comes nearer by the chase rule's route but never inside gather;
 *      at gather it waits; nearer (the player came at it), it backs off to
 *      the free neighbour the player needs most turns to reach, and bites
 *      only when cornered beside the player;
 *   4. but it never holds in vain (rules 14): it rushes as in rule 2 when
 *      the swarm can never gather (fewer members of any swarm kind alive
 *      on the level than its kind's `swarm`), and when it has held near
 *      the player for `patience` of its own actions in a row it rushes
 *      with whoever is there and goes on rushing until it loses sight of
 *      the player; while one near the player rushes so (by the count at
 *      the turn's first member), every member near the player joins it
 *      in the same way, so the swarm comes on together, not one by one.
 *      Before, the last three of five ants held for ever, backing off
 *      faster than the player walks: no fight, and no exploring or
 *      resting with them in view (the bot's games ran out of turns in
 *      such stand-offs).
 * Not seeing the player it leaves the action to the chase rule (to where
 * it saw the player last, or idle).  Its mind's timer says what it did
 * last: n > 0 held near the player n actions in a row, SWARM_RUSH rushed,
 * SWARM_DONE rushed out of patience, so the tells are said as a member
 * changes: AI_TELL_SWARM_HOLD when it starts holding near the player,
 * AI_TELL_SWARM_RUSH when a holding member rushes.
 *
 * The answer: meet them in a doorway or a corridor before they gather (a
 * rush through a narrow way comes one at a time after all), or break them
 * up: every member killed while they hold may leave too few to rush, and
 * a swarm too small to gather comes at the player one by one.
 * Cost a turn: the shared turn map (at most 37 x 37 cells; 37 x 73 on
 * diamond8), one O(monsters) count, and per member a look at its
 * neighbours or the chase rule's step; no search of its own.
 */
#include "ai_internal.h"

/* mind.timer: n > 0 it held near the player at its last n decisions */
#define SWARM_RUSH (-1) /* it rushed */
#define SWARM_DONE (-2) /* it rushed out of patience, and rushes while it sees the player */

/* Rule 1: the members near the player this turn; for rule 4 those alive
 * on the level, asleep or not, and those near that rush out of patience
 * (counted once a turn, at the first member that asks). */
static struct swarm_count swarm_count(struct ai *ai, const struct ai_view *v)
{
	if (ai->swarm_turn == v->turn)
		return ai->swarm;
	struct swarm_count c = { 0, 0, 0 };
	for (int i = 0; i < v->n_monsters; i++) {
		const struct monster *o = &v->monsters[i];
		if (!o->alive || o->kind->behaviour != MIND_SWARM)
			continue;
		c.alive++;
		if (o->mind.asleep || !o->mind.hunting || o->mind.fleeing)
			continue;
		int t = ai_player_turns(ai, v, ai_monster_cell(v, o));
		if (t >= 0 && t <= o->kind->gather + 2) {
			c.near++;
			c.done += o->mind.timer == SWARM_DONE;
		}
	}
	ai->swarm_turn = v->turn;
	ai->swarm = c;
	return c;
}

/* The free neighbour the player needs the most turns to reach, if more
 * than from here; -1 when none is farther. */
static int back_off(struct ai *ai, const struct ai_view *v, int here, int t_here)
{
	struct grid_step s[GRID_MAX_NEIGHBOURS];
	int n = grid_neighbours(v->grid, here, false, s), pc = ai_player_cell(v), best = -1, best_t = t_here;
	for (int i = 0; i < n; i++) {
		int c = s[i].cell;
		if (c == pc || v->occupant[c] >= 0)
			continue;
		int t = ai_player_turns(ai, v, c);
		if (t < 0)
			t = AI_PLAYER_REACH + 1;
		if (t > best_t) {
			best = c;
			best_t = t;
		}
	}
	return best;
}

bool mind_swarm(struct ai *ai, const struct ai_view *v, int self, struct mind *mi, bool sees,
		struct ai_decision *d)
{
	const struct monster *m = &v->monsters[self];
	const struct monster_kind *k = m->kind;
	if (!sees) {
		mi->timer = 0;
		return false;
	}
	int here = ai_monster_cell(v, m), pc = ai_player_cell(v);
	int t_here = ai_player_turns(ai, v, here);
	bool adjacent = ai_can_step(v->grid, here, pc);
	const struct swarm_count c = swarm_count(ai, v);
	/* rule 4: out of patience (its own, or near one that is), it rushes
	 * for as long as it sees the player */
	const bool near_player = t_here >= 0 && t_here <= k->gather + 2;
	bool done = mi->timer == SWARM_DONE || (k->patience > 0 && mi->timer >= k->patience) ||
		    (near_player && c.done > 0);

	if (c.near >= k->swarm || c.alive < k->swarm || done || (t_here < 0 && !ai->ranged)) {
		/* rule 2: the rush, by the chase rule */
		enum ai_tell tell = mi->timer > 0 ? AI_TELL_SWARM_RUSH : AI_TELL_NONE;
		mi->timer = done ? SWARM_DONE : SWARM_RUSH;
		if (adjacent) {
			*d = ai_attack(pc);
		} else {
			int next = ai_next_step(ai, v, m, mi, pc);
			if (next < 0 || !ai_can_step(v->grid, here, next)) {
				*d = ai_wait();
			} else {
				mi->route_pos++;
				*d = ai_step(next);
			}
		}
		d->tell = tell;
		return true;
	}

	/* rule 3: too few, hold at gather */
	if (t_here < 0 || t_here > k->gather) {
		/* far: come nearer, never inside gather */
		int next = ai_next_step(ai, v, m, mi, pc);
		if (next < 0 || !ai_can_step(v->grid, here, next) || next == pc) {
			*d = ai_wait();
		} else {
			int t = ai_player_turns(ai, v, next);
			if (t >= 0 && t < k->gather) {
				*d = ai_wait();
			} else {
				mi->route_pos++;
				*d = ai_step(next);
			}
		}
	} else if (t_here == k->gather) {
		*d = ai_wait();
	} else {
		int to = back_off(ai, v, here, t_here);
		ai_mind_fini(mi);
		ai->plan_cell = to;
		if (to >= 0)
			*d = ai_step(to);
		else if (adjacent)
			*d = ai_attack(pc); /* cornered */
		else
			*d = ai_wait();
	}
	if (near_player && mi->timer <= 0) {
		d->tell = AI_TELL_SWARM_HOLD;
		mi->timer = 1;
	} else if (near_player) {
		mi->timer += mi->timer < k->patience; /* stops at patience: the next decision rushes */
	} else {
		mi->timer = 0;
	}
	return true;
}
