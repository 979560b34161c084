/* jps_turned.h - jump point search on hex, diamond4 and diamond8 maps (uniform cost). */
#ifndef ASTRAY_JPS_TURNED_H
#define ASTRAY_JPS_TURNED_H

#include <stdbool.h>
#include <stddef.h>

#include "grid.h"

struct jps_turned; /* opaque; sized once per grid, reused for every query */

/* A context for grid g (hex, diamond4 or diamond8; g must outlive it, its
 * costs may change between queries, its size may not).  NULL on another
 * topology or no memory. */
struct jps_turned *jps_turned_create(const struct grid *g);
void jps_turned_destroy(struct jps_turned *t); /* NULL does nothing */

/*
 * The share of passable cells where a terminal jump of the search stops
 * for a forced turn (arriving along a terminal move d from a passable cell
 * p, a turn q with x + q passable and p + q blocked), per passable cell;
 * 0 on another topology.  *passable and *terrain (each if not NULL)
 * get the passable cells and those of them dearer than 1.  Open maps and rooms have few such cells, maps of
 * scattered obstacles and corridors many: there jump points are nearly as
 * many as A*'s expansions and plain A* is as fast (path.c's chooser,
 * docs/core.md).  On maps of 256 rows or more, a quarter of the rows
 * (hashed) is counted.  No allocation.
 */
double jps_turned_turn_share(const struct grid *g, long *passable, long *terrain);

/* Bytes the context holds. */
size_t jps_turned_memory(const struct jps_turned *t);

enum jps_turned_status {
	JPS_TURNED_FOUND,    /* cells[] is a shortest route, and every cell on it after the start costs 1 */
	JPS_TURNED_NO_ROUTE, /* the goal cannot be reached at all */
	JPS_TURNED_ASTAR     /* the caller must search with the costs: the route found crosses terrain
	                        dearer than 1 (it need not be optimal then), or the grid's bit rows do
	                        not describe its costs (grid.h's bits_of) */
};

/*
 * Jump point search from start to goal (passable cells, start != goal),
 * every passable cell taken as cost 1.  Cells changed in place since the
 * last query (grid_set_cost) are taken up first, by the bits that changed.  On FOUND *cells (owned by the
 * context, valid until its next query) holds the *len cells of the route
 * from start to goal.  *expanded counts the jump points expanded.
 * No allocation.
 */
enum jps_turned_status jps_turned_find(struct jps_turned *t, int start, int goal, const int **cells,
				       int *len, long *expanded);

#endif
