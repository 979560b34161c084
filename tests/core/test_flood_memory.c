/*
 * test_flood_memory.c - the flood context's memory (issue 33: a 4096x4096
 * level within 2 GB of address space).  Guards the bytes a cell a context
 * takes when made, after a flood and after routes, so that they do not
 * creep back; and checks the parts that grow on demand on a map past the
 * sizes whose arrays are made at once (the FIFO pool, the route queue's
 * keys, the ring's cap, a search shared by two contexts): the same
 * distances and route costs as path.c's reference searches.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "flood.h"
#include "grid.h"
#include "path.h"

/* More cells than flood.c makes its arrays for at once (PRETOUCH_CELLS,
 * 2^20), so every part below starts small and grows. */
#define BIG_W 1100
#define BIG_H 1000

static int rnd_range(uint32_t *s, int lo, int hi)
{
	*s = *s * 1103515245u + 12345u;
	return lo + (int)((*s >> 8) % (uint32_t)(hi - lo + 1));
}

/* A big square8 map: walls, floor and rubble, or (uniform) floor and walls. */
static struct grid *big_grid(uint32_t *s, bool uniform)
{
	struct grid *g = grid_create(BIG_W, BIG_H, GRID_SQUARE8);
	assert_non_null(g);
	for (int c = 0; c < BIG_W * BIG_H; c++) {
		const int v = rnd_range(s, 0, 99);
		grid_set_cost(g, c, (uint8_t)(v < 12 ? 0 : uniform || v < 80 ? 1 : v < 92 ? 2 : 3));
	}
	return g;
}

static int passable_cell(const struct grid *g, uint32_t *s)
{
	for (;;) {
		const int c = rnd_range(s, 0, g->w * g->h - 1);
		if (g->cost[c])
			return c;
	}
}

/* The bytes a cell of a large map's context: at most 15 when made (the
 * distances 8, the tags 4, the moves 2; the pool starts at 64 KiB, the
 * compact distances and the route's arrays are not made); after a whole
 * flood on a uniform grid, 4 more for the compact distances and the pool
 * its arrays take (24); after a whole flood in general
 * queues, the pool holds its frontier only; after routes, the search's
 * records (16), its ring (at most 8 MiB, 7.6 bytes a cell here, 0.5 on a
 * 4096x4096 map) and a queue that grew to what the searches opened.
 * Before issue 33 a context was 50 + 52 bytes a cell from the start. */
static void test_bytes_a_cell(void **state)
{
	(void)state;
	uint32_t s = 7;
	struct grid *g = big_grid(&s, false);
	const size_t n = (size_t)BIG_W * BIG_H;
	struct flood_ctx *f = flood_create(g);
	assert_non_null(f);
	const size_t made = flood_memory(f);
	print_message("made: %.2f bytes a cell\n", (double)made / (double)n);
	assert_true(made <= 15 * n);
	assert_true(made >= 14 * n);
	struct flood_options o = flood_options_default();
	o.reverse = true;
	const int source = passable_cell(g, &s);
	assert_true(flood_run(f, source, &o, NULL, 0) > (long)(n / 2));
	const size_t flooded = flood_memory(f);
	print_message("after a whole flood: %.2f bytes a cell\n", (double)flooded / (double)n);
	assert_true(flooded <= 16 * n);
	int *out = malloc(n * sizeof *out);
	assert_non_null(out);
	for (int q = 0; q < 20; q++) {
		const int start = passable_cell(g, &s);
		if (flood_settled(f, start))
			assert_true(flood_route(f, start, NULL, out, (int)n, NULL, NULL) >= 1);
	}
	const size_t routed = flood_memory(f);
	print_message("after routes: %.2f bytes a cell\n", (double)routed / (double)n);
	assert_true(routed <= 41 * n);
	free(out);
	flood_destroy(f);
	grid_destroy(g);
}

/* Whole floods on the big maps, in general queues (mixed terrain) and in
 * the uniform loop (one cost, compact and doubles), against path_flood. */
static void test_big_floods_equal_path(void **state)
{
	(void)state;
	uint32_t s = 11;
	for (int uniform = 0; uniform < 2; uniform++) {
		struct grid *g = big_grid(&s, uniform);
		struct flood_ctx *f = flood_create(g);
		struct path_ctx *p = path_create(g);
		assert_non_null(f);
		assert_non_null(p);
		struct path_options po = path_options_default();
		struct flood_options fo = flood_options_default();
		fo.reverse = true;
		const int source = passable_cell(g, &s);
		assert_int_equal(path_flood(p, source, &po, true, 0), flood_run(f, source, &fo, NULL, 0));
		if (uniform) /* the compact distances and the uniform loop's arrays */
			assert_true(flood_memory(f) >= (size_t)BIG_W * BIG_H * (14 + 4 + 24));
		for (int c = 0; c < BIG_W * BIG_H; c++) {
			const double a = path_flood_distance(p, c), b = flood_distance(f, c);
			assert_int_equal(a >= 0, b >= 0);
			if (a >= 0)
				assert_true(fabs(a - b) <= 1e-9 * (1 + a));
		}
		path_destroy(p);
		flood_destroy(f);
		grid_destroy(g);
	}
}

/* flood_route with crowds heavy enough that a search opens far more cells
 * than its queue's first keys (KEYS_FIRST, 65536), on two contexts that
 * share one search and take turns: every cost is path_find's. */
static void test_big_routes_shared_search(void **state)
{
	(void)state;
	uint32_t s = 23;
	struct grid *g = big_grid(&s, false);
	const int n = BIG_W * BIG_H;
	uint16_t *extra = calloc((size_t)n, sizeof *extra);
	int *out = malloc((size_t)n * sizeof *out);
	assert_non_null(extra);
	assert_non_null(out);
	for (int c = 0; c < n; c++)
		extra[c] = rnd_range(&s, 0, 99) < 50 ? (uint16_t)rnd_range(&s, 1, 6) : 0;
	struct flood_ctx *a = flood_create(g), *b = flood_create(g);
	struct path_ctx *p = path_create(g);
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(p);
	assert_false(flood_share_search(a, a));
	assert_true(flood_share_search(b, a));
	struct flood_options o = flood_options_default();
	o.reverse = true;
	const int src_a = passable_cell(g, &s), src_b = passable_cell(g, &s);
	flood_run(a, src_a, &o, NULL, 0);
	flood_run(b, src_b, &o, NULL, 0);
	struct path_options po = path_options_default();
	po.extra = extra;
	long most = 0;
	int routes = 0;
	for (int q = 0; q < 6; q++) {
		struct flood_ctx *f = (q & 1) ? b : a;
		const int goal = (q & 1) ? src_b : src_a;
		const int start = passable_cell(g, &s);
		if (!flood_settled(f, start))
			continue;
		double cost = -1;
		long expanded = 0;
		const int len = flood_route(f, start, extra, out, n, &cost, &expanded);
		assert_true(len >= 1);
		assert_int_equal(out[0], start);
		assert_int_equal(out[len - 1], goal);
		struct path_result r;
		assert_int_equal(path_find(p, start, goal, &po, &r), PATH_FOUND);
		assert_true(fabs(cost - r.cost) <= 1e-9 * (1 + r.cost));
		most = expanded > most ? expanded : most;
		routes++;
	}
	print_message("%d routes on two contexts sharing a search, up to %ld cells expanded\n", routes, most);
	assert_true(routes >= 3);
	assert_true(most > 65536); /* the queue grew */
	/* either may go first; the search lives while one uses it */
	flood_destroy(a);
	const int start = passable_cell(g, &s);
	if (flood_settled(b, start))
		assert_true(flood_route(b, start, NULL, out, n, NULL, NULL) >= 1);
	flood_destroy(b);
	path_destroy(p);
	free(extra);
	free(out);
	grid_destroy(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bytes_a_cell),
		cmocka_unit_test(test_big_floods_equal_path),
		cmocka_unit_test(test_big_routes_shared_search),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
