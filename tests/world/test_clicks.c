/*
 * test_clicks.c - the player's clicks on large levels (rules 7): a click on
 * a known wall or into a region the known walls seal gets the fallback's
 * exact answer (the one an unbounded search over the player's memory
 * gives, as on small levels), not the travel budget's partial one; it
 * leaks no wall the player has not seen; and the region labels of known[]
 * that find it follow the player's discoveries cell by cell.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_game_fixture.h"

#include "path.h"
#include "region.h"

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

/* A large level: the border, the unseen wall, the sealed room; the player
 * at (3, 3), stairs at the bottom left. */
static char *big_map(void)
{
	char *m = malloc((size_t)(BIG_W + 1) * BIG_H + 1);
	assert_non_null(m);
	char *p = m;
	for (int y = 0; y < BIG_H; y++) {
		for (int x = 0; x < BIG_W; x++) {
			char c = '.';
			const bool border = x == 0 || y == 0 || x == BIG_W - 1 || y == BIG_H - 1;
			const bool room_wall = x >= ROOM_X0 && x <= ROOM_X1 && y >= ROOM_Y0 && y <= ROOM_Y1 &&
					       (x == ROOM_X0 || x == ROOM_X1 || y == ROOM_Y0 || y == ROOM_Y1);
			if (border || room_wall || (x == UNSEEN_X && y <= UNSEEN_Y1))
				c = '#';
			else if (x == 3 && y == 3)
				c = '@';
			else if (x == 3 && y == BIG_H - 3)
				c = '>';
			*p++ = c;
		}
		*p++ = '\n';
	}
	*p = '\0';
	return m;
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

/* The reference: the fallback over a copy of the player's memory, without
 * a budget (what the old code answered on any level small enough for its
 * budget); and the old code's own answer on this level (with the budget). */
static enum path_status reference(const struct game *g, int goal, bool budget, int **cells, int *len)
{
	struct grid *k = grid_create(g->grid->w, g->grid->h, g->grid->topo);
	assert_non_null(k);
	for (int c = 0; c < g->grid->w * g->grid->h; c++)
		grid_set_cost(k, c, g->known[c]);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sealed_click_exact),
		cmocka_unit_test(test_labels_follow_discoveries),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
