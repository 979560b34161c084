/* bestiary.h - monster kinds and their tuning knobs, read from levels/bestiary.txt. */
#ifndef ASTRAY_BESTIARY_H
#define ASTRAY_BESTIARY_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "items.h"

#define BESTIARY_MAX_KINDS 52 /* one per letter a-z A-Z */

/* One monster kind.  Every numeric field is a key of the file format; the
 * table of keys in bestiary.c gives each its default, range and meaning. */
struct monster_kind {
	char glyph;          /* the letter on the map */
	char name[32];       /* "goblin"; also the KIND of --set KIND.KEY=VALUE */
	char about[80];      /* one line for the player: how it hunts ("hunts in packs, fast"); "" none */
	int hp;              /* hit points */
	int damage;          /* damage per hit */
	int speed;           /* energy per turn; 100 acts once a turn */
	int sight;           /* sight radius in cells; 0 never sees */
	/* AI knobs (docs/ai.md explains each) */
	int memory;          /* turns it keeps hunting the last seen position */
	double weight;       /* heuristic weight of its searches (1 = exact A*) */
	double penalty;      /* fallback penalty P; 0 = automatic (unbounded detours) */
	int crowd;           /* extra cost of entering a cell held by another monster */
	int repath;          /* recompute the route every N turns (or at once when blocked) */
	long budget;         /* maximum expansions per search; 0 = unlimited */
	int lookahead;       /* large levels: how far a crowd detour looks, in units of the steps it walks */
	double flee;         /* below this fraction of its hp it runs away; 0 = never */
	int behaviour;       /* enum mind_kind: how it hunts (docs/ai.md, "Minds") */
	/* the ranged mind (docs/ai.md, "Mind: ranged"); other minds never shoot */
	int range;           /* farthest it shoots, in steps (the sight rule's distance); 0 = never shoots */
	int keep;            /* backs off while the player could reach it in fewer turns than this */
	int reload;          /* its own actions after a shot before it may shoot again; 0 = every action */
	/* noise, sleep and wandering (docs/ai.md); the defaults change nothing */
	int scent;           /* track mind: turns a trail stays fresh to it; 0 = does not track */
	int sleep;           /* chance in percent that it starts the level asleep */
	int wander;          /* 1: awake and unaware, it walks between random cells; 0: it waits */
	double dig;          /* MIND_DIG: extra cost its plans give each wall it would dig, in steps (the fallback's P); 0 = does not dig */
	int dig_turns;       /* MIND_DIG: turns of work that turn one wall into rubble */
	int pack;            /* pack mind: cells from the player within which a member takes a post around it */
	int ambush;          /* ambush mind: cells from the player at which a waiting ambusher strikes */
	/* combat and growth (docs/play.md, "Fighting") */
	int hit;             /* chance in percent that its blow or shot hits an unarmoured player */
	int evade;           /* percent points taken from the player's chance to hit it */
	int xp;              /* experience the player gains for killing it; 0 = hp / 2 + 2 x damage */
	int heal;            /* it regains 1 hp every this many turns; 0 = the rules' heal */
	int swarm;           /* swarm mind: members near the player before they rush it together */
	int gather;          /* swarm mind: the player's turns of distance at which members hold while too few */
	int patience;        /* swarm mind: its own actions a member holds near the player before it rushes alone;
	                        ranged mind: its back-offs in a row before it stands while pressed; 0 never */
	int breed;           /* breed mind: its own actions out of the player's sight before it buds; 0 = never */
	int breed_max;       /* breed mind: the most of this kind the level may ever hold (the slain count) */
	/* crowds (docs/ai.md, "Crowds: priority passing"), the `pass` crowd rule */
	int swap;            /* 1: a hunter may push it on along the field, or swap with it while it hunts nothing; 2: also push it aside; 0: never */
	int wait_detour;     /* actions without an improving step before it searches a detour around the crowd */
	int congestion;      /* hundredths of a step each other hunter that wants a cell adds to it, for this kind's choice */
};

/* Game-wide knobs that belong to no kind: the `rules:` block of the
 * bestiary file, set with --set rules.KEY=VALUE (docs/play.md explains
 * what each is for; the table in bestiary.c gives defaults and ranges). */
struct rule_knobs {
	int xp_base;         /* experience for level 2; level L needs xp_base * L * (L - 1) / 2 */
	int level_max;       /* the highest experience level */
	int level_hp;        /* max hp gained per level */
	int level_hit;       /* percent points of the chance to hit gained per level */
	int level_damage;    /* the player's damage rises by 1 every this many levels */
	int player_hit;      /* the player's chance to hit in percent at level 1, before equipment and evasion */
	int arrival;         /* wandering arrivals per 1000 turns as a level is entered; 0 = none */
	int arrival_ramp;    /* after this many turns on a level the arrival rate has grown by its start value */
	int arrival_max;     /* the most wandering monsters that arrive on one level */
	int heal;            /* monsters regain 1 hp every this many turns (a kind's heal overrides); 0 = never */
	int crowd;           /* enum crowd_rule: how hunters of the shared field move in a crowd (docs/ai.md) */
};
#define RULES_ARRIVAL_MAX 64 /* the highest arrival_max: monsters a level keeps room for */

/* How hunters that follow the shared distance field move in a crowd (the
 * rules' `crowd` key; docs/ai.md, "Crowds: priority passing"). */
enum crowd_rule {
	CROWD_DETOUR,        /* rules version 4: a held next cell makes it search a detour at once */
	CROWD_PASS,          /* priority passing: it pushes the crowd ahead along the field; detours only when walled in */
	CROWD_RULE_COUNT
};

/* How a kind hunts: its primary mind (the `behaviour` key; docs/ai.md).
 * Fleeing when hurt (the `flee` knob) combines with any of them.  The
 * order is the file format's list of names (bestiary_mind_name). */
enum mind_kind {
	MIND_CHASE,          /* the player, by the shortest route (the shared distance field) */
	MIND_PACK,           /* a free cell around the player, one per member, from different sides */
	MIND_RANGED,         /* a cell at a distance band that sees the player; shoots, backs off */
	MIND_DIG,            /* the player, through walls it digs into rubble */
	MIND_TRACK,          /* the player's scent trail or the last noise, when it lost sight */
	MIND_AMBUSH,         /* waits out of sight at a chokepoint of the player's way to the stairs */
	MIND_SWARM,          /* holds back out of reach until enough are near, then rushes together */
	MIND_BREED,          /* buds off another of its kind while the player does not see it */
	MIND_COUNT
};

/* The file format's name of a mind ("chase"), or "?" out of range. */
const char *bestiary_mind_name(int mind);

struct bestiary {
	struct monster_kind kinds[BESTIARY_MAX_KINDS];
	int n;
	struct rule_knobs rules; /* the `rules:` block (every knob at its default when the file has none) */
	/* The item catalogue that goes with it (items.h): the built-in one
	 * after bestiary_parse, the items.txt beside the file after
	 * bestiary_load_file; --set reaches both. */
	struct item_catalogue items;
};

/* Every rule knob at its default (a bestiary made without a file). */
void bestiary_rules_defaults(struct rule_knobs *r);

/* The experience worth of killing a monster of kind k (its xp key, or
 * the default made from its hp and damage). */
int bestiary_xp_worth(const struct monster_kind *k);

/* Parses bestiary text from memory.  Errors go to diags as file:line:col.
 * Returns true when there were no errors. */
bool bestiary_parse(const char *file, const char *text, size_t len, struct bestiary *out,
		    struct diag_list *diags);

/* The kind with this glyph or name, or NULL. */
const struct monster_kind *bestiary_find_glyph(const struct bestiary *b, char glyph);
struct monster_kind *bestiary_find_name(struct bestiary *b, const char *name);

/* Applies "KIND.KEY=VALUE" or "rules.KEY=VALUE" (the --set option); a KIND
 * that is no monster kind but an item id of b->items sets the item's key
 * (items_set).  On failure returns false and
 * writes a message naming the unknown kind, key or bad value into err. */
bool bestiary_set(struct bestiary *b, const char *assignment, char *err, size_t errlen);

/* How a key's value is read. */
enum bestiary_key_type { BKEY_GLYPH, BKEY_NAME, BKEY_INT, BKEY_LONG, BKEY_DOUBLE, BKEY_ENUM, BKEY_TEXT };

/* The documented keys: name, default and effect, for --help and FORMAT.md.
 * Each row is also how the key is parsed: its type, where it goes in
 * struct monster_kind, and its allowed range.  A new key is one new row. */
struct bestiary_key_doc {
	const char *key;
	const char *def;     /* default, as written in the file; NULL = required */
	const char *doc;
	enum bestiary_key_type type;
	size_t offset;       /* offsetof(struct monster_kind, field) */
	double min, max;     /* allowed range of numeric values (BKEY_ENUM: indices into names) */
	const char *const *names; /* BKEY_ENUM: the accepted words, NULL-terminated; stored as an int index */
};
const struct bestiary_key_doc *bestiary_keys(int *count);
/* The keys of the `rules:` block (offsets into struct rule_knobs). */
const struct bestiary_key_doc *bestiary_rule_keys(int *count);

/* What the kinds are, whatever file and overrides made them: one line a
 * kind, every key of the table in its order ("kind goblin glyph g hp 5
 * ..."), so two bestiaries that play alike give the same text and a new
 * key is in it with no other change.  Writes at most size bytes with a
 * terminating NUL (as snprintf) and returns the length of the whole text. */
size_t bestiary_describe(const struct bestiary *b, char *buf, size_t size);

/* Reads and parses a bestiary file.  A file that cannot be read is an
 * error in diags naming it.  Returns true when there were no errors. */
bool bestiary_load_file(const char *path, struct bestiary *out, struct diag_list *diags);

/*
 * Where the default bestiary is: `bestiary.txt` beside `near` (a level file
 * or folder; may be NULL), else levels/bestiary.txt when the current
 * folder is astray's source tree (bestiary_in_source_tree), else the
 * installed one (ASTRAY_DATADIR/levels/bestiary.txt).  Writes the first
 * that exists (readable or not: loading it says why not) into buf and
 * returns buf, or NULL.
 */
const char *bestiary_default_path(const char *near, char *buf, size_t size);

/* Whether the current folder is astray's source tree (it holds
 * src/cli/main.c and levels/): only there does `levels/` mean the
 * campaign; an installed astray elsewhere plays its installed one. */
bool bestiary_in_source_tree(void);

/* The commands load the default bestiary through cli.h's
 * cli_bestiary_load, which also looks in the levels the program came
 * with. */

#endif
