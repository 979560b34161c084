/*
 * grid_text.c - grids from rows of text for the core suites (grid_text.h), compiled once.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "grid_text.h"

struct grid *grid_from(enum grid_topology t, const char *const *rows, int h)
{
	int w = (int)strlen(rows[0]);
	struct grid *g = grid_create(w, h, t);
	assert_non_null(g);
	for (int y = 0; y < h; y++) {
		assert_int_equal((int)strlen(rows[y]), w);
		for (int x = 0; x < w; x++) {
			char c = rows[y][x];
			grid_set_cost(g, grid_index(g, x, y), c == '.' ? 1 : c == ',' ? 2 : c == '~' ? 3 : 0);
		}
	}
	return g;
}
