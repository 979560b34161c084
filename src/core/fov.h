/* fov.h - line of sight and field of view on square and hex grids. */
#ifndef ASTRAY_FOV_H
#define ASTRAY_FOV_H

#include <stdbool.h>
#include <stdint.h>

#include "grid.h"

/*
 * Marks in visible[] (w*h, set to 1; the caller clears it) every cell seen
 * from (ox, oy) within `radius` (distance as grid_step_distance, hex included):
 * a cell is seen when a line from the origin reaches it without passing a
 * cell that blocks sight (opaque[i] != 0).  Walls at the edge of the view
 * are seen.  Symmetric: if a sees b then b sees a.
 */
void fov_compute(const struct grid *g, const uint8_t *opaque, int ox, int oy, int radius,
		 uint8_t *visible);

/* Whether b is in view from a within radius (same rules as fov_compute). */
bool fov_line_of_sight(const struct grid *g, const uint8_t *opaque, int ax, int ay, int bx, int by,
		       int radius);

#endif
