/* gen.h - generated levels: a pure function of (version, topology, size, depth, seed, style). */
#ifndef ASTRAY_GEN_H
#define ASTRAY_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bestiary.h"
#include "grid.h"
#include "level.h"

/*
 * The generator's version.  Every change that alters the output for any
 * input (a new room shape, another threshold, a different order of random
 * draws) bumps it, and `make test UPDATE=1` rewrites the seed catalogue
 * (tests/golden/gen/).  Within one version the same inputs give the same
 * bytes on every compiler, optimisation level and sanitizer build: the
 * generator draws from its own splitmix64 stream (never the game's), makes
 * every decision in integers, and sorts nothing with ties.
 */
#define GEN_VERSION 3 /* 2: the kinds of the hunt, each from its depth to its last; 3: items of every class,
                         swarms (in groups) and breeders */

#define GEN_MIN_WIDTH 12
#define GEN_MIN_HEIGHT 8
#define GEN_MAX_DEPTH 99

enum gen_style {
	GEN_STYLE_MIXED,   /* rooms or caves, chosen from the seed */
	GEN_STYLE_ROOMS,   /* rooms and corridors, placed one at a time, with doors */
	GEN_STYLE_CAVES,   /* cellular-automaton caves */
};

/* "mixed", "rooms", "caves"; parse is false on anything else. */
const char *gen_style_name(enum gen_style s);
bool gen_style_parse(const char *s, enum gen_style *out);

/*
 * Topologies the generator knows: all five (square4, square8, hex,
 * diamond4, diamond8).  gen.c's `topo_of` holds what it needs of each:
 * the neighbour offsets in the expansion order of grid.h (the "near" ring
 * keeps walls one cell thick; the first `conn` entries are the steps that
 * join regions), the opposite of each step (straight corridors) and the
 * cave rule's two thresholds for its neighbour count.  Text layout comes
 * from level_write.
 */
bool gen_supports(enum grid_topology topo);

/* The default size for a topology: one screen of 80x24 text columns. */
void gen_default_size(enum grid_topology topo, int *w, int *h);

struct gen_params {
	enum grid_topology topo;
	int w, h;                        /* GEN_MIN_WIDTH x GEN_MIN_HEIGHT to LEVEL_MAX_SIDE */
	int depth;                       /* 1 to GEN_MAX_DEPTH: monsters grow with it */
	uint64_t seed;
	enum gen_style style;
	/* May be NULL.  Otherwise kinds of the generator's fixed monster table
	 * whose letter this bestiary lacks are left out, so the level parses
	 * with it.  The bestiary's tuning never changes the level. */
	const struct bestiary *bestiary;
};

struct gen_result {
	char *text;                      /* the .lvl file, NUL-terminated (caller frees) */
	size_t len;
	struct level *level;             /* the text parsed back with level_parse (caller destroys) */
	enum gen_style style;            /* the style used (never MIXED) */
};

/*
 * Generates a level.  The level is `text` as level_parse reads it, so what
 * the game plays is what a designer gets from `astray gen`.  Guarantees:
 * level_analyse reports no error and no warning; the passable cells are one
 * region; the exit is far from the start by path; no monster stands within
 * GEN_SAFE_STEPS steps of the start.  On bad parameters or no memory
 * returns false with a message in err (nothing in *out to free).
 */
#define GEN_SAFE_STEPS 5
bool gen_level(const struct gen_params *p, struct gen_result *out, char *err, size_t errlen);

void gen_result_free(struct gen_result *r); /* frees text and level; fields set to NULL */

/*
 * Shape figures of a level, for designers and the tests.  Movement follows
 * the level's topology; routes count steps (terrain costs ignored).
 *   loops:   independent cycles of the floor graph that go round a wall:
 *            E - V + C minus the trivial cycles inside open floor (2x2
 *            blocks on square grids, triangles on hex), computed on the
 *            graph that decides regions (square8: orthogonal steps, which
 *            join exactly what its diagonals join).
 *   cycles:  E - V + C of that graph (loops plus the trivial cycles).
 *   route:   steps of a shortest route from the start to the nearest exit.
 *   on_route: passable cells on some shortest start-exit route; floor: passable cells.
 * Returns false on no memory.
 */
struct gen_shape {
	long loops, cycles;
	int route;
	int on_route, floor;
	int regions;
};
bool gen_measure(const struct level *lv, struct gen_shape *out);

/*
 * The monster kinds a generated level of `depth` may hold and how common
 * each is there (the generator's own table; kinds whose letter b lacks are
 * left out; b may be NULL): writes at most max glyphs and their weights and
 * returns how many.  The game draws wandering arrivals from it, so they
 * fit the depth as the level's own monsters do.
 */
int gen_kinds_at(const struct bestiary *b, int depth, char *glyphs, int *weights, int max);

#endif
