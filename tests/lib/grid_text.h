/* grid_text.h - tests: a grid from rows of text ('#' blocked, '.' cost 1,
 * ',' 2, '~' 3; hex rows give one character per cell too); fails the
 * test when the rows are ragged. */
#ifndef ASTRAY_TESTS_GRID_TEXT_H
#define ASTRAY_TESTS_GRID_TEXT_H

#include "grid.h"

struct grid *grid_from(enum grid_topology t, const char *const *rows, int h);

#endif
