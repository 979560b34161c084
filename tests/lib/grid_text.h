/* grid_text.h - tests: a grid from rows of text ('#' blocked, '.' cost 1,
 * ',' 2, '~' 3; hex rows give one character per cell too).  Include after
 * cmocka.h and grid.h. */
#ifndef ASTRAY_TESTS_GRID_TEXT_H
#define ASTRAY_TESTS_GRID_TEXT_H

#include <string.h>

static struct grid *grid_from(enum grid_topology t, const char *const *rows, int h)
{
	int w = (int)strlen(rows[0]);
	struct grid *g = grid_create(w, h, t);
	assert_non_null(g);
	for (int y = 0; y < h; y++) {
		assert_int_equal((int)strlen(rows[y]), w);
		for (int x = 0; x < w; x++) {
			char c = rows[y][x];
			g->cost[grid_index(g, x, y)] = c == '.' ? 1 : c == ',' ? 2 : c == '~' ? 3 : 0;
		}
	}
	return g;
}

#endif
