/*
 * test_detour.c - flood_detour, flood_route cut at a horizon, on random
 * maps of every topology with mixed terrain and random crowd costs: a legal
 * route that stays within the horizon and ends at the source or at the
 * horizon; its bound (cost plus the potential of its end) between the
 * flood distance of the start and the cost of the optimal crowd route, and
 * between the least such bounds over the region (brute force) valued by
 * the flood distance and by the exact crowd distance; with
 * a horizon past the map, exactly the optimal route's cost; and with no
 * crowd, a route down the flood.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "testrand.h"

#include "flood.h"
#include "grid.h"
#include "path.h"

static int rnd_range(uint32_t *s, int lo, int hi)
{
	return lo + (int)(rnd(s) % (uint32_t)(hi - lo + 1));
}

/* A random grid with walls, rubble and water (as test_flood.c's). */
static struct grid *random_grid(uint32_t *s, enum grid_topology t)
{
	int w = rnd_range(s, 1, 40), h = rnd_range(s, 1, 30);
	struct grid *g = grid_create(w, h, t);
	assert_non_null(g);
	int walls = rnd_range(s, 0, 40);
	for (int i = 0; i < w * h; i++) {
		int v = rnd_range(s, 0, 99);
		grid_set_cost(g, i, v < walls ? 0 : v < walls + 10 ? 2 : v < walls + 18 ? 3 : 1);
	}
	return g;
}

/* The legal step a -> b (grid_neighbours), and its cost into b. */
static bool step_of(const struct grid *g, int a, int b, bool cut, double *cost)
{
	struct grid_step s[GRID_MAX_NEIGHBOURS];
	int n = grid_neighbours(g, a, cut, s);
	for (int i = 0; i < n; i++)
		if (s[i].cell == b) {
			*cost = s[i].step * g->cost[b];
			return true;
		}
	return false;
}

/*
 * The least cost-plus-pot over the routes flood_detour may choose, by a
 * plain Dijkstra: from start over cells closer than `horizon` steps (the
 * ones it expands), each cell at the horizon or the source closing a
 * route with its cost plus pot[] (negative: cannot reach the source).
 * HUGE_VAL when none is reached.
 */
static double brute_best(const struct grid *g, const double *pot, const uint16_t *extra, int start, int source,
			 int horizon, bool cut)
{
	const int n = g->w * g->h;
	double *d = malloc((size_t)n * sizeof *d);
	bool *done = calloc((size_t)n, sizeof *done);
	for (int c = 0; c < n; c++)
		d[c] = HUGE_VAL;
	d[start] = 0;
	double best = HUGE_VAL;
	for (;;) {
		int u = -1;
		for (int c = 0; c < n; c++)
			if (!done[c] && d[c] < HUGE_VAL && (u < 0 || d[c] < d[u]))
				u = c;
		if (u < 0)
			break;
		done[u] = true;
		if (u == source || grid_step_distance(g, start, u) >= horizon) {
			if (pot[u] >= 0 && d[u] + pot[u] < best)
				best = d[u] + pot[u];
			continue;
		}
		struct grid_step s[GRID_MAX_NEIGHBOURS];
		int k = grid_neighbours(g, u, cut, s);
		for (int i = 0; i < k; i++) {
			int v = s[i].cell;
			if (pot[v] < 0)
				continue; /* cannot reach the source */
			double nd = d[u] + s[i].step * g->cost[v] + extra[v];
			if (nd < d[v])
				d[v] = nd;
		}
	}
	free(d);
	free(done);
	return best;
}

/* The exact cost of the cheapest route from every cell to the source
 * with the extra costs (a reverse Dijkstra); -1 where there is none. */
static void crowd_distances(const struct grid *g, const uint16_t *extra, int source, bool cut, double *out)
{
	const int n = g->w * g->h;
	bool *done = calloc((size_t)n, sizeof *done);
	for (int c = 0; c < n; c++)
		out[c] = HUGE_VAL;
	out[source] = 0;
	for (;;) {
		int v = -1;
		for (int c = 0; c < n; c++)
			if (!done[c] && out[c] < HUGE_VAL && (v < 0 || out[c] < out[v]))
				v = c;
		if (v < 0)
			break;
		done[v] = true;
		struct grid_step s[GRID_MAX_NEIGHBOURS];
		int k = grid_neighbours(g, v, cut, s); /* moves are symmetric */
		for (int i = 0; i < k; i++) {
			int u = s[i].cell;
			double nd = out[v] + s[i].step * g->cost[v] + extra[v];
			if (nd < out[u])
				out[u] = nd;
		}
	}
	for (int c = 0; c < n; c++)
		if (out[c] == HUGE_VAL)
			out[c] = -1;
	free(done);
}

static void test_detour_properties(void **state)
{
	(void)state;
	uint32_t s = 9001;
	int routes = 0, at_source = 0, tight = 0;
	for (int t = 0; t < 5; t++) { /* square4, square8, hex, diamond4, diamond8 */
		for (int m = 0; m < 60; m++) {
			struct grid *g = random_grid(&s, (enum grid_topology)t);
			int n = g->w * g->h;
			uint16_t *extra = calloc((size_t)n, sizeof *extra);
			int *out = malloc((size_t)n * sizeof *out);
			int k = rnd_range(&s, 1, 9), dens = rnd_range(&s, 0, 50);
			for (int c = 0; c < n; c++)
				extra[c] = rnd_range(&s, 0, 99) < dens ? (uint16_t)k : 0;
			int source = rnd_range(&s, 0, n - 1);
			grid_set_cost(g, source, 1);
			bool cut = (t == GRID_SQUARE8 || t == GRID_DIAMOND8) && (m & 1);
			struct flood_ctx *f = flood_create(g);
			struct path_ctx *p = path_create(g);
			struct flood_options o = flood_options_default();
			o.reverse = true;
			o.corner_cutting = cut;
			flood_run(f, source, &o, NULL, 0);
			double *h = malloc((size_t)n * sizeof *h), *dc = malloc((size_t)n * sizeof *dc);
			for (int c = 0; c < n; c++)
				h[c] = flood_distance(f, c);
			crowd_distances(g, extra, source, cut, dc);
			struct path_options po = path_options_default();
			po.extra = extra;
			po.corner_cutting = cut;
			for (int q = 0; q < 5; q++) {
				int start = rnd_range(&s, 0, n - 1), horizon = rnd_range(&s, 1, 9);
				if (!flood_settled(f, start)) {
					assert_int_equal(flood_detour(f, start, extra, horizon, out, n, NULL, NULL, NULL), -1);
					continue;
				}
				double cost = -1, bound = -1;
				long e = -1;
				int len = flood_detour(f, start, extra, horizon, out, n, &cost, &bound, &e);
				assert_true(len >= 1);
				assert_true(e >= 1 && e <= (long)(2 * horizon + 1) * (2 * horizon + 1) * 2);
				assert_int_equal(out[0], start);
				/* a legal walk whose steps add up to cost, inside the horizon */
				double sum = 0;
				for (int i = 1; i < len; i++) {
					double c;
					assert_true(step_of(g, out[i - 1], out[i], cut, &c));
					sum += c + extra[out[i]];
					if (i < len - 1)
						assert_true(grid_step_distance(g, start, out[i]) < horizon);
				}
				assert_true(fabs(sum - cost) <= 1e-9 * (1 + cost));
				const int end = out[len - 1];
				assert_true(end == source || grid_step_distance(g, start, end) >= horizon);
				at_source += end == source;
				/* the potential of the end: at least its flood distance, at most the exact rest */
				assert_true(bound >= cost + h[end] - 1e-9 * (1 + bound));
				assert_true(bound <= cost + dc[end] + 1e-9 * (1 + bound));
				/* between the flood distance and the optimal crowd route */
				struct path_result r;
				assert_int_equal(path_find(p, start, source, &po, &r), PATH_FOUND);
				assert_true(bound >= flood_distance(f, start) - 1e-9 * (1 + bound));
				assert_true(bound <= r.cost + 1e-9 * (1 + r.cost));
				/* between the least bounds of the region valued by the
				 * flood distance and by the exact rest */
				double lower = brute_best(g, h, extra, start, source, horizon, cut);
				double upper = brute_best(g, dc, extra, start, source, horizon, cut);
				assert_true(bound >= lower - 1e-9 * (1 + lower));
				assert_true(bound <= upper + 1e-9 * (1 + upper));
				tight += fabs(bound - lower) <= 1e-9 * (1 + lower);
				/* a horizon past the map: the optimal route itself */
				int len2 = flood_detour(f, start, extra, 2 * (g->w + g->h) + 2, out, n, &cost, &bound, NULL);
				assert_true(len2 >= 1);
				assert_int_equal(out[len2 - 1], source);
				assert_true(fabs(cost - r.cost) <= 1e-9 * (1 + r.cost));
				assert_true(fabs(bound - r.cost) <= 1e-9 * (1 + r.cost));
				/* a capped copy: the same length, the first cells only */
				int first = out[0];
				assert_int_equal(flood_detour(f, start, extra, 2 * (g->w + g->h) + 2, out, 1, NULL, NULL, NULL), len2);
				assert_int_equal(out[0], first);
				routes++;
			}
			/* no crowd: every step goes down the flood by exactly its cost */
			memset(extra, 0, (size_t)n * sizeof *extra);
			int start = rnd_range(&s, 0, n - 1);
			if (flood_settled(f, start)) {
				double cost, bound;
				int len = flood_detour(f, start, extra, 4, out, n, &cost, &bound, NULL);
				assert_true(len >= 1);
				assert_true(fabs(bound - flood_distance(f, start)) <= 1e-9 * (1 + bound));
				for (int i = 1; i < len; i++) {
					double c;
					assert_true(step_of(g, out[i - 1], out[i], cut, &c));
					assert_true(fabs(flood_distance(f, out[i - 1]) - flood_distance(f, out[i]) - c) <=
						    1e-9 * (1 + flood_distance(f, out[i - 1])));
				}
			}
			/* what it refuses: no horizon, a forward flood, a blocked source */
			assert_int_equal(flood_detour(f, source, extra, 0, out, n, NULL, NULL, NULL), -1);
			grid_set_cost(g, source, 0);
			flood_run(f, source, &o, NULL, 0);
			assert_int_equal(flood_detour(f, source, extra, 3, out, n, NULL, NULL, NULL), -1);
			grid_set_cost(g, source, 1);
			o.reverse = false;
			flood_run(f, source, &o, NULL, 0);
			assert_int_equal(flood_detour(f, source, extra, 3, out, n, NULL, NULL, NULL), -1);
			path_destroy(p);
			flood_destroy(f);
			free(h);
			free(dc);
			free(extra);
			free(out);
			grid_destroy(g);
		}
	}
	assert_true(routes > 600);
	assert_true(at_source > 20);
	assert_true(tight > routes / 4 && tight < routes);
	print_message("flood_detour: %d routes (%d ending at the source, %d valued by the flood distance alone) "
		      "checked against brute force\n", routes, at_source, tight);
}

/* The number of cells looked at does not grow with the distance to the
 * source: a horizon of 8 on an open 300x300 map, 290 cells away. */
static void test_detour_is_local(void **state)
{
	(void)state;
	struct grid *g = grid_create(300, 300, GRID_SQUARE8);
	assert_non_null(g);
	const int n = 300 * 300;
	for (int c = 0; c < n; c++)
		grid_set_cost(g, c, 1);
	uint16_t *extra = calloc((size_t)n, sizeof *extra);
	int *out = malloc((size_t)n * sizeof *out);
	/* a wall of crowd right in front of the start */
	const int start = grid_index(g, 5, 150);
	for (int y = 140; y <= 160; y++)
		extra[grid_index(g, 6, y)] = 4;
	struct flood_ctx *f = flood_create(g);
	struct flood_options o = flood_options_default();
	o.reverse = true;
	flood_run(f, grid_index(g, 295, 150), &o, NULL, 0);
	long e = 0;
	double cost, bound;
	int len = flood_detour(f, start, extra, 8, out, n, &cost, &bound, &e);
	assert_int_equal(len, 9);
	assert_true(e <= 17 * 17);
	/* straight through the crowd (4 + 8) beats going round it here */
	assert_true(fabs(bound - (flood_distance(f, start) + 4)) <= 1e-9);
	flood_destroy(f);
	free(extra);
	free(out);
	grid_destroy(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detour_properties),
		cmocka_unit_test(test_detour_is_local),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
