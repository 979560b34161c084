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

void fixture_fini(struct fixture *f);

enum act_result act_move(struct game *g, enum grid_dir d);

enum act_result act_wait(struct game *g);

enum act_result act_travel(struct game *g, int x, int y);

enum act_result act_travel_step(struct game *g);

/* Travels to (x, y) until travel stops; returns the number of acts. */
int travel_all(struct game *g, int x, int y);

bool message_contains(const struct game *g, const char *needle);

#endif
