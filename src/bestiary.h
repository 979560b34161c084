/* bestiary.h - monster kinds and their tuning knobs, read from levels/bestiary.txt. */
#ifndef ASTRAY_BESTIARY_H
#define ASTRAY_BESTIARY_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

#define BESTIARY_MAX_KINDS 52 /* one per letter a-z A-Z */

/* One monster kind.  Every numeric field is a key of the file format; the
 * table of keys in bestiary.c gives each its default, range and meaning. */
struct monster_kind {
	char glyph;          /* the letter on the map */
	char name[32];       /* "goblin"; also the KIND of --set KIND.KEY=VALUE */
	int hp;              /* hit points */
	int damage;          /* damage per hit */
	int speed;           /* energy per turn; 100 acts once a turn */
	int sight;           /* sight radius in cells; 0 never sees */
	/* AI knobs (DESIGN / issue 5) */
	int memory;          /* turns it keeps hunting the last seen position */
	double weight;       /* heuristic weight of its searches (1 = exact A*) */
	double penalty;      /* fallback penalty P; 0 = automatic (unbounded detours) */
	int crowd;           /* extra cost of entering a cell held by another monster */
	int repath;          /* recompute the route every N turns (or at once when blocked) */
	long budget;         /* maximum expansions per search; 0 = unlimited */
	double flee;         /* below this fraction of its hp it runs away; 0 = never */
};

struct bestiary {
	struct monster_kind kinds[BESTIARY_MAX_KINDS];
	int n;
};

/* Parses bestiary text from memory.  Errors go to diags as file:line:col.
 * Returns true when there were no errors. */
bool bestiary_parse(const char *file, const char *text, size_t len, struct bestiary *out,
		    struct diag_list *diags);

/* The kind with this glyph or name, or NULL. */
const struct monster_kind *bestiary_find_glyph(const struct bestiary *b, char glyph);
struct monster_kind *bestiary_find_name(struct bestiary *b, const char *name);

/* Applies "KIND.KEY=VALUE" (the --set option).  On failure returns false and
 * writes a message naming the unknown kind, key or bad value into err. */
bool bestiary_set(struct bestiary *b, const char *assignment, char *err, size_t errlen);

/* The documented keys: name, default and effect, for --help and FORMAT.md. */
struct bestiary_key_doc {
	const char *key;
	const char *def;
	const char *doc;
};
const struct bestiary_key_doc *bestiary_keys(int *count);

#endif
