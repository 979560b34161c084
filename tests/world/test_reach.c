/*
 * test_reach.c - the player's distance map (game_travel.c, reach_update)
 * is made on a window of known[] around the player; it must answer exactly
 * as the flood of the whole level it replaced.  On random player memories
 * of all five topologies (walls, cells never seen, dearer terrain; open
 * ground too, where the flood goes furthest), the player in the corners,
 * along the edges and inside levels larger and smaller than the window:
 * every cell's distance the same to the last bit, the same number of cells
 * settled, and every route the map decides (a goal settled, or a blocked
 * goal beside a settled cell) the same, cell for cell, as the one read
 * from a flood of the whole level by the same rule.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_game_fixture.h"
#include "testrand.h"

#include "game_internal.h"
#include "path.h"


/* The player's memory as the map reads it: `wall` in 1000 cells blocked,
 * `dear` in 1000 of the rest dearer (2, 3 or 9), the others 1 (floor, or
 * never seen); the player's cell open. */
static void random_memory(struct game *g, uint32_t *seed, int wall, int dear)
{
	const int n = g->grid->w * g->grid->h;
	static const uint8_t costs[] = { 2, 3, 9 };
	for (int c = 0; c < n; c++) {
		const int r = (int)(rnd(seed) % 1000);
		g->known[c] = r < wall ? 0 : r < wall + dear ? costs[rnd(seed) % 3] : 1;
	}
	g->known[player_cell(g)] = 1;
	g->known_version++;
}

/*
 * The route rule of game_travel.c's reach_route, read from a flood `ref`
 * of the whole level (a grid `k` of known[]'s costs), as the game read it
 * before the window: false when the distance map does not decide the goal.
 */
static bool ref_route(const struct grid *k, const struct path_ctx *ref, int source, int goal,
		      enum path_status *st, int *cells, int *len)
{
	struct grid_step nb[GRID_MAX_NEIGHBOURS];
	int end = goal;
	if (k->cost[goal]) {
		if (path_flood_distance(ref, goal) < 0)
			return false;
		*st = PATH_FOUND;
	} else {
		int n = grid_adjacent(k, goal, nb), best = -1;
		double best_d = 0;
		for (int i = 0; i < n; i++) {
			double d = path_flood_distance(ref, nb[i].cell);
			if (k->cost[nb[i].cell] && d >= 0 && (best < 0 || d + nb[i].step < best_d)) {
				best = nb[i].cell;
				best_d = d + nb[i].step;
			}
		}
		if (best < 0 || best_d > REACH_COST)
			return false;
		end = best;
		*st = PATH_FALLBACK;
	}
	int m = 0, c = end;
	cells[m++] = c;
	while (c != source) {
		double dc = path_flood_distance(ref, c);
		int n = grid_neighbours(k, c, false, nb), prev = -1;
		for (int i = 0; i < n && prev < 0; i++) {
			double dp = path_flood_distance(ref, nb[i].cell);
			if (dp >= 0 && dp < dc && fabs(dp + nb[i].step * k->cost[c] - dc) <= 1e-9 * (1.0 + dc))
				prev = nb[i].cell;
		}
		assert_true(prev >= 0 && m < REACH_COST + 2);
		cells[m++] = c = prev;
	}
	for (int i = 0; i < m / 2; i++) {
		int t = cells[i];
		cells[i] = cells[m - 1 - i];
		cells[m - 1 - i] = t;
	}
	*len = m;
	return true;
}

struct tally {
	long found, fallback, cells;
	size_t memory; /* the distance map's context, bytes */
};

/* The player at (x, y) over a fresh random memory: the window's map
 * against the whole level's flood. */
static void check_at(struct game *g, uint32_t *seed, int x, int y, int wall, int dear, struct tally *t)
{
	const int w = g->grid->w, h = g->grid->h, n = w * h;
	g->player.x = x;
	g->player.y = y;
	random_memory(g, seed, wall, dear);
	const int pc = player_cell(g);
	/* the reference: a flood of the whole level, as reach_update made it */
	struct grid *k = grid_create(w, h, g->grid->topo);
	assert_non_null(k);
	grid_set_costs(k, g->known);
	struct path_ctx *ref = path_create(k);
	assert_non_null(ref);
	struct path_options opt = path_options_default();
	const long settled = path_flood(ref, pc, &opt, false, REACH_COST);
	/* a click on the player's own cell makes the map (and is answered by it) */
	const int *cells;
	int len;
	assert_int_equal(game_travel_plan(g, x, y, &cells, &len), PATH_FOUND);
	assert_int_equal(len, 1);
	assert_int_equal(g->reach.settled, settled);
	for (int c = 0; c < n; c++) {
		const double want = path_flood_distance(ref, c), got = game_reach_distance(g, c);
		if (want < 0)
			assert_true(got < 0);
		else
			assert_true(memcmp(&got, &want, sizeof got) == 0);
	}
	/* goals around the player, out past the map's reach */
	const int rx = REACH_COST + 3, ry = g->grid->topo == GRID_DIAMOND8 ? 2 * REACH_COST + 3 : rx;
	int want_cells[REACH_COST + 2];
	for (int q = 0; q < 150; q++) {
		int gx = x - rx + (int)(rnd(seed) % (unsigned)(2 * rx + 1));
		int gy = y - ry + (int)(rnd(seed) % (unsigned)(2 * ry + 1));
		grid_clamp(g->grid, &gx, &gy);
		enum path_status want_st;
		int want_len;
		if (!ref_route(k, ref, pc, grid_index(g->grid, gx, gy), &want_st, want_cells, &want_len))
			continue;
		assert_int_equal(game_travel_plan(g, gx, gy, &cells, &len), want_st);
		assert_int_equal(g->reach.expanded, 0); /* the map answered, no search */
		assert_int_equal(len, want_len);
		assert_memory_equal(cells, want_cells, (size_t)len * sizeof *cells);
		t->found += want_st == PATH_FOUND;
		t->fallback += want_st == PATH_FALLBACK;
		t->cells += len;
	}
	path_destroy(ref);
	grid_destroy(k);
}

/* One level of w x h: the player in each corner, one and two cells in from
 * them (both row parities), along each edge, in the middle, and at random. */
static void check_level(enum grid_topology topo, int w, int h, uint32_t *seed, int wall, int dear,
			struct tally *t)
{
	char *map = fixture_floor_map(topo, w, h);
	struct fixture f;
	struct game *g = fixture_game(&f, grid_topology_name(topo), map, 1);
	free(map);
	const int at[][2] = {
		{ 0, 0 }, { w - 1, 0 }, { 0, h - 1 }, { w - 1, h - 1 }, { 1, 1 }, { w - 2, h - 2 },
		{ 2, h - 3 }, { w - 3, 2 }, { w / 2, 0 }, { 0, h / 2 }, { w - 1, h / 2 + 1 },
		{ w / 2 + 1, h - 1 }, { w / 2, h / 2 }, { w / 2 + 1, h / 2 + 1 },
	};
	for (size_t i = 0; i < sizeof at / sizeof at[0]; i++)
		check_at(g, seed, at[i][0], at[i][1], wall, dear, t);
	for (int i = 0; i < 3; i++)
		check_at(g, seed, (int)(rnd(seed) % (unsigned)w), (int)(rnd(seed) % (unsigned)h), wall, dear, t);
	t->memory = path_memory(g->reach.ctx);
	fixture_fini(&f);
}

static void check_topology(enum grid_topology topo)
{
	uint32_t seed = 0x5eed0u + (uint32_t)topo;
	struct tally t = { 0 };
	/* the window: 129 columns, 130 rows (diamond8: 258); levels larger in
	 * both, larger in one, and smaller than it */
	const int tall = topo == GRID_DIAMOND8 ? 2 : 1;
	/* open ground: the flood reaches REACH_COST steps along straight lines */
	check_level(topo, 170, 160 * tall, &seed, 0, 0, &t);
	/* walls, dear terrain and unseen cells of every density */
	check_level(topo, 150 + (int)(rnd(&seed) % 40), 140 * tall + (int)(rnd(&seed) % 40), &seed, 60, 150, &t);
	check_level(topo, 145, 150 * tall, &seed, 250, 250, &t);
	check_level(topo, 200, 60, &seed, 30, 100, &t);
	check_level(topo, 37, 21, &seed, 100, 200, &t);
	print_message("%s: %ld found and %ld fallback routes compared, %ld cells; the map's context %zu bytes\n",
		      grid_topology_name(topo), t.found, t.fallback, t.cells, t.memory);
	assert_true(t.found > 1000);
	assert_true(t.fallback > 50);
}

static void test_square4(void **state)
{
	(void)state;
	check_topology(GRID_SQUARE4);
}

static void test_square8(void **state)
{
	(void)state;
	check_topology(GRID_SQUARE8);
}

static void test_hex(void **state)
{
	(void)state;
	check_topology(GRID_HEX);
}

static void test_diamond4(void **state)
{
	(void)state;
	check_topology(GRID_DIAMOND4);
}

static void test_diamond8(void **state)
{
	(void)state;
	check_topology(GRID_DIAMOND8);
}

/* The map is kept while the player and its memory stay, and made anew from
 * the new place after a move: still the whole level's answer. */
static void test_reused_and_moved(void **state)
{
	(void)state;
	char *map = fixture_floor_map(GRID_SQUARE8, 200, 180);
	struct fixture f;
	struct game *g = fixture_game(&f, "square8", map, 1);
	free(map);
	uint32_t seed = 99;
	struct tally t = { 0 };
	check_at(g, &seed, 100, 90, 80, 100, &t);
	/* the window's context, not the level's: 200x180 cells would be 36,000
	 * records, the window 129x130 = 16,770 */
	print_message("the distance map's context: %zu bytes\n", path_memory(g->reach.ctx));
	assert_int_equal(g->reach.win->w * g->reach.win->h, 129 * 130);
	assert_true(path_memory(g->reach.ctx) < 512 * 1024);
	const int *cells;
	int len;
	const unsigned v = g->known_version;
	const long settled = g->reach.settled;
	game_travel_plan(g, 110, 95, &cells, &len);
	assert_int_equal(g->reach.version, v);
	assert_int_equal(g->reach.settled, settled);
	/* moved (the memory kept): the window follows the player */
	struct grid *k = grid_create(200, 180, GRID_SQUARE8);
	assert_non_null(k);
	grid_set_costs(k, g->known);
	struct path_ctx *ref = path_create(k);
	assert_non_null(ref);
	struct path_options opt = path_options_default();
	g->player.x = 30;
	g->player.y = 170;
	g->known[player_cell(g)] = 1;
	grid_set_cost(k, player_cell(g), 1);
	const long want = path_flood(ref, player_cell(g), &opt, false, REACH_COST);
	game_travel_plan(g, 30, 170, &cells, &len);
	assert_int_equal(g->reach.settled, want);
	for (int c = 0; c < 200 * 180; c++) {
		const double d = path_flood_distance(ref, c), got = game_reach_distance(g, c);
		assert_true(d < 0 ? got < 0 : got == d);
	}
	path_destroy(ref);
	grid_destroy(k);
	fixture_fini(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_square4),
		cmocka_unit_test(test_square8),
		cmocka_unit_test(test_hex),
		cmocka_unit_test(test_diamond4),
		cmocka_unit_test(test_diamond8),
		cmocka_unit_test(test_reused_and_moved),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
