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
 * The one direction vocabulary of astray: the eight directions as seen on
 * screen, in compass order.  Every layer (path, flood, fov, the rules, the
 * keys, the UI) names a step by one of these.  A topology gives each its
 * offset in text columns and rows (grid_dir_offset), or none: hex has no
 * N or S.  The cell-coordinate tables below list, per topology, the
 * neighbours in the fixed order every search expands them in (the order
 * decides ties, DESIGN section 3), with the direction each row is.
 */
enum grid_dir {
	GRID_N, GRID_NE, GRID_E, GRID_SE, GRID_S, GRID_SW, GRID_W, GRID_NW,
	GRID_DIR_COUNT
};

/*
 * Square grids, in expansion order: the four orthogonal steps, then the
 * four diagonals (square4 uses the first four).  Offsets in cells.
 */
static const enum grid_dir GRID_SQUARE_DIRS[8] = {
	GRID_N, GRID_W, GRID_E, GRID_S, GRID_NW, GRID_NE, GRID_SW, GRID_SE
};
static const int8_t GRID_SQUARE_DX[8] = { 0, -1, 1, 0, -1, 1, -1, 1 };
static const int8_t GRID_SQUARE_DY[8] = { -1, 0, 0, 1, -1, -1, 1, 1 };

/*
 * Hex grids (odd-r rows), in expansion order: W, E, NW, NE, SW, SE.  The
 * column offset depends on the row's parity: GRID_HEX_DX[y & 1][i].
 */
static const enum grid_dir GRID_HEX_DIRS[6] = {
	GRID_W, GRID_E, GRID_NW, GRID_NE, GRID_SW, GRID_SE
};
static const int8_t GRID_HEX_DX[2][6] = {
	{ -1, 1, -1, 0, -1, 0 },
	{ -1, 1, 0, 1, 0, 1 },
};
static const int8_t GRID_HEX_DY[6] = { 0, 0, -1, -1, 1, 1 };

/* "north", "north-east", ... for messages. */
const char *grid_dir_name(enum grid_dir d);

/*
 * The step in direction d on this topology, in text columns and rows as
 * drawn (square: one column per cell; hex: doubled columns, E is +2).
 * False when d is not a step of the topology (N and S on hex, the
 * diagonals on square4).
 */
bool grid_dir_offset(enum grid_topology topo, enum grid_dir d, int *dcol, int *drow);

/*
 * The cell one step in direction d from (x, y): false when d is not a
 * step of this topology.  The result may lie outside the map; the caller
 * checks bounds.
 */
struct grid;
bool grid_dir_step(const struct grid *g, int x, int y, enum grid_dir d, int *nx, int *ny);

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
