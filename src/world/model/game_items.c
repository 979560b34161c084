/*
 * game_items.c - the rules of items: what lies on the level (its kinds
 * drawn by class from the catalogue), the pack and its letters, picking
 * up and dropping, unknown kinds and their looks, and every use: potions,
 * scrolls, wands, weapons and armour, shots and throws, caltrops, closing
 * doors.  game.c calls in through game_internal.h.
 *
 * Randomness: the kinds a level's class glyphs become are drawn from a
 * stream of their own seeded by the game's seed and the level, and the
 * looks of unknown kinds from another seeded by the game's seed, so
 * neither shifts the draws of the game's stream (monsters' sleep, combat).
 * What happens when an item is used (a shot's roll, where a teleport
 * lands) comes from the game's stream, at the action that uses it.
 */
#include "game_internal.h"

#include <stdio.h>
#include <string.h>

#include "fov.h"

static const char *const potion_looks[ITEM_LOOKS] = { "murky", "fizzy",    "golden", "cloudy", "bubbling", "milky",
						      "smoky", "violet",   "amber",  "inky",   "pearly",   "rusty" };
static const char *const scroll_looks[ITEM_LOOKS] = { "VORN EKT", "AZUL TIMO", "PREX",   "OLMA DUN",
						      "SEKRIT",   "NAVU",      "TARG LEX", "MIRVOS",
						      "QUELL",    "DABB ORIN", "ZUTH",     "ELKA WEN" };
static const char *const wand_looks[ITEM_LOOKS] = { "oak",   "bone", "iron",  "glass", "copper", "ebony",
						    "birch", "jade", "brass", "crystal", "willow", "tin" };

#define LOOKS_SALT 0x6c6f6f6b73ULL  /* "looks" */
#define PLACE_SALT 0x6974656d73ULL  /* "items" */

const struct item_def *game_item_def(const struct game *g, int kind)
{
	return kind >= 0 && kind < g->bestiary.items.n ? &g->bestiary.items.kinds[kind] : NULL;
}

static bool unknowable(int cls)
{
	return cls == ITEM_POTION || cls == ITEM_SCROLL || cls == ITEM_WAND;
}

static bool stacks(int cls)
{
	return cls == ITEM_POTION || cls == ITEM_SCROLL || cls == ITEM_AMMO || cls == ITEM_TOOL || cls == ITEM_GOLD;
}

void game_item_name(const struct game *g, int kind, int qty, char *buf, size_t size)
{
	const struct item_def *d = game_item_def(g, kind);
	if (!d) {
		snprintf(buf, size, "something");
		return;
	}
	char name[ITEM_NAME_LEN + 32];
	if (g->identified[kind] || !unknowable(d->cls)) {
		snprintf(name, sizeof name, "%s", d->name);
	} else {
		int look = g->looks[kind] % ITEM_LOOKS;
		if (d->cls == ITEM_POTION)
			snprintf(name, sizeof name, "%s potion", potion_looks[look]);
		else if (d->cls == ITEM_SCROLL)
			snprintf(name, sizeof name, "scroll labelled %s", scroll_looks[look]);
		else
			snprintf(name, sizeof name, "%s wand", wand_looks[look]);
	}
	if (d->cls == ITEM_WAND && g->identified[kind])
		snprintf(buf, size, "%s (%d charge%s)", name, qty, qty == 1 ? "" : "s");
	else if (d->cls == ITEM_GOLD)
		snprintf(buf, size, "gold");
	else if (stacks(d->cls) && qty > 1)
		snprintf(buf, size, "%s (x%d)", name, qty);
	else
		snprintf(buf, size, "%s %s", game_article(name), name);
}

/* "half the time", "1 time in 4", "25% of the time" for a percent. */
static void chance_words(int pct, char *buf, size_t size)
{
	if (pct >= 100)
		snprintf(buf, size, "every time");
	else if (pct == 50)
		snprintf(buf, size, "half the time");
	else if (pct > 0 && 100 % pct == 0)
		snprintf(buf, size, "1 time in %d", 100 / pct);
	else
		snprintf(buf, size, "%d%% of the time", pct);
}

/* The launchers (names joined by " or ") that fire ammunition kind `id`. */
static void launchers_of(const struct game *g, const char *id, char *buf, size_t size)
{
	const struct item_catalogue *c = &g->bestiary.items;
	size_t n = 0;
	buf[0] = '\0';
	for (int k = 0; k < c->n && n < size; k++) {
		const struct item_def *w = &c->kinds[k];
		if (w->cls != ITEM_WEAPON || strcmp(w->ammo, id) != 0)
			continue;
		int r = snprintf(buf + n, size - n, "%s%s", n ? " or " : "", w->name);
		if (r < 0)
			break;
		n += (size_t)r;
	}
}

/* A throw's to-hit chance and damage: half the kind's damage, at least 1. */
#define THROW_CHANCE 60
static int throw_damage(const struct item_def *d) { return d->damage / 2 > 0 ? d->damage / 2 : 1; }

/* How far a kind flies from the hand, in steps. */
static int throw_range(const struct item_def *d) { return d->range > 0 ? d->range : 1; }

void game_item_about(const struct game *g, int kind, char *buf, size_t size)
{
	const struct item_def *d = game_item_def(g, kind);
	if (!d || size == 0) {
		if (size)
			buf[0] = '\0';
		return;
	}
	if (unknowable(d->cls) && !g->identified[kind]) {
		snprintf(buf, size, "Unknown: %s it to learn what it is (and every %s of its look).",
			 d->cls == ITEM_POTION ? "drink" : d->cls == ITEM_SCROLL ? "read" : "zap",
			 d->cls == ITEM_POTION ? "potion" : d->cls == ITEM_SCROLL ? "scroll" : "wand");
		return;
	}
	char words[48], who[96];
	switch ((enum item_effect)d->effect) {
	case EFFECT_HEAL:
		snprintf(buf, size, "Drunk, it heals %d hp, up to your most.", d->amount);
		return;
	case EFFECT_VIGOUR:
		snprintf(buf, size, "Drunk, it raises your most hp by %d and heals as much.", d->amount);
		return;
	case EFFECT_SLEEP:
		snprintf(buf, size, "Drunk, it puts you to sleep for %d turns while the monsters act.", d->amount);
		return;
	case EFFECT_POISON:
		snprintf(buf, size, "Drunk, it takes %d hp (never below 1).", d->amount);
		return;
	case EFFECT_TELEPORT:
		snprintf(buf, size, "Read, it takes you to a free place at least %d steps away.", d->amount);
		return;
	case EFFECT_MAPPING:
		if (d->radius > 0)
			snprintf(buf, size, "Read, it shows you the map within %d cell%s.", d->radius,
				 d->radius == 1 ? "" : "s");
		else
			snprintf(buf, size, "Read, it shows you the whole level's map.");
		return;
	case EFFECT_NOISE:
		snprintf(buf, size, "Read, it makes a noise of loudness %d where you stand: monsters come.", d->amount);
		return;
	case EFFECT_DIG:
		snprintf(buf, size, "Zapped in a direction, it turns up to %d walls into rubble (not the map's edge "
			 "or %%-walls); routes change at once.", d->range > 0 ? d->range : 1);
		return;
	case EFFECT_CALTROPS:
		snprintf(buf, size, "Applied, caltrops strewn within %d cell%s make every route across them, "
			 "the monsters' and yours, cost %d more a cell.", d->radius, d->radius == 1 ? "" : "s", d->amount);
		return;
	case EFFECT_NONE:
	case EFFECT_COUNT:
		break;
	}
	switch (d->cls) {
	case ITEM_WEAPON:
		if (d->ammo[0]) {
			int a = items_find(&g->bestiary.items, d->ammo, strlen(d->ammo));
			const struct item_def *ad = game_item_def(g, a);
			snprintf(buf, size, "A launcher: wielded, f fires %s%s up to %d steps, to-hit %+d%%, damage %+d.",
				 ad ? ad->name : d->ammo, ad ? "s" : "", d->range, d->hit, d->damage);
		} else {
			snprintf(buf, size, "A weapon: wielded, your blows get to-hit %+d%%, damage %+d.", d->hit,
				 d->damage);
		}
		return;
	case ITEM_ARMOUR:
		snprintf(buf, size, "Armour: worn, it takes %d points off the monsters' chance to hit you%s.",
			 d->armour, d->noise > 0 ? "; loud: each step is a noise that wakes and draws monsters" : "");
		return;
	case ITEM_AMMO:
		launchers_of(g, d->id, who, sizeof who);
		chance_words(d->brk, words, sizeof words);
		/* fire's and throw_item's damage: the roll is (dmg + 1) / 2 to dmg */
		snprintf(buf, size, "Ammunition: fired from a %s (f) a hit does up to %d damage, thrown by hand (t, "
			 "up to %d steps) up to %d; a miss lands to be picked up again%s%s.",
			 who[0] ? who : "launcher", d->damage, throw_range(d), throw_damage(d),
			 d->brk > 0 ? ", one that hits breaks " : "",
			 d->brk > 0 ? words : "");
		return;
	case ITEM_GOLD:
		snprintf(buf, size, "Gold: counted in your score.");
		return;
	default:
		snprintf(buf, size, "%s", "");
		return;
	}
}

/* ---- the pack ---------------------------------------------------------- */

int game_pack_total(const struct game *g)
{
	int n = 0;
	for (int i = 0; i < PACK_SLOTS; i++)
		if (g->pack[i].kind >= 0)
			n += 1 + g->pack[i].qty;
	return n;
}

int game_pack_room(const struct game *g, int kind)
{
	const struct item_def *d = game_item_def(g, kind);
	if (!d)
		return -1;
	if (stacks(d->cls))
		for (int i = 0; i < PACK_SLOTS; i++)
			if (g->pack[i].kind == kind && g->pack[i].qty < 255)
				return i;
	for (int i = 0; i < PACK_SLOTS; i++)
		if (g->pack[i].kind < 0)
			return i;
	return -1;
}

bool game_item_wanted(const struct game *g, int cell)
{
	int k = g->items[cell] - 1;
	const struct item_def *d = game_item_def(g, k);
	return d && (d->cls == ITEM_GOLD || game_pack_room(g, k) >= 0);
}

/* The scripted players' count: potions of healing in the pack. */
static void count_potions(struct game *g)
{
	int n = 0;
	for (int i = 0; i < PACK_SLOTS; i++) {
		const struct item_def *d = game_item_def(g, g->pack[i].kind);
		if (d && d->cls == ITEM_POTION && d->effect == EFFECT_HEAL)
			n += g->pack[i].qty;
	}
	g->player.potions = n;
}

/* Takes one from slot s (a wand: the slot itself). */
static void slot_take_one(struct game *g, int s)
{
	struct pack_slot *p = &g->pack[s];
	const struct item_def *d = game_item_def(g, p->kind);
	if (d && d->cls != ITEM_WAND && p->qty > 1) {
		p->qty--;
	} else {
		p->kind = -1;
		p->qty = 0;
		if (g->wielded == s) {
			g->wielded = -1;
			g->player.hit_bonus = g->player.damage_bonus = 0;
		}
		if (g->worn == s) {
			g->worn = -1;
			g->player.armour = 0;
		}
	}
	count_potions(g);
}

/* ---- a new game and a new level ----------------------------------------- */

void game_items_init(struct game *g)
{
	for (int i = 0; i < PACK_SLOTS; i++)
		g->pack[i] = (struct pack_slot){ -1, 0 };
	g->wielded = g->worn = -1;
	const struct item_catalogue *c = &g->bestiary.items;
	struct rng r;
	rng_seed(&r, g->seed ^ LOOKS_SALT);
	for (int cls = 0; cls < ITEM_CLASS_COUNT; cls++) {
		if (!unknowable(cls))
			continue;
		int perm[ITEM_LOOKS];
		for (int i = 0; i < ITEM_LOOKS; i++)
			perm[i] = i;
		for (int i = ITEM_LOOKS - 1; i > 0; i--) {
			int j = rng_range(&r, 0, i);
			int t = perm[i];
			perm[i] = perm[j];
			perm[j] = t;
		}
		int next = 0;
		for (int k = 0; k < c->n; k++)
			if (c->kinds[k].cls == cls)
				g->looks[k] = (uint8_t)perm[next++ % ITEM_LOOKS];
	}
	for (int k = 0; k < c->n; k++)
		g->identified[k] = !unknowable(c->kinds[k].cls);
}

/* A kind of class cls for level `depth` (1-based): drawn by freq among the
 * kinds allowed there, else among all the class's generated kinds, else
 * the class's first kind; -1 when the catalogue has none. */
static int draw_kind(const struct game *g, struct rng *r, int cls, int depth)
{
	const struct item_catalogue *c = &g->bestiary.items;
	for (int pass = 0; pass < 2; pass++) {
		int total = 0;
		for (int k = 0; k < c->n; k++) {
			const struct item_def *d = &c->kinds[k];
			if (d->cls == cls && (pass || (depth >= d->min_depth && depth <= d->max_depth)))
				total += d->freq;
		}
		if (total <= 0)
			continue;
		int x = rng_range(r, 1, total);
		for (int k = 0; k < c->n; k++) {
			const struct item_def *d = &c->kinds[k];
			if (d->cls == cls && (pass || (depth >= d->min_depth && depth <= d->max_depth))) {
				x -= d->freq;
				if (x <= 0)
					return k;
			}
		}
	}
	for (int k = 0; k < c->n; k++)
		if (c->kinds[k].cls == cls)
			return k;
	return -1;
}

/* How many come in one found item of kind k: a pile of ammunition, a wand's charges. */
static int found_qty(const struct item_def *d)
{
	if (d->cls == ITEM_WAND)
		return d->charges;
	if (d->cls == ITEM_AMMO || d->cls == ITEM_TOOL)
		return d->count;
	return 1;
}

void game_items_place(struct game *g)
{
	const struct level *lv = game_level(g);
	struct rng r;
	rng_seed(&r, g->seed ^ PLACE_SALT ^ ((uint64_t)(g->depth + 1) * 0x9e3779b97f4a7c15ULL));
	for (int i = 0; i < lv->n_items; i++) {
		const struct level_item *it = &lv->items[i];
		if (!grid_in_bounds(g->grid, it->x, it->y))
			continue;
		int k = draw_kind(g, &r, (int)it->kind, g->depth + 1);
		if (k < 0 || k > 254)
			continue;
		int c = cell_of(g, it->x, it->y);
		g->items[c] = (uint8_t)(1 + k);
		int q = found_qty(&g->bestiary.items.kinds[k]);
		g->item_qty[c] = (uint8_t)(q > 255 ? 255 : q);
	}
}

/* ---- picking up and dropping --------------------------------------------- */

/* Puts the item lying on cell into the pack; false when it has no room. */
static bool pick_up(struct game *g, int cell)
{
	int k = g->items[cell] - 1;
	const struct item_def *d = game_item_def(g, k);
	if (!d)
		return false;
	if (d->cls == ITEM_GOLD) {
		int amount = rng_range(&g->rng, 10, 30);
		g->player.gold += amount;
		g->items[cell] = 0;
		g->item_qty[cell] = 0;
		game_mark(g, MAP_ITEMS, cell);
		game_mark(g, MAP_ITEM_QTY, cell);
		game_message_add(g, "You pick up %d gold (%d in all).", amount, g->player.gold);
		return true;
	}
	int s = game_pack_room(g, k);
	char name[GAME_MESSAGE_LEN / 2];
	game_item_name(g, k, g->item_qty[cell], name, sizeof name);
	if (s < 0) {
		game_message_add(g, "You see here %s; your pack is full (%d letters): drop something with d.", name,
				 PACK_SLOTS);
		return false;
	}
	struct pack_slot *p = &g->pack[s];
	int q = g->item_qty[cell] > 0 ? g->item_qty[cell] : 1;
	if (p->kind == k) {
		p->qty = p->qty + q > 255 ? 255 : p->qty + q;
	} else {
		p->kind = k;
		p->qty = q;
	}
	g->items[cell] = 0;
	g->item_qty[cell] = 0;
	game_mark(g, MAP_ITEMS, cell);
	game_mark(g, MAP_ITEM_QTY, cell);
	count_potions(g);
	game_item_name(g, k, p->qty, name, sizeof name); /* the whole stack now */
	const char *hint = d->cls == ITEM_POTION ? "q quaffs"
			 : d->cls == ITEM_SCROLL ? "a reads"
			 : d->cls == ITEM_WAND   ? "z zaps"
			 : d->cls == ITEM_WEAPON ? (d->ammo[0] ? "w wields, then f fires" : "w wields")
			 : d->cls == ITEM_ARMOUR ? "W wears"
			 : d->cls == ITEM_AMMO   ? "f fires it from its launcher, t throws"
						 : "a applies";
	game_message_add(g, "%c - %s (%s).", 'a' + s, name, hint);
	return true;
}

void game_item_step_on(struct game *g, int cell)
{
	if (g->items[cell])
		pick_up(g, cell);
}

/* A free cell for an item near `cell` (itself when free or holding the
 * same kind), -1 none: within two steps, in scan order. */
static int landing(const struct game *g, int cell, int kind)
{
	if (cell < 0)
		return -1;
	int x0 = grid_x(g->grid, cell), y0 = grid_y(g->grid, cell);
	for (int r = 0; r <= 2; r++)
		for (int y = y0 - r; y <= y0 + r; y++)
			for (int x = x0 - r; x <= x0 + r; x++) {
				if (!grid_in_bounds(g->grid, x, y))
					continue;
				int c = cell_of(g, x, y);
				if (grid_step_distance(g->grid, c, cell) != r || !grid_passable(g->grid, c))
					continue;
				if (!g->items[c] || (g->items[c] == 1 + kind && g->item_qty[c] < 255))
					return c;
			}
	return -1;
}

/* Lays qty of kind on cell (it must be a landing). */
static void lay(struct game *g, int cell, int kind, int qty)
{
	if (g->items[cell] == 1 + kind) {
		int q = g->item_qty[cell] + qty;
		g->item_qty[cell] = (uint8_t)(q > 255 ? 255 : q);
	} else {
		g->items[cell] = (uint8_t)(1 + kind);
		g->item_qty[cell] = (uint8_t)(qty > 255 ? 255 : qty);
	}
	game_mark(g, MAP_ITEMS, cell);
	game_mark(g, MAP_ITEM_QTY, cell);
}

/* ---- using ---------------------------------------------------------------- */

static void identify(struct game *g, int kind, const char *how)
{
	const struct item_def *d = game_item_def(g, kind);
	if (!d || g->identified[kind])
		return;
	g->identified[kind] = 1;
	game_message_add(g, "%s %s %s.", how, game_article(d->name), d->name);
}

/* A random free floor cell at least `away` steps from the player (any free one when none is), -1 none. */
static int teleport_cell(struct game *g, int away)
{
	int n = g->grid->w * g->grid->h, pc = player_cell(g);
	for (int pass = 0; pass < 2; pass++) {
		int count = 0;
		for (int c = 0; c < n; c++)
			if (c != pc && grid_passable(g->grid, c) && g->occupant[c] < 0 && g->tiles[c] != TILE_EXIT &&
			    (pass || grid_step_distance(g->grid, c, pc) >= away))
				count++;
		if (count == 0)
			continue;
		int pick = rng_range(&g->rng, 1, count);
		for (int c = 0; c < n; c++)
			if (c != pc && grid_passable(g->grid, c) && g->occupant[c] < 0 && g->tiles[c] != TILE_EXIT &&
			    (pass || grid_step_distance(g->grid, c, pc) >= away) && --pick == 0)
				return c;
	}
	return -1;
}

void game_map_level(struct game *g, int radius)
{
	const int n = g->grid->w * g->grid->h, pc = player_cell(g);
	/* a block of cells at a time (the marks' own), through locals: the
	 * byte stores would make the compiler read g's fields again at each
	 * cell, and a mark a cell cost as much as the rest (with the first
	 * touch of remembered[], 91-130 ms a scroll on 4096x4096: a key's
	 * stutter) */
	const uint8_t *tiles = g->tiles, *cost = g->grid->cost;
	uint8_t *remembered = g->remembered, *known = g->known;
	unsigned learnt = 0;
	for (int b = 0; b < n; b += CELLMARK_BLOCK) {
		const int end = n - b < CELLMARK_BLOCK ? n : b + CELLMARK_BLOCK;
		unsigned seen = 0, changed = 0;
		for (int c = b; c < end; c++) {
			if (tiles[c] == TILE_VOID || (radius > 0 && grid_step_distance(g->grid, c, pc) > radius))
				continue;
			const unsigned fresh = remembered[c] == 0;
			seen |= fresh;
			remembered[c] = (uint8_t)(remembered[c] | fresh);
			const unsigned differs = known[c] != cost[c];
			changed += differs;
			known[c] = cost[c];
		}
		if (seen)
			game_mark(g, MAP_REMEMBERED, b);
		if (changed)
			game_mark(g, MAP_KNOWN, b);
		learnt += changed;
	}
	g->known_version += learnt; /* a version a cell learnt, as one at a time would */
	game_trees_start(g);
}

/* Digs along dir from the player, up to range cells: every diggable wall
 * on the way becomes rubble; a permanent wall stops it.  Returns walls dug. */
static int dig_line(struct game *g, enum grid_dir dir, int range, bool *stopped)
{
	int x = g->player.x, y = g->player.y, dug = 0;
	*stopped = false;
	for (int i = 0; i < range; i++) {
		int nx, ny;
		if (!grid_dir_step(g->grid, x, y, dir, &nx, &ny) || !grid_in_bounds(g->grid, nx, ny))
			break;
		int c = cell_of(g, nx, ny);
		enum tile t = (enum tile)g->tiles[c];
		if (t == TILE_WALL && tile_diggable(t, g->grid->w, g->grid->h, nx, ny)) {
			game_tile_set(g, c, TILE_RUBBLE);
			dug++;
		} else if (t == TILE_WALL || t == TILE_BEDROCK || t == TILE_VOID) {
			*stopped = true;
			break;
		}
		x = nx;
		y = ny;
	}
	return dug;
}

static void lay_caltrops(struct game *g, int radius, int amount)
{
	int pc = player_cell(g), px = g->player.x, py = g->player.y;
	for (int y = py - radius; y <= py + radius; y++)
		for (int x = px - radius - 1; x <= px + radius + 1; x++) {
			if (!grid_in_bounds(g->grid, x, y))
				continue;
			int c = cell_of(g, x, y);
			if (grid_step_distance(g->grid, c, pc) > radius || !grid_passable(g->grid, c) ||
			    g->tiles[c] == TILE_EXIT)
				continue;
			g->hazard[c] = (uint8_t)(amount > 200 ? 200 : amount < 0 ? 0 : amount);
			game_mark(g, MAP_HAZARD, c);
			game_tile_set(g, c, (enum tile)g->tiles[c]);
		}
}

/* Drinks, reads, zaps or applies slot s. */
static int use_effect(struct game *g, int s, enum grid_dir dir, enum act_result *res)
{
	struct player *p = &g->player;
	int kind = g->pack[s].kind;
	const struct item_def *d = game_item_def(g, kind);
	char name[GAME_MESSAGE_LEN / 2];
	game_item_name(g, kind, 1, name, sizeof name);
	int cost = 100;
	const char *how = d->cls == ITEM_POTION ? "It was" : d->cls == ITEM_SCROLL ? "It was" : "It is";
	if (d->cls == ITEM_WAND) {
		if (g->pack[s].qty <= 0) {
			game_message_add(g, "You zap %s: nothing happens (no charges left).", name);
			return 100;
		}
		g->pack[s].qty--;
		game_message_add(g, "You zap %s %s.", name, grid_dir_name(dir));
	} else if (d->cls == ITEM_POTION) {
		game_message_add(g, "You drink %s.", name);
		p->potions_drunk++;
	} else if (d->cls == ITEM_SCROLL) {
		game_message_add(g, "You read %s.", name);
	} else if (d->effect != EFFECT_CALTROPS) {
		game_message_add(g, "You apply %s.", name);
	}
	g->items_used++;
	bool consumed = d->cls != ITEM_WAND;
	switch ((enum item_effect)d->effect) {
	case EFFECT_NONE:
		game_message_add(g, "Nothing happens.");
		break;
	case EFFECT_HEAL: {
		int before = p->hp;
		p->hp += d->amount;
		if (p->hp > p->max_hp)
			p->hp = p->max_hp;
		game_message_add(g, "You feel better: +%d hp (%d/%d).", p->hp - before, p->hp, p->max_hp);
		break;
	}
	case EFFECT_VIGOUR:
		p->max_hp += d->amount;
		p->hp += d->amount;
		if (p->max_hp < 1)
			p->max_hp = 1;
		if (p->hp > p->max_hp)
			p->hp = p->max_hp;
		if (p->hp < 1)
			p->hp = 1;
		game_message_add(g, "You feel vigorous: %d/%d hp.", p->hp, p->max_hp);
		break;
	case EFFECT_SLEEP:
		if (d->amount > 0) {
			cost = 100 * (1 + d->amount);
			game_message_add(g, "You fall asleep for %d turns...", d->amount);
		}
		break;
	case EFFECT_POISON: {
		int before = p->hp;
		p->hp -= d->amount;
		if (p->hp < 1)
			p->hp = 1;
		if (before > p->hp) {
			g->damage_taken += before - p->hp;
			g->last_hurt_turn = g->turn;
		}
		game_message_add(g, "You feel sick: -%d hp (%d/%d).", before - p->hp, p->hp, p->max_hp);
		break;
	}
	case EFFECT_TELEPORT: {
		int c = teleport_cell(g, d->amount);
		if (c < 0) {
			game_message_add(g, "You shudder for a moment.");
			break;
		}
		g->player.x = grid_x(g->grid, c);
		g->player.y = grid_y(g->grid, c);
		game_message_add(g, "You are somewhere else.");
		game_item_step_on(g, c);
		break;
	}
	case EFFECT_MAPPING:
		game_map_level(g, d->radius);
		game_message_add(g, d->radius > 0 ? "A map of your surroundings forms in your mind."
						 : "A map of the level forms in your mind.");
		break;
	case EFFECT_NOISE:
		game_message_add(g, "A deafening roar echoes through the halls!");
		game_make_noise(g, player_cell(g), d->amount, -1);
		break;
	case EFFECT_DIG: {
		bool stopped;
		int dug = dig_line(g, dir, d->range > 0 ? d->range : 1, &stopped);
		if (dug > 0)
			game_message_add(g, "The wall%s crumble%s into rubble (%d dug).", dug == 1 ? "" : "s",
					 dug == 1 ? "s" : "", dug);
		else
			game_message_add(g, stopped ? "The bolt strikes rock too hard to dig." : "The bolt finds no wall.");
		game_make_noise(g, player_cell(g), NOISE_DOOR, -1);
		break;
	}
	case EFFECT_CALTROPS:
		lay_caltrops(g, d->radius, d->amount);
		game_message_add(g, "You scatter caltrops around you: monsters cross them slowly (and so do you).");
		break;
	case EFFECT_COUNT:
		break;
	}
	identify(g, kind, how);
	if (consumed)
		slot_take_one(g, s);
	*res = RESULT_ACTED;
	return cost;
}

static int wield(struct game *g, int s)
{
	struct player *p = &g->player;
	if (s < 0) {
		if (g->wielded < 0) {
			game_message_add(g, "You are already empty-handed.");
			return 0;
		}
		g->wielded = -1;
		p->hit_bonus = p->damage_bonus = 0;
		game_message_add(g, "You are empty-handed.");
		return 100;
	}
	const struct item_def *d = game_item_def(g, g->pack[s].kind);
	if (d->cls != ITEM_WEAPON) {
		game_message_add(g, "You cannot wield that: only a weapon ')'.");
		return 0;
	}
	if (g->wielded == s) {
		game_message_add(g, "You are already wielding it.");
		return 0;
	}
	g->wielded = s;
	p->hit_bonus = d->hit;
	p->damage_bonus = d->damage;
	/* the ammunition by its own name, as the launcher's description says it */
	const struct item_def *ad = d->ammo[0] ? game_item_def(g, items_find(&g->bestiary.items, d->ammo,
									  strlen(d->ammo))) : NULL;
	game_message_add(g, "%c - %s (wielded: to-hit %+d, damage %+d%s%s%s).", 'a' + s, d->name, d->hit, d->damage,
			 d->ammo[0] ? "; f fires " : "", ad ? ad->name : d->ammo, ad ? "s" : "");
	return 100;
}

static int wear(struct game *g, int s)
{
	struct player *p = &g->player;
	if (s < 0) {
		if (g->worn < 0) {
			game_message_add(g, "You wear no armour.");
			return 0;
		}
		g->worn = -1;
		p->armour = 0;
		game_message_add(g, "You take your armour off.");
		return 200;
	}
	const struct item_def *d = game_item_def(g, g->pack[s].kind);
	if (d->cls != ITEM_ARMOUR) {
		game_message_add(g, "You cannot wear that: only armour '['.");
		return 0;
	}
	if (g->worn == s) {
		game_message_add(g, "You are already wearing it.");
		return 0;
	}
	g->worn = s;
	p->armour = d->armour;
	game_message_add(g, "%c - %s (worn: armour %d%s).", 'a' + s, d->name, d->armour,
			 d->noise > 0 ? ", loud: your steps wake sleepers" : "");
	return 300; /* armour takes a while to put on */
}

static int drop(struct game *g, int s)
{
	int pc = player_cell(g), kind = g->pack[s].kind;
	if (g->items[pc] && g->items[pc] != 1 + kind) {
		game_message_add(g, "There is already something here: drop it elsewhere.");
		return 0;
	}
	char name[GAME_MESSAGE_LEN / 2];
	game_item_name(g, kind, g->pack[s].qty, name, sizeof name);
	lay(g, pc, kind, g->pack[s].qty);
	if (g->wielded == s)
		wield(g, -1);
	if (g->worn == s)
		wear(g, -1);
	g->pack[s] = (struct pack_slot){ -1, 0 };
	count_potions(g);
	game_message_add(g, "You drop %s.", name);
	return 100;
}

/* ---- shots and throws --------------------------------------------------- */

/* The last cell before `stop` on the line from `from` a flying item can
 * lie on (stop itself when it can), -1 none. */
static int shot_rest(const struct game *g, int from, int to, int stop)
{
	if (stop >= 0 && grid_passable(g->grid, stop) && !g->opaque[stop])
		return stop;
	struct fov_sample line[GAME_SHOT_MAX];
	int n = fov_line_cells(g->grid, grid_x(g->grid, from), grid_y(g->grid, from), grid_x(g->grid, to),
			       grid_y(g->grid, to), line, GAME_SHOT_MAX);
	if (n > GAME_SHOT_MAX)
		n = GAME_SHOT_MAX;
	int last = from;
	for (int i = 0; i < n; i++) {
		int c = line[i].cell[0] >= 0 ? line[i].cell[0] : line[i].cell[1];
		if (c == stop || (line[i].n == 2 && line[i].cell[1] == stop))
			break;
		if (c >= 0 && grid_passable(g->grid, c) && !g->opaque[c])
			last = c;
	}
	return last;
}

/* One piece of ammunition of slot s flies from the player to cell `to`:
 * hits the first monster on the line (a roll of chance percent) for a
 * roll of dmg, or a wall, and lands where it stopped.  A piece that hits
 * breaks (is gone) with its kind's `break` percent: a draw from the
 * combat stream after the damage roll, made only when the chance is
 * neither 0 nor 100, so a kind that never breaks draws nothing. */
static void fly(struct game *g, int s, int to, int chance, int dmg, const char *verb)
{
	int kind = g->pack[s].kind, from = player_cell(g), hit;
	const struct item_def *d = game_item_def(g, kind);
	int stop = game_shot_stop(g, from, to, &hit);
	if (stop == to && hit < 0 && g->occupant[to] >= 0)
		hit = g->occupant[to]; /* the line was free up to the target: it is hit */
	slot_take_one(g, s);
	g->items_used++;
	game_make_noise(g, from, 2, -1);
	bool broke = false;
	if (hit >= 0) {
		struct monster *m = &g->monsters[hit];
		g->noticed[hit] = 1;
		if (chance < 5)
			chance = 5;
		if (chance > 95)
			chance = 95;
		if (rng_range(&g->combat, 1, 100) > chance) {
			game_message_add(g, "The %s misses the %s.", d->name, m->kind->name);
		} else {
			int roll = dmg > 0 ? rng_range(&g->combat, (dmg + 1) / 2, dmg) : 0;
			broke = d->brk >= 100 || (d->brk > 0 && rng_range(&g->combat, 1, 100) <= d->brk);
			const char *brk = broke ? " and breaks" : "";
			m->hp -= roll;
			if (m->hp <= 0) {
				const int xp = bestiary_xp_worth(m->kind);
				game_message_add(g, "The %s kills the %s%s (+%d xp).", d->name, m->kind->name, brk, xp);
				g->player.kills++;
				game_monster_dies(g, m);
				game_gain_xp(g, xp);
			} else {
				game_message_add(g, "The %s hits the %s%s (%d damage, %d/%d hp left).", d->name,
						 m->kind->name, brk, roll, m->hp, m->kind->hp);
				ai_mind_hear(&m->mind, m->kind, g->player.x, g->player.y, g->turn);
			}
		}
	} else if (stop != to) {
		game_message_add(g, "You %s the %s; it hits the %s.", verb, d->name,
				 stop >= 0 && g->tiles[stop] == TILE_DOOR ? "door" : "wall");
	} else {
		game_message_add(g, "You %s the %s.", verb, d->name);
	}
	if (broke)
		return;
	int rest = shot_rest(g, from, to, stop);
	int at = landing(g, rest, kind);
	if (at >= 0)
		lay(g, at, kind, 1);
}

int game_pack_ammo(const struct game *g, int s)
{
	const struct item_def *w = s >= 0 && s < PACK_SLOTS ? game_item_def(g, g->pack[s].kind) : NULL;
	if (!w || w->cls != ITEM_WEAPON || !w->ammo[0])
		return -1;
	int ak = items_find(&g->bestiary.items, w->ammo, strlen(w->ammo));
	for (int i = 0; i < PACK_SLOTS; i++)
		if (g->pack[i].kind == ak && ak >= 0)
			return i;
	return -1;
}

void game_fire_none(const struct game *g, char *buf, size_t size)
{
	const struct item_def *w = g->wielded >= 0 ? game_item_def(g, g->pack[g->wielded].kind) : NULL;
	if (!w || !w->ammo[0]) {
		snprintf(buf, size, "You wield no launcher: w wields a sling or a bow (t throws by hand).");
		return;
	}
	const struct item_def *a = game_item_def(g, items_find(&g->bestiary.items, w->ammo, strlen(w->ammo)));
	snprintf(buf, size, "You have no %s%s to fire from your %s.", a ? a->name : w->ammo, a ? "s" : "", w->name);
}

int game_fire_range(const struct game *g)
{
	const struct item_def *w = g->wielded >= 0 ? game_item_def(g, g->pack[g->wielded].kind) : NULL;
	return w && w->ammo[0] ? w->range : 0;
}

/* The ammunition slot for the wielded launcher, -1 none (with a message). */
static int fire_slot(struct game *g, const struct item_def **launcher)
{
	*launcher = g->wielded >= 0 ? game_item_def(g, g->pack[g->wielded].kind) : NULL;
	int s = game_pack_ammo(g, g->wielded);
	if (s < 0) {
		char why[GAME_MESSAGE_LEN];
		game_fire_none(g, why, sizeof why);
		game_message_add(g, "%s", why);
	}
	return s;
}

static int fire(struct game *g, int x, int y)
{
	const struct item_def *w;
	int s = fire_slot(g, &w);
	if (s < 0)
		return 0;
	if (!grid_in_bounds(g->grid, x, y) || (x == g->player.x && y == g->player.y)) {
		game_message_add(g, "Fire at what? Choose a cell other than your own.");
		return 0;
	}
	int to = cell_of(g, x, y);
	int steps = grid_step_distance(g->grid, player_cell(g), to);
	if (steps > w->range) {
		game_message_add(g, "Out of range: %d steps, and your %s reaches %d.", steps, w->name, w->range);
		return 0;
	}
	const struct item_def *a = game_item_def(g, g->pack[s].kind);
	fly(g, s, to, 70 + w->hit, a->damage + w->damage, "shoot");
	return 100;
}

/* Slot s holds ammunition, the only thing thrown; else said, false. */
static bool throwable(struct game *g, int s)
{
	if (game_item_def(g, g->pack[s].kind)->cls == ITEM_AMMO)
		return true;
	game_message_add(g, "Only ammunition '(' flies true: throw stones or arrows.");
	return false;
}

static int throw_item(struct game *g, int s, enum grid_dir dir)
{
	if (!throwable(g, s))
		return 0;
	const struct item_def *d = game_item_def(g, g->pack[s].kind);
	int x = g->player.x, y = g->player.y, range = throw_range(d);
	for (int i = 0; i < range; i++) {
		int nx, ny;
		if (!grid_dir_step(g->grid, x, y, dir, &nx, &ny) || !grid_in_bounds(g->grid, nx, ny))
			break;
		x = nx;
		y = ny;
	}
	if (x == g->player.x && y == g->player.y) {
		game_message_add(g, "There is no %s on a %s map.", grid_dir_name(dir), grid_topology_name(g->grid->topo));
		return 0;
	}
	fly(g, s, cell_of(g, x, y), THROW_CHANCE, throw_damage(d), "throw");
	return 100;
}

/* ACT_THROW_AT: one piece of slot s thrown at cell (x, y), any cell within
 * the kind's range in steps, along the line a shot takes (fly): the same
 * chance and damage as a throw along a direction, which it leaves as it
 * was for the journals that hold one. */
static int throw_at(struct game *g, int s, int x, int y)
{
	if (!throwable(g, s))
		return 0;
	if (!grid_in_bounds(g->grid, x, y) || (x == g->player.x && y == g->player.y)) {
		game_message_add(g, "Throw at what? Choose a cell other than your own.");
		return 0;
	}
	const struct item_def *d = game_item_def(g, g->pack[s].kind);
	int to = cell_of(g, x, y), steps = grid_step_distance(g->grid, player_cell(g), to);
	if (steps > throw_range(d)) {
		game_message_add(g, "Out of range: %d steps, and thrown %ss fly %d.", steps, d->name, throw_range(d));
		return 0;
	}
	fly(g, s, to, THROW_CHANCE, throw_damage(d), "throw");
	return 100;
}

int game_throw_range(const struct game *g, int s)
{
	const struct item_def *d = s >= 0 && s < PACK_SLOTS ? game_item_def(g, g->pack[s].kind) : NULL;
	return d && d->cls == ITEM_AMMO ? throw_range(d) : 0;
}

static int close_door(struct game *g, enum grid_dir dir)
{
	int nx, ny;
	if (!grid_dir_step(g->grid, g->player.x, g->player.y, dir, &nx, &ny) || !grid_in_bounds(g->grid, nx, ny)) {
		game_message_add(g, "There is no door that way.");
		return 0;
	}
	int c = cell_of(g, nx, ny);
	if (g->tiles[c] != TILE_DOOR) {
		game_message_add(g, "There is no door there to close.");
		return 0;
	}
	if (!g->open[c]) {
		game_message_add(g, "The door is already closed.");
		return 0;
	}
	if (g->occupant[c] >= 0) {
		game_message_add(g, "The %s stands in the doorway.", g->monsters[g->occupant[c]].kind->name);
		return 0;
	}
	if (g->items[c]) {
		game_message_add(g, "Something lies in the doorway.");
		return 0;
	}
	g->open[c] = 0;
	g->opaque[c] = 1;
	game_mark(g, MAP_OPEN, c);
	game_mark(g, MAP_OPAQUE, c);
	game_message_add(g, "You close the door.");
	game_make_noise(g, c, NOISE_DOOR, -1);
	return 100;
}

/* A slot number from an action: in range and holding something. */
static bool slot_ok(struct game *g, int s)
{
	if (s < 0 || s >= PACK_SLOTS || g->pack[s].kind < 0) {
		if (s >= 0 && s < PACK_SLOTS)
			game_message_add(g, "You have no item %c.", 'a' + s);
		else
			game_message_add(g, "No such item.");
		return false;
	}
	return true;
}

int game_item_act(struct game *g, const struct action *a, enum act_result *res)
{
	*res = RESULT_NOTHING;
	int cost = 0;
	switch (a->kind) {
	case ACT_QUAFF: {
		int s = -1;
		for (int i = 0; i < PACK_SLOTS && s < 0; i++) {
			const struct item_def *d = game_item_def(g, g->pack[i].kind);
			if (d && d->cls == ITEM_POTION && d->effect == EFFECT_HEAL)
				s = i;
		}
		if (s < 0) {
			game_message_add(g, "You have no potions of healing.");
			return 0;
		}
		if (g->player.hp >= g->player.max_hp) {
			game_message_add(g, "You are at full health; you keep the potion.");
			return 0;
		}
		return use_effect(g, s, GRID_N, res);
	}
	case ACT_PICKUP: {
		int pc = player_cell(g);
		if (!g->items[pc]) {
			game_message_add(g, "There is nothing here to pick up.");
			return 0;
		}
		cost = pick_up(g, pc) ? 100 : 0;
		break;
	}
	case ACT_USE: {
		if (!slot_ok(g, a->x))
			return 0;
		const struct item_def *d = game_item_def(g, g->pack[a->x].kind);
		if (d->cls == ITEM_WEAPON)
			cost = wield(g, a->x);
		else if (d->cls == ITEM_ARMOUR)
			cost = wear(g, a->x);
		else if (d->cls == ITEM_AMMO) {
			game_message_add(g, "Ammunition is fired (f) from its launcher or thrown (t).");
			return 0;
		} else if (d->cls == ITEM_WAND && (unsigned)a->dir >= GRID_DIR_COUNT) {
			game_message_add(g, "Zap it which way?");
			return 0;
		} else
			return use_effect(g, a->x, a->dir, res);
		break;
	}
	case ACT_THROW:
		if (!slot_ok(g, a->x))
			return 0;
		cost = throw_item(g, a->x, a->dir);
		break;
	case ACT_THROW_AT:
		if (!slot_ok(g, a->item))
			return 0;
		cost = throw_at(g, a->item, a->x, a->y);
		break;
	case ACT_FIRE:
		cost = fire(g, a->x, a->y);
		break;
	case ACT_WIELD:
		if (a->x >= 0 && !slot_ok(g, a->x))
			return 0;
		cost = wield(g, a->x < 0 ? -1 : a->x);
		break;
	case ACT_WEAR:
		if (a->x >= 0 && !slot_ok(g, a->x))
			return 0;
		cost = wear(g, a->x < 0 ? -1 : a->x);
		break;
	case ACT_DROP:
		if (!slot_ok(g, a->x))
			return 0;
		cost = drop(g, a->x);
		break;
	case ACT_CLOSE:
		cost = close_door(g, a->dir);
		break;
	default:
		return 0;
	}
	if (cost > 0)
		*res = RESULT_ACTED;
	return cost;
}

void game_item_moved(struct game *g)
{
	const struct item_def *d = g->worn >= 0 ? game_item_def(g, g->pack[g->worn].kind) : NULL;
	if (d && d->noise > 0)
		game_make_noise(g, player_cell(g), d->noise, -1);
}

int game_nearest_target(const struct game *g)
{
	int best = -1, bd = 0, pc = player_cell(g);
	for (int i = 0; i < g->n_monsters; i++) {
		const struct monster *m = &g->monsters[i];
		if (!m->alive || !m->seen)
			continue;
		int dd = grid_step_distance(g->grid, pc, cell_of(g, m->x, m->y));
		if (best < 0 || dd < bd) {
			best = i;
			bd = dd;
		}
	}
	return best;
}
