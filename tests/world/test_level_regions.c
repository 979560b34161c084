/*
 * test_level_regions.c - level_grid_regions (the scan of region.c, a row's
 * runs at a time) gives exactly the labels of the flood it replaced
 * (level_grid_regions_flood): the same region of every cell and the same
 * numbering (the order of the regions' first cells), on every topology,
 * on random maps of many shapes and densities, mazes of one-cell
 * corridors and maps with no open cell or no wall.  The AI's regions and
 * everything numbered by them must not move when the labeller changes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "grid.h"
#include "level.h"

static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Labels g both ways and compares; returns the number of regions. */
static int same_labels(const struct grid *g)
{
	const size_t n = (size_t)g->w * (size_t)g->h;
	int *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
	assert_non_null(a);
	assert_non_null(b);
	memset(a, 0x55, n * sizeof *a);
	const int ra = level_grid_regions(g, a);
	const int rb = level_grid_regions_flood(g, b);
	assert_int_equal(ra, rb);
	for (size_t c = 0; c < n; c++)
		if (a[c] != b[c])
			fail_msg("%dx%d topology %d: cell %zu labelled %d, the flood says %d", g->w, g->h, (int)g->topo, c,
				 a[c], b[c]);
	free(a);
	free(b);
	return ra;
}

static const enum grid_topology topos[] = { GRID_SQUARE4, GRID_SQUARE8, GRID_HEX, GRID_DIAMOND4, GRID_DIAMOND8 };

static void test_random_maps(void **state)
{
	(void)state;
	static const int sizes[][2] = { { 1, 1 }, { 1, 17 }, { 23, 1 }, { 2, 2 }, { 37, 23 }, { 64, 65 },
					{ 65, 64 }, { 130, 3 }, { 3, 130 }, { 100, 100 } };
	static const int open_pct[] = { 0, 20, 45, 55, 65, 80, 100 };
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	long regions = 0;
	for (size_t t = 0; t < sizeof topos / sizeof topos[0]; t++)
		for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
			for (size_t p = 0; p < sizeof open_pct / sizeof open_pct[0]; p++) {
				struct grid *g = grid_create(sizes[s][0], sizes[s][1], topos[t]);
				assert_non_null(g);
				for (int c = 0; c < g->w * g->h; c++)
					grid_set_cost(g, c, (int)(next(&seed) % 100) < open_pct[p] ? (uint8_t)(1 + next(&seed) % 3) : 0);
				regions += same_labels(g);
				grid_destroy(g);
			}
	/* the maps were not all one region or none */
	assert_true(regions > 1000);
}

/* A maze of one-cell corridors: runs that touch only through long
 * chains, where a scan's unions and a flood's order differ most. */
static void test_mazes(void **state)
{
	(void)state;
	uint64_t seed = 12345;
	for (size_t t = 0; t < sizeof topos / sizeof topos[0]; t++)
		for (int k = 0; k < 4; k++) {
			struct grid *g = grid_create(61 + k, 47 + 2 * k, topos[t]);
			assert_non_null(g);
			for (int y = 0; y < g->h; y++)
				for (int x = 0; x < g->w; x++) {
					bool open = (y % 2 == 1) || (x % 2 == 1 && next(&seed) % 3 == 0) ||
						    (x % 7 == 3 && next(&seed) % 2 == 0);
					grid_set_cost(g, y * g->w + x, open);
				}
			same_labels(g);
			grid_destroy(g);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_maps),
		cmocka_unit_test(test_mazes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
