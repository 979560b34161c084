/*
 * test_flood.c - the multi-queue flood against path_flood (the heap-based
 * Dijkstra of the A* core) on random maps of every topology with mixed
 * terrain, forward and reverse, with and without corner cutting; early
 * stops (targets, max_dist) and resuming; determinism; and flood_next
 * always stepping onto an optimal route.  The speed against path_flood on
 * a 512x512 Moving AI map is printed, never asserted.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "testrand.h"

#include "flood.h"
#include "grid.h"
#include "movingai.h"
#include "path.h"

#define MAPS_PER_TOPOLOGY 320

static int rnd_range(uint32_t *s, int lo, int hi)
{
	return lo + (int)(rnd(s) % (uint32_t)(hi - lo + 1));
}

/* A random grid: walls at a random density, rubble and water, and now and
 * then an unusual multiplier (7, 40, 255) so more than three kinds of edge
 * cost meet. */
static struct grid *random_grid(uint32_t *s, enum grid_topology t)
{
	int w = rnd_range(s, 1, 40), h = rnd_range(s, 1, 30);
	struct grid *g = grid_create(w, h, t);
	assert_non_null(g);
	int walls = rnd_range(s, 0, 45);
	bool odd = rnd_range(s, 0, 3) == 0;
	for (int i = 0; i < w * h; i++) {
		int v = rnd_range(s, 0, 99);
		uint8_t c = v < walls ? 0 : v < walls + 10 ? 2 : v < walls + 18 ? 3 : 1;
		if (odd && c && rnd_range(s, 0, 19) == 0) {
			static const uint8_t rare[] = { 7, 40, 255 };
			c = rare[rnd_range(s, 0, 2)];
		}
		grid_set_cost(g, i, c);
	}
	return g;
}

/* A winding corridor of `len` square8 cells: rows of 40 joined at
 * alternate ends, walls between. */
static struct grid *serpentine(int len)
{
	const int w = 41, rows = len / 40 + 1, h = 2 * rows - 1, n = w * h;
	struct grid *g = grid_create(w, h, GRID_SQUARE8);
	assert_non_null(g);
	for (int c = 0; c < n; c++)
		grid_set_cost(g, c, 0);
	for (int r = 0, cells = 0; r < rows && cells < len; r++) {
		for (int x = 0; x < 40 && cells < len; x++, cells++)
			grid_set_cost(g, (2 * r) * w + ((r & 1) ? 39 - x : x), 1);
		if (r + 1 < rows && cells < len)
			grid_set_cost(g, (2 * r + 1) * w + ((r & 1) ? 0 : 39), 1);
	}
	return g;
}

/* The cost of a legal step a -> b as a mover pays it. */
static double step_cost(const struct grid *g, int a, int b)
{
	bool diag = g->topo == GRID_SQUARE8 && grid_x(g, a) != grid_x(g, b) && grid_y(g, a) != grid_y(g, b);
	/* a diamond8 corner step stays in its row or moves two rows */
	if (g->topo == GRID_DIAMOND8 && abs(grid_y(g, a) - grid_y(g, b)) != 1)
		diag = true;
	unsigned m = g->cost[b] ? g->cost[b] : 1u;
	return (diag ? GRID_SQRT2 : 1.0) * m;
}

static bool legal_step(const struct grid *g, int a, int b, bool corner_cutting)
{
	struct grid_step s[GRID_MAX_NEIGHBOURS];
	int n = grid_neighbours(g, a, corner_cutting, s);
	for (int i = 0; i < n; i++)
		if (s[i].cell == b)
			return true;
	return false;
}

/* flood_next from every settled cell: a legal step between settled cells
 * whose cost accounts exactly for the difference, and the chain of them
 * reaches the source. */
static void check_next(const struct grid *g, const struct flood_ctx *f, bool reverse, bool cut, int source)
{
	int n = g->w * g->h;
	for (int c = 0; c < n; c++) {
		int nx = flood_next(f, c);
		if (!flood_settled(f, c) || c == source) {
			assert_int_equal(nx, -1);
			continue;
		}
		assert_true(nx >= 0);
		assert_true(flood_settled(f, nx));
		double dc = flood_distance(f, c), dn = flood_distance(f, nx);
		if (reverse) {
			/* the mover at c steps to nx (a blocked source counts as floor) */
			assert_true(nx == source ? grid_is_adjacent(g, c, nx) : legal_step(g, c, nx, cut));
			assert_true(fabs(dc - (dn + step_cost(g, c, nx))) <= 1e-9 * (1 + dc));
		} else {
			/* the route from the source entered c from nx */
			assert_true(nx == source ? grid_is_adjacent(g, nx, c) : legal_step(g, nx, c, cut));
			assert_true(fabs(dc - (dn + step_cost(g, nx, c))) <= 1e-9 * (1 + dc));
		}
		assert_true(dn < dc);
	}
	/* a walk along flood_next from the farthest cell ends at the source */
	int far = source;
	for (int c = 0; c < n; c++)
		if (flood_settled(f, c) && flood_distance(f, c) > flood_distance(f, far))
			far = c;
	int steps = 0;
	for (int c = far; c != source; c = flood_next(f, c)) {
		assert_true(c >= 0);
		assert_true(++steps <= n);
	}
}

static void compare_with_path(const struct grid *g, struct flood_ctx *f, struct path_ctx *p,
			      int source, bool reverse, bool cut, long *cells)
{
	struct path_options po = path_options_default();
	po.corner_cutting = cut;
	struct flood_options fo = flood_options_default();
	fo.reverse = reverse;
	fo.corner_cutting = cut;
	long ps = path_flood(p, source, &po, reverse, 0);
	long fs = flood_run(f, source, &fo, NULL, 0);
	assert_int_equal(ps, fs);
	assert_true(flood_finished(f));
	assert_int_equal(flood_source(f), source);
	for (int c = 0; c < g->w * g->h; c++) {
		double a = path_flood_distance(p, c), b = flood_distance(f, c);
		assert_int_equal(a >= 0, b >= 0);
		assert_int_equal(b >= 0, flood_settled(f, c));
		if (a >= 0)
			assert_true(fabs(a - b) <= 1e-9);
	}
	*cells += fs;
	check_next(g, f, reverse, cut, source);
}

static void test_equals_path_flood(void **state)
{
	(void)state;
	uint32_t s = 0x9e3779b9u;
	long cells = 0;
	int runs = 0;
	for (int t = 0; t < 5; t++) { /* square4, square8, hex, diamond4, diamond8 */
		for (int m = 0; m < MAPS_PER_TOPOLOGY; m++) {
			struct grid *g = random_grid(&s, (enum grid_topology)t);
			struct flood_ctx *f = flood_create(g);
			struct path_ctx *p = path_create(g);
			assert_non_null(f);
			assert_non_null(p);
			int n = g->w * g->h;
			for (int k = 0; k < 3; k++) {
				/* a random source, blocked now and then (a closed door) */
				int source = rnd_range(&s, 0, n - 1);
				for (int rev = 0; rev < 2; rev++) {
					compare_with_path(g, f, p, source, rev, false, &cells);
					runs++;
					if (t == GRID_SQUARE8 || t == GRID_DIAMOND8) {
						compare_with_path(g, f, p, source, rev, true, &cells);
						runs++;
					}
				}
			}
			path_destroy(p);
			flood_destroy(f);
			grid_destroy(g);
		}
	}
	print_message("flood = path_flood: %d floods on %d maps per topology, %ld cells settled\n",
		      runs, MAPS_PER_TOPOLOGY, cells);
}

/* The corner rule on a fixed map: the diagonal past a wall corner is not
 * taken unless corner cutting is asked for. */
static void test_corner_rule(void **state)
{
	(void)state;
	struct grid *g = grid_create(3, 3, GRID_SQUARE8);
	static const char rows[] = ".#."
				   "..."
				   "...";
	for (int i = 0; i < 9; i++)
		grid_set_cost(g, i, rows[i] == '#' ? 0 : 1);
	struct flood_ctx *f = flood_create(g);
	struct flood_options o = flood_options_default();
	for (int rev = 0; rev < 2; rev++) {
		o.reverse = rev;
		o.corner_cutting = false;
		flood_run(f, grid_index(g, 0, 0), &o, NULL, 0);
		/* (0,0) -> (1,1) and (1,1) -> (2,0) pass the wall at (1,0): not allowed */
		assert_true(fabs(flood_distance(f, grid_index(g, 1, 1)) - 2.0) < 1e-12);
		assert_true(fabs(flood_distance(f, grid_index(g, 2, 0)) - 4.0) < 1e-12);
		o.corner_cutting = true;
		flood_run(f, grid_index(g, 0, 0), &o, NULL, 0);
		assert_true(fabs(flood_distance(f, grid_index(g, 1, 1)) - GRID_SQRT2) < 1e-12);
		assert_true(fabs(flood_distance(f, grid_index(g, 2, 0)) - 2 * GRID_SQRT2) < 1e-12);
		assert_int_equal(flood_distance(f, grid_index(g, 1, 0)) < 0, true); /* walls are never entered */
	}
	flood_destroy(f);
	grid_destroy(g);
}

/* Entering costs: reverse counts the cells entered on the way TO the
 * source, forward those entered on the way FROM it. */
static void test_reverse_and_forward_costs(void **state)
{
	(void)state;
	struct grid *g = grid_create(3, 1, GRID_SQUARE4);
	grid_set_cost(g, 0, 1);
	grid_set_cost(g, 1, 3);
	grid_set_cost(g, 2, 2);
	struct flood_ctx *f = flood_create(g);
	struct flood_options o = flood_options_default();
	flood_run(f, 0, &o, NULL, 0);
	assert_true(flood_distance(f, 2) == 5.0); /* enters 1 (3) and 2 (2) */
	assert_int_equal(flood_next(f, 2), 1);
	o.reverse = true;
	flood_run(f, 0, &o, NULL, 0);
	assert_true(flood_distance(f, 2) == 4.0); /* a mover at 2 enters 1 (3) and 0 (1) */
	assert_int_equal(flood_next(f, 2), 1);
	assert_int_equal(flood_next(f, 1), 0);
	assert_int_equal(flood_next(f, 0), -1);
	assert_true(flood_distance(f, -1) < 0);
	assert_true(flood_distance(f, 3) < 0);
	assert_int_equal(flood_next(f, 7), -1);
	assert_int_equal(flood_run(f, 3, &o, NULL, 0), -1); /* outside the map */
	assert_int_equal(flood_source(f), -1);
	assert_true(flood_distance(f, 0) < 0);
	flood_destroy(f);
	grid_destroy(g);
}

/* Early stops: with targets, the flood stops once they are all settled,
 * their distances are already exact, and resuming gives the full flood;
 * with max_dist, exactly the cells within it are settled. */
static void test_early_stop(void **state)
{
	(void)state;
	uint32_t s = 12345;
	int stopped_early = 0;
	for (int t = 0; t < 5; t++) { /* square4, square8, hex, diamond4, diamond8 */
		for (int m = 0; m < 120; m++) {
			struct grid *g = random_grid(&s, (enum grid_topology)t);
			int n = g->w * g->h;
			struct flood_ctx *f = flood_create(g), *full = flood_create(g);
			struct path_ctx *p = path_create(g);
			struct flood_options o = flood_options_default();
			o.reverse = rnd_range(&s, 0, 1);
			int source = rnd_range(&s, 0, n - 1);
			long all = flood_run(full, source, &o, NULL, 0);

			int targets[4];
			int nt = rnd_range(&s, 1, 4);
			for (int i = 0; i < nt; i++)
				targets[i] = rnd_range(&s, 0, n - 1);
			long part = flood_run(f, source, &o, targets, nt);
			assert_true(part <= all);
			for (int i = 0; i < nt; i++) {
				bool reach = flood_settled(full, targets[i]);
				assert_int_equal(flood_settled(f, targets[i]), reach);
				if (reach)
					assert_true(flood_distance(f, targets[i]) == flood_distance(full, targets[i]));
			}
			for (int c = 0; c < n; c++)
				if (flood_settled(f, c))
					assert_true(flood_distance(f, c) == flood_distance(full, c));
			stopped_early += part < all;
			if (part < all)
				assert_false(flood_finished(f));
			/* resume one target at a time, then to the end */
			long more = 0;
			for (int c = 0; c < n; c += 7)
				more += flood_settle(f, &c, 1);
			more += flood_settle(f, NULL, 0);
			assert_int_equal(part + more, all);
			assert_int_equal(flood_settled_count(f), all);
			for (int c = 0; c < n; c++) {
				assert_int_equal(flood_settled(f, c), flood_settled(full, c));
				assert_int_equal(flood_next(f, c), flood_next(full, c));
			}

			/* max_dist against path_flood's max_cost */
			double md = rnd_range(&s, 1, 30) + 0.5;
			o.max_dist = md;
			struct path_options po = path_options_default();
			long a = path_flood(p, source, &po, o.reverse, md);
			long b = flood_run(f, source, &o, NULL, 0);
			assert_int_equal(a, b);
			assert_true(flood_finished(f));
			for (int c = 0; c < n; c++) {
				double d = flood_distance(f, c);
				assert_int_equal(d >= 0, path_flood_distance(p, c) >= 0);
				assert_int_equal(d >= 0, flood_settled(full, c) && flood_distance(full, c) <= md);
			}
			path_destroy(p);
			flood_destroy(f);
			flood_destroy(full);
			grid_destroy(g);
		}
	}
	assert_true(stopped_early > 100);
}

/* A flood resets only the distances the floods before it on the context
 * may have written (flood_begin): a bounded flood after whole floods (in
 * compact distances and in doubles), shifts and other bounded floods on
 * one context settles the same cells at the same distances as on a fresh
 * context. */
static void test_reused_context_resets(void **state)
{
	(void)state;
	uint32_t s = 4242;
	long compared = 0;
	for (int m = 0; m < 160; m++) {
		enum grid_topology t = (enum grid_topology)(m % 5);
		struct grid *g;
		if (m % 4 == 0) {
			/* uniform, larger: whole floods take the compact loop */
			g = grid_create(rnd_range(&s, 60, 140), rnd_range(&s, 40, 90), t);
			assert_non_null(g);
			for (int i = 0; i < g->w * g->h; i++)
				grid_set_cost(g, i, rnd_range(&s, 0, 99) < 15 ? 0 : 1);
		} else {
			g = random_grid(&s, t);
		}
		const int n = g->w * g->h;
		struct flood_ctx *f = flood_create(g);
		assert_non_null(f);
		for (int step = 0; step < 12; step++) {
			struct flood_options o = flood_options_default();
			o.reverse = true;
			const int source = rnd_range(&s, 0, n - 1);
			const int kind = rnd_range(&s, 0, 3);
			if (kind == 0) {
				flood_run(f, source, &o, NULL, 0);
			} else if (kind == 1) {
				if (!flood_shift(f, source))
					flood_run(f, source, &o, NULL, 0);
			} else {
				o.max_dist = rnd_range(&s, 1, 25) + (kind == 3 ? 0.5 : 0.0);
				long a = flood_run(f, source, &o, NULL, 0);
				struct flood_ctx *fresh = flood_create(g);
				assert_non_null(fresh);
				assert_int_equal(flood_run(fresh, source, &o, NULL, 0), a);
				for (int c = 0; c < n; c++) {
					assert_int_equal(flood_settled(f, c), flood_settled(fresh, c));
					assert_true(flood_distance(f, c) == flood_distance(fresh, c));
					assert_int_equal(flood_next(f, c), flood_next(fresh, c));
				}
				flood_destroy(fresh);
				compared++;
			}
		}
		flood_destroy(f);
		grid_destroy(g);
	}
	assert_true(compared > 600);
}

/* The same query gives the same flood: the same cells settled at every
 * early stop, and the same flood_next, on two contexts and on a reused one
 * after other floods. */
static void test_determinism(void **state)
{
	(void)state;
	uint32_t s = 777;
	for (int t = 0; t < 5; t++) { /* square4, square8, hex, diamond4, diamond8 */
		for (int m = 0; m < 40; m++) {
			struct grid *g = random_grid(&s, (enum grid_topology)t);
			int n = g->w * g->h;
			struct flood_ctx *a = flood_create(g), *b = flood_create(g);
			struct flood_options o = flood_options_default();
			o.reverse = m & 1;
			int source = rnd_range(&s, 0, n - 1), other = rnd_range(&s, 0, n - 1);
			flood_run(b, other, &o, NULL, 0); /* b carries an older flood */
			for (int c = 0; c < n; c += 3) {
				long la = flood_run(a, source, &o, &c, 1);
				long lb = flood_run(b, source, &o, &c, 1);
				assert_int_equal(la, lb);
				for (int k = 0; k < n; k++) {
					assert_int_equal(flood_settled(a, k), flood_settled(b, k));
					assert_int_equal(flood_next(a, k), flood_next(b, k));
				}
			}
			flood_destroy(a);
			flood_destroy(b);
			grid_destroy(g);
		}
	}
}

/* A long corridor of alternating costs keeps many FIFOs busy at once and
 * fills pool blocks end to end. */
static void test_large_and_memory(void **state)
{
	(void)state;
	struct grid *g = grid_create(300, 200, GRID_SQUARE8);
	uint32_t s = 99;
	for (int i = 0; i < 300 * 200; i++)
		grid_set_cost(g, i, (uint8_t)(rnd_range(&s, 0, 9) == 0 ? 0 : rnd_range(&s, 1, 6)));
	struct flood_ctx *f = flood_create(g);
	struct path_ctx *p = path_create(g);
	assert_true(flood_memory(f) > (size_t)300 * 200 * 14);
	struct path_options po = path_options_default();
	struct flood_options fo = flood_options_default();
	for (int rev = 0; rev < 2; rev++) {
		fo.reverse = rev;
		for (int k = 0; k < 3; k++) {
			int src = rnd_range(&s, 0, 300 * 200 - 1);
			assert_int_equal(path_flood(p, src, &po, rev, 0), flood_run(f, src, &fo, NULL, 0));
			for (int c = 0; c < 300 * 200; c++) {
				double a = path_flood_distance(p, c), b = flood_distance(f, c);
				assert_int_equal(a >= 0, b >= 0);
				if (a >= 0)
					assert_true(fabs(a - b) <= 1e-9);
			}
			check_next(g, f, rev, false, src);
		}
	}
	assert_null(flood_create(NULL));
	flood_destroy(NULL);
	assert_int_equal(flood_memory(NULL), 0);
	path_destroy(p);
	flood_destroy(f);
	grid_destroy(g);
}

/* A flood_route answer checked against path_find with the same extra
 * costs: the same cost, from start to the source, legal steps that add up
 * to the cost.  Returns path_find's expansions. */
static long check_route(const struct grid *g, struct path_ctx *p, const struct path_options *po,
			const uint16_t *extra, int start, int source, const int *out, int len,
			double cost)
{
	struct path_result r;
	assert_int_equal(path_find(p, start, source, po, &r), PATH_FOUND);
	assert_true(fabs(cost - r.cost) <= 1e-9 * (1 + r.cost));
	assert_true(len >= 1);
	assert_int_equal(out[0], start);
	assert_int_equal(out[len - 1], source);
	double sum = 0;
	for (int i = 1; i < len; i++) {
		assert_true(legal_step(g, out[i - 1], out[i], po->corner_cutting));
		sum += step_cost(g, out[i - 1], out[i]) + extra[out[i]];
	}
	assert_true(fabs(sum - cost) <= 1e-9 * (1 + cost));
	return r.expanded;
}

/* flood_route against path_find with the same extra costs: equal cost, a
 * legal route from start to the source whose steps add up to that cost,
 * from a full flood and from one stopped as soon as start was settled. */
static void test_route_with_extra(void **state)
{
	(void)state;
	uint32_t s = 4242;
	int routes = 0;
	long exp_route = 0, exp_astar = 0;
	for (int t = 0; t < 5; t++) { /* square4, square8, hex, diamond4, diamond8 */
		for (int m = 0; m < 150; m++) {
			struct grid *g = random_grid(&s, (enum grid_topology)t);
			int n = g->w * g->h;
			uint16_t *extra = calloc((size_t)n, sizeof *extra);
			int *out = malloc((size_t)n * sizeof *out);
			int k = rnd_range(&s, 1, 9), dens = rnd_range(&s, 0, 40);
			for (int c = 0; c < n; c++)
				extra[c] = rnd_range(&s, 0, 99) < dens ? (uint16_t)k : 0;
			int source = rnd_range(&s, 0, n - 1);
			if (!g->cost[source])
				grid_set_cost(g, source, 1);
			bool cut = (t == GRID_SQUARE8 || t == GRID_DIAMOND8) && (m & 1);
			struct flood_ctx *f = flood_create(g), *early = flood_create(g);
			struct path_ctx *p = path_create(g);
			struct flood_options o = flood_options_default();
			o.reverse = true;
			o.corner_cutting = cut;
			flood_run(f, source, &o, NULL, 0);
			struct path_options po = path_options_default();
			po.extra = extra;
			po.corner_cutting = cut;
			for (int q = 0; q < 6; q++) {
				int start = rnd_range(&s, 0, n - 1);
				if (!flood_settled(f, start)) {
					assert_int_equal(flood_route(f, start, extra, out, n, NULL, NULL), -1);
					continue;
				}
				double cost = -1;
				long e = 0;
				int len = flood_route(f, start, extra, out, n, &cost, &e);
				const long astar = check_route(g, p, &po, extra, start, source, out, len, cost);
				/* the same route from a flood stopped at start, and a capped copy */
				flood_run(early, source, &o, &start, 1);
				double cost2 = -1;
				int *out2 = malloc((size_t)n * sizeof *out2);
				int cap = len > 2 ? len / 2 : 1;
				int len2 = flood_route(early, start, extra, out2, cap, &cost2, NULL);
				assert_true(fabs(cost2 - cost) <= 1e-9 * (1 + cost));
				assert_true(len2 >= 1);
				assert_int_equal(out2[0], start);
				free(out2);
				routes++;
				exp_route += e;
				exp_astar += astar;
			}
			o.reverse = false;
			flood_run(f, source, &o, NULL, 0);
			assert_int_equal(flood_route(f, source, extra, out, n, NULL, NULL), -1); /* forward */
			path_destroy(p);
			flood_destroy(f);
			flood_destroy(early);
			free(extra);
			free(out);
			grid_destroy(g);
		}
	}
	assert_true(routes > 500);
	print_message("flood_route = path_find with extra costs: %d routes, %ld cells expanded (A*: %ld)\n",
		      routes, exp_route, exp_astar);
}

/*
 * flood_route keeps its crowd-aware potential between calls while the extra
 * costs near the source only grow; monsters moving between calls (cells
 * freed near the goal and elsewhere, cells taken) must never make a route
 * dearer than path_find's with the costs of that moment.
 */
static void test_route_crowd_moves(void **state)
{
	(void)state;
	uint32_t s = 777;
	int routes = 0;
	for (int t = 0; t < 5; t++) { /* square4, square8, hex, diamond4, diamond8 */
		for (int m = 0; m < 60; m++) {
			struct grid *g = random_grid(&s, (enum grid_topology)t);
			int n = g->w * g->h;
			uint16_t *extra = calloc((size_t)n, sizeof *extra);
			int *out = malloc((size_t)n * sizeof *out);
			int source = rnd_range(&s, 0, n - 1);
			if (!g->cost[source])
				grid_set_cost(g, source, 1);
			int k = rnd_range(&s, 1, 9);
			/* a crowd packed around the goal, and some elsewhere */
			for (int c = 0; c < n; c++) {
				int d = grid_step_distance(g, c, source);
				int p = d <= 3 ? 70 : 10;
				if (c != source && rnd_range(&s, 0, 99) < p)
					extra[c] = (uint16_t)k;
			}
			bool cut = (t == GRID_SQUARE8 || t == GRID_DIAMOND8) && (m & 1);
			struct flood_ctx *f = flood_create(g);
			struct path_ctx *p = path_create(g);
			struct flood_options o = flood_options_default();
			o.reverse = true;
			o.corner_cutting = cut;
			flood_run(f, source, &o, NULL, 0);
			struct path_options po = path_options_default();
			po.extra = extra;
			po.corner_cutting = cut;
			for (int q = 0; q < 40; q++) {
				/* move a few "monsters": free some cells, take others */
				for (int j = rnd_range(&s, 0, 3); j > 0; j--) {
					int c = rnd_range(&s, 0, n - 1);
					if (c != source)
						extra[c] = extra[c] ? 0 : (uint16_t)k;
				}
				int start = rnd_range(&s, 0, n - 1);
				if (!flood_settled(f, start) || start == source)
					continue;
				double cost = -1;
				int len = flood_route(f, start, extra, out, n, &cost, NULL);
				assert_true(len >= 2);
				check_route(g, p, &po, extra, start, source, out, len, cost);
				routes++;
			}
			path_destroy(p);
			flood_destroy(f);
			free(extra);
			free(out);
			grid_destroy(g);
		}
	}
	assert_true(routes > 1000);
	print_message("flood_route with a crowd that moves between calls: %d routes = path_find\n", routes);
}

/* flood_route with an all-zero extra array (on a whole flood of a square
 * grid: route_fixed, or its loop in doubles) against extra NULL (the
 * general loop): routes of the same cost, both as path_find's; then with
 * a crowd, against path_find. */
static int check_plain_route(const struct grid *g, struct flood_ctx *f, struct path_ctx *p, bool cut,
			     int source, int start, const uint16_t *zero, const uint16_t *extra)
{
	const int n = g->w * g->h;
	int *a = malloc((size_t)n * sizeof *a);
	assert_non_null(a);
	struct path_options po = path_options_default();
	po.extra = zero;
	po.corner_cutting = cut;
	double ca = -1, cb = -2;
	const int la = flood_route(f, start, zero, a, n, &ca, NULL);
	check_route(g, p, &po, zero, start, source, a, la, ca);
	const int lb = flood_route(f, start, NULL, a, n, &cb, NULL);
	check_route(g, p, &po, zero, start, source, a, lb, cb);
	po.extra = extra;
	double cost = -1;
	const int len = flood_route(f, start, extra, a, n, &cost, NULL);
	check_route(g, p, &po, extra, start, source, a, len, cost);
	free(a);
	return 1;
}

/* The plain route loop (uniform square grids, whole floods and shifts,
 * compact distances and, on a serpentine past their reach, doubles). */
static void test_route_plain(void **state)
{
	(void)state;
	uint32_t s = 9090;
	int routes = 0;
	for (int m = 0; m < 240; m++) {
		const enum grid_topology t = (m % 3) == 0 ? GRID_SQUARE4 : GRID_SQUARE8;
		const bool cut = t == GRID_SQUARE8 && (m % 3) == 2;
		int w = rnd_range(&s, 2, 40), h = rnd_range(&s, 2, 30), n = w * h;
		struct grid *g = grid_create(w, h, t);
		assert_non_null(g);
		const uint8_t mult = (m % 4) == 3 ? 3 : 1;
		int walls = rnd_range(&s, 0, 40);
		for (int c = 0; c < n; c++)
			grid_set_cost(g, c, rnd_range(&s, 0, 99) < walls ? 0 : mult);
		int src = rnd_range(&s, 0, n - 1);
		grid_set_cost(g, src, mult);
		uint16_t *zero = calloc((size_t)w * (size_t)h, sizeof *zero), *extra = calloc((size_t)w * (size_t)h, sizeof *extra);
		assert_non_null(zero);
		assert_non_null(extra);
		const int k = rnd_range(&s, 1, 9), dens = rnd_range(&s, 0, 50);
		for (int c = 0; c < n; c++)
			extra[c] = rnd_range(&s, 0, 99) < dens ? (uint16_t)k : 0;
		struct flood_ctx *f = flood_create(g);
		struct path_ctx *p = path_create(g);
		assert_non_null(f);
		assert_non_null(p);
		struct flood_options o = flood_options_default();
		o.reverse = true;
		o.corner_cutting = cut;
		flood_run(f, src, &o, NULL, 0);
		for (int step = 0; step < 4; step++) {
			for (int q = 0; q < 5; q++) {
				const int start = rnd_range(&s, 0, n - 1);
				if (flood_settled(f, start))
					routes += check_plain_route(g, f, p, cut, src, start, zero, extra);
			}
			struct grid_step nb[GRID_MAX_NEIGHBOURS];
			const int kn = grid_neighbours(g, src, cut, nb);
			if (kn == 0)
				break;
			src = nb[rnd_range(&s, 0, kn - 1)].cell;
			assert_true(flood_shift(f, src));
		}
		path_destroy(p);
		flood_destroy(f);
		free(zero);
		free(extra);
		grid_destroy(g);
	}
	/* a serpentine of 1,300 cells: a whole flood from its end goes past
	 * the compact distances' reach and is made in doubles */
	struct grid *g = serpentine(1300);
	const int n = g->w * g->h;
	uint16_t *zero = calloc((size_t)n, sizeof *zero), *extra = calloc((size_t)n, sizeof *extra);
	assert_non_null(zero);
	assert_non_null(extra);
	for (int c = 0; c < n; c++)
		extra[c] = rnd_range(&s, 0, 99) < 20 ? 2 : 0;
	struct flood_ctx *f = flood_create(g);
	struct path_ctx *p = path_create(g);
	assert_non_null(f);
	assert_non_null(p);
	struct flood_options o = flood_options_default();
	o.reverse = true;
	flood_run(f, 0, &o, NULL, 0);
	int far = 0;
	for (int c = 0; c < n; c++)
		if (flood_settled(f, c) && flood_distance(f, c) > flood_distance(f, far))
			far = c;
	assert_true(flood_distance(f, far) > 1200);
	for (int q = 0; q < 20; q++) {
		int start = rnd_range(&s, 0, n - 1);
		if (q == 0)
			start = far;
		if (flood_settled(f, start))
			routes += check_plain_route(g, f, p, false, 0, start, zero, extra);
	}
	/* from a cell 900 steps along, a compact flood, and a crowd that makes
	 * routes dearer than its units reach: the search goes on in doubles */
	int mid = 0;
	for (int c = 0; c < n; c++)
		if (flood_settled(f, c) && fabs(flood_distance(f, c) - 900) < fabs(flood_distance(f, mid) - 900))
			mid = c;
	struct flood_ctx *f2 = flood_create(g); /* f went past the compact reach: it stays in doubles */
	assert_non_null(f2);
	flood_run(f2, mid, &o, NULL, 0);
	for (int c = 0; c < n; c++)
		extra[c] = rnd_range(&s, 0, 99) < 30 ? 3 : 0;
	for (int q = 0; q < 20; q++) {
		int start = rnd_range(&s, 0, n - 1);
		if (q == 0)
			start = 0;
		if (flood_settled(f2, start))
			routes += check_plain_route(g, f2, p, false, mid, start, zero, extra);
	}
	flood_destroy(f2);
	path_destroy(p);
	flood_destroy(f);
	free(zero);
	free(extra);
	grid_destroy(g);
	assert_true(routes > 2000);
	print_message("flood_route's plain loop = its general loop: %d routes\n", routes);
}

/*
 * flood_shift against a new flood from the new source: the same cells
 * settled, the same distances (within rounding) and the same downhill
 * steps, over chains of steps of the source on random maps with mixed
 * terrain; and the cases it must refuse leave the flood as it was.
 */
static void test_shift(void **state)
{
	(void)state;
	uint32_t s = 31337;
	int shifts = 0, refused = 0;
	long resettled = 0, full = 0;
	for (int t = 0; t < 5; t++) { /* square4, square8, hex, diamond4, diamond8 */
		for (int m = 0; m < 80; m++) {
			struct grid *g = random_grid(&s, (enum grid_topology)t);
			int n = g->w * g->h;
			struct flood_ctx *f = flood_create(g), *ref = flood_create(g);
			assert_non_null(f);
			assert_non_null(ref);
			struct flood_options o = flood_options_default();
			o.reverse = true;
			o.corner_cutting = (t == GRID_SQUARE8 || t == GRID_DIAMOND8) && (m & 1);
			int src = rnd_range(&s, 0, n - 1);
			if (!g->cost[src])
				grid_set_cost(g, src, 1);
			int partial[1] = { rnd_range(&s, 0, n - 1) };
			flood_run(f, src, &o, partial, 1);
			if (!flood_finished(f)) {
				assert_false(flood_shift(f, src)); /* not finished */
				refused++;
			}
			flood_settle(f, NULL, 0);
			for (int step = 0; step < 12; step++) {
				struct grid_step nb[GRID_MAX_NEIGHBOURS];
				int k = grid_neighbours(g, src, o.corner_cutting, nb);
				if (k == 0)
					break;
				int to = nb[rnd_range(&s, 0, k - 1)].cell;
				if (step == 5 && g->topo == GRID_SQUARE4) {
					/* not a neighbour: refused, flood unchanged */
					int far = rnd_range(&s, 0, n - 1);
					if (!grid_is_adjacent(g, src, far) && far != src) {
						double before = flood_distance(f, to);
						assert_false(flood_shift(f, far));
						assert_true(flood_distance(f, to) == before);
						assert_int_equal(flood_source(f), src);
						refused++;
					}
				}
				assert_true(flood_shift(f, to));
				shifts++;
				resettled += flood_settled_count(f);
				src = to;
				full += flood_run(ref, src, &o, NULL, 0);
				assert_true(flood_finished(f));
				assert_int_equal(flood_source(f), src);
				for (int c = 0; c < n; c++) {
					assert_int_equal(flood_settled(f, c), flood_settled(ref, c));
					if (!flood_settled(ref, c))
						continue;
					double a = flood_distance(f, c), b = flood_distance(ref, c);
					assert_true(fabs(a - b) <= 1e-9 * (1 + b));
					assert_int_equal(flood_next(f, c), flood_next(ref, c));
				}
			}
			/* forward floods and a blocked old source are refused */
			o.reverse = false;
			flood_run(f, src, &o, NULL, 0);
			struct grid_step nb[GRID_MAX_NEIGHBOURS];
			if (grid_neighbours(g, src, o.corner_cutting, nb) > 0) {
				assert_false(flood_shift(f, nb[0].cell));
				refused++;
				o.reverse = true;
				uint8_t keep = g->cost[src];
				grid_set_cost(g, src, 0);
				flood_run(f, src, &o, NULL, 0);
				assert_false(flood_shift(f, nb[0].cell));
				grid_set_cost(g, src, keep);
				refused++;
			}
			flood_destroy(f);
			flood_destroy(ref);
			grid_destroy(g);
		}
	}
	assert_true(shifts > 1500);
	print_message("flood_shift = flood_run: %d shifts (%ld cells settled again, %ld by new floods), %d refused\n",
		      shifts, resettled, full, refused);
}

/*
 * Grids whose passable cells all cost the same take the two-FIFO path of a
 * whole flood (flood_run without targets, flood_shift), in compact
 * distances on square grids.  A flood given a target it can never settle
 * (a wall) runs the general path to its end: both must give the same
 * distances up to rounding (the compact path makes each as a + b sqrt 2,
 * the general one adds steps), the same settled cells and the same
 * downhill steps, and both must agree with path_flood; so must shifts on
 * such grids.
 */
/* Every distance, settled cell, count and downhill step of two floods
 * alike, the distances bit for bit when `exact`. */
static void same_flood(const struct grid *g, const struct flood_ctx *a, const struct flood_ctx *b, bool exact)
{
	assert_int_equal(flood_settled_count(a), flood_settled_count(b));
	assert_int_equal(flood_finished(a), flood_finished(b));
	/* flood_distances, the batch (cells off the map included), as flood_distance */
	const int cells[] = { -1, 0, g->w * g->h / 2, g->w * g->h - 1, g->w * g->h };
	double batch[5];
	flood_distances(a, cells, 5, batch);
	for (int i = 0; i < 5; i++) {
		const double one = flood_distance(a, cells[i]);
		assert_memory_equal(&batch[i], &one, sizeof one);
	}
	for (int c = 0; c < g->w * g->h; c++) {
		assert_int_equal(flood_settled(a, c), flood_settled(b, c));
		const double da = flood_distance(a, c), db = flood_distance(b, c);
		if (exact)
			assert_memory_equal(&da, &db, sizeof da);
		else
			assert_true(fabs(da - db) <= 1e-12 * (1 + db));
		assert_int_equal(flood_next(a, c), flood_next(b, c));
	}
}

/*
 * Floods with a max_dist on uniform square grids (run_bounded, the near
 * flood of a goal that moves) against the general queue (made to take it
 * by a target it never settles): the same cells settled, the same
 * distances bit for bit, the same count.  Bounds on and between the
 * distances that occur (whole steps, sums of diagonals), tiny and past
 * the map; the same contexts reused by floods of every kind in turn, so a
 * bounded flood's box must be cleared for the next, whole or bounded; and
 * on the hex and diamond grids, which keep the general path.
 */
static void test_bounded_uniform(void **state)
{
	(void)state;
	uint32_t s = 4242;
	int floods = 0;
	for (int t = 0; t < 5; t++) {
		for (int m = 0; m < 60; m++) {
			int w = rnd_range(&s, 2, 60), h = rnd_range(&s, 1, 50), n = w * h;
			struct grid *g = grid_create(w, h, (enum grid_topology)t);
			assert_non_null(g);
			const uint8_t mult = (m % 4) == 3 ? 2 : 1;
			int walls = rnd_range(&s, 0, 40);
			for (int c = 0; c < n; c++)
				grid_set_cost(g, c, rnd_range(&s, 0, 99) < walls ? 0 : mult);
			int wall = n - 1;
			grid_set_cost(g, wall, 0);
			struct flood_ctx *fast = flood_create(g), *slow = flood_create(g);
			assert_non_null(fast);
			assert_non_null(slow);
			for (int k = 0; k < 12; k++) {
				int src = rnd_range(&s, 0, n - 2);
				grid_set_cost(g, src, mult);
				struct flood_options o = flood_options_default();
				o.reverse = rnd_range(&s, 0, 1);
				o.corner_cutting = rnd_range(&s, 0, 3) == 0;
				static const double bounds[] = { 0.5, 1.0, 1.4142135623730951, 2.0, 3.0 * 1.4142135623730951,
								 4.0 + 2.0 * 1.4142135623730951, 7.5, 12.0, 48.0, 1e9 };
				const int kind = rnd_range(&s, 0, 11);
				/* now and then a whole flood, which must find the box cleared */
				o.max_dist = kind < 10 ? bounds[kind] * mult : 0.0;
				long a = flood_run(fast, src, &o, NULL, 0);
				long b = flood_run(slow, src, &o, &wall, 1);
				assert_int_equal(a, b);
				/* a whole flood is compact (its own sums) */
				same_flood(g, fast, slow, o.max_dist > 0);
				floods++;
			}
			flood_destroy(fast);
			flood_destroy(slow);
			grid_destroy(g);
		}
	}
	assert_true(floods > 3000);
	print_message("bounded floods on uniform grids: %d = the general path\n", floods);
}

static void test_uniform_fast_path(void **state)
{
	(void)state;
	uint32_t s = 2718;
	int floods = 0, shifts = 0;
	for (int t = 0; t < 5; t++) { /* square4, square8, hex, diamond4, diamond8 */
		for (int m = 0; m < 120; m++) {
			int w = rnd_range(&s, 2, 40), h = rnd_range(&s, 1, 30), n = w * h;
			struct grid *g = grid_create(w, h, (enum grid_topology)t);
			assert_non_null(g);
			const uint8_t mult = (m % 3) == 2 ? 3 : 1;
			int walls = rnd_range(&s, 0, 40);
			for (int c = 0; c < n; c++)
				grid_set_cost(g, c, rnd_range(&s, 0, 99) < walls ? 0 : mult);
			int wall = n - 1;
			grid_set_cost(g, wall, 0);
			int src = rnd_range(&s, 0, n - 2);
			grid_set_cost(g, src, mult);
			struct flood_ctx *fast = flood_create(g), *slow = flood_create(g);
			struct path_ctx *p = path_create(g);
			assert_non_null(fast);
			assert_non_null(slow);
			assert_non_null(p);
			for (int rev = 0; rev < 2; rev++) {
				for (int cut = 0; cut < (t == GRID_SQUARE8 || t == GRID_DIAMOND8 ? 2 : 1); cut++) {
					struct flood_options o = flood_options_default();
					o.reverse = rev;
					o.corner_cutting = cut;
					long a = flood_run(fast, src, &o, NULL, 0);
					long b = flood_run(slow, src, &o, &wall, 1);
					assert_int_equal(a, b);
					assert_true(flood_finished(slow));
					for (int c = 0; c < n; c++) {
						assert_int_equal(flood_settled(fast, c), flood_settled(slow, c));
						const double da = flood_distance(fast, c), db = flood_distance(slow, c);
						assert_true(fabs(da - db) <= 1e-12 * (1 + db));
						assert_int_equal(flood_next(fast, c), flood_next(slow, c));
					}
					long cells = 0;
					compare_with_path(g, fast, p, src, rev, cut, &cells);
					floods++;
				}
			}
			/* shifts along a walk, against a general flood from each new source */
			struct flood_options o = flood_options_default();
			o.reverse = true;
			flood_run(fast, src, &o, NULL, 0);
			for (int step = 0; step < 8; step++) {
				struct grid_step nb[GRID_MAX_NEIGHBOURS];
				int k = grid_neighbours(g, src, false, nb);
				if (k == 0)
					break;
				src = nb[rnd_range(&s, 0, k - 1)].cell;
				if (src == wall)
					break;
				assert_true(flood_shift(fast, src));
				flood_run(slow, src, &o, &wall, 1);
				for (int c = 0; c < n; c++) {
					assert_int_equal(flood_settled(fast, c), flood_settled(slow, c));
					if (!flood_settled(slow, c))
						continue;
					double a = flood_distance(fast, c), b = flood_distance(slow, c);
					assert_true(fabs(a - b) <= 1e-9 * (1 + b));
					assert_int_equal(flood_next(fast, c), flood_next(slow, c));
				}
				shifts++;
			}
			path_destroy(p);
			flood_destroy(fast);
			flood_destroy(slow);
			grid_destroy(g);
		}
	}
	assert_true(floods > 800);
	assert_true(shifts > 1000);
	print_message("uniform-cost grids: %d whole floods = the general path, %d shifts\n", floods, shifts);
}

/*
 * Whole floods past the compact distances' reach (1,100 steps): winding
 * corridors of about 1,000 to 1,350 cells.  The source starts 1,080 steps
 * from the far end (or at the near end), walks 30 cells toward the near
 * end and 30 back, so that floods and shifts start compact and cross the
 * limit both ways.  Every distance, settled cell and downhill step must
 * match a general-path flood from the same source.
 */
static void test_long_uniform_floods(void **state)
{
	(void)state;
	int checked = 0;
	for (int len = 1000; len <= 1300; len += 100) {
		struct grid *g = serpentine(len);
		const int w = g->w, n = w * g->h;
		grid_set_cost(g, n - 1, 0); /* the wall the general flood aims at */
		struct flood_ctx *fast = flood_create(g), *slow = flood_create(g), *along = flood_create(g);
		assert_non_null(fast);
		assert_non_null(slow);
		assert_non_null(along);
		struct flood_options o = flood_options_default();
		o.reverse = true;
		const int wall = n - 1;
		/* steps from the near end (cell 0) of every corridor cell */
		flood_run(along, 0, &o, &wall, 1);
		int src = 0;
		double far = 0;
		for (int c = 0; c < n; c++)
			if (flood_settled(along, c) && flood_distance(along, c) > far)
				far = flood_distance(along, c);
		for (int c = 0; c < n; c++)
			if (flood_settled(along, c) && fabs(flood_distance(along, c) - (far - 1080)) < 0.5)
				src = c;
		/* a whole flood from the near end: past the limit from 1,100 on */
		struct flood_ctx *end = flood_create(g);
		assert_non_null(end);
		flood_run(end, 0, &o, NULL, 0);
		for (int c = 0; c < n; c++) {
			assert_int_equal(flood_settled(end, c), flood_settled(along, c));
			const double da = flood_distance(end, c), db = flood_distance(along, c);
			assert_true(fabs(da - db) <= 1e-9 * (1 + db));
			assert_int_equal(flood_next(end, c), flood_next(along, c));
		}
		flood_destroy(end);
		assert_true(flood_run(fast, src, &o, NULL, 0) > 0);
		for (int step = 0; step < 60; step++) {
			flood_run(slow, src, &o, &wall, 1);
			for (int c = 0; c < n; c++) {
				assert_int_equal(flood_settled(fast, c), flood_settled(slow, c));
				const double da = flood_distance(fast, c), db = flood_distance(slow, c);
				assert_true(fabs(da - db) <= 1e-9 * (1 + db));
				assert_int_equal(flood_next(fast, c), flood_next(slow, c));
			}
			checked++;
			/* one cell along the corridor: toward the near end, then back */
			struct grid_step nb[GRID_MAX_NEIGHBOURS];
			const int k = grid_neighbours(g, src, false, nb);
			const double here = flood_distance(along, src);
			int next = nb[0].cell;
			for (int i = 0; i < k; i++) {
				const double d = flood_distance(along, nb[i].cell);
				if (step < 30 ? d < here : d > here)
					next = nb[i].cell;
			}
			src = next;
			assert_true(flood_shift(fast, src));
		}
		flood_destroy(fast);
		flood_destroy(slow);
		flood_destroy(along);
		grid_destroy(g);
	}
	print_message("winding corridors of 1,000-1,350 cells: %d floods and shifts = the general path\n",
		      checked);
}

/* fast (a whole flood or shift) against slow (the general path, run to
 * its end by a target it never settles): the same settled cells, the same
 * distances up to rounding and the same downhill steps. */
static void check_same_flood(const struct flood_ctx *fast, const struct flood_ctx *slow, int n)
{
	for (int c = 0; c < n; c++) {
		assert_int_equal(flood_settled(fast, c), flood_settled(slow, c));
		const double a = flood_distance(fast, c), b = flood_distance(slow, c);
		assert_true(fabs(a - b) <= 1e-9 * (1 + fabs(b)));
		assert_int_equal(flood_next(fast, c), flood_next(slow, c));
	}
}

/*
 * A cell of a whole uniform flood tries only the moves that the step it
 * was entered by leaves open (urow_make in flood.c); the others are
 * skipped as unable to improve any cell.  Grids made to meet every case of
 * that rule: pillars, where a diagonal neighbour of the cell stepped from
 * is blocked; checkerboards, whose diagonal moves pass two blocked cells
 * with corner cutting (a cell then has more tries than a row holds);
 * rooms joined by one-cell doors; and dense walls.  Square4 and square8,
 * with and without corner cutting, forward and reverse, multipliers 1 and
 * 2.  Each whole flood, and each shift along a walk, must match the
 * general path.
 */
static void test_uniform_skipped_tries(void **state)
{
	(void)state;
	uint32_t s = 4242;
	int floods = 0, shifts = 0;
	for (int m = 0; m < 240; m++) {
		const enum grid_topology t = (m % 3) == 0 ? GRID_SQUARE4 : GRID_SQUARE8;
		const int kind = (m / 3) % 4;
		const int w = rnd_range(&s, 3, 48), h = rnd_range(&s, 3, 36), n = w * h;
		const uint8_t mult = (m % 5) == 4 ? 2 : 1;
		struct grid *g = grid_create(w, h, t);
		assert_non_null(g);
		const int density = kind == 0 ? rnd_range(&s, 2, 30) : kind == 3 ? rnd_range(&s, 40, 70) : 0;
		const int room = rnd_range(&s, 3, 8);
		for (int y = 0; y < h; y++) {
			for (int x = 0; x < w; x++) {
				bool blocked;
				if (kind == 1) /* a checkerboard with a few holes filled */
					blocked = ((x + y) & 1) && rnd_range(&s, 0, 99) >= 15;
				else if (kind == 2) /* rooms whose walls have one-cell doors */
					blocked = (x % room == 0 || y % room == 0) && rnd_range(&s, 0, 99) >= 12;
				else
					blocked = rnd_range(&s, 0, 99) < density;
				grid_set_cost(g, y * w + x, blocked ? 0 : mult);
			}
		}
		const int wall = n - 1;
		grid_set_cost(g, wall, 0);
		int src = rnd_range(&s, 0, n - 2);
		grid_set_cost(g, src, mult);
		struct flood_ctx *fast = flood_create(g), *slow = flood_create(g);
		assert_non_null(fast);
		assert_non_null(slow);
		for (int cut = 0; cut < (t == GRID_SQUARE8 ? 2 : 1); cut++) {
			struct flood_options o = flood_options_default();
			o.corner_cutting = cut;
			for (int rev = 0; rev < 2; rev++) {
				o.reverse = rev;
				assert_int_equal(flood_run(fast, src, &o, NULL, 0), flood_run(slow, src, &o, &wall, 1));
				check_same_flood(fast, slow, n);
				floods++;
			}
			/* shifts along a walk */
			int at = src;
			flood_run(fast, at, &o, NULL, 0);
			for (int step = 0; step < 10; step++) {
				struct grid_step nb[GRID_MAX_NEIGHBOURS];
				const int k = grid_neighbours(g, at, o.corner_cutting, nb);
				if (k == 0)
					break;
				at = nb[rnd_range(&s, 0, k - 1)].cell;
				assert_true(flood_shift(fast, at));
				flood_run(slow, at, &o, &wall, 1);
				check_same_flood(fast, slow, n);
				shifts++;
			}
		}
		flood_destroy(fast);
		flood_destroy(slow);
		grid_destroy(g);
	}
	assert_true(floods > 600);
	assert_true(shifts > 1500);
	print_message("skipped tries of uniform floods: %d whole floods and %d shifts = the general path\n",
		      floods, shifts);
}

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* The speed on a 512x512 Moving AI map, printed (time is noise: never asserted). */
static void test_speed_printed(void **state)
{
	(void)state;
	const char *dir = getenv("ASTRAY_MAPS");
	if (!dir)
		dir = "../shared/maps/movingai";
	char path[1024];
	snprintf(path, sizeof path, "%s/random512-10-0.map", dir);
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		print_message("skipped: %s not found (set ASTRAY_MAPS)\n", path);
		return;
	}
	static char text[1 << 20];
	size_t len = fread(text, 1, sizeof text, fp);
	fclose(fp);
	char err[256];
	struct grid *g = movingai_parse_map(text, len, err, sizeof err);
	if (!g) {
		print_message("skipped: %s: %s\n", path, err);
		return;
	}
	int source = -1;
	for (int c = g->w * g->h / 2; c < g->w * g->h && source < 0; c++)
		if (g->cost[c])
			source = c;
	struct flood_ctx *f = flood_create(g);
	struct path_ctx *p = path_create(g);
	struct path_options po = path_options_default();
	struct flood_options fo = flood_options_default();
	fo.reverse = true;
	double t0 = now_us();
	long a = path_flood(p, source, &po, true, 0);
	double t1 = now_us();
	long b = flood_run(f, source, &fo, NULL, 0);
	double t2 = now_us();
	assert_int_equal(a, b);
	print_message("random512-10-0 reverse flood, %ld cells: path_flood %.1f ms, flood %.1f ms "
		      "(sanitiser build: read ratios, not times); flood context %.1f MiB reserved\n", a,
		      (t1 - t0) / 1e3, (t2 - t1) / 1e3, (double)flood_memory(f) / (1 << 20));
	path_destroy(p);
	flood_destroy(f);
	grid_destroy(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_equals_path_flood),
		cmocka_unit_test(test_corner_rule),
		cmocka_unit_test(test_reverse_and_forward_costs),
		cmocka_unit_test(test_early_stop),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_reused_context_resets),
		cmocka_unit_test(test_large_and_memory),
		cmocka_unit_test(test_route_with_extra),
		cmocka_unit_test(test_route_crowd_moves),
		cmocka_unit_test(test_shift),
		cmocka_unit_test(test_uniform_fast_path),
		cmocka_unit_test(test_bounded_uniform),
		cmocka_unit_test(test_long_uniform_floods),
		cmocka_unit_test(test_uniform_skipped_tries),
		cmocka_unit_test(test_route_plain),
		cmocka_unit_test(test_speed_printed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
