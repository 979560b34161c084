/*
 * ai.c - monster minds: perceive the player, remember where it was, plan a
 * route with the A* core, and decide to step along it, attack, run away or
 * wait; the tuning knobs of the bestiary act here.  It reads the game only
 * through the const struct ai_view and answers with a struct ai_decision:
 * game.c carries the decision out (moves, doors, attacks, messages, energy),
 * so monsters obey the same rules as the player, and this file never sees
 * game.h.  It owns the AI's state (struct ai: floods, crowd costs, route
 * buffers, counters, sharing policy) and each monster's struct mind.
 * docs/ai.md explains the knobs and the decisions below for tuners.
 *
 * The decision rule of a hunting monster, whichever way it is computed:
 *   1. next to the player and seeing it: attack;
 *   2. otherwise follow its route, replanning on every turn that is a
 *      multiple of its `repath` knob (all monsters of one knob value replan
 *      on the same turns), when the route is used up, or when it wakes;
 *   3. the plan is a search toward its target cell with its own knobs
 *      (weight, fallback P, budget) that ignores other monsters;
 *   4. when the next step is held by another monster it replans at once
 *      with other monsters costing `crowd` extra (path_options.extra) and
 *      keeps that detour for AI_CROWD_COMMIT turns (or its repath interval,
 *      if longer) so that it does not turn back as soon as the jam moves;
 *      if the step is still held, it waits.
 *   Rule 4 is the rules' crowd key `detour`.  Under `pass` (the default,
 *   crowd.c) a chase-mind hunter that the shared flood serves steps to its
 *   best free neighbour nearer the goal, pushing the hunters ahead of it
 *   on, and searches the detour of rule 4 only after `wait_detour` actions
 *   with no such step (docs/ai.md, "Crowds: priority passing").
 *
 * Sharing work: a plan of step 3 for a monster with the
 * exact knobs (weight 1, automatic P, no budget) is an optimal route to its
 * target cell, the same for every such monster heading there (most often
 * the player's cell).  Instead of one A* each, one reverse Dijkstra flood
 * from that cell (flood.c, a multi-queue Dijkstra) serves them all: each
 * follows flood_next downhill, which is an optimal route.  The flood stays
 * valid while the goal stays and the grid's costs stay (doors are passable
 * in it, only their opacity changes; a dug wall drops the floods:
 * ai_cell_changed), and is run only until every
 * monster heading there is settled (on a large level: to its end; when
 * the goal then moves, the flood is kept while the goal stays near its
 * source and a small flood round the goal serves the monsters there, and
 * past that the flood is shifted, settling only the cells that got
 * nearer: flood_shift).  A monster the flood does not reach
 * cannot reach the goal, and searches alone (fallback).  Crowd costs
 * depend on who asks, so step 4 is a search of its own; while a flood
 * serves the goal it is flood_route, an A* whose heuristic is the flood's
 * exact distance (same cost as path_find, far fewer expansions).  Keeping
 * step 3 free of crowd costs is what makes sharing possible, and it is the
 * same rule in both methods.  Between equally short routes the flood and
 * A* may pick different cells (their tie orders differ); the tests compare
 * the cost of the routes, not the cells.  Whether to flood depends on how
 * many monsters are due and on the size of the level (AI_SHARE_MIN,
 * AI_SHARE_CELLS), never on time.
 */
#include "ai_internal.h"
#include "bigmem.h"

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "clock.h"
#include "fov.h"
#include "level.h"

/* ---- the view ----------------------------------------------------------- */

int ai_monster_cell(const struct ai_view *v, const struct monster *m)
{
	return grid_index(v->grid, m->x, m->y);
}

int ai_player_cell(const struct ai_view *v)
{
	return grid_index(v->grid, v->player_x, v->player_y);
}

/* The movement rule of the game (grid_neighbours: adjacent, passable, no
 * corner cutting on square8); the rules hold the same one (game_can_step). */
bool ai_can_step(const struct grid *g, int from, int to)
{
	/* a square map's cell inside the border, as grid_neighbours takes it
	 * (a wanderer's every step on a 4096x4096 level asks): the step is
	 * one of the eight (four) offsets, onto a passable cell, and on
	 * square8 a diagonal one has both cells beside it passable (no
	 * corner cutting); without listing every step of `from` */
	const int w = g->w, x = grid_x(g, from), y = grid_y(g, from);
	if ((g->topo == GRID_SQUARE8 || g->topo == GRID_SQUARE4) && x > 0 && y > 0 && x < w - 1 && y < g->h - 1) {
		const uint8_t *c = g->cost + from;
		const int d = to - from;
		if (d == -w || d == -1 || d == 1 || d == w)
			return c[d] != 0;
		if (g->topo == GRID_SQUARE4 || !(d == -w - 1 || d == -w + 1 || d == w - 1 || d == w + 1))
			return false;
		const int dx = d == -w - 1 || d == w - 1 ? -1 : 1, dy = d < 0 ? -w : w;
		return c[d] != 0 && c[dx] != 0 && c[dy] != 0;
	}
	struct grid_step s[GRID_MAX_NEIGHBOURS];
	int n = grid_neighbours(g, from, false, s);
	for (int i = 0; i < n; i++)
		if (s[i].cell == to)
			return true;
	return false;
}

/* Whether the level is large: more than AI_SHARE_MIN x AI_SHARE_CELLS open
 * cells (ai_level_init), where floods are kept while the goal moves and the
 * scale rules below apply (docs/ai.md, "Scale"). */
static bool large_level(const struct ai *ai)
{
	return ai_large_level(ai);
}

/*
 * A kind whose plan is the exact optimal route, the same for all.  On a
 * large level the `weight` knob does not stand in the way: weighted A* is
 * a way to search less, and where the shared flood serves, the exact route
 * costs nothing more (a bat's greedy routes were a search of its own each
 * turn, 55 bats of the mixed benchmark a third of its AI time).
 */
static bool shareable_in(const struct ai *ai, const struct monster_kind *k)
{
	return (k->weight == 1.0 || large_level(ai)) && k->penalty <= 0 && k->budget == 0;
}

/* The line rule of the player's view (fov_compute): for the clear cells
 * monsters stand on, the player's view adds nothing to it (the wall rule
 * adds only opaque cells), so the player sees m exactly when m, with the
 * same radius, sees the player. */
bool ai_sees_player(const struct ai *ai, const struct ai_view *v, const struct monster *m)
{
	if (ai->all_hunt)
		return true;
	/* the box test first, here: a call fewer for nearly every awake
	 * monster of a large level, twice a turn */
	if (!ai_sight_box(v, m))
		return false;
	return fov_line_of_sight(v->grid, v->opaque, m->x, m->y, v->player_x, v->player_y, m->kind->sight);
}

/* ---- lifecycle ---------------------------------------------------------- */

void ai_init(struct ai *ai)
{
	*ai = (struct ai){ .share = AI_SHARE_AUTO, .flood_goal = -1, .goal = -1, .near_goal = -1, .swarm_turn = -1 };
}

bool ai_level_init(struct ai *ai, const struct grid *grid, const uint8_t *tiles, struct path_ctx *path,
		   int max_monsters)
{
	size_t n = (size_t)grid->w * (size_t)grid->h;
	ai->path = path;
	ai->crowd = big_calloc(n, sizeof *ai->crowd); /* the crowd's costs touch every block */
	ai->region = big_malloc(n * sizeof *ai->region); /* written whole below */
	ai->solid = big_malloc(n);
	ai->route_cells = big_malloc(((size_t)max_monsters + 1) * AI_ROUTE_MAX * sizeof *ai->route_cells);
	ai->flood = flood_create(grid);
	ai->ranged = ranged_map_create(grid);
	ai->crowd_value = 0;
	ai->flood_goal = -1;
	ai->due = 0;
	ai->goal = -1;
	if (!ai->crowd || !ai->region || !ai->solid || !ai->route_cells || !ai->flood || !ai->ranged)
		return false;
	/* solid: no cost and not diggable (tile_diggable: a wall off the
	 * border), and the passable count, row by row in loops the compiler
	 * makes word-wide (a resume on 4096x4096 makes them for 16.8 million
	 * cells; through the struct, each cell reloaded the grid's fields) */
	const uint8_t *cost = grid->cost;
	uint8_t *solid = ai->solid;
	const int w = grid->w, h = grid->h;
	long passable = 0;
	for (int y = 0; y < h; y++) {
		const size_t row = (size_t)y * (size_t)w;
		const uint8_t *crow = cost + row, *trow = tiles ? tiles + row : NULL;
		uint8_t *srow = solid + row;
		int x = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		/* eight cells a word: a byte's high bit set where it is not zero */
		const uint64_t low7 = 0x7f7f7f7f7f7f7f7fULL, ones = 0x0101010101010101ULL;
		for (; x + 8 <= w; x += 8) {
			uint64_t c;
			memcpy(&c, crow + x, 8);
			const uint64_t nz = (((c & low7) + low7) | c) >> 7 & ones; /* 1 where cost != 0 */
			memcpy(srow + x, &(uint64_t){ nz ^ ones }, 8);
			passable += (long)((nz * ones) >> 56); /* the bytes' sum: at most 8 */
		}
#endif
		for (; x < w; x++) {
			srow[x] = crow[x] == 0;
			passable += crow[x] != 0;
		}
		if (trow && y > 0 && y < h - 1)
			for (x = 1; x < w - 1; x++)
				srow[x] &= trow[x] != TILE_WALL;
	}
#ifdef ASTRAY_CHECKS
	for (int y = 0, c = 0; y < h; y++)
		for (int x = 0; x < w; x++, c++)
			CHECK(solid[c] == (!cost[c] && !(tiles && tile_diggable((enum tile)tiles[c], w, h, x, y))));
#endif
	/* A flood may settle every passable cell, one search per monster only
	 * what its route needs: on a large level the flood pays when many
	 * hunters share it (a count of cells and monsters, never a time). */
	long need = (passable + AI_SHARE_CELLS - 1) / AI_SHARE_CELLS;
	ai->share_need = need > AI_SHARE_MIN ? (int)need : AI_SHARE_MIN;
	/* the regions: on a large level by their first reader (ai_regions;
	 * wander_pick, which cannot label them, reads them only on a small one) */
	ai->regions = 0;
	ai->region_later = large_level(ai);
	if (!ai->region_later && (ai->regions = level_grid_regions(grid, ai->region)) < 0)
		return false;
	ai->near_goal = -1;
	/* the near flood: made now on a map of up to 2^20 cells (flood.c
	 * touches such a context when made: not on a monster's turn), else by
	 * its first run (near_make) */
	if (ai->share_need > AI_SHARE_MIN && n <= ((size_t)1 << 20)) {
		if (!(ai->near = flood_create(grid)))
			return false;
		flood_share_search(ai->near, ai->flood);
	}
	ai->max_monsters = max_monsters;
	ai->push_who = malloc(AI_PUSH_MAX * sizeof *ai->push_who);
	ai->push_to = malloc(AI_PUSH_MAX * sizeof *ai->push_to);
	ai->tried = calloc((size_t)max_monsters + 1, sizeof *ai->tried);
	ai->want = calloc(n, sizeof *ai->want);
	/* zero, not -1, for "no turn": a cell whose want_turn is the turn and
	 * whose want is 0 counts as wanted by none, as an old turn does, so
	 * turn 0 reads alike; and 64 MiB on 4096x4096 are not written at every
	 * level made (a resume's first touches) */
	ai->want_turn = big_calloc(n, sizeof *ai->want_turn);
	ai->cplan = crowd_plan_create((int)n, max_monsters);
	ai->push_n = 0;
	ai->plan_cell = -1;
	if (!ai->push_who || !ai->push_to || !ai->tried || !ai->want || !ai->want_turn || !ai->cplan)
		return false;
	ai_crowd_pretouch(ai, grid);
	ai->stairs = mind_stairs_create(grid);
	ai->pack = mind_pack_create(max_monsters);
	ai->ambush = mind_ambush_create();
	return ai->stairs && ai->pack && ai->ambush;
}

void ai_prefault(struct ai *ai, const struct grid *grid)
{
	if (!ai->crowd || !ai->route_cells)
		return;
	big_populate(ai->crowd, (size_t)grid->w * (size_t)grid->h * sizeof *ai->crowd);
	big_populate(ai->route_cells, ((size_t)ai->max_monsters + 1) * AI_ROUTE_MAX * sizeof *ai->route_cells);
	flood_prefault(ai->flood); /* its moves, left by a large map's level load to the first flood */
	(void)ai_regions(ai, grid);
}

const int *ai_regions(struct ai *ai, const struct grid *grid)
{
	if (ai->region_later && ai->region) {
		ai->regions = level_grid_regions(grid, ai->region);
		ai->region_later = false;
	}
	return ai->region;
}

void ai_level_fini(struct ai *ai)
{
	free(ai->crowd);
	free(ai->region);
	free(ai->solid);
	free(ai->route_cells);
	free(ai->push_who);
	free(ai->push_to);
	free(ai->tried);
	free(ai->want);
	free(ai->want_turn);
	crowd_plan_destroy(ai->cplan);
	ai->cplan = NULL;
	ai->push_who = ai->push_to = ai->want_turn = NULL;
	ai->tried = NULL;
	ai->want = NULL;
	ai->push_n = 0;
	flood_destroy(ai->flood);
	flood_destroy(ai->near);
	ranged_map_destroy(ai->ranged);
	ai->ranged = NULL;
	mind_stairs_destroy(ai->stairs);
	mind_pack_destroy(ai->pack);
	mind_ambush_destroy(ai->ambush);
	ai->stairs = NULL;
	ai->pack = NULL;
	ai->ambush = NULL;
	ai->near = NULL;
	ai->near_goal = -1;
	ai->crowd = NULL;
	ai->region = NULL;
	ai->solid = NULL;
	ai->regions = 0;
	ai->region_later = false;
	ai->route_cells = NULL;
	ai->flood = NULL;
	ai->path = NULL;
	ai->flood_goal = -1;
}

void ai_cell_changed(struct ai *ai, const struct grid *grid, int cell)
{
	/* the floods were made on the old costs: the next plan floods anew,
	 * and so does the way to the stairs of the pack and ambush minds */
	ai->flood_goal = -1;
	ai->near_goal = -1;
	mind_stairs_forget(ai->stairs);
	mind_pack_forget(ai->pack);
	if (ai->region_later)
		return; /* labelled from the grid as it will be then */
	if (!grid->cost[cell]) {
		ai->region[cell] = -1; /* play never closes a cell; kept sound if it did */
		return;
	}
	/* The cell joins the regions of the cells it can step to (the moves
	 * are symmetric).  On a square8 grid it may also open a diagonal
	 * between two of its neighbours, but those two are joined through it
	 * anyway.  Usually they are one region (a wall dug into from one
	 * side): the cell takes its label.  Two or more are joined by one
	 * pass over the map, relabelling them as the smallest (a breach into
	 * a sealed room; a handful in a game). */
	struct grid_step s[GRID_MAX_NEIGHBOURS];
	int k = grid_neighbours(grid, cell, false, s);
	int labels[GRID_MAX_NEIGHBOURS], n = 0, lo = -1;
	for (int i = 0; i < k; i++) {
		int r = ai->region[s[i].cell];
		bool seen = false;
		for (int j = 0; j < n; j++)
			seen = seen || labels[j] == r;
		if (r < 0 || seen)
			continue;
		labels[n++] = r;
		if (lo < 0 || r < lo)
			lo = r;
	}
	if (n == 0) {
		ai->region[cell] = ai->regions++;
		return;
	}
	ai->region[cell] = lo;
	if (n == 1)
		return;
	const int cells = grid->w * grid->h;
	for (int c = 0; c < cells; c++) {
		int r = ai->region[c];
		for (int j = 0; j < n && r >= 0; j++)
			if (r == labels[j]) {
				ai->region[c] = lo;
				break;
			}
	}
}

bool ai_level_refresh(struct ai *ai, const struct grid *grid, bool passable_changed)
{
	ai->flood_goal = -1;
	ai->near_goal = -1;
	mind_pack_forget(ai->pack);
	/* solid[] stays: the cells no one can dig never change */
	if (passable_changed && !ai->region_later)
		ai->regions = level_grid_regions(grid, ai->region);
	return ai->regions >= 0;
}

void ai_mind_init(struct ai *ai, struct mind *mind, int index)
{
	mind->route = ai->route_cells + (size_t)index * AI_ROUTE_MAX;
	mind->route_cap = AI_ROUTE_MAX;
	mind->post = -1;
	mind->wander = -1;
	mind->trail = -1;
}

void ai_mind_fini(struct mind *mind)
{
	mind->route_len = 0;
	mind->route_pos = 0;
	mind->route_stuck = false;
	mind->commit_until = 0;
	mind->waited = 0;
}

void ai_mind_alert(struct mind *mind, const struct monster_kind *k, int x, int y, int turn)
{
	mind->asleep = false;
	mind->hunting = true;
	mind->target_x = x;
	mind->target_y = y;
	mind->last_seen_turn = turn;
	mind->memory_left = k->memory;
	mind->wander = -1;
}

void ai_mind_hear(struct mind *mind, const struct monster_kind *k, int x, int y, int turn)
{
	bool woken = mind->asleep;
	mind->asleep = false;
	if (mind->fleeing || mind->saw_player)
		return;
	if (woken || k->wander || (k->behaviour == MIND_TRACK && k->scent > 0))
		ai_mind_alert(mind, k, x, y, turn);
}

/* ---- when to plan, and toward what --------------------------------------- */

enum ai_route_due ai_route_due(const struct ai_view *v, const struct monster *m, const struct mind *mi, int goal)
{
	if (mi->route_len == 0 || mi->route_pos >= mi->route_len ||
	    mi->route[mi->route_pos] != ai_monster_cell(v, m))
		return AI_ROUTE_PLAN;
	/* a new sighting is news: a route toward another place (where it last
	 * saw the player, say) is dropped now, not when the schedule comes
	 * round, so it notices the player on its own turn */
	if (mi->sighted && mi->route_goal != goal)
		return AI_ROUTE_PLAN;
	/* used up: replan, unless it is waiting at a cut point for the same target */
	if (mi->route_pos >= mi->route_len - 1 && !(mi->route_stuck && mi->route_goal == goal))
		return AI_ROUTE_PLAN;
	if (v->turn < mi->next_repath || v->turn < mi->commit_until)
		return AI_ROUTE_KEEP;
	return AI_ROUTE_DUE;
}

bool ai_route_fresh(const struct ai *ai, const struct ai_view *v, const struct monster *m, const struct mind *mi,
		    int goal)
{
	if (!large_level(ai) || mi->commit_until != 0 || mi->route_goal < 0)
		return false;
	double moved = grid_heuristic(v->grid, mi->route_goal, goal);
	double far = grid_heuristic(v->grid, ai_monster_cell(v, m), goal);
	return (far > AI_NEAR_DIST && moved < AI_STALE_DIST) || moved * AI_FRESH_RATIO < far;
}

/* Whether monster m, whose mind is mi (m->mind itself), must plan toward goal now. */
static bool needs_plan(const struct ai *ai, const struct ai_view *v, const struct monster *m,
		       const struct mind *mi, int goal)
{
	enum ai_route_due due = ai_route_due(v, m, mi, goal);
	if (due != AI_ROUTE_DUE)
		return due == AI_ROUTE_PLAN;
	/* A kind that searches on its own (a finite `penalty`, a budget) keeps
	 * a route the goal has not moved far from (ai_route_fresh).  Without
	 * it each of 55 zombies of the mixed benchmark searched every third
	 * turn across the map. */
	if (!shareable_in(ai, m->kind) && ai_route_fresh(ai, v, m, mi, goal))
		return false;
	/* Due by the schedule.  For an exact kind, a new plan toward the same
	 * goal would cost what the rest of this route costs (a suffix of an
	 * optimal route is optimal, and the fallback's order of blocked cells
	 * then cost is kept by suffixes too), so the route is kept: this is
	 * "keep routes while still valid", and it spares a search per turn to
	 * every monster heading for a remembered place.  A crowd detour
	 * (commit_until set) is not optimal in that sense and is replanned. */
	return !(shareable_in(ai, m->kind) && mi->route_goal == goal && mi->commit_until == 0);
}

/* The goal monster m will plan toward this turn if it may use a shared
 * flood (an exact kind, hunting or seeing the player), else -1. */
static int shared_goal(const struct ai *ai, const struct ai_view *v, const struct monster *m, int pc)
{
	if (!m->alive || m->mind.fleeing || !shareable_in(ai, m->kind) || (m->mind.asleep && !ai->all_hunt))
		return -1;
	if (m->mind.hunting && grid_index(v->grid, m->mind.target_x, m->mind.target_y) == pc)
		return pc;
	if (ai_sees_player(ai, v, m))
		return pc;
	return m->mind.hunting ? grid_index(v->grid, m->mind.target_x, m->mind.target_y) : -1;
}

void ai_turn_open(struct ai *ai, const struct ai_view *v)
{
	/* Picks the goal a flood may serve this turn and counts the monsters
	 * due to plan toward it; only decides whether to flood, so an estimate
	 * is enough.  Two candidates: the player's cell, and the first other
	 * goal met (monsters told where the player was, or remembering it,
	 * share that cell); the player's cell wins when both reach the count. */
	ai->count_pc = ai_player_cell(v);
	ai->count_other = -1;
	ai->count_due_pc = ai->count_due_other = 0;
	ai->due = 0;
	ai->goal = -1;
	ranged_map_forget(ai->ranged);
	mind_pack_turn(ai->pack);
	mind_ambush_turn(ai->ambush);
	ai->swarm_turn = -1;
	ai->counting = ai->share == AI_SHARE_AUTO;
	ai->count_need = ai->share_need > AI_SHARE_MIN ? ai->share_need : AI_SHARE_MIN;
}

void ai_turn_count_near(struct ai *ai, const struct ai_view *v, int self)
{
	/* the count stops where either candidate reaches the need */
	if (!ai->counting)
		return;
	const struct monster *m = &v->monsters[self];
	const int pc = ai->count_pc;
	int goal = shared_goal(ai, v, m, pc);
	if (goal < 0)
		return;
	if (goal != pc && ai->count_other < 0)
		ai->count_other = goal;
	if (goal != pc && goal != ai->count_other)
		return;
	if (m->mind.hunting && !needs_plan(ai, v, m, &m->mind, goal) && !(goal == pc && ai_sees_player(ai, v, m)))
		return;
	if (goal == pc)
		ai->count_due_pc++;
	else
		ai->count_due_other++;
	ai->counting = ai->count_due_pc < ai->count_need && ai->count_due_other < ai->count_need;
}

void ai_turn_close(struct ai *ai)
{
	if (ai->share != AI_SHARE_AUTO)
		return;
	const int due_pc = ai->count_due_pc, due_other = ai->count_due_other;
	bool pick_pc = due_pc >= ai->count_need || due_pc >= due_other;
	ai->goal = pick_pc ? ai->count_pc : ai->count_other;
	ai->due = pick_pc ? due_pc : due_other;
	ai->counting = false;
}

void ai_turn_begin(struct ai *ai, const struct ai_view *v)
{
	ai_turn_open(ai, v);
	for (int i = 0; i < v->n_monsters && ai->counting; i++)
		ai_turn_count(ai, v, i);
	ai_turn_close(ai);
}

/* ---- searching ---------------------------------------------------------- */

static void count_search(struct ai *ai, long expanded, double us)
{
	ai->stats.searches++;
	ai->stats.expanded += expanded;
	ai->stats.search_us += us;
	if (ai->stats.on_search)
		ai->stats.on_search(ai->stats.ud, expanded, us);
}

void ai_count_flood(struct ai *ai, long expanded, double us)
{
	count_search(ai, expanded, us);
}

void ai_count_search(struct ai *ai, const struct path_result *r, double us)
{
	count_search(ai, r->expanded, us);
	if (r->status == PATH_FALLBACK)
		ai->stats.fallbacks++;
	if (r->status == PATH_BUDGET)
		ai->stats.budget_hits++;
}

/* Runs a new flood from goal (ai->flood_goal is not goal): shifted from the
 * old goal or run to its end on a large level, else settled only as far as
 * every monster that will plan toward goal, and `here`. */
static void flood_make(struct ai *ai, const struct ai_view *v, int goal, int here)
{
	struct flood_options opt = flood_options_default();
	opt.reverse = true;
	int pc = ai_player_cell(v);
	double t0 = clock_us();
	/* On a large level (more than AI_SHARE_MIN * AI_SHARE_CELLS passable
	 * cells) the flood is run to its end, so that when the goal steps to
	 * a neighbour the next turn only the cells that got nearer are settled
	 * again (flood_shift). */
	const bool large = ai->share_need > AI_SHARE_MIN;
	if (!(large && ai->flood_goal >= 0 && flood_shift(ai->flood, goal))) {
		flood_begin(ai->flood, goal, &opt);
		if (large) {
			flood_settle(ai->flood, NULL, 0);
		} else {
			for (int i = 0; i < v->n_monsters; i++) {
				const struct monster *m = &v->monsters[i];
				if (shared_goal(ai, v, m, pc) == goal) {
					int c = ai_monster_cell(v, m);
					flood_settle(ai->flood, &c, 1);
				}
			}
			flood_settle(ai->flood, &here, 1);
		}
	}
	count_search(ai, flood_settled_count(ai->flood), clock_us() - t0);
	ai->stats.floods++;
	ai->flood_goal = goal;
}

/*
 * A goal that moved, on a large level (docs/ai.md, "A goal that moves"):
 * while it stays within AI_STALE_DIST of the whole flood's
 * source, that flood is kept and a small flood from the goal, out to
 * AI_NEAR_DIST, serves the monsters near it.  The rest follow the whole
 * flood toward its source, which lies inside the small one, so they come
 * within its reach.  The whole flood is made again (or shifted) only when
 * the goal has gone farther.  Whether the whole flood still serves goal
 * that way:
 */
static bool near_serves(const struct ai *ai, int goal)
{
	if (ai->share_need <= AI_SHARE_MIN || ai->flood_goal < 0 || !flood_finished(ai->flood))
		return false;
	double d = flood_distance(ai->flood, goal);
	return d >= 0 && d < AI_STALE_DIST;
}

static void near_make(struct ai *ai, const struct grid *grid, int goal)
{
	/* on a large map made at its first use (issue 33: 14 bytes a cell of
	 * address space that a game whose goal never moves near the flood's
	 * source never needs); without memory for it the monsters near the goal search on
	 * their own (flood_reach) */
	if (!ai->near) {
		if (!(ai->near = flood_create(grid)))
			return;
		/* the two floods route one at a time: one search's arrays serve both */
		flood_share_search(ai->near, ai->flood);
	}
	struct flood_options opt = flood_options_default();
	opt.reverse = true;
	opt.max_dist = AI_NEAR_DIST;
	double t0 = clock_us();
	flood_run(ai->near, goal, &opt, NULL, 0);
	count_search(ai, flood_settled_count(ai->near), clock_us() - t0);
	ai->stats.floods++;
	ai->near_goal = goal;
}

/*
 * Makes the reverse flood from `goal` current, if sharing is allowed and
 * worth it, and settles the cell `here`; false when the monster must search
 * on its own.  A new flood runs only until every monster that will plan
 * toward the same goal stands on a settled cell (the flood is exact at
 * every cell it settles, whatever is left unsettled); a monster found later
 * on an unsettled cell resumes it.  One flood serves every exact kind alike:
 * their plans have no knob the flood depends on.
 */
static struct flood_ctx *flood_reach(struct ai *ai, const struct ai_view *v, int goal, int here)
{
	if (ai->flood_goal != goal) {
		if (ai->share == AI_SHARE_NEVER)
			return NULL;
		const bool worth = ai->share == AI_SHARE_ALWAYS || (goal == ai->goal && ai->due >= ai->share_need);
		if (near_serves(ai, goal)) {
			if (ai->near_goal != goal && worth)
				near_make(ai, v->grid, goal);
			if (ai->near_goal == goal)
				return flood_settled(ai->near, here) ? ai->near : ai->flood;
			/* another goal near the flood's source: the flood serves
			 * the monsters that are surely farther from it than the
			 * near flood would reach */
			if (flood_distance(ai->flood, here) - flood_distance(ai->flood, goal) > AI_NEAR_DIST)
				return ai->flood;
			return NULL;
		}
		if (!worth)
			return NULL;
		flood_make(ai, v, goal, here);
	} else if (!flood_settled(ai->flood, here) && !flood_finished(ai->flood)) {
		double t0 = clock_us();
		long settled = flood_settle(ai->flood, &here, 1);
		count_search(ai, settled, clock_us() - t0);
	}
	return ai->flood;
}

bool ai_crowd_shareable(const struct ai *ai, const struct monster_kind *k)
{
	return shareable_in(ai, k);
}

struct flood_ctx *ai_crowd_field(struct ai *ai, const struct ai_view *v, int goal, int here)
{
	struct flood_ctx *fl = flood_reach(ai, v, goal, here);
	return fl && flood_settled(fl, here) ? fl : NULL;
}

/* Fills crowd[] with this crowd knob (cells held by monsters). */
static void crowd_fill(struct ai *ai, const struct ai_view *v, int value)
{
	if (value > 65535)
		value = 65535;
	if (value < 0)
		value = 0;
	if (ai->crowd_value == value)
		return;
	ai->crowd_value = value;
	for (int i = 0; i < v->n_monsters; i++)
		if (v->monsters[i].alive) {
			int c = ai_monster_cell(v, &v->monsters[i]);
			ai->crowd[c] = (uint16_t)value;
		}
}

const uint16_t *ai_crowd(struct ai *ai, const struct ai_view *v, int value)
{
	crowd_fill(ai, v, value);
	return ai->crowd;
}

/* Rule 3 by the shared flood: the route downhill, only the steps the
 * monster can take before its next replan (it acts at most
 * ceil(speed / 100) times a turn). */
static void plan_downhill(struct flood_ctx *fl, const struct ai_view *v, const struct monster_kind *k,
			  struct mind *mi, int here, int goal)
{
	int per_turn = (k->speed + 99) / 100;
	long want = (long)(mi->next_repath - v->turn) * (per_turn > 0 ? per_turn : 1) + 1;
	if (want > mi->route_cap - 1)
		want = mi->route_cap - 1;
	int len = 0, c = here;
	mi->route[len++] = c;
	while (len <= want && c != goal) {
		c = flood_next(fl, c);
		if (c < 0)
			break;
		mi->route[len++] = c;
	}
	mi->route_len = len;
}

/*
 * Whether rule 4 plans with a horizon (docs/ai.md, "Crowds on large
 * levels"): on a large level (the flood there is whole and shifted), an
 * exact kind's crowd detour is the best start of a detour within the steps
 * it will take before replanning, valued by the least the rest can cost
 * (flood_detour), and a monster whose every neighbour is held waits
 * without planning.  Small levels keep the whole optimal detour.
 */
static bool crowd_horizon_rule(const struct ai *ai)
{
	return ai->share_need > AI_SHARE_MIN;
}

/* Whether some cell the monster may step to is free of monsters. */
static bool free_neighbour(const struct ai_view *v, int here)
{
	struct grid_step s[GRID_MAX_NEIGHBOURS];
	int n = grid_neighbours(v->grid, here, false, s);
	for (int i = 0; i < n; i++)
		if (v->occupant[s[i].cell] < 0)
			return true;
	return false;
}

/*
 * Rule 4 for an exact kind when the shared flood serves: the same optimal
 * route under crowd costs that path_find would give (the goal is
 * reachable, so the fallback plays no part), found by an A* whose
 * heuristic is the flood's exact crowd-free distance, so it looks at
 * little more than the detour.  False when flood_route finds nothing.
 */
static bool plan_crowd_on_flood(struct ai *ai, struct flood_ctx *fl, const struct ai_view *v,
				const struct monster_kind *k, struct mind *mi, int here)
{
	crowd_fill(ai, v, k->crowd);
	double cost;
	long expanded;
	double t0 = clock_us();
	int len;
	if (crowd_horizon_rule(ai)) {
		/* The kind's `lookahead` knob times the steps it may take
		 * before the detour is replanned.  With 1 the horizon sits
		 * just past its last step and monsters near the ring round
		 * the player went back and forth (6 -> 20 oscillations a game
		 * with 1,000 chasers on random512); with the default 3 the
		 * behaviour metrics are those of the whole detour (docs/ai.md
		 * gives what 1 and 2 save and cost).  That was the detour
		 * rule; under the pass rule only walled-in monsters plan
		 * detours, and 1 measured no worse while 1.3-4x cheaper in
		 * long games (docs/ai.md, "The `lookahead` knob"). */
		int every = k->repath > 1 ? k->repath : 1, per_turn = (k->speed + 99) / 100;
		long horizon = (long)(k->lookahead > 1 ? k->lookahead : 1) *
			       (every > AI_CROWD_COMMIT ? every : AI_CROWD_COMMIT) * (per_turn > 0 ? per_turn : 1);
		if (horizon > mi->route_cap - 1)
			horizon = mi->route_cap - 1;
		len = flood_detour(fl, here, ai->crowd, (int)horizon, mi->route, mi->route_cap, &cost, NULL,
				   &expanded);
	} else {
		len = flood_route(fl, here, ai->crowd, mi->route, mi->route_cap, &cost, &expanded);
	}
	count_search(ai, expanded, clock_us() - t0);
	if (len < 1)
		return false;
	mi->route_len = len < mi->route_cap ? len : mi->route_cap;
	return true;
}

/*
 * Whether a search of the monster's own from here toward goal is a far
 * plan (rules 9; docs/ai.md, "Far plans"): on a large level, toward a goal
 * farther than AI_FAR_PLAN.  An exact A* there may settle most of the
 * level (a monster arriving across the 4096x4096 bench level: 1.1 million
 * expansions, 150 ms of one key), while the monster keeps only the first
 * AI_ROUTE_MAX cells of the route; a weighted A* (AI_FAR_WEIGHT) finds a
 * route a few per cent dearer with under 1% of the expansions, and
 * AI_FAR_BUDGET bounds it where even that would not (the monster then
 * walks the best partial route and plans again where it ends).  Within
 * AI_FAR_PLAN of the goal the plan is exact again.
 */
static bool far_plan(const struct ai *ai, const struct ai_view *v, int here, int goal)
{
	return large_level(ai) && grid_heuristic(v->grid, here, goal) > AI_FAR_PLAN;
}

/* Rules 3 and 4 by a search of the monster's own, with its knobs. */
static void plan_search(struct ai *ai, const struct ai_view *v, const struct monster_kind *k,
			struct mind *mi, int here, int goal, bool crowd)
{
	struct path_options opt = path_options_default();
	opt.weight = k->weight;
	opt.fallback = true;
	opt.penalty = k->penalty;
	opt.budget = k->budget;
	/* A goal in the monster's own region is reachable, and with automatic
	 * P and no budget the fallback then gives the route a search without
	 * it gives: leave it out, so that a uniform square8 map is answered
	 * by jump point search (the same cost; between equally short routes
	 * it may pick another, as the shared flood may). */
	const int *region = !(k->penalty > 0) && k->budget <= 0 ? ai_regions(ai, v->grid) : NULL;
	if (region && region[here] >= 0 && region[here] == region[goal])
		opt.fallback = false;
	if (crowd) {
		crowd_fill(ai, v, k->crowd);
		opt.extra = ai->crowd;
	}
	/* far on a large level, toward a goal it surely reaches: a weighted
	 * search within a budget (rules 9) */
	if (!opt.fallback && far_plan(ai, v, here, goal)) {
		if (!(opt.weight >= AI_FAR_WEIGHT))
			opt.weight = AI_FAR_WEIGHT;
		opt.budget = AI_FAR_BUDGET;
	}
	struct path_result r;
	double t0 = clock_us();
	enum path_status st = path_find(ai->path, here, goal, &opt, &r);
	count_search(ai, r.expanded, clock_us() - t0);
	if (st == PATH_FALLBACK)
		ai->stats.fallbacks++;
	if (st == PATH_BUDGET)
		ai->stats.budget_hits++;
	if (st == PATH_BAD_INPUT || r.len < 1) {
		mi->route[0] = here;
		mi->route_len = 1;
		mi->route_stuck = true;
		return;
	}
	int len = r.len < mi->route_cap ? r.len : mi->route_cap;
	for (int i = 0; i < len; i++)
		mi->route[i] = r.cells[i];
	mi->route_len = len;
	mi->route_stuck = len == r.len && (st == PATH_FALLBACK || st == PATH_NO_ROUTE);
}

/* ---- sidesteps and own searchers far from their goal on large levels ---- */

/* The free neighbour of `here` nearer the source of fl (settled at here)
 * that starts the cheapest walk (the step's cost plus the distance from
 * there), not the player's cell; -1 none. */
static int downhill_free(const struct ai_view *v, struct flood_ctx *fl, int here)
{
	int pc = ai_player_cell(v), to = -1;
	double dh = flood_distance(fl, here), best = 0;
	struct grid_step s[GRID_MAX_NEIGHBOURS];
	int n = grid_neighbours(v->grid, here, false, s);
	for (int i = 0; i < n; i++) {
		int c = s[i].cell;
		if (c == pc || v->occupant[c] >= 0)
			continue;
		double d = flood_distance(fl, c);
		if (d < 0 || !(d < dh))
			continue;
		double f = d + s[i].step * v->grid->cost[c];
		if (to < 0 || f < best) {
			best = f;
			to = c;
		}
	}
	return to;
}

/* The route of a sidestep: here, then `to`; planned again at the next action. */
static void sidestep(const struct ai_view *v, struct mind *mi, int here, int to)
{
	mi->route[0] = here;
	mi->route[1] = to;
	mi->route_len = 2;
	mi->route_pos = 0;
	mi->route_stuck = false;
	mi->next_repath = v->turn;
}

bool ai_far(const struct ai *ai, const struct ai_view *v, int here, int goal)
{
	return large_level(ai) && grid_heuristic(v->grid, here, goal) > AI_NEAR_DIST;
}

bool ai_far_flood(struct ai *ai, const struct ai_view *v, const struct monster_kind *k, struct mind *mi, int here,
		  int goal, double penalty)
{
	if (!ai_far(ai, v, here, goal) || ai->flood_goal < 0 || !flood_finished(ai->flood) ||
	    !flood_settled(ai->flood, here))
		return false;
	double dg = flood_distance(ai->flood, goal);
	if (!(dg >= 0 && dg < AI_STALE_DIST))
		return false;
	int source = ai->flood_goal;
	/* Any route through a blocked cell costs at least h + P (h the
	 * straight distance), so the walk the flood gives (D) is no dearer
	 * when D - h <= P; far off, a walk up to an eighth of h dearer than
	 * that is taken too (the tolerance of ai_route_fresh): it digs, or
	 * presses against walls, where it counts, near its goal. */
	double h = grid_heuristic(v->grid, here, source);
	if (penalty > 0 && flood_distance(ai->flood, here) - h > penalty + h / AI_FRESH_RATIO)
		return false;
	plan_downhill(ai->flood, v, k, mi, here, source);
	return mi->route_len >= 2;
}

bool ai_far_rejoin(struct ai *ai, const struct ai_view *v, const struct monster_kind *k, struct mind *mi, int here,
		   int goal)
{
	int pos = mi->route_pos, last = mi->route_len - 1, pc = ai_player_cell(v);
	if (!ai_far(ai, v, here, goal) || k->crowd <= 0 || pos > last || mi->route[pos] != here)
		return false;
	/* where the whole flood serves, the free neighbour still downhill on
	 * it that starts the cheapest walk: no search (it plans again from
	 * there at its next action) */
	if (ai->flood_goal >= 0 && flood_finished(ai->flood) && flood_settled(ai->flood, here)) {
		double dg = flood_distance(ai->flood, goal);
		int to = dg >= 0 && dg < AI_STALE_DIST ? downhill_free(v, ai->flood, here) : -1;
		if (to >= 0) {
			sidestep(v, mi, here, to);
			return true;
		}
	}
	/* with no way round near, it keeps its route and waits for the jam
	 * to move, as after a detour (no search again before the window ends) */
	int every = k->repath > 1 ? k->repath : 1;
	mi->commit_until = v->turn + (every > AI_CROWD_COMMIT ? every : AI_CROWD_COMMIT);
	/* the farthest free, passable cell of its route at most AI_REJOIN
	 * steps on, and at least two (the next one is held) */
	int j = pos + AI_REJOIN < last ? pos + AI_REJOIN : last;
	for (; j >= pos + 2; j--) {
		int c = mi->route[j];
		if (v->grid->cost[c] && v->occupant[c] < 0 && c != pc)
			break;
	}
	if (j < pos + 2)
		return true;
	struct path_options opt = path_options_default();
	opt.extra = ai_crowd(ai, v, k->crowd);
	opt.budget = AI_REJOIN_BUDGET;
	struct path_result r;
	double t0 = clock_us();
	enum path_status st = path_find(ai->path, here, mi->route[j], &opt, &r);
	ai_count_search(ai, &r, clock_us() - t0);
	int tail = last - j;
	if (st != PATH_FOUND || r.len < 2 || r.len + tail > mi->route_cap)
		return true;
	memmove(mi->route + r.len, mi->route + j + 1, (size_t)tail * sizeof *mi->route);
	memcpy(mi->route, r.cells, (size_t)r.len * sizeof *mi->route);
	mi->route_len = r.len + tail;
	mi->route_pos = 0;
	return true;
}

/* Plans a route from the monster's cell toward goal (rule 3, or rule 4 with crowd). */
static void plan(struct ai *ai, const struct ai_view *v, const struct monster *m, struct mind *mi,
		 int goal, bool crowd)
{
	const struct monster_kind *k = m->kind;
	int here = ai_monster_cell(v, m);
	/* rule 4 for an own searcher far from its goal: round the monster in
	 * its way and back onto its own route (docs/ai.md, "Scale") */
	if (crowd && !shareable_in(ai, k) && ai_far_rejoin(ai, v, k, mi, here, goal))
		return;
	int every = k->repath > 1 ? k->repath : 1;
	mi->next_repath = (v->turn / every + 1) * every;
	mi->commit_until = crowd ? v->turn + (every > AI_CROWD_COMMIT ? every : AI_CROWD_COMMIT) : 0;
	mi->route_goal = goal;
	mi->route_pos = 0;
	mi->route_stuck = false;

	struct flood_ctx *fl = shareable_in(ai, k) ? flood_reach(ai, v, goal, here) : NULL;
	bool flood = fl && flood_settled(fl, here);
	if (flood && !crowd) {
		plan_downhill(fl, v, k, mi, here, goal);
		return;
	}
	if (flood && crowd && plan_crowd_on_flood(ai, fl, v, k, mi, here))
		return;
	if (!crowd && !shareable_in(ai, k) && ai_far_flood(ai, v, k, mi, here, goal, k->penalty))
		return;
	plan_search(ai, v, k, mi, here, goal, crowd);
}

void ai_crowd_detour(struct ai *ai, const struct ai_view *v, const struct monster *m, struct mind *mi, int goal)
{
	plan(ai, v, m, mi, goal, true);
}

/* Whether a monster of kind k that finds its next step held queues on a
 * large level (sidesteps downhill, else waits up to `wait_detour` actions
 * before a detour): a mind other than chase on the shared flood.  The
 * chase kinds have the crowd rule (crowd.c), or the detour rule as it
 * was; `waited` counts the waits (its crowd-rule priority is only read
 * for chase kinds). */
static bool queues(const struct ai *ai, const struct monster_kind *k)
{
	return crowd_horizon_rule(ai) && shareable_in(ai, k) && k->behaviour != MIND_CHASE;
}

/* The next cell of the route (rules 2-4), or -1 to wait. */
int ai_next_step(struct ai *ai, const struct ai_view *v, const struct monster *m, struct mind *mi,
		     int goal)
{
	if (needs_plan(ai, v, m, mi, goal))
		plan(ai, v, m, mi, goal, false);
	if (mi->route_pos + 1 >= mi->route_len)
		return -1;
	int next = mi->route[mi->route_pos + 1];
	if (v->occupant[next] >= 0) {
		if (m->kind->crowd <= 0)
			return -1;
		if (crowd_horizon_rule(ai) && shareable_in(ai, m->kind) && !free_neighbour(v, ai_monster_cell(v, m)))
			return -1;
		/* On a large level a detour is planned at most once per commit
		 * window: a monster whose detour is held again waits for the
		 * jam to move instead of planning another each action (the
		 * crowd replans were 60% of the AI time of 1,000 mixed hunters,
		 * docs/perf-log.md 2026-11-28). */
		if (crowd_horizon_rule(ai) && mi->commit_until > v->turn)
			return -1;
		/* On a large level a monster of a mind other than chase that
		 * follows the shared flood steps round the one in its way, to a
		 * free cell still nearer the goal, before it searches a detour
		 * (the detours were a third of the mixed benchmark's AI time,
		 * docs/perf-log.md 2026-11-28). */
		if (queues(ai, m->kind)) {
			int here = ai_monster_cell(v, m);
			struct flood_ctx *fl = ai_crowd_field(ai, v, goal, here);
			int to = fl ? downhill_free(v, fl, here) : -1;
			if (to >= 0) {
				sidestep(v, mi, here, to);
				mi->waited = 0;
				ai->plan_cell = to;
				return to;
			}
			/* walled in: it waits in the queue, and searches a
			 * detour only past its kind's `wait_detour` actions, as
			 * the crowd rule's hunters do (crowd.c) */
			if (mi->waited < m->kind->wait_detour) {
				mi->waited++;
				return -1;
			}
			mi->waited = 0;
		}
		plan(ai, v, m, mi, goal, true);
		if (mi->route_pos + 1 >= mi->route_len)
			return -1;
		next = mi->route[mi->route_pos + 1];
		if (v->occupant[next] >= 0)
			return -1;
	}
	if (queues(ai, m->kind))
		mi->waited = 0;
	ai->plan_cell = next;
	return next;
}

/* ---- the decision ------------------------------------------------------- */

struct ai_decision ai_wait(void)
{
	return (struct ai_decision){ .act = AI_WAIT, .cell = -1 };
}

struct ai_decision ai_step(int cell)
{
	return (struct ai_decision){ .act = AI_STEP, .cell = cell };
}

struct ai_decision ai_attack(int cell)
{
	return (struct ai_decision){ .act = AI_ATTACK, .cell = cell };
}

/* A decision written field by field: ai_decide_to's reader reads it so,
 * and a store of the whole built on the stack would be read back in a
 * load no store can forward (ai.h, ai_decide_to). */
static inline void put(struct ai_decision *d, enum ai_act act, int cell)
{
	d->act = act;
	d->cell = cell;
	d->tell = AI_TELL_NONE;
}

/* Fleeing: the free neighbour farthest from the player, if farther than
 * here; cornered and adjacent, it bites; otherwise it waits. */
static void flee(struct ai *ai, const struct ai_view *v, const struct monster *m, struct mind *mi,
		 struct ai_decision *d)
{
	int here = ai_monster_cell(v, m), pc = ai_player_cell(v);
	struct grid_step s[GRID_MAX_NEIGHBOURS];
	int n = grid_neighbours(v->grid, here, false, s);
	double best = grid_heuristic(v->grid, here, pc);
	int to = -1;
	for (int i = 0; i < n; i++) {
		int c = s[i].cell;
		if (c == pc || v->occupant[c] >= 0)
			continue;
		double far = grid_heuristic(v->grid, c, pc);
		if (far > best) {
			best = far;
			to = c;
		}
	}
	ai_mind_fini(mi);
	ai->plan_cell = to;
	if (to >= 0)
		put(d, AI_STEP, to);
	else if (ai_can_step(v->grid, here, pc))
		put(d, AI_ATTACK, pc);
	else
		put(d, AI_WAIT, -1);
}

/* Perceive and remember: sight sets the target, memory runs out unseen.
 * Returns whether the monster sees the player. */
static bool perceive(const struct ai *ai, const struct ai_view *v, const struct monster *m,
		     struct mind *mi)
{
	/* Asleep, it sees nothing; the player next to it wakes it (a noise
	 * wakes it through ai_mind_hear, --chase through ai_mind_alert). */
	if (mi->asleep) {
		if (!ai->all_hunt && grid_step_distance_xy(v->grid, m->x, m->y, v->player_x, v->player_y) > 1) {
			mi->sighted = mi->saw_player = false;
			return false;
		}
		mi->asleep = false;
	}
	bool sees = ai_sees_player(ai, v, m);
	mi->sighted = sees && !mi->saw_player;
	mi->saw_player = sees;
	if (sees) {
		ai_mind_alert(mi, m->kind, v->player_x, v->player_y, v->turn);
	} else if (mi->hunting) {
		mi->memory_left = m->kind->memory - (v->turn - mi->last_seen_turn);
		if (mi->memory_left < 0 ||
		    grid_index(v->grid, mi->target_x, mi->target_y) == ai_monster_cell(v, m)) {
			mi->hunting = false;
			ai_mind_fini(mi);
		}
	}
	return sees;
}

/*
 * The minds other than chase (bestiary.h enum mind_kind; docs/ai.md): each
 * decides what it can and returns false to leave the action to the chase
 * rule below (toward mi->target while hunting, else wait).  NULL: the kind
 * hunts as a chaser.
 */
static const ai_mind_fn minds[MIND_COUNT] = {
	[MIND_CHASE] = NULL,
	[MIND_RANGED] = ai_mind_ranged,
	[MIND_TRACK] = ai_mind_track,
	[MIND_DIG] = ai_mind_dig,
	[MIND_PACK] = mind_pack,
	[MIND_AMBUSH] = mind_ambush,
	[MIND_SWARM] = mind_swarm,
	[MIND_BREED] = mind_breed,
};


/* A random cell for a wanderer at `here`: passable, in its own region
 * (so reachable), not its own; -1 when the draws found none.  On a large
 * level its region is not asked (rules 10): its straight walk (wander_walk)
 * goes as far as the walls let it whatever the region, and region[] (4
 * bytes a cell, 64 MiB on 4096x4096) was two cache misses a draw. */
static int wander_pick(const struct ai *ai, const struct ai_view *v, int here)
{
	if (!v->rng)
		return -1;
	int x = grid_x(v->grid, here), y = grid_y(v->grid, here);
	/* the cells the draws will name, asked for all at once from a copy
	 * of the stream (the stream itself is drawn below as before): each
	 * draw's cost[] is a cache miss on a large level, and one waited for
	 * the next when a draw was a wall */
	struct rng ahead = *v->rng;
	for (int t = 0; t < WANDER_TRIES; t++) {
		int nx = x + ai_wander_draw(&ahead);
		int ny = y + ai_wander_draw(&ahead);
		if (grid_in_bounds(v->grid, nx, ny))
			__builtin_prefetch(&v->grid->cost[grid_index(v->grid, nx, ny)]);
	}
	for (int t = 0; t < WANDER_TRIES; t++) {
		int nx = x + ai_wander_draw(v->rng);
		int ny = y + ai_wander_draw(v->rng);
		if (!grid_in_bounds(v->grid, nx, ny))
			continue;
		int c = grid_index(v->grid, nx, ny);
		if (c != here && grid_passable(v->grid, c) && (large_level(ai) || ai->region[c] == ai->region[here]))
			return c;
	}
	return -1;
}

/*
 * A wanderer's way on a large level (rules 10; docs/ai.md, "Wandering"):
 * its straight walk toward its goal, no search.  From its cell it steps,
 * again and again, to the first neighbour it may step to (grid_neighbours:
 * passable, the corner rule; in the grid's order) that is nearest the goal
 * by the grid's straight distance, while that distance falls; the walk
 * ends at the goal, or short of it where no step comes nearer (a wall
 * across the way: route_stuck, so it draws another goal there).  Monsters
 * play no part (rule 3).  On the 4096x4096 bench level the bats' own
 * searches toward their goals were 3,500 a key, over half of an ordinary
 * key's CPU time (docs/perf-log.md, 2026-11-29, keys4).
 */
static void wander_walk(const struct ai_view *v, struct mind *mi, int here, int goal)
{
	const struct grid *g = v->grid;
	const int w = g->w, gx = grid_x(g, goal), gy = grid_y(g, goal);
	int len = 0, c = here, x = grid_x(g, c), y = grid_y(g, c);
	double h = grid_heuristic_xy(g, x, y, gx, gy);
	/* the walk stays in the box of here and the goal, and each step reads
	 * the rows round its cell: the box's rows asked for at once, not one
	 * miss after another as the walk reaches them (on a large level) */
	if ((g->topo == GRID_SQUARE8 || g->topo == GRID_SQUARE4) && abs(gy - y) <= 2 * WANDER_RANGE) {
		const int x0 = (x < gx ? x : gx) - 1, x1 = (x < gx ? gx : x) + 1;
		const int y0 = (y < gy ? y : gy) - 1, y1 = (y < gy ? gy : y) + 1;
		for (int r = y0 < 0 ? 0 : y0; r <= y1 && r < g->h; r++) {
			__builtin_prefetch(&g->cost[(long)r * w + (x0 < 0 ? 0 : x0)]);
			__builtin_prefetch(&g->cost[(long)r * w + (x1 >= w ? w - 1 : x1)]);
		}
	}
	mi->route[len++] = c;
	while (c != goal && len < mi->route_cap) {
		int to = -1;
		if ((g->topo == GRID_SQUARE8 || g->topo == GRID_SQUARE4) && x > 0 && y > 0 && x < w - 1 &&
		    y < g->h - 1) {
			/* inside a square map's border: grid_neighbours' steps in
			 * its order, each one's distance from its coordinates
			 * (no division a step; the grid's own function) */
			static const int dx[8] = { 0, -1, 1, 0, -1, 1, -1, 1 }, dy[8] = { -1, 0, 0, 1, -1, -1, 1, 1 };
			const uint8_t *k = g->cost + c;
			const bool open[4] = { k[-w] != 0, k[-1] != 0, k[1] != 0, k[w] != 0 };
			const int dirs = g->topo == GRID_SQUARE8 ? 8 : 4;
			int tx = x, ty = y;
			for (int i = 0; i < dirs; i++) {
				if (i < 4 ? !open[i] : !k[dx[i] + dy[i] * w] || !open[dx[i] < 0 ? 1 : 2] || !open[dy[i] < 0 ? 0 : 3])
					continue;
				double d = grid_square_heuristic(g->topo, x + dx[i] - gx, y + dy[i] - gy);
				if (d < h) {
					h = d;
					to = c + dx[i] + dy[i] * w;
					tx = x + dx[i];
					ty = y + dy[i];
				}
			}
			x = tx;
			y = ty;
		} else {
			struct grid_step s[GRID_MAX_NEIGHBOURS];
			int n = grid_neighbours(g, c, false, s);
			for (int i = 0; i < n; i++) {
				double d = grid_heuristic(g, s[i].cell, goal);
				if (d < h) {
					h = d;
					to = s[i].cell;
				}
			}
			if (to >= 0) {
				x = grid_x(g, to);
				y = grid_y(g, to);
			}
		}
		if (to < 0)
			break;
		c = to;
		mi->route[len++] = c;
	}
	mi->route_len = len;
	mi->route_pos = 0;
	mi->route_goal = goal;
	mi->route_stuck = c != goal;
	mi->commit_until = 0;
	mi->next_repath = v->turn;
}

/* The next cell of a wanderer's straight walk on a large level, walked
 * anew when it has none (ai_route_due: none, left, used up), or -1 to
 * wait.  A wanderer whose next cell another monster holds gives up its
 * goal and waits (it draws another at its next turn to: idle), where a
 * hunter would search a detour round the jam. */
static int wander_next(struct ai *ai, const struct ai_view *v, const struct monster *m, struct mind *mi)
{
	if (ai_route_due(v, m, mi, mi->wander) == AI_ROUTE_PLAN)
		wander_walk(v, mi, ai_monster_cell(v, m), mi->wander);
	if (mi->route_pos + 1 >= mi->route_len)
		return -1;
	int next = mi->route[mi->route_pos + 1];
	if (v->occupant[next] >= 0) {
		mi->wander = -1;
		return -1;
	}
	ai->plan_cell = next;
	return next;
}


/* A monster that hunts nothing: a wanderer walks to a random cell near
 * it, then to another; any other waits where it is. */
static void idle(struct ai *ai, const struct ai_view *v, const struct monster *m, struct mind *mi,
		 struct ai_decision *d)
{
	put(d, AI_WAIT, -1);
	if (!m->kind->wander)
		return;
	int here = ai_monster_cell(v, m);
	if (mi->wander == here)
		mi->wander = -1;
	if (mi->wander < 0) {
		if (ai_wander_waits(ai, v->turn, (int)(m - v->monsters)))
			return;
		mi->wander = wander_pick(ai, v, here);
		if (mi->wander < 0)
			return;
		ai_mind_fini(mi);
	}
	int next = large_level(ai) ? wander_next(ai, v, m, mi) : ai_next_step(ai, v, m, mi, mi->wander);
	if (next < 0 || !ai_can_step(v->grid, here, next) || next == ai_player_cell(v)) {
		if (mi->route_stuck || mi->route_len < 2)
			mi->wander = -1; /* no way there: another goal next time */
		return;
	}
	mi->route_pos++;
	put(d, AI_STEP, next);
}

static inline __attribute__((always_inline)) void decide(struct ai *ai, const struct ai_view *v, int self,
							struct mind *mi, struct ai_decision *d)
{
	const struct monster *m = &v->monsters[self];
	const struct monster_kind *k = m->kind;
	int here = ai_monster_cell(v, m), pc = ai_player_cell(v);
	ai->plan_cell = -1;
	ai->push_n = 0;
	bool sees = perceive(ai, v, m, mi);
	if (mi->asleep) {
		put(d, AI_WAIT, -1);
		return;
	}
	if ((sees || mi->hunting) && k->flee > 0 && (double)m->hp < k->flee * (double)k->hp) {
		mi->fleeing = true;
		mi->target_x = v->player_x;
		mi->target_y = v->player_y;
		mi->pressed = 0; /* a flight ends a ranged mind's back-offs in a row */
		flee(ai, v, m, mi, d);
		return;
	}
	mi->fleeing = false;
	ai_mind_fn mind = k->behaviour >= 0 && k->behaviour < MIND_COUNT ? minds[k->behaviour] : NULL;
	if (mind && mind(ai, v, self, mi, sees, d))
		return;
	if (!mi->hunting) {
		idle(ai, v, m, mi, d);
		return;
	}
	if (sees && ai_can_step(v->grid, here, pc)) {
		put(d, AI_ATTACK, pc);
		return;
	}
	int goal = grid_index(v->grid, mi->target_x, mi->target_y);
	/* the crowd rule pass is for hunters whose step comes from the shared field */
	bool pass = v->crowd_rule == CROWD_PASS && k->behaviour == MIND_CHASE && shareable_in(ai, k);
	int next = pass ? ai_crowd_step(ai, v, self, mi, goal) : ai_next_step(ai, v, m, mi, goal);
	/* the pass only ever returns a cell it may step to (crowd.c) */
	if (next < 0 || (!pass && !ai_can_step(v->grid, here, next))) {
		put(d, AI_WAIT, -1);
		return;
	}
	if (next == pc) {
		put(d, AI_ATTACK, pc);
		return;
	}
	mi->route_pos++; /* the rules carry the step out before the next decision */
	put(d, AI_STEP, next);
}

struct ai_decision ai_decide(struct ai *ai, const struct ai_view *v, int self, struct mind *mi)
{
	struct ai_decision d;
	decide(ai, v, self, mi, &d);
	return d;
}

void ai_decide_to(struct ai *ai, const struct ai_view *v, int self, struct mind *mi, struct ai_decision *d)
{
	decide(ai, v, self, mi, d);
}
