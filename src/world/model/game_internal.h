/* game_internal.h - what the rules (game.c), the activities (game_travel.c) and the state table (game_state.c) share; nothing outside them includes it. */
#ifndef ASTRAY_GAME_INTERNAL_H
#define ASTRAY_GAME_INTERNAL_H

#include "game.h"

static inline int cell_of(const struct game *g, int x, int y) { return grid_index(g->grid, x, y); }

static inline int player_cell(const struct game *g) { return cell_of(g, g->player.x, g->player.y); }
/* Cell `cell` of per-cell map m was written (cellmark.h): every write of a
 * map in enum game_map calls it, or the test build's hash check fails. */
static inline void game_mark(struct game *g, enum game_map m, int cell)
{
	cellmark_set(&g->marks[m], cell);
	g->level_fresh = false;
}

/* ---- game_state.c ---- */

/* Map `which` (cells of `size` bytes) holds `value` in every cell of every
 * block not marked since it was set up: each such block's hash is set from
 * that value without reading its cells, and the block is clean.
 * game_level_load calls it for the maps it fills with one value, so the
 * first hash after a load reads only the blocks the level or the load wrote
 * (on 4096x4096, 215 MB of cells read down to the tiles, opacity and
 * items). */
void game_map_uniform(struct game *g, enum game_map which, int size, long long value);

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

/* A noise of loudness `loud` at `cell`; source: the monster that made it, -1 the player. */
void game_make_noise(struct game *g, int cell, int loud, int source);

/* The tile at `cell` is now t: the grid's cost (with the cell's hazard),
 * the opacity and the AI's maps follow. */
void game_tile_set(struct game *g, int cell, enum tile t);

/* Monster m dies (it is taken off the map). */
void game_monster_dies(struct game *g, struct monster *m);

/* The player gains xp experience points, rising a level (or more) when
 * it reaches the next threshold (a message each). */
void game_gain_xp(struct game *g, int xp);

/* The entering cost of a cell: its tile's, plus the hazard laid there
 * (caltrops) when the tile can be entered at all; at most 255. */
static inline uint8_t game_cell_cost(const struct game *g, int cell)
{
	int c = tile_info((enum tile)g->tiles[cell])->cost;
	if (c > 0 && g->hazard)
		c += g->hazard[cell];
	return (uint8_t)(c > 255 ? 255 : c);
}

/* ---- game_items.c ---- */

void game_items_init(struct game *g);            /* a new game: empty pack, the looks of unknown kinds */
void game_items_place(struct game *g);           /* the level's items, their kinds drawn by class */
void game_item_step_on(struct game *g, int cell);/* the player entered cell: picks up what it may */
void game_item_moved(struct game *g);            /* the player moved: loud armour is heard */
/* The item actions (ACT_QUAFF, ACT_PICKUP ... ACT_CLOSE): energy spent, 0 none. */
int game_item_act(struct game *g, const struct action *a, enum act_result *res);

/* ---- game_travel.c: each returns the energy spent (0: no time) ---- */

int game_travel_start(struct game *g, int x, int y, enum act_result *res); /* ACT_TRAVEL */
int game_travel_step(struct game *g, enum act_result *res);                /* ACT_TRAVEL_STEP */
/* The dead-end trees of known[] (game_travel.c): game_trees_start peels
 * them in a thread of their own when much of the map was learnt at once
 * (on a level larger than a plan searches whole), so that the first far
 * click finds them made; game_trees_drop waits for that thread and
 * forgets its work (a restore, a new level, the end). */
void game_trees_start(struct game *g);
void game_trees_drop(struct game *g);
/* The side search's context made resident (for a person, on a level larger
 * than a plan searches whole, with a second core), and freed (a level's
 * end). */
void game_side_prefault(struct game *g);
void game_side_free(struct game *g);
/* For a person, at a level's start: on a level larger than a plan searches
 * whole, the trees and labels of known[] as a map of the level would leave
 * it, made in a thread, for game_trees_start to take when a map learnt
 * makes known[] exactly so. */
void game_trees_ahead(struct game *g);
/* At the end of a turn: while a large maze's trees are followed (the last
 * peeling kept them), a known[] the turn changed is peeled again in the
 * thread. */
void game_trees_follow(struct game *g);
int game_rest_start(struct game *g, enum act_result *res);                 /* ACT_REST */
int game_explore_start(struct game *g, enum act_result *res);              /* ACT_EXPLORE */
/* ACT_RUN: -1 and *moved false when the first step is not open (the
 * caller then makes it a plain move: bump, attack, door). */
int game_run_start(struct game *g, enum grid_dir dir, enum act_result *res, bool *moved);

/* known[cell] just changed from `old`: counts the change (known_version)
 * and keeps the click fallback's labels of known[] up to date. */
void game_known_changed(struct game *g, int cell, uint8_t old);
/* The player's distance map (game_travel.c): the travel cost over known[]
 * from the cell it was last made from to `cell`, when the flood settled
 * it (at most REACH_COST); a negative value otherwise, or before the first
 * preview or plan made it.  For the tests, which hold it to a flood of
 * the whole level. */
double game_reach_distance(const struct game *g, int cell);
/* Makes room for a travel route of `len` cells in g->travel.cells (made on
 * the first route, grown as needed: 4 bytes a cell that a game without
 * travel never needs); false without memory. */
bool game_travel_room(struct game *g, int len);

/* After the monsters acted: whether the current activity stops, and why
 * (damage0, gold0, potions0: the player's before the action). */
void game_activity_check(struct game *g, long damage0, int gold0, int potions0);

#endif
