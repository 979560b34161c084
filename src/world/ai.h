/* ai.h - monster minds: perceive, remember, choose a target, step along a path, with tuning knobs. */
#ifndef ASTRAY_AI_H
#define ASTRAY_AI_H

struct game;
struct monster;

/* One monster's turn: perceive, update its mind, then move, attack, wait or flee. */
void ai_monster_turn(struct game *g, struct monster *m);

/* Frees what the mind holds (its route).  Routes live in the game's
 * per-level buffer, so this only forgets the route. */
void ai_mind_fini(struct monster *m);

/* Once per game turn before any monster acts: counts the hunters that may
 * share a flood this turn (the choice depends on counts, never on time). */
void ai_turn_begin(struct game *g);

/* Forgets the shared flood (a new level, or the map changed). */
void ai_level_begin(struct game *g);

#endif
