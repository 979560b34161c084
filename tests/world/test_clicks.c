/*
 * test_clicks.c - the player's clicks on large levels (rules 7): a click on
 * a known wall or into a region the known walls seal gets the fallback's
 * exact answer (the one an unbounded search over the player's memory
 * gives, as on small levels), not the travel budget's partial one; it
 * leaks no wall the player has not seen; and the region labels of known[]
 * that find it follow the player's discoveries cell by cell.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "test_game_fixture.h"

#include "game_internal.h"

#include "path.h"
#include "prune.h"
#include "region.h"
#include "testmaze.h"
#include "testrand.h"

#define BIG_W 330
#define BIG_H 240 /* 79,200 cells: more than the travel budget's 65,536 expansions */

/* Room corners (inclusive walls) of the sealed room, far from the player. */
#define ROOM_X0 290
#define ROOM_Y0 200
#define ROOM_X1 310
#define ROOM_Y1 220
/* A wall across the way, from the top edge down to UNSEEN_Y1, that the
 * player never sees. */
#define UNSEEN_X 160
#define UNSEEN_Y1 200

/* A w x h level's text: its border and the cells `wall` says are walls,
 * the player at (3, 3), stairs at (3, h - 3). */
static char *level_text(int w, int h, bool (*wall)(int x, int y, int arg), int arg)
{
	char *m = malloc((size_t)(w + 1) * (size_t)h + 1);
	assert_non_null(m);
	char *p = m;
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++)
			*p++ = x == 0 || y == 0 || x == w - 1 || y == h - 1 || wall(x, y, arg) ? '#'
			       : x == 3 && y == 3				       ? '@'
			       : x == 3 && y == h - 3				       ? '>'
										       : '.';
		*p++ = '\n';
	}
	*p = '\0';
	return m;
}

static bool big_wall(int x, int y, int arg)
{
	(void)arg;
	const bool room_wall = x >= ROOM_X0 && x <= ROOM_X1 && y >= ROOM_Y0 && y <= ROOM_Y1 &&
			       (x == ROOM_X0 || x == ROOM_X1 || y == ROOM_Y0 || y == ROOM_Y1);
	return room_wall || (x == UNSEEN_X && y <= UNSEEN_Y1);
}

/* A large level: the border, the unseen wall, the sealed room; the player
 * at (3, 3), stairs at the bottom left. */
static char *big_map(void)
{
	return level_text(BIG_W, BIG_H, big_wall, 0);
}

/* The player learns the sealed room (its walls and inside), as a map of it
 * would teach: known[] written by hand, counted as a change. */
static void learn_room(struct game *g)
{
	for (int y = ROOM_Y0; y <= ROOM_Y1; y++)
		for (int x = ROOM_X0; x <= ROOM_X1; x++) {
			const int c = grid_index(g->grid, x, y);
			g->remembered[c] = 1;
			g->known[c] = g->grid->cost[c];
		}
	game_maps_written(g);
	g->known_version++;
}

/* A grid of the player's memory (known[]'s costs). */
static struct grid *known_grid(const struct game *g)
{
	struct grid *k = grid_create(g->grid->w, g->grid->h, g->grid->topo);
	assert_non_null(k);
	for (int c = 0; c < g->grid->w * g->grid->h; c++)
		grid_set_cost(k, c, g->known[c]);
	return k;
}

/* The reference: the fallback over a copy of the player's memory, without
 * a budget (what the old code answered on any level small enough for its
 * budget); and the old code's own answer on this level (with the budget). */
static enum path_status reference(const struct game *g, int goal, bool budget, int **cells, int *len)
{
	struct grid *k = known_grid(g);
	struct path_ctx *ctx = path_create(k);
	assert_non_null(ctx);
	struct path_options opt = path_options_default();
	opt.fallback = true;
	opt.budget = budget ? TRAVEL_BUDGET : 0;
	struct path_result r;
	const enum path_status st =
		path_find(ctx, grid_index(g->grid, g->player.x, g->player.y), goal, &opt, &r);
	*len = r.len;
	*cells = malloc((size_t)r.len * sizeof **cells);
	assert_non_null(*cells);
	memcpy(*cells, r.cells, (size_t)r.len * sizeof **cells);
	path_destroy(ctx);
	grid_destroy(k);
	return st;
}

/* A click into the sealed room and one on its wall: the exact fallback
 * answer, cell for cell, where the budget gave a partial route; through
 * the wall the player has not seen, as if it were open. */
static void test_sealed_click_exact(void **state)
{
	(void)state;
	char *map = big_map();
	struct fixture f;
	struct game *g = fixture_game(&f, "square8", map, 1);
	free(map);
	learn_room(g);
	const int goals[][2] = { { 300, 210 }, { ROOM_X0, 205 }, { 300, ROOM_Y0 } };
	for (size_t q = 0; q < sizeof goals / sizeof goals[0]; q++) {
		const int goal = grid_index(g->grid, goals[q][0], goals[q][1]);
		int *want, *old, want_len, old_len;
		const enum path_status want_st = reference(g, goal, false, &want, &want_len);
		const enum path_status old_st = reference(g, goal, true, &old, &old_len);
		assert_int_equal(want_st, PATH_FALLBACK);
		/* the old budget could not settle the player's region: a partial route */
		assert_int_equal(old_st, PATH_BUDGET);
		const uint64_t before = game_hash(g);
		const int *cells;
		int len;
		assert_int_equal(game_travel_plan(g, goals[q][0], goals[q][1], &cells, &len), PATH_FALLBACK);
		assert_true(game_hash(g) == before);
		assert_int_equal(len, want_len);
		assert_memory_equal(cells, want, (size_t)len * sizeof *cells);
		/* it ends beside the room's wall, and crosses the unseen wall */
		const int end = cells[len - 1];
		assert_true(grid_x(g->grid, end) >= ROOM_X0 - 1 && grid_y(g->grid, end) >= ROOM_Y0 - 1);
		int unseen = 0;
		for (int i = 0; i < len; i++) {
			assert_true(g->known[cells[i]] != 0);
			unseen += !grid_passable(g->grid, cells[i]);
		}
		assert_true(unseen > 0);
		free(want);
		free(old);
	}
	fixture_fini(&f);
}

/* The labels of known[]: made once, then kept up to date cell by cell as
 * the player walks and sees walls (no full labelling again), and they
 * describe known[] exactly: one region per component of its open cells. */
static void test_labels_follow_discoveries(void **state)
{
	(void)state;
	char *map = big_map();
	struct fixture f;
	struct game *g = fixture_game(&f, "square8", map, 1);
	free(map);
	const int *cells;
	int len;
	game_travel_plan(g, 300, 210, &cells, &len);
	assert_non_null(g->reach.labels);
	assert_int_equal(region_rebuilds(g->reach.labels), 1);
	/* walk toward the unseen wall: it comes into view cell by cell */
	const unsigned v0 = g->known_version;
	travel_all(g, UNSEEN_X - 1, 20);
	assert_true(g->known_version > v0 + 10);
	assert_true(g->reach.labels_ok);
	assert_int_equal(g->reach.labels_version, g->known_version);
	assert_int_equal(region_rebuilds(g->reach.labels), 1);
	/* the same partition of known[]'s open cells as a fresh labelling */
	struct region *fresh = region_create_over(g->grid, g->known, false);
	assert_non_null(fresh);
	assert_true(region_current(g->reach.labels, g->known, false));
	assert_int_equal(region_count(fresh), region_count(g->reach.labels));
	const int n = g->grid->w * g->grid->h;
	const int32_t a0 = region_of(g->reach.labels, grid_index(g->grid, 3, 3));
	const int32_t b0 = region_of(fresh, grid_index(g->grid, 3, 3));
	for (int c = 0; c < n; c++) {
		assert_int_equal(region_of(g->reach.labels, c) < 0, region_of(fresh, c) < 0);
		assert_int_equal(region_of(g->reach.labels, c) == a0, region_of(fresh, c) == b0);
	}
	region_destroy(fresh);
	/* labels forgotten (as after a restore) are made anew: the same answer */
	learn_room(g);
	int *want, want_len;
	reference(g, grid_index(g->grid, 300, 210), false, &want, &want_len);
	g->reach.labels_ok = false;
	assert_int_equal(game_travel_plan(g, 300, 210, &cells, &len), PATH_FALLBACK);
	assert_int_equal(len, want_len);
	assert_memory_equal(cells, want, (size_t)len * sizeof *cells);
	assert_int_equal(region_rebuilds(g->reach.labels), 2);
	free(want);
	fixture_fini(&f);
}

/* A FAR_W x FAR_H open level with the player at (3, 3) and, when
 * `walls` > 0, that many walls across it from top to bottom, evenly
 * spaced, each with a gap of 7 cells at one end, at the bottom for the
 * first and at alternate ends after it (a U trap for one wall, a
 * serpentine for many). */
#define FAR_W 400
#define FAR_H 300
static bool far_wall(int x, int y, int walls)
{
	const int k = walls > 0 && x % (FAR_W / (walls + 1)) == 0 ? x / (FAR_W / (walls + 1)) : 0;
	const bool gap = k % 2 ? y >= FAR_H - 8 : y <= 7;
	return k >= 1 && k <= walls && !gap;
}

static char *far_map(int walls)
{
	return level_text(FAR_W, FAR_H, far_wall, walls);
}

/* A square8 game of the level text `map` (freed), its whole map learnt,
 * as after a scroll of magic mapping.  Its regions are smaller than
 * TRAVEL_WHOLE_REGION; whole_region 0 plans on them as play plans on a
 * level whose regions are larger (rules 11), TRAVEL_WHOLE_REGION as play
 * plans on these (rules 12). */
static struct game *mapped_game_whole(struct fixture *f, char *map, long whole_region)
{
	struct game *g = fixture_game(f, "square8", map, 1);
	free(map);
	g->reach.whole_region = whole_region;
	game_map_level(g, 0);
	return g;
}

static struct game *mapped_game(struct fixture *f, char *map)
{
	return mapped_game_whole(f, map, 0);
}

/* A search over a copy of the player's memory, as the old code planned a
 * click on a large level (weight 1, the travel budget) or without a
 * budget; its status, cost and cells. */
static enum path_status known_search_from(const struct game *g, int start, int goal, bool fallback, double weight,
					  long budget, struct path_result *out, int **cells);

static enum path_status known_search(const struct game *g, int goal, double weight, long budget, double *cost,
				     int **cells, int *len)
{
	struct path_result r;
	const enum path_status st = known_search_from(g, grid_index(g->grid, g->player.x, g->player.y), goal, false,
						      weight, budget, &r, cells);
	*cost = r.cost;
	*len = r.len;
	return st;
}

/* The same from any start, with or without the fallback; *out's cells are
 * copied to *cells when asked (its own are gone with the context). */
static enum path_status known_search_from(const struct game *g, int start, int goal, bool fallback, double weight,
					  long budget, struct path_result *out, int **cells)
{
	struct grid *k = known_grid(g);
	struct path_ctx *ctx = path_create(k);
	assert_non_null(ctx);
	struct path_options opt = path_options_default();
	opt.weight = weight;
	opt.budget = budget;
	opt.fallback = fallback;
	struct path_result r;
	const enum path_status st = path_find(ctx, start, goal, &opt, &r);
	*out = r;
	out->cells = NULL;
	if (cells) {
		*cells = malloc((size_t)r.len * sizeof **cells);
		assert_non_null(*cells);
		memcpy(*cells, r.cells, (size_t)r.len * sizeof **cells);
	}
	path_destroy(ctx);
	grid_destroy(k);
	return st;
}

/* The cost of a walk over the player's memory; every step one a mover may
 * take there (its neighbours, the corner rule kept). */
static double walk_cost(const struct game *g, const int *cells, int len)
{
	struct grid *k = known_grid(g);
	double cost = 0;
	for (int i = 1; i < len; i++) {
		struct grid_step nb[GRID_MAX_NEIGHBOURS];
		const int n = grid_neighbours(k, cells[i - 1], false, nb);
		int j = 0;
		while (j < n && nb[j].cell != cells[i])
			j++;
		assert_true(j < n);
		cost += nb[j].step * g->known[cells[i]];
	}
	grid_destroy(k);
	return cost;
}

/* Rules 11: a far click the player can reach, whose shortest route the
 * budget cannot find (two walls across a mapped level), gets a whole route
 * by weighted A*, within its weight of the shortest, and travel walks it
 * to the goal, where the old code walked the budget's partial route and
 * said the spot could not be reached. */
static void test_far_click_whole_route(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = mapped_game(&f, far_map(2));
	const int gx = FAR_W - 10, gy = 3, goal = grid_index(g->grid, gx, gy);
	double best, old_cost;
	int *shortest, best_len, old_len;
	assert_int_equal(known_search(g, goal, 1.0, 0, &best, &shortest, &best_len), PATH_FOUND);
	assert_true(fabs(walk_cost(g, shortest, best_len) - best) < 1e-6 * best);
	free(shortest);
	assert_int_equal(known_search(g, goal, 1.0, TRAVEL_BUDGET, &old_cost, NULL, &old_len), PATH_BUDGET);
	const int *cells;
	int len;
	const uint64_t before = game_hash(g);
	assert_int_equal(game_travel_plan(g, gx, gy, &cells, &len), PATH_FOUND);
	assert_true(game_hash(g) == before);
	assert_true(g->reach.weight > 1.0);
	assert_int_equal(cells[0], grid_index(g->grid, 3, 3));
	assert_int_equal(cells[len - 1], goal);
	const double cost = walk_cost(g, cells, len);
	assert_true(cost >= best - 1e-9 && cost <= g->reach.weight * best + 1e-9);
	assert_true(len > 600); /* the long way round both walls */
	/* Enter walks it all, step by step */
	assert_int_equal(travel_all(g, gx, gy), len - 1);
	assert_int_equal(g->player.x, gx);
	assert_int_equal(g->player.y, gy);
	assert_false(message_contains(g, "You cannot reach that spot"));
	fixture_fini(&f);
}

/* Rules 11: where even the last weight runs out of budget (a serpentine
 * of walls across a mapped level), travel walks the partial route and
 * plans the rest where it ends, until it arrives. */
static void test_far_click_planned_as_you_walk(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = mapped_game(&f, far_map(19));
	const int gx = FAR_W - 5, gy = FAR_H / 2, goal = grid_index(g->grid, gx, gy);
	double best, w_cost;
	int best_len, w_len;
	assert_int_equal(known_search(g, goal, 1.0, 0, &best, NULL, &best_len), PATH_FOUND);
	assert_int_equal(known_search(g, goal, 1.5, TRAVEL_BUDGET, &w_cost, NULL, &w_len), PATH_BUDGET);
	const int *cells;
	int len;
	assert_int_equal(game_travel_plan(g, gx, gy, &cells, &len), PATH_BUDGET);
	assert_true(g->reach.weight > 1.0);
	assert_true(len >= 2 && cells[len - 1] != goal);
	assert_int_equal(act_travel(g, gx, gy), RESULT_ACTED);
	assert_true(g->travel.partial);
	assert_true(message_contains(g, "It is a long way there"));
	int steps = 1;
	while (g->travel.active && steps < 20000 && act_travel_step(g) == RESULT_ACTED)
		steps++;
	assert_int_equal(g->player.x, gx);
	assert_int_equal(g->player.y, gy);
	/* a walk of several parts, none shorter than the shortest route */
	assert_true(steps >= best_len - 1);
	assert_false(message_contains(g, "You cannot reach that spot"));
	fixture_fini(&f);
}

/* Rules 12: on a region of at most TRAVEL_WHOLE_REGION cells, the far
 * click of the serpentine above gets its shortest route at once (the
 * search's budget is the region's size more), and travel walks it in one
 * part; with whole_region one cell short of the region, rules 11's
 * partial route. */
static void test_far_click_whole_region(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = mapped_game_whole(&f, far_map(19), TRAVEL_WHOLE_REGION);
	const int gx = FAR_W - 5, gy = FAR_H / 2, goal = grid_index(g->grid, gx, gy);
	double best;
	int *shortest, best_len;
	assert_int_equal(known_search(g, goal, 1.0, 0, &best, &shortest, &best_len), PATH_FOUND);
	const int *cells;
	int len;
	assert_int_equal(game_travel_plan(g, gx, gy, &cells, &len), PATH_FOUND);
	assert_true(g->reach.weight == 1.0);
	assert_false(g->reach.out_of_reach);
	assert_true(g->reach.expanded > TRAVEL_BUDGET);
	assert_int_equal(len, best_len);
	assert_memory_equal(cells, shortest, (size_t)len * sizeof *cells);
	assert_true(fabs(walk_cost(g, cells, len) - best) < 1e-6 * best);
	free(shortest);
	/* the region's size is the edge: one cell less, and rules 11 answer */
	const long region = region_size(g->reach.labels, grid_index(g->grid, 3, 3));
	assert_true(region > TRAVEL_BUDGET && region <= TRAVEL_WHOLE_REGION);
	g->reach.whole_region = region - 1;
	assert_int_equal(game_travel_plan(g, gx, gy, &cells, &len), PATH_BUDGET);
	g->reach.whole_region = region;
	assert_int_equal(game_travel_plan(g, gx, gy, &cells, &len), PATH_FOUND);
	/* Enter walks it all in one part, and never says it is a long way */
	assert_int_equal(act_travel(g, gx, gy), RESULT_ACTED);
	assert_false(g->travel.partial);
	int steps = 1;
	while (g->travel.active && steps < 20000 && act_travel_step(g) == RESULT_ACTED) {
		assert_false(g->travel.partial);
		steps++;
	}
	assert_int_equal(steps, best_len - 1);
	assert_int_equal(g->player.x, gx);
	assert_int_equal(g->player.y, gy);
	assert_false(message_contains(g, "It is a long way there"));
	assert_false(message_contains(g, "You cannot reach that spot"));
	fixture_fini(&f);
}

/* A mapped far_map(walls) with a block of rock far from the player. */
static struct game *rock_game(struct fixture *f, int walls)
{
	char *map = far_map(walls);
	for (int y = 100; y <= 170; y++)
		for (int x = 300; x <= 370; x++)
			map[y * (FAR_W + 1) + x] = '#';
	return mapped_game(f, map);
}

/* Whether `end` is a cut point toward `goal` through as many walls as the
 * fallback's own answer from the player: the fallback from there goes
 * nowhere, crossing `walls` blocked cells. */
static void assert_cut_point(const struct game *g, int end, int goal, int walls)
{
	struct path_result there;
	assert_int_equal(known_search_from(g, end, goal, true, 1.0, 0, &there, NULL), PATH_FALLBACK);
	assert_int_equal(there.len, 1);
	assert_int_equal(there.blocked_crossed, walls);
}

/* The fallback's answer over a copy of the player's memory with its
 * region labels and no budget (path.c's fallback_deep for a goal two or
 * more blocked cells away); its walk copied to *cells. */
static enum path_status known_labelled_search(const struct game *g, int start, int goal, struct path_result *out,
					      int **cells)
{
	struct grid *k = known_grid(g);
	struct path_ctx *ctx = path_create(k);
	struct region *labels = region_create(k, false);
	assert_non_null(ctx);
	assert_non_null(labels);
	struct path_options opt = path_options_default();
	opt.fallback = true;
	opt.regions = labels;
	const enum path_status st = path_find(ctx, start, goal, &opt, out);
	*cells = malloc((size_t)out->len * sizeof **cells);
	assert_non_null(*cells);
	memcpy(*cells, out->cells, (size_t)out->len * sizeof **cells);
	out->cells = NULL;
	region_destroy(labels);
	path_destroy(ctx);
	grid_destroy(k);
	return st;
}

/* Rules 12: a click deep in rock, or in a pocket of floor the rock seals,
 * on a mapped level larger than the budget gets the fallback's own answer,
 * through the fewest walls and then at the least cost (path.c's
 * fallback_deep within the budget: it does not settle the player's region
 * first, as the layered search does), where rules 11 walked to a cut point
 * found from the goal's side at a cost kept only roughly.  The layered
 * search without a budget crosses as many walls; and the answer is the
 * same with the region searched whole or not. */
static void test_far_click_into_rock(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = rock_game(&f, 0);
	const int start = grid_index(g->grid, 3, 3), pocket = grid_index(g->grid, 335, 135);
	const int goals[][2] = { { 335, 135 }, { 310, 160 }, { 300, 100 }, { 370, 170 }, { 335, 135 } };
	for (size_t q = 0; q < sizeof goals / sizeof goals[0]; q++) {
		if (q == 4) { /* the pocket: open in known[], a region of its own */
			g->known[pocket] = 1;
			game_maps_written(g);
			g->known_version++;
		}
		const int goal = grid_index(g->grid, goals[q][0], goals[q][1]);
		struct path_result exact, old, want;
		int *want_cells;
		assert_int_equal(known_search_from(g, start, goal, true, 1.0, 0, &exact, NULL), PATH_FALLBACK);
		assert_int_equal(known_search_from(g, start, goal, true, 1.0, TRAVEL_BUDGET, &old, NULL), PATH_BUDGET);
		assert_int_equal(known_labelled_search(g, start, goal, &want, &want_cells), PATH_FALLBACK);
		for (int k = 0; k < 2; k++) {
			g->reach.whole_region = k ? TRAVEL_WHOLE_REGION : 0;
			const int *cells;
			int len;
			assert_int_equal(game_travel_plan(g, goals[q][0], goals[q][1], &cells, &len), PATH_FALLBACK);
			assert_false(g->reach.out_of_reach);
			assert_true(g->reach.weight == 1.0);
			assert_int_equal(len, want.len);
			assert_memory_equal(cells, want_cells, (size_t)len * sizeof *cells);
			assert_cut_point(g, cells[len - 1], goal, exact.blocked_crossed);
			assert_true(fabs(walk_cost(g, cells, len) - want.cost) < 1e-6 * (want.cost + 1));
		}
		free(want_cells);
	}
	g->known[pocket] = 0;
	game_maps_written(g);
	g->known_version++;
	g->reach.whole_region = 0;
	const int *cells;
	int len;
	game_travel_plan(g, goals[0][0], goals[0][1], &cells, &len);
	const int end = cells[len - 1];
	assert_int_equal(travel_all(g, goals[0][0], goals[0][1]), len - 1);
	assert_int_equal(grid_index(g->grid, g->player.x, g->player.y), end);
	assert_true(message_contains(g, "You cannot reach that spot"));
	fixture_fini(&f);
}

/* The same behind two walls, where weights 1.5 and 2 run out of budget on
 * the way to the cut point: rules 18's last weight (3) finds the whole
 * way, walked in one part; behind a serpentine of 19 walls even that runs
 * out, and travel walks it in parts.  Either way it stops at a cut point
 * as good. */
static void test_far_click_into_rock_in_parts(void **state)
{
	(void)state;
	static const int walls[] = { 2, 19 };
	for (int k = 0; k < 2; k++) {
		struct fixture f;
		struct game *g = rock_game(&f, walls[k]);
		const int start = grid_index(g->grid, 3, 3), gx = 335, gy = 135, goal = grid_index(g->grid, gx, gy);
		struct path_result exact;
		assert_int_equal(known_search_from(g, start, goal, true, 1.0, 0, &exact, NULL), PATH_FALLBACK);
		const int *cells;
		int len;
		const enum path_status st = game_travel_plan(g, gx, gy, &cells, &len);
		assert_true(g->reach.weight > 1.0);
		if (k == 0) {
			assert_int_equal(st, PATH_FALLBACK);
			assert_true(g->reach.weight == 3.0);
			/* the weighted walk to the cut point it found costs at most 3 times the
			 * shortest there */
			struct path_result to_end;
			assert_int_equal(known_search_from(g, start, cells[len - 1], false, 1.0, 0, &to_end, NULL),
					 PATH_FOUND);
			assert_true(walk_cost(g, cells, len) <= 3.0 * to_end.cost + 1e-6);
		} else {
			assert_int_equal(st, PATH_BUDGET);
		}
		int steps = act_travel(g, gx, gy) == RESULT_ACTED;
		assert_int_equal(g->travel.partial, k == 1);
		while (g->travel.active && steps < 20000 && act_travel_step(g) == RESULT_ACTED)
			steps++;
		assert_false(g->travel.active);
		assert_cut_point(g, grid_index(g->grid, g->player.x, g->player.y), goal, exact.blocked_crossed);
		assert_true(steps >= exact.len - 1);
		/* out of reach, whatever the way's length: said so, not "a long way" */
		assert_true(message_contains(g, "You cannot reach that spot"));
		assert_false(message_contains(g, "It is a long way there"));
		fixture_fini(&f);
	}
}

static bool thick_rock(int x, int y, int arg)
{
	(void)arg;
	return x >= 280 && x < 580 && y >= 10 && y < 310;
}

/* Rules 11: a click deep in rock too thick for the search from the goal's
 * side (a 300x300 block: the player's region lies 150 cells from its
 * middle, past 65,536 cells of rock) walks to the region's cell nearest
 * the goal in steps (150: the block's bottom and right faces), the one
 * of those nearest the straight way, where the old code walked the
 * budget's partial route. */
static void test_far_click_into_thick_rock(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = mapped_game(&f, level_text(600, 320, thick_rock, 0));
	const int gx = 430, gy = 160, goal = grid_index(g->grid, gx, gy);
	struct path_result old;
	assert_int_equal(known_search_from(g, grid_index(g->grid, 3, 3), goal, true, 1.0, TRAVEL_BUDGET, &old, NULL),
			 PATH_BUDGET);
	const int *cells;
	int len;
	/* a pocket of floor in the middle of the block: the same walk (rules
	 * 12; rules 11 lost an open goal before the first layer from it) */
	g->known[goal] = 1;
	game_maps_written(g);
	g->known_version++;
	assert_int_equal(game_travel_plan(g, gx, gy, &cells, &len), PATH_FALLBACK);
	assert_true(g->reach.out_of_reach);
	assert_int_equal(grid_step_distance(g->grid, cells[len - 1], goal), 150);
	g->known[goal] = 0;
	game_maps_written(g);
	g->known_version++;
	assert_int_equal(game_travel_plan(g, gx, gy, &cells, &len), PATH_FALLBACK);
	assert_true(g->reach.out_of_reach);
	const int end = cells[len - 1];
	assert_int_equal(grid_step_distance(g->grid, end, goal), 150);
	/* of the cells 150 steps away, one nearest the straight way, as the
	 * bottom face's left end (280, 310) is */
	const int start = grid_index(g->grid, 3, 3), corner = grid_index(g->grid, 280, 310);
	assert_true(grid_heuristic(g->grid, start, end) + grid_heuristic(g->grid, end, goal) <=
		    grid_heuristic(g->grid, start, corner) + grid_heuristic(g->grid, corner, goal) + 1e-9);
	assert_int_equal(travel_all(g, gx, gy), len - 1);
	const int here = grid_index(g->grid, g->player.x, g->player.y);
	assert_int_equal(here, end);
	struct grid_step adj[GRID_MAX_NEIGHBOURS];
	const int n = grid_adjacent(g->grid, here, adj);
	int rock = 0;
	for (int i = 0; i < n; i++)
		rock += !grid_passable(g->grid, adj[i].cell);
	assert_true(rock > 0);
	assert_true(message_contains(g, "You cannot reach that spot"));
	fixture_fini(&f);
}

/* The cell deep_nearest must choose for `goal` from player cell `from`: of
 * the open cells of the player's region, the fewest steps from the goal,
 * then the least heuristic from the player plus to the goal, then the
 * lowest index. */
static int nearest_open(const struct game *g, int from, int goal)
{
	const int n = g->grid->w * g->grid->h, home = region_of(g->reach.labels, from);
	int nearest = -1, best = -1;
	double best_score = 0;
	for (int c = 0; c < n; c++) {
		if (!g->known[c] || region_of(g->reach.labels, c) != home)
			continue;
		const int steps = grid_step_distance(g->grid, c, goal);
		const double score = grid_heuristic(g->grid, from, c) + grid_heuristic(g->grid, c, goal);
		if (best < 0 || steps < nearest || (steps == nearest && score < best_score)) {
			nearest = steps;
			best = c;
			best_score = score;
		}
	}
	return best;
}

/* A click in the thick rock block where a corridor of floor the rock seals
 * (a pocket the player has mapped, outside the player's region) leads
 * from beside the goal along the goal's row to the block's right face but
 * one cell.  Through the pocket the rock is crossed at two walls, where
 * the region's cells nearest the goal lie 20 or 150 walls away; the
 * pocket's end is far from the player (the block lies between), so the
 * fallback's own search from the player runs out of its budget first, and
 * deep_target's search from the goal's side answers.  The walk ends
 * beside the pocket's end, not at the nearest cell (which deep_nearest
 * gives, and must not give in deep_target's stead when a pocket of floor
 * lies this near the goal). */
static void assert_walks_through_pocket(int gx, int gy)
{
	struct fixture f;
	struct game *g = mapped_game(&f, level_text(600, 320, thick_rock, 0));
	const int start = grid_index(g->grid, 3, 3), goal = grid_index(g->grid, gx, gy);
	for (int x = gx + 1; x <= 578; x++)
		g->known[grid_index(g->grid, x, gy)] = 1;
	game_maps_written(g);
	g->known_version++;
	struct path_result exact;
	assert_int_equal(known_search_from(g, start, goal, true, 1.0, 0, &exact, NULL), PATH_FALLBACK);
	assert_int_equal(exact.blocked_crossed, 2);
	const int *cells;
	int len;
	assert_int_equal(game_travel_plan(g, gx, gy, &cells, &len), PATH_FALLBACK);
	assert_true(g->reach.out_of_reach); /* deep_target's answer, not fallback_deep's */
	const int end = cells[len - 1];
	assert_int_equal(grid_x(g->grid, end), 580);
	assert_in_range(grid_y(g->grid, end), gy - 2, gy + 2);
	assert_cut_point(g, end, goal, 2);
	/* The way to the cut point: the shortest, found within the click's
	 * budget (TRAVEL_BUDGET: mapped_game searches no region whole) after
	 * the fallback's own search ran out of the same budget (its count
	 * from the goal's side was 2 walls, and its A* from the player,
	 * guided to the goal in the middle of the rock, pops the block's near
	 * side first). */
	const long budget = TRAVEL_BUDGET;
	struct path_result shortest;
	int *want = NULL;
	assert_int_equal(known_search_from(g, start, end, false, 1.0, budget, &shortest, &want), PATH_FOUND);
	assert_true(g->reach.weight == 1.0);
	assert_int_equal(g->reach.expanded, budget + shortest.expanded);
	assert_int_equal(len, shortest.len);
	assert_memory_equal(cells, want, (size_t)len * sizeof *cells);
	free(want);
	const int nearest = nearest_open(g, start, goal);
	assert_true(grid_step_distance(g->grid, nearest, goal) < 150 ||
		    grid_x(g->grid, nearest) != 580);
	assert_int_equal(travel_all(g, gx, gy), len - 1);
	assert_int_equal(grid_index(g->grid, g->player.x, g->player.y), end);
	fixture_fini(&f);
}

/* Goals 150 steps from the region (more than 65,536 cells of rock lie
 * within 148 of them) and 20 steps from it (so few lie within 19 that the
 * search from the goal's side would find all of them). */
static void test_far_click_into_rock_pocket(void **state)
{
	(void)state;
	assert_walks_through_pocket(430, 160);
	assert_walks_through_pocket(430, 290);
}

/* The five grids, for the tests that hold a rule on each. */
static const enum grid_topology topos[] = { GRID_SQUARE4, GRID_SQUARE8, GRID_HEX, GRID_DIAMOND4, GRID_DIAMOND8 };

/* A floor level of topology `topo`, w x h cells, its whole map learnt. */
static struct game *mapped_floor_game(struct fixture *f, enum grid_topology topo, int w, int h)
{
	char *map = fixture_floor_map(topo, w, h);
	struct game *g = fixture_game(f, grid_topology_name(topo), map, 1);
	free(map);
	game_map_level(g, 0);
	return g;
}

/* Rules 11 on every grid: on a floor level too large for the budget,
 * whose player knows a 480x300 block of rock (too thick for the search
 * from the goal's side), a click in the block walks to a cell nearest the
 * goal in steps (held to every open cell), by steps a mover may take.  On
 * square maps the nearest face (x = 580, 133 steps) lies in a farther ring
 * of 64x64 squares than the bottom face (150 steps), so a search that
 * stopped at the first ring with an open cell would be caught. */
static void test_far_click_into_rock_every_grid(void **state)
{
	(void)state;
	/* the block and the goal; the second block is square, its goal at its
	 * middle, so that two faces tie in steps on square8 and the straight
	 * way decides */
	static const struct {
		int x0, x1, gx;
	} blocks[] = { { 100, 580, 447 }, { 140, 440, 290 } };
	for (size_t t = 0; t < 2 * sizeof topos / sizeof topos[0]; t++) {
		const int b = (int)(t % 2);
		struct fixture f;
		struct game *g = mapped_floor_game(&f, topos[t / 2], 600, 330);
		for (int y = 10; y < 310; y++)
			for (int x = blocks[b].x0; x < blocks[b].x1; x++)
				g->known[grid_index(g->grid, x, y)] = 0;
		game_maps_written(g);
		g->known_version++;
		const int goal = grid_index(g->grid, blocks[b].gx, 160);
		const int *cells;
		int len;
		assert_int_equal(game_travel_plan(g, blocks[b].gx, 160, &cells, &len), PATH_FALLBACK);
		assert_int_equal(cells[0], grid_index(g->grid, g->player.x, g->player.y));
		walk_cost(g, cells, len); /* every step one a mover may take */
		/* the end held to every open cell: the fewest steps, then the
		 * least heuristic from the player plus to the goal, then the
		 * lowest index (the search skips cells by bounds: none it skips
		 * may be this one) */
		const int best = nearest_open(g, cells[0], goal), nearest = grid_step_distance(g->grid, best, goal);
		if (grid_step_distance(g->grid, cells[len - 1], goal) != nearest)
			fail_msg("%s: the walk ends %d steps from the goal, the nearest open cell is %d",
				 grid_topology_name(topos[t / 2]), grid_step_distance(g->grid, cells[len - 1], goal),
				 nearest);
		if (cells[len - 1] != best)
			fail_msg("%s, block %d: the walk ends at %d, the nearest open cell nearest the straight way is %d",
				 grid_topology_name(topos[t / 2]), b, cells[len - 1], best);
		fixture_fini(&f);
	}
}

/*
 * deep_nearest's row bound at its edge (square8): a row dy away from the
 * goal holds cells as near as the best found when dy equals its steps.
 * The goal (959, 512) lies in rock that begins at x = 300, more than 250
 * walls from the player's region (so the fallback's own search declines
 * and the walk is planned from the goal's side); two corridors of that
 * region run into the rock, along row 517 to x = 659 (its tip 300 steps
 * from the goal, by columns, found first: the fourth ring of 64x64
 * squares) and along row 212 to x = 659 (300 steps too, by rows: dy 300,
 * in the fifth ring, and nearer the straight way from the player).  The
 * walk ends at the second; a row bound of dy >= steps would pass its row
 * over and end at the first.
 */
static void test_far_click_into_rock_row_bound(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = mapped_floor_game(&f, GRID_SQUARE8, 1100, 700);
	g->reach.whole_region = 0;
	for (int y = 0; y < 700; y++)
		for (int x = 300; x < 1100; x++)
			g->known[grid_index(g->grid, x, y)] = (y == 517 || y == 212) && x <= 659;
	game_maps_written(g);
	g->known_version++;
	const int goal = grid_index(g->grid, 959, 512), first = grid_index(g->grid, 659, 517);
	const int second = grid_index(g->grid, 659, 212);
	assert_int_equal(grid_step_distance(g->grid, first, goal), 300);
	assert_int_equal(grid_step_distance(g->grid, second, goal), 300);
	const int *cells;
	int len;
	assert_int_equal(game_travel_plan(g, 959, 512, &cells, &len), PATH_FALLBACK);
	assert_true(g->reach.out_of_reach); /* from the goal's side */
	assert_int_equal(nearest_open(g, cells[0], goal), second);
	if (cells[len - 1] != second)
		fail_msg("the walk ends at (%d,%d), not at the tip of row 212 (659,212)", grid_x(g->grid, cells[len - 1]),
			 grid_y(g->grid, cells[len - 1]));
	fixture_fini(&f);
}

/*
 * deep_nearest's bounds on every grid, held to every open cell: a floor
 * level whose right part (then, on a tall level, its lower part) the
 * player knows as rock, but for ragged inlets
 * of floor walked into it at random from its face (a step of the grid's
 * first four directions, six on hex, so each is one region with the
 * floor).  Clicks deep in the rock, too far from any inlet for the search
 * from the goal's side, walk to nearest_open's cell.  An inlet may reach
 * toward the goal along a row, a column or a diagonal, so a bound that
 * passed over a cell a step could reach (a row moved two at a time on
 * diamond8, a column two on hex) would be caught: forty goals a level, so
 * that some lie where a square's bound is tight (with three, a bound two
 * columns too tight passed; with forty it fails on square4).
 */
static void test_far_click_into_rock_ragged(void **state)
{
	(void)state;
	/* the rock beyond x = FACE (`down` 0) or beyond y = FACE (1), its
	 * inlets up to REACH, the goals past GOALS */
	enum { LONG = 900, SHORT = 400, FACE = 250, REACH = 460, GOALS = LONG - 60 };
	for (size_t t = 0; t < 2 * sizeof topos / sizeof topos[0]; t++) {
		const enum grid_topology topo = topos[t / 2];
		const bool down = t % 2;
		const int w = down ? SHORT : LONG, h = down ? LONG : SHORT;
		struct fixture f;
		struct game *g = mapped_floor_game(&f, topo, w, h);
		for (int y = 0; y < h; y++)
			for (int x = 0; x < w; x++)
				if ((down ? y : x) >= FACE)
					g->known[grid_index(g->grid, x, y)] = 0;
		uint32_t seed = 0x9e3779b9u + (uint32_t)t;
		const int dirs = topo == GRID_HEX ? 6 : 4;
		for (int inlet = 0; inlet < 24; inlet++) {
			const int across = 5 + (int)(rnd(&seed) % (SHORT - 10));
			int x = down ? across : FACE, y = down ? FACE : across;
			g->known[grid_index(g->grid, x, y)] = 1;
			for (int k = 0; k < 400; k++) {
				const int i = (int)(rnd(&seed) % (unsigned)dirs);
				const int nx = x + grid_nb_dx(topo, y, i), ny = y + grid_nb_dy(topo, i);
				const int deep = down ? ny : nx, side = down ? nx : ny;
				if (deep < FACE || deep >= REACH || side < 1 || side >= SHORT - 1)
					continue;
				x = nx;
				y = ny;
				g->known[grid_index(g->grid, x, y)] = 1;
			}
		}
		game_maps_written(g);
		g->known_version++;
		for (int q = 0; q < 40; q++) {
			const int deep = GOALS + (int)(rnd(&seed) % 50), side = 10 + (int)(rnd(&seed) % (SHORT - 20));
			const int gx = down ? side : deep, gy = down ? deep : side;
			const int *cells;
			int len;
			assert_int_equal(game_travel_plan(g, gx, gy, &cells, &len), PATH_FALLBACK);
			const int want = nearest_open(g, cells[0], grid_index(g->grid, gx, gy));
			if (cells[len - 1] != want)
				fail_msg("%s, goal (%d,%d): the walk ends at (%d,%d), the nearest open cell is (%d,%d)",
					 grid_topology_name(topo), gx, gy, grid_x(g->grid, cells[len - 1]),
					 grid_y(g->grid, cells[len - 1]), grid_x(g->grid, want), grid_y(g->grid, want));
		}
		fixture_fini(&f);
	}
}

/* A click at (gx, gy) deep in the rock of g walks to nearest_open's cell. */
static void assert_walks_to_nearest(struct game *g, int gx, int gy, const char *what)
{
	const int *cells;
	int len;
	assert_int_equal(game_travel_plan(g, gx, gy, &cells, &len), PATH_FALLBACK);
	const int want = nearest_open(g, cells[0], grid_index(g->grid, gx, gy));
	if (cells[len - 1] != want)
		fail_msg("%s, %s, goal (%d,%d): the walk ends at (%d,%d), the nearest open cell is (%d,%d)",
			 grid_topology_name(g->grid->topo), what, gx, gy, grid_x(g->grid, cells[len - 1]),
			 grid_y(g->grid, cells[len - 1]), grid_x(g->grid, want), grid_y(g->grid, want));
}

/*
 * deep_nearest's skipping on every grid: of the 64x64 squares, those
 * reach.open_squares counts no open cell in, and of a square's cells,
 * those past the bounds of a row (the cells within b steps of the goal
 * lie within cmax * b - slope * dy columns of it on the screen).  The
 * player knows the right part of a floor level as rock but for straight
 * inlets, each a step of one direction repeated from the face (a random
 * length, so that many end one cell into a square of their own), in the
 * directions that move right on the screen: diagonal ones on square8 and
 * diamond8 are regions of their own (no corner is cut), whose cells the
 * walk must pass over.  Clicks deep in the rock walk to nearest_open's
 * cell.  Then inlets grow cell by cell (game_known_changed) toward the
 * goals, into squares the counts had as rock, and the clicks are held to
 * nearest_open again: the counts follow known[].
 */
static void test_far_click_into_rock_tips(void **state)
{
	(void)state;
	enum { W = 900, H = 400, FACE = 250, REACH = 480, GOALS = W - 60 };
	for (size_t t = 0; t < sizeof topos / sizeof topos[0]; t++) {
		const enum grid_topology topo = topos[t];
		struct fixture f;
		struct game *g = mapped_floor_game(&f, topo, W, H);
		for (int y = 0; y < H; y++)
			for (int x = FACE; x < W; x++)
				g->known[grid_index(g->grid, x, y)] = 0;
		int right[GRID_MAX_NEIGHBOURS], n_right = 0; /* the directions that move right */
		for (int i = 0; i < grid_dir_count(topo); i++)
			if (2 * grid_nb_dx(topo, 0, i) + (grid_is_staggered(topo) ? grid_nb_dy(topo, i) & 1 : 0) > 0 &&
			    2 * grid_nb_dx(topo, 1, i) - (grid_is_staggered(topo) ? grid_nb_dy(topo, i) & 1 : 0) > 0)
				right[n_right++] = i;
		assert_true(n_right >= 1);
		uint32_t seed = 0x51ed270bu + (uint32_t)t;
		for (int inlet = 0; inlet < 60; inlet++) {
			const int i = right[rnd(&seed) % (unsigned)n_right], len = 1 + (int)(rnd(&seed) % 300);
			int x = FACE - 1, y = 5 + (int)(rnd(&seed) % (H - 10));
			for (int k = 0; k < len; k++) {
				const int nx = x + grid_nb_dx(topo, y, i), ny = y + grid_nb_dy(topo, i);
				if (nx >= REACH || ny < 1 || ny >= H - 1)
					break;
				x = nx;
				y = ny;
				g->known[grid_index(g->grid, x, y)] = 1;
			}
		}
		game_maps_written(g);
		g->known_version++;
		int goals[6][2];
		for (int q = 0; q < 6; q++) {
			goals[q][0] = GOALS + (int)(rnd(&seed) % 50);
			goals[q][1] = 10 + (int)(rnd(&seed) % (H - 20));
			assert_walks_to_nearest(g, goals[q][0], goals[q][1], "inlets");
		}
		assert_true(g->reach.open_squares_ok);
		/* inlets grown cell by cell, as the player sees them: from the
		 * face toward each goal, by the short steps that move right and
		 * keep nearest its row (so one region with the floor), past
		 * REACH to 300-340 cells short of it (still too far for the
		 * search from the goal's side) */
		for (int q = 0; q < 6; q++) {
			/* half of them stop at a square's first column, its one open cell */
			const int gy = goals[q][1], far = goals[q][0] - 300 - (int)(rnd(&seed) % 41);
			const int stop = q % 2 ? far / 64 * 64 : far;
			int x = FACE - 1, y = gy;
			while (x < stop) {
				int bx = -1, by = -1;
				for (int k = 0; k < n_right; k++) {
					const int nx = x + grid_nb_dx(topo, y, right[k]), ny = y + grid_nb_dy(topo, right[k]);
					if (!grid_nb_long(topo, right[k]) && (bx < 0 || abs(ny - gy) < abs(by - gy))) {
						bx = nx;
						by = ny;
					}
				}
				x = bx;
				y = by;
				const int c = grid_index(g->grid, x, y);
				if (!g->known[c]) {
					g->known[c] = 1;
					game_known_changed(g, c, 0);
				}
			}
			game_maps_written(g);
			assert_walks_to_nearest(g, goals[q][0], goals[q][1], "grown");
			assert_true(g->reach.open_squares_ok && g->reach.open_squares_version == g->known_version);
		}
		fixture_fini(&f);
	}
}

/* The key of the fallback's whole route from `start` to `goal` over a copy
 * of the player's memory, without a budget (past its cut point too:
 * path_route): its blocked cells, returned, and its cost in *cost (a step
 * into a blocked cell at its plain length). */
static int fallback_key(const struct game *g, int start, int goal, double *cost)
{
	struct grid *k = known_grid(g);
	struct path_ctx *ctx = path_create(k);
	assert_non_null(ctx);
	struct path_options opt = path_options_default();
	opt.fallback = true;
	struct path_result r;
	path_find(ctx, start, goal, &opt, &r);
	const int *route;
	const int n = path_route(ctx, &route);
	assert_true(n >= 1 && route[0] == start);
	int walls = 0;
	*cost = 0;
	for (int i = 1; i < n; i++) {
		struct grid_step adj[GRID_MAX_NEIGHBOURS];
		const int m = grid_adjacent(k, route[i - 1], adj);
		int j = 0;
		while (j < m && adj[j].cell != route[i])
			j++;
		assert_true(j < m);
		const uint8_t c = g->known[route[i]];
		*cost += adj[j].step * (c ? c : 1);
		walls += !c;
	}
	assert_int_equal(walls, r.blocked_crossed);
	path_destroy(ctx);
	grid_destroy(k);
	return walls;
}

/* Rules 12 on every grid: on a level whose player's region of known[] is
 * within TRAVEL_WHOLE_REGION, with rock, sealed boxes with walls 2-3
 * thick and pockets in them, every click gets the exact answer: a goal
 * the player can reach its shortest route's cost, any other a walk that
 * the fallback's whole route from its end completes to the unbounded
 * fallback's key (as many walls, the same cost), answered by the fallback
 * itself, never by the search from the goal's side. */
static void test_small_region_clicks_exact(void **state)
{
	(void)state;
	uint32_t seed = 4242;
	long found = 0, fell = 0, deep = 0;
	for (size_t t = 0; t < sizeof topos / sizeof topos[0]; t++) {
		struct fixture f;
		struct game *g = mapped_floor_game(&f, topos[t], 160, 110);
		const int w = g->grid->w, h = g->grid->h;
		for (int k = 0; k < 60; k++) { /* blobs of rock, and boxes with a pocket */
			seed = seed * 1664525u + 1013904223u;
			const int x0 = 8 + (int)(seed >> 8) % (w - 24), y0 = 8 + (int)(seed >> 20) % (h - 24);
			const int bw = 4 + (int)(seed % 11), th = 2 + (int)(seed >> 4) % 2, box = k % 3 == 0;
			for (int y = y0; y < y0 + bw; y++)
				for (int x = x0; x < x0 + bw; x++) {
					const bool wall = !box || x < x0 + th || y < y0 + th || x >= x0 + bw - th ||
							  y >= y0 + bw - th;
					if (wall)
						g->known[grid_index(g->grid, x, y)] = 0;
				}
		}
		const int px = g->player.x, py = g->player.y, start = grid_index(g->grid, px, py);
		g->known[start] = 1;
		game_maps_written(g);
		g->known_version++;
		for (int q = 0; q < 60; q++) {
			seed = seed * 1664525u + 1013904223u;
			const int gx = 1 + (int)(seed >> 8) % (w - 2), gy = 1 + (int)(seed >> 20) % (h - 2);
			const int goal = grid_index(g->grid, gx, gy);
			struct path_result exact;
			const enum path_status want = known_search_from(g, start, goal, true, 1.0, 0, &exact, NULL);
			const int *cells;
			int len;
			const enum path_status st = game_travel_plan(g, gx, gy, &cells, &len);
			assert_int_equal(st, want);
			assert_false(g->reach.out_of_reach);
			assert_true(g->reach.weight == 1.0);
			assert_int_equal(cells[0], start);
			if (st == PATH_FOUND) {
				assert_int_equal(cells[len - 1], goal);
				assert_true(fabs(walk_cost(g, cells, len) - exact.cost) < 1e-6 * (exact.cost + 1));
				found++;
			} else {
				assert_int_equal(st, PATH_FALLBACK);
				/* the walk and the fallback's whole route on from its
				 * end: the key of the fallback's own whole route (its
				 * cut point may differ among routes of that key) */
				double rest, whole;
				const int walls = fallback_key(g, cells[len - 1], goal, &rest);
				assert_int_equal(fallback_key(g, start, goal, &whole), exact.blocked_crossed);
				assert_int_equal(walls, exact.blocked_crossed);
				assert_true(fabs(walk_cost(g, cells, len) + rest - whole) < 1e-6 * (whole + 1));
				fell++;
				deep += exact.blocked_crossed >= 2;
			}
		}
		assert_true(region_size(g->reach.labels, start) <= TRAVEL_WHOLE_REGION);
		fixture_fini(&f);
	}
	print_message("%ld clicks reached, %ld out of reach (%ld two or more walls away)\n", found, fell, deep);
	assert_true(found >= 100 && fell >= 40 && deep >= 10);
}

/*
 * Rules 13: a far click on a mapped maze larger than the budget's reach
 * (131,000 open cells; whole_region 0, as play plans on regions larger
 * than TRAVEL_WHOLE_REGION) gets its shortest route at once through the
 * dead-end trees of known[], where rules 11's weighted searches ran out of
 * budget in the dead ends and travel walked partial routes into them.
 * With a few loops the cells between the trees (the core) are searched
 * within the budget: still the shortest.  The trees follow known[].
 */
static void test_far_click_maze_trees(void **state)
{
	(void)state;
	for (int loops = 0; loops <= 12; loops += 12) {
		struct fixture f;
		struct game *g = mapped_game(&f, test_maze_text(511, 511, 99u + (uint32_t)loops, loops, 0));
		/* the first cell of a walk along the maze's far edges that rules
		 * 11's last try (weight 1.5 within the budget) does not find */
		int gx = -1, gy = -1, goal = -1;
		double best, w_cost;
		int *shortest, best_len, w_len;
		for (int k = 0; k < 64 && goal < 0; k++) {
			const int x = k < 32 ? 509 : 509 - 16 * (k - 32), y = k < 32 ? 1 + 16 * k : 509;
			if (known_search(g, grid_index(g->grid, x, y), 1.5, TRAVEL_BUDGET, &w_cost, NULL, &w_len) ==
			    PATH_BUDGET)
				gx = x, gy = y, goal = grid_index(g->grid, x, y);
		}
		assert_true(goal >= 0);
		assert_int_equal(known_search(g, goal, 1.0, 0, &best, &shortest, &best_len), PATH_FOUND);
		print_message("%d loops: a click at %d,%d, %d steps away\n", loops, gx, gy, best_len - 1);
		const int *cells;
		int len;
		const uint64_t before = game_hash(g);
		assert_int_equal(game_travel_plan(g, gx, gy, &cells, &len), PATH_FOUND);
		assert_true(game_hash(g) == before);
		assert_non_null(g->reach.trees);
		assert_true(g->reach.weight == 1.0);
		assert_false(g->reach.out_of_reach);
		assert_int_equal(cells[0], grid_index(g->grid, 1, 1));
		assert_int_equal(cells[len - 1], goal);
		assert_true(fabs(walk_cost(g, cells, len) - best) < 1e-6 * best);
		if (loops == 0) { /* one route only */
			assert_int_equal(len, best_len);
			assert_memory_equal(cells, shortest, (size_t)len * sizeof *cells);
		}
		free(shortest);
		/* travel walks it in one part */
		assert_int_equal(act_travel(g, gx, gy), RESULT_ACTED);
		assert_false(g->travel.partial);
		int steps = 1;
		while (g->travel.active && steps < 200000 && act_travel_step(g) == RESULT_ACTED) {
			assert_false(g->travel.partial);
			steps++;
		}
		assert_int_equal(g->player.x, gx);
		assert_int_equal(g->player.y, gy);
		assert_int_equal(steps, len - 1);
		assert_false(message_contains(g, "It is a long way there"));
		/* a discovery off the way: a dead end's last cell is a wall; the
		 * trees are peeled again, and the way back is still the shortest */
		const unsigned peeled_on = g->reach.trees_version;
		int tip = -1;
		for (int c = 0; c < g->grid->w * g->grid->h && tip < 0; c++) {
			struct grid_step nb[GRID_MAX_NEIGHBOURS];
			if (g->known[c] && c != goal && c != grid_index(g->grid, 1, 1) &&
			    grid_neighbours(g->grid, c, false, nb) == 1)
				tip = c;
		}
		assert_true(tip >= 0);
		g->known[tip] = 0;
		game_maps_written(g);
		g->known_version++;
		double back;
		int back_len;
		assert_int_equal(known_search(g, grid_index(g->grid, 1, 1), 1.0, 0, &back, NULL, &back_len), PATH_FOUND);
		assert_int_equal(game_travel_plan(g, 1, 1, &cells, &len), PATH_FOUND);
		assert_true(g->reach.trees_ok && g->reach.trees_version == g->known_version);
		assert_true(g->reach.trees_version != peeled_on);
		assert_true(g->reach.weight == 1.0);
		assert_true(fabs(walk_cost(g, cells, len) - back) < 1e-6 * back);
		fixture_fini(&f);
	}
}

/*
 * Rules 13: a maze with loops keeps a core of corridors between its
 * junctions, searched as chains (prune.h, prune_junctions): its far
 * clicks get their shortest routes at once (through rubble and water in a
 * tenth of its cells, which make a chain's two ways cost differently),
 * where rules 11's weighted searches of the whole map ran out of budget,
 * and travel walks one in a single part.
 */
static void test_far_click_loopy_maze_exact(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = mapped_game(&f, test_maze_text(767, 767, 7u, 6000, 10));
	const int *cells;
	int len, old_partial = 0;
	for (int q = 0; q < 48; q++) { /* open cells along the far edges */
		const int x = q < 24 ? 765 : 765 - 16 * (q - 24), y = q < 24 ? 381 + 16 * q : 765;
		const int goal = grid_index(g->grid, x, y);
		double best, w_cost;
		int best_len, w_len;
		assert_int_equal(known_search(g, goal, 1.0, 0, &best, NULL, &best_len), PATH_FOUND);
		old_partial += known_search(g, goal, 1.5, TRAVEL_BUDGET, &w_cost, NULL, &w_len) == PATH_BUDGET;
		assert_int_equal(game_travel_plan(g, x, y, &cells, &len), PATH_FOUND);
		assert_true(g->reach.weight == 1.0);
		assert_int_equal(cells[len - 1], goal);
		assert_true(fabs(walk_cost(g, cells, len) - best) < 1e-6 * best);
	}
	print_message("48 far clicks, all shortest; rules 11's last weight found %d of them\n", 48 - old_partial);
	assert_non_null(g->reach.trees);
	assert_true(prune_junctions(g->reach.trees) > 0);
	assert_true(old_partial >= 10);
	assert_int_equal(game_travel_plan(g, 765, 765, &cells, &len), PATH_FOUND);
	assert_int_equal(act_travel(g, 765, 765), RESULT_ACTED);
	assert_false(g->travel.partial);
	int steps = 1;
	while (g->travel.active && steps < 400000 && act_travel_step(g) == RESULT_ACTED) {
		assert_false(g->travel.partial);
		steps++;
	}
	assert_int_equal(steps, len - 1);
	assert_int_equal(g->player.x, 765);
	assert_int_equal(g->player.y, 765);
	assert_false(message_contains(g, "It is a long way there"));
	fixture_fini(&f);
}

/*
 * The trees are peeled in a thread when the map is learnt (a scroll of
 * magic mapping on a level larger than a plan searches whole): the first
 * far click takes them from it, and its route is the one the click gets
 * when it peels them itself (the thread dropped); a thread's peeling of a
 * known[] that changed since is not used.  A resumed game starts one when
 * it is readied for a person (game_prefault).
 */
static void test_trees_peeled_in_a_thread(void **state)
{
	(void)state;
	const int gx = 413, gy = 509;
	int *routes[3], lens[3], tip = -1;
	for (int k = 0; k < 3; k++) {
		struct fixture f;
		struct game *g = mapped_game(&f, test_maze_text(511, 511, 99u, 0, 0));
		assert_non_null(g->reach.job); /* started by the mapping */
		if (k == 1)
			game_trees_drop(g);
		assert_true(k != 1 || g->reach.job == NULL);
		if (k == 2) { /* a discovery after the mapping, off the route: a dead end's last cell is a wall */
			for (int c = 0; c < g->grid->w * g->grid->h && tip < 0; c++) {
				struct grid_step nb[GRID_MAX_NEIGHBOURS];
				bool on_route = false;
				for (int i = 0; i < lens[0] && !on_route; i++)
					on_route = routes[0][i] == c;
				if (g->known[c] && !on_route && grid_neighbours(g->grid, c, false, nb) == 1)
					tip = c;
			}
			assert_true(tip >= 0);
			g->known[tip] = 0;
			game_maps_written(g);
			g->known_version++;
		}
		const int *cells;
		assert_int_equal(game_travel_plan(g, gx, gy, &cells, &lens[k]), PATH_FOUND);
		assert_null(g->reach.job);
		assert_non_null(g->reach.trees);
		assert_true(g->reach.trees_ok && g->reach.trees_version == g->known_version);
		assert_true(g->reach.weight == 1.0);
		if (k == 2)
			assert_int_equal(prune_root(g->reach.trees, tip), -1); /* peeled anew: a wall there */
		routes[k] = malloc((size_t)lens[k] * sizeof *routes[k]);
		assert_non_null(routes[k]);
		memcpy(routes[k], cells, (size_t)lens[k] * sizeof *cells);
		fixture_fini(&f);
	}
	for (int k = 1; k < 3; k++) {
		assert_int_equal(lens[k], lens[0]);
		assert_memory_equal(routes[k], routes[0], (size_t)lens[0] * sizeof *routes[0]);
	}
	for (int k = 0; k < 3; k++)
		free(routes[k]);
	/* a game loaded before (a resume) starts the peeling when it is
	 * readied for a person, and its first far click takes it */
	struct fixture f;
	struct game *g = mapped_game(&f, test_maze_text(511, 511, 99u, 0, 0));
	/* busy while the thread peels (the pointer's preview does not wait
	 * for it), and no longer once it is done or dropped */
	assert_non_null(g->reach.job);
	for (int i = 0; game_travel_busy(g) && i < 20000; i++)
		nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);
	assert_false(game_travel_busy(g));
	assert_non_null(g->reach.job); /* done, not yet joined */
	game_trees_drop(g);
	assert_false(game_travel_busy(g));
	g->reach.trees_ok = false;
	g->prefault = false;
	game_prefault(g);
	assert_non_null(g->reach.job);
	const int *cells;
	int len;
	assert_int_equal(game_travel_plan(g, gx, gy, &cells, &len), PATH_FOUND);
	assert_null(g->reach.job);
	assert_non_null(g->reach.trees);
	assert_int_equal(len, lens[0]);
	fixture_fini(&f);
}

/* The goals of the 511x511 maze tests below, corners and middles. */
static const int maze_goals[][2] = { { 413, 509 }, { 1, 1 }, { 250, 251 }, { 509, 3 }, { 100, 400 }, { 0, 0 } };
#define N_MAZE_GOALS ((int)(sizeof maze_goals / sizeof maze_goals[0]))

/* A square8 game of a 511x511 perfect maze (seed 99), unmapped, planned
 * as play plans on a level larger than a plan searches whole. */
static struct game *maze_511(struct fixture *f)
{
	char *map = test_maze_text(511, 511, 99u, 0, 0);
	struct game *g = fixture_game(f, "square8", map, 1);
	free(map);
	g->reach.whole_region = 0;
	return g;
}

/*
 * The labels of known[] are made again in the trees' thread when the map
 * is learnt (lent to it, their memory already resident), so that a click
 * a moment later does not make them: the plans after take them back and
 * answer as with labels of their own (the thread dropped at once: the
 * labels come back stale and the plan relabels), and labels of a known[]
 * that changed since the thread began are not used (a corridor cell on
 * the first goal's way learnt to be a wall, which cuts the goal off: with
 * the thread's labels kept, the plan would think it reachable).
 */
static void test_labels_made_in_the_thread(void **state)
{
	(void)state;
	const int(*goals)[2] = maze_goals, n_goals = N_MAZE_GOALS;
	uint64_t hash[4];
	int cut = -1;
	for (int k = 0; k < 4; k++) {
		struct fixture f;
		struct game *g = maze_511(&f);
		const int *cells;
		int len;
		game_prefault(g); /* labels made, as for a person */
		assert_non_null(g->reach.labels);
		assert_non_null(g->reach.ahead);
		game_trees_drop(g); /* the trees made ahead: test_trees_made_ahead */
		game_map_level(g, 0);
		assert_non_null(g->reach.job);
		assert_null(g->reach.labels); /* lent to the thread */
		if (k == 1 || k == 3)
			game_trees_drop(g); /* back, stale: the plan labels anew */
		assert_true(k == 0 || k == 2 || (g->reach.labels && !g->reach.labels_ok));
		if (k >= 2) {
			if (cut < 0) { /* the middle of the first goal's route, a corridor in a perfect maze */
				assert_int_equal(game_travel_plan(g, goals[0][0], goals[0][1], &cells, &len), PATH_FOUND);
				cut = cells[len / 2];
				game_trees_drop(g);
				fixture_fini(&f);
				k--;
				continue;
			}
			g->known[cut] = 0;
			game_maps_written(g);
			g->known_version++;
		}
		uint64_t h = 1469598103934665603ull;
		for (int i = 0; i < n_goals; i++) {
			const enum path_status st = game_travel_plan(g, goals[i][0], goals[i][1], &cells, &len);
			assert_true(g->reach.labels && g->reach.labels_ok && g->reach.labels_version == g->known_version);
			if (k >= 2 && i == 0)
				assert_int_equal(st, PATH_FALLBACK); /* cut off */
			h = (h ^ (uint64_t)st) * 1099511628211ull;
			for (int c = 0; c < len; c++)
				h = (h ^ (uint64_t)(unsigned)cells[c]) * 1099511628211ull;
		}
		hash[k] = h;
		fixture_fini(&f);
	}
	assert_true(hash[0] == hash[1]);
	assert_true(hash[2] == hash[3]);
	assert_true(hash[0] != hash[2]);
}

/* A hash of a game's plans to the goals, their statuses and cells. */
static uint64_t plans_hash(struct game *g, const int (*goals)[2], int n_goals, enum path_status *first)
{
	uint64_t h = 1469598103934665603ull;
	for (int i = 0; i < n_goals; i++) {
		const int *cells;
		int len;
		const enum path_status st = game_travel_plan(g, goals[i][0], goals[i][1], &cells, &len);
		if (i == 0)
			*first = st;
		h = (h ^ (uint64_t)st) * 1099511628211ull;
		for (int c = 0; c < len; c++)
			h = (h ^ (uint64_t)(unsigned)cells[c]) * 1099511628211ull;
	}
	return h;
}

/*
 * For a person, a level larger than a plan searches whole starts a thread
 * that peels known[] as a map of the level would leave it
 * (game_trees_ahead).  A map learnt then that makes known[] exactly so
 * takes that thread as the map's own: no thread is started for the map,
 * the player's labels are not lent, and every route is the one the map's
 * own thread gives (the ahead dropped).  After a wall is built on the
 * level (the first goal's corridor cut), the map no longer matches: the
 * thread is dropped, the map's own thread lends the labels and peels, and
 * the routes are those of a game that never made one (the cut goal out
 * of reach); the trees made ahead would have reached it.
 */
static void test_trees_made_ahead(void **state)
{
	(void)state;
	const int(*goals)[2] = maze_goals, n_goals = N_MAZE_GOALS;
	uint64_t hash[4];
	enum path_status first[4];
	int cut = -1;
	for (int k = 0; k < 4; k++) {
		struct fixture f;
		struct game *g = maze_511(&f);
		if (cut < 0) { /* the middle of the first goal's route, a corridor in a perfect maze */
			game_map_level(g, 0);
			const int *cells;
			int len;
			assert_int_equal(game_travel_plan(g, goals[0][0], goals[0][1], &cells, &len), PATH_FOUND);
			cut = cells[len / 2];
			fixture_fini(&f);
			k--;
			continue;
		}
		game_prefault(g);
		assert_non_null(g->reach.ahead);
		if (k == 1 || k == 3)
			game_trees_drop(g); /* none made ahead */
		if (k >= 2)
			game_tile_set(g, cut, TILE_WALL);
		game_map_level(g, 0);
		assert_null(g->reach.ahead);
		assert_non_null(g->reach.job);
		if (k == 0) /* taken: the player's labels kept, stale, for the job's to replace */
			assert_true(g->reach.labels && !g->reach.labels_ok);
		else /* lent to the map's own thread */
			assert_null(g->reach.labels);
		hash[k] = plans_hash(g, goals, n_goals, &first[k]);
		assert_true(g->reach.labels && g->reach.labels_ok && g->reach.labels_version == g->known_version);
		fixture_fini(&f);
	}
	assert_true(hash[0] == hash[1]);
	assert_true(hash[2] == hash[3]);
	assert_true(hash[0] != hash[2]);
	assert_int_equal(first[0], PATH_FOUND);
	assert_int_equal(first[2], PATH_FALLBACK); /* cut off */
}

/* Whether a thread's copy of known[], made now, is known[] itself. */
static bool shadow_is_known(const struct game *g)
{
	const struct reach *m = &g->reach;
	for (int i = 0; i < 2; i++)
		if (m->shadow[i] && m->shadow_ok[i] && m->shadow_version[i] == g->known_version &&
		    memcmp(m->shadow[i], g->known, (size_t)g->grid->w * (size_t)g->grid->h) == 0)
			return true;
	return false;
}

/*
 * While a large maze's trees are followed (the last peeling kept them), a
 * turn that changes known[] (a wall dug beside the player) starts their
 * next peeling in the thread (game_trees_follow): the far click after
 * takes it, and its route is the one the click gets when it peels them
 * itself (the thread dropped).  A turn that changes nothing starts none.
 * A thread's peeling of a known[] that changed since is not used.  The
 * thread's copy of known[] is known[] as it was: made whole, then kept
 * up cell by cell, then past the log made whole again.
 */
static void test_trees_follow_turns(void **state)
{
	(void)state;
	const int gx = 413, gy = 509;
	int *routes[2], lens[2];
	for (int k = 0; k < 2; k++) {
		struct fixture f;
		struct game *g = mapped_game(&f, test_maze_text(511, 511, 99u, 0, 0));
		const int *cells;
		int len;
		assert_int_equal(game_travel_plan(g, gx, gy, &cells, &len), PATH_FOUND);
		assert_null(g->reach.job);
		assert_true(g->reach.trees_follow);
		assert_int_equal(act_wait(g), RESULT_ACTED); /* nothing learnt */
		assert_null(g->reach.job);
		const int wall = grid_index(g->grid, 2, 2);
		assert_int_equal(g->known[wall], 0);
		game_tile_set(g, wall, TILE_RUBBLE);
		const unsigned before = g->known_version;
		assert_int_equal(act_wait(g), RESULT_ACTED); /* seen dug */
		assert_true(g->known_version != before && g->known[wall] != 0);
		assert_non_null(g->reach.job);
		assert_true(shadow_is_known(g)); /* made whole */
		if (k == 1)
			game_trees_drop(g);
		assert_int_equal(game_travel_plan(g, gx, gy, &cells, &lens[k]), PATH_FOUND);
		assert_null(g->reach.job);
		assert_non_null(g->reach.trees);
		assert_true(g->reach.trees_ok && g->reach.trees_version == g->known_version);
		assert_true(g->reach.trees_follow);
		assert_true(g->reach.weight == 1.0);
		assert_int_equal(prune_depth(g->reach.trees, wall), 0); /* a core cell: the rubble made a loop */
		routes[k] = malloc((size_t)lens[k] * sizeof *routes[k]);
		assert_non_null(routes[k]);
		memcpy(routes[k], cells, (size_t)lens[k] * sizeof *cells);
		if (k == 0) {
			/* the next turn's change is kept cell by cell; a change
			 * after the thread started makes its peeling stale */
			int wall2 = grid_index(g->grid, 2, 1); /* of the two, the one a wall */
			if (g->known[wall2])
				wall2 = grid_index(g->grid, 1, 2);
			assert_int_equal(g->known[wall2], 0);
			game_tile_set(g, wall2, TILE_RUBBLE);
			assert_int_equal(act_wait(g), RESULT_ACTED);
			assert_true(g->known[wall2] != 0);
			assert_non_null(g->reach.job);
			assert_true(shadow_is_known(g));
			int tip = -1;
			for (int c = 0; c < g->grid->w * g->grid->h && tip < 0; c++) {
				struct grid_step nb[GRID_MAX_NEIGHBOURS];
				bool on_route = false;
				for (int i = 0; i < lens[0] && !on_route; i++)
					on_route = routes[0][i] == c;
				if (g->known[c] && !on_route && c > grid_index(g->grid, 8, 8) &&
				    grid_neighbours(g->grid, c, false, nb) == 1)
					tip = c;
			}
			assert_true(tip >= 0);
			const uint8_t old = g->known[tip];
			g->known[tip] = 0;
			game_maps_written(g);
			game_known_changed(g, tip, old);
			assert_int_equal(game_travel_plan(g, gx, gy, &cells, &len), PATH_FOUND);
			assert_null(g->reach.job);
			assert_true(g->reach.trees_ok && g->reach.trees_version == g->known_version);
			assert_int_equal(prune_root(g->reach.trees, tip), -1); /* peeled anew: a wall there */
			double best;
			int best_len;
			assert_int_equal(known_search(g, grid_index(g->grid, gx, gy), 1.0, 0, &best, NULL, &best_len),
					 PATH_FOUND);
			assert_true(fabs(walk_cost(g, cells, len) - best) < 1e-6 * best);
			/* more changes than the log holds: the copy is made whole */
			int changed = 0;
			for (int c = 0; c < g->grid->w * g->grid->h && changed <= 5000; c++)
				if (g->known[c] == 1 && c != player_cell(g) && c > grid_index(g->grid, 8, 8)) {
					g->known[c] = 2; /* as rubble: no move is lost */
					game_known_changed(g, c, 1);
					changed++;
				}
			game_maps_written(g);
			assert_int_equal(act_wait(g), RESULT_ACTED);
			assert_non_null(g->reach.job);
			assert_true(shadow_is_known(g));
		}
		fixture_fini(&f);
	}
	assert_int_equal(lens[1], lens[0]);
	assert_memory_equal(routes[1], routes[0], (size_t)lens[0] * sizeof *routes[0]);
	for (int k = 0; k < 2; k++)
		free(routes[k]);
	/* a wall dug before the first far click: the mapping's thread is
	 * stale, told to stop, and the turn starts another */
	struct fixture f;
	struct game *g = mapped_game(&f, test_maze_text(511, 511, 99u, 0, 0));
	assert_non_null(g->reach.job);
	const int wall = grid_index(g->grid, 2, 2);
	game_tile_set(g, wall, TILE_RUBBLE);
	assert_int_equal(act_wait(g), RESULT_ACTED);
	assert_true(g->known[wall] != 0);
	assert_non_null(g->reach.job);
	assert_true(shadow_is_known(g)); /* copied after the dig */
	const int *cells;
	int len;
	assert_int_equal(game_travel_plan(g, gx, gy, &cells, &len), PATH_FOUND);
	assert_null(g->reach.job);
	assert_null(g->reach.stopping);
	assert_true(g->reach.trees_ok && g->reach.trees_version == g->known_version);
	assert_int_equal(len, lens[0]);
	/* a change every turn, as while exploring: each turn's thread is
	 * stale at the next, which stops it and starts one on the other
	 * copy (turns without a change end the stopping one first: with
	 * both copies still read a turn starts none); every copy a thread
	 * reads is known[] as it was, brought up cell by cell */
	int launched = 0, c = grid_index(g->grid, 300, 300);
	for (int turn = 0; turn < 40; turn++) {
		for (int k = 0; k < 2000 && g->reach.stopping; k++) {
			const struct timespec ms1 = { 0, 1000000 };
			nanosleep(&ms1, NULL);
			assert_int_equal(act_wait(g), RESULT_ACTED);
		}
		assert_null(g->reach.stopping);
		while (g->known[c] != 1)
			c++;
		g->known[c] = 2;
		game_maps_written(g);
		game_known_changed(g, c, 1);
		assert_int_equal(act_wait(g), RESULT_ACTED);
		const struct reach *m = &g->reach;
		for (int i = 0; i < 2; i++)
			if (m->shadow_ok[i] && m->shadow_version[i] == g->known_version) {
				assert_memory_equal(m->shadow[i], g->known, (size_t)g->grid->w * (size_t)g->grid->h);
				launched++;
			}
		assert_true(m->job != NULL || m->stopping != NULL);
	}
	print_message("a change each of 40 turns: %d threads started\n", launched);
	assert_int_equal(launched, 40);
	double best;
	int best_len;
	assert_int_equal(known_search(g, grid_index(g->grid, gx, gy), 1.0, 0, &best, NULL, &best_len), PATH_FOUND);
	assert_int_equal(game_travel_plan(g, gx, gy, &cells, &len), PATH_FOUND);
	assert_true(g->reach.trees_ok && g->reach.trees_version == g->known_version);
	assert_true(fabs(walk_cost(g, cells, len) - best) < 1e-6 * best);
	fixture_fini(&f);
}

/*
 * Open ground keeps no trees: a mapping starts the following, and the
 * first peeling that ends, of known[] as it is or as it was a few turns
 * before, ends it, so that ground explored turn by turn is not peeled in
 * vain at every turn.
 */
static void test_trees_follow_ends_on_open_ground(void **state)
{
	(void)state;
	struct fixture f;
	struct game *g = mapped_game(&f, far_map(0));
	assert_true(g->reach.trees_follow);
	assert_non_null(g->reach.job);
	int c = grid_index(g->grid, FAR_W / 2, FAR_H / 2), turn = 0;
	for (; turn < 3000 && (g->reach.trees_follow || g->reach.job || g->reach.stopping); turn++) {
		const struct timespec ms1 = { 0, 1000000 };
		nanosleep(&ms1, NULL);
		while (g->known[c] != 1)
			c++;
		g->known[c] = 2; /* a change at every turn */
		game_maps_written(g);
		game_known_changed(g, c, 1);
		assert_int_equal(act_wait(g), RESULT_ACTED);
	}
	print_message("followed for %d turns\n", turn);
	assert_false(g->reach.trees_follow);
	assert_null(g->reach.job);
	assert_null(g->reach.stopping);
	const unsigned v = g->known_version;
	assert_int_equal(act_wait(g), RESULT_ACTED);
	assert_null(g->reach.job);
	assert_true(g->known_version == v);
	fixture_fini(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sealed_click_exact),
		cmocka_unit_test(test_labels_follow_discoveries),
		cmocka_unit_test(test_far_click_whole_route),
		cmocka_unit_test(test_far_click_planned_as_you_walk),
		cmocka_unit_test(test_far_click_whole_region),
		cmocka_unit_test(test_far_click_into_rock),
		cmocka_unit_test(test_far_click_into_rock_in_parts),
		cmocka_unit_test(test_far_click_into_thick_rock),
		cmocka_unit_test(test_far_click_into_rock_pocket),
		cmocka_unit_test(test_far_click_into_rock_every_grid),
		cmocka_unit_test(test_far_click_into_rock_ragged),
		cmocka_unit_test(test_far_click_into_rock_row_bound),
		cmocka_unit_test(test_far_click_into_rock_tips),
		cmocka_unit_test(test_small_region_clicks_exact),
		cmocka_unit_test(test_far_click_maze_trees),
		cmocka_unit_test(test_far_click_loopy_maze_exact),
		cmocka_unit_test(test_trees_peeled_in_a_thread),
		cmocka_unit_test(test_labels_made_in_the_thread),
		cmocka_unit_test(test_trees_made_ahead),
		cmocka_unit_test(test_trees_follow_turns),
		cmocka_unit_test(test_trees_follow_ends_on_open_ground),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
