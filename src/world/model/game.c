/*
 * game.c - the rules of a game: levels of a campaign, turns and energy, the
 * player's moves, melee, items, doors, stairs and the message log.
 *
 * It never prints, never includes curses and never exits: the UI and the
 * scripted players of `sim` drive it with actions and read it back.  The AI
 * decides and the rules act: for each monster action ai_decide (ai.c) reads
 * a const struct ai_view of the game and returns wait, step or attack; this
 * file carries it out (the move, the door, the attack, the messages) and
 * charges the energy, so the same rules bind monsters and the player.  The
 * AI's state is struct ai (ai.h), embedded here; the rules touch it only
 * through ai.h.  Travel, rest, running and autoexplore are game_travel.c;
 * the state as bytes and its hash are game_state.c.  In the test build
 * CHECKs hold the play state sound after each monster action and each
 * game_act (state_sound).  Buffers are sized once per level; a turn
 * allocates nothing.
 *
 * Time: every actor gains its speed in energy each game turn and acts while
 * it has 100 or more.  A step costs 100 times the entering cost of the cell
 * (floor 1, rubble 2, water 3), an attack or a wait costs 100.  The player
 * has speed 100, so a move into water lets speed-100 monsters act three
 * times.  The turn counter counts game turns.
 */
#include "game_internal.h"

#include "bigmem.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ai.h"
#include "check.h"
#include "clock.h"
#include "fov.h"
#include "gen.h"
#include "prune.h"
#include "region.h"

const struct level *game_level(const struct game *g)
{
	return g->levels[g->depth];
}

struct monster *game_monster_at(const struct game *g, int x, int y)
{
	if (!grid_in_bounds(g->grid, x, y))
		return NULL;
	int i = g->occupant[cell_of(g, x, y)];
	return i >= 0 ? &g->monsters[i] : NULL;
}

bool game_can_step(const struct game *g, int from, int to)
{
	struct grid_step s[GRID_MAX_NEIGHBOURS];
	int n = grid_neighbours(g->grid, from, false, s);
	for (int i = 0; i < n; i++)
		if (s[i].cell == to)
			return true;
	return false;
}

/* ---- messages ----------------------------------------------------------- */

void game_message_add(struct game *g, const char *fmt, ...)
{
	char text[GAME_MESSAGE_LEN];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	g->message_stamp++;
	if (g->n_messages > 0) {
		struct message *last = &g->messages[(g->n_messages - 1) % GAME_MESSAGES];
		if (strcmp(last->text, text) == 0) {
			last->count++;
			last->turn = g->turn;
			last->stamp = g->message_stamp;
			return;
		}
	}
	struct message *m = &g->messages[g->n_messages % GAME_MESSAGES];
	memcpy(m->text, text, sizeof m->text);
	m->turn = g->turn;
	m->count = 1;
	m->stamp = g->message_stamp;
	g->n_messages++;
}

const char *game_monster_doing(const struct monster *m)
{
	const struct mind *mi = &m->mind;
	return mi->asleep				      ? "asleep"
	       : mi->fleeing				      ? "fleeing from you"
	       : mi->hunting				      ? "hunting you"
	       : m->kind->behaviour == MIND_AMBUSH && mi->timer > 0 ? "lying in wait"
	       : mi->tracking				      ? "following your trail"
	       : m->kind->wander			      ? "wandering"
							      : "waiting";
}

const char *game_article(const char *noun)
{
	return noun && strchr("aeiouAEIOU", noun[0]) && noun[0] ? "an" : "a";
}

const struct message *game_message(const struct game *g, int i)
{
	if (i < 0 || i >= g->n_messages || i >= GAME_MESSAGES)
		return NULL;
	return &g->messages[(g->n_messages - 1 - i) % GAME_MESSAGES];
}

/* ---- the level ---------------------------------------------------------- */

static void level_state_free(struct game *g)
{
	game_side_free(g); /* first: its thread reads known[] and the labels */
	for (int i = 0; i < g->n_monsters; i++)
		ai_mind_fini(&g->monsters[i].mind);
	ai_level_fini(&g->ai);
	free(g->monsters);
	free(g->tiles);
	free(g->open);
	free(g->items);
	free(g->item_qty);
	free(g->hazard);
	free(g->visible);
	free(g->remembered);
	free(g->known);
	free(g->monster_dist);
	free(g->noticed);
	free(g->occupant);
	free(g->opaque);
	free(g->travel.cells);
	free(g->scent);
	noise_destroy(g->noise);
	path_destroy(g->path);
	path_destroy(g->reach.ctx);
	grid_destroy(g->reach.win);
	game_trees_drop(g); /* first: it gives back the labels a thread borrowed */
	region_destroy(g->reach.labels);
	g->reach.labels = NULL;
	g->reach.labels_ok = false;
	free(g->reach.open_squares);
	g->reach.open_squares = NULL;
	g->reach.open_squares_ok = false;
	free(g->reach.deep_seen);
	g->reach.deep_seen = NULL;
	prune_destroy(g->reach.trees);
	g->reach.trees = NULL;
	g->reach.trees_ok = false;
	grid_destroy(g->grid);
	g->monsters = NULL;
	g->item_qty = g->hazard = NULL;
	g->tiles = g->open = g->items = g->visible = g->remembered = g->opaque = g->known = NULL;
	g->noticed = NULL;
	g->monster_dist = NULL;
	g->occupant = g->travel.cells = g->scent = NULL;
	for (int m = 0; m < GAME_MAPS; m++)
		cellmark_fini(&g->marks[m]);
	g->noise = NULL;
	g->path = NULL;
	g->reach.ctx = NULL;
	g->reach.win = NULL;
	g->grid = NULL;
	g->n_monsters = 0;
	memset(&g->travel, 0, sizeof g->travel);
}

/* The cells fov_compute may set from the player's cell, clipped to the
 * map: the radius' box, the walls of what is seen one step past it (two
 * rows on a diamond map), and one more for the sake of doubt. */
static void fov_box(const struct game *g, int box[4])
{
	int r = g->sight_radius + 2;
	int rows = grid_is_diamond(g->grid->topo) ? 2 * r : r;
	box[0] = g->player.x - r - 1 < 0 ? 0 : g->player.x - r - 1;
	box[1] = g->player.y - rows < 0 ? 0 : g->player.y - rows;
	box[2] = g->player.x + r + 1 >= g->grid->w ? g->grid->w - 1 : g->player.x + r + 1;
	box[3] = g->player.y + rows >= g->grid->h ? g->grid->h - 1 : g->player.y + rows;
}

/* Clears visible[] where the last field of view may have set it (the
 * whole map when that is not known), marking what it clears. */
static void fov_clear(struct game *g)
{
	const int *b = g->fov_box;
	if (b[0] > b[2] || b[1] > b[3])
		return; /* nothing set */
	if (b[0] < 0 || b[2] >= g->grid->w || b[3] >= g->grid->h) {
		memset(g->visible, 0, (size_t)g->grid->w * (size_t)g->grid->h);
		cellmark_range(&g->marks[MAP_VISIBLE], 0, g->grid->w * g->grid->h - 1);
		return;
	}
	for (int y = b[1]; y <= b[3]; y++) {
		int c0 = cell_of(g, b[0], y);
		memset(g->visible + c0, 0, (size_t)(b[2] - b[0] + 1));
		cellmark_range(&g->marks[MAP_VISIBLE], c0, c0 + b[2] - b[0]);
	}
}

static void fov_update(struct game *g)
{
	/* only the box of the last view and of this one change: a whole
	 * 4096x4096 visible[] cleared each turn made every block of it dirty */
	fov_clear(g);
	fov_compute(g->grid, g->opaque, g->player.x, g->player.y, g->sight_radius, g->visible);
	fov_box(g, g->fov_box);
	const int *b = g->fov_box;
	for (int y = b[1]; y <= b[3]; y++) {
		int c0 = cell_of(g, b[0], y);
		cellmark_range(&g->marks[MAP_VISIBLE], c0, c0 + b[2] - b[0]);
		for (int x = b[0]; x <= b[2]; x++) {
			int c = c0 + (x - b[0]);
			if (!g->visible[c])
				continue;
			if (!g->remembered[c]) {
				g->remembered[c] = 1;
				game_mark(g, MAP_REMEMBERED, c);
			}
			if (g->known[c] != g->grid->cost[c]) {
				const uint8_t old = g->known[c];
				g->known[c] = g->grid->cost[c];
				game_mark(g, MAP_KNOWN, c);
				game_known_changed(g, c, old);
			}
		}
	}
	/* visible[] is set only inside the box (fov_clear relies on it): a
	 * monster outside it is not seen, and its cell is not read (on a
	 * 4096x4096 level each read was a cache miss, 67,000 a key); and
	 * written only where they change, so the lines of the monsters far
	 * off are not made dirty (written back to memory) each key */
	for (int i = 0; i < g->n_monsters; i++) {
		struct monster *m = &g->monsters[i];
		bool seen = m->alive && m->x >= b[0] && m->x <= b[2] && m->y >= b[1] && m->y <= b[3] &&
			    g->visible[cell_of(g, m->x, m->y)];
		if (m->was_seen != m->seen)
			m->was_seen = m->seen;
		if (m->seen != seen)
			m->seen = seen;
	}
}

/* Distance in steps from monster i to the player. */
int game_monster_distance(const struct game *g, int i)
{
	const struct monster *m = &g->monsters[i];
	return grid_step_distance_xy(g->grid, m->x, m->y, g->player.x, g->player.y);
}

/* The player's scent: the cell it stands on now carries this turn's
 * stamp, unless it is water (the trail breaks there).  Once a game turn
 * and on entering a level: O(1), and decay is free (the track mind reads
 * turn - stamp). */
static void scent_mark(struct game *g)
{
	int pc = player_cell(g);
	if (g->tiles[pc] != TILE_WATER) {
		g->scent[pc] = g->turn;
		game_mark(g, MAP_SCENT, pc);
	}
}

/*
 * A noise of loudness `loud` at `cell` (noise.h): one flood, then every
 * monster it reaches hears it (ai_mind_hear: sleepers wake, the restless
 * go to look), in the flood's order; `source` is the monster that made it
 * (it does not hear itself), -1 for the player.  The same noise again on
 * the same turn (a second blow at the same place) is not flooded again.
 */
void game_make_noise(struct game *g, int cell, int loud, int source)
{
	if (loud <= 0 || (g->noise_cell == cell && g->noise_turn == g->turn && g->noise_loud >= loud))
		return;
	g->noise_cell = cell;
	g->noise_turn = g->turn;
	g->noise_loud = loud;
	const int *cells;
	int n = noise_flood(g->noise, g->tiles, g->open, cell, loud, &cells);
	int x = grid_x(g->grid, cell), y = grid_y(g->grid, cell);
	for (int i = 0; i < n; i++) {
		int k = g->occupant[cells[i]];
		if (k < 0 || k == source)
			continue;
		struct monster *m = &g->monsters[k];
		bool slept = m->mind.asleep;
		ai_mind_hear(&m->mind, m->kind, x, y, g->turn);
		if (slept && !m->mind.asleep && g->visible[cells[i]])
			game_message_add(g, "The %s wakes up.", m->kind->name);
	}
}

/* The monster slots level lv needs: its monsters, and for each kind of
 * the breed mind among them room to reach its breed_max (docs/ai.md,
 * "Mind: breed"): the slots are made once, so a bud never reallocates
 * what the AI and the rules point into. */
static int monster_capacity(const struct game *g, const struct level *lv)
{
	long cap = lv->n_monsters;
	for (int k = 0; k < g->bestiary.n; k++) {
		const struct monster_kind *kind = &g->bestiary.kinds[k];
		if (kind->behaviour != MIND_BREED || kind->breed <= 0)
			continue;
		int present = 0;
		for (int i = 0; i < lv->n_monsters; i++)
			present += lv->monsters[i].glyph == kind->glyph;
		if (present > 0 && kind->breed_max > present)
			cap += kind->breed_max - present;
	}
	return (int)cap;
}

/* Loads levels[depth] into the play state; false on no memory. */
/* The click fallback's labels of known[] as it is now (game_travel.c). */
static void reach_labels_make(struct game *g)
{
	g->reach.labels = region_create_over(g->grid, g->known, false);
	g->reach.labels_ok = g->reach.labels != NULL;
	g->reach.labels_version = g->known_version;
	/* their labels are written as they are read: resident now, not at a
	 * click (a first touch of fresh memory cost a click 55 ms) */
	region_prefault(g->reach.labels);
}

/* The level's arrays a person's first moves touch, made resident (for a
 * person only: game_prefault, and each level loaded after it): the
 * search context, the AI's maps, and remembered[], which a scroll of
 * magic mapping writes whole (on 4096x4096 its first touch was most of
 * the scroll's key). */
static void level_prefault(struct game *g)
{
	path_prefault(g->path);
	game_side_prefault(g);
	ai_prefault(&g->ai, g->grid);
	if (g->remembered)
		big_populate(g->remembered, (size_t)g->grid->w * (size_t)g->grid->h);
}

bool game_level_load(struct game *g, int depth)
{
	level_state_free(g);
	const struct level *lv = g->levels[depth];
	g->depth = depth;
	g->level_serial++;
	g->grid = level_grid(lv);
	if (!g->grid)
		return false;
	size_t n = (size_t)lv->w * (size_t)lv->h;
	g->tiles = big_malloc(n);
	g->open = calloc(n, 1);
	g->items = big_calloc(n, 1); /* the level's items lie all over it */
	g->item_qty = big_calloc(n, 1);
	g->hazard = calloc(n, 1);
	g->visible = calloc(n, 1);
	g->remembered = big_calloc(n, 1); /* a scroll of magic mapping writes it whole */
	g->known = big_malloc(n);
	g->opaque = big_malloc(n);
	g->occupant = big_malloc(n * sizeof *g->occupant);
	/* room for the level's own monsters, breeders' buds and the wandering ones that may arrive */
	g->monster_cap = monster_capacity(g, lv) + g->bestiary.rules.arrival_max;
	g->monsters = big_calloc((size_t)g->monster_cap + 1, sizeof *g->monsters);
	g->monster_dist = calloc((size_t)g->monster_cap + 1, sizeof *g->monster_dist);
	g->noticed = calloc((size_t)g->monster_cap + 1, 1);
	g->scent = big_malloc(n * sizeof *g->scent);
	g->noise = noise_create(g->grid);
	g->path = path_create(g->grid);
	g->reach.ctx = NULL; /* made by the first travel preview or plan (game_travel.c) */
	g->reach.side = NULL;
	g->reach.side_off = sysconf(_SC_NPROCESSORS_ONLN) < 2; /* no core for it */
	g->reach.win = NULL;
	g->reach.source = -1;
	g->reach.whole_region = TRAVEL_WHOLE_REGION;
	if (!g->tiles || !g->open || !g->items || !g->item_qty || !g->hazard || !g->visible || !g->remembered || !g->known ||
	    !g->opaque || !g->occupant || !g->monsters || !g->monster_dist ||
	    !g->noticed || !g->scent || !g->noise || !g->path ||
	    !ai_level_init(&g->ai, g->grid, lv->tiles, g->path, g->monster_cap))
		return false;
	/* Every travel preview and click plans on g->path, and one into
	 * unexplored space crosses rows of the context no search has touched
	 * yet: on a 4096x4096 level their page faults took up to 60 ms.  Only
	 * for a person (game_prefault): a resume or a replay would spend
	 * 285 MB of first touches there before its first frame. */
	if (g->prefault)
		level_prefault(g);
	for (int m = 0; m < GAME_MAPS; m++)
		if (!cellmark_init(&g->marks[m], n))
			return false;
	g->fov_box[0] = 1; /* empty: visible[] is all clear */
	g->fov_box[1] = 1;
	g->fov_box[2] = g->fov_box[3] = 0;
	g->travel.cap = (int)n;
	memset(g->known, 1, n); /* never seen: assumed open floor */
	/* The click fallback's labels of known[] (game_travel.c), made now
	 * rather than at the first click: on 4096x4096 their 64 MiB take a
	 * few hundred ms of first touches.  Only for a person (game_prefault
	 * makes them for a game loaded before): else, and without memory,
	 * the first plan makes them (the same labels: a plan makes them
	 * current from known[] alone). */
	g->reach.labels = NULL;
	g->reach.labels_ok = false;
	g->reach.open_squares = NULL;
	g->reach.open_squares_ok = false;
	g->reach.deep_seen = NULL;
	g->reach.trees = NULL;
	g->reach.trees_ok = false;
	if (g->prefault)
		reach_labels_make(g);
	/* plain loops the compiler makes word-wide (a tile_info call a cell
	 * kept the one loop they were a byte at a time: 16.8 million cells on
	 * 4096x4096, at every resume); the tiles copied and their opacity
	 * taken a slice at a time, while the slice is in the cache */
	uint8_t sight[256];
	for (int t = 0; t < 256; t++)
		sight[t] = tile_info((enum tile)t)->blocks_sight;
	const uint8_t *tiles = g->tiles;
	uint8_t *opaque = g->opaque;
	for (size_t at = 0; at < n; at += (size_t)1 << 16) {
		const size_t end = n - at < ((size_t)1 << 16) ? n : at + ((size_t)1 << 16);
		memcpy(g->tiles + at, lv->tiles + at, end - at);
		for (size_t i = at; i < end; i++)
			opaque[i] = sight[tiles[i]];
	}
	int *occupant = g->occupant, *scent = g->scent;
	for (size_t i = 0; i < n; i++)
		occupant[i] = -1;
	for (size_t i = 0; i < n; i++)
		scent[i] = -1;
	g->noise_cell = -1;
	g->noise_turn = 0;
	g->noise_loud = 0;
	g->level_turn = g->turn;
	g->arrivals = 0;
	game_items_place(g);
	g->player.x = lv->player_x;
	g->player.y = lv->player_y;
	g->player.energy = 100;
	int pc = player_cell(g);
	for (int i = 0; i < lv->n_monsters; i++) {
		const struct level_monster *lm = &lv->monsters[i];
		const struct monster_kind *k = bestiary_find_glyph(&g->bestiary, lm->glyph);
		if (!k) {
			game_message_add(g, "A monster '%c' unknown to the bestiary stays away.", lm->glyph);
			continue;
		}
		if (!grid_in_bounds(g->grid, lm->x, lm->y))
			continue;
		int c = cell_of(g, lm->x, lm->y);
		if (c == pc || g->occupant[c] >= 0 || !grid_passable(g->grid, c))
			continue;
		struct monster *m = &g->monsters[g->n_monsters];
		m->kind = k;
		m->x = lm->x;
		m->y = lm->y;
		m->hp = k->hp;
		m->alive = true;
		ai_mind_init(&g->ai, &m->mind, g->n_monsters);
		/* a draw only for kinds that may sleep, in the level's order:
		 * the games of kinds that never sleep draw as they always did */
		if (k->sleep > 0)
			m->mind.asleep = rng_range(&g->rng, 1, 100) <= k->sleep;
		g->occupant[c] = g->n_monsters;
		g->n_monsters++;
	}
	/* the level as it begins, made from the level, the bestiary, the seed
	 * and the depth alone: a snapshot keeps only the blocks changed since
	 * (game_state.c), and its loader makes this again to lay them on */
	/* the maps filled with one value above (calloc, memset, the loop):
	 * their hashes need not read them */
	game_map_uniform(g, MAP_HAZARD, 1, 0);
	game_map_uniform(g, MAP_OPEN, 1, 0);
	game_map_uniform(g, MAP_VISIBLE, 1, 0);
	game_map_uniform(g, MAP_REMEMBERED, 1, 0);
	game_map_uniform(g, MAP_KNOWN, 1, 1);
	game_map_uniform(g, MAP_SCENT, (int)sizeof *g->scent, -1);
	for (int m = 0; m < GAME_MAPS; m++)
		cellmark_begin(&g->marks[m]);
	scent_mark(g);
	fov_update(g);
	for (int i = 0; i < g->n_monsters; i++) {
		g->monsters[i].was_seen = g->monsters[i].seen;
		g->noticed[i] = g->monsters[i].seen;
		g->monster_dist[i] = game_monster_distance(g, i);
	}
	g->level_fresh = true;
	if (g->prefault) /* a person: the trees a map would need, made meanwhile */
		game_trees_ahead(g);
	return true;
}

/* The level's name and description, said on entering it.  A description
 * longer than a message is said in several, split at spaces, so none of it
 * is lost (a message holds GAME_MESSAGE_LEN - 1 bytes). */
static void describe_level(struct game *g)
{
	/* A description longer than a message (a level file sets no limit)
	 * goes out as several, cut after a sentence where one ends in time,
	 * else at a space: one message would lose its end. */
	const struct level *lv = game_level(g);
	const char *d = lv->description;
	if (!d)
		return;
	size_t len = strlen(d), at = 0, max = GAME_MESSAGE_LEN - 1;
	while (at < len) {
		while (at < len && d[at] == ' ')
			at++;
		size_t take = len - at;
		if (take > max) {
			take = max;
			while (take > max / 2 && d[at + take] != ' ')
				take--;
			if (d[at + take] != ' ')
				take = max; /* a word longer than half a message: cut it */
		}
		if (take > 0)
			game_message_add(g, "%.*s", (int)take, d + at);
		at += take;
	}
}

void game_prefault(struct game *g)
{
	if (g->prefault)
		return;
	g->prefault = true;
	level_prefault(g);
	if (!g->reach.labels)
		reach_labels_make(g);
	game_trees_start(g); /* a resumed mapped maze's first far click finds its trees made */
	game_trees_ahead(g); /* and an unmapped one's first after a scroll of magic mapping */
}

struct game *game_create(const struct level *const *levels, int n_levels,
			 const struct bestiary *b, uint64_t seed)
{
	if (!levels || n_levels <= 0)
		return NULL;
	struct game *g = calloc(1, sizeof *g);
	if (!g)
		return NULL;
	g->levels = levels;
	g->n_levels = n_levels;
	if (b)
		g->bestiary = *b;
	else
		bestiary_rules_defaults(&g->bestiary.rules);
	g->seed = seed;
	rng_seed(&g->rng, seed);
	/* one stream per purpose (shared/GAME.md, principle 4): a roll more or
	 * less in a fight never moves where gold lies or when a monster arrives */
	rng_seed(&g->combat, seed ^ 0x636f6d626174ULL);  /* "combat" */
	rng_seed(&g->arrive, seed ^ 0x617272697665ULL);  /* "arrive" */
	g->sight_radius = PLAYER_SIGHT;
	g->player.hp = g->player.max_hp = PLAYER_HP;
	g->player.damage = PLAYER_DAMAGE;
	g->player.xlevel = 1;
	g->first_contact_turn = -1;
	g->last_hurt_turn = -1;
	game_items_init(g);
	ai_init(&g->ai);
	if (!game_level_load(g, 0)) {
		game_destroy(g);
		return NULL;
	}
	const struct level *lv = game_level(g);
	game_message_add(g, "You enter %s (level 1 of %d). Find the stairs '>'.", lv->name ? lv->name : "the dungeon",
			 n_levels);
	describe_level(g);
	return g;
}

void game_destroy(struct game *g)
{
	if (!g)
		return;
	level_state_free(g);
	free(g);
}

/* ---- fighting ----------------------------------------------------------- */

/* A damage roll of `damage`: from half of it (rounded up) to all of it. */
static int roll_damage(struct game *g, int damage)
{
	if (damage <= 0)
		return 0;
	return rng_range(&g->combat, (damage + 1) / 2, damage);
}

/* Whether a blow or shot with this chance in percent hits: the chance is
 * held to 5..100 (a blow never becomes hopeless), one draw of the combat
 * stream. */
static bool roll_hit(struct game *g, int chance)
{
	if (chance < 5)
		chance = 5;
	if (chance >= 100)
		return true;
	return rng_range(&g->combat, 1, 100) <= chance;
}

int game_player_hit_chance(const struct game *g, const struct monster_kind *k)
{
	const struct rule_knobs *r = &g->bestiary.rules;
	int c = r->player_hit + (g->player.xlevel - 1) * r->level_hit + g->player.hit_bonus - k->evade;
	return c < 5 ? 5 : c > 100 ? 100 : c;
}

int game_monster_hit_chance(const struct game *g, const struct monster_kind *k)
{
	int c = k->hit - g->player.armour;
	return c < 5 ? 5 : c > 100 ? 100 : c;
}

long game_xp_for_level(const struct game *g, int level)
{
	long base = g->bestiary.rules.xp_base;
	return level <= 1 ? 0 : base * level * (level - 1) / 2;
}

/* The player gains xp; each level reached raises max hp (healing as much)
 * and the chance to hit, and every level_damage levels the damage. */
void game_gain_xp(struct game *g, int xp)
{
	struct player *p = &g->player;
	const struct rule_knobs *r = &g->bestiary.rules;
	p->xp += xp;
	while (p->xlevel < r->level_max && p->xp >= game_xp_for_level(g, p->xlevel + 1)) {
		p->xlevel++;
		p->max_hp += r->level_hp;
		p->hp += r->level_hp;
		bool harder = (p->xlevel - 1) % r->level_damage == 0;
		if (harder)
			p->damage++;
		game_message_add(g, "You feel stronger: level %d, %d hp%s.", p->xlevel, p->max_hp,
				 harder ? ", harder blows" : "");
	}
}

void game_monster_dies(struct game *g, struct monster *m)
{
	int c = cell_of(g, m->x, m->y);
	m->alive = false;
	m->seen = false;
	g->occupant[c] = -1;
	game_mark(g, MAP_OCCUPANT, c);
	ai_cell_held(&g->ai, c, false);
	ai_mind_fini(&m->mind);
}

static void player_attacks(struct game *g, struct monster *m)
{
	game_make_noise(g, player_cell(g), NOISE_FIGHT, -1);
	if (!roll_hit(g, game_player_hit_chance(g, m->kind))) {
		game_message_add(g, "You miss the %s.", m->kind->name);
		return;
	}
	int d = roll_damage(g, g->player.damage) + g->player.damage_bonus;
	if (d < 1)
		d = 1;
	m->hp -= d;
	if (m->hp <= 0) {
		int xp = bestiary_xp_worth(m->kind);
		game_message_add(g, "You kill the %s (+%d xp).", m->kind->name, xp);
		g->player.kills++;
		game_monster_dies(g, m);
		game_gain_xp(g, xp);
	} else {
		game_message_add(g, "You hit the %s (%d; %d/%d hp left).", m->kind->name, d, m->hp, m->kind->hp);
	}
}

/* Monster m's blow or shot at the player: the to-hit roll (its hit less
 * the player's armour), then the damage roll.  `how` opens the message of a
 * hit ("The goblin hits you"), `miss` is the whole message of a miss. */
static void player_hurt(struct game *g, const struct monster *m, const char *how, const char *miss)
{
	game_make_noise(g, player_cell(g), NOISE_FIGHT, (int)(m - g->monsters));
	if (g->first_contact_turn < 0)
		g->first_contact_turn = g->turn;
	int d = roll_hit(g, game_monster_hit_chance(g, m->kind)) ? roll_damage(g, m->kind->damage) : 0;
	if (d <= 0) {
		game_message_add(g, "%s", miss);
		return;
	}
	g->player.hp -= d;
	g->damage_taken += d;
	g->last_hurt_turn = g->turn;
	if (g->player.hp <= 0) {
		g->player.hp = 0;
		snprintf(g->killer, sizeof g->killer, "%s %s", game_article(m->kind->name), m->kind->name);
		game_message_add(g, "%s (%d). You die on level %d at experience level %d with %d gold. (seed %llu)",
				 how, d, g->depth + 1, g->player.xlevel, g->player.gold, (unsigned long long)g->seed);
		g->over = true;
		return;
	}
	game_message_add(g, "%s (%d).", how, d);
}

/* A monster hits the player (adjacent); the caller charges the energy. */
static void monster_attack(struct game *g, const struct monster *m)
{
	CHECK(grid_is_adjacent(g->grid, cell_of(g, m->x, m->y), player_cell(g)));
	char how[64], miss[64];
	snprintf(how, sizeof how, "The %.31s hits you", m->kind->name);
	snprintf(miss, sizeof miss, "The %.31s misses you.", m->kind->name);
	player_hurt(g, m, how, miss);
}

/* Whether cell c holds a monster a shot meets: any (the rules), or with
 * seen_only one the player sees (what the player can tell). */
static inline bool shot_meets(const struct game *g, int c, bool seen_only)
{
	const int k = g->occupant[c];
	return k >= 0 && (!seen_only || (g->monsters[k].alive && g->monsters[k].seen));
}

/* Whether a shot passes cell c: inside the map, clear to sight, no monster. */
static inline bool shot_passes(const struct game *g, int c, bool seen_only)
{
	return c >= 0 && !g->opaque[c] && !shot_meets(g, c, seen_only);
}

static inline int shot_stop(const struct game *g, int from, int to, int *monster, bool seen_only)
{
	*monster = -1;
	struct fov_sample line[GAME_SHOT_MAX];
	int n = fov_line_cells(g->grid, grid_x(g->grid, from), grid_y(g->grid, from), grid_x(g->grid, to),
			       grid_y(g->grid, to), line, GAME_SHOT_MAX);
	if (n < 0)
		return -1;
	if (n > GAME_SHOT_MAX)
		n = GAME_SHOT_MAX; /* farther than any range: it flies as far as it is traced */
	for (int i = 0; i < n; i++) {
		const struct fov_sample *s = &line[i];
		if (shot_passes(g, s->cell[0], seen_only) || (s->n == 2 && shot_passes(g, s->cell[1], seen_only)))
			continue;
		for (int j = 0; j < s->n; j++) {
			int c = s->cell[j];
			if (c >= 0 && shot_meets(g, c, seen_only)) {
				*monster = g->occupant[c];
				return c;
			}
		}
		return s->cell[0] >= 0 || s->n == 1 ? s->cell[0] : s->cell[1];
	}
	return to;
}

int game_shot_stop(const struct game *g, int from, int to, int *monster)
{
	return shot_stop(g, from, to, monster, false);
}

int game_shot_stop_seen(const struct game *g, int to)
{
	int monster;
	return shot_stop(g, grid_index(g->grid, g->player.x, g->player.y), to, &monster, true);
}

/* Whether the player sees `cell` now, from where it stands: visible[] is
 * the view after the player's last action, and a shooter may have just
 * stepped into the line that lets it shoot. */
static bool player_sees_now(const struct game *g, int cell)
{
	return cell >= 0 && fov_line_of_sight(g->grid, g->opaque, g->player.x, g->player.y, grid_x(g->grid, cell),
					      grid_y(g->grid, cell), g->sight_radius);
}

/* Monster m shoots at the player's cell `to` (AI_SHOOT): the shot hits the
 * player, or the first monster on the line (whoever it belongs to), or a
 * wall; the messages say which when the player sees the shooter or the
 * place the shot stops.  The caller charges the energy. */
static void monster_shoot(struct game *g, struct monster *m, int to)
{
	int from = cell_of(g, m->x, m->y), hit;
	int stop = game_shot_stop(g, from, to, &hit);
	bool seen = player_sees_now(g, from);
	const char *name = m->kind->name;
	char shot[48];
	if (seen)
		snprintf(shot, sizeof shot, "The %.31s's shot", name);
	else
		snprintf(shot, sizeof shot, "A shot");
	if (stop == to) {
		char how[64], miss[64];
		snprintf(how, sizeof how, "%s%.31s shoots you", seen ? "The " : "Something", seen ? name : "");
		snprintf(miss, sizeof miss, "%.47s misses you.", shot);
		player_hurt(g, m, how, miss);
		return;
	}
	bool shown = seen || player_sees_now(g, stop);
	if (hit < 0) {
		if (shown)
			game_message_add(g, "%s hits the %s.", shot,
					 stop >= 0 && g->tiles[stop] == TILE_DOOR ? "door" : "wall");
		return;
	}
	struct monster *t = &g->monsters[hit];
	int chance = m->kind->hit - t->kind->evade;
	int d = roll_hit(g, chance) ? roll_damage(g, m->kind->damage) : 0;
	t->hp -= d;
	if (t->hp <= 0) {
		if (shown)
			game_message_add(g, "%s kills the %s.", shot, t->kind->name);
		game_monster_dies(g, t);
	} else if (shown) {
		if (d > 0)
			game_message_add(g, "%s hits the %s (%d).", shot, t->kind->name, d);
		else
			game_message_add(g, "%s misses the %s.", shot, t->kind->name);
	}
}

/* Opens the closed door at `cell` (a mover walks into it). */
static bool open_door(struct game *g, int cell)
{
	if (g->tiles[cell] != TILE_DOOR || g->open[cell])
		return false;
	g->open[cell] = 1;
	g->opaque[cell] = 0;
	game_mark(g, MAP_OPEN, cell);
	game_mark(g, MAP_OPAQUE, cell);
	return true;
}

static int enter_cost(const struct game *g, int cell)
{
	return 100 * (int)g->grid->cost[cell];
}

/* A monster enters `to` (a legal, free step), opening a closed door on
 * the way in; returns the energy it costs. */
static int monster_step(struct game *g, struct monster *m, int to)
{
	int from = cell_of(g, m->x, m->y);
	int idx = g->occupant[from];
	CHECK(g->occupant[to] < 0 && to != player_cell(g) && game_can_step(g, from, to));
	if (open_door(g, to)) {
		if (g->visible[to] || g->visible[from]) {
			game_message_add(g, "The %s opens a door.", m->kind->name);
		} else if (grid_step_distance(g->grid, to, player_cell(g)) <= NOISE_DOOR) {
			game_message_add(g, "You hear a door open.");
			g->heard = "you hear a door open";
		}
		game_make_noise(g, to, NOISE_DOOR, idx);
	}
	g->occupant[from] = -1;
	game_mark(g, MAP_OCCUPANT, from);
	ai_cell_held(&g->ai, from, false);
	g->occupant[to] = idx;
	game_mark(g, MAP_OCCUPANT, to);
	ai_cell_held(&g->ai, to, true);
	m->x = grid_x(g->grid, to);
	m->y = grid_y(g->grid, to);
	if (g->first_contact_turn < 0 && grid_is_adjacent(g->grid, to, player_cell(g)))
		g->first_contact_turn = g->turn;
	return enter_cost(g, to);
}

/* The tile at `cell` is now t: the grid's entering cost, the opacity and
 * the AI's maps follow.  The player's memory (known[]) follows only when
 * the player sees the cell (fov_update, after the monsters' turns). */
void game_tile_set(struct game *g, int cell, enum tile t)
{
	g->tiles[cell] = (uint8_t)t;
	grid_set_cost(g->grid, cell, game_cell_cost(g, cell));
	g->opaque[cell] = tile_info(t)->blocks_sight;
	game_mark(g, MAP_TILES, cell);
	game_mark(g, MAP_OPAQUE, cell);
	ai_cell_changed(&g->ai, g->grid, cell);
}

bool game_grid_from_tiles(struct game *g)
{
	/* Most cells of a loaded state are as the level began, which the grid
	 * and the AI's regions (labelled from it) already hold: only a cell
	 * whose cost differs is set, and the regions are labelled again only
	 * when one opened or closed.  A cost of game_cell_cost, with the
	 * tiles' costs looked up once. */
	const size_t n = (size_t)g->grid->w * (size_t)g->grid->h;
	int base[TILE_COUNT];
	for (int t = 0; t < TILE_COUNT; t++)
		base[t] = tile_info((enum tile)t)->cost;
	const uint8_t *now = g->grid->cost;
	bool passable_changed = false;
	/* a block of the level's own tiles and no caltrops has the costs the
	 * grid was made with (level_grid; a loaded state lies on a fresh
	 * level): two memcmps skip it */
	const uint8_t *start = game_level(g)->tiles;
	static const uint8_t none[CELLMARK_BLOCK];
	/* a block that neither map has touched since the level began (the
	 * load marks the blocks it lays) is the level's own: not even read */
	const struct cellmark *mt = &g->marks[MAP_TILES], *mh = &g->marks[MAP_HAZARD];
	const bool marked = mt->touched && mh->touched && mt->cells == n && mh->cells == n;
	for (size_t c = 0; c < n; c++) {
		if ((c & (CELLMARK_BLOCK - 1)) == 0) {
			const size_t len = n - c < CELLMARK_BLOCK ? n - c : CELLMARK_BLOCK;
			const int b = (int)(c >> CELLMARK_SHIFT);
			if (marked && !cellmark_bit(mt->touched, b) && !cellmark_bit(mh->touched, b)) {
				c += len - 1;
				continue;
			}
			if (memcmp(g->tiles + c, start + c, len) == 0 && (!g->hazard || memcmp(g->hazard + c, none, len) == 0)) {
				c += len - 1;
				continue;
			}
		}
		const uint8_t t = g->tiles[c];
		int v = t < TILE_COUNT ? base[t] : tile_info((enum tile)t)->cost;
		if (v > 0 && g->hazard)
			v += g->hazard[c];
		const uint8_t cost = (uint8_t)(v > 255 ? 255 : v);
		if (cost != now[c]) {
			passable_changed |= (cost == 0) != (now[c] == 0);
			grid_set_cost(g->grid, (int)c, cost);
		}
	}
	return ai_level_refresh(&g->ai, g->grid, passable_changed);
}

/*
 * A turn of monster m's work on the wall at `cell` (AI_DIG: DESIGN section
 * 4, rule 6).  Its mind counts the turns (mind.timer); at the kind's
 * dig_turns the wall becomes rubble.  The player is told what it sees
 * ("The umber hulk digs at the wall.", "... digs through the wall.") or,
 * unseen within DIG_HEARD steps, hears ("You hear digging."), once as the
 * work starts and once as it ends.  A decision that is not a diggable wall
 * next to the monster is a wait (the AI never makes one).
 */
static void monster_dig(struct game *g, const struct monster *m, int cell)
{
	int from = cell_of(g, m->x, m->y);
	int x = grid_x(g->grid, cell), y = grid_y(g->grid, cell);
	bool ok = grid_is_adjacent(g->grid, from, cell) &&
		  tile_diggable((enum tile)g->tiles[cell], g->grid->w, g->grid->h, x, y);
	CHECK(ok);
	if (!ok)
		return;
	bool done = m->mind.timer >= m->kind->dig_turns;
	if (m->mind.timer != 1 && !done)
		return;
	if (done)
		game_tile_set(g, cell, TILE_RUBBLE);
	if (g->visible[from] || (done && g->visible[cell])) {
		game_message_add(g, done ? "The %s digs through the wall." : "The %s digs at the wall.", m->kind->name);
	} else if (grid_step_distance(g->grid, from, player_cell(g)) <= DIG_HEARD) {
		game_message_add(g, "You hear digging.");
		g->heard = "you hear digging";
	}
}

/*
 * Monster i buds off another of its kind onto `cell` (AI_BREED; docs/ai.md,
 * "Mind: breed"): a new monster in the next slot, at full hit points,
 * without energy (it acts from the next turn), knowing what its parent
 * knew of the player.  Refused (a wait) past the kind's breed_max on the
 * level, the slain counted, or when the level has no slot left, or on a
 * cell that is not free beside the parent (the AI never asks that).  The
 * player is told what it sees, or hears within DIG_HEARD steps (a sound
 * that does not stop travel: g->heard is the digging's).
 */
static void monster_breed(struct game *g, int i, int cell)
{
	const struct monster *m = &g->monsters[i];
	const struct monster_kind *k = m->kind;
	int from = cell_of(g, m->x, m->y);
	bool ok = cell != player_cell(g) && g->occupant[cell] < 0 && game_can_step(g, from, cell);
	CHECK(ok);
	if (!ok || g->n_monsters >= g->monster_cap)
		return;
	int count = 0;
	for (int j = 0; j < g->n_monsters; j++)
		count += g->monsters[j].kind == k;
	if (count >= k->breed_max)
		return;
	int j = g->n_monsters++;
	struct monster *b = &g->monsters[j];
	*b = (struct monster){ .kind = k, .x = grid_x(g->grid, cell), .y = grid_y(g->grid, cell), .hp = k->hp,
			       .alive = true };
	ai_mind_init(&g->ai, &b->mind, j);
	const struct mind *pm = &g->monsters[i].mind;
	b->mind.hunting = pm->hunting;
	b->mind.target_x = pm->target_x;
	b->mind.target_y = pm->target_y;
	b->mind.memory_left = pm->memory_left;
	b->mind.last_seen_turn = pm->last_seen_turn;
	g->occupant[cell] = j;
	game_mark(g, MAP_OCCUPANT, cell);
	ai_cell_held(&g->ai, cell, true);
	g->noticed[j] = 0;
	g->monster_dist[j] = game_monster_distance(g, j);
	if (player_sees_now(g, from) || player_sees_now(g, cell)) {
		game_message_add(g, "The %s splits in two!", k->name);
	} else if (grid_step_distance(g->grid, from, player_cell(g)) <= DIG_HEARD) {
		game_message_add(g, "You hear a wet, tearing sound.");
	}
}

/*
 * Says a mind's tell (ai.h enum ai_tell) for monster m, before its action:
 * what the player sees from where it stands now (line of sight within its
 * sight radius), or for an ambusher's spring what it hears.  One message
 * a turn for a whole pack: the same words in the same turn are not said
 * twice (the log is state, so this needs nothing more).
 */
static void monster_tell(struct game *g, const struct monster *m, enum ai_tell tell)
{
	if (tell == AI_TELL_NONE)
		return;
	bool in_view =
		fov_line_of_sight(g->grid, g->opaque, g->player.x, g->player.y, m->x, m->y, g->sight_radius);
	char text[GAME_MESSAGE_LEN];
	switch (tell) {
	case AI_TELL_PACK_SPREAD:
		if (!in_view)
			return;
		snprintf(text, sizeof text, "The %ss spread out.", m->kind->name);
		break;
	case AI_TELL_AMBUSH_SPRING:
		if (in_view)
			snprintf(text, sizeof text, "%s %s drops from its lair!",
				 strcmp(game_article(m->kind->name), "an") == 0 ? "An" : "A", m->kind->name);
		else
			snprintf(text, sizeof text, "You hear something drop from its lair nearby.");
		break;
	case AI_TELL_SWARM_HOLD:
		if (!in_view)
			return;
		snprintf(text, sizeof text, "The %ss hang back, gathering.", m->kind->name);
		break;
	case AI_TELL_SWARM_RUSH:
		if (!in_view)
			return;
		snprintf(text, sizeof text, "The %ss swarm in!", m->kind->name);
		break;
	case AI_TELL_RANGED_STAND:
		if (!in_view)
			return;
		snprintf(text, sizeof text, "The %s stands its ground!", m->kind->name);
		break;
	default:
		return;
	}
	if (g->n_messages > 0) {
		const struct message *last = game_message(g, 0);
		if (last && last->turn == g->turn && strcmp(last->text, text) == 0)
			return;
	}
	game_message_add(g, "%s", text);
}

/* Carries out monster i's decision and charges its energy: a step 100
 * times the entering cost, an attack, a turn of digging or a wait 100. */
/*
 * The crowd rule `pass` (docs/ai.md, "Crowds: priority passing"): monster
 * i steps onto `to`, which monster b holds and the AI pushed on
 * (ai_pushed).  b takes its own step first and pays for it with its own
 * energy, making room the same way where its step is held (a chain along
 * a corridor); pushed onto i's cell, the two swap.  Returns i's cost.
 */
static bool monster_sound(const struct game *g, int i);

static int monster_pushing_step(struct game *g, int i, int to, int depth)
{
	struct monster *m = &g->monsters[i];
	int from = cell_of(g, m->x, m->y), b = g->occupant[to], dest = ai_pushed(&g->ai, b);
	struct monster *mb = &g->monsters[b];
	CHECK(b != i && dest >= 0 && depth < AI_PUSH_MAX && mb->alive && mb->energy >= 100);
	if (b == i || dest < 0 || depth >= AI_PUSH_MAX)
		return 100; /* not pushed (never, by the AI's rule): the step is a wait */
	if (g->on_monster_act)
		g->on_monster_act(g->on_monster_act_ud, g, b, (struct ai_decision){ .act = AI_STEP, .cell = dest });
	if (dest == from) {
		/* a swap: b is lifted off `to`, i steps in, b takes i's cell */
		g->occupant[to] = -1;
		ai_cell_held(&g->ai, to, false);
		int cost = monster_step(g, m, to);
		g->occupant[from] = b;
		ai_cell_held(&g->ai, from, true);
		mb->x = grid_x(g->grid, from);
		mb->y = grid_y(g->grid, from);
		mb->energy -= enter_cost(g, from);
		if (g->first_contact_turn < 0 && grid_is_adjacent(g->grid, from, player_cell(g)))
			g->first_contact_turn = g->turn;
		return cost;
	}
	if (g->occupant[dest] >= 0)
		mb->energy -= monster_pushing_step(g, b, dest, depth + 1);
	else
		mb->energy -= monster_step(g, mb, dest);
	CHECK(monster_sound(g, b));
	return monster_step(g, m, to);
}

static void monster_act(struct game *g, int i, struct ai_decision d)
{
	struct monster *m = &g->monsters[i];
	int cost = 100;
	monster_tell(g, m, d.tell);
	switch (d.act) {
	case AI_STEP:
		if (g->occupant[d.cell] >= 0) {
			cost = monster_pushing_step(g, i, d.cell, 0);
			break;
		}
		cost = monster_step(g, m, d.cell);
		break;
	case AI_ATTACK:
		CHECK(d.cell == player_cell(g));
		monster_attack(g, m);
		break;
	case AI_SHOOT:
		CHECK(d.cell == player_cell(g));
		monster_shoot(g, m, d.cell);
		break;
	case AI_DIG:
		monster_dig(g, m, d.cell);
		break;
	case AI_BREED:
		monster_breed(g, i, d.cell);
		break;
	case AI_WAIT:
		break;
	}
	CHECK(cost >= 100);
	m->energy -= cost;
}

/* ---- the player --------------------------------------------------------- */

/* Goes down the stairs: the next level, or victory after the last. */
static enum act_result descend(struct game *g)
{
	if (g->depth + 1 >= g->n_levels) {
		g->over = true;
		g->won = true;
		game_message_add(g, "You take the last stairs out of the dungeon and win, with %d gold and %d kill%s "
				    "in %d turn%s! (seed %llu)",
				 g->player.gold, g->player.kills, g->player.kills == 1 ? "" : "s", g->turn,
				 g->turn == 1 ? "" : "s", (unsigned long long)g->seed);
		return RESULT_WON;
	}
	if (!game_level_load(g, g->depth + 1)) {
		/* no memory for the next level: the game cannot go on */
		g->over = true;
		game_message_add(g, "Out of memory loading the next level.");
		return RESULT_DIED;
	}
	const struct level *lv = game_level(g);
	game_message_add(g, "You go down the stairs to level %d of %d: %s.", g->depth + 1, g->n_levels,
			 lv->name ? lv->name : "");
	describe_level(g);
	return RESULT_NEW_LEVEL;
}

/*
 * The player enters `to` (a legal, unoccupied step): opens a door on the
 * way, puts a potion into the pack (if it has room), picks up gold, and
 * says so on stepping onto stairs ('>' descends: the stairs are taken only
 * when chosen).  Returns the energy it costs.
 */
int game_player_enter(struct game *g, int to, enum act_result *res)
{
	*res = RESULT_ACTED;
	if (open_door(g, to)) {
		game_message_add(g, "You open the door.");
		game_make_noise(g, to, NOISE_DOOR, -1);
	}
	g->player.x = grid_x(g->grid, to);
	g->player.y = grid_y(g->grid, to);
	int cost = enter_cost(g, to);
	game_item_step_on(g, to);
	if (g->tiles[to] == TILE_EXIT)
		game_message_add(g, "There are stairs down here: press > to descend.");
	return cost;
}

/* ACT_MOVE: step, bump-attack, open a door.  Returns energy spent (0 = no time). */
static int player_move(struct game *g, enum grid_dir d, enum act_result *res)
{
	*res = RESULT_NOTHING;
	int nx, ny;
	if (!grid_dir_step(g->grid, g->player.x, g->player.y, d, &nx, &ny)) {
		game_message_add(g, "There is no %s on a %s map.",
				 (unsigned)d < GRID_DIR_COUNT ? grid_dir_name(d) : "such direction",
				 grid_topology_name(g->grid->topo));
		return 0;
	}
	if (!grid_in_bounds(g->grid, nx, ny)) {
		game_message_add(g, "The edge of the map.");
		return 0;
	}
	int from = player_cell(g), to = cell_of(g, nx, ny);
	if (!grid_passable(g->grid, to)) {
		game_message_add(g, "There is %s in the way.",
				 g->tiles[to] == TILE_VOID ? "nothing to stand on" : "a wall");
		return 0;
	}
	if (!game_can_step(g, from, to)) {
		game_message_add(g, "You cannot squeeze past the corner.");
		return 0;
	}
	struct monster *m = game_monster_at(g, nx, ny);
	if (m) {
		g->noticed[g->occupant[to]] = 1;
		player_attacks(g, m);
		*res = RESULT_ACTED;
		return 100;
	}
	return game_player_enter(g, to, res);
}

/* ---- the turn loop ------------------------------------------------------ */

/* What the AI may read of the game now (ai.h): const, and valid for the
 * monster turns of this game turn (the player does not move in them). */
static struct ai_view ai_view_of(struct game *g)
{
	return (struct ai_view){
		.grid = g->grid,
		.opaque = g->opaque,
		.occupant = g->occupant,
		.monsters = g->monsters,
		.n_monsters = g->n_monsters,
		.player_x = g->player.x,
		.player_y = g->player.y,
		.turn = g->turn,
		.tiles = g->tiles,
		.scent = g->scent,
		.rng = &g->rng,
		.crowd_rule = g->bestiary.rules.crowd,
	};
}

/* ---- invariants (CHECK: the test build only) ----------------------------- */

/* Monster i stands where the occupant map says, on a passable cell that is
 * not the player's; a dead one is in the map no more; its energy is within
 * what acting from 100 or more can leave (a step costs at most 100 x 255). */
static bool monster_sound(const struct game *g, int i)
{
	const struct monster *m = &g->monsters[i];
	if (!grid_in_bounds(g->grid, m->x, m->y))
		return false;
	int c = cell_of(g, m->x, m->y);
	if (!m->alive)
		return g->occupant[c] != i;
	return g->occupant[c] == i && grid_passable(g->grid, c) && c != player_cell(g) &&
	       m->energy > 100 - 100 * 256 && m->energy < 100 + m->kind->speed;
}

/* The whole play state: every monster sound (so no two share a cell: the
 * occupant map holds one index a cell), the player on a passable cell no
 * monster holds. */
static bool state_sound(const struct game *g)
{
	for (int i = 0; i < g->n_monsters; i++)
		if (!monster_sound(g, i))
			return false;
	int pc = player_cell(g);
	return grid_passable(g->grid, pc) && g->occupant[pc] < 0;
}

/* The tells of a monster's decision d, when the player sees it: it
 * noticed the player (it sees it now and hunted nothing before; unless it
 * strikes at once: the blow says so), or it picked up the player's trail.
 * knew, tracked: whether it hunted or tracked before deciding. */
static void tell(struct game *g, const struct monster *m, struct ai_decision d, bool knew, bool tracked)
{
	/* the conditions first: they seldom hold, and visible[] at a far
	 * monster's cell is a cache miss (a tenth of a key's CPU on 4096x4096) */
	bool notices = m->mind.sighted && !knew && d.act != AI_ATTACK;
	bool sniffs = m->mind.tracking && !tracked;
	if (!(notices || sniffs) || !g->visible[cell_of(g, m->x, m->y)])
		return;
	if (notices)
		game_message_add(g, "The %s notices you!", m->kind->name);
	else
		game_message_add(g, "The %s sniffs the ground and follows your trail.", m->kind->name);
}

/* Monsters heal: a hurt one regains 1 hp on every turn that is a multiple
 * of its kind's heal (else the rules' heal).  No state: the turn decides. */
static void monsters_heal(struct game *g)
{
	/* the pass over every monster only on a turn that some kind heals on
	 * (the rules' heal 20: one turn in 20; 67,000 monsters on the
	 * 4096x4096 bench level, a pass of memory a turn) */
	bool any = false;
	for (int k = 0; k < g->bestiary.n && !any; k++) {
		int every = g->bestiary.kinds[k].heal > 0 ? g->bestiary.kinds[k].heal : g->bestiary.rules.heal;
		any = every > 0 && g->turn % every == 0;
	}
	if (!any)
		return;
	for (int i = 0; i < g->n_monsters; i++) {
		struct monster *m = &g->monsters[i];
		int every = m->kind->heal > 0 ? m->kind->heal : g->bestiary.rules.heal;
		if (m->alive && m->hp < m->kind->hp && every > 0 && g->turn % every == 0)
			m->hp++;
	}
}

/* A cell where a wandering monster may arrive: passable, free, out of the
 * player's sight, farther than its sight radius in steps, and in the
 * player's region (it can come); -1 when a few draws find none. */
static int arrival_cell(struct game *g)
{
	int cells = g->grid->w * g->grid->h, pc = player_cell(g);
	for (int tries = 0; tries < 32; tries++) {
		int c = rng_range(&g->arrive, 0, cells - 1);
		if (grid_passable(g->grid, c) && g->occupant[c] < 0 && c != pc && !g->visible[c] &&
		    ai_regions(&g->ai, g->grid)[c] == ai_regions(&g->ai, g->grid)[pc] &&
		    grid_step_distance(g->grid, c, pc) > g->sight_radius)
			return c;
	}
	return -1;
}

/*
 * Wandering arrivals (docs/play.md, "A price for time"): once a game turn
 * a draw of the arrival stream says whether a monster arrives, with a
 * chance that grows with the turns the level has been held: arrival per
 * 1000 turns on entering, one more arrival's worth every arrival_ramp
 * turns.  Its kind is drawn as the generator draws a level of this depth
 * (gen_kinds_at), its place out of sight (arrival_cell); it comes to look
 * where the player was when it arrived (it heard or smelled the intruder),
 * and the player hears it when it arrives near enough.
 */
static void monsters_arrive(struct game *g)
{
	const struct rule_knobs *r = &g->bestiary.rules;
	if (r->arrival <= 0 || g->arrivals >= r->arrival_max || g->n_monsters >= g->monster_cap)
		return;
	long long held = g->turn - g->level_turn;
	long long den = 1000LL * r->arrival_ramp;
	long long num = (long long)r->arrival * (r->arrival_ramp + held);
	if (num < den && rng_range(&g->arrive, 0, (int)(den - 1)) >= num)
		return;
	char glyphs[BESTIARY_MAX_KINDS];
	int weights[BESTIARY_MAX_KINDS];
	int n = gen_kinds_at(&g->bestiary, g->depth + 1, glyphs, weights, BESTIARY_MAX_KINDS), total = 0;
	for (int i = 0; i < n; i++)
		total += weights[i];
	if (total <= 0)
		return;
	int v = rng_range(&g->arrive, 0, total - 1), pick = 0;
	while (pick < n - 1 && v >= weights[pick])
		v -= weights[pick++];
	const struct monster_kind *k = bestiary_find_glyph(&g->bestiary, glyphs[pick]);
	int c = arrival_cell(g);
	if (!k || c < 0)
		return;
	int i = g->n_monsters++;
	g->arrivals++;
	struct monster *m = &g->monsters[i];
	memset(m, 0, sizeof *m);
	m->kind = k;
	m->x = grid_x(g->grid, c);
	m->y = grid_y(g->grid, c);
	m->hp = k->hp;
	m->alive = true;
	ai_mind_init(&g->ai, &m->mind, i);
	ai_mind_alert(&m->mind, k, g->player.x, g->player.y, g->turn);
	g->occupant[c] = i;
	game_mark(g, MAP_OCCUPANT, c);
	ai_cell_held(&g->ai, c, true);
	g->noticed[i] = 0;
	g->monster_dist[i] = game_monster_distance(g, i);
	if (grid_step_distance(g->grid, c, player_cell(g)) <= DIG_HEARD) {
		game_message_add(g, "You hear something coming.");
		g->heard = "you hear something coming";
	}
}

/*
 * How far ahead run_monsters asks for the memory a monster's decision
 * reads first.  On a 4096x4096 level those reads are cache misses in
 * per-cell arrays of 16-64 MB: the occupant cell after a wanderer's route
 * (most of ai_next_step's time), the tile of a step (open_door), the
 * costs round it (ai_can_step's grid_neighbours), the route itself
 * (ai_route_due).  Asked for a few monsters ahead, they arrive while the
 * monsters before decide: the route of the one PREFETCH_ROUTE ahead, the
 * three map rows round the one PREFETCH_ROWS ahead.  A sleeper reads none
 * of it, nor does an idle chaser that does not wander.  No effect on play: a prefetch reads nothing.  Inlined always: GCC
 * takes a function that only prefetches for a pure one and drops the
 * calls (path.c's prefetch_around is inlined for the same reason).
 */
#define PREFETCH_ROUTE 16
#define PREFETCH_ROWS 8

/* A wanderer that hunts nothing, has no goal and waits this turn for its
 * turn to draw one (ai_wander_waits): 7 in 8 of the 13,000 such bats a
 * turn on the 4096x4096 bench level, whose rows and routes were 10 lines
 * each fetched for nothing. */
static inline __attribute__((always_inline)) bool wander_waits(const struct game *g, const struct monster *m, int j)
{
	return !m->mind.hunting && !m->mind.fleeing && m->mind.wander < 0 && m->kind->wander &&
	       m->kind->behaviour == MIND_CHASE && ai_wander_waits(&g->ai, g->turn, j);
}

static inline __attribute__((always_inline)) void prefetch_route(const struct game *g, int j)
{
	const struct monster *m = &g->monsters[j];
	const struct mind *mi = &m->mind;
	if (m->alive && !mi->asleep && mi->route && mi->route_pos >= 0 && mi->route_pos < mi->route_len &&
	    mi->route_len <= mi->route_cap && !wander_waits(g, m, j))
		__builtin_prefetch(&mi->route[mi->route_pos]);
}

static inline __attribute__((always_inline)) void prefetch_rows(const struct game *g, int j)
{
	const struct monster *m = &g->monsters[j];
	if (!m->alive || m->mind.asleep)
		return;
	/* an awake chaser that hunts nothing and does not wander waits where
	 * it is (ai.c, idle): its rows would be 9 lines fetched for nothing,
	 * 30,000 such rats and goblins a turn on the 4096x4096 bench level */
	if (!m->mind.hunting && !m->mind.fleeing && !m->kind->wander && m->kind->behaviour == MIND_CHASE)
		return;
	if (wander_waits(g, m, j))
		return;
	const int w = g->grid->w, n = w * g->grid->h, c = cell_of(g, m->x, m->y);
	/* a monster that follows a route steps to its next cell, and one of
	 * two moves a turn (a bat) steps on from there: the rows round that
	 * cell too (a row beyond the three round its own when it moves up or
	 * down), and the crowd map's cells the step leaves and enters */
	const struct mind *mi = &m->mind;
	int lo = -1, hi = 1;
	if (mi->route && mi->route_pos >= 0 && mi->route_pos + 1 < mi->route_len && mi->route_len <= mi->route_cap) {
		int next = mi->route[mi->route_pos + 1];
		if (next >= 0 && next < n) {
			lo = next < c - 1 ? -2 : -1;
			hi = next > c + 1 ? 2 : 1;
			__builtin_prefetch(&g->ai.crowd[next], 1);
		}
	}
	__builtin_prefetch(&g->ai.crowd[c], 1);
	for (int r = lo; r <= hi; r++) {
		int k = c + r * w;
		if (k < 0 || k >= n)
			continue;
		__builtin_prefetch(&g->occupant[k]);
		__builtin_prefetch(&g->grid->cost[k]);
		__builtin_prefetch(&g->tiles[k]);
	}
}

/* How far each alive monster stands from the player before the monsters
 * move (one that comes closer is news: game_activity_check). */
static void monsters_measure(struct game *g)
{
	for (int i = 0; i < g->n_monsters; i++)
		if (g->monsters[i].alive)
			g->monster_dist[i] = game_monster_distance(g, i);
}

/* Runs game turns until the player has energy to act again.  The first
 * turn's pass that gives the monsters their energy also measures their
 * distances (monsters_measure: nothing moved since the player's action),
 * one pass over 67,000 monsters fewer a key on the 4096x4096 bench level;
 * with no turn to run they are measured alone. */
static void run_monsters(struct game *g)
{
	double t0 = clock_us(), c0 = clock_cpu_us();
	bool measure = true;
	while (!g->over && g->player.energy < 100) {
		g->turn++;
		scent_mark(g);
		g->player.energy += 100;
		/* the AI's count of the turn (ai_turn_begin) in the same pass:
		 * it reads no energy, and the energy reads nothing it writes */
		struct ai_view v = ai_view_of(g);
		ai_turn_open(&g->ai, &v);
		for (int i = 0; i < g->n_monsters; i++) {
			struct monster *m = &g->monsters[i];
			if (g->ai.counting)
				ai_turn_count(&g->ai, &v, i);
			if (!m->alive)
				continue;
			if (measure)
				g->monster_dist[i] = game_monster_distance(g, i);
			m->energy += m->kind->speed;
		}
		ai_turn_close(&g->ai);
		measure = false;
		for (int i = 0; i < g->n_monsters && !g->over; i++) {
			struct monster *m = &g->monsters[i];
			if (i + PREFETCH_ROUTE < g->n_monsters)
				prefetch_route(g, i + PREFETCH_ROUTE);
			if (i + PREFETCH_ROWS < g->n_monsters)
				prefetch_rows(g, i + PREFETCH_ROWS);
			/* a monster whose every action this turn is a wait that
			 * changes nothing but its perception (ai_idles; not when a
			 * tool watches each decision): the waits without a decision
			 * each, most of 67,000 monsters a turn on 4096x4096 */
			if (m->alive && m->energy >= 100 && !g->on_monster_act && ai_idles(&g->ai, &v, i, &m->mind)) {
				do
					m->energy -= 100;
				while (m->energy >= 100);
				CHECK(monster_sound(g, i));
				continue;
			}
			while (m->alive && m->energy >= 100 && !g->over) {
				bool knew = m->mind.hunting || m->mind.tracking, tracked = m->mind.tracking;
				struct ai_decision d;
				ai_decide_to(&g->ai, &v, i, &m->mind, &d);
				/* the planner rule: a monster steps only onto the
				 * cell its plan returned in this decision */
				CHECK(d.act != AI_STEP || d.cell == ai_planned(&g->ai));
				tell(g, m, d, knew, tracked);
				if (g->on_monster_act)
					g->on_monster_act(g->on_monster_act_ud, g, i, d);
				monster_act(g, i, d);
				v.n_monsters = g->n_monsters; /* a bud joined the level (the array never moves) */
				CHECK(monster_sound(g, i));
			}
		}
		if (!g->over) {
			monsters_heal(g);
			monsters_arrive(g);
		}
		struct player *p = &g->player;
		if (!g->over && p->hp < p->max_hp) {
			if (++p->regen >= PLAYER_REGEN_TURNS) {
				p->hp++;
				p->regen = 0;
			}
		} else {
			p->regen = 0;
		}
	}
	if (measure)
		monsters_measure(g);
	double us = clock_us() - t0, cpu = clock_cpu_us() - c0;
	g->ai.stats.ai_us += us;
	g->ai.stats.last_ai_us = us;
	g->ai.stats.ai_cpu_us += cpu;
	g->ai.stats.last_ai_cpu_us = cpu;
	CHECK(g->over || (g->player.energy >= 100 && g->player.energy < 200));
}

static enum act_result act(struct game *g, const struct action *a)
{
	g->ai.stats.last_ai_us = 0;
	g->ai.stats.last_ai_cpu_us = 0;
	g->heard = NULL;
	long damage0 = g->damage_taken;
	int gold0 = g->player.gold, potions0 = game_pack_total(g), from = player_cell(g);
	enum act_result res = RESULT_NOTHING;
	int cost = 0;
	switch (a->kind) {
	case ACT_NONE:
		return RESULT_NOTHING;
	case ACT_STOP:
		game_travel_cancel(g);
		return RESULT_NOTHING;
	case ACT_MOVE:
		game_travel_cancel(g);
		cost = player_move(g, a->dir, &res);
		break;
	case ACT_WAIT:
		game_travel_cancel(g);
		cost = 100;
		res = RESULT_ACTED;
		break;
	case ACT_TRAVEL:
		game_travel_cancel(g);
		cost = game_travel_start(g, a->x, a->y, &res);
		break;
	case ACT_TRAVEL_STEP:
		cost = game_travel_step(g, &res);
		break;
	case ACT_REST:
		game_travel_cancel(g);
		cost = game_rest_start(g, &res);
		break;
	case ACT_EXPLORE:
		game_travel_cancel(g);
		cost = game_explore_start(g, &res);
		break;
	case ACT_RUN: {
		game_travel_cancel(g);
		bool moved;
		cost = game_run_start(g, a->dir, &res, &moved);
		if (!moved)
			cost = player_move(g, a->dir, &res);
		break;
	}
	case ACT_QUAFF:
	case ACT_PICKUP:
	case ACT_USE:
	case ACT_THROW:
	case ACT_THROW_AT:
	case ACT_FIRE:
	case ACT_WIELD:
	case ACT_WEAR:
	case ACT_DROP:
	case ACT_CLOSE:
		game_travel_cancel(g);
		cost = game_item_act(g, a, &res);
		break;
	case ACT_DESCEND:
		game_travel_cancel(g);
		if (g->tiles[player_cell(g)] != TILE_EXIT) {
			game_message_add(g, "There are no stairs here.");
			return RESULT_NOTHING;
		}
		res = descend(g);
		break;
	}
	if (res == RESULT_NEW_LEVEL || res == RESULT_WON || g->over)
		return g->over && !g->won ? RESULT_DIED : res;
	if (cost <= 0)
		return RESULT_NOTHING;
	/* hurrying is heard: a step of a run, travel or autoexplore */
	bool hurry = a->kind == ACT_RUN || a->kind == ACT_TRAVEL || a->kind == ACT_EXPLORE ||
		     (a->kind == ACT_TRAVEL_STEP && g->travel.mode != MODE_REST);
	if (hurry && player_cell(g) != from)
		game_make_noise(g, player_cell(g), NOISE_HURRY, -1);
	if (player_cell(g) != from)
		game_item_moved(g); /* loud armour */
	/* how far each monster stands before it moves (one that comes closer
	 * is news) is measured by run_monsters' first pass */
	g->player.energy -= cost;
	run_monsters(g);
	fov_update(g);
	if (g->over)
		return RESULT_DIED;
	game_trees_follow(g);
	game_activity_check(g, damage0, gold0, potions0);
	return RESULT_ACTED;
}

enum act_result game_act(struct game *g, const struct action *a)
{
	if (!g || !a || g->over)
		return RESULT_NOTHING;
	g->level_fresh = false;
	enum act_result res = act(g, a);
	CHECK(state_sound(g));
	return res;
}

/* ---- describing and hashing --------------------------------------------- */

int game_noticed_by(const struct game *g)
{
	int n = 0;
	for (int i = 0; i < g->n_monsters; i++) {
		const struct monster *m = &g->monsters[i];
		n += m->alive && m->seen && !m->mind.asleep && (m->mind.hunting || m->mind.tracking);
	}
	return n;
}

enum tile game_tile_known(const struct game *g, int cell)
{
	enum tile t = (enum tile)g->tiles[cell];
	/* play changes terrain only by digging a wall into rubble */
	if (t == TILE_RUBBLE && !g->visible[cell] && g->remembered[cell] && g->known[cell] == 0)
		return TILE_WALL;
	return t;
}

void game_describe(const struct game *g, int x, int y, char *buf, size_t size)
{
	if (!grid_in_bounds(g->grid, x, y)) {
		snprintf(buf, size, "outside the map");
		return;
	}
	int c = cell_of(g, x, y);
	if (x == g->player.x && y == g->player.y) {
		snprintf(buf, size, "you (%d/%d hp, level %d, %d/%ld xp, %d gold)", g->player.hp, g->player.max_hp,
			 g->player.xlevel, g->player.xp, game_xp_for_level(g, g->player.xlevel + 1), g->player.gold);
		return;
	}
	if (!g->remembered[c]) {
		snprintf(buf, size, "unexplored");
		return;
	}
	const struct monster *m = game_monster_at(g, x, y);
	if (m && g->visible[c]) {
		const char *doing = game_monster_doing(m);
		/* the odds, as a seasoned player would ask: its and the player's chance to hit */
		snprintf(buf, size, "%s %s%s%s (%d/%d hp%s%s; you hit %d%%, it hits %d%%)", game_article(m->kind->name),
			 m->kind->name, m->kind->about[0] ? ": " : "", m->kind->about, m->hp, m->kind->hp,
			 strcmp(doing, "waiting") ? ", " : "", strcmp(doing, "waiting") ? doing : "",
			 game_player_hit_chance(g, m->kind), game_monster_hit_chance(g, m->kind));
		return;
	}
	enum tile t = game_tile_known(g, c);
	const char *ground = t == TILE_DOOR ? (g->open[c] ? "an open door" : "a closed door")
			   : t == TILE_EXIT ? "stairs down (stand on them and press > to descend)"
					    : tile_info(t)->name;
	const char *seen = g->visible[c] ? "" : " (remembered)";
	char what[GAME_MESSAGE_LEN / 2];
	if (g->items[c]) {
		game_item_name(g, g->items[c] - 1, g->item_qty[c], what, sizeof what);
		snprintf(buf, size, "%s on %s%s%s", what, ground, g->hazard[c] ? " strewn with caltrops" : "", seen);
	} else {
		snprintf(buf, size, "%s%s%s", ground, g->hazard[c] ? " strewn with caltrops" : "", seen);
	}
}

