/* scores.h - the high-score list: sorted entries in the data folder, written atomically under a lock. */
#ifndef ASTRAY_SCORES_H
#define ASTRAY_SCORES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "savefile.h"

#define SCORES_MAX 100               /* entries kept in each list (each mode) */
#define SCORES_FILE "scores.txt"     /* in the data folder */
#define SCORES_LOCK "scores.lock"    /* held while the list is read, merged and replaced */
#define SCORES_CAUSE_LEN 96
#define SCORES_MODE_LEN 24
#define SCORES_UNKNOWN "unknown"     /* the mode of an entry from a list of format 1, which did not record it */

struct score_entry {
	long score;                      /* scores_value */
	int depth;                       /* deepest level reached, 1-based */
	int turns;                       /* game turns */
	char outcome[8];                 /* "won", "died" or "quit" */
	char cause[SCORES_CAUSE_LEN];    /* "killed by a goblin", "escaped the dungeon", "left on level 2" */
	char mode[SCORES_MODE_LEN];      /* the list it is on: "campaign", "dungeon-10" (a dungeon of 10
	                                    levels) or SCORES_UNKNOWN; letters, digits and '-' */
	uint64_t seed;
	long long date;                  /* seconds since 1970 (UTC) when the game ended */
};

struct score_list {
	struct score_entry *v;           /* best first */
	int n;
	int skipped;                     /* malformed entry lines left out (scores_parse) */
};

/* The score of a game: gold + 50 per kill + 100 per level left behind + 500 for winning. */
long scores_value(int gold, int kills, int levels_done, bool won);

/* An entry for a game that ended (or was left) at `date`; its mode is
 * SCORES_UNKNOWN until the caller, who knows what was played, names it
 * (scores_mode). */
void scores_entry_from_game(const struct game *g, long long date, struct score_entry *e);

/* The mode of a game: "campaign", or "dungeon-N" for a generated dungeon
 * of n_levels levels. */
void scores_mode(bool dungeon, int n_levels, char *mode, size_t size);

/* The words for a mode, for the player: "the campaign", "dungeons of 10
 * levels", "games from before the lists by mode" (SCORES_UNKNOWN). */
void scores_mode_title(const char *mode, char *buf, size_t size);

/* Whether `text` (n bytes) is a mode the file format accepts: 1 to
 * SCORES_MODE_LEN - 1 letters, digits and '-'. */
bool scores_mode_valid(const char *text, size_t n);

/*
 * The lists of l, one per mode, in the order they are shown: the campaign,
 * then dungeons by their number of levels, then other modes by name, then
 * SCORES_UNKNOWN.  Writes at most max modes and returns how many.
 */
int scores_modes(const struct score_list *l, char (*modes)[SCORES_MODE_LEN], int max);

/* The order of a list: wins above everything else, then higher score,
 * then fewer turns, then earlier date, then smaller seed.  Entries of
 * different modes compare by mode first (each mode is a list of its own). */
int scores_compare(const struct score_entry *a, const struct score_entry *b);

/* Parses the file text.  False with "name:line: message" on anything
 * malformed; then out still holds every well-formed entry, and skipped
 * counts the malformed entry lines (a file without the header holds none). */
bool scores_parse(const char *name, const char *text, size_t len, struct score_list *out, char *err, size_t errlen);
/* The file text of a list (NUL-terminated, caller frees); NULL on no memory. */
char *scores_format(const struct score_list *l, size_t *len);

/* Reads dir/scores.txt; a missing file is an empty list.  False with a
 * message when it cannot be read or parsed; a list with malformed lines
 * still gives its good entries in out (out->skipped says how many lines
 * were left out). */
bool scores_load(const char *dir, struct score_list *out, char *err, size_t errlen);

/*
 * Adds e to dir/scores.txt: takes the lock (waiting for another game that
 * holds it), reads the list, merges, keeps the best SCORES_MAX of each mode
 * and replaces the file atomically (in format 2: a list of format 1 is
 * read, its entries kept as mode SCORES_UNKNOWN).  A damaged list is kept as scores.txt.damaged-N and
 * a new one started from its good entries (aside gets that name; otherwise
 * it is set to "").
 * *rank (may be NULL) gets the entry's 1-based place in its mode's list, or
 * 0 when it did not make the list.  False with a message on failure (the old list is intact).
 * An entry equal in every field to one already on the list (the same game,
 * scored again after a stop before its save was removed) is not added twice.
 */
bool scores_add(const char *dir, const struct score_entry *e, const struct savefile_io *io, int *rank,
		char *aside, size_t aside_size, char *err, size_t errlen);

void scores_fini(struct score_list *l); /* a zeroed list does nothing */

#endif
