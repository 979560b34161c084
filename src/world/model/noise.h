/* noise.h - sound on a level: how far a noise carries, as a bounded flood over passable cells that closed doors stop. */
#ifndef ASTRAY_NOISE_H
#define ASTRAY_NOISE_H

#include <stdint.h>

#include "grid.h"

/* How loud each action is: the steps a noise carries over passable cells
 * (docs/ai.md, "Noise, sleep and wandering").  Walking and resting make
 * none; a sleeping monster still wakes when the player comes next to it. */
#define NOISE_FIGHT 12      /* a blow, struck or taken (at the player's cell) */
#define NOISE_DOOR 6        /* a door opened, by the player or a monster */
#define NOISE_HURRY 3       /* a step of running, travel or autoexplore */

/* The flood's buffers for one level (a stamp and a queue slot per cell),
 * made once per level: a noise allocates nothing. */
struct noise;

/* Buffers for `grid` (which must outlive them); NULL on no memory. */
struct noise *noise_create(const struct grid *grid);
void noise_destroy(struct noise *nz); /* NULL does nothing */

/*
 * The cells a noise made at `from` reaches: every cell within `loud`
 * steps of it along the moves of the grid (grid_neighbours: passable
 * cells, the corner rule), walls taking it round, a closed door (tiles[c]
 * == TILE_DOOR and !open[c]) stopping it.  The cells go into *cells in
 * the order of a breadth-first flood (from first, then nearer before
 * farther; ties in grid_neighbours order), valid until the next call;
 * returns how many (0 when loud < 0 or from is blocked).  Costs the cells
 * it reaches, never the level: the stamps of earlier floods are told
 * apart by a generation number.
 */
int noise_flood(struct noise *nz, const uint8_t *tiles, const uint8_t *open, int from, int loud,
		const int **cells);

#endif
