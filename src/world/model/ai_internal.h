/* ai_internal.h - what ai.c (the chase rule, perception, search sharing) and the minds' files (mind_*.c) share; for no other file. */
#ifndef ASTRAY_AI_INTERNAL_H
#define ASTRAY_AI_INTERNAL_H

#include "ai.h"

/*
 * A mind other than chase (enum mind_kind, bestiary.h): decides monster
 * `self`'s action into *d and returns true, or returns false to leave it
 * to the chase rule (toward mi->target_x/y while mi->hunting, else wait).
 * `sees`: it sees the player now (perception ran; mi->target is set).  It
 * runs after the flee check: a fleeing monster never gets here.  Reads
 * the game only through v; keeps its own memory in mi (post, timer and
 * the route) or in struct ai.
 */
typedef bool (*ai_mind_fn)(struct ai *ai, const struct ai_view *v, int self, struct mind *mi, bool sees,
			   struct ai_decision *d);

/* ---- ai.c's helpers for the minds ---- */

int ai_monster_cell(const struct ai_view *v, const struct monster *m);
int ai_player_cell(const struct ai_view *v);

/* The movement rule of the game: adjacent, passable, no corner cutting. */
bool ai_can_step(const struct grid *g, int from, int to);

/* Whether monster m sees the player (its sight knob, line of sight). */
bool ai_sees_player(const struct ai *ai, const struct ai_view *v, const struct monster *m);

/* The next cell of m's route toward `goal` under the chase rule's
 * planning (its knobs, crowd detours, route kept while valid), or -1 to
 * wait.  The caller that steps to it must advance mi->route_pos. */
int ai_next_step(struct ai *ai, const struct ai_view *v, const struct monster *m, struct mind *mi, int goal);

/* ---- the minds (mind_*.c) ---- */

/* mind_ranged.c: keeps a band of distance with a line of sight, shoots, backs off. */
bool ai_mind_ranged(struct ai *ai, const struct ai_view *v, int self, struct mind *mi, bool sees,
		    struct ai_decision *d);
/* Its per-level buffers (struct ai's `ranged`): the player's turn map and
 * the firing-spot search; NULL on no memory.  _destroy(NULL) does nothing. */
struct ranged_map *ranged_map_create(const struct grid *g);
void ranged_map_destroy(struct ranged_map *rm);
/* A new game turn: the player's turn map is made again when next needed. */
void ranged_map_forget(struct ranged_map *rm);

/* Counts a flood of a mind's own in ai->stats (searches, expanded,
 * search_us, on_search): `expanded` the cells it settled. */
void ai_count_flood(struct ai *ai, long expanded, double us);

/* Counts a search of a mind's own in ai->stats (searches, expansions,
 * time, fallbacks, budget hits), as the chase rule's are counted. */
void ai_count_search(struct ai *ai, const struct path_result *r, double us);

/* The crowd costs (path_options.extra) with `value` on every cell another
 * monster holds, as the chase rule's crowd detours use them. */
const uint16_t *ai_crowd(struct ai *ai, const struct ai_view *v, int value);

struct ai_decision ai_wait(void);
struct ai_decision ai_step(int cell);
struct ai_decision ai_attack(int cell);

/* ---- the minds (one file each) ---- */

/* mind_track.c: follows the player's scent trail (docs/ai.md, "Mind: track"). */
bool ai_mind_track(struct ai *ai, const struct ai_view *v, int self, struct mind *mi, bool sees,
		   struct ai_decision *d);

/* mind_dig.c: through walls, digging the first of its route into rubble. */
bool ai_mind_dig(struct ai *ai, const struct ai_view *v, int self, struct mind *mi, bool sees,
		 struct ai_decision *d);

#endif
