/* scores.h - the high-score list: sorted entries in the data folder, written atomically under a lock. */
#ifndef ASTRAY_SCORES_H
#define ASTRAY_SCORES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "savefile.h"

#define SCORES_MAX 100               /* entries kept */
#define SCORES_FILE "scores.txt"     /* in the data folder */
#define SCORES_LOCK "scores.lock"    /* held while the list is read, merged and replaced */
#define SCORES_CAUSE_LEN 96

struct score_entry {
	long score;                      /* scores_value */
	int depth;                       /* deepest level reached, 1-based */
	int turns;                       /* game turns */
	char outcome[8];                 /* "won", "died" or "quit" */
	char cause[SCORES_CAUSE_LEN];    /* "killed by a goblin", "escaped the dungeon", "left on level 2" */
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

/* An entry for a game that ended (or was left) at `date`. */
void scores_entry_from_game(const struct game *g, long long date, struct score_entry *e);

/* The order of the list: higher score, then fewer turns, then earlier date, then smaller seed. */
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
 * holds it), reads the list, merges, keeps the best SCORES_MAX and replaces
 * the file atomically.  A damaged list is kept as scores.txt.damaged-N and
 * a new one started from its good entries (aside gets that name; otherwise
 * it is set to "").
 * *rank (may be NULL) gets the entry's 1-based place, or 0 when it did not
 * make the list.  False with a message on failure (the old list is intact).
 */
bool scores_add(const char *dir, const struct score_entry *e, const struct savefile_io *io, int *rank,
		char *aside, size_t aside_size, char *err, size_t errlen);

void scores_fini(struct score_list *l); /* a zeroed list does nothing */

#endif
