/* test_game_fixture.h - levels and bestiaries from strings for the game, fov and ai suites. */
#ifndef ASTRAY_TEST_GAME_FIXTURE_H
#define ASTRAY_TEST_GAME_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bestiary.h"
#include "game.h"
#include "level.h"

/* A bestiary from text; fails the test on any error. */
void fixture_bestiary(struct bestiary *b, const char *text);

/* A level from its map rows (one string, rows separated by '\n'). */
struct level *fixture_level(const char *topology, const char *map, const struct bestiary *b);

/*
 * A square map's rows turned 45 degrees into a diamond map's text (levels/
 * FORMAT.md, "Diamond maps"): square cell (u, v) becomes the diamond cell
 * in row u + v, so square4's steps are diamond4's edge steps and square8's
 * diagonals diamond8's corner steps; the cells round it are void.  Returns
 * malloc'ed text for fixture_level.  fixture_diamond_cell gives the
 * diamond cell (x, y) of square cell (u, v) of a map of h rows.
 */
char *fixture_square_to_diamond(const char *square);
void fixture_diamond_cell(int h, int u, int v, int *x, int *y);

/* A w x h map of floor in the text of topology `topo` (hex and diamond
 * rows staggered), the player at (1, 1), stairs at (w - 2, h - 2);
 * malloc'ed. */
char *fixture_floor_map(enum grid_topology topo, int w, int h);

/* A standard test bestiary: slow, fast, harmless and deadly kinds. */
extern const char fixture_kinds[];

struct fixture {
	struct bestiary b;
	struct level *lv[4];
	const struct level *levels[4];
	int n;
	struct game *g;
};

struct game *fixture_game(struct fixture *f, const char *topology, const char *map, uint64_t seed);
/* fixture_game with --set overrides applied to the bestiary (and its item
 * catalogue) first, in order; NULL-terminated. */
struct game *fixture_game_set(struct fixture *f, const char *topology, const char *map, uint64_t seed,
			      const char *const *sets);

void fixture_fini(struct fixture *f);

enum act_result act_move(struct game *g, enum grid_dir d);

enum act_result act_wait(struct game *g);

enum act_result act_travel(struct game *g, int x, int y);

enum act_result act_travel_step(struct game *g);

/* Travels to (x, y) until travel stops; returns the number of acts. */
int travel_all(struct game *g, int x, int y);

bool message_contains(const struct game *g, const char *needle);

#endif
