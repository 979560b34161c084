/* path.h - the A* core: a reusable search context, options, the obstacle-penalty fallback, statistics. */
#ifndef ASTRAY_PATH_H
#define ASTRAY_PATH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "grid.h"

struct region;   /* region.h */
struct path_ctx; /* opaque; sized once per grid, reused for every query */

struct path_options {
	double weight;        /* heuristic weight: 0 Dijkstra, 1 A* (default), > 1 weighted A* */
	bool corner_cutting;  /* square8: allow diagonals past a blocked orthogonal cell */
	bool fallback;        /* DESIGN section 4: route through blocked cells at penalty P, cut before the first */
	double penalty;       /* fallback P per blocked cell; <= 0 means automatic (above any wall-free path) */
	long budget;          /* maximum expansions; 0 = unlimited */
	const uint16_t *extra;/* optional w*h extra cost for entering a cell (crowding); NULL = none */
	bool plain_astar;     /* never use jump point search (it is tried only for square8, weight 1,
	                         no corner cutting, fallback, budget or extra; same costs, fewer expansions) */
	bool jps_always;      /* use jump point search wherever it applies, even on a map whose jump points
	                         are too dense for it to pay (tests and `astray bench --mode jps`); on hex
	                         and diamond maps only then (jps_turned.c: same costs, but its route can
	                         differ from plain A*'s among equal ones, and the game keeps A*'s) */
	const uint8_t *solid; /* fallback: optional w*h, nonzero = a blocked cell the fallback may not enter
	                         either (a wall no one can dig: DESIGN section 4, rule 6); NULL = none */
	const struct region *regions; /* optional labels of the cost array searched (region.h);
	                         when current, a goal outside the start's region is answered
	                         without settling that region (fallback one wall away, or
	                         no route without fallback or budget): the same answer, sooner.
	                         Two or more walls away (fallback, automatic P, weight 1, no
	                         budget or near_exact): the same blocked cells and cost, but among
	                         routes equal in both its own tie rule (path.c, fallback_deep) */
	bool near_exact;      /* with a budget, current labels and automatic P: a goal one blocked
	                         cell away from the start's region gets the exact fallback answer
	                         (the one without a budget), found within the budget's expansions;
	                         the budget's partial answer only when that search does not find it.
	                         A goal two or more walls away gets fallback_deep's answer (the
	                         one without a budget) when it is found within the budget, else
	                         PATH_BUDGET with the start alone: the layered search would settle
	                         the start's region first.  So too past 250 walls, where
	                         fallback_deep's key has no room; without memory for it, the
	                         layered search answers.
	                         For the player's clicks (game_travel.c): a function of the map alone,
	                         so the caller must keep the labels current */
	bool near_only;       /* with near_exact: where the search for a goal one blocked cell away
	                         runs out of budget, PATH_BUDGET with the start alone, where the
	                         layered search would spend a second budget on a partial route.
	                         For a caller that plans its own way then (game_travel.c,
	                         plan_travel: a click's cut point from the goal's side) */
	bool deep_doors;      /* two or more walls away, no budget, current labels, automatic P, weight
	                         1, no extra costs: the start's region searched on the plain A* loop up
	                         to every cell it may leave by, then the rest from there (path.c,
	                         deep_doors): the same blocked cells and cost, faster where the region
	                         is large, and the route possibly another of that key.  astray path sets
	                         it; the game does not, so that its routes stay its rules' */
	const atomic_int *stop; /* optional, with a budget: once *stop is nonzero the search ends
	                         as out of budget at its next look (every 1,024 expansions), for a
	                         caller on another thread that no longer wants the answer
	                         (game_travel.c's side search); NULL never */
};

/* Defaults: A* (weight 1), no corner cutting, no fallback, no budget, no extra. */
struct path_options path_options_default(void);

enum path_status {
	PATH_FOUND,        /* the goal was reached: cells[] is an optimal (or weighted) path */
	PATH_FALLBACK,     /* fallback: the goal was blocked or unreachable; cells[] walks to the cut point */
	PATH_NO_ROUTE,     /* no route (without fallback, or with it when solid cells wall the goal off): cells[] holds only the start */
	PATH_BUDGET,       /* budget exceeded: cells[] is the best partial path toward the goal */
	PATH_BAD_INPUT     /* start or goal outside the map, or start blocked without fallback;
	                      or no memory to grow the context's queue (len 0, cells NULL) */
};

struct path_result {
	enum path_status status;
	const int *cells;   /* cell indices from start to end inclusive; owned by the context, valid until its next query */
	int len;            /* number of cells in cells[] (>= 1 unless status is PATH_BAD_INPUT) */
	int end;            /* the last cell of the walk (cells[len - 1]) */
	double cost;        /* cost of the walk from start to end */
	int steps;          /* len - 1 */
	long expanded;      /* nodes expanded by this query */
	bool reached;       /* end == goal */
	int blocked_crossed;/* fallback: blocked cells on the full hypothetical route (0 when reachable) */
	int first_blocked;  /* fallback: the first blocked cell of that route, the one the walk stops before
	                       (a digger digs it); -1 when the route crosses none */
};

/* A context for grid g (which must outlive it; its costs may change between
 * queries, its size may not).  NULL on no memory. */
struct path_ctx *path_create(const struct grid *g);
void path_destroy(struct path_ctx *ctx); /* NULL does nothing */

/* The search path_find runs by default on the context's map, as
 * path_create chose it (docs/core.md): "jumps" (jump point search) or
 * "plain" (plain A*); a query's options may still rule jumps out. */
const char *path_auto_search(const struct path_ctx *ctx);

/*
 * Makes the context's memory resident now (all its per-cell records and
 * the first 16 MiB of its queue, which it grows to that size if it can)
 * without changing any answer, so that no
 * later query stops for the first touch of a page.  Without it a long
 * route across a large map takes a page fault for nearly every row it
 * crosses (a row of a 4096-wide map is 16 pages of records): up to 60 ms
 * for one travel preview on the test machine.  Costs about 1 ms of CPU
 * per MiB there (290 ms on 4096x4096), and path_memory() stays resident.
 * For contexts that must answer within a frame; NULL does nothing.
 */
void path_prefault(struct path_ctx *ctx);

/* Bytes the context holds (for the 1024x1024 < 32 MiB target): 16 a cell
 * and the ring's pool (about 17 a cell), and its queue, which starts at
 * 64 KiB and grows to what the largest query has needed (path.c). */
size_t path_memory(const struct path_ctx *ctx);

/*
 * For tests: shortens the context's phases (path.c, new_generation) to
 * at most `gens` generations (queries, and retries within one) and `codes`
 * plain A* queries, so that a few hundred queries cross many phases and
 * sweeps.  Answers do not change; 0 or out of range restores the default.
 */
void path_set_phases(struct path_ctx *ctx, int gens, int codes);

/*
 * Finds a route from start to goal (cell indices; a fallback goal outside
 * the map is clamped by the caller with grid_clamp).  No allocation.  Ties
 * between equal f go to larger g, always the same way.  Returns status.
 */
enum path_status path_find(struct path_ctx *ctx, int start, int goal,
			   const struct path_options *opt, struct path_result *out);

/*
 * A plain heap-based Dijkstra, kept as the reference the fast floods are
 * held to, not for the game: the game floods with flood.h (flood_run,
 * flood_next, flood_route), which is several times faster.  Its users:
 * the tests (tests/core/test_flood.c checks flood.c's distances against
 * it, test_path.c and test_grid.c the movement rules, tests/world/
 * test_ai.c the monsters' routes) and `astray bench --mode fallback`,
 * which times the fallback search against a whole flood.  It shares the
 * context and the records of path_find, so a flood forgets the last query.
 *
 * Dijkstra flood from `source` over every reachable cell, with the same
 * movement rules (corner cutting, extra costs from opt; weight, fallback and
 * budget are ignored).  With `reverse` the distances are those from each cell
 * TO the source (entering costs counted on the way in), which is what many
 * movers heading to one target need.  Stops early past `max_cost` (<= 0:
 * no limit).  Returns the number of cells settled.  Distances are read with
 * path_flood_distance until the next query on this context.
 */
long path_flood(struct path_ctx *ctx, int source, const struct path_options *opt,
		bool reverse, double max_cost);

/* Distance of `cell` from the last flood; a negative value if not reached. */
double path_flood_distance(const struct path_ctx *ctx, int cell);

/*
 * After a reverse flood: the neighbour of `cell` that goes downhill toward
 * the source along an optimal route (ties broken the same way as the search),
 * or -1 if none (cell unreached or already the source).
 */
int path_flood_next(const struct path_ctx *ctx, int cell, const struct path_options *opt);

/*
 * After path_find with opt.fallback: the whole route of its answer, past
 * the cut point too (through the blocked cells to the goal), as the search
 * found it; the answer's cells[] is its first len cells.  Sets *cells and
 * returns the number of cells (1, the start, for PATH_NO_ROUTE); 0 and NULL
 * after a flood, bad input or no memory.  Valid until the next query.  For
 * the tests, which hold routes through walls to the layered search's key.
 */
int path_route(const struct path_ctx *ctx, const int **cells);

/* Whether the last query or flood expanded `cell` (for `astray path --explored`). */
bool path_was_expanded(const struct path_ctx *ctx, int cell);

#endif
