/* movingai.h - Moving AI benchmark files: .map grids and .scen scenario lists. */
#ifndef ASTRAY_MOVINGAI_H
#define ASTRAY_MOVINGAI_H

#include <stdbool.h>
#include <stddef.h>

#include "grid.h"

/*
 * Parses a .map (header `type octile`, `height H`, `width W`, `map`, then H
 * rows of W characters; CRLF and a missing final newline accepted) into a
 * square8 grid: `.` `G` `S` passable (cost 1), everything else blocked.
 * On error returns NULL and writes "line N: message" into err.
 */
struct grid *movingai_parse_map(const char *text, size_t len, char *err, size_t errlen);

struct movingai_scenario {
	int bucket;
	char map[256];       /* file name only (any folder stripped) */
	int map_w, map_h;
	int sx, sy, gx, gy;
	double optimal;
};

/* Parses a .scen file (version 1 or 1.0, tabs or spaces, blank lines skipped).
 * Returns the number of scenarios (array in *out, caller frees) or -1 with err. */
int movingai_parse_scen(const char *text, size_t len, struct movingai_scenario **out,
			char *err, size_t errlen);

/*
 * The square map sq turned 45 degrees into diamond storage (DESIGN section
 * 2): square cell (u, v) becomes the diamond at text column
 * X = u - v + off, row Y = u + v, with off the smallest even number
 * >= sq->h - 1 (so X >= 0 and X + Y stays even), and so has the same u and
 * v up to that shift: every route keeps its cost.  The diamond rectangle's
 * other cells are blocked.  topo is GRID_DIAMOND4 or GRID_DIAMOND8; NULL
 * on no memory.
 */
struct grid *movingai_turn_diamond(const struct grid *sq, enum grid_topology topo);

/* The cell of diamond map d (made by movingai_turn_diamond from a map of
 * sq_h rows) that square cell (u, v) became. */
int movingai_turned_cell(const struct grid *d, int sq_h, int u, int v);

/* DESIGN section 7: |cost - optimal| <= 0.006 + 1e-5 * optimal. */
bool movingai_cost_matches(double cost, double optimal);

#endif
