/* dungeon.h - a dungeon run: a list of generated levels, a pure function of (seed, number of levels). */
#ifndef ASTRAY_DUNGEON_H
#define ASTRAY_DUNGEON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bestiary.h"
#include "gen.h"
#include "level.h"

#define DUNGEON_DEFAULT_LEVELS 10    /* a full run */
#define DUNGEON_MAX_LEVELS GEN_MAX_DEPTH

/*
 * The choices a dungeon makes per level, from its own random stream (never
 * the game's, so what the player does cannot change the dungeon): the
 * topology (from a table in dungeon.c; never the same twice in a row when
 * the table has more than one), the size (larger classes open up with
 * depth; every size fits an 80x24 terminal with the game's three text
 * rows), and the generator seed.  The style is GEN_STYLE_MIXED: gen picks
 * rooms or caves from the level's seed.  The generator's depth is the
 * level's place in the run (1 first), so monsters grow in number and kind.
 */
bool dungeon_plan(uint64_t seed, int n_levels, struct gen_params *out /* n_levels */);

struct dungeon {
	uint64_t seed;              /* the dungeon seed: the same seed, the same levels */
	int n;                      /* levels */
	struct gen_params *params;  /* n: what made each level (bestiary pointer cleared) */
	char **texts;               /* n: each level's .lvl text, NUL-terminated */
	struct level **levels;      /* n: the levels, parsed back from texts */
};

/*
 * Generates every level of the dungeon `seed` with n_levels levels
 * (1 to DUNGEON_MAX_LEVELS).  `b` (may be NULL) is handed to gen: kinds
 * whose letter it lacks are left out, so each level parses with it.  On
 * bad arguments, no memory or a generator failure returns false with a
 * message in err, and *out holds nothing to free.
 */
bool dungeon_create(uint64_t seed, int n_levels, const struct bestiary *b, struct dungeon *out,
		    char *err, size_t errlen);

void dungeon_fini(struct dungeon *d); /* a zeroed dungeon does nothing; fields set to zero */

/*
 * A level's text (texts[i]) as the dungeon plays it: dungeon_create drops
 * gen's designer description from the level (the player is told the
 * level's place in the run instead), so a journal must hold the text
 * without it, or the replay would say another first message.  A malloc'd
 * copy, or NULL when out of memory.  (play --dungeon and sim --dungeon
 * --record journal these.)
 */
char *dungeon_played_text(const char *text, size_t *len);

#endif
