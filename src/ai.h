/* ai.h - monster minds: perceive, remember, choose a target, step along a path, with tuning knobs. */
#ifndef ASTRAY_AI_H
#define ASTRAY_AI_H

struct game;
struct monster;

/* One monster's turn: perceive, update its mind, then move, attack, wait or flee. */
void ai_monster_turn(struct game *g, struct monster *m);

/* Frees what the mind holds (its route). */
void ai_mind_fini(struct monster *m);

#endif
