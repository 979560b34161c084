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
 * are seen, and so is every opaque cell that touches a clear cell in view
 * (fov_wall_seen: the walls bounding visible floor, at most one step past
 * the radius).  For clear cells the view is the line test alone, so it is
 * symmetric: if a sees b then b sees a.
 */
void fov_compute(const struct grid *g, const uint8_t *opaque, int ox, int oy, int radius,
		 uint8_t *visible);

/*
 * The wall rule of fov_compute: (x, y) is opaque and touches on the screen
 * (eight neighbours on square and diamond maps, six on hex, whatever the
 * moves) a clear cell marked in visible[].
 */
bool fov_wall_seen(const struct grid *g, const uint8_t *opaque, const uint8_t *visible, int x, int y);

/* Whether b is in view from a within radius by the line test: for a clear
 * b exactly fov_compute's answer; an opaque b may also be seen by the
 * wall rule. */
bool fov_line_of_sight(const struct grid *g, const uint8_t *opaque, int ax, int ay, int bx, int by,
		       int radius);

/*
 * One sample of a line between two cells: the cell it falls in (n 1), or
 * the two cells whose border it lies on (n 2; the line passes there when
 * either is clear).  A cell index of -1 is a place outside the map, which
 * blocks.
 */
struct fov_sample {
	int cell[2]; /* cell[1] is -1 when n is 1 */
	int n;       /* 1 or 2 */
};

/*
 * The samples of the line from a to b that fov_line_of_sight tests, in
 * order from a, the end cells left out: b is in view from a (within the
 * radius) exactly when every sample has a cell that does not block sight.
 * What a shot or a thrown thing meets on its way is read from them.
 * Writes the first `cap` samples to out[] and returns how many there are
 * (the distance between the cells less one, at most; 0 for neighbours);
 * -1 when a or b lies outside the map.
 */
int fov_line_cells(const struct grid *g, int ax, int ay, int bx, int by, struct fov_sample *out, int cap);

#endif
