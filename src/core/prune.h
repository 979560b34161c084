/* prune.h - dead-end (tree) pruning: an exact speed-up prepared once per static map. */
#ifndef ASTRAY_PRUNE_H
#define ASTRAY_PRUNE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "grid.h"
#include "path.h"

/*
 * A prepared map.  prune_create peels every passable cell that has at most
 * one neighbour left (repeatedly), which leaves the 2-core of the move
 * graph.  Each peeled cell hangs in a tree below a root: the core cell its
 * tree hangs from, or, when a whole component is a tree, the last cell
 * peeled.  A query between cells of one tree walks the tree; any other
 * query walks up to the start's root, searches the core alone with
 * path_find (on a private copy of the map in which every peeled cell is
 * blocked) and walks down from the goal's root.  The answers are exact:
 * a tree hanging from root r meets the rest of the map only at r.
 *
 * Trees holding less than a sixteenth of the passable cells are not
 * kept (prune_peeled), and a query is then path_find on g itself.
 *
 * So g must outlive p and its costs must not change while p is used: for
 * maps that do not change (the Moving AI benchmarks), and for the game's
 * map memory, made anew when it changes (game_travel.c, known_trees).  g's
 * costs may be an array of the caller's rather than the grid's own (the
 * peeling then packs them into bit rows itself).  No allocation after
 * prune_create.
 */
struct prune; /* opaque */

/* Prepares grid g for searches with or without corner cutting (square8
 * and diamond8; ignored on the other topologies).  g is kept (above).
 * NULL on no memory. */
struct prune *prune_create(const struct grid *g, bool corner_cutting);
/* The same, for a peeling in a thread of its own whose answer may stop
 * being wanted: NULL soon after *stop becomes nonzero (it is read between
 * rows of the peeling and between its passes, so a 4096x4096 maze gives
 * up within a few ms), else prune_create's answer.  stop NULL: never. */
struct prune *prune_create_until(const struct grid *g, bool corner_cutting, const atomic_int *stop);
void prune_destroy(struct prune *p); /* NULL does nothing */

/*
 * Finds a route like path_find, with the same result fields and the same
 * costs (entering cell v costs step * terrain(v), summed from the start).
 * opt may be NULL (A*); its weight, plain_astar and budget apply to the
 * core search (a tree walk has no budget: it takes a step a cell of its
 * route).  A core search out of budget answers PATH_BUDGET with a partial
 * route: up the start's tree to its root, then the core search's partial
 * route, so it ends on the core, never in a dead end (with the trees not
 * kept, path_find's own partial route).  Fallback, extra costs, or a corner_cutting other than the
 * one given to prune_create are not served: PATH_BAD_INPUT.  `expanded`
 * counts the core search's expansions plus one per tree step walked.
 * out->cells is owned by p and valid until its next query.
 */
enum path_status prune_find(struct prune *p, int start, int goal, const struct path_options *opt,
			    struct path_result *out);

/* The preparation, for tests and reports: a passable cell's root (itself
 * for a core cell or a tree's last cell; found by climbing, so time in
 * its depth: only the depths are kept), its steps to the root, and a
 * number shared by exactly the cells of its component (not dense); -1
 * for a blocked or out-of-range cell.  When the trees
 * are not kept (prune_peeled 0) every passable cell is its own root at
 * depth 0, and the component is -1. */
int prune_root(const struct prune *p, int cell);
int prune_depth(const struct prune *p, int cell);
int prune_component(const struct prune *p, int cell);

/* Number of passable cells in the trees prune_find walks (not in the
 * core): 0 when the trees are not kept.  prune_create keeps them only when
 * they hold at least a sixteenth of the passable cells; with fewer they
 * speed up no search measurably, and every query is path_find on the map
 * (docs/core.md).  prune_dead_ends: the cells the peeling
 * found, kept or not. */
int prune_peeled(const struct prune *p);
int prune_dead_ends(const struct prune *p);

/* How prune_find answers a query between core cells: "chains" (the core
 * as junctions, below), else path_auto_search of the core's context. */
const char *prune_auto_search(const struct prune *p);

/* The junctions of the core when it is searched as chains: a core whose
 * cells are at least half corridor (two moves within the core: a maze with
 * loops) is searched as a graph of its other cells, the junctions, joined
 * by the chains of corridor cells between them, each with its cost both
 * ways (the same costs, exact; a budget then counts junctions).  0 when
 * the core is searched whole with path_find (or the trees are not kept). */
int prune_junctions(const struct prune *p);

/* Bytes held, including the core search context. */
size_t prune_memory(const struct prune *p);

#endif
