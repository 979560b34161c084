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

/* A w x h (both odd) maze's level text, corridors one cell wide between
 * the cells at odd (x, y), dug depth first from the seed's draws, then
 * `loops` walls between two corridors knocked through, and `terrain` in a
 * hundred of the open cells rubble or water; the player at (1, 1), stairs
 * at (w - 2, h - 2).  malloc'ed. */
char *test_maze_text(int w, int h, uint32_t seed, int loops, int terrain);

#endif
