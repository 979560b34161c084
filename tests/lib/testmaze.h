/* testmaze.h - perfect mazes for the suites: a seed gives the same maze everywhere. */
#ifndef ASTRAY_TESTMAZE_H
#define ASTRAY_TESTMAZE_H

#include <stdint.h>

/*
 * Carves a perfect maze of cw x ch maze cells by a depth-first walk from
 * the first: maze cell (i, j) is the map cell (2i + 1, 2j + 1), and a step
 * between two opens the cell between them too.  dig(ctx, x, y) is called
 * for each cell it opens, (1, 1) first.  The walk draws one number of
 * testrand's stream in *seed for each step it takes, so a suite that goes
 * on drawing from *seed (loops, terrain) stays the same from run to run.
 */
void test_maze_carve(int cw, int ch, uint32_t *seed, void (*dig)(void *ctx, int x, int y), void *ctx);

#endif
