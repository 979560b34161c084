/* grid.h - topologies, cells, neighbours, step costs, heuristics, hex layout maths. */
#ifndef ASTRAY_GRID_H
#define ASTRAY_GRID_H

#include <stdbool.h>
#include <stdint.h>

enum grid_topology {
	GRID_SQUARE4,
	GRID_SQUARE8,
	GRID_HEX
};

#define GRID_MAX_NEIGHBOURS 8
#define GRID_SQRT2 1.4142135623730951

/*
 * A grid is a rectangle of cells with an entering-cost multiplier each:
 * 0 means blocked (wall, void), 1..255 multiplies the plain step cost of
 * entering the cell (floor 1, rubble 2, water 3: DESIGN section 3).
 * Cells are indexed y * w + x.  The grid owns `cost`.
 */
struct grid {
	int w, h;                  /* size in cells */
	enum grid_topology topo;
	uint8_t *cost;             /* w * h multipliers, 0 = blocked */
};

/* One neighbour of a cell: its index and the plain step cost (1 or sqrt 2),
 * not yet multiplied by the terrain of the cell entered. */
struct grid_step {
	int cell;
	double step;
};

/* Allocates a w x h grid with every cell blocked.  NULL on bad size or no memory. */
struct grid *grid_create(int w, int h, enum grid_topology topo);
void grid_destroy(struct grid *g); /* NULL does nothing */

const char *grid_topology_name(enum grid_topology topo);
/* Parses "square4", "square8" or "hex"; false if unknown. */
bool grid_topology_parse(const char *s, enum grid_topology *out);

static inline int grid_index(const struct grid *g, int x, int y) { return y * g->w + x; }
static inline int grid_x(const struct grid *g, int cell) { return cell % g->w; }
static inline int grid_y(const struct grid *g, int cell) { return cell / g->w; }
static inline bool grid_in_bounds(const struct grid *g, int x, int y)
{
	return x >= 0 && y >= 0 && x < g->w && y < g->h;
}
static inline bool grid_passable(const struct grid *g, int cell) { return g->cost[cell] != 0; }

/*
 * Neighbours a mover at `cell` may step to, in a fixed order, written to
 * out[] (room for GRID_MAX_NEIGHBOURS); returns how many.  Blocked cells
 * are left out.  On square8 a diagonal needs both orthogonal cells it
 * passes to be passable unless `corner_cutting` is set.
 */
int grid_neighbours(const struct grid *g, int cell, bool corner_cutting, struct grid_step out[]);

/*
 * Every in-bounds adjacent cell, blocked or not, in the same fixed order
 * as grid_neighbours (the fallback search and the level checks use it).
 */
int grid_adjacent(const struct grid *g, int cell, struct grid_step out[]);

/* Are a and b adjacent on this topology? */
bool grid_is_adjacent(const struct grid *g, int a, int b);

/* The heuristic: exact distance on an empty map of this topology. */
double grid_heuristic(const struct grid *g, int a, int b);

/* Number of steps between two cells on an empty map (Chebyshev on square8). */
int grid_step_distance(const struct grid *g, int a, int b);

/* Screen layout (DESIGN section 2): square cell (x, y) is text column x;
 * hex cell (x, y) is text column 2x + (y & 1), the doubled coordinate. */
void grid_cell_to_screen(const struct grid *g, int x, int y, int *col, int *row);

/* Width in text columns of the map as drawn (hex: 2w, square: w). */
int grid_screen_width(const struct grid *g);

/*
 * The cell nearest to text position (col, row), clamped into the map: a
 * position outside goes to the nearest cell inside, and on hex a position
 * between two cells (wrong parity) goes to the one on its left, or on its
 * right at the left edge.  Returns true when (col, row) was exactly a cell.
 */
bool grid_screen_to_cell(const struct grid *g, int col, int row, int *x, int *y);

/* Clamp a cell position into the map. */
void grid_clamp(const struct grid *g, int *x, int *y);

#endif
