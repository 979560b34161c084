/* grid.h - topologies, cells, neighbours, step costs, heuristics, hex layout maths. */
#ifndef ASTRAY_GRID_H
#define ASTRAY_GRID_H

#include <stdbool.h>
#include <stdint.h>

enum grid_topology {
	GRID_SQUARE4,
	GRID_SQUARE8,
	GRID_HEX,
	GRID_DIAMOND4,
	GRID_DIAMOND8
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

/*
 * Diamond grids (staggered isometric, stored like hex: cell (x, y) at text
 * column 2x + (y & 1)), in expansion order: the four edge steps NE, NW,
 * SE, SW, then the four corner steps N, E, W, S (diamond4 uses the first
 * four).  This is the square order turned 45 degrees: in u = (X + Y) / 2,
 * v = (Y - X) / 2 (X the text column, Y the row) NE, NW, SE, SW are the
 * square N, W, E, S and N, E, W, S the square NW, NE, SW, SE, so index i
 * means the same move on both, and the corner-rule flanks below serve
 * both.  Column offsets in cells depend on the row's parity:
 * GRID_DIAMOND_DX[y & 1][i]; N and S are two rows away.
 */
static const enum grid_dir GRID_DIAMOND_DIRS[8] = {
	GRID_NE, GRID_NW, GRID_SE, GRID_SW, GRID_N, GRID_E, GRID_W, GRID_S
};
static const int8_t GRID_DIAMOND_DX[2][8] = {
	{ 0, -1, 0, -1, 0, 1, -1, 0 },
	{ 1, 0, 1, 0, 0, 1, -1, 0 },
};
static const int8_t GRID_DIAMOND_DY[8] = { -1, -1, 1, 1, -2, 0, 0, 2 };

/*
 * The two short steps (table indices 0..3) beside long step 4 + k, on
 * square8 (NW: N and W, ...) and diamond8 (N: NE and NW, ...) alike: the
 * corner rule lets the long step pass only when both are passable.
 */
static const uint8_t GRID_CORNER_FLANKS[4][2] = { { 0, 1 }, { 0, 2 }, { 1, 3 }, { 3, 2 } };

static inline bool grid_is_diamond(enum grid_topology t)
{
	return t == GRID_DIAMOND4 || t == GRID_DIAMOND8;
}

/* Hex and diamond: stored in rows whose odd ones sit half a cell to the
 * right, drawn two text columns per cell (DESIGN section 2).  The screen,
 * the level format and the mouse treat the two alike. */
static inline bool grid_is_staggered(enum grid_topology t)
{
	return t == GRID_HEX || grid_is_diamond(t);
}

/* Square4 and square8: one column per cell, offsets without parity. */
static inline bool grid_is_square(enum grid_topology t)
{
	return t == GRID_SQUARE4 || t == GRID_SQUARE8;
}

/* How many rows of the topology's expansion table a mover uses. */
static inline int grid_dir_count(enum grid_topology t)
{
	return t == GRID_SQUARE4 || t == GRID_DIAMOND4 ? 4 : t == GRID_HEX ? 6 : 8;
}

/* Row i of the topology's expansion table at row parity y & 1: offsets in
 * cells, and whether it is a long step (sqrt 2: square8 diagonals,
 * diamond8 corners).  With a constant topology these fold to the table. */
static inline int grid_nb_dx(enum grid_topology t, int y, int i)
{
	return t == GRID_HEX ? GRID_HEX_DX[y & 1][i] : grid_is_diamond(t) ? GRID_DIAMOND_DX[y & 1][i] : GRID_SQUARE_DX[i];
}
static inline int grid_nb_dy(enum grid_topology t, int i)
{
	return t == GRID_HEX ? GRID_HEX_DY[i] : grid_is_diamond(t) ? GRID_DIAMOND_DY[i] : GRID_SQUARE_DY[i];
}
static inline bool grid_nb_long(enum grid_topology t, int i)
{
	return (t == GRID_SQUARE8 || t == GRID_DIAMOND8) && i >= 4;
}

/*
 * The diamond8 corner rule for long step i (4..7) out of (x, y) on a
 * w x h map of multipliers: both diamonds beside the corner passable.  A
 * flank outside the map is blocked (at the map's edge a flank can be
 * outside while the step's target is inside).
 */
static inline bool grid_diamond_flanks_open(const uint8_t *cost, int w, int h, int x, int y, int i)
{
	for (int k = 0; k < 2; k++) {
		const int f = GRID_CORNER_FLANKS[i - 4][k];
		const int fx = x + GRID_DIAMOND_DX[y & 1][f], fy = y + GRID_DIAMOND_DY[f];
		if ((unsigned)fx >= (unsigned)w || (unsigned)fy >= (unsigned)h || !cost[fy * w + fx])
			return false;
	}
	return true;
}

/* "north", "north-east", ... for messages. */
const char *grid_dir_name(enum grid_dir d);

/*
 * The step in direction d on this topology, in text columns and rows as
 * drawn (square: one column per cell; hex and diamond: doubled columns,
 * E is +2, and diamond's N is two rows up).  False when d is not a step
 * of the topology (N and S on hex, the diagonals on square4, N, E, S, W on
 * diamond4).
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
	const uint8_t *cost;       /* w * h multipliers, 0 = blocked; changed only by grid_set_cost
	                              and grid_set_costs, which keep the bits below in step */
	/* Passability as bits, for word-at-a-time scans (jump point search):
	 * bit x % 64 of rows[y * row_words + x / 64] is 1 where cell (x, y)
	 * is passable, and bit y % 64 of cols[x * col_words + y / 64] is the
	 * same cell again, the grid turned (a column read as a row).  Bits
	 * past the width (rows) or height (cols) are 0. */
	uint64_t *rows, *cols;
	int row_words, col_words;
	const uint8_t *bits_of;    /* the cost array the bits describe: a caller that points cost
	                              at another array for one query (a map memory) makes the
	                              bits unusable for that query, and the searches see it */
	uint64_t bits_changes;     /* counts the writes that may have changed a bit: what keeps a
	                              copy of the bits (jps_turned's lines) knows it is current
	                              without comparing them */
};

/* One neighbour of a cell: its index and the plain step cost (1 or sqrt 2),
 * not yet multiplied by the terrain of the cell entered. */
struct grid_step {
	int cell;
	double step;
};

/* Allocates a w x h grid with every cell blocked.  NULL on bad size or no memory. */
struct grid *grid_create(int w, int h, enum grid_topology topo);

/* Sets one cell's cost (0 = blocked), keeping the passability bits in step:
 * a door opened or a wall dug costs O(1), and nothing built from the grid
 * goes stale. */
void grid_set_cost(struct grid *g, int cell, uint8_t cost);

/* Sets every cell's cost from w * h bytes, the bits rebuilt once. */
void grid_set_costs(struct grid *g, const uint8_t *costs);
/* Sets cell i's cost to map[from[i]] for every cell of w * h bytes (a
 * level's tiles through each tile's cost), the bits rebuilt once: on
 * 4096x4096 several times faster than grid_set_cost cell by cell. */
void grid_set_costs_mapped(struct grid *g, const uint8_t *from, const uint8_t map[256]);

/* Sets g's costs to the w x h window of a from_w x from_h cost array whose
 * top left corner is (x0, y0) of that array: cell (x, y) of g gets
 * from[(y0 + y) * from_w + x0 + x], and is blocked where that lies outside
 * the array (the window may overhang any edge).  The bits rebuilt once.
 * On hex and diamond maps an even y0 keeps each row's parity, so a cell's
 * neighbours in g are its neighbours in the array. */
void grid_set_costs_window(struct grid *g, const uint8_t *from, int from_w, int from_h, int x0, int y0);

/* Sets every cell's cost to `cost`. */
void grid_fill(struct grid *g, uint8_t cost);
void grid_destroy(struct grid *g); /* NULL does nothing */

const char *grid_topology_name(enum grid_topology topo);
/* Parses "square4", "square8", "hex", "diamond4" or "diamond8"; false if unknown. */
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
 * passes to be passable unless `corner_cutting` is set, and on diamond8
 * a corner step both diamonds beside the corner.
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

/* Number of steps between two cells on an empty map (Chebyshev on square8,
 * and in (u, v) on diamond8). */
int grid_step_distance(const struct grid *g, int a, int b);

/* grid_heuristic_xy of a square map (square8 or square4), the cells dx
 * and dy apart: inline for a loop that weighs every step of a walk
 * (ai.c's wanderers); grid.c takes its own from here. */
static inline double grid_square_heuristic(enum grid_topology t, int dx, int dy)
{
	dx = dx < 0 ? -dx : dx;
	dy = dy < 0 ? -dy : dy;
	if (t == GRID_SQUARE4)
		return dx + dy;
	int lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
	return hi + (GRID_SQRT2 - 1.0) * lo;
}

/* The same two, from the cells' coordinates (what a caller that has them
 * spares: the divisions that take a cell apart, four a call; the game's
 * turn measures 67,000 monsters' distances on a 4096x4096 level). */
double grid_heuristic_xy(const struct grid *g, int ax, int ay, int bx, int by);
int grid_step_distance_other(const struct grid *g, int ax, int ay, int bx, int by);
/* (inline: square8's Chebyshev distance without a call, the others' in
 * grid.c) */
static inline int grid_step_distance_xy(const struct grid *g, int ax, int ay, int bx, int by)
{
	if (g->topo != GRID_SQUARE8)
		return grid_step_distance_other(g, ax, ay, bx, by);
	int dx = ax - bx, dy = ay - by;
	dx = dx < 0 ? -dx : dx;
	dy = dy < 0 ? -dy : dy;
	return dx > dy ? dx : dy;
}

/* Screen layout (DESIGN section 2): square cell (x, y) is text column x;
 * hex and diamond cell (x, y) is text column 2x + (y & 1), the doubled
 * coordinate. */
void grid_cell_to_screen(const struct grid *g, int x, int y, int *col, int *row);

/* Width in text columns of the map as drawn (hex, diamond: 2w, square: w). */
int grid_screen_width(const struct grid *g);

/*
 * The cell nearest to text position (col, row), clamped into the map: a
 * position outside goes to the nearest cell inside, and on hex and diamond a position
 * between two cells (wrong parity) goes to the one on its left, or on its
 * right at the left edge.  Returns true when (col, row) was exactly a cell.
 */
bool grid_screen_to_cell(const struct grid *g, int col, int row, int *x, int *y);

/* Clamp a cell position into the map. */
void grid_clamp(const struct grid *g, int *x, int *y);

#endif
