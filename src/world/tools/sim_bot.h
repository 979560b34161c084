/* sim_bot.h - sim's `bot` player: a careful player of whole dungeons that acts only through game_act and knows only what the player knows. */
#ifndef ASTRAY_SIM_BOT_H
#define ASTRAY_SIM_BOT_H

#include "game.h"

/* The bot's memory between its actions (per game) and its scratch. */
struct sim_bot;

struct sim_bot *sim_bot_create(void);   /* NULL on no memory */
void sim_bot_destroy(struct sim_bot *b); /* NULL does nothing */

/* Forgets the previous game: call before each game's first action. */
void sim_bot_begin(struct sim_bot *b);

/*
 * The bot's next action on g, made as a person would from what the
 * player can know (the cells it sees and remembers, the monsters in view,
 * its pack and hit points), never the monsters it cannot see.  It never
 * changes g; the caller carries the action out with game_act.  The same
 * game state gives the same action (no randomness of its own).
 */
struct action sim_bot_decide(struct sim_bot *b, struct game *g);

/* Why the bot made its last decision, in a few words ("strike", "wait for them"), for tracing. */
const char *sim_bot_why(const struct sim_bot *b);

#endif
