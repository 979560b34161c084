/*
 * game.c - the rules and the state of a game: levels of a campaign, turns
 * and energy, the player's moves, melee, items, doors, stairs, travel along
 * the fallback route, the message log and the state hash.
 *
 * It never prints, never includes curses and never exits: the UI and the
 * scripted players of `sim` drive it with actions and read it back.  The AI
 * decides and the rules act: for each monster action ai_decide (ai.c) reads
 * a const struct ai_view of the game and returns wait, step or attack; this
 * file carries it out (the move, the door, the attack, the messages) and
 * charges the energy, so the same rules bind monsters and the player.  The
 * AI's state is struct ai (ai.h), embedded here; the rules touch it only
 * through ai.h.  In the test build CHECKs hold the play state sound after
 * each monster action and each game_act (state_sound).  Buffers are sized
 * once per level; a turn allocates nothing.
 *
 * Time: every actor gains its speed in energy each game turn and acts while
 * it has 100 or more.  A step costs 100 times the entering cost of the cell
 * (floor 1, rubble 2, water 3), an attack or a wait costs 100.  The player
 * has speed 100, so a move into water lets speed-100 monsters act three
 * times.  The turn counter counts game turns.
 */
#include "game.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "ai.h"
#include "check.h"
#include "clock.h"
#include "fov.h"

/* ---- small helpers ------------------------------------------------------ */

static int cell_of(const struct game *g, int x, int y) { return grid_index(g->grid, x, y); }

static int player_cell(const struct game *g) { return cell_of(g, g->player.x, g->player.y); }

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
	for (int i = 0; i < g->n_monsters; i++)
		ai_mind_fini(&g->monsters[i].mind);
	ai_level_fini(&g->ai);
	free(g->monsters);
	free(g->tiles);
	free(g->open);
	free(g->items);
	free(g->visible);
	free(g->remembered);
	free(g->known);
	free(g->monster_dist);
	free(g->noticed);
	free(g->occupant);
	free(g->opaque);
	free(g->travel.cells);
	path_destroy(g->path);
	path_destroy(g->reach.ctx);
	grid_destroy(g->grid);
	g->monsters = NULL;
	g->tiles = g->open = g->items = g->visible = g->remembered = g->opaque = g->known = NULL;
	g->noticed = NULL;
	g->monster_dist = NULL;
	g->occupant = g->travel.cells = NULL;
	g->path = NULL;
	g->reach.ctx = NULL;
	g->grid = NULL;
	g->n_monsters = 0;
	memset(&g->travel, 0, sizeof g->travel);
}

static void fov_update(struct game *g)
{
	size_t n = (size_t)g->grid->w * (size_t)g->grid->h;
	memset(g->visible, 0, n);
	fov_compute(g->grid, g->opaque, g->player.x, g->player.y, g->sight_radius, g->visible);
	/* only the radius' box can have changed */
	int r = g->sight_radius + 1;
	for (int y = g->player.y - r; y <= g->player.y + r; y++)
		for (int x = g->player.x - r - 1; x <= g->player.x + r + 1; x++) {
			if (!grid_in_bounds(g->grid, x, y) || !g->visible[cell_of(g, x, y)])
				continue;
			int c = cell_of(g, x, y);
			g->remembered[c] = 1;
			if (g->known[c] != g->grid->cost[c]) {
				g->known[c] = g->grid->cost[c];
				g->known_version++;
			}
		}
	for (int i = 0; i < g->n_monsters; i++) {
		struct monster *m = &g->monsters[i];
		m->was_seen = m->seen;
		m->seen = m->alive && g->visible[cell_of(g, m->x, m->y)];
	}
}

/* Distance in steps from monster i to the player. */
static int monster_distance(const struct game *g, int i)
{
	const struct monster *m = &g->monsters[i];
	return grid_step_distance(g->grid, cell_of(g, m->x, m->y), player_cell(g));
}

/* Loads levels[depth] into the play state; false on no memory. */
static bool level_load(struct game *g, int depth)
{
	level_state_free(g);
	const struct level *lv = g->levels[depth];
	g->depth = depth;
	g->level_serial++;
	g->grid = level_grid(lv);
	if (!g->grid)
		return false;
	size_t n = (size_t)lv->w * (size_t)lv->h;
	g->tiles = malloc(n);
	g->open = calloc(n, 1);
	g->items = calloc(n, 1);
	g->visible = calloc(n, 1);
	g->remembered = calloc(n, 1);
	g->known = malloc(n);
	g->opaque = malloc(n);
	g->occupant = malloc(n * sizeof *g->occupant);
	g->travel.cells = malloc(n * sizeof *g->travel.cells);
	g->monsters = calloc((size_t)lv->n_monsters + 1, sizeof *g->monsters);
	g->monster_dist = calloc((size_t)lv->n_monsters + 1, sizeof *g->monster_dist);
	g->noticed = calloc((size_t)lv->n_monsters + 1, 1);
	g->path = path_create(g->grid);
	g->reach.ctx = path_create(g->grid);
	g->reach.source = -1;
	if (!g->tiles || !g->open || !g->items || !g->visible || !g->remembered || !g->known ||
	    !g->opaque || !g->occupant || !g->travel.cells || !g->monsters || !g->monster_dist ||
	    !g->noticed || !g->path || !g->reach.ctx ||
	    !ai_level_init(&g->ai, g->grid, g->path, lv->n_monsters))
		return false;
	/* Every travel preview and click plans on g->path, and one into
	 * unexplored space crosses rows of the context no search has touched
	 * yet: on a 4096x4096 level their page faults took up to 60 ms. */
	path_prefault(g->path);
	g->travel.cap = (int)n;
	memset(g->known, 1, n); /* never seen: assumed open floor */
	memcpy(g->tiles, lv->tiles, n);
	for (size_t i = 0; i < n; i++) {
		g->opaque[i] = tile_info((enum tile)g->tiles[i])->blocks_sight;
		g->occupant[i] = -1;
	}
	for (int i = 0; i < lv->n_items; i++) {
		const struct level_item *it = &lv->items[i];
		if (grid_in_bounds(g->grid, it->x, it->y))
			g->items[cell_of(g, it->x, it->y)] = (uint8_t)(1 + it->kind);
	}
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
		g->occupant[c] = g->n_monsters;
		g->n_monsters++;
	}
	fov_update(g);
	for (int i = 0; i < g->n_monsters; i++) {
		g->monsters[i].was_seen = g->monsters[i].seen;
		g->noticed[i] = g->monsters[i].seen;
		g->monster_dist[i] = monster_distance(g, i);
	}
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
	g->seed = seed;
	rng_seed(&g->rng, seed);
	g->sight_radius = PLAYER_SIGHT;
	g->player.hp = g->player.max_hp = PLAYER_HP;
	g->player.damage = PLAYER_DAMAGE;
	g->first_contact_turn = -1;
	g->last_hurt_turn = -1;
	ai_init(&g->ai);
	if (!level_load(g, 0)) {
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

static int roll_damage(struct game *g, int damage)
{
	if (damage <= 0)
		return 0;
	return rng_range(&g->rng, (damage + 1) / 2, damage);
}

static void monster_dies(struct game *g, struct monster *m)
{
	int c = cell_of(g, m->x, m->y);
	m->alive = false;
	m->seen = false;
	g->occupant[c] = -1;
	ai_cell_held(&g->ai, c, false);
	ai_mind_fini(&m->mind);
}

static void player_attacks(struct game *g, struct monster *m)
{
	int d = roll_damage(g, g->player.damage);
	m->hp -= d;
	if (m->hp <= 0) {
		game_message_add(g, "You kill the %s.", m->kind->name);
		g->player.kills++;
		monster_dies(g, m);
	} else {
		game_message_add(g, "You hit the %s (%d damage, %d/%d hp left).", m->kind->name, d, m->hp,
				 m->kind->hp);
	}
}

/* A monster hits the player (adjacent); the caller charges the energy. */
static void monster_attack(struct game *g, const struct monster *m)
{
	CHECK(grid_is_adjacent(g->grid, cell_of(g, m->x, m->y), player_cell(g)));
	if (g->first_contact_turn < 0)
		g->first_contact_turn = g->turn;
	int d = roll_damage(g, m->kind->damage);
	if (d <= 0) {
		game_message_add(g, "The %s misses you.", m->kind->name);
		return;
	}
	g->player.hp -= d;
	g->damage_taken += d;
	g->last_hurt_turn = g->turn;
	if (g->player.hp <= 0) {
		g->player.hp = 0;
		snprintf(g->killer, sizeof g->killer, "%s %s", game_article(m->kind->name), m->kind->name);
		game_message_add(g, "The %s hits you (%d damage). You die on level %d with %d gold. (seed %llu)",
				 m->kind->name, d, g->depth + 1, g->player.gold, (unsigned long long)g->seed);
		g->over = true;
		return;
	}
	game_message_add(g, "The %s hits you (%d damage).", m->kind->name, d);
}

/* Opens the closed door at `cell` (a mover walks into it). */
static bool open_door(struct game *g, int cell)
{
	if (g->tiles[cell] != TILE_DOOR || g->open[cell])
		return false;
	g->open[cell] = 1;
	g->opaque[cell] = 0;
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
	if (open_door(g, to) && (g->visible[to] || g->visible[from]))
		game_message_add(g, "The %s opens a door.", m->kind->name);
	g->occupant[from] = -1;
	ai_cell_held(&g->ai, from, false);
	g->occupant[to] = idx;
	ai_cell_held(&g->ai, to, true);
	m->x = grid_x(g->grid, to);
	m->y = grid_y(g->grid, to);
	if (g->first_contact_turn < 0 && grid_is_adjacent(g->grid, to, player_cell(g)))
		g->first_contact_turn = g->turn;
	return enter_cost(g, to);
}

/* Carries out monster i's decision and charges its energy: a step 100
 * times the entering cost, an attack or a wait 100. */
static void monster_act(struct game *g, int i, struct ai_decision d)
{
	struct monster *m = &g->monsters[i];
	int cost = 100;
	switch (d.act) {
	case AI_STEP:
		cost = monster_step(g, m, d.cell);
		break;
	case AI_ATTACK:
		CHECK(d.cell == player_cell(g));
		monster_attack(g, m);
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
				    "in %d turns! (seed %llu)",
				 g->player.gold, g->player.kills, g->player.kills == 1 ? "" : "s", g->turn,
				 (unsigned long long)g->seed);
		return RESULT_WON;
	}
	if (!level_load(g, g->depth + 1)) {
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
static int player_enter(struct game *g, int to, enum act_result *res)
{
	*res = RESULT_ACTED;
	if (open_door(g, to))
		game_message_add(g, "You open the door.");
	g->player.x = grid_x(g->grid, to);
	g->player.y = grid_y(g->grid, to);
	int cost = enter_cost(g, to);
	if (g->items[to] == 1 + ITEM_POTION) {
		if (g->player.potions < PACK_POTIONS) {
			g->player.potions++;
			g->items[to] = 0;
			game_message_add(g, "You put a healing potion in your pack (%d; q quaffs).", g->player.potions);
		} else {
			game_message_add(g, "A healing potion lies here; your pack is full (%d).", PACK_POTIONS);
		}
	} else if (g->items[to] == 1 + ITEM_GOLD) {
		int amount = rng_range(&g->rng, 10, 30);
		g->player.gold += amount;
		g->items[to] = 0;
		game_message_add(g, "You pick up %d gold (%d in all).", amount, g->player.gold);
	}
	if (g->tiles[to] == TILE_EXIT)
		game_message_add(g, "There are stairs down here: press > to descend.");
	return cost;
}

/* ACT_QUAFF: drinks a potion from the pack; 0 (no time) when there is none
 * or the player is unhurt. */
static int player_quaff(struct game *g)
{
	struct player *p = &g->player;
	if (p->potions <= 0) {
		game_message_add(g, "You have no potions.");
		return 0;
	}
	if (p->hp >= p->max_hp) {
		game_message_add(g, "You are at full health; you keep the potion.");
		return 0;
	}
	int before = p->hp;
	p->hp += POTION_HEAL;
	if (p->hp > p->max_hp)
		p->hp = p->max_hp;
	p->potions--;
	p->potions_drunk++;
	game_message_add(g, "You drink a healing potion: +%d hp (%d/%d).", p->hp - before, p->hp, p->max_hp);
	return 100;
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
	return player_enter(g, to, res);
}

/* ---- travel ------------------------------------------------------------- */

/*
 * Travel, the cursor's preview, autoexplore and the click fallback plan
 * over the player's map memory (known[]): remembered cells at their true
 * cost, cells never seen as open floor (the free-space assumption), so a
 * route never shows what the player has not seen.  Monsters plan over the
 * true map.  The level's one search context serves both: its grid's costs
 * are pointed at known[] for the one query (a context reads the costs at
 * each query and keeps nothing from them between queries).
 */
static enum path_status plan_known(struct game *g, int from, int goal, struct path_result *r)
{
	struct path_options opt = path_options_default();
	opt.fallback = true;
	opt.budget = TRAVEL_BUDGET;
	uint8_t *truth = g->grid->cost;
	g->grid->cost = g->known;
	enum path_status st = path_find(g->path, from, goal, &opt, r);
	g->grid->cost = truth;
	return st;
}

static void travel_stop(struct game *g, enum travel_stop why)
{
	g->travel.active = false;
	g->travel.stopped = why;
}

void game_travel_cancel(struct game *g)
{
	if (g->travel.active)
		travel_stop(g, TRAVEL_INTERRUPTED);
}

/*
 * The player's distance map.  Every cursor move and click plans from the
 * same cell over the same knowledge until the player moves or sees
 * something new, so one Dijkstra flood over known[] from the player, out
 * to REACH_COST (64: most of an 80x24 screen around the player; on open
 * ground about 3.3 * 64^2 = 13,500 cells on square8, fewer elsewhere,
 * a fifth of the travel budget), is made on the first
 * plan of such a state and answers the later ones near the player at
 * once, most usefully a click on a known wall, which the bounded search
 * can only answer by exhausting its budget.  A flood on its own context
 * touches no page the fallback search has not, and no O(map) work is done
 * per flood (the context's generation stamps).
 */
static void reach_update(struct game *g)
{
	struct reach *m = &g->reach;
	int pc = player_cell(g);
	if (m->source == pc && m->version == g->known_version)
		return;
	struct path_options opt = path_options_default();
	uint8_t *truth = g->grid->cost;
	g->grid->cost = g->known;
	m->settled = path_flood(m->ctx, pc, &opt, false, REACH_COST);
	g->grid->cost = truth;
	m->source = pc;
	m->version = g->known_version;
}

static bool reach_same(double a, double b) { return fabs(a - b) <= 1e-9 * (1.0 + fabs(b)); }

/*
 * The route to `goal` read from the distance map into g->reach.cells, when
 * the map decides it: a goal passable in known[] and settled gets an
 * optimal route (PATH_FOUND); a goal blocked in known[] with a settled
 * neighbour that makes the dearest hypothetical step into it no dearer
 * than REACH_COST gets the fallback's answer (DESIGN section 4: one
 * blocked cell crossed, the least cost, cut before it: PATH_FALLBACK).
 * Otherwise false: the bounded search decides.  known[] must be the
 * grid's costs.
 */
static bool reach_route(struct game *g, int goal, enum path_status *st, int *len)
{
	const struct path_ctx *ctx = g->reach.ctx;
	struct grid_step nb[GRID_MAX_NEIGHBOURS];
	int end = goal;
	if (g->known[goal]) {
		if (path_flood_distance(ctx, goal) < 0)
			return false;
		*st = PATH_FOUND;
	} else {
		int n = grid_adjacent(g->grid, goal, nb), best = -1;
		double best_d = 0;
		for (int i = 0; i < n; i++) {
			double d = path_flood_distance(ctx, nb[i].cell);
			if (g->known[nb[i].cell] && d >= 0 && (best < 0 || d + nb[i].step < best_d)) {
				best = nb[i].cell;
				best_d = d + nb[i].step;
			}
		}
		/* every cell nearer than REACH_COST is settled, so no other
		 * neighbour can beat one within it */
		if (best < 0 || best_d > REACH_COST)
			return false;
		end = best;
		*st = PATH_FALLBACK;
	}
	/* walk back from `end`: a settled neighbour p with d(p) + step = d(c) */
	int k = 0, c = end;
	g->reach.cells[k++] = c;
	while (c != g->reach.source) {
		double dc = path_flood_distance(ctx, c);
		int n = grid_neighbours(g->grid, c, false, nb), prev = -1;
		for (int i = 0; i < n && prev < 0; i++) {
			double dp = path_flood_distance(ctx, nb[i].cell);
			if (dp >= 0 && dp < dc && reach_same(dp + nb[i].step * g->known[c], dc))
				prev = nb[i].cell;
		}
		if (prev < 0 || k == REACH_COST + 2)
			return false; /* cannot happen; the search decides */
		g->reach.cells[k++] = c = prev;
	}
	for (int i = 0; i < k / 2; i++) {
		int t = g->reach.cells[i];
		g->reach.cells[i] = g->reach.cells[k - 1 - i];
		g->reach.cells[k - 1 - i] = t;
	}
	*len = k;
	return true;
}

enum path_status game_travel_plan(struct game *g, int x, int y, const int **cells, int *len)
{
	*cells = NULL;
	*len = 0;
	grid_clamp(g->grid, &x, &y);
	reach_update(g);
	enum path_status st;
	uint8_t *truth = g->grid->cost;
	g->grid->cost = g->known;
	bool mapped = reach_route(g, cell_of(g, x, y), &st, len);
	g->grid->cost = truth;
	if (mapped) {
		*cells = g->reach.cells;
		return st;
	}
	struct path_result r;
	st = plan_known(g, player_cell(g), cell_of(g, x, y), &r);
	if (st != PATH_BAD_INPUT && r.len >= 1) {
		*cells = r.cells;
		*len = r.len;
	}
	return st;
}

/* Plans the route to the travel goal from here into g->travel; the number
 * of cells (0: no route at all). */
static int travel_plan_goal(struct game *g, enum path_status *st)
{
	struct travel *t = &g->travel;
	const int *cells;
	int n;
	*st = game_travel_plan(g, t->goal_x, t->goal_y, &cells, &n);
	int len = n < t->cap ? n : t->cap;
	if (len > 0)
		memcpy(t->cells, cells, (size_t)len * sizeof *t->cells);
	t->len = len;
	t->pos = 0;
	t->known_version = g->known_version;
	return len;
}

/* Whether a living monster the player sees stands next to `cell`. */
static const struct monster *visible_monster_next_to(const struct game *g, int cell)
{
	for (int i = 0; i < g->n_monsters; i++) {
		const struct monster *m = &g->monsters[i];
		if (m->alive && m->seen && grid_is_adjacent(g->grid, cell, cell_of(g, m->x, m->y)))
			return m;
	}
	return NULL;
}

/* Checks and takes the step into `next`; 0 when it cannot (travel stops). */
static int travel_enter(struct game *g, int next, enum act_result *res)
{
	int here = player_cell(g);
	if (!game_can_step(g, here, next)) {
		travel_stop(g, TRAVEL_BLOCKED);
		game_message_add(g, "You stop: the way is no longer open.");
		return 0;
	}
	if (g->occupant[next] >= 0) {
		travel_stop(g, TRAVEL_BLOCKED);
		const char *name = g->monsters[g->occupant[next]].kind->name;
		game_message_add(g, "You stop: %s %s is in the way.", game_article(name), name);
		return 0;
	}
	/* never walk up to a monster in view without a stop first: the step
	 * that would bring the player next to one is left to the player */
	const struct monster *near = visible_monster_next_to(g, next);
	if (near && !visible_monster_next_to(g, here)) {
		travel_stop(g, TRAVEL_MONSTER);
		game_message_add(g, "You stop: %s %s is near.", game_article(near->kind->name), near->kind->name);
		return 0;
	}
	return player_enter(g, next, res);
}

/* MODE_RUN: which of the two cells beside `cell` (square: at right angles
 * to dir; hex: the rear neighbours) are open, as two bits.  A change of
 * this pattern is a junction, a doorway or the end of a wall. */
static int run_sides(const struct game *g, int cell, enum grid_dir dir)
{
	int x = grid_x(g->grid, cell), y = grid_y(g->grid, cell), bits = 0;
	int turn = g->grid->topo == GRID_HEX ? 3 : 2;
	for (int k = 0; k < 2; k++) {
		enum grid_dir d = (enum grid_dir)((dir + (k ? turn : GRID_DIR_COUNT - turn)) % GRID_DIR_COUNT);
		int nx, ny;
		if (grid_dir_step(g->grid, x, y, d, &nx, &ny) && grid_in_bounds(g->grid, nx, ny) &&
		    grid_passable(g->grid, cell_of(g, nx, ny)))
			bits |= 1 << k;
	}
	return bits;
}

/* MODE_RUN: the cell straight ahead, or -1 when the run cannot go on
 * there (outside, blocked, a closed door, a corner it may not cut). */
static int run_ahead(const struct game *g, enum grid_dir dir)
{
	int nx, ny;
	if (!grid_dir_step(g->grid, g->player.x, g->player.y, dir, &nx, &ny) || !grid_in_bounds(g->grid, nx, ny))
		return -1;
	int c = cell_of(g, nx, ny);
	if (!game_can_step(g, player_cell(g), c) || (g->tiles[c] == TILE_DOOR && !g->open[c]))
		return -1;
	return c;
}

/* MODE_EXPLORE: whether the player would go to `c` (never seen, or a
 * remembered item worth picking up). */
static bool explore_wanted(const struct game *g, int c)
{
	return !g->remembered[c] || g->items[c] == 1 + ITEM_GOLD ||
	       (g->items[c] == 1 + ITEM_POTION && g->player.potions < PACK_POTIONS);
}

/* Levels up to this many cells may be flooded whole by autoexplore's last
 * pass (a quarter of a million cells: a few ms); larger ones are bounded
 * like travel (below). */
#define EXPLORE_WHOLE_CELLS (1L << 18)

/*
 * MODE_EXPLORE: the first step toward the nearest (by travel cost over the
 * player's memory) cell never seen or remembered item worth picking up;
 * -1 when there is none the player can reach.  Floods out to 24, then 160;
 * then, on a level small enough, the whole level.  On a larger one the
 * goal is the wanted cell nearest as the crow flies (one pass over the
 * level's bytes) and the step is that of a plan bounded like travel
 * (TRAVEL_BUDGET expansions; past it toward the closest cell found), so a
 * step never costs a flood of millions of cells; the price is a goal that
 * may not be the nearest by travel, or one behind walls the player knows.
 */
static int explore_next(struct game *g)
{
	static const double reach[] = { 24, 160, 0 }; /* 0: the whole level */
	int pc = player_cell(g), goal = -1;
	long cells = (long)g->grid->w * g->grid->h;
	uint8_t *truth = g->grid->cost;
	g->grid->cost = g->known;
	struct path_options opt = path_options_default();
	for (size_t k = 0; k < sizeof reach / sizeof reach[0] && goal < 0; k++) {
		if (reach[k] <= 0 && cells > EXPLORE_WHOLE_CELLS)
			break;
		path_flood(g->path, pc, &opt, false, reach[k]);
		int r = reach[k] > 0 ? (int)reach[k] + 1 : g->grid->w + g->grid->h;
		double best = 0;
		int x0 = g->player.x - r, x1 = g->player.x + r, y0 = g->player.y - r, y1 = g->player.y + r;
		for (int y = y0 < 0 ? 0 : y0; y <= y1 && y < g->grid->h; y++)
			for (int x = x0 < 0 ? 0 : x0; x <= x1 && x < g->grid->w; x++) {
				int c = cell_of(g, x, y);
				if (c == pc || !explore_wanted(g, c))
					continue;
				double d = path_flood_distance(g->path, c);
				if (d >= 0 && (goal < 0 || d < best)) {
					goal = c;
					best = d;
				}
			}
	}
	if (goal < 0 && cells > EXPLORE_WHOLE_CELLS) {
		/* square rings around the player, out to where no cell can be
		 * nearer than the best found: the heuristic is at least the
		 * ring's index on square maps, at least half of it on hex */
		double best = 0;
		int most = g->grid->w > g->grid->h ? g->grid->w : g->grid->h;
		bool hex = g->grid->topo == GRID_HEX;
		for (int r = 1; r <= most && (goal < 0 || r <= (hex ? 2 * best + 2 : best)); r++)
			for (int y = g->player.y - r; y <= g->player.y + r; y++) {
				if (y < 0 || y >= g->grid->h)
					continue;
				bool edge = y == g->player.y - r || y == g->player.y + r;
				for (int x = g->player.x - r; x <= g->player.x + r; x += edge ? 1 : 2 * r) {
					if (x < 0 || x >= g->grid->w)
						continue;
					int c = cell_of(g, x, y);
					if (!explore_wanted(g, c) || !g->known[c])
						continue;
					double d = grid_heuristic(g->grid, pc, c);
					if (goal < 0 || d < best) {
						goal = c;
						best = d;
					}
				}
			}
	}
	g->grid->cost = truth;
	if (goal < 0)
		return -1;
	struct path_result r;
	enum path_status st = plan_known(g, pc, goal, &r);
	if (st == PATH_BAD_INPUT || r.len < 2)
		return -1;
	return r.cells[1];
}

/* Whether the step a -> b keeps the corner rule on the player's memory
 * (square8: a diagonal needs both cells it passes open). */
static bool known_step_ok(const struct game *g, int a, int b)
{
	if (g->grid->topo != GRID_SQUARE8)
		return true;
	int ax = grid_x(g->grid, a), ay = grid_y(g->grid, a), bx = grid_x(g->grid, b), by = grid_y(g->grid, b);
	if (ax == bx || ay == by)
		return true;
	return g->known[cell_of(g, bx, ay)] && g->known[cell_of(g, ax, by)];
}

/* Takes the next step of the current activity; 0 when it cannot (and it stops). */
static int travel_step(struct game *g, enum act_result *res)
{
	struct travel *t = &g->travel;
	*res = RESULT_NOTHING;
	if (!t->active)
		return 0;
	switch (t->mode) {
	case MODE_REST:
		*res = RESULT_ACTED;
		return 100;
	case MODE_RUN: {
		int next = run_ahead(g, t->dir);
		if (next < 0) {
			travel_stop(g, TRAVEL_ARRIVED);
			return 0;
		}
		return travel_enter(g, next, res);
	}
	case MODE_EXPLORE: {
		int next = explore_next(g);
		if (next < 0) {
			travel_stop(g, TRAVEL_DONE);
			game_message_add(g, "There is nothing left to explore that you can reach.");
			return 0;
		}
		return travel_enter(g, next, res);
	}
	case MODE_TRAVEL:
		break;
	}
	int here = player_cell(g);
	/* Cells never seen were assumed the cheapest (open floor), so what comes
	 * into view can only make a route dearer: the route is planned again
	 * when the player's memory changed and a remaining cell of it did. */
	if (t->known_version != g->known_version) {
		bool changed = t->cells[t->pos] != here;
		for (int j = t->pos + 1; j < t->len && !changed; j++)
			changed = g->known[t->cells[j]] != 1 || !known_step_ok(g, t->cells[j - 1], t->cells[j]);
		if (changed) {
			bool was_found = t->len > 0 && t->cells[t->len - 1] == cell_of(g, t->goal_x, t->goal_y);
			enum path_status st;
			int n = travel_plan_goal(g, &st);
			if (n < 2) {
				travel_stop(g, TRAVEL_ARRIVED);
				return 0;
			}
			if (st != PATH_FOUND && was_found)
				game_message_add(g, "The way there is shut; you walk as close as you can.");
		} else {
			t->known_version = g->known_version;
		}
	}
	if (t->pos + 1 >= t->len) {
		travel_stop(g, TRAVEL_ARRIVED);
		return 0;
	}
	if (t->cells[t->pos] != here) {
		travel_stop(g, TRAVEL_BLOCKED);
		game_message_add(g, "You stop: the way is no longer open.");
		return 0;
	}
	int cost = travel_enter(g, t->cells[t->pos + 1], res);
	if (cost > 0)
		t->pos++;
	return cost;
}

/* Starts an activity in mode; the caller sets what the mode needs. */
static void travel_begin(struct game *g, enum travel_mode mode)
{
	struct travel *t = &g->travel;
	t->active = true;
	t->mode = mode;
	t->stopped = TRAVEL_NONE;
	t->len = t->pos = 0;
}

/* ACT_TRAVEL: plans the route through the fallback and takes its first step. */
static int travel_start(struct game *g, int x, int y, enum act_result *res)
{
	*res = RESULT_NOTHING;
	grid_clamp(g->grid, &x, &y);
	struct travel *t = &g->travel;
	t->active = false;
	t->mode = MODE_TRAVEL;
	t->stopped = TRAVEL_NONE;
	t->goal_x = x;
	t->goal_y = y;
	t->len = t->pos = 0;
	if (cell_of(g, x, y) == player_cell(g)) {
		*res = RESULT_ACTED;
		t->stopped = TRAVEL_ARRIVED;
		return 100; /* a click on the player waits a turn */
	}
	enum path_status st;
	int n = travel_plan_goal(g, &st);
	if (n < 1) {
		game_message_add(g, "You cannot travel there.");
		return 0;
	}
	if (n < 2) {
		t->stopped = TRAVEL_BLOCKED;
		game_message_add(g, "You cannot get any closer to there: a wall is in the way.");
		return 0;
	}
	t->active = true;
	if (st != PATH_FOUND)
		game_message_add(g, "You cannot reach that spot; you walk as close as you can.");
	/* the first step is the player's own choice: no stop for a monster near it */
	int next = t->cells[1];
	if (!game_can_step(g, player_cell(g), next) || g->occupant[next] >= 0)
		return travel_step(g, res);
	t->pos++;
	return player_enter(g, next, res);
}

/* ACT_REST: waits turn after turn until healed or disturbed. */
static int rest_start(struct game *g, enum act_result *res)
{
	*res = RESULT_NOTHING;
	if (g->player.hp >= g->player.max_hp) {
		game_message_add(g, "You are at full health; there is no need to rest.");
		return 0;
	}
	for (int i = 0; i < g->n_monsters; i++)
		if (g->monsters[i].alive && g->monsters[i].seen) {
			const char *name = g->monsters[i].kind->name;
			game_message_add(g, "You cannot rest with %s %s in view.", game_article(name), name);
			return 0;
		}
	travel_begin(g, MODE_REST);
	game_message_add(g, "You rest.");
	*res = RESULT_ACTED;
	return 100;
}

/* ACT_RUN: runs straight in dir; a first step that is not open is a plain move (bump, attack, door). */
static int run_start(struct game *g, enum grid_dir dir, enum act_result *res, bool *moved)
{
	*moved = false;
	int next = run_ahead(g, dir);
	if (next < 0 || g->occupant[next] >= 0)
		return -1;
	travel_begin(g, MODE_RUN);
	g->travel.dir = dir;
	int cost = player_enter(g, next, res);
	g->travel.sides = run_sides(g, next, dir);
	*moved = true;
	return cost;
}

/* ACT_EXPLORE: the first step of autoexplore.  Not with a monster in view
 * (as rest, and as DCSS): each press would take a step the player did not
 * choose while the monster follows. */
static int explore_start(struct game *g, enum act_result *res)
{
	*res = RESULT_NOTHING;
	for (int i = 0; i < g->n_monsters; i++)
		if (g->monsters[i].alive && g->monsters[i].seen) {
			const char *name = g->monsters[i].kind->name;
			game_message_add(g, "You cannot explore with %s %s in view.", game_article(name), name);
			return 0;
		}
	travel_begin(g, MODE_EXPLORE);
	int next = explore_next(g);
	if (next < 0) {
		travel_stop(g, TRAVEL_DONE);
		game_message_add(g, "There is nothing left to explore that you can reach.");
		return 0;
	}
	if (!game_can_step(g, player_cell(g), next) || g->occupant[next] >= 0)
		return travel_step(g, res);
	return player_enter(g, next, res);
}

/* ---- the turn loop ------------------------------------------------------ */

/* What the AI may read of the game now (ai.h): const, and valid for the
 * monster turns of this game turn (the player does not move in them). */
static struct ai_view ai_view_of(const struct game *g)
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

/* Runs game turns until the player has energy to act again. */
static void run_monsters(struct game *g)
{
	double t0 = clock_us();
	while (!g->over && g->player.energy < 100) {
		g->turn++;
		g->player.energy += 100;
		for (int i = 0; i < g->n_monsters; i++)
			if (g->monsters[i].alive)
				g->monsters[i].energy += g->monsters[i].kind->speed;
		const struct ai_view v = ai_view_of(g);
		ai_turn_begin(&g->ai, &v);
		for (int i = 0; i < g->n_monsters && !g->over; i++) {
			struct monster *m = &g->monsters[i];
			while (m->alive && m->energy >= 100 && !g->over) {
				struct ai_decision d = ai_decide(&g->ai, &v, i, &m->mind);
				if (g->on_monster_act)
					g->on_monster_act(g->on_monster_act_ud, g, i, d);
				monster_act(g, i, d);
				CHECK(monster_sound(g, i));
			}
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
	double us = clock_us() - t0;
	g->ai.stats.ai_us += us;
	g->ai.stats.last_ai_us = us;
	CHECK(g->over || (g->player.energy >= 100 && g->player.energy < 200));
}

/* After the monsters acted: whether an activity (travel, rest, run,
 * autoexplore) stops, and why.  News stops it: a monster never seen before,
 * one that came closer in its own moves, getting hurt; so does what each
 * mode is for (stairs on the way, an item, a junction, full health). */
static void activity_check(struct game *g, long damage0, int gold0, int potions0)
{
	struct travel *t = &g->travel;
	const struct monster *newcomer = NULL, *closer = NULL, *seen = NULL;
	for (int i = 0; i < g->n_monsters; i++) {
		const struct monster *m = &g->monsters[i];
		if (!m->alive || !m->seen)
			continue;
		seen = m;
		if (!g->noticed[i] && !newcomer)
			newcomer = m;
		else if (g->noticed[i] && monster_distance(g, i) < g->monster_dist[i] && !closer)
			closer = m;
		g->noticed[i] = 1;
	}
	if (!t->active)
		return;
	int pc = player_cell(g);
	if (g->damage_taken > damage0) {
		travel_stop(g, TRAVEL_HURT);
		game_message_add(g, "You stop: you are hurt.");
	} else if (newcomer) {
		travel_stop(g, TRAVEL_MONSTER);
		game_message_add(g, "You stop: %s %s comes into view.", game_article(newcomer->kind->name),
				 newcomer->kind->name);
	} else if (closer) {
		travel_stop(g, TRAVEL_MONSTER);
		game_message_add(g, "You stop: %s %s comes closer.", game_article(closer->kind->name),
				 closer->kind->name);
	} else if (t->mode == MODE_REST && seen) {
		travel_stop(g, TRAVEL_MONSTER);
		game_message_add(g, "You stop resting: %s %s is in view.", game_article(seen->kind->name),
				 seen->kind->name);
	} else if (t->mode == MODE_REST && g->player.hp >= g->player.max_hp) {
		travel_stop(g, TRAVEL_DONE);
		game_message_add(g, "You feel rested (%d/%d hp).", g->player.hp, g->player.max_hp);
	} else if ((t->mode == MODE_TRAVEL || t->mode == MODE_RUN) && g->tiles[pc] == TILE_EXIT &&
		   !(t->mode == MODE_TRAVEL && t->pos + 1 >= t->len)) {
		travel_stop(g, TRAVEL_STAIRS);
	} else if ((t->mode == MODE_RUN || t->mode == MODE_EXPLORE) &&
		   (g->player.gold != gold0 || g->player.potions != potions0 || g->items[pc])) {
		travel_stop(g, TRAVEL_ITEM);
	} else if (t->mode == MODE_RUN && run_sides(g, pc, t->dir) != t->sides) {
		travel_stop(g, TRAVEL_ARRIVED); /* a junction, a doorway, the end of a wall */
	} else if (t->mode == MODE_TRAVEL && t->pos + 1 >= t->len) {
		travel_stop(g, TRAVEL_ARRIVED);
	}
}

static enum act_result act(struct game *g, const struct action *a)
{
	g->ai.stats.last_ai_us = 0;
	long damage0 = g->damage_taken;
	int gold0 = g->player.gold, potions0 = g->player.potions;
	enum act_result res = RESULT_NOTHING;
	int cost = 0;
	switch (a->kind) {
	case ACT_NONE:
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
		cost = travel_start(g, a->x, a->y, &res);
		break;
	case ACT_TRAVEL_STEP:
		cost = travel_step(g, &res);
		break;
	case ACT_REST:
		game_travel_cancel(g);
		cost = rest_start(g, &res);
		break;
	case ACT_EXPLORE:
		game_travel_cancel(g);
		cost = explore_start(g, &res);
		break;
	case ACT_RUN: {
		game_travel_cancel(g);
		bool moved;
		cost = run_start(g, a->dir, &res, &moved);
		if (!moved)
			cost = player_move(g, a->dir, &res);
		break;
	}
	case ACT_QUAFF:
		game_travel_cancel(g);
		cost = player_quaff(g);
		res = cost > 0 ? RESULT_ACTED : RESULT_NOTHING;
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
	/* how far each monster stands before it moves: one that comes closer is news */
	for (int i = 0; i < g->n_monsters; i++)
		if (g->monsters[i].alive)
			g->monster_dist[i] = monster_distance(g, i);
	g->player.energy -= cost;
	run_monsters(g);
	fov_update(g);
	if (g->over)
		return RESULT_DIED;
	activity_check(g, damage0, gold0, potions0);
	return RESULT_ACTED;
}

enum act_result game_act(struct game *g, const struct action *a)
{
	if (!g || !a || g->over)
		return RESULT_NOTHING;
	enum act_result res = act(g, a);
	CHECK(state_sound(g));
	return res;
}

/* ---- describing and hashing --------------------------------------------- */

void game_describe(const struct game *g, int x, int y, char *buf, size_t size)
{
	if (!grid_in_bounds(g->grid, x, y)) {
		snprintf(buf, size, "outside the map");
		return;
	}
	int c = cell_of(g, x, y);
	if (x == g->player.x && y == g->player.y) {
		snprintf(buf, size, "you (%d/%d hp, %d gold)", g->player.hp, g->player.max_hp, g->player.gold);
		return;
	}
	if (!g->remembered[c]) {
		snprintf(buf, size, "unexplored");
		return;
	}
	const struct monster *m = game_monster_at(g, x, y);
	if (m && g->visible[c]) {
		snprintf(buf, size, "%s %s (%d/%d hp%s)", game_article(m->kind->name), m->kind->name, m->hp, m->kind->hp,
			 m->mind.fleeing ? ", fleeing" : m->mind.hunting ? ", hunting you" : "");
		return;
	}
	enum tile t = (enum tile)g->tiles[c];
	const char *ground = t == TILE_DOOR ? (g->open[c] ? "an open door" : "a closed door")
			   : t == TILE_EXIT ? "stairs down (stand on them and press > to descend)"
					    : tile_info(t)->name;
	const char *seen = g->visible[c] ? "" : " (remembered)";
	if (g->items[c] == 1 + ITEM_POTION)
		snprintf(buf, size, "a healing potion on %s%s", ground, seen);
	else if (g->items[c] == 1 + ITEM_GOLD)
		snprintf(buf, size, "gold on %s%s", ground, seen);
	else
		snprintf(buf, size, "%s%s", ground, seen);
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static uint64_t fnv_int(uint64_t h, long v) { return fnv(h, &v, sizeof v); }

uint64_t game_hash(const struct game *g)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t n = (size_t)g->grid->w * (size_t)g->grid->h;
	const struct player *p = &g->player;
	long pv[] = { g->depth, g->turn, g->over, g->won, p->x, p->y, p->hp, p->max_hp, p->energy,
		      p->gold, p->kills, p->potions_drunk, p->potions, p->regen, g->n_messages, g->damage_taken,
		      g->first_contact_turn };
	for (size_t i = 0; i < sizeof pv / sizeof pv[0]; i++)
		h = fnv_int(h, pv[i]);
	h = fnv(h, g->rng.s, sizeof g->rng.s);
	h = fnv(h, g->open, n);
	h = fnv(h, g->items, n);
	h = fnv(h, g->remembered, n);
	for (int i = 0; i < g->n_monsters; i++) {
		const struct monster *m = &g->monsters[i];
		long mv[] = { m->x, m->y, m->hp, m->energy, m->alive, m->mind.hunting, m->mind.fleeing,
			      m->mind.target_x, m->mind.target_y };
		for (size_t j = 0; j < sizeof mv / sizeof mv[0]; j++)
			h = fnv_int(h, mv[j]);
	}
	for (int i = 0; i < GAME_MESSAGES && i < g->n_messages; i++) {
		h = fnv(h, game_message(g, i)->text, strlen(game_message(g, i)->text));
		h = fnv_int(h, game_message(g, i)->count);
	}
	return h;
}

/* ---- the state as bytes (snapshots for a fast resume) ---------------------- */

/*
 * The encoding: fixed-width little-endian integers in a fixed order, the
 * level's arrays whole, so equal states give equal bytes on every machine.
 * What is a pure cache is left out and rebuilt: the search contexts, the
 * player's distance map (reach), the region map.  The AI's shared flood is
 * not a pure cache (a monster uses a flood that is current even when it
 * would not start one, and a flood settled in steps is only as far along
 * as its callers took it), so its goal and its settled cells are kept and
 * the flood is settled again to exactly that point on load: a flood
 * settles cells in one fixed order, so settling until those cells are
 * settled gives the same flood.  A flood moved by flood_shift (levels of
 * more than AI_SHARE_MIN * AI_SHARE_CELLS passable cells) has distances
 * summed along other routes than a fresh one and cannot be rebuilt bit for
 * bit: such a state is not saved (GAME_STATE_UNSAVABLE).
 */

#define STATE_MAGIC 0x31617473u /* "sta1" */

struct state_out {
	uint8_t *p;
	size_t n, cap;
	bool oom;
};

static void out_bytes(struct state_out *o, const void *p, size_t n)
{
	if (o->oom)
		return;
	if (o->n + n > o->cap) {
		size_t cap = o->cap ? o->cap : 65536;
		while (cap < o->n + n)
			cap *= 2;
		uint8_t *q = realloc(o->p, cap);
		if (!q) {
			o->oom = true;
			return;
		}
		o->p = q;
		o->cap = cap;
	}
	memcpy(o->p + o->n, p, n);
	o->n += n;
}

static void out_u64(struct state_out *o, uint64_t v)
{
	uint8_t b[8];
	for (int i = 0; i < 8; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	out_bytes(o, b, 8);
}

static void out_int(struct state_out *o, long long v) { out_u64(o, (uint64_t)v); }

/* A string field of `size` bytes: its text, then zeros (what follows the
 * NUL in the struct is whatever was there before, not state). */
static void out_text(struct state_out *o, const char *text, size_t size)
{
	char buf[GAME_MESSAGE_LEN > 64 ? GAME_MESSAGE_LEN : 64] = { 0 };
	size_t n = strnlen(text, size);
	if (size > sizeof buf)
		size = sizeof buf;
	if (n >= size)
		n = size - 1;
	memcpy(buf, text, n);
	out_bytes(o, buf, size);
}

struct state_in {
	const uint8_t *p;
	size_t n, at;
	bool bad;                 /* ran past the end or met a value out of range */
};

static uint64_t in_u64(struct state_in *s)
{
	if (s->bad || s->n - s->at < 8) {
		s->bad = true;
		return 0;
	}
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v |= (uint64_t)s->p[s->at + (size_t)i] << (8 * i);
	s->at += 8;
	return v;
}

/* An integer in [lo, hi]; out of range marks the input bad (and gives lo). */
static long long in_int(struct state_in *s, long long lo, long long hi)
{
	long long v = (long long)in_u64(s);
	if (s->bad || v < lo || v > hi) {
		s->bad = true;
		return lo;
	}
	return v;
}

static bool in_bool(struct state_in *s) { return in_int(s, 0, 1) != 0; }

static void in_bytes(struct state_in *s, void *p, size_t n)
{
	if (s->bad || s->n - s->at < n) {
		s->bad = true;
		return;
	}
	memcpy(p, s->p + s->at, n);
	s->at += n;
}

static void out_mind(struct state_out *o, const struct mind *mi)
{
	long long v[] = { mi->hunting, mi->target_x, mi->target_y, mi->memory_left, mi->fleeing, mi->next_repath,
			  mi->route_len, mi->route_pos, mi->last_seen_turn, mi->route_goal, mi->route_stuck,
			  mi->commit_until, mi->saw_player, mi->sighted };
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
		out_int(o, v[i]);
	for (int i = 0; i < mi->route_len; i++)
		out_int(o, mi->route[i]);
}

static void in_mind(struct state_in *s, struct mind *mi, int cells)
{
	const long long big = 1LL << 40;
	mi->hunting = in_bool(s);
	mi->target_x = (int)in_int(s, -big, big);
	mi->target_y = (int)in_int(s, -big, big);
	mi->memory_left = (int)in_int(s, INT32_MIN, INT32_MAX);
	mi->fleeing = in_bool(s);
	mi->next_repath = (int)in_int(s, INT32_MIN, INT32_MAX);
	mi->route_len = (int)in_int(s, 0, mi->route_cap);
	mi->route_pos = (int)in_int(s, 0, mi->route_cap);
	mi->last_seen_turn = (int)in_int(s, INT32_MIN, INT32_MAX);
	mi->route_goal = (int)in_int(s, -1, cells - 1);
	mi->route_stuck = in_bool(s);
	mi->commit_until = (int)in_int(s, INT32_MIN, INT32_MAX);
	mi->saw_player = in_bool(s);
	mi->sighted = in_bool(s);
	for (int i = 0; i < mi->route_len && !s->bad; i++)
		mi->route[i] = (int)in_int(s, 0, cells - 1);
}

enum game_state_status game_state_save(const struct game *g, void **out, size_t *len)
{
	*out = NULL;
	*len = 0;
	const struct ai *ai = &g->ai;
	if (ai->flood_goal >= 0 && ai->share_need > AI_SHARE_MIN)
		return GAME_STATE_UNSAVABLE;
	struct state_out o = { 0 };
	const int cells = g->grid->w * g->grid->h;
	const size_t n = (size_t)cells;
	out_u64(&o, STATE_MAGIC);
	out_int(&o, GAME_MESSAGES);
	out_int(&o, GAME_MESSAGE_LEN);
	out_int(&o, AI_ROUTE_MAX);
	out_int(&o, g->depth);
	out_int(&o, g->grid->w);
	out_int(&o, g->grid->h);
	out_int(&o, g->n_monsters);
	out_int(&o, g->level_serial);
	out_int(&o, g->turn);
	out_u64(&o, g->seed);
	out_u64(&o, g->rng.s[0]);
	out_u64(&o, g->rng.s[1]);
	out_int(&o, g->over);
	out_int(&o, g->won);
	out_int(&o, g->sight_radius);
	out_int(&o, g->last_hurt_turn);
	out_int(&o, g->first_contact_turn);
	out_int(&o, g->damage_taken);
	out_text(&o, g->killer, sizeof g->killer);
	const struct player *p = &g->player;
	long long pv[] = { p->x, p->y, p->hp, p->max_hp, p->damage, p->energy, p->gold, p->kills,
			   p->potions_drunk, p->potions, p->regen };
	for (size_t i = 0; i < sizeof pv / sizeof pv[0]; i++)
		out_int(&o, pv[i]);
	out_bytes(&o, g->tiles, n);
	out_bytes(&o, g->open, n);
	out_bytes(&o, g->items, n);
	out_bytes(&o, g->visible, n);
	out_bytes(&o, g->remembered, n);
	out_bytes(&o, g->known, n);
	out_bytes(&o, g->opaque, n);
	out_int(&o, g->known_version);
	for (int i = 0; i < cells; i++)
		out_int(&o, g->occupant[i]);
	for (int i = 0; i < g->n_monsters; i++) {
		const struct monster *m = &g->monsters[i];
		out_int(&o, m->kind - g->bestiary.kinds);
		long long mv[] = { m->x, m->y, m->hp, m->energy, m->alive, m->seen, m->was_seen };
		for (size_t k = 0; k < sizeof mv / sizeof mv[0]; k++)
			out_int(&o, mv[k]);
		out_mind(&o, &m->mind);
		out_int(&o, g->monster_dist[i]);
		out_int(&o, g->noticed[i]);
	}
	const struct travel *t = &g->travel;
	long long tv[] = { t->active, t->mode, t->goal_x, t->goal_y, t->len, t->pos, t->stopped, t->known_version,
			   t->dir, t->sides };
	for (size_t i = 0; i < sizeof tv / sizeof tv[0]; i++)
		out_int(&o, tv[i]);
	for (int i = 0; i < t->len; i++)
		out_int(&o, t->cells[i]);
	out_int(&o, g->n_messages);
	out_int(&o, g->message_stamp);
	for (int i = 0; i < GAME_MESSAGES; i++) {
		const struct message *msg = &g->messages[i];
		out_int(&o, msg->turn);
		out_int(&o, msg->count);
		out_int(&o, msg->stamp);
		out_text(&o, msg->text, sizeof msg->text);
	}
	out_int(&o, ai->share);
	out_int(&o, ai->all_hunt);
	out_int(&o, ai->crowd_value);
	out_int(&o, ai->due);
	out_int(&o, ai->goal);
	out_int(&o, ai->share_need);
	for (int i = 0; i < cells; i++)
		out_int(&o, ai->crowd[i]);
	out_int(&o, ai->flood_goal);
	if (ai->flood_goal >= 0) {
		out_int(&o, flood_finished(ai->flood));
		long settled = 0;
		for (int i = 0; i < cells; i++)
			settled += flood_settled(ai->flood, i);
		out_int(&o, settled);
		for (int i = 0; i < cells; i++)
			if (flood_settled(ai->flood, i))
				out_int(&o, i);
	}
	out_u64(&o, STATE_MAGIC);
	if (o.oom) {
		free(o.p);
		return GAME_STATE_NO_MEMORY;
	}
	*out = o.p;
	*len = o.n;
	return GAME_STATE_OK;
}

bool game_state_load(struct game *g, const void *bytes, size_t len, char *err, size_t errlen)
{
	struct state_in s = { .p = bytes, .n = len };
	const long long big = 1LL << 40;
	if (in_u64(&s) != STATE_MAGIC || in_int(&s, 0, big) != GAME_MESSAGES ||
	    in_int(&s, 0, big) != GAME_MESSAGE_LEN || in_int(&s, 0, big) != AI_ROUTE_MAX) {
		snprintf(err, errlen, "not a game state of this program");
		return false;
	}
	int depth = (int)in_int(&s, 0, g->n_levels - 1);
	if (s.bad) {
		snprintf(err, errlen, "a level outside the campaign");
		return false;
	}
	if (depth != g->depth && !level_load(g, depth)) {
		snprintf(err, errlen, "out of memory loading level %d", depth + 1);
		return false;
	}
	const int cells = g->grid->w * g->grid->h;
	const size_t n = (size_t)cells;
	if (in_int(&s, 0, big) != g->grid->w || in_int(&s, 0, big) != g->grid->h ||
	    in_int(&s, 0, big) != g->n_monsters) {
		snprintf(err, errlen, "the level's size or its monsters differ from the campaign's");
		return false;
	}
	g->level_serial = (int)in_int(&s, 0, INT32_MAX);
	g->turn = (int)in_int(&s, 0, INT32_MAX);
	g->seed = in_u64(&s);
	g->rng.s[0] = in_u64(&s);
	g->rng.s[1] = in_u64(&s);
	g->over = in_bool(&s);
	g->won = in_bool(&s);
	g->sight_radius = (int)in_int(&s, 0, 1 << 16);
	g->last_hurt_turn = (int)in_int(&s, -1, INT32_MAX);
	g->first_contact_turn = (int)in_int(&s, -1, INT32_MAX);
	g->damage_taken = (long)in_int(&s, 0, big);
	in_bytes(&s, g->killer, sizeof g->killer);
	g->killer[sizeof g->killer - 1] = '\0';
	struct player *p = &g->player;
	p->x = (int)in_int(&s, 0, g->grid->w - 1);
	p->y = (int)in_int(&s, 0, g->grid->h - 1);
	p->hp = (int)in_int(&s, -big, big);
	p->max_hp = (int)in_int(&s, 0, big);
	p->damage = (int)in_int(&s, 0, big);
	p->energy = (int)in_int(&s, -big, big);
	p->gold = (int)in_int(&s, 0, big);
	p->kills = (int)in_int(&s, 0, big);
	p->potions_drunk = (int)in_int(&s, 0, big);
	p->potions = (int)in_int(&s, 0, big);
	p->regen = (int)in_int(&s, 0, big);
	in_bytes(&s, g->tiles, n);
	in_bytes(&s, g->open, n);
	in_bytes(&s, g->items, n);
	in_bytes(&s, g->visible, n);
	in_bytes(&s, g->remembered, n);
	in_bytes(&s, g->known, n);
	in_bytes(&s, g->opaque, n);
	for (size_t i = 0; i < n && !s.bad; i++)
		if (g->tiles[i] >= TILE_COUNT || g->items[i] > 1 + ITEM_GOLD)
			s.bad = true;
	g->known_version = (unsigned)in_int(&s, 0, UINT32_MAX);
	for (int i = 0; i < cells; i++)
		g->occupant[i] = (int)in_int(&s, -1, g->n_monsters - 1);
	for (int i = 0; i < g->n_monsters && !s.bad; i++) {
		struct monster *m = &g->monsters[i];
		m->kind = &g->bestiary.kinds[in_int(&s, 0, g->bestiary.n - 1)];
		m->x = (int)in_int(&s, 0, g->grid->w - 1);
		m->y = (int)in_int(&s, 0, g->grid->h - 1);
		m->hp = (int)in_int(&s, -big, big);
		m->energy = (int)in_int(&s, -big, big);
		m->alive = in_bool(&s);
		m->seen = in_bool(&s);
		m->was_seen = in_bool(&s);
		in_mind(&s, &m->mind, cells);
		g->monster_dist[i] = (int)in_int(&s, INT32_MIN, INT32_MAX);
		g->noticed[i] = (uint8_t)in_bool(&s);
	}
	struct travel *t = &g->travel;
	t->active = in_bool(&s);
	t->mode = (enum travel_mode)in_int(&s, MODE_TRAVEL, MODE_RUN);
	t->goal_x = (int)in_int(&s, -big, big);
	t->goal_y = (int)in_int(&s, -big, big);
	t->len = (int)in_int(&s, 0, t->cap);
	t->pos = (int)in_int(&s, 0, t->cap);
	t->stopped = (enum travel_stop)in_int(&s, TRAVEL_NONE, TRAVEL_DONE);
	t->known_version = (unsigned)in_int(&s, 0, UINT32_MAX);
	t->dir = (enum grid_dir)in_int(&s, 0, 7);
	t->sides = (int)in_int(&s, INT32_MIN, INT32_MAX);
	for (int i = 0; i < t->len && !s.bad; i++)
		t->cells[i] = (int)in_int(&s, 0, cells - 1);
	g->n_messages = (int)in_int(&s, 0, INT32_MAX);
	g->message_stamp = (unsigned)in_int(&s, 0, UINT32_MAX);
	for (int i = 0; i < GAME_MESSAGES; i++) {
		struct message *msg = &g->messages[i];
		msg->turn = (int)in_int(&s, INT32_MIN, INT32_MAX);
		msg->count = (int)in_int(&s, 0, INT32_MAX);
		msg->stamp = (unsigned)in_int(&s, 0, UINT32_MAX);
		in_bytes(&s, msg->text, sizeof msg->text);
		msg->text[sizeof msg->text - 1] = '\0';
	}
	struct ai *ai = &g->ai;
	ai->share = (enum ai_share)in_int(&s, AI_SHARE_AUTO, AI_SHARE_ALWAYS);
	ai->all_hunt = in_bool(&s);
	ai->crowd_value = (int)in_int(&s, 0, 65535);
	ai->due = (int)in_int(&s, 0, INT32_MAX);
	ai->goal = (int)in_int(&s, -1, cells - 1);
	if (in_int(&s, 0, INT32_MAX) != ai->share_need)
		s.bad = true;
	for (int i = 0; i < cells; i++)
		ai->crowd[i] = (uint16_t)in_int(&s, 0, 65535);
	int flood_goal = (int)in_int(&s, -1, cells - 1);
	ai->flood_goal = -1;
	if (flood_goal >= 0 && !s.bad) {
		bool finished = in_bool(&s);
		long settled = (long)in_int(&s, 0, cells);
		struct flood_options opt = flood_options_default();
		opt.reverse = true; /* as ai.c floods: toward the goal */
		if (!s.bad && flood_begin(ai->flood, flood_goal, &opt)) {
			for (long i = 0; i < settled && !s.bad; i++) {
				int c = (int)in_int(&s, 0, cells - 1);
				if (!s.bad)
					flood_settle(ai->flood, &c, 1);
			}
			if (finished)
				flood_settle(ai->flood, NULL, 0);
			if (!s.bad && flood_settled_count(ai->flood) != settled)
				s.bad = true;
			ai->flood_goal = flood_goal;
		} else {
			s.bad = true;
		}
	}
	if (in_u64(&s) != STATE_MAGIC || s.at != s.n)
		s.bad = true;
	if (s.bad) {
		snprintf(err, errlen, "a malformed game state (byte %zu)", s.at);
		return false;
	}
	g->reach.source = -1; /* rebuilt from known[] on the next preview or plan */
	return true;
}
