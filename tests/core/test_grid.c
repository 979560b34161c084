/* test_grid.c - topologies: neighbours, corner rule, screen layout, heuristics. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "testrand.h"

#include "grid.h"
#include "path.h"

static struct grid *open_grid(int w, int h, enum grid_topology t)
{
	struct grid *g = grid_create(w, h, t);
	assert_non_null(g);
	grid_fill(g, 1);
	return g;
}

static bool has_step(const struct grid_step *s, int n, int cell, double step)
{
	for (int i = 0; i < n; i++)
		if (s[i].cell == cell && s[i].step == step)
			return true;
	return false;
}

static void test_square4_neighbours(void **state)
{
	(void)state;
	struct grid *g = open_grid(5, 4, GRID_SQUARE4);
	struct grid_step s[GRID_MAX_NEIGHBOURS];
	int n = grid_neighbours(g, grid_index(g, 2, 2), false, s);
	assert_int_equal(n, 4);
	assert_true(has_step(s, n, grid_index(g, 2, 1), 1.0));
	assert_true(has_step(s, n, grid_index(g, 1, 2), 1.0));
	assert_true(has_step(s, n, grid_index(g, 3, 2), 1.0));
	assert_true(has_step(s, n, grid_index(g, 2, 3), 1.0));
	/* corners and edges */
	assert_int_equal(grid_neighbours(g, grid_index(g, 0, 0), false, s), 2);
	assert_int_equal(grid_neighbours(g, grid_index(g, 4, 3), false, s), 2);
	assert_int_equal(grid_neighbours(g, grid_index(g, 2, 0), false, s), 3);
	/* blocked cells are left out of neighbours, kept by grid_adjacent */
	grid_set_cost(g, grid_index(g, 2, 1), 0);
	assert_int_equal(grid_neighbours(g, grid_index(g, 2, 2), false, s), 3);
	assert_int_equal(grid_adjacent(g, grid_index(g, 2, 2), s), 4);
	grid_destroy(g);
}

static void test_square8_neighbours_and_corners(void **state)
{
	(void)state;
	struct grid *g = open_grid(5, 5, GRID_SQUARE8);
	struct grid_step s[GRID_MAX_NEIGHBOURS];
	int c = grid_index(g, 2, 2);
	int n = grid_neighbours(g, c, false, s);
	assert_int_equal(n, 8);
	assert_true(has_step(s, n, grid_index(g, 1, 1), GRID_SQRT2));
	assert_true(has_step(s, n, grid_index(g, 3, 3), GRID_SQRT2));
	assert_true(has_step(s, n, grid_index(g, 3, 2), 1.0));
	assert_int_equal(grid_neighbours(g, grid_index(g, 0, 0), false, s), 3);
	assert_int_equal(grid_neighbours(g, grid_index(g, 0, 2), false, s), 5);
	/* Blocking north removes N, NW and NE without corner cutting: one
	 * blocked orthogonal cell is enough (the Moving AI rule). */
	grid_set_cost(g, grid_index(g, 2, 1), 0);
	n = grid_neighbours(g, c, false, s);
	assert_int_equal(n, 5);
	assert_false(has_step(s, n, grid_index(g, 1, 1), GRID_SQRT2));
	assert_false(has_step(s, n, grid_index(g, 3, 1), GRID_SQRT2));
	assert_true(has_step(s, n, grid_index(g, 1, 3), GRID_SQRT2));
	/* corner cutting allowed: only the blocked cell itself goes */
	n = grid_neighbours(g, c, true, s);
	assert_int_equal(n, 7);
	assert_true(has_step(s, n, grid_index(g, 1, 1), GRID_SQRT2));
	grid_destroy(g);
}

/* The square steps as the direction table and bounds tests give them, in
 * its order: the reference for grid_neighbours' border-free path. */
static int square_reference(const struct grid *g, int cell, bool cut, struct grid_step out[])
{
	int x = grid_x(g, cell), y = grid_y(g, cell), n = 0;
	for (int i = 0; i < (g->topo == GRID_SQUARE8 ? 8 : 4); i++) {
		int nx = x + GRID_SQUARE_DX[i], ny = y + GRID_SQUARE_DY[i];
		if (!grid_in_bounds(g, nx, ny) || !g->cost[grid_index(g, nx, ny)])
			continue;
		if (i >= 4 && !cut && (!g->cost[grid_index(g, nx, y)] || !g->cost[grid_index(g, x, ny)]))
			continue;
		out[n++] = (struct grid_step){ grid_index(g, nx, ny), i < 4 ? 1.0 : GRID_SQRT2 };
	}
	return n;
}

/* grid_neighbours on square grids, inside the border and on it, with and
 * without corner cutting, on random walls: the reference's steps in the
 * reference's order (the crowd's choices keep the first of equal steps). */
static void test_square_neighbours_random(void **state)
{
	(void)state;
	uint32_t s = 77;
	long cells = 0;
	for (int m = 0; m < 200; m++) {
		int w = 1 + (int)(rnd(&s) % 12), h = 1 + (int)(rnd(&s) % 12), walls = (int)(rnd(&s) % 60);
		struct grid *g = grid_create(w, h, (m & 1) ? GRID_SQUARE8 : GRID_SQUARE4);
		assert_non_null(g);
		for (int c = 0; c < w * h; c++)
			grid_set_cost(g, c, (int)(rnd(&s) % 100) < walls ? 0 : (uint8_t)(1 + rnd(&s) % 3));
		for (int c = 0; c < w * h; c++) {
			for (int cut = 0; cut < 2; cut++) {
				struct grid_step a[GRID_MAX_NEIGHBOURS], b[GRID_MAX_NEIGHBOURS];
				int na = grid_neighbours(g, c, cut, a), nb = square_reference(g, c, cut, b);
				assert_int_equal(na, nb);
				for (int i = 0; i < na; i++) {
					assert_int_equal(a[i].cell, b[i].cell);
					assert_true(a[i].step == b[i].step);
				}
				cells++;
			}
		}
		grid_destroy(g);
	}
	assert_true(cells > 10000);
}

/* The distances from coordinates are the distances from cells, on every
 * topology, for every pair of cells of small maps of each parity. */
static void test_distances_from_coordinates(void **state)
{
	(void)state;
	const enum grid_topology topos[] = { GRID_SQUARE8, GRID_SQUARE4, GRID_HEX, GRID_DIAMOND8, GRID_DIAMOND4 };
	long pairs = 0;
	for (size_t t = 0; t < sizeof topos / sizeof topos[0]; t++) {
		for (int w = 1; w <= 7; w += 3) {
			struct grid *g = grid_create(w, 9 - w, topos[t]);
			assert_non_null(g);
			for (int a = 0; a < g->w * g->h; a++) {
				for (int b = 0; b < g->w * g->h; b++) {
					int ax = grid_x(g, a), ay = grid_y(g, a), bx = grid_x(g, b), by = grid_y(g, b);
					assert_true(grid_heuristic_xy(g, ax, ay, bx, by) == grid_heuristic(g, a, b));
					assert_int_equal(grid_step_distance_xy(g, ax, ay, bx, by), grid_step_distance(g, a, b));
					pairs++;
				}
			}
			grid_destroy(g);
		}
	}
	assert_true(pairs > 1000);
}

static void test_hex_neighbours_parity(void **state)
{
	(void)state;
	struct grid *g = open_grid(6, 5, GRID_HEX);
	struct grid_step s[GRID_MAX_NEIGHBOURS];
	/* even row 2: NW (1,1) NE (2,1) W (1,2) E (3,2) SW (1,3) SE (2,3) */
	int n = grid_neighbours(g, grid_index(g, 2, 2), false, s);
	assert_int_equal(n, 6);
	int even[6][2] = { { 1, 1 }, { 2, 1 }, { 1, 2 }, { 3, 2 }, { 1, 3 }, { 2, 3 } };
	for (int i = 0; i < 6; i++)
		assert_true(has_step(s, n, grid_index(g, even[i][0], even[i][1]), 1.0));
	/* odd row 1: NW (2,0) NE (3,0) W (1,1) E (3,1) SW (2,2) SE (3,2) */
	n = grid_neighbours(g, grid_index(g, 2, 1), false, s);
	assert_int_equal(n, 6);
	int odd[6][2] = { { 2, 0 }, { 3, 0 }, { 1, 1 }, { 3, 1 }, { 2, 2 }, { 3, 2 } };
	for (int i = 0; i < 6; i++)
		assert_true(has_step(s, n, grid_index(g, odd[i][0], odd[i][1]), 1.0));
	/* edges: even row at x=0 loses W, NW, SW; odd row at the right edge loses E, NE, SE */
	assert_int_equal(grid_neighbours(g, grid_index(g, 0, 2), false, s), 3);
	assert_int_equal(grid_neighbours(g, grid_index(g, 5, 1), false, s), 3);
	/* odd row at x=0 keeps its NW/SW (which sit at x=0) */
	assert_int_equal(grid_neighbours(g, grid_index(g, 0, 1), false, s), 5);
	assert_int_equal(grid_neighbours(g, grid_index(g, 0, 0), false, s), 2);
	/* every neighbour relation is symmetric and sits at hex distance 1 */
	for (int a = 0; a < g->w * g->h; a++) {
		n = grid_adjacent(g, a, s);
		for (int i = 0; i < n; i++) {
			assert_true(grid_is_adjacent(g, s[i].cell, a));
			assert_true(grid_heuristic(g, a, s[i].cell) == 1.0);
		}
	}
	grid_destroy(g);
}

/*
 * Diamond neighbours against the rule in doubled coordinates (DESIGN
 * section 2): edge steps at (+-1, +-1), corner steps at (+-2, 0) and
 * (0, +-2), a corner step only when both diamonds beside the corner are
 * passable (outside the map counts as blocked).  Every cell of maps of odd
 * and even sizes, both row parities, every edge, with random walls.
 */
static bool dm_open(const struct grid *g, int X, int Y)
{
	if (Y < 0 || Y >= g->h || X < 0 || ((X ^ Y) & 1))
		return false;
	int x = (X - (Y & 1)) / 2;
	return x < g->w && g->cost[grid_index(g, x, Y)] != 0;
}

static int dm_cell(const struct grid *g, int X, int Y)
{
	return grid_index(g, (X - (Y & 1)) / 2, Y);
}

static void test_diamond_neighbours_parity(void **state)
{
	(void)state;
	uint32_t seed = 99;
	const int sizes[4][2] = { { 5, 4 }, { 6, 7 }, { 1, 5 }, { 4, 1 } };
	for (int t = 0; t < 2; t++) {
		enum grid_topology topo = t ? GRID_DIAMOND8 : GRID_DIAMOND4;
		for (int sz = 0; sz < 4; sz++) {
			for (int round = 0; round < 6; round++) {
				int w = sizes[sz][0], h = sizes[sz][1];
				struct grid *g = open_grid(w, h, topo);
				if (round > 0)
					for (int i = 0; i < w * h; i++)
						grid_set_cost(g, i, rnd(&seed) % 4 == 0 ? 0 : 1);
				for (int cc = 0; cc < 2; cc++) {
					for (int c = 0; c < w * h; c++) {
						int X = 2 * grid_x(g, c) + (grid_y(g, c) & 1), Y = grid_y(g, c);
						struct grid_step s[GRID_MAX_NEIGHBOURS], a[GRID_MAX_NEIGHBOURS];
						int n = grid_neighbours(g, c, cc, s), na = grid_adjacent(g, c, a);
						int want = 0, want_adj = 0;
						static const int ex[4][2] = { { 1, -1 }, { -1, -1 }, { 1, 1 }, { -1, 1 } };
						static const int co[4][2] = { { 0, -2 }, { 2, 0 }, { -2, 0 }, { 0, 2 } };
						for (int k = 0; k < 4; k++) {
							int bx = X + ex[k][0], by = Y + ex[k][1];
							if (by >= 0 && by < h && bx >= 0 && (bx - (by & 1)) / 2 < w) {
								want_adj++;
								assert_true(has_step(a, na, dm_cell(g, bx, by), 1.0));
							}
							if (dm_open(g, bx, by)) {
								want++;
								assert_true(has_step(s, n, dm_cell(g, bx, by), 1.0));
							}
						}
						for (int k = 0; k < 4 && topo == GRID_DIAMOND8; k++) {
							int bx = X + co[k][0], by = Y + co[k][1];
							if (by >= 0 && by < h && bx >= 0 && (bx - (by & 1)) / 2 < w) {
								want_adj++;
								assert_true(has_step(a, na, dm_cell(g, bx, by), GRID_SQRT2));
							}
							/* the two diamonds beside the corner */
							int f1x = X + co[k][0] / 2 + co[k][1] / 2, f1y = Y + co[k][1] / 2 + co[k][0] / 2;
							int f2x = X + co[k][0] / 2 - co[k][1] / 2, f2y = Y + co[k][1] / 2 - co[k][0] / 2;
							bool ok = dm_open(g, bx, by) &&
								  (cc || (dm_open(g, f1x, f1y) && dm_open(g, f2x, f2y)));
							if (ok) {
								want++;
								assert_true(has_step(s, n, dm_cell(g, bx, by), GRID_SQRT2));
							}
						}
						assert_int_equal(n, want);
						assert_int_equal(na, want_adj);
						/* symmetric, and one step apart */
						for (int i = 0; i < na; i++) {
							assert_true(grid_is_adjacent(g, a[i].cell, c));
							assert_int_equal(grid_step_distance(g, c, a[i].cell), 1);
							assert_true(grid_heuristic(g, c, a[i].cell) == a[i].step);
						}
					}
				}
				grid_destroy(g);
			}
		}
	}
}

/*
 * A window cut from a cost array (grid_set_costs_window) holds, cell for
 * cell, what setting each cell alone from the array's cell under it gives,
 * blocked where the window overhangs an edge of the array (each edge, all
 * of them, none, and a window wholly outside), bits included; and a grid
 * that held other costs before keeps none of them.
 */
static void test_costs_window(void **state)
{
	(void)state;
	const int fw = 150, fh = 97;
	uint32_t seed = 777;
	uint8_t *from = malloc((size_t)fw * fh);
	assert_non_null(from);
	for (int i = 0; i < fw * fh; i++)
		from[i] = (uint8_t)(rnd(&seed) % 5); /* 0: blocked */
	static const int wins[][4] = {
		/* w, h, x0, y0 */
		{ 129, 130, 10, -30 }, { 129, 130, -64, 20 }, { 129, 130, 60, 40 }, { 129, 258, -70, -129 },
		{ 200, 120, -20, -10 }, { 64, 64, 0, 0 }, { 65, 3, 85, 94 }, { 20, 20, 150, 0 },
		{ 20, 20, -20, 5 }, { 10, 10, 30, 97 }, { 10, 10, 30, -10 }, { 1, 1, 149, 96 },
	};
	for (size_t k = 0; k < sizeof wins / sizeof wins[0]; k++) {
		const int w = wins[k][0], h = wins[k][1], x0 = wins[k][2], y0 = wins[k][3];
		struct grid *win = grid_create(w, h, GRID_DIAMOND8);
		struct grid *one = grid_create(w, h, GRID_DIAMOND8);
		assert_non_null(win);
		assert_non_null(one);
		for (int y = 0; y < h; y++)
			for (int x = 0; x < w; x++) {
				const int fx = x0 + x, fy = y0 + y;
				const bool in = fx >= 0 && fy >= 0 && fx < fw && fy < fh;
				grid_set_cost(one, grid_index(one, x, y), in ? from[fy * fw + fx] : 0);
			}
		grid_fill(win, 1); /* other costs before: none of them may stay */
		grid_set_costs_window(win, from, fw, fh, x0, y0);
		assert_memory_equal(win->cost, one->cost, (size_t)w * h);
		assert_memory_equal(win->rows, one->rows, (size_t)h * one->row_words * sizeof *one->rows);
		assert_memory_equal(win->cols, one->cols, (size_t)w * one->col_words * sizeof *one->cols);
		grid_destroy(win);
		grid_destroy(one);
	}
	free(from);
}

/*
 * Every cell's cost at once (grid_set_costs_mapped, grid_set_costs) gives
 * the costs and the passability bits of rows and columns that setting
 * each cell alone gives, on sizes that fill no word and several, and on
 * a grid that held other costs before (every word is written whole).
 */
static void test_costs_at_once(void **state)
{
	(void)state;
	static const int sizes[][2] = { { 1, 1 }, { 63, 65 }, { 64, 64 }, { 130, 70 }, { 200, 129 }, { 7, 300 } };
	uint32_t seed = 12345;
	uint8_t map[256];
	for (int t = 0; t < 256; t++)
		map[t] = t % 3 == 0 ? 0 : (uint8_t)t;
	for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		const int w = sizes[k][0], h = sizes[k][1];
		const size_t n = (size_t)w * (size_t)h;
		uint8_t *from = malloc(n), *want = malloc(n);
		assert_non_null(from);
		assert_non_null(want);
		for (size_t i = 0; i < n; i++) {
			from[i] = (uint8_t)(rnd(&seed) & 7); /* 0, 3 and 6 blocked */
			want[i] = map[from[i]];
		}
		struct grid *one = grid_create(w, h, GRID_SQUARE8);
		struct grid *all = grid_create(w, h, GRID_SQUARE8);
		struct grid *copy = grid_create(w, h, GRID_SQUARE8);
		assert_non_null(one);
		assert_non_null(all);
		assert_non_null(copy);
		for (size_t i = 0; i < n; i++)
			grid_set_cost(one, (int)i, want[i]);
		grid_fill(all, 1); /* other bits before: all of them must go */
		grid_set_costs_mapped(all, from, map);
		grid_fill(copy, 1);
		grid_set_costs(copy, want);
		const size_t rw = (size_t)h * (size_t)one->row_words, cw = (size_t)w * (size_t)one->col_words;
		const struct grid *got[] = { all, copy };
		for (int j = 0; j < 2; j++) {
			assert_memory_equal(got[j]->cost, one->cost, n);
			assert_memory_equal(got[j]->rows, one->rows, rw * sizeof *one->rows);
			assert_memory_equal(got[j]->cols, one->cols, cw * sizeof *one->cols);
		}
		grid_destroy(one);
		grid_destroy(all);
		grid_destroy(copy);
		free(from);
		free(want);
	}
}

static void test_screen_round_trip(void **state)
{
	(void)state;
	enum grid_topology topo[5] = { GRID_SQUARE4, GRID_SQUARE8, GRID_HEX, GRID_DIAMOND4, GRID_DIAMOND8 };
	for (int t = 0; t < 5; t++) {
		struct grid *g = open_grid(7, 6, topo[t]);
		for (int y = 0; y < g->h; y++) {
			for (int x = 0; x < g->w; x++) {
				int col, row, bx, by;
				grid_cell_to_screen(g, x, y, &col, &row);
				assert_int_equal(row, y);
				assert_int_equal(col, topo[t] >= GRID_HEX ? 2 * x + (y & 1) : x);
				assert_true(grid_screen_to_cell(g, col, row, &bx, &by));
				assert_int_equal(bx, x);
				assert_int_equal(by, y);
			}
		}
		assert_int_equal(grid_screen_width(g), topo[t] >= GRID_HEX ? 14 : 7);
		grid_destroy(g);
	}
	/* diamond: every text position of an odd and an even sized map gives
	 * the nearest cell, as on hex (wrong parity: left, or right at the left edge) */
	for (int sz = 0; sz < 2; sz++) {
		struct grid *d = open_grid(5 + sz, 4 + sz, GRID_DIAMOND8);
		for (int row = -2; row < d->h + 2; row++)
			for (int col = -3; col < 2 * d->w + 3; col++) {
				int x, y;
				bool exact = grid_screen_to_cell(d, col, row, &x, &y);
				int r = row < 0 ? 0 : row >= d->h ? d->h - 1 : row;
				int first = r & 1, last = 2 * (d->w - 1) + (r & 1);
				int c = col < first ? first : col > last ? last : col;
				if ((c & 1) != (r & 1))
					c = c - 1 >= first ? c - 1 : c + 1;
				assert_int_equal(y, r);
				assert_int_equal(x, (c - (r & 1)) / 2);
				assert_int_equal(exact, row == r && col == c);
			}
		grid_destroy(d);
	}
	struct grid *g = open_grid(7, 6, GRID_HEX);
	int x, y;
	/* wrong parity: the cell on the left, or on the right at the left edge */
	assert_false(grid_screen_to_cell(g, 5, 2, &x, &y));
	assert_int_equal(x, 2);
	assert_int_equal(y, 2);
	assert_false(grid_screen_to_cell(g, 0, 1, &x, &y));
	assert_int_equal(x, 0);
	assert_int_equal(y, 1);
	/* outside: clamped */
	assert_false(grid_screen_to_cell(g, 40, -3, &x, &y));
	assert_int_equal(x, 6);
	assert_int_equal(y, 0);
	assert_false(grid_screen_to_cell(g, -5, 9, &x, &y));
	assert_int_equal(x, 0);
	assert_int_equal(y, 5);
	x = -4;
	y = 99;
	grid_clamp(g, &x, &y);
	assert_int_equal(x, 0);
	assert_int_equal(y, 5);
	grid_destroy(g);
}

/* Heuristics against Dijkstra distances: exact on an empty map, and on
 * maps with walls and terrain admissible (never above) and consistent
 * (never drops by more than a step's plain cost). */
static void test_heuristics_vs_dijkstra(void **state)
{
	(void)state;
	enum grid_topology topo[5] = { GRID_SQUARE4, GRID_SQUARE8, GRID_HEX, GRID_DIAMOND4, GRID_DIAMOND8 };
	uint32_t seed = 12345;
	for (int t = 0; t < 5; t++) {
		for (int round = 0; round < 40; round++) {
			int w = 4 + (int)(rnd(&seed) % 6), h = 4 + (int)(rnd(&seed) % 6);
			struct grid *g = open_grid(w, h, topo[t]);
			bool empty = round == 0;
			if (!empty)
				for (int i = 0; i < w * h; i++) {
					uint32_t r = rnd(&seed) % 10;
					grid_set_cost(g, i, r < 2 ? 0 : r < 7 ? 1 : (uint8_t)(r - 5));
				}
			struct path_ctx *ctx = path_create(g);
			assert_non_null(ctx);
			struct path_options opt = path_options_default();
			for (int goal = 0; goal < w * h; goal++) {
				if (!g->cost[goal])
					continue;
				/* reverse flood: distance from every cell to goal */
				path_flood(ctx, goal, &opt, true, 0.0);
				for (int a = 0; a < w * h; a++) {
					double d = path_flood_distance(ctx, a);
					double ha = grid_heuristic(g, a, goal);
					if (d >= 0) {
						assert_true(ha <= d + 1e-9);
						/* exact on an empty map; a diamond rectangle is
						 * not a whole turned square (its side edges cut
						 * corner steps), so there only on diamond4 */
						if (empty && topo[t] != GRID_DIAMOND8)
							assert_true(ha > d - 1e-9);
					}
					struct grid_step s[GRID_MAX_NEIGHBOURS];
					int n = grid_adjacent(g, a, s);
					for (int i = 0; i < n; i++)
						assert_true(ha <= s[i].step + grid_heuristic(g, s[i].cell, goal) + 1e-9);
				}
			}
			path_destroy(ctx);
			grid_destroy(g);
		}
	}
}

static void test_topology_names(void **state)
{
	(void)state;
	enum grid_topology t;
	assert_true(grid_topology_parse("hex", &t));
	assert_int_equal(t, GRID_HEX);
	assert_true(grid_topology_parse("square4", &t));
	assert_int_equal(t, GRID_SQUARE4);
	assert_false(grid_topology_parse("square6", &t));
	assert_true(grid_topology_parse("diamond4", &t));
	assert_int_equal(t, GRID_DIAMOND4);
	assert_true(grid_topology_parse("diamond8", &t));
	assert_int_equal(t, GRID_DIAMOND8);
	assert_string_equal(grid_topology_name(GRID_DIAMOND8), "diamond8");
	assert_false(grid_topology_parse("diamond", &t));
	assert_string_equal(grid_topology_name(GRID_SQUARE8), "square8");
	assert_null(grid_create(0, 5, GRID_HEX));
	grid_destroy(NULL);
}

/* The expansion-order tables and the direction vocabulary agree: row i
 * of a topology's table is the step grid_dir_step takes for its direction,
 * in every row parity, and the directions a topology lacks are refused. */
static void test_direction_vocabulary(void **state)
{
	(void)state;
	struct grid *sq = grid_create(9, 9, GRID_SQUARE8), *hx = grid_create(9, 9, GRID_HEX);
	struct grid *s4 = grid_create(9, 9, GRID_SQUARE4);
	assert_non_null(sq);
	assert_non_null(hx);
	assert_non_null(s4);
	int nx, ny;
	for (int i = 0; i < 8; i++) {
		assert_true(grid_dir_step(sq, 4, 4, GRID_SQUARE_DIRS[i], &nx, &ny));
		assert_int_equal(nx, 4 + GRID_SQUARE_DX[i]);
		assert_int_equal(ny, 4 + GRID_SQUARE_DY[i]);
		assert_int_equal(grid_dir_step(s4, 4, 4, GRID_SQUARE_DIRS[i], &nx, &ny), i < 4);
	}
	for (int y = 3; y <= 4; y++)
		for (int i = 0; i < 6; i++) {
			assert_true(grid_dir_step(hx, 4, y, GRID_HEX_DIRS[i], &nx, &ny));
			assert_int_equal(nx, 4 + GRID_HEX_DX[y & 1][i]);
			assert_int_equal(ny, y + GRID_HEX_DY[i]);
			assert_true(grid_is_adjacent(hx, grid_index(hx, 4, y), grid_index(hx, nx, ny)));
		}
	struct grid *d8 = grid_create(9, 9, GRID_DIAMOND8), *d4 = grid_create(9, 9, GRID_DIAMOND4);
	assert_non_null(d8);
	assert_non_null(d4);
	for (int y = 3; y <= 4; y++)
		for (int i = 0; i < 8; i++) {
			assert_true(grid_dir_step(d8, 4, y, GRID_DIAMOND_DIRS[i], &nx, &ny));
			assert_int_equal(nx, 4 + GRID_DIAMOND_DX[y & 1][i]);
			assert_int_equal(ny, y + GRID_DIAMOND_DY[i]);
			assert_true(grid_is_adjacent(d8, grid_index(d8, 4, y), grid_index(d8, nx, ny)));
			assert_int_equal(grid_dir_step(d4, 4, y, GRID_DIAMOND_DIRS[i], &nx, &ny), i < 4);
			int dc, dr;
			assert_true(grid_dir_offset(GRID_DIAMOND8, GRID_DIAMOND_DIRS[i], &dc, &dr));
			assert_int_equal(abs(dc) + abs(dr), 2); /* (+-1, +-1), (+-2, 0), (0, +-2) */
		}
	grid_destroy(d8);
	grid_destroy(d4);
	assert_false(grid_dir_step(hx, 4, 4, GRID_N, &nx, &ny));
	assert_false(grid_dir_step(hx, 4, 4, GRID_S, &nx, &ny));
	assert_false(grid_dir_step(sq, 4, 4, GRID_DIR_COUNT, &nx, &ny));
	assert_string_equal(grid_dir_name(GRID_SW), "south-west");
	grid_destroy(sq);
	grid_destroy(hx);
	grid_destroy(s4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_square4_neighbours),
		cmocka_unit_test(test_square8_neighbours_and_corners),
		cmocka_unit_test(test_square_neighbours_random),
		cmocka_unit_test(test_distances_from_coordinates),
		cmocka_unit_test(test_hex_neighbours_parity),
		cmocka_unit_test(test_diamond_neighbours_parity),
		cmocka_unit_test(test_costs_at_once),
		cmocka_unit_test(test_screen_round_trip),
		cmocka_unit_test(test_heuristics_vs_dijkstra),
		cmocka_unit_test(test_topology_names),
		cmocka_unit_test(test_costs_window),
		cmocka_unit_test(test_direction_vocabulary),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
