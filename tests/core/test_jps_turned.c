/* test_jps_turned.c - jump point search on hex and diamond maps against astray's Dijkstra. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "testrand.h"

#include "grid.h"
#include "jps_turned.h"
#include "path.h"

/* The walk is legal: starts at start, ends at goal, each step a move of
 * the topology (corner rule included) into a passable cell. */
static void check_walk(const struct grid *g, const struct path_result *r, int start, int goal)
{
	assert_true(r->len >= 2);
	assert_int_equal(r->cells[0], start);
	assert_int_equal(r->cells[r->len - 1], goal);
	assert_int_equal(r->end, goal);
	assert_int_equal(r->steps, r->len - 1);
	for (int i = 1; i < r->len; i++) {
		struct grid_step s[GRID_MAX_NEIGHBOURS];
		int k = grid_neighbours(g, r->cells[i - 1], false, s), j;
		for (j = 0; j < k; j++)
			if (s[j].cell == r->cells[i])
				break;
		assert_true(j < k);
	}
}

/*
 * Random maps of topology t: walls from none to dense, in rooms or
 * scattered, with terrain on some maps; many queries, a few cells shut,
 * opened or given terrain in place between them, and now and then the
 * whole map written at once.  Every JPS answer
 * (jps_always) must have the cost and status of astray's Dijkstra (weight
 * 0) on the same query, and a legal walk.  Returns the number of routes
 * that crossed no terrain (those JPS answered itself).
 */
static int run_random(enum grid_topology t, uint32_t seed, int maps, int queries)
{
	int jumped = 0;
	for (int m = 0; m < maps; m++) {
		const int w = 1 + (int)(rnd(&seed) % 62), h = 1 + (int)(rnd(&seed) % 62); /* thin maps too */
		const int n = w * h;
		const unsigned density = rnd(&seed) % 45, terrain = m % 3 == 2 ? 10 : 0;
		const bool rooms = m % 2;
		struct grid *g = grid_create(w, h, t);
		assert_non_null(g);
		for (int i = 0; i < n; i++) {
			const int x = i % w, y = i / w;
			bool wall = rooms ? (x % 9 == 0 && y % 7 != 3) || (y % 8 == 0 && x % 6 != 2) || rnd(&seed) % 100 < density / 4
					  : rnd(&seed) % 100 < density;
			grid_set_cost(g, i, wall ? 0 : rnd(&seed) % 100 < terrain ? (uint8_t)(2 + rnd(&seed) % 2) : 1);
		}
		struct path_ctx *ctx = path_create(g);
		assert_non_null(ctx);
		for (int q = 0; q < queries; q++) {
			for (int k = 0; k < 4; k++) /* cells changed in place */
				grid_set_cost(g, (int)(rnd(&seed) % (unsigned)n),
					      (uint8_t)(rnd(&seed) % 3 ? 1 : rnd(&seed) % 4 ? 0 : 2));
			if (q % 16 == 8) {
				/* the whole map written at once (grid_set_costs), a
				 * few cells of it changed */
				uint8_t *copy = malloc((size_t)n);
				assert_non_null(copy);
				memcpy(copy, g->cost, (size_t)n);
				for (int k = 0; k < 6; k++)
					copy[rnd(&seed) % (unsigned)n] = (uint8_t)(rnd(&seed) % 2);
				grid_set_costs(g, copy);
				free(copy);
			}
			const int start = (int)(rnd(&seed) % (unsigned)n), goal = (int)(rnd(&seed) % (unsigned)n);
			if (start == goal)
				continue;
			grid_set_cost(g, start, 1);
			grid_set_cost(g, goal, 1);
			struct path_options opt = path_options_default();
			opt.jps_always = true;
			struct path_result r;
			const enum path_status st = path_find(ctx, start, goal, &opt, &r);
			if (st == PATH_FOUND) {
				check_walk(g, &r, start, goal);
				bool plain = true;
				for (int i = 1; i < r.len; i++)
					plain &= g->cost[r.cells[i]] == 1;
				jumped += plain;
			}
			const double cost = r.cost;
			struct path_options dij = path_options_default();
			dij.weight = 0.0;
			struct path_result d;
			const enum path_status sd = path_find(ctx, start, goal, &dij, &d);
			assert_int_equal(st, sd);
			if (sd == PATH_FOUND && fabs(cost - d.cost) > 1e-9)
				fail_msg("%s map %d (%dx%d) query %d: %d -> %d cost %.9f, Dijkstra %.9f",
					 grid_topology_name(t), m, w, h, q, start, goal, cost, d.cost);
		}
		path_destroy(ctx);
		grid_destroy(g);
	}
	return jumped;
}

static void test_random_hex(void **state)
{
	(void)state;
	assert_true(run_random(GRID_HEX, 101, 60, 120) > 2000);
}

static void test_random_diamond4(void **state)
{
	(void)state;
	assert_true(run_random(GRID_DIAMOND4, 102, 60, 120) > 2000);
}

static void test_random_diamond8(void **state)
{
	(void)state;
	assert_true(run_random(GRID_DIAMOND8, 103, 60, 120) > 2000);
}

/*
 * Large open maps with a few long walls, where the jumps are long and
 * most scans run to the map's edge: exact, and far fewer expansions than
 * plain A*, so the jump search did answer.
 */
static void open_maps(enum grid_topology t, uint32_t seed)
{
	for (int m = 0; m < 4; m++) {
		const int w = 90 + m * 17, h = 70 + m * 23, n = w * h;
		struct grid *g = grid_create(w, h, t);
		assert_non_null(g);
		for (int i = 0; i < n; i++) {
			const int x = i % w, y = i / w;
			const bool wall = (x == w / 3 && y > h / 5) || (y == h / 2 && x > w / 2 && x < w - 4) ||
					  rnd(&seed) % 1000 < (unsigned)m * 5;
			grid_set_cost(g, i, wall ? 0 : 1);
		}
		struct path_ctx *ctx = path_create(g);
		assert_non_null(ctx);
		int fewer = 0, found = 0;
		for (int q = 0; q < 60; q++) {
			const int start = (int)(rnd(&seed) % (unsigned)n), goal = (int)(rnd(&seed) % (unsigned)n);
			if (start == goal || !g->cost[start] || !g->cost[goal])
				continue;
			struct path_options opt = path_options_default();
			opt.jps_always = true;
			struct path_result r;
			const enum path_status st = path_find(ctx, start, goal, &opt, &r);
			const double cost = r.cost;
			const long jumps = r.expanded;
			opt.jps_always = false;
			opt.weight = 0.0;
			struct path_result d;
			assert_int_equal(st, path_find(ctx, start, goal, &opt, &d));
			if (st != PATH_FOUND)
				continue;
			assert_true(fabs(cost - d.cost) < 1e-9);
			opt.weight = 1.0;
			opt.plain_astar = true;
			path_find(ctx, start, goal, &opt, &d);
			found++;
			fewer += jumps * 3 < d.expanded;
		}
		assert_true(found > 40);
		assert_true(fewer * 2 > found);
		path_destroy(ctx);
		grid_destroy(g);
	}
}

static void test_open_hex(void **state) { (void)state; open_maps(GRID_HEX, 201); }
static void test_open_diamond4(void **state) { (void)state; open_maps(GRID_DIAMOND4, 202); }
static void test_open_diamond8(void **state) { (void)state; open_maps(GRID_DIAMOND8, 203); }

/*
 * The auto mode (path_options_default): on random hex and diamond levels
 * large enough for the chooser (80 to 111 cells a side), rooms with a few
 * scattered walls (turn share low, and plain A* wanders from room to room:
 * the jump search), or scattered walls alone, a few (plain A* goes nearly
 * straight: plain A*, rules 20) or many (a quarter of the cells: turn
 * share high, plain A*; on diamond8, since rules 20, the jump search),
 * every answer has plain A*'s cost and status and a legal walk, with cells
 * changed in place between queries.  The chooser is seen at work: where
 * it jumps most queries expand fewer jump points than plain A* cells,
 * elsewhere exactly as many.
 */
static void auto_maps(enum grid_topology t, uint32_t seed)
{
	for (int m = 0; m < 8; m++) {
		const int w = 80 + (int)(rnd(&seed) % 32), h = 80 + (int)(rnd(&seed) % 32), n = w * h;
		const bool dense = m >= 6, rooms = m < 4;
		const bool plain_expected = !rooms && !(dense && t == GRID_DIAMOND8);
		struct grid *g = grid_create(w, h, t);
		assert_non_null(g);
		for (int i = 0; i < n; i++) {
			/* hex: rows and columns; diamond: its own axes u and v */
			const int x = i % w, y = i / w, X = 2 * x + (y & 1);
			const int a = t == GRID_HEX ? x : (X + y) / 2, b = t == GRID_HEX ? y : (y - X) / 2 + w;
			const bool room_wall = rooms && ((a % 20 == 0 && b % 16 != 8) || (b % 16 == 0 && a % 20 != 10));
			const bool wall = room_wall || rnd(&seed) % 1000 < (dense ? 250u : 2u + 2u * (unsigned)(m % 4));
			grid_set_cost(g, i, wall ? 0 : 1);
		}
		long passable;
		const double share = jps_turned_turn_share(g, &passable, NULL);
		assert_true(passable >= 4096);
		if (dense)
			assert_true(share > 0.15);
		else
			assert_true(share < 0.15);
		struct path_ctx *ctx = path_create(g);
		assert_non_null(ctx);
		int found = 0, fewer = 0, same = 0, shut = -1;
		for (int q = 0; q < 50; q++) {
			if (shut >= 0) /* a door opened and another shut, in place */
				grid_set_cost(g, shut, 1);
			shut = (int)(rnd(&seed) % (unsigned)n);
			if (!g->cost[shut])
				shut = -1;
			else
				grid_set_cost(g, shut, 0);
			const int start = (int)(rnd(&seed) % (unsigned)n), goal = (int)(rnd(&seed) % (unsigned)n);
			if (start == goal || !g->cost[start] || !g->cost[goal])
				continue;
			struct path_result r, a;
			const enum path_status st = path_find(ctx, start, goal, NULL, &r);
			const double cost = r.cost;
			const long expanded = r.expanded;
			if (st == PATH_FOUND)
				check_walk(g, &r, start, goal);
			struct path_options plain = path_options_default();
			plain.plain_astar = true;
			assert_int_equal(st, path_find(ctx, start, goal, &plain, &a));
			if (st != PATH_FOUND)
				continue;
			if (fabs(cost - a.cost) > 1e-9)
				fail_msg("%s map %d query %d: %d -> %d auto %.9f, plain A* %.9f", grid_topology_name(t), m,
					 q, start, goal, cost, a.cost);
			found++;
			fewer += expanded < a.expanded;
			same += expanded == a.expanded;
		}
		assert_true(found > 20);
		if (plain_expected)
			assert_int_equal(same, found);
		else
			assert_true(fewer * 2 > found);
		path_destroy(ctx);
		grid_destroy(g);
	}
}

static void test_auto_hex(void **state) { (void)state; auto_maps(GRID_HEX, 301); }
static void test_auto_diamond4(void **state) { (void)state; auto_maps(GRID_DIAMOND4, 302); }
static void test_auto_diamond8(void **state) { (void)state; auto_maps(GRID_DIAMOND8, 303); }

/* Small levels (under 4096 passable cells) and square grids keep plain
 * A*: the same expansions, though the map is open (its turn share low:
 * only the map's edge makes turns).  The share is 0 on square grids.  (So
 * does a larger open map now, where plain A* goes straight: rules 20,
 * test_path's test_straight_choice.) */
static void test_auto_small(void **state)
{
	(void)state;
	const enum grid_topology tops[] = { GRID_HEX, GRID_DIAMOND4, GRID_DIAMOND8 };
	for (int k = 0; k < 3; k++) {
		struct grid *g = grid_create(60, 60, tops[k]);
		assert_non_null(g);
		for (int i = 0; i < 3600; i++)
			grid_set_cost(g, i, 1);
		long passable;
		assert_true(jps_turned_turn_share(g, &passable, NULL) < 0.15);
		assert_int_equal(passable, 3600);
		struct path_ctx *ctx = path_create(g);
		assert_non_null(ctx);
		struct path_result r, a;
		assert_int_equal(path_find(ctx, 61, 3538, NULL, &r), PATH_FOUND);
		const long expanded = r.expanded;
		struct path_options plain = path_options_default();
		plain.plain_astar = true;
		assert_int_equal(path_find(ctx, 61, 3538, &plain, &a), PATH_FOUND);
		assert_int_equal(expanded, a.expanded);
		path_destroy(ctx);
		grid_destroy(g);
	}
	/* Over 2^20 cells the jump search's context (33 bytes a cell) is not
	 * made: plain A*, and the path context's memory does not grow; nor on
	 * a map with terrain on 2% of its cells.  At a map of rooms under the
	 * cap it is made at the first query. */
	const int sizes[3][2] = { { 1025, 1024 }, { 200, 200 }, { 200, 200 } };
	for (int k = 0; k < 3; k++) {
		const int w = sizes[k][0], h = sizes[k][1];
		struct grid *g = grid_create(w, h, GRID_HEX);
		assert_non_null(g);
		for (int i = 0; i < w * h; i++) {
			const int x = i % w, y = i / w;
			const bool wall = k == 1 && ((x % 25 == 0 && y % 20 != 10) || (y % 20 == 0 && x % 25 != 12));
			grid_set_cost(g, i, wall ? 0 : k == 2 && i % 50 == 7 ? 3 : 1);
		}
		const int start = (h / 2) * w + w / 2, goal = start + 40 * w + 30;
		grid_set_cost(g, start, 1);
		grid_set_cost(g, goal, 1);
		struct path_ctx *ctx = path_create(g);
		assert_non_null(ctx);
		const size_t before = path_memory(ctx);
		struct path_result r, a;
		assert_int_equal(path_find(ctx, start, goal, NULL, &r), PATH_FOUND);
		const long expanded = r.expanded;
		const double cost = r.cost;
		const size_t after = path_memory(ctx);
		struct path_options plain = path_options_default();
		plain.plain_astar = true;
		assert_int_equal(path_find(ctx, start, goal, &plain, &a), PATH_FOUND);
		assert_true(fabs(cost - a.cost) < 1e-9);
		if (k != 1) {
			assert_int_equal(after, before);
			assert_int_equal(expanded, a.expanded);
		} else {
			assert_true(after >= before + (size_t)(w * h) * 32);
			assert_true(expanded < a.expanded);
		}
		path_destroy(ctx);
		grid_destroy(g);
	}
	struct grid *sq = grid_create(80, 80, GRID_SQUARE8);
	assert_non_null(sq);
	assert_true(jps_turned_turn_share(sq, NULL, NULL) == 0.0);
	grid_destroy(sq);
}

/* A route over terrain dearer than 1 goes to plain A*, which may then
 * choose a longer route around it; with the terrain off the line the jump
 * search answers, and a sealed goal is no route.  The context is made at
 * the first query that asks for it, and only then holds its memory. */
static void test_terrain_and_sealed(void **state)
{
	(void)state;
	struct grid *g = grid_create(20, 9, GRID_HEX);
	assert_non_null(g);
	grid_fill(g, 1);
	struct path_ctx *ctx = path_create(g);
	assert_non_null(ctx);
	const size_t before = path_memory(ctx);
	struct path_options opt = path_options_default();
	opt.jps_always = true;
	struct path_result r;
	const int start = grid_index(g, 1, 4), goal = grid_index(g, 18, 4);
	assert_int_equal(path_find(ctx, start, goal, &opt, &r), PATH_FOUND);
	assert_true(fabs(r.cost - 17.0) < 1e-9);
	assert_true(path_memory(ctx) > before);
	/* water across the row: the straight route costs 17 + 2 more, the
	 * detour through row 3 or 5 costs 18 */
	grid_set_cost(g, grid_index(g, 10, 4), 3);
	assert_int_equal(path_find(ctx, start, goal, &opt, &r), PATH_FOUND);
	assert_true(fabs(r.cost - 18.0) < 1e-9);
	/* a wall of water across the whole map: the route must cross it */
	for (int y = 0; y < 9; y++)
		grid_set_cost(g, grid_index(g, 10, y), 3);
	assert_int_equal(path_find(ctx, start, goal, &opt, &r), PATH_FOUND);
	assert_true(fabs(r.cost - 19.0) < 1e-9);
	/* sealed: every neighbour of the goal blocked */
	struct grid_step s[GRID_MAX_NEIGHBOURS];
	const int k = grid_adjacent(g, goal, s);
	for (int i = 0; i < k; i++)
		grid_set_cost(g, s[i].cell, 0);
	assert_int_equal(path_find(ctx, start, goal, &opt, &r), PATH_NO_ROUTE);
	assert_int_equal(r.len, 1);
	assert_int_equal(r.cells[0], start);
	path_destroy(ctx);
	grid_destroy(g);
}

/* Corner cutting on diamond8 lets a corner step pass a blocked flank: the
 * jump search knows only the corner rule, so path.c must not ask it then;
 * jps_always with corner cutting is exactly Dijkstra with corner cutting. */
static void test_corner_cutting(void **state)
{
	(void)state;
	uint32_t seed = 301;
	int differ = 0;
	for (int m = 0; m < 40; m++) {
		const int w = 4 + (int)(rnd(&seed) % 20), h = 4 + (int)(rnd(&seed) % 20), n = w * h;
		struct grid *g = grid_create(w, h, GRID_DIAMOND8);
		assert_non_null(g);
		for (int i = 0; i < n; i++)
			grid_set_cost(g, i, rnd(&seed) % 100 < 30 ? 0 : 1);
		struct path_ctx *ctx = path_create(g);
		assert_non_null(ctx);
		for (int q = 0; q < 30; q++) {
			const int start = (int)(rnd(&seed) % (unsigned)n), goal = (int)(rnd(&seed) % (unsigned)n);
			if (start == goal)
				continue;
			grid_set_cost(g, start, 1);
			grid_set_cost(g, goal, 1);
			struct path_options opt = path_options_default();
			opt.jps_always = true;
			opt.corner_cutting = true;
			struct path_result r, d, rule;
			const enum path_status st = path_find(ctx, start, goal, &opt, &r);
			const double cost = r.cost;
			opt.jps_always = false;
			opt.weight = 0.0;
			assert_int_equal(st, path_find(ctx, start, goal, &opt, &d));
			if (st == PATH_FOUND)
				assert_true(fabs(cost - d.cost) < 1e-9);
			const double cut = d.cost;
			opt.corner_cutting = false;
			const enum path_status sr = path_find(ctx, start, goal, &opt, &rule);
			differ += st == PATH_FOUND && (sr != PATH_FOUND || rule.cost > cut + 1e-9);
		}
		path_destroy(ctx);
		grid_destroy(g);
	}
	assert_true(differ > 10); /* the maps do make corner cutting matter */
}

/* The module's own contract: other topologies get no context; the
 * memory is reported; NULL is destroyed quietly. */
static void test_create(void **state)
{
	(void)state;
	struct grid *sq = grid_create(5, 5, GRID_SQUARE8);
	assert_non_null(sq);
	assert_null(jps_turned_create(sq));
	grid_destroy(sq);
	struct grid *g = grid_create(5, 5, GRID_DIAMOND8);
	assert_non_null(g);
	grid_fill(g, 1);
	struct jps_turned *t = jps_turned_create(g);
	assert_non_null(t);
	assert_true(jps_turned_memory(t) >= 25 * 16);
	const int *cells;
	int len;
	long ex;
	assert_int_equal(jps_turned_find(t, 0, 24, &cells, &len, &ex), JPS_TURNED_FOUND);
	assert_int_equal(cells[0], 0);
	assert_int_equal(cells[len - 1], 24);
	assert_true(ex >= 1);
	jps_turned_destroy(t);
	jps_turned_destroy(NULL);
	grid_destroy(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_hex),
		cmocka_unit_test(test_random_diamond4),
		cmocka_unit_test(test_random_diamond8),
		cmocka_unit_test(test_open_hex),
		cmocka_unit_test(test_open_diamond4),
		cmocka_unit_test(test_open_diamond8),
		cmocka_unit_test(test_auto_hex),
		cmocka_unit_test(test_auto_diamond4),
		cmocka_unit_test(test_auto_diamond8),
		cmocka_unit_test(test_auto_small),
		cmocka_unit_test(test_terrain_and_sealed),
		cmocka_unit_test(test_corner_cutting),
		cmocka_unit_test(test_create),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
