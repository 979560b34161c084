/* game_internal.h - what the rules (game.c), the activities (game_travel.c) and the state table (game_state.c) share; nothing outside them includes it. */
#ifndef ASTRAY_GAME_INTERNAL_H
#define ASTRAY_GAME_INTERNAL_H

#include "game.h"

static inline int cell_of(const struct game *g, int x, int y) { return grid_index(g->grid, x, y); }

static inline int player_cell(const struct game *g) { return cell_of(g, g->player.x, g->player.y); }

/* ---- game.c ---- */

/* Loads levels[depth] into the play state (freeing the previous level's);
 * false on no memory (the game must then end). */
bool game_level_load(struct game *g, int depth);

/* The grid's entering costs made again from tiles[] (a state was loaded),
 * and the AI's maps of them; false on no memory. */
bool game_grid_from_tiles(struct game *g);

/* Distance in steps from monster i to the player. */
int game_monster_distance(const struct game *g, int i);

/* The player enters `to` (a legal, unoccupied step): doors, pick-ups,
 * the stairs' message.  Returns the energy it costs; *res RESULT_ACTED. */
int game_player_enter(struct game *g, int to, enum act_result *res);

/* ---- game_travel.c: each returns the energy spent (0: no time) ---- */

int game_travel_start(struct game *g, int x, int y, enum act_result *res); /* ACT_TRAVEL */
int game_travel_step(struct game *g, enum act_result *res);                /* ACT_TRAVEL_STEP */
int game_rest_start(struct game *g, enum act_result *res);                 /* ACT_REST */
int game_explore_start(struct game *g, enum act_result *res);              /* ACT_EXPLORE */
/* ACT_RUN: -1 and *moved false when the first step is not open (the
 * caller then makes it a plain move: bump, attack, door). */
int game_run_start(struct game *g, enum grid_dir dir, enum act_result *res, bool *moved);

/* After the monsters acted: whether the current activity stops, and why
 * (damage0, gold0, potions0: the player's before the action). */
void game_activity_check(struct game *g, long damage0, int gold0, int potions0);

#endif
