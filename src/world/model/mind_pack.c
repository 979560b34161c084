/*
 * mind_pack.c - the pack mind (behaviour pack; docs/ai.md, "Mind: pack"):
 * the members of a pack near the player do not queue behind each other on
 * its shortest route, they close in from different sides.  Once per game
 * turn, at the first member that asks, one assignment serves the whole
 * pack:
 *
 *   1. the members are those (of any pack kind) that hunt the player -
 *      they see it, or hunt the cell it stands on - within their kind's
 *      `pack` cells of it (grid_step_distance), in its region; one that
 *      holds a post stays a member as long as a field reaches it;
 *   2. the posts are the cells beside the player from which it can be
 *      attacked, free of other monsters (a member may hold one);
 *   3. the cut-off: when the player stands in a narrow place (a corridor
 *      or a doorway), the first cell of its way toward the nearest stairs
 *      (mind_stairs.c) that no other monster holds is a post too - the
 *      cell beside it on that way, or one farther along - and is reached
 *      from farther off: 3 pack + 4 cells round the player, where the
 *      other posts look pack + 2 cells round it;
 *   4. a field per post (mind_field.c: a Dijkstra over the cells within
 *      that radius of the player, never through the player's cell) gives
 *      every member's cost to every post; then, as long as both are left,
 *      the cheapest pair of a member without a post and a free post is
 *      made (ties: the lower monster, then the post first listed): no
 *      two on one post, the nearest member takes the nearest side, and
 *      one that would queue behind another goes round to another side
 *      instead, or round a loop to close the corridor ahead.  So a
 *      corridor no longer makes them come one at a time.  (Pairing by
 *      the cost of each pair, not members in order of their distance to
 *      any post: with the latter, two members a step apart took the far
 *      post by turns and went back and forth.)
 *
 * A member with a post walks down its post's field (another free cell
 * still downhill when the best one is held), waits on the post, and bites
 * whenever it stands beside the player; a member without one, or farther
 * than `pack`, hunts by the chase rule (the shared distance field).  The
 * posts are a pure cache of the state (made again each turn, from the
 * monsters and the map); each member keeps its own in mind->post (state),
 * and its walk in its route, which the `r` overlay draws.  The tell: a
 * member whose post is new says so through its decision
 * (AI_TELL_PACK_SPREAD: "The jackals spread out."), when two or more
 * members have posts.  Cost a turn: an O(monsters) scan, up to eight
 * fields of at most (2 pack + 5)^2 cells and in a narrow place one of at
 * most (6 pack + 9)^2, the pairing (posts^2 x members); no member
 * searches on its own.  A field is kept from turn to turn while its post,
 * the player's cell and its radius stay and no cost of the grid changed
 * (mind_pack_forget, from ai_cell_changed): while the player stands and
 * fights, no field is made again.
 */
#include "ai_internal.h"

#include <math.h>
#include <stdlib.h>

#include "clock.h"

/* posts: those beside the player, and a cut-off farther along its way */
#define PACK_POSTS (GRID_MAX_NEIGHBOURS + 1)
#define PACK_MAX 8                  /* the `pack` knob's upper bound (bestiary.c) */
#define RING_RADIUS(p) ((p) + 2)    /* the posts' fields reach this far round the player */
#define CUT_RADIUS(p) (3 * (p) + 4) /* the cut-off's field, and the way's cells, this far */
#define FIELD_CAP ((2 * CUT_RADIUS(PACK_MAX) + 1) * (2 * CUT_RADIUS(PACK_MAX) + 1))

struct mind_pack {
	int turn;             /* the game turn of the assignment; -1 none */
	int n_posts;          /* members given a post */
	int n_cand;           /* the posts: */
	int cand[PACK_POSTS]; /* the cells */
	bool taken[PACK_POSTS];
	struct mind_field field[PACK_POSTS]; /* toward each */
	/* what each field was made for (its post, the player's cell, its
	 * radius; -1: nothing): a field is a pure function of those and the
	 * grid's costs, so it is kept while they stay (mind_pack_forget when
	 * a cost changes) */
	int made_post[PACK_POSTS], made_pc[PACK_POSTS], made_reach[PACK_POSTS];
	int max_monsters;
	int scanned;  /* monsters the assignment looked at (slot, post hold for them) */
	int *slot;    /* per monster: its post's field; -1 none, -2 a member without one */
	int *post;    /* per monster: its post */
	int *members; /* the members, by index */
};

struct mind_pack *mind_pack_create(int max_monsters)
{
	struct mind_pack *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->turn = -1;
	mind_pack_forget(p);
	p->max_monsters = max_monsters;
	size_t n = (size_t)max_monsters + 1;
	p->slot = malloc(n * sizeof *p->slot);
	p->post = malloc(n * sizeof *p->post);
	p->members = malloc(n * sizeof *p->members);
	bool ok = p->slot && p->post && p->members;
	for (int f = 0; f < PACK_POSTS; f++)
		ok = mind_field_init(&p->field[f], FIELD_CAP) && ok;
	if (!ok) {
		mind_pack_destroy(p);
		return NULL;
	}
	return p;
}

void mind_pack_destroy(struct mind_pack *p)
{
	if (!p)
		return;
	for (int f = 0; f < PACK_POSTS; f++)
		mind_field_fini(&p->field[f]);
	free(p->slot);
	free(p->post);
	free(p->members);
	free(p);
}

void mind_pack_turn(struct mind_pack *p)
{
	if (p)
		p->turn = -1;
}

void mind_pack_forget(struct mind_pack *p)
{
	if (!p)
		return;
	for (int f = 0; f < PACK_POSTS; f++)
		p->made_post[f] = p->made_pc[f] = p->made_reach[f] = -1;
}

/* A field run, counted in the AI's statistics. */
static void field_run(struct ai *ai, struct mind_field *f, const struct grid *g, int centre,
		      int radius, const int *sources, int n, int blocked)
{
	double t0 = clock_us();
	long settled = mind_field_run(f, g, centre, radius, sources, n, blocked);
	ai_count_flood(ai, settled, clock_us() - t0);
}

/* Whether monster m hunts the player now, as far as the assignment can tell. */
static bool hunts_player(const struct ai *ai, const struct ai_view *v, const struct monster *m,
			 int pc)
{
	if (m->mind.hunting && grid_index(v->grid, m->mind.target_x, m->mind.target_y) == pc)
		return true;
	return ai_sees_player(ai, v, m);
}

/* Step 3: the cut-off post, in a narrow place: the first cell of the
 * player's way to the stairs no other monster holds, or -1. */
static int cut_off(const struct mind_pack *p, struct ai *ai, const struct ai_view *v, int pc,
		   int reach)
{
	if (!mind_narrow(v, pc))
		return -1;
	for (int c = mind_stairs_next(ai, v, pc);
	     c >= 0 && grid_step_distance(v->grid, c, pc) <= reach;
	     c = mind_stairs_next(ai, v, c)) {
		int occ = v->occupant[c];
		if (occ < 0 || (occ < p->scanned && p->slot[occ] != -1))
			return c;
	}
	return -1;
}

/* This turn's posts (made at the first member that asks). */
static struct mind_pack *assign(struct ai *ai, const struct ai_view *v)
{
	struct mind_pack *p = ai->pack;
	if (p->turn == v->turn)
		return p;
	p->turn = v->turn;
	p->n_posts = p->n_cand = 0;
	const struct grid *g = v->grid;
	const int pc = ai_player_cell(v);
	const int n = v->n_monsters < p->max_monsters ? v->n_monsters : p->max_monsters;
	p->scanned = n;
	int members = 0, radius = 0;
	/* 1. the members */
	for (int i = 0; i < n; i++) {
		const struct monster *m = &v->monsters[i];
		p->slot[i] = -1;
		p->post[i] = -1;
		if (!m->alive || m->kind->behaviour != MIND_PACK || m->mind.fleeing)
			continue;
		/* a member joins within `pack` cells; one that holds a post
		 * stays while a field reaches it (going round, it may walk
		 * farther off than that) */
		int here = ai_monster_cell(v, m);
		int reach = m->mind.post >= 0 ? CUT_RADIUS(PACK_MAX) : m->kind->pack;
		const int *region = ai_regions(ai, g);
		if (region[here] != region[pc] || grid_step_distance(g, here, pc) > reach ||
		    !hunts_player(ai, v, m, pc))
			continue;
		p->slot[i] = -2;
		p->members[members++] = i;
		if (m->kind->pack > radius)
			radius = m->kind->pack < PACK_MAX ? m->kind->pack : PACK_MAX;
	}
	if (members == 0)
		return p;
	/* 2. the posts beside the player: free, or held by a member; 3. the
	 * cut-off, which may be one of them */
	struct grid_step s[GRID_MAX_NEIGHBOURS];
	int k = grid_neighbours(g, pc, false, s);
	for (int j = 0; j < k; j++) {
		int occ = v->occupant[s[j].cell];
		if (occ >= 0 && (occ >= n || p->slot[occ] != -2))
			continue;
		p->cand[p->n_cand++] = s[j].cell;
	}
	int cut = cut_off(p, ai, v, pc, CUT_RADIUS(radius)), cut_at = -1;
	for (int r = 0; r < p->n_cand && cut >= 0; r++)
		if (p->cand[r] == cut)
			cut_at = r;
	if (cut >= 0 && cut_at < 0) {
		cut_at = p->n_cand;
		p->cand[p->n_cand++] = cut;
	}
	/* 4. a field per post; then, again and again, the cheapest pair of
	 * a member still without a post and a post still free */
	for (int r = 0; r < p->n_cand; r++) {
		p->taken[r] = false;
		int reach = r == cut_at ? CUT_RADIUS(radius) : RING_RADIUS(radius);
		/* the same post, player's cell and radius as the field already
		 * holds (the player stood still: most turns of a fight): kept */
		if (p->made_post[r] == p->cand[r] && p->made_pc[r] == pc && p->made_reach[r] == reach)
			continue;
		field_run(ai, &p->field[r], g, pc, reach, &p->cand[r], 1, pc);
		p->made_post[r] = p->cand[r];
		p->made_pc[r] = pc;
		p->made_reach[r] = reach;
	}
	/* ties: the lower monster (members[] is by index), then the post listed first */
	for (int round = 0; round < p->n_cand; round++) {
		int best_j = -1, best_r = -1;
		float best_d = INFINITY;
		for (int j = 0; j < members; j++) {
			int i = p->members[j];
			if (p->slot[i] != -2)
				continue;
			int here = ai_monster_cell(v, &v->monsters[i]);
			for (int r = 0; r < p->n_cand; r++) {
				float d = p->taken[r] ? INFINITY
						      : mind_field_dist(&p->field[r], g, here);
				if (d < best_d) {
					best_d = d;
					best_j = j;
					best_r = r;
				}
			}
		}
		if (best_j < 0)
			break; /* no free post any member can reach: the rest chase */
		int i = p->members[best_j];
		p->taken[best_r] = true;
		p->slot[i] = best_r;
		p->post[i] = p->cand[best_r];
		p->n_posts++;
	}
	for (int j = 0; j < members; j++)
		if (p->slot[p->members[j]] == -2)
			p->slot[p->members[j]] = -1;
	return p;
}

/* The member no longer holds a post: its route was the post's, so the
 * chase rule plans anew. */
static void leave_post(struct mind *mi)
{
	if (mi->post >= 0) {
		mi->post = -1;
		ai_mind_fini(mi);
	}
}

bool mind_pack(struct ai *ai, const struct ai_view *v, int self, struct mind *mi, bool sees,
	       struct ai_decision *d)
{
	const struct monster *m = &v->monsters[self];
	if (!mi->hunting || !ai->pack) {
		leave_post(mi);
		return false;
	}
	const struct grid *g = v->grid;
	const int here = ai_monster_cell(v, m), pc = ai_player_cell(v);
	struct mind_pack *p = assign(ai, v);
	int slot = self < p->scanned ? p->slot[self] : -1;
	if (slot < 0) {
		leave_post(mi);
		return false; /* too far, or no post left: the chase rule */
	}
	const struct mind_field *f = &p->field[slot];
	if (isinf(mind_field_dist(f, g, here))) {
		leave_post(mi);
		return false;
	}
	bool fresh = mi->post < 0;
	mi->post = p->post[self];
	mi->route_goal = mi->post;
	mi->route_stuck = false;
	mi->commit_until = 0;
	mi->next_repath = v->turn + 1;
	mi->route_pos = 0;
	bool knows = sees || grid_index(g, mi->target_x, mi->target_y) == pc;
	int next = here == mi->post ? -1 : mind_field_next(f, g, here, v->occupant);
	if (knows && ai_can_step(g, here, pc)) {
		*d = ai_attack(pc);
		next = -1;
	} else if (next >= 0 && next != pc) {
		ai->plan_cell = next;
		*d = ai_step(next);
	} else {
		*d = ai_wait();
		next = -1;
	}
	/* its way to the post, for the `r` overlay: from here, through the step it takes */
	mi->route[0] = here;
	mi->route_len = 1;
	if (next >= 0) {
		mi->route_len += mind_field_route(f, g, next, mi->route + 1, mi->route_cap - 1);
		mi->route_pos = 1; /* the rules carry the step out before the next decision */
	} else if (here != mi->post) {
		mi->route_len = mind_field_route(f, g, here, mi->route, mi->route_cap);
	}
	if (fresh && p->n_posts >= 2)
		d->tell = AI_TELL_PACK_SPREAD;
	return true;
}
