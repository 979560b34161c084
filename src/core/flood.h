/* flood.h - exact Dijkstra floods over a grid whose edge costs take few distinct values. */
#ifndef ASTRAY_FLOOD_H
#define ASTRAY_FLOOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "grid.h"

/*
 * A multi-queue Dijkstra.  An edge costs its plain step (1, or sqrt 2 for a
 * square8 diagonal) times the multiplier of the cell entered (1..255), so a
 * grid has few distinct edge costs (floor, rubble, water: six on square8).
 * Each distinct cost c gets a FIFO; a cell reached from u through an edge of
 * cost c is appended to FIFO(c) with key d(u) + c.  Cells are settled in
 * order of d(u), so every FIFO stays sorted by key, the next cell is the
 * smallest head among the few non-empty FIFOs, and every operation is O(1)
 * amortised.  The distances are exact shortest-path costs, computed with
 * the same double additions as a heap-based Dijkstra.
 *
 * Tie rule: between heads of equal key, the FIFO with the lowest index
 * (index = 2 * multiplier + diagonal; the source alone is index 0), and
 * within a FIFO first in, first out.  The order of cells within one
 * settling step follows grid_neighbours.  The same query gives the same
 * order of settling on every run.
 *
 * Movement rules are those of grid_neighbours and path.c: blocked cells
 * (multiplier 0) are never entered; a square8 diagonal needs both
 * orthogonal cells it passes to be passable unless corner cutting is set.
 * The source may be blocked (a closed door, say): it is then left as if it
 * were floor.
 *
 * A flood is resumable: flood_begin starts it, flood_settle runs it until
 * given cells are settled (or to the end), and a later flood_settle carries
 * on where the previous one stopped.  On a square grid whose passable
 * cells all cost the same, a flood run to its end (or to its max_dist) at
 * once takes a faster loop (flood.c: a whole flood counts in compact
 * distances; a bounded one gives the general queue's doubles bit for bit).
 *
 * Memory (issue 33): 14 bytes a cell from flood_create on a large map
 * (distances 8, tags 4, moves 2); the FIFO pool grows to what the
 * frontier needs; a whole flood on a uniform square grid adds its compact
 * distances (4) and lays two arrays over the pool (24); flood_route and flood_detour make their arrays (52 bytes a
 * cell, 40 of them the search's, which contexts may share) on their first
 * call.  Where memory runs out, a flood stops as at a max_dist (the cells
 * it settled keep their exact distances, the others count as not reached)
 * and flood_route finds nothing.
 */

struct flood_ctx; /* opaque; sized once per grid */

struct flood_options {
	bool reverse;        /* distances TO the source (a mover pays for the cells it enters on the way) */
	bool corner_cutting; /* square8: allow diagonals past a blocked orthogonal cell */
	double max_dist;     /* cells farther than this are never settled; <= 0: no limit */
};

/* Defaults: forward, no corner cutting, no limit. */
struct flood_options flood_options_default(void);

/* A context for grid g, which must outlive it (its costs may change
 * between floods, its size may not).  NULL on bad grid or no memory. */
struct flood_ctx *flood_create(const struct grid *g);
void flood_destroy(struct flood_ctx *f); /* NULL does nothing */

/* Makes now what the first flood would (each cell's moves on a map
 * larger than flood_create prepares: about 100-200 ms and 2 bytes a cell
 * on 4096x4096), so that it does not fall on a person's first key.  No
 * answer changes.  NULL does nothing. */
void flood_prefault(struct flood_ctx *f);

/* Bytes the context holds now (its pool as grown so far, flood_route's
 * arrays once made; a shared search counted in full). */
size_t flood_memory(const struct flood_ctx *f);

/* Makes f's flood_route and flood_detour use the search arrays of `with`
 * (a context of a grid of the same size): a search is scratch of one call,
 * so two contexts used one at a time need one (each keeps its own flood
 * and crowd potential); saves 40 bytes a cell.  False (nothing changed) on
 * a size mismatch.  Either may be destroyed first. */
bool flood_share_search(struct flood_ctx *f, struct flood_ctx *with);

/* Starts a flood from `source` (a cell index), forgetting the previous one.
 * Nothing is settled yet.  False (and no flood) if source is outside the map. */
bool flood_begin(struct flood_ctx *f, int source, const struct flood_options *opt);

/*
 * Carries the current flood on until every cell of targets[0..n) is settled
 * (a target that cannot be reached, or lies past max_dist, runs the flood to
 * its end), or with n == 0 until the end.  Returns the cells settled by this
 * call.  Cells outside the map in targets are ignored.
 */
long flood_settle(struct flood_ctx *f, const int *targets, int n);

/*
 * Moves the source of a finished reverse flood with no max_dist to
 * `source`, a neighbour the old source may step to (an optimal route to
 * the new source may go through the old one): the result is the finished
 * flood from `source`, with the same distances as flood_run would give
 * (within rounding: they are summed along other routes), but only the cells
 * that got nearer are settled again (about half a map for one step of the
 * source), and one pass over the map adds the step's cost to the others.
 * False, and the flood untouched, when it does not apply (not finished,
 * forward, limited, not a legal step, the old source blocked, or the grid's
 * costs changed since); then flood anew.  flood_settled_count counts the
 * cells the shift settled itself.
 */
bool flood_shift(struct flood_ctx *f, int source);

/* flood_begin then flood_settle; -1 if source is outside the map. */
long flood_run(struct flood_ctx *f, int source, const struct flood_options *opt,
	       const int *targets, int n);

/* Whether nothing is left to settle (the flood reached its end or max_dist). */
bool flood_finished(const struct flood_ctx *f);

/* The source of the current flood; -1 if none. */
int flood_source(const struct flood_ctx *f);

/* Total cells settled by the current flood. */
long flood_settled_count(const struct flood_ctx *f);

/* Whether `cell` is settled (its distance is final). */
bool flood_settled(const struct flood_ctx *f, int cell);

/* flood_distance of cells[0 .. n) into out[0 .. n), at one call (a
 * crowd's monster ranks its neighbours by them every turn). */
void flood_distances(const struct flood_ctx *f, const int *cells, int n, double *out);

/* Asks for the memory that flood_settled and flood_distance read at
 * `cell` and its neighbours (its row and the rows above and below), for a
 * caller that will read them soon: a crowd's monsters stand far apart, so
 * each one's first reads miss the caches.  Reads nothing; no effect but
 * time. */
void flood_prefetch(const struct flood_ctx *f, int cell);

/* The exact distance of a settled cell (to the source when reverse, from
 * it otherwise); a negative value if the cell is not settled (yet). */
double flood_distance(const struct flood_ctx *f, int cell);

/*
 * The neighbour of a settled `cell` that lies on an optimal route between
 * it and the source: reverse, the cell a mover at `cell` steps to, going
 * downhill toward the source; forward, the cell before `cell` on an optimal
 * route from the source (walk it back to get the route).  Among neighbours
 * that are equally good (within 1e-9 relative), the first in grid_neighbours
 * order.  -1 if `cell` is the source, not settled, or outside the map.
 */
int flood_next(const struct flood_ctx *f, int cell);

/*
 * After a reverse flood: an optimal route from a settled `start` to the
 * source when entering each cell v also costs extra[v] (crowding; NULL:
 * none), by A* whose heuristic is min(D(v), h(v) + delta): h the flood's
 * distance (exact where the flood has settled, a lower bound elsewhere),
 * D the exact distance with extra costs over a small region around the
 * source (a Dijkstra of a few hundred cells, kept between calls while
 * no cell of it gets cheaper), and delta the least extra any route from
 * outside that region pays inside it (the crowd around the goal).  Both
 * are consistent lower bounds, so the route is optimal; when nothing
 * crowds the goal (delta 0) it is the plain flood-distance A*.
 * Movement rules as the flood's.  Ties: smaller f, then larger g, then
 * smaller cell index; on a whole compact flood (a uniform square grid)
 * f and g are exact integers in compact units, elsewhere doubles (g
 * rounded to a float for the tie).  Writes the first `cap` cells (start first) to out[],
 * the route's cost to *cost, the cells expanded to *expanded (each may be
 * NULL), and returns the route's full length in cells; -1 if there is no
 * reverse flood, start is not settled, or (with a max_dist) no route.
 */
int flood_route(struct flood_ctx *f, int start, const uint16_t *extra, int *out, int cap,
		double *cost, long *expanded);

/*
 * flood_route cut at a horizon: the same search with the same potential
 * P = min(D, h + delta) (above), but only over the cells within `horizon`
 * steps of `start` (grid_step_distance); a cell `horizon` steps away, or
 * the source, is not expanded and ends the search when it is taken off
 * the queue.  The route ends at that cell e and minimises, over the
 * routes that stay within the horizon until their last cell, its cost
 * plus P(e): the cheapest start of a detour, valued by the least the rest
 * can cost.  At most (2 horizon + 1)^2 cells are looked at, however far
 * the source; with a horizon past every cell it is an optimal route
 * (flood_route's cost).  Ties: smaller cost plus P, then larger cost (to
 * a float's precision), then smaller cell.  Writes the first `cap` cells
 * (start first) to out[], the cost of the route's cells to *cost, its
 * cost plus P(e) to *bound (at least the flood distance of start, at
 * most the cost of flood_route's route), the cells expanded to *expanded
 * (each may be NULL); returns the route's length in cells, or -1 as
 * flood_route, or when horizon < 1 or the source is blocked.
 */
int flood_detour(struct flood_ctx *f, int start, const uint16_t *extra, int horizon, int *out, int cap,
		 double *cost, double *bound, long *expanded);

#endif
