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
 * of those who come later, and for kinds with that knob the plan ranks
 * steps by a congestion field (cong_make: each monster on the way costs
 * the knob), so a crowd spreads over parallel ways.
 * Since rules version 6 the steps of a turn are planned once, for every
 * hunter of the goal with another monster beside it, in order of
 * priority rather than in the order they act (plan_make below): the
 * monster that waited longest gets the cell that frees up; since rules
 * version 8 those the front reaches (front_make) come first.
 *
 * It reads the game through the view and writes only the acting monster's
 * mind and struct ai's scratch (the pushes of this decision, this turn's
 * wants, this turn's plan: a cache of one turn, made again each turn from
 * the state, so no state of its own).  It only ever returns a cell from the field's ranking: the
 * planner rule (ai_planned).
 */
#include "ai_internal.h"
#include "clock.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
static double cong_dist(const struct crowd_plan *p, int cell);

static double field_distance(struct flood_ctx *fl, const struct mind_field *front, const struct crowd_plan *cong,
			     const struct grid *g, int cell)
{
	if (cong)
		return cong_dist(cong, cell);
	if (!front)
		return flood_distance(fl, cell);
	float d = mind_field_dist(front, g, cell);
	return isinf(d) ? -1.0 : (double)d;
}

static int candidates_in(const struct ai *ai, const struct ai_view *v, struct flood_ctx *fl,
			 const struct mind_field *front, const struct crowd_plan *cong, const struct monster_kind *k,
			 int here, bool all, struct cand *out, bool *pc_step)
{
	struct grid_step s[GRID_MAX_NEIGHBOURS];
	int n = grid_neighbours(v->grid, here, false, s), m = 0, pc = ai_player_cell(v);
	/* the distances of the neighbours, then of here: the shared field's at one call */
	double dist[GRID_MAX_NEIGHBOURS + 1];
	if (!cong && !front) {
		int cells[GRID_MAX_NEIGHBOURS + 1];
		for (int i = 0; i < n; i++)
			cells[i] = s[i].cell;
		cells[n] = here;
		flood_distances(fl, cells, n + 1, dist);
	} else {
		for (int i = 0; i < n; i++)
			dist[i] = field_distance(fl, front, cong, v->grid, s[i].cell);
		dist[n] = field_distance(fl, front, cong, v->grid, here);
	}
	double dh = dist[n], w = k->congestion / 100.0;
	*pc_step = false;
	for (int i = 0; i < n; i++) {
		int c = s[i].cell;
		if (c == pc) {
			*pc_step = true; /* the player's cell: never a step, maybe an attack */
			continue;
		}
		double d = dist[i];
		if (d < 0 || (!all && !(d < dh)))
			continue;
		/* the step's own cost plus the rest: the best start of a route */
		struct cand x = { c, d, d + s[i].step * v->grid->cost[c] + (w > 0 ? w * wants(ai, v, c) : 0) };
		int j = m++;
		while (j > 0 && out[j - 1].score > x.score) {
			out[j] = out[j - 1];
			j--;
		}
		out[j] = x;
	}
	return m;
}

static const struct crowd_plan *cong_for(const struct ai *ai, const struct ai_view *v, const struct flood_ctx *fl,
					 const struct monster_kind *k, int here);

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
		/* one that hunts nothing (awake, not running) swaps places with
		 * the acting monster only: down a chain it would take the cell
		 * of a pushed monster the acting one is about to enter */
		if (depth > 0 || !idle_body(ai, v, mb) || !ai_can_step(v->grid, cell, from))
			return false;
		push_record(ai, b, from);
		return true;
	}
	const struct crowd_plan *cg = cong_for(ai, v, fl, mb->kind, cell);
	double db = field_distance(fl, NULL, cg, v->grid, cell);
	if (db < 0)
		return false;
	struct cand c[GRID_MAX_NEIGHBOURS];
	bool lower = mb->kind->swap >= 2 && ranks_above(v, fl, self, b), pc_step;
	int n = candidates_in(ai, v, fl, NULL, cg, mb->kind, cell, lower, c, &pc_step);
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

/*
 * The turn's plan (priority inheritance over the whole crowd, PIBT): at
 * the first decision of a turn for a goal, every hunter of that goal that
 * will act this turn (an agent) is given its step in order of priority
 * (most waited actions first, then nearest the goal, then the lower
 * index: agents_sort; those the front reaches first: front_first), so the
 * monster that waited longest gets the cell that frees up,
 * and one whose way is held by an agent not yet planned makes that one
 * plan first (inheriting its priority), down a chain, as the local rule
 * does.  An agent is given a strictly nearer cell, or, pushed aside by
 * one of higher priority (swap 2), a free cell no nearer; it enters a
 * held cell only when the holder is planned to leave it, and a cell is
 * given to one agent only, so no two trade places and no chain comes back
 * on itself (each step into a held cell is strictly downhill).  When an
 * agent acts, it takes its planned cell, pushing the agents on its way
 * along their own planned steps (they spend their own energy); where the
 * turn changed what the plan saw, it decides by the local rule below.
 */
struct crowd_agent {
	uint32_t key; /* agent_key: the priority, smaller first */
	int i;
};

struct crowd_plan {
	unsigned id;                 /* the current plan's stamp, 0 none */
	int turn, goal;              /* what it was made for */
	const struct flood_ctx *fl;  /* the field it ranked by */
	unsigned *mark;              /* max_monsters: the plan a monster is an agent of, not yet acted on */
	int *from, *to, *len;        /* max_monsters: its cell, its planned cell (-2 not yet planned), chain length */
	int *best;                   /* max_monsters: an agent that stays: the cell it waits for, -1 none */
	int *left;                   /* max_monsters: an agent's left_cell, read once in the order of
	                                the monsters (its route is a cache miss in the order of priority) */
	bool *queue;                 /* max_monsters: that cell or another nearer is held by a hunter of the goal */
	unsigned *held;              /* cells: the plan that gave the cell away (or kept an agent on it) */
	struct crowd_agent *agents, *tmp; /* max_monsters: the agents in order of priority; the sort's */
	int n;
	bool congestion;             /* an agent's kind has a congestion knob: wants are counted */
	struct mind_field front;     /* the front: distances to the free cells beside the goal */
	bool front_on;               /* made this turn: some cells beside the goal free, some held */
	/* The congestion field (cong_make): made on first use, cells long */
	int cells;
	float *cdist;                /* distance to the goal, each monster on the way adding the knob */
	unsigned *cstamp;            /* cdist[c] is settled when cstamp[c] == cong_id */
	unsigned *cqueued;           /* c is or was in the heap when cqueued[c] == cong_id */
	int *heap, *hpos;            /* an indexed binary heap of cells by cdist */
	unsigned cong_id;            /* the stamp of this turn's field; 0 none */
	int cong_turn;               /* the turn it was made (-1 none) */
	double cong_w;               /* its weight: steps per monster */
};

struct crowd_plan *crowd_plan_create(int cells, int max_monsters)
{
	struct crowd_plan *p = calloc(1, sizeof *p);
	size_t m = max_monsters > 0 ? (size_t)max_monsters : 1, c = cells > 0 ? (size_t)cells : 1;
	if (!p)
		return NULL;
	p->mark = calloc(m, sizeof *p->mark);
	p->from = malloc(m * sizeof *p->from);
	p->to = malloc(m * sizeof *p->to);
	p->len = malloc(m * sizeof *p->len);
	p->best = malloc(m * sizeof *p->best);
	p->left = malloc(m * sizeof *p->left);
	p->queue = malloc(m * sizeof *p->queue);
	p->agents = malloc(m * sizeof *p->agents);
	p->tmp = malloc(m * sizeof *p->tmp);
	/* calloc: on a large level only the pages round the crowd are made */
	p->held = calloc(c, sizeof *p->held);
	p->turn = p->goal = p->cong_turn = -1;
	p->cells = (int)c;
	bool front = mind_field_init(&p->front, (2 * AI_FRONT_RADIUS + 1) * (2 * AI_FRONT_RADIUS + 1));
	if (!front || !p->mark || !p->from || !p->to || !p->len || !p->best || !p->left || !p->queue || !p->agents || !p->tmp || !p->held) {
		crowd_plan_destroy(p);
		return NULL;
	}
	return p;
}

/* Writes one byte of every page of [p, p + len), so that the kernel maps
 * them now (a memset of calloc'd memory may be dropped by the compiler). */
static void pages_touch(void *p, size_t len)
{
	volatile unsigned char *b = p;
	for (size_t i = 0; i < len; i += 4096)
		b[i] = b[i];
}

/*
 * The crowd's per-cell arrays and the monsters' route buffers are first
 * written on the first turns of a crowd, wherever its monsters stand: on
 * a 512x512 map with 1,000 chasers about 2.5 MB, 3-5 ms of page faults on
 * this machine class (bigmem.h: about 3.4 ms a MiB) on the first turns of
 * a level.  On a map of up to AI_PRETOUCH_CELLS cells their pages are
 * mapped now, when the level loads, as flood_create does its own; on a
 * larger one they stay lazy (only the pages round the crowd are made).
 */
#define AI_PRETOUCH_CELLS (1 << 20)
#define AI_PRETOUCH_ROUTES ((size_t)16 << 20) /* bytes of route buffers mapped now at most */

void ai_crowd_pretouch(struct ai *ai, const struct grid *grid)
{
	const size_t n = (size_t)grid->w * (size_t)grid->h;
	const size_t routes = ((size_t)ai->max_monsters + 1) * AI_ROUTE_MAX * sizeof *ai->route_cells;
	if (routes <= AI_PRETOUCH_ROUTES)
		pages_touch(ai->route_cells, routes);
	if (n > AI_PRETOUCH_CELLS)
		return;
	pages_touch(ai->crowd, n * sizeof *ai->crowd);
	pages_touch(ai->want, n * sizeof *ai->want);
	pages_touch(ai->want_turn, n * sizeof *ai->want_turn); /* calloc'd zero, no longer filled */
	if (ai->cplan)
		pages_touch(ai->cplan->held, n * sizeof *ai->cplan->held);
}

void crowd_plan_destroy(struct crowd_plan *p)
{
	if (!p)
		return;
	free(p->mark);
	free(p->from);
	free(p->to);
	free(p->len);
	free(p->best);
	free(p->left);
	free(p->queue);
	free(p->agents);
	free(p->tmp);
	free(p->held);
	free(p->cdist);
	free(p->cstamp);
	free(p->cqueued);
	free(p->heap);
	free(p->hpos);
	mind_field_fini(&p->front);
	free(p);
}

/*
 * The congestion field (the `congestion` knob, docs/ai.md "Crowds",
 * step 4): made once a turn, when an agent's kind has the knob, for the
 * plan's goal: a Dijkstra from the goal over the costs of the shared
 * field, where entering a cell held by a monster costs `congestion`
 * hundredths of a step more (the largest knob among the agents).  A queue
 * in one corridor makes the way through it longer by its length times the
 * knob, so the monsters behind take a parallel way a few steps longer
 * once the queue in the short one is long enough.  It settles cells until
 * every agent's cell is settled; a monster whose cell it did not reach
 * ranks by the shared field.
 */
static double cong_dist(const struct crowd_plan *p, int cell)
{
	return p->cstamp[cell] == p->cong_id ? (double)p->cdist[cell] : -1.0;
}

static const struct crowd_plan *cong_for(const struct ai *ai, const struct ai_view *v, const struct flood_ctx *fl,
					 const struct monster_kind *k, int here)
{
	const struct crowd_plan *p = ai->cplan;
	if (!p || k->congestion <= 0 || p->cong_turn != v->turn || p->turn != v->turn || p->fl != fl ||
	    p->cstamp[here] != p->cong_id)
		return NULL;
	return p;
}

static void heap_swap(struct crowd_plan *p, int i, int j)
{
	int a = p->heap[i], b = p->heap[j];
	p->heap[i] = b;
	p->heap[j] = a;
	p->hpos[b] = i;
	p->hpos[a] = j;
}

/* Cell order in the heap: nearer first, then the lower cell (a total
 * order, so the field does not depend on the heap's history). */
static bool heap_less(const struct crowd_plan *p, int a, int b)
{
	return p->cdist[a] != p->cdist[b] ? p->cdist[a] < p->cdist[b] : a < b;
}

static void heap_up(struct crowd_plan *p, int i)
{
	while (i > 0 && heap_less(p, p->heap[i], p->heap[(i - 1) / 2])) {
		heap_swap(p, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static void heap_down(struct crowd_plan *p, int i, int n)
{
	for (;;) {
		int l = 2 * i + 1, best = i;
		if (l < n && heap_less(p, p->heap[l], p->heap[best]))
			best = l;
		if (l + 1 < n && heap_less(p, p->heap[l + 1], p->heap[best]))
			best = l + 1;
		if (best == i)
			return;
		heap_swap(p, i, best);
		i = best;
	}
}

static bool cong_alloc(struct crowd_plan *p)
{
	if (p->cdist)
		return true;
	size_t c = (size_t)p->cells;
	p->cdist = malloc(c * sizeof *p->cdist);
	p->cstamp = calloc(c, sizeof *p->cstamp);
	p->cqueued = calloc(c, sizeof *p->cqueued);
	p->heap = malloc(c * sizeof *p->heap);
	p->hpos = malloc(c * sizeof *p->hpos);
	if (p->cdist && p->cstamp && p->cqueued && p->heap && p->hpos)
		return true;
	free(p->cdist);
	free(p->cstamp);
	free(p->cqueued);
	free(p->heap);
	free(p->hpos);
	p->cdist = NULL;
	p->cstamp = p->cqueued = NULL;
	p->heap = p->hpos = NULL;
	return false;
}

/* Makes the congestion field of weight w (steps per monster) toward
 * `goal` until the cells of the plan's agents are settled. */
static void cong_make(struct ai *ai, const struct ai_view *v, struct crowd_plan *p, int goal, double w)
{
	p->cong_turn = -1;
	if (!cong_alloc(p))
		return;
	if (++p->cong_id == 0) {
		memset(p->cstamp, 0, (size_t)p->cells * sizeof *p->cstamp);
		memset(p->cqueued, 0, (size_t)p->cells * sizeof *p->cqueued);
		p->cong_id = 1;
	}
	double t0 = clock_us();
	unsigned id = p->cong_id;
	int left = p->n; /* agents' cells not yet settled (the agents to plan, each on its own cell) */
	int hn = 0;
	long settled = 0;
	p->cdist[goal] = 0.0f;
	p->cqueued[goal] = id;
	p->heap[hn] = goal;
	p->hpos[goal] = hn++;
	while (hn > 0 && left > 0) {
		int u = p->heap[0];
		heap_swap(p, 0, --hn);
		heap_down(p, 0, hn);
		p->cstamp[u] = id;
		settled++;
		int o = v->occupant[u];
		if (o >= 0 && o < ai->max_monsters && p->mark[o] == p->id && p->to[o] == -2 && p->from[o] == u)
			left--;
		/* entering u from a neighbour: its cost, and the knob when a monster holds it */
		double held = u != goal && o >= 0 ? w : 0.0;
		struct grid_step s[GRID_MAX_NEIGHBOURS];
		int n = grid_neighbours(v->grid, u, false, s);
		for (int i = 0; i < n; i++) {
			int x = s[i].cell;
			if (p->cstamp[x] == id)
				continue;
			float d = (float)(p->cdist[u] + s[i].step * v->grid->cost[u] + held);
			if (p->cqueued[x] != id) {
				p->cqueued[x] = id;
				p->cdist[x] = d;
				p->heap[hn] = x;
				p->hpos[x] = hn++;
				heap_up(p, hn - 1);
			} else if (d < p->cdist[x]) {
				p->cdist[x] = d;
				heap_up(p, p->hpos[x]);
			}
		}
	}
	ai_count_flood(ai, settled, clock_us() - t0);
	p->cong_turn = v->turn;
}

static int goal_of(const struct crowd_plan *p)
{
	return p->goal;
}

static bool agent_of(const struct crowd_plan *p, int b)
{
	return p->mark[b] == p->id;
}

/* The cell monster mi's last step left while it hunted `goal` and stood
 * at `here` since (its route: route_set, the caller advanced route_pos),
 * or -1.  It never steps back there: no A-B-A (the oscillations of
 * docs/sim.md) when the way it went round frees behind it. */
static bool plan_agent(struct ai *ai, const struct ai_view *v, struct crowd_plan *p, struct flood_ctx *fl, int a,
		       int pusher, int pusher_cell, double gain, int depth);

static int left_cell(const struct mind *mi, int here, int goal)
{
	if (mi->route_goal != goal || mi->route_pos < 1 || mi->route_pos >= mi->route_len ||
	    mi->route[mi->route_pos] != here)
		return -1;
	return mi->route[mi->route_pos - 1];
}

/* The steps of plan_agent over one ranking c[0..n) whose distance at
 * `here` is dh; with `front`, a step must also be no farther by it. */
static bool plan_steps(struct ai *ai, const struct ai_view *v, struct crowd_plan *p, struct flood_ctx *fl, int a,
		       int pusher_cell, double gain, int depth, const struct cand *c, int n, double dh,
		       const struct mind_field *front, int left, bool *local)
{
	int here = p->from[a];
	double fh = front ? (double)mind_field_dist(front, v->grid, here) : 0;
	for (int i = 0; i < n; i++) {
		int to = c[i].cell, b = v->occupant[to];
		bool nearer = c[i].d < dh;
		/* a cell nearer given to another agent, or one that stays: a hunter will hold it */
		p->queue[a] |= nearer && p->held[to] == p->id;
		if (to == pusher_cell || to == left || p->held[to] == p->id || (!nearer && !(c[i].d - dh < gain)))
			continue;
		if (front && !((double)mind_field_dist(front, v->grid, to) <= fh))
			continue; /* away from the free cells at the front */
		if (b >= 0) {
			p->queue[a] |= nearer && (agent_of(p, b) || follower(ai, v, &v->monsters[b], goal_of(p)));
			*local |= pusher_cell < 0 && nearer && !agent_of(p, b) && v->monsters[b].kind->swap >= 1 &&
				  idle_body(ai, v, &v->monsters[b]);
			/* a held cell only downhill, and only from an agent that leaves it */
			if (!nearer || !agent_of(p, b) || v->monsters[b].kind->swap < 1)
				continue;
			if (p->to[b] == -2) {
				if (depth + 1 >= AI_PUSH_MAX)
					continue;
				p->held[to] = p->id; /* a's, or b's if b stays */
				if (!plan_agent(ai, v, p, fl, b, a, here, dh - c[i].d, depth + 1))
					continue;
			} else if (p->to[b] == -1 || p->to[b] == to || p->len[b] + 1 >= AI_PUSH_MAX) {
				continue;
			}
			p->held[to] = p->id;
			p->to[a] = to;
			p->len[a] = p->len[b] + 1;
			return true;
		}
		p->held[to] = p->id;
		p->to[a] = to;
		p->len[a] = 1;
		return true;
	}
	return false;
}

/* Plans agent a (not yet planned), pushed by the agent at `pusher` (-1:
 * none) that gains `gain` by taking a's cell; true when a moves.  Its
 * step is strictly nearer the goal by the shared field (and, at the
 * front, no farther from its free cells); with none, at the front, one
 * strictly nearer a free cell beside the goal (round those that attack);
 * never back onto the cell its last step left. */
static bool plan_agent(struct ai *ai, const struct ai_view *v, struct crowd_plan *p, struct flood_ctx *fl, int a,
		       int pusher, int pusher_cell, double gain, int depth)
{
	const struct monster *m = &v->monsters[a];
	int here = p->from[a];
	p->to[a] = here; /* planned: it stays unless a step is found */
	p->len[a] = 0;
	struct cand c[GRID_MAX_NEIGHBOURS];
	bool pc_step, aside = pusher >= 0 && m->kind->swap >= 2 && ranks_above(v, fl, pusher, a);
	/* the front (front_make) when it reaches here: it ranks the steps */
	const struct mind_field *front =
		p->front_on && !isinf(mind_field_dist(&p->front, v->grid, here)) ? &p->front : NULL;
	const struct crowd_plan *cg = front ? NULL : cong_for(ai, v, fl, m->kind, here);
	int n = candidates_in(ai, v, fl, front, cg, m->kind, here, aside, c, &pc_step);
	if (n > 0 && pusher < 0 && p->congestion)
		want_add(ai, v, c[0].cell); /* congestion: those planned later see it */
	int left = p->left[a];
	bool local = false; /* a way the plan does not see: a swap with one that hunts nothing */
	p->best[a] = n > 0 ? c[0].cell : -1;
	p->queue[a] = false;
	if (plan_steps(ai, v, p, fl, a, pusher_cell, gain, depth, c, n,
		       field_distance(fl, front, cg, v->grid, here), NULL, left, &local))
		return true;
	p->held[here] = p->id;
	if (local)
		p->to[a] = -1; /* it stays in the plan; its own action decides by the local rule */
	return false;
}

/*
 * Sorts the agents by priority: more waited actions (up to 255), then
 * nearer the goal (in 1/16 steps), then the lower index; a radix sort of
 * 32-bit keys, stable, so equal keys keep the order of the index (a turn
 * allocates nothing, and 10,000 agents cost a few passes).
 */
static uint32_t agent_key(int waited, double d)
{
	uint32_t w = waited < 255 ? (uint32_t)(waited < 0 ? 0 : waited) : 255;
	double q = d * 16.0;
	uint32_t dq = q < (double)0xffffff ? (uint32_t)q : 0xffffffu;
	return (255u - w) << 24 | dq;
}

static void agents_sort(struct crowd_agent *a, struct crowd_agent *tmp, int n)
{
	for (int shift = 0; shift < 32; shift += 8) {
		int count[257] = { 0 };
		for (int i = 0; i < n; i++)
			count[((a[i].key >> shift) & 255u) + 1]++;
		if (count[((a[0].key >> shift) & 255u) + 1] == n)
			continue; /* one digit for all: nothing moves */
		for (int b = 0; b < 256; b++)
			count[b + 1] += count[b];
		for (int i = 0; i < n; i++)
			tmp[count[(a[i].key >> shift) & 255u]++] = a[i];
		memcpy(a, tmp, (size_t)n * sizeof *a);
	}
}

/* Whether no monster stands beside `cell`: no one can push it or wait
 * for its cell, so its own action decides by the local rule, at no cost to
 * the plan (most of 10,000 chasers on a 512x512 map).  Its step may still
 * meet an agent's at a free cell between them: the one that acts second
 * finds the cell held and decides by the local rule. */
static bool alone(const struct ai_view *v, int cell)
{
	struct grid_step s[GRID_MAX_NEIGHBOURS];
	int n = grid_neighbours(v->grid, cell, false, s);
	for (int i = 0; i < n; i++)
		if (v->occupant[s[i].cell] >= 0)
			return false;
	return true;
}

/*
 * The front (rules version 7): when the goal is the player's cell and some
 * of the cells beside it are held (those monsters attack and stay) while
 * others are free, the distances, within AI_FRONT_RADIUS of the goal, to
 * the nearest free one, never through a held one.  An agent the front
 * reaches ranks its steps by it, so the monsters behind those that attack
 * walk round them to a free cell instead of queueing behind one for the
 * rest of the fight.  With every cell beside the goal held, or none,
 * there is no front and the shared field decides.
 */
static void front_make(struct ai *ai, const struct ai_view *v, struct crowd_plan *p, int goal)
{
	p->front_on = false;
	if (goal != ai_player_cell(v))
		return;
	struct grid_step s[GRID_MAX_NEIGHBOURS];
	int n = grid_neighbours(v->grid, goal, false, s), src[GRID_MAX_NEIGHBOURS], free_n = 0, held = 0;
	for (int i = 0; i < n; i++) {
		int c = s[i].cell;
		if (!ai_can_step(v->grid, c, goal))
			continue;
		if (v->occupant[c] >= 0)
			held++;
		else
			src[free_n++] = c;
	}
	if (free_n == 0 || held == 0)
		return;
	double t0 = clock_us();
	mind_field_begin(&p->front, v->grid, goal, AI_FRONT_RADIUS, src, free_n, goal);
	for (int i = 0; i < n; i++)
		if (v->occupant[s[i].cell] >= 0)
			mind_field_wall(&p->front, s[i].cell);
	long settled = mind_field_settle(&p->front, v->grid, -1);
	ai_count_flood(ai, settled, clock_us() - t0);
	p->front_on = true;
}

/*
 * The agents the front reaches are planned first (rules version 8), in
 * their order of priority, then the others in theirs (a stable partition
 * of the sorted agents).  The cells round the attackers free up for those
 * that wait there: planned in the order of waits alone, a file in a
 * corridor behind them, one of whose goblins farther back had waited
 * longer, pulled its whole length along by priority inheritance, and its
 * head, which had waited less and had another step nearer, took the cell
 * beside a goblin that waited at the front, turn after turn; that goblin
 * waited to the end of the game (on the two-corridor level, 29 turns
 * against 28 under `detour`; planned front first, 23).
 */
static void front_first(const struct ai_view *v, struct crowd_plan *p)
{
	int k = 0, rest = 0;
	for (int j = 0; j < p->n; j++) {
		struct crowd_agent ag = p->agents[j];
		if (!isinf(mind_field_dist(&p->front, v->grid, p->from[ag.i])))
			p->agents[k++] = ag;
		else
			p->tmp[rest++] = ag;
	}
	memcpy(p->agents + k, p->tmp, (size_t)rest * sizeof *p->agents);
}

/*
 * The monsters of a crowd stand far apart on a large map, so the first
 * reads of each one's cells miss the caches: the occupants round it
 * (alone), the field's distances there (flood_settled, candidates_in),
 * the near flood's.  plan_make, which visits every monster of the turn
 * first, asks for those of the monster PLAN_AHEAD places on while it
 * decides about this one, and the monsters' own decisions later in the
 * turn find most of them still in cache.  Reads nothing: no effect on
 * play.
 */
#define PLAN_AHEAD 8
#define DECIDE_AHEAD 4 /* ai_crowd_step: the same for the monsters' own decisions */

static void prefetch_monster(const struct ai *ai, const struct ai_view *v, const struct flood_ctx *fl, int j)
{
	const struct monster *m = &v->monsters[j];
	if (!m->alive || m->mind.asleep)
		return;
	const int w = v->grid->w, n = w * v->grid->h, c = ai_monster_cell(v, m);
	if (c - w >= 0)
		__builtin_prefetch(&v->occupant[c - w]);
	__builtin_prefetch(&v->occupant[c]);
	if (c + w < n)
		__builtin_prefetch(&v->occupant[c + w]);
	flood_prefetch(fl, c);
	if (ai->near && ai->near != fl)
		flood_prefetch(ai->near, c);
	const struct mind *mi = &m->mind;
	if (mi->route && mi->route_pos >= 1 && mi->route_pos < mi->route_len && mi->route_len <= mi->route_cap)
		__builtin_prefetch(&mi->route[mi->route_pos - 1]); /* left_cell */
}

/* The same for the agents, planned in the order of priority, which
 * jumps across the map: the rows round the cell of the one PLAN_AHEAD
 * places on, of the occupants, the costs, the plan's held cells and the
 * field. */
static void prefetch_agent(const struct ai_view *v, const struct crowd_plan *p, const struct flood_ctx *fl, int c)
{
	const int w = v->grid->w, n = w * v->grid->h;
	for (int r = -1; r <= 1; r++) {
		const int k = c + r * w;
		if (k < 0 || k >= n)
			continue;
		__builtin_prefetch(&v->occupant[k]);
		__builtin_prefetch(&v->grid->cost[k]);
		__builtin_prefetch(&p->held[k]);
	}
	flood_prefetch(fl, c);
}

/* Makes the turn's plan toward `goal` over field fl, once per turn. */
static void plan_make(struct ai *ai, const struct ai_view *v, int goal, struct flood_ctx *fl)
{
	struct crowd_plan *p = ai->cplan;
	if (!p || p->turn == v->turn)
		return; /* made this turn (another goal's monsters use the local rule) */
	p->turn = v->turn;
	p->goal = goal;
	p->fl = fl;
	if (++p->id == 0) { /* the stamps wrapped: start afresh */
		memset(p->mark, 0, (size_t)ai->max_monsters * sizeof *p->mark);
		memset(p->held, 0, (size_t)v->grid->w * (size_t)v->grid->h * sizeof *p->held);
		p->id = 1;
	}
	p->n = 0;
	p->congestion = false;
	p->cong_turn = -1;
	double cong_w = 0; /* the largest knob among the agents */
	int pc = ai_player_cell(v);
	const int upto = v->n_monsters < ai->max_monsters ? v->n_monsters : ai->max_monsters;
	for (int i = 0; i < upto; i++) {
		const struct monster *b = &v->monsters[i];
		const struct mind *mi = &b->mind;
		if (i + PLAN_AHEAD < upto)
			prefetch_monster(ai, v, fl, i + PLAN_AHEAD);
		if (!b->alive || b->energy < 100 || !follower(ai, v, b, goal) || mi->commit_until > v->turn)
			continue;
		int here = ai_monster_cell(v, b);
		if (here == goal || alone(v, here))
			continue;
		/* the shared flood of this goal, settled there, serves it (what
		 * ai_crowd_field answers, without its other questions); else ask
		 * (it settles the flood out to the cell) */
		if (!(fl == ai->flood && ai->flood_goal == goal && flood_settled(fl, here)) &&
		    ai_crowd_field(ai, v, goal, here) != fl)
			continue;
		p->mark[i] = p->id;
		p->from[i] = here;
		p->congestion |= b->kind->congestion > 0;
		if (b->kind->congestion / 100.0 > cong_w)
			cong_w = b->kind->congestion / 100.0;
		if (ai_can_step(v->grid, here, pc)) { /* beside the player: it attacks */
			p->best[i] = -1;
			p->to[i] = here;
			p->len[i] = 0;
			p->held[here] = p->id;
			continue;
		}
		p->to[i] = -2;
		p->left[i] = left_cell(mi, here, goal);
		p->agents[p->n++] = (struct crowd_agent){ agent_key(mi->waited, flood_distance(fl, here)), i };
	}
	if (p->n > 0)
		front_make(ai, v, p, goal);
	else
		p->front_on = false;
	if (p->n > 0 && cong_w > 0)
		cong_make(ai, v, p, goal, cong_w);
	agents_sort(p->agents, p->tmp, p->n);
	if (p->front_on)
		front_first(v, p);
	for (int k = 0; k < p->n; k++) {
		if (k + PLAN_AHEAD < p->n)
			prefetch_agent(v, p, fl, p->from[p->agents[k + PLAN_AHEAD].i]);
		if (p->to[p->agents[k].i] == -2)
			plan_agent(ai, v, p, fl, p->agents[k].i, -1, -1, 0.0, 0);
	}
}

/* The plan's step for `self`: 1 with *to (the pushes recorded), 0 when
 * the plan keeps it where it is, -1 when there is no plan for it or the
 * turn has changed what the plan saw (the local rule decides). */
static int plan_follow(struct ai *ai, const struct ai_view *v, int self, int goal, int here, int *to)
{
	struct crowd_plan *p = ai->cplan;
	if (!p || p->goal != goal || p->turn != v->turn || !agent_of(p, self) || p->from[self] != here ||
	    p->to[self] < 0)
		return -1;
	p->mark[self] = 0; /* one action per plan */
	if (p->to[self] == here)
		return 0;
	int cell = p->to[self];
	ai->push_n = 0;
	for (int b; (b = v->occupant[cell]) >= 0;) {
		const struct monster *mb = &v->monsters[b];
		if (!agent_of(p, b) || p->from[b] != cell || p->to[b] < 0 || p->to[b] == cell || mb->energy < 100 ||
		    ai->push_n >= AI_PUSH_MAX || pushed_already(ai, b) || b == self) {
			ai->push_n = 0;
			return -1;
		}
		push_record(ai, b, p->to[b]);
		cell = p->to[b];
	}
	for (int k = 0; k < ai->push_n; k++)
		p->mark[ai->push_who[k]] = 0; /* moved by this action */
	*to = p->to[self];
	return 1;
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

/* The route of a monster that waits at `here` for `next` (-1: none):
 * `left`, the cell its last step left (left_cell; -1 none), stays before
 * it, so it does not step back there after a wait either. */
static void route_wait(struct mind *mi, int left, int here, int next, int goal, int turn)
{
	if (left < 0 || mi->route_cap < 3) {
		route_set(mi, here, next, goal, turn);
		return;
	}
	route_set(mi, here, next, goal, turn);
	mi->route[0] = left;
	mi->route[1] = here;
	mi->route[2] = next;
	mi->route_len = next >= 0 ? 3 : 2;
	mi->route_pos = 1;
}

/*
 * Walled in by the crowd: waits in the queue for `want` (the metrics see
 * the cell it waits for), and past the knob's actions searches a detour;
 * held back only by monsters that are not on their way (a pack at its
 * posts, a sleeper, another mind's: !queue), a queue would never move:
 * it searches the detour at once.  The step, or -1.
 */
static int crowd_wait(struct ai *ai, const struct ai_view *v, int self, struct mind *mi, int goal,
		      struct flood_ctx *fl, int here, int want, bool queue)
{
	const struct monster *m = &v->monsters[self];
	const struct monster_kind *k = m->kind;
	double dh = flood_distance(fl, here);
	if (mi->waited < INT32_MAX)
		mi->waited++;
	int left = left_cell(mi, here, goal);
	route_wait(mi, left, here, want, goal, v->turn);
	const int every = k->wait_detour + 1;
	if (((mi->waited > k->wait_detour && (mi->waited - every) % every == 0) || !queue) && k->crowd > 0) {
		/* one search per wait_detour + 1 actions at most; the count goes
		 * on (it is the monster's priority in the turn's plan) */
		ai_crowd_detour(ai, v, m, mi, goal);
		if (mi->route_pos + 1 < mi->route_len) {
			int next = mi->route[mi->route_pos + 1];
			/* a detour that starts by stepping away would, once the
			 * way ahead frees, be walked back (A-B-A): only one that
			 * starts no farther from the goal by the field */
			double dn = flood_distance(fl, next);
			if (v->occupant[next] < 0 && ai_can_step(v->grid, here, next) && dn >= 0 && dn <= dh &&
			    next != left) {
				ai->plan_cell = next;
				return next;
			}
		}
		/* the metrics see the cell it waits for */
		route_wait(mi, left, here, want, goal, v->turn);
	}
	return -1;
}

int ai_crowd_step(struct ai *ai, const struct ai_view *v, int self, struct mind *mi, int goal)
{
	const struct monster *m = &v->monsters[self];
	const struct monster_kind *k = m->kind;
	int here = ai_monster_cell(v, m);
	ai->decision++;
	ai->push_n = 0;
	/* the turn's monsters decide in order: those a few places on will
	 * read their cells soon (prefetch_monster) */
	if (self + DECIDE_AHEAD < v->n_monsters && self + DECIDE_AHEAD < ai->max_monsters)
		prefetch_monster(ai, v, ai->flood, self + DECIDE_AHEAD);
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
	/* the turn's plan, when it has a step for it */
	plan_make(ai, v, goal, fl);
	int planned, follow = plan_follow(ai, v, self, goal, here, &planned);
	if (follow > 0) {
		route_set(mi, here, planned, goal, v->turn);
		mi->waited = 0;
		ai->plan_cell = planned;
		return planned;
	}
	if (follow == 0 && ai->cplan->best[self] >= 0) /* the plan keeps it: it waits */
		return crowd_wait(ai, v, self, mi, goal, fl, here, ai->cplan->best[self], ai->cplan->queue[self]);
	struct cand c[GRID_MAX_NEIGHBOURS];
	bool pc_step;
	const struct crowd_plan *cg = cong_for(ai, v, fl, k, here);
	int n = candidates_in(ai, v, fl, NULL, cg, k, here, false, c, &pc_step);
	int pc = ai_player_cell(v);
	double dpc = pc_step ? field_distance(fl, NULL, cg, v->grid, pc) : -1;
	/* the player beside it, nearer the goal than any other step (or it
	 * stands next to its goal): attack */
	if (dpc >= 0 && dpc < (n > 0 ? c[0].d : field_distance(fl, NULL, cg, v->grid, here))) {
		ai->plan_cell = pc;
		return pc;
	}
	if (n == 0) {
		route_wait(mi, left_cell(mi, here, goal), here, -1, goal, v->turn);
		return -1;
	}
	double dh = field_distance(fl, NULL, cg, v->grid, here);
	bool queue = false; /* a hunter of the same goal holds a cell ahead: it moves on in its turn */
	if (follow < 0 && (k->congestion > 0 || !ai->cplan || ai->cplan->congestion))
		want_add(ai, v, c[0].cell);
	for (int i = 0; i < n && follow == 0; i++)
		queue |= v->occupant[c[i].cell] >= 0 && follower(ai, v, &v->monsters[v->occupant[c[i].cell]], goal);
	int left = left_cell(mi, here, goal);
	for (int i = 0; i < n && follow < 0; i++) {
		int to = c[i].cell;
		if (to == left)
			continue; /* never back where its last step left (A-B-A) */
		if (v->occupant[to] >= 0 && !make_room(ai, v, fl, self, goal, to, here, dh - c[i].d, 0)) {
			queue |= follower(ai, v, &v->monsters[v->occupant[to]], goal);
			continue;
		}
		route_set(mi, here, to, goal, v->turn);
		mi->waited = 0;
		ai->plan_cell = to;
		return to;
	}
	return crowd_wait(ai, v, self, mi, goal, fl, here, c[0].cell, queue);
}
