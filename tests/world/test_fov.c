/*
 * test_fov.c - field of view on square and hex grids: symmetry on random
 * maps, walls block but are seen, the radius, and agreement between
 * fov_compute and fov_line_of_sight, and the samples fov_line_cells lists
 * (those the line test reads).  Doors are in test_game.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fov.h"
#include "grid.h"
#include "rng.h"

static struct grid *open_grid(int w, int h, enum grid_topology t, uint8_t **opaque)
{
	struct grid *g = grid_create(w, h, t);
	assert_non_null(g);
	grid_fill(g, 1);
	*opaque = calloc((size_t)w * h, 1);
	assert_non_null(*opaque);
	return g;
}

static const enum grid_topology topos[] = { GRID_SQUARE4, GRID_SQUARE8, GRID_HEX, GRID_DIAMOND4, GRID_DIAMOND8 };

/* On random maps a sees b exactly when b sees a, and fov_compute agrees with the line test. */
static void test_symmetry_random(void **state)
{
	(void)state;
	struct rng r;
	rng_seed(&r, 9);
	for (int t = 0; t < 5; t++) {
		for (int map = 0; map < 6; map++) {
			uint8_t *op;
			struct grid *g = open_grid(31, 23, topos[t], &op);
			for (int i = 0; i < 31 * 23; i++)
				op[i] = rng_range(&r, 0, 99) < 25;
			uint8_t *vis = calloc(31 * 23, 1), *los = calloc(31 * 23, 1);
			for (int k = 0; k < 40; k++) {
				int ax = rng_range(&r, 0, 30), ay = rng_range(&r, 0, 22);
				int radius = rng_range(&r, 1, 12);
				memset(vis, 0, 31 * 23);
				fov_compute(g, op, ax, ay, radius, vis);
				assert_true(vis[grid_index(g, ax, ay)]);
				for (int by = 0; by < 23; by++) {
					for (int bx = 0; bx < 31; bx++) {
						bool ab = fov_line_of_sight(g, op, ax, ay, bx, by, radius);
						bool ba = fov_line_of_sight(g, op, bx, by, ax, ay, radius);
						assert_int_equal(ab, ba);
						los[grid_index(g, bx, by)] = ab;
					}
				}
				/* clear cells: the line alone; opaque ones: the line or
				 * the wall rule over the clear cells in view */
				for (int by = 0; by < 23; by++) {
					for (int bx = 0; bx < 31; bx++) {
						int c = grid_index(g, bx, by);
						bool want = los[c] || (op[c] && fov_wall_seen(g, op, los, bx, by));
						assert_int_equal(want, vis[c] != 0);
					}
				}
			}
			free(los);
			free(vis);
			free(op);
			grid_destroy(g);
		}
	}
}

/* On an open map the view is the whole disc of the radius, no more. */
static void test_radius(void **state)
{
	(void)state;
	for (int t = 0; t < 5; t++) {
		uint8_t *op;
		struct grid *g = open_grid(41, 41, topos[t], &op);
		uint8_t *vis = calloc(41 * 41, 1);
		fov_compute(g, op, 20, 20, 7, vis);
		int o = grid_index(g, 20, 20);
		for (int c = 0; c < 41 * 41; c++)
			assert_int_equal(vis[c] != 0, grid_step_distance(g, o, c) <= 7);
		memset(vis, 0, 41 * 41);
		fov_compute(g, op, 20, 20, 0, vis);
		for (int c = 0; c < 41 * 41; c++)
			assert_int_equal(vis[c] != 0, c == o);
		free(vis);
		free(op);
		grid_destroy(g);
	}
}

/* A wall hides what is behind it; the wall itself is seen. */
static void test_walls_block(void **state)
{
	(void)state;
	for (int t = 0; t < 3; t++) {
		uint8_t *op;
		struct grid *g = open_grid(21, 11, topos[t], &op);
		/* a vertical wall at x = 10, rows 2..8 */
		for (int y = 2; y <= 8; y++)
			op[grid_index(g, 10, y)] = 1;
		uint8_t *vis = calloc(21 * 11, 1);
		fov_compute(g, op, 6, 5, 10, vis);
		assert_true(vis[grid_index(g, 10, 5)]);  /* the wall */
		assert_false(vis[grid_index(g, 11, 5)]); /* right behind it */
		assert_false(vis[grid_index(g, 14, 5)]);
		assert_false(fov_line_of_sight(g, op, 14, 5, 6, 5, 10));
		assert_true(vis[grid_index(g, 9, 5)]);
		/* around the end of the wall */
		if (topos[t] != GRID_HEX)
			assert_true(vis[grid_index(g, 10, 1)]);
		assert_true(vis[grid_index(g, 8, 1)]);
		/* a single pillar casts a shadow */
		memset(op, 0, 21 * 11);
		op[grid_index(g, 8, 5)] = 1;
		assert_false(fov_line_of_sight(g, op, 6, 5, 10, 5, 10));
		assert_true(fov_line_of_sight(g, op, 6, 5, 8, 5, 10));
		assert_true(fov_line_of_sight(g, op, 6, 5, 7, 5, 10));
		free(vis);
		free(op);
		grid_destroy(g);
	}
}

/*
 * The walls of what is seen are seen: in a convex room walled all round,
 * from every floor cell every wall cell of the room is in view, on every
 * grid (issue 30: a 10x4 room showed its top wall one cell a step).
 * Rooms: a screen rectangle on every grid; a hexagon on hex; the square
 * rectangle turned 45 degrees (a diamond of cells) on diamond maps.  The
 * wall cells are all cells that touch the floor on the screen; the rest
 * of the map is solid.
 */
static bool in_room(const struct grid *g, int shape, int x, int y)
{
	if (shape == 0) /* a 10x4 screen rectangle at (5..14, 5..8) */
		return x >= 5 && x <= 14 && y >= 5 && y <= 8;
	if (g->topo == GRID_HEX) /* a hexagon of radius 4 round (10, 10) */
		return grid_step_distance(g, grid_index(g, 10, 10), grid_index(g, x, y)) <= 4;
	/* diamond maps: square cells u in 3..12, v in -2..1 */
	int X = 2 * x + (y & 1), u = (X + y) / 2, v = (y - X) / 2;
	return u >= 3 && u <= 12 && v >= -2 && v <= 1;
}

static void test_room_walls_seen(void **state)
{
	(void)state;
	for (int t = 0; t < 5; t++) {
		for (int shape = 0; shape < 2; shape++) {
			if (shape == 1 && grid_is_square(topos[t]))
				continue;
			uint8_t *op;
			struct grid *g = open_grid(31, 23, topos[t], &op);
			/* touching on the screen: one step of the eight-way grid */
			enum grid_topology tt = topos[t] == GRID_SQUARE4   ? GRID_SQUARE8
						: topos[t] == GRID_DIAMOND4 ? GRID_DIAMOND8
									    : topos[t];
			struct grid *touch = grid_create(31, 23, tt);
			int floor = 0;
			for (int c = 0; c < 31 * 23; c++) {
				bool in = in_room(g, shape, grid_x(g, c), grid_y(g, c));
				op[c] = !in;
				floor += in;
			}
			assert_true(floor >= 20);
			uint8_t *wall = calloc(31 * 23, 1);
			int walls = 0;
			for (int c = 0; c < 31 * 23; c++)
				for (int d = 0; d < 31 * 23 && op[c] && !wall[c]; d++)
					if (!op[d] && grid_step_distance(touch, c, d) == 1) {
						wall[c] = 1;
						walls++;
					}
			assert_true(walls >= 20);
			uint8_t *vis = calloc(31 * 23, 1);
			for (int o = 0; o < 31 * 23; o++) {
				if (op[o])
					continue;
				memset(vis, 0, 31 * 23);
				fov_compute(g, op, grid_x(g, o), grid_y(g, o), 30, vis);
				for (int c = 0; c < 31 * 23; c++)
					if (wall[c] && !vis[c])
						fail_msg("%s room %d from (%d,%d): wall (%d,%d) unseen",
							 grid_topology_name(topos[t]), shape, grid_x(g, o), grid_y(g, o),
							 grid_x(g, c), grid_y(g, c));
			}
			free(vis);
			free(wall);
			free(op);
			grid_destroy(touch);
			grid_destroy(g);
		}
	}
}

/* A line passing exactly between two cells is blocked only when both are. */
static void test_borders(void **state)
{
	(void)state;
	uint8_t *op;
	struct grid *g = open_grid(10, 10, GRID_SQUARE8, &op);
	/* (2,2) -> (4,3): the sample at x = 3 is y = 2.5, between (3,2) and (3,3) */
	op[grid_index(g, 3, 2)] = 1;
	assert_true(fov_line_of_sight(g, op, 2, 2, 4, 3, 8));
	assert_true(fov_line_of_sight(g, op, 4, 3, 2, 2, 8));
	op[grid_index(g, 3, 3)] = 1;
	assert_false(fov_line_of_sight(g, op, 2, 2, 4, 3, 8));
	assert_false(fov_line_of_sight(g, op, 4, 3, 2, 2, 8));
	/* outside the map: nothing */
	assert_false(fov_line_of_sight(g, op, 2, 2, 40, 3, 80));
	free(op);
	grid_destroy(g);
}

/* Whether cell c (-1: outside the map) lets a line through. */
static bool clear_cell(const uint8_t *op, int c)
{
	return c >= 0 && !op[c];
}

/*
 * fov_line_cells lists the samples fov_line_of_sight tests: on random maps
 * of every grid, b is in view from a exactly when every sample has a clear
 * cell; the line from b to a has the same samples in reverse order; every
 * listed cell lies strictly between the two (no end cell); and neighbours
 * have none.
 */
static void test_line_cells(void **state)
{
	(void)state;
	struct rng r;
	rng_seed(&r, 17);
	struct fov_sample ab[64], ba[64];
	for (int t = 0; t < 5; t++) {
		for (int map = 0; map < 4; map++) {
			uint8_t *op;
			struct grid *g = open_grid(29, 25, topos[t], &op);
			for (int i = 0; i < 29 * 25; i++)
				op[i] = rng_range(&r, 0, 99) < 20;
			for (int k = 0; k < 30; k++) {
				int ax = rng_range(&r, 0, 28), ay = rng_range(&r, 0, 24);
				int a = grid_index(g, ax, ay);
				for (int b = 0; b < 29 * 25; b++) {
					int bx = grid_x(g, b), by = grid_y(g, b);
					int n = fov_line_cells(g, ax, ay, bx, by, ab, 64);
					int m = fov_line_cells(g, bx, by, ax, ay, ba, 64);
					assert_true(n >= 0 && n <= 64);
					assert_int_equal(n, m);
					bool clear = true;
					for (int i = 0; i < n; i++) {
						const struct fov_sample *s = &ab[i], *o = &ba[n - 1 - i];
						assert_true(s->n == 1 || s->n == 2);
						assert_int_equal(s->n, o->n);
						bool same = s->cell[0] == o->cell[0] && s->cell[1] == o->cell[1];
						bool swapped = s->n == 2 && s->cell[0] == o->cell[1] && s->cell[1] == o->cell[0];
						assert_true(same || swapped);
						for (int j = 0; j < s->n; j++)
							assert_true(s->cell[j] != a && s->cell[j] != b);
						if (s->n == 1)
							assert_int_equal(s->cell[1], -1);
						if (!clear_cell(op, s->cell[0]) && (s->n == 1 || !clear_cell(op, s->cell[1])))
							clear = false;
					}
					int d = grid_step_distance(g, a, b);
					if (d <= 1)
						assert_int_equal(n, 0);
					assert_int_equal(clear, fov_line_of_sight(g, op, ax, ay, bx, by, d));
				}
			}
			free(op);
			grid_destroy(g);
		}
	}
	/* the border case of test_borders: one sample, two cells */
	uint8_t *op;
	struct grid *g = open_grid(10, 10, GRID_SQUARE8, &op);
	assert_int_equal(fov_line_cells(g, 2, 2, 4, 3, ab, 64), 1);
	assert_int_equal(ab[0].n, 2);
	assert_int_equal(ab[0].cell[0] + ab[0].cell[1], grid_index(g, 3, 2) + grid_index(g, 3, 3));
	assert_int_equal(fov_line_cells(g, 2, 2, 40, 3, ab, 64), -1);
	free(op);
	grid_destroy(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symmetry_random),
		cmocka_unit_test(test_radius),
		cmocka_unit_test(test_walls_block),
		cmocka_unit_test(test_room_walls_seen),
		cmocka_unit_test(test_borders),
		cmocka_unit_test(test_line_cells),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
