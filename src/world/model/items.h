/* items.h - item kinds and their knobs (the catalogue, levels/items.txt): classes, effects, parsing, --set. */
#ifndef ASTRAY_ITEMS_H
#define ASTRAY_ITEMS_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

#define ITEMS_MAX 48        /* kinds in a catalogue */
#define ITEM_ID_LEN 24      /* an id: letters, digits, - and _ (the ITEM of --set ITEM.KEY=VALUE) */
#define ITEM_NAME_LEN 40    /* the name the player reads once it is known ("potion of healing") */

/* An item's class: what its glyph on a map is and how it is used.  The
 * order is the level format's (level_item.kind) and must not change: new
 * classes go at the end.  The name item_kind is kept from the days when
 * a potion and gold were the only items. */
enum item_kind {
	ITEM_POTION,   /* '!' quaffed (q) */
	ITEM_GOLD,     /* '$' picked up into the purse */
	ITEM_SCROLL,   /* '?' read (a) */
	ITEM_WAND,     /* '/' zapped (z) in a direction or at a target */
	ITEM_WEAPON,   /* ')' wielded (w); a launcher fires (f) its ammunition */
	ITEM_ARMOUR,   /* '[' worn (W) */
	ITEM_AMMO,     /* '(' fired (f) from its launcher, or thrown (t) */
	ITEM_TOOL,     /* '}' applied (a): caltrops */
	ITEM_CLASS_COUNT
};

/* What using a kind does (the `effect` key). */
enum item_effect {
	EFFECT_NONE,      /* weapons, armour, ammunition, gold */
	EFFECT_HEAL,      /* + amount hp, up to the maximum */
	EFFECT_VIGOUR,    /* + amount to the maximum hp, and as much healed */
	EFFECT_SLEEP,     /* the drinker sleeps amount turns: the monsters act */
	EFFECT_POISON,    /* amount damage (never below 1 hp) */
	EFFECT_TELEPORT,  /* to a random free floor cell at least amount steps away (if any) */
	EFFECT_MAPPING,   /* the map within radius cells (0: the whole level) is learnt */
	EFFECT_NOISE,     /* a noise of loudness amount where the user stands */
	EFFECT_DIG,       /* walls along a line, up to range cells, become rubble */
	EFFECT_CALTROPS,  /* cells within radius cost monsters amount more to enter */
	EFFECT_COUNT
};

/* One kind.  Every numeric field is a key of the format (items.c's table). */
struct item_def {
	char id[ITEM_ID_LEN];     /* "healing" */
	char name[ITEM_NAME_LEN]; /* "potion of healing" */
	int cls;                  /* enum item_kind */
	int effect;               /* enum item_effect */
	int amount;               /* the effect's size (see enum item_effect) */
	int radius;               /* mapping, caltrops */
	int range;                /* wands, launchers, thrown ammunition: farthest reach in steps */
	int charges;              /* wands: zaps when found */
	int hit;                  /* weapons, launchers: percent points added to the chance to hit (may be negative) */
	int damage;               /* weapons: added to each melee hit; ammunition: a shot's damage */
	int armour;               /* armour: percent points off monsters' chance to hit */
	int noise;                /* armour: a step in it is a noise this loud (0 silent) */
	char ammo[ITEM_ID_LEN];   /* launchers: the id of the ammunition they fire ("" none) */
	int count;                /* ammunition, gold: how many a found pile holds */
	int brk;                  /* ammunition: percent chance a piece that hits a monster breaks (0 never) */
	int min_depth, max_depth; /* generated on levels min_depth..max_depth (1-based) */
	int freq;                 /* relative frequency among its class (0: never generated) */
};

struct item_catalogue {
	struct item_def kinds[ITEMS_MAX];
	int n;
};

/* The glyph of a class on maps ('!'), and the class of a glyph (-1 none). */
char item_class_glyph(int cls);
int item_class_of_glyph(char glyph);
/* "potion", "scroll"...; "?" out of range. */
const char *item_class_name(int cls);

/* The built-in catalogue (the one levels/items.txt writes out): used when
 * no items.txt is found, and by tests. */
void items_default(struct item_catalogue *out);

/* Parses catalogue text; errors go to diags as file:line:col.  True when
 * there were none. */
bool items_parse(const char *file, const char *text, size_t len, struct item_catalogue *out,
		 struct diag_list *diags);

/* The kind with this id, or -1. */
int items_find(const struct item_catalogue *c, const char *id, size_t len);

/* Applies "ITEM.KEY=VALUE".  Returns false with a message when the item,
 * key or value is wrong (the item unknown: *unknown_item set, so a caller
 * may try another table). */
bool items_set(struct item_catalogue *c, const char *assignment, bool *unknown_item, char *err, size_t errlen);

/* The catalogue as text items_parse reads back to an equal catalogue:
 * every key of every kind.  As snprintf: the length of the whole text. */
size_t items_describe(const struct item_catalogue *c, char *buf, size_t size);

/* Reads and parses a catalogue file. */
bool items_load_file(const char *path, struct item_catalogue *out, struct diag_list *diags);

/* The documented keys (for FORMAT.md and the tests). */
struct items_key_doc {
	const char *key;
	const char *def;
	const char *doc;
};
const struct items_key_doc *items_keys(int *count);

#endif
