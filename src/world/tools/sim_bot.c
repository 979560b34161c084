/*
 * sim_bot.c - the `bot` player of astray sim (docs/sim.md, "The bot"): it
 * plays whole dungeons as a careful person would, through the actions of
 * game_act only, and reads only what the player can know: the cells it
 * sees or remembers (visible[], remembered[], known[]), the monsters in
 * view (a monster's letter, hit points and whether it sleeps or hunts:
 * what a look at it says), its own hit points and pack, and the state of
 * its own activity (autoexplore, rest, travel).  Never a monster out of
 * view, never the true map beyond the player's memory.
 *
 * Its plan, in order of urgency:
 *  - in a fight it drinks when low, takes the stairs under its feet when
 *    the fight is lost, steps back into a corridor or doorway when
 *    several monsters close in (so one at a time reaches it), and
 *    otherwise strikes the weakest monster next to it (or shoots it, when
 *    the launcher in hand does more);
 *  - with monsters in view but none next to it, it shoots with the best
 *    launcher it has ammunition for at an archer or the nearest monster
 *    in its line of fire (taking the launcher in hand while the hunters
 *    are far, its melee weapon back as they come), throws ammunition by
 *    hand at a monster running away, waits for the hunters to come (the
 *    first blow is the player's), walks to an archer or a weak sleeper,
 *    runs for known stairs when the fight ahead is beyond its hit points
 *    and potions, and explores away from the rest;
 *  - with nothing in view it rests when hurt, picks up the ammunition
 *    lying near, explores (ACT_EXPLORE, continued by ACT_TRAVEL_STEP),
 *    and once the level is explored (or it has spent long enough on it)
 *    rests up and takes the stairs.
 * The frontier or stairs it walks on to, and its way there, are held from
 * one step to the next while they stay clear (walk_to), so what comes into
 * and out of view as it steps does not turn it back and forth.
 * Cheap: one breadth-first pass over the remembered cells when monsters
 * are in view; otherwise the game's own activities plan.
 */
#include "sim_bot.h"

#include <stdlib.h>
#include <string.h>

#include "grid.h"
#include "items.h"
#include "level.h"

/* Turns on one level after which the bot stops exploring and heads for the stairs. */
#define BOT_LEVEL_TURNS 3000
/* How far (steps over remembered cells) the bot looks for a corridor to fight from. */
#define BOT_RETREAT_STEPS 5
/* Waits in a row for a monster in view that does not come before the bot goes to it or moves on. */
#define BOT_PATIENCE 4
/* Steps a level's chases of monsters that do not come may take in all (an archer backing off). */
#define BOT_CHASE_STEPS 40
/* Back and forth: a cell it steps onto for the BOT_DITHER-th time within
 * its last BOT_TRAIL cells makes the bot give up exploring the level (when
 * it knows the stairs) and stop going for what it sees for BOT_DITHER_TURNS turns. */
#define BOT_TRAIL 16
#define BOT_DITHER 4
#define BOT_DITHER_TURNS 40
/* Turns the bot waits in cover for an archer to come round the corner. */
#define BOT_AMBUSH_TURNS 10
/* Times a level it takes cover from archers before it walks on under their shots. */
#define BOT_COVERS 3
/* Turns after the last monster in view it keeps a launcher in hand before the melee weapon. */
#define BOT_HOLD_TURNS 20
/* Times a level it turns from the frontier it walks to because a monster
 * in view stands in the way before it goes on through such a monster. */
#define BOT_TURNBACKS 4

/* Steps a dig must save on the way to the stairs, with nothing in view
 * (half as many when hurt by what it does not see). */
#define BOT_DIG_SAVES 20
/* The range an unknown wand is planned with (zapped to learn it). */
#define BOT_DIG_GUESS 4
/* Steps the bot walks, nothing in view, to the cell it zaps a dig from. */
#define BOT_DIG_WALK 12
/* Caltrops are strewn for a fight that would cost more than this share of its hit points... */
#define BOT_CALTROPS_COST 0.5
/* ...against melee hunters coming within this many steps. */
#define BOT_CALTROPS_NEAR 4
/* The stairs within this many steps (after a dig) are run for when a fight is lost... */
#define BOT_RUN_STEPS 12
/* ...this many times as far with caltrops to strew behind it, or strewn
 * within the last BOT_STREWN_TURNS turns. */
#define BOT_RUN_CALTROPS 2
#define BOT_STREWN_TURNS 30
/* A monster (not an archer) is shot at only when fighting it with blows
 * would cost more than this share of the bot's hit points. */
#define BOT_SHOT_FIGHT 0.25

struct sim_bot {
	int serial;        /* g->level_serial of the level it plays, -1 none */
	bool explored;     /* autoexplore said nothing is left */
	bool own_explore;  /* explores by its own plan, not autoexplore (which disagreed with it) */
	int exit;          /* a remembered exit cell, -1 none known */
	int level_turn0;   /* g->turn when the level was entered */
	int waited;        /* waits in a row for monsters that did not come */
	int chased;        /* steps taken toward monsters that did not come, since the last kill */
	int kills;         /* the player's kills when chased was reset */
	long damage;       /* g->damage_taken at its last decision */
	int trail[BOT_TRAIL]; /* the player's last cells (a ring) */
	int trail_i;       /* its next slot */
	int calm_until;    /* until this turn, only monsters next to it or closing in are fought */
	int mapped;        /* level_serial of the level it read a scroll of mapping on, -1 none */
	int ambush_until;  /* out of an archer's sight: it waits for it round the corner until this turn */
	int goal;          /* the frontier move_on walks to, held while one and reached; -1 none */
	int covers;        /* times it took cover on this level: each run of steps to cover counts one */
	int turnbacks;     /* times on this level it dropped its frontier for a monster in the way */
	long decisions;    /* its decisions in this game */
	long covered;      /* the decision of its last step to cover, -1 none */
	int fought;        /* g->turn of its last decision with a monster in view */
	const char *why;   /* what its last decision in a fight was, in words (sim_bot_why) */
	int *route;        /* the way it walks on (walk_to): its cells, from where it planned it */
	int route_len;     /* cells of route, 0 none held */
	int cells;         /* size of the scratch arrays (route's too) */
	int *dist, *parent, *queue;
	int *back;         /* steps to the known exit over remembered cells (dig_plan), -1 unreached */
	int strewn;        /* g->turn it last strewed caltrops to run, far in the past none */
};

struct sim_bot *sim_bot_create(void)
{
	struct sim_bot *b = calloc(1, sizeof *b);
	if (b)
		sim_bot_begin(b);
	return b;
}

void sim_bot_destroy(struct sim_bot *b)
{
	if (!b)
		return;
	free(b->dist);
	free(b->parent);
	free(b->queue);
	free(b->route);
	free(b->back);
	free(b);
}

/* What the bot knows of a level, forgotten when it enters another. */
static void forget_level(struct sim_bot *b)
{
	b->explored = false;
	b->own_explore = false;
	b->exit = -1;
	b->waited = 0;
	b->chased = 0;
	b->calm_until = 0;
	b->ambush_until = 0;
	b->covers = 0;
	b->turnbacks = 0;
	b->goal = -1;
	b->route_len = 0;
	b->trail_i = 0;
	for (int i = 0; i < BOT_TRAIL; i++)
		b->trail[i] = -1;
}

const char *sim_bot_why(const struct sim_bot *b)
{
	return b->why ? b->why : "";
}

void sim_bot_begin(struct sim_bot *b)
{
	b->serial = -1;
	b->mapped = -1;
	b->kills = 0;
	b->damage = 0;
	b->decisions = 0;
	b->covered = -1;
	b->fought = -BOT_HOLD_TURNS;
	b->strewn = -BOT_STREWN_TURNS;
	forget_level(b);
}

static struct action act(enum action_kind k)
{
	return (struct action){ .kind = k };
}

static int here_of(const struct game *g)
{
	return grid_index(g->grid, g->player.x, g->player.y);
}

/* The move toward the adjacent cell `to`, or a wait when no direction leads there. */
static struct action step_to(const struct game *g, int to)
{
	for (int d = 0; d < GRID_DIR_COUNT; d++) {
		int nx, ny;
		if (grid_dir_step(g->grid, g->player.x, g->player.y, (enum grid_dir)d, &nx, &ny) &&
		    grid_in_bounds(g->grid, nx, ny) && grid_index(g->grid, nx, ny) == to)
			return (struct action){ .kind = ACT_MOVE, .dir = (enum grid_dir)d };
	}
	return act(ACT_WAIT);
}

/* A cell the player knows it can stand on: remembered, and not a wall as it remembers it. */
static bool known_open(const struct game *g, int c)
{
	return g->remembered[c] && g->known[c] > 0;
}

/* A monster the player sees at cell c. */
static bool seen_monster_at(const struct game *g, int c)
{
	int k = g->occupant[c];
	return k >= 0 && g->monsters[k].alive && g->monsters[k].seen;
}

/* Open cells (as the player knows them) around c: how many monsters could stand next to it. */
static int open_around(const struct game *g, int c)
{
	struct grid_step nb[GRID_MAX_NEIGHBOURS];
	int n = grid_adjacent(g->grid, c, nb), open = 0;
	for (int i = 0; i < n; i++)
		open += known_open(g, nb[i].cell) || !g->remembered[nb[i].cell];
	return open;
}

/* Whether c touches a cell never seen (a frontier of exploration). */
static bool frontier(const struct game *g, int c)
{
	struct grid_step nb[GRID_MAX_NEIGHBOURS];
	int n = grid_adjacent(g->grid, c, nb);
	for (int i = 0; i < n; i++)
		if (!g->remembered[nb[i].cell])
			return true;
	return false;
}

/* Steps from `from` over the cells the player knows are open into dist
 * (-1 unreached) and, when parent is not NULL, each cell's predecessor:
 * forward the steps from `from`, `back` the steps to it (each step taken
 * the other way round); the monsters in view block unless `through`. */
static void breadth(struct sim_bot *b, const struct game *g, int from, int *dist, int *parent, bool through,
		    bool back)
{
	int cells = g->grid->w * g->grid->h, head = 0, tail = 0;
	for (int i = 0; i < cells; i++)
		dist[i] = -1;
	dist[from] = 0;
	if (parent)
		parent[from] = -1;
	b->queue[tail++] = from;
	while (head < tail) {
		int c = b->queue[head++];
		struct grid_step nb[GRID_MAX_NEIGHBOURS];
		int n = grid_adjacent(g->grid, c, nb);
		for (int i = 0; i < n; i++) {
			int t = nb[i].cell;
			if (dist[t] >= 0 || !known_open(g, t) || (!through && seen_monster_at(g, t)) ||
			    !(back ? game_can_step(g, t, c) : game_can_step(g, c, t)))
				continue;
			dist[t] = dist[c] + 1;
			if (parent)
				parent[t] = c;
			b->queue[tail++] = t;
		}
	}
}

/* Breadth-first steps from the player over the cells it knows are open,
 * around the monsters it sees (through them with `through`: a step into
 * one attacks it): b->dist (-1 unreached) and b->parent. */
static bool flood(struct sim_bot *b, const struct game *g, bool through)
{
	int cells = g->grid->w * g->grid->h;
	if (cells > b->cells) {
		/* each kept when its realloc fails, so a later call tries again */
		int **arrays[] = { &b->dist, &b->parent, &b->queue, &b->route, &b->back };
		bool grown = true;
		for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) {
			int *a = realloc(*arrays[i], (size_t)cells * sizeof *a);
			if (a)
				*arrays[i] = a;
			grown &= a != NULL;
		}
		if (!grown)
			return false;
		b->cells = cells;
	}
	breadth(b, g, here_of(g), b->dist, b->parent, through, false);
	return true;
}

/* The first step of the flood's route to `to` (reached), or -1. */
static int first_step(const struct sim_bot *b, const struct game *g, int to)
{
	int here = here_of(g);
	if (to < 0 || b->dist[to] <= 0)
		return -1;
	while (b->parent[to] != here)
		to = b->parent[to];
	return to;
}

/*
 * The held route: the way the bot walks on is kept from one decision to
 * the next while it stays clear, rather than planned afresh each step.
 * Planned afresh, a way round the monsters in view turned with what was
 * in view: a monster seen through a door from one cell and not from the
 * next, or an archer stepping to and fro across a narrow place, sent the
 * bot back and forth between two cells for thousands of turns.
 */

/* Keeps the flood's route to `to` (reached, b->dist[to] > 0) as the held route. */
static void route_keep(struct sim_bot *b, int to)
{
	int n = b->dist[to] + 1;
	b->route_len = n;
	for (int c = to; n > 0; c = b->parent[c])
		b->route[--n] = c;
}

/* The next cell of the held route when it leads from the player's cell to
 * `to` with every cell still open and no monster in view on the rest of
 * it; -1 otherwise. */
static int route_next(const struct sim_bot *b, const struct game *g, int to)
{
	if (b->route_len < 2 || b->route[b->route_len - 1] != to)
		return -1;
	int here = here_of(g), i = 0;
	while (i < b->route_len - 1 && b->route[i] != here)
		i++;
	if (i == b->route_len - 1)
		return -1;
	for (int k = i + 1; k < b->route_len; k++)
		if (!known_open(g, b->route[k]) || seen_monster_at(g, b->route[k]) ||
		    !game_can_step(g, b->route[k - 1], b->route[k]))
			return -1;
	return b->route[i + 1];
}

/* Whether the held route leads from the player's cell to `to` and a
 * monster in view stands on the rest of it (route_next drops it). */
static bool route_met(const struct sim_bot *b, const struct game *g, int to)
{
	if (b->route_len < 2 || b->route[b->route_len - 1] != to)
		return false;
	int here = here_of(g), i = 0;
	while (i < b->route_len - 1 && b->route[i] != here)
		i++;
	for (int k = i + 1; k < b->route_len && i < b->route_len - 1; k++)
		if (seen_monster_at(g, b->route[k]))
			return true;
	return false;
}

/* The first step toward `to` by the held route, else by the flood's
 * (made around the monsters in view), which is then held; -1 when the
 * flood does not reach it. */
static int walk_to(struct sim_bot *b, const struct game *g, int to)
{
	int s = route_next(b, g, to);
	if (s >= 0)
		return s;
	s = first_step(b, g, to);
	if (s >= 0)
		route_keep(b, to);
	return s;
}

/* ---- sizing up a fight ---------------------------------------------------- */

/* The mean of a damage roll of `d` (half of it to all of it, rounded up: game.c). */
static double mean_roll(int d)
{
	return d <= 0 ? 0 : ((d + 1) / 2 + d) / 2.0;
}

/* Blows the player needs to kill monster m: its hit points over the
 * player's mean damage times its chance to hit that kind (both on the
 * character sheet). */
static int blows_for(const struct game *g, const struct monster *m)
{
	double per = (mean_roll(g->player.damage) + g->player.damage_bonus) *
		     game_player_hit_chance(g, m->kind) / 100.0;
	if (per < 0.25)
		per = 0.25;
	return (int)(m->hp / per + 0.999);
}

/* Damage monster m deals per turn of the player's, fighting: its mean
 * blow times its chance to hit the player, times its speed. */
static double harm_of(const struct game *g, const struct monster *m)
{
	int speed = m->kind->speed < 200 ? m->kind->speed : 200;
	return mean_roll(m->kind->damage) * game_monster_hit_chance(g, m->kind) / 100.0 * speed / 100.0;
}

/* Whether monster m, in view, is a threat now: awake and not running away. */
static bool threat(const struct monster *m)
{
	return m->alive && m->seen && !m->mind.asleep && !m->mind.fleeing;
}

/*
 * The hit points a fight with the threats in view would cost, killing the
 * quickest first while at most `slots` of them reach the player at once
 * (archers always do).  A rough count, as a player makes it.
 */
static double fight_cost(const struct game *g, int slots)
{
	int idx[64], n = 0;
	for (int i = 0; i < g->n_monsters && n < 64; i++)
		if (threat(&g->monsters[i]))
			idx[n++] = i;
	/* order by blows needed, fewest first (insertion sort: few monsters) */
	for (int i = 1; i < n; i++) {
		int k = idx[i], j = i;
		while (j > 0 && blows_for(g, &g->monsters[idx[j - 1]]) > blows_for(g, &g->monsters[k])) {
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = k;
	}
	double cost = 0;
	for (int i = 0; i < n; i++) {
		double harm = 0;
		for (int j = i, melee = 0; j < n; j++) {
			const struct monster *m = &g->monsters[idx[j]];
			if (m->kind->range > 0)
				harm += harm_of(g, m);
			else if (melee++ < slots)
				harm += harm_of(g, m);
		}
		cost += blows_for(g, &g->monsters[idx[i]]) * harm;
	}
	return cost;
}

/* ---- the pack ---------------------------------------------------------------- */

/* The kind in pack slot s as the player knows it: NULL for an empty slot
 * or a potion, scroll or wand it has not identified. */
static const struct item_def *known_def(const struct game *g, int s)
{
	const struct item_def *d = game_item_def(g, g->pack[s].kind);
	if (!d || g->pack[s].qty <= 0)
		return NULL;
	bool unknowable = d->cls == ITEM_POTION || d->cls == ITEM_SCROLL || d->cls == ITEM_WAND;
	return !unknowable || g->identified[g->pack[s].kind] ? d : NULL;
}

/* Whether slot s holds an item of class cls the player has not identified. */
static bool unknown_in(const struct game *g, int s, int cls)
{
	const struct item_def *d = game_item_def(g, g->pack[s].kind);
	return d && g->pack[s].qty > 0 && d->cls == cls && !known_def(g, s);
}

/* The first slot holding a known kind of class cls with this effect, -1 none. */
static int known_slot(const struct game *g, int cls, int effect)
{
	for (int s = 0; s < PACK_SLOTS; s++) {
		const struct item_def *d = known_def(g, s);
		if (d && d->cls == cls && d->effect == effect)
			return s;
	}
	return -1;
}

static struct action use(int s)
{
	return (struct action){ .kind = ACT_USE, .x = s };
}

/* Hit points the player's known potions of healing give. */
static double potion_reserve(const struct game *g)
{
	double hp = 0;
	for (int s = 0; s < PACK_SLOTS; s++) {
		const struct item_def *d = known_def(g, s);
		if (d && d->cls == ITEM_POTION && d->effect == EFFECT_HEAL)
			hp += (double)g->pack[s].qty * d->amount;
	}
	return hp;
}

/* The action that drinks a known potion of healing, else (a gamble) an
 * unknown potion; ACT_NONE when it has neither. */
static struct action drink(const struct game *g)
{
	int s = known_slot(g, ITEM_POTION, EFFECT_HEAL);
	for (int i = 0; s < 0 && i < PACK_SLOTS; i++)
		if (unknown_in(g, i, ITEM_POTION))
			s = i;
	return s >= 0 ? use(s) : act(ACT_NONE);
}

/* How good a melee weapon is (bare hands 0): its damage, and its hit as a
 * tenth of a point of damage per percent point. */
static double weapon_worth(const struct item_def *d)
{
	return d ? d->damage + d->hit / 10.0 : 0;
}

/* How good armour is (none 0): its armour, less 5 when its steps are loud. */
static double armour_worth(const struct item_def *d)
{
	return d ? d->armour - (d->noise > 0 ? 5 : 0) : 0;
}

/* ---- arms: launchers, shots and throws ------------------------------------ */

/*
 * A careful player's shots (docs/sim.md, "The bot"): the launcher in hand
 * fires at a monster in its line of fire while the monster comes or keeps
 * off, the melee weapon comes back to hand when a blow is better, and the
 * ammunition is picked up once nothing is in view.  Without a launcher, a
 * stone or an arrow thrown by hand goes after a monster running away.
 * What a shot meets is read from what the player knows: the line's cells,
 * clear to sight or not, and the monsters it sees.
 */

/* A hit chance in percent held as the rules hold it. */
static double chance_of(int c, int lo, int hi)
{
	return (c < lo ? lo : c > hi ? hi : c) / 100.0;
}

/* The damage a shot of the launcher in slot s does on average (the rules'
 * fire: 70% and the launcher's hit, a roll of the ammunition's damage and
 * the launcher's; no evade); 0 when it cannot fire. */
static double shot_worth(const struct game *g, int s)
{
	int a = game_pack_ammo(g, s);
	if (a < 0)
		return 0;
	const struct item_def *w = known_def(g, s), *d = known_def(g, a);
	return mean_roll(d->damage + w->damage) * chance_of(70 + w->hit, 5, 95);
}

/* The launcher with ammunition whose shot does most, -1 none. */
static int best_launcher(const struct game *g)
{
	int best = -1;
	double worth = 0;
	for (int s = 0; s < PACK_SLOTS; s++) {
		double v = shot_worth(g, s);
		if (v > worth) {
			best = s;
			worth = v;
		}
	}
	return best;
}

/* The melee weapon (not a launcher) pack_chores would wield, -1 bare hands. */
static int best_melee(const struct game *g)
{
	int best = -1;
	double worth = 0;
	for (int s = 0; s < PACK_SLOTS; s++) {
		const struct item_def *d = known_def(g, s);
		if (d && d->cls == ITEM_WEAPON && !d->ammo[0] && weapon_worth(d) > worth) {
			best = s;
			worth = weapon_worth(d);
		}
	}
	return best;
}

/* The damage a blow at monster m does on average with the weapon in slot s
 * in hand (-1 bare hands, a launcher as the rules count it: its hit and
 * damage bonuses). */
static double blow_worth(const struct game *g, const struct monster *m, int s)
{
	const struct item_def *d = s >= 0 ? known_def(g, s) : NULL;
	int hit = game_player_hit_chance(g, m->kind) - g->player.hit_bonus + (d ? d->hit : 0);
	double dmg = mean_roll(g->player.damage) + (d ? d->damage : 0);
	return (dmg < 1 ? 1 : dmg) * chance_of(hit, 5, 100);
}

/* Whether the launcher in hand (with ammunition) reaches cell c with a clear line. */
static bool can_fire_at(const struct game *g, int c)
{
	const struct item_def *w = g->wielded >= 0 ? known_def(g, g->wielded) : NULL;
	if (!w || game_pack_ammo(g, g->wielded) < 0 || c == here_of(g))
		return false;
	return grid_step_distance(g->grid, here_of(g), c) <= w->range && game_shot_stop_seen(g, c) == c;
}

static struct action fire_at(const struct game *g, int c)
{
	return (struct action){ .kind = ACT_FIRE, .x = grid_x(g->grid, c), .y = grid_y(g->grid, c) };
}

static struct action wield(int s)
{
	return (struct action){ .kind = ACT_WIELD, .x = s };
}

/* Turns monster m needs to stand next to the player from step distance d. */
static double turns_to_reach(const struct monster *m, int d)
{
	int speed = m->kind->speed < 1 ? 1 : m->kind->speed;
	return (d - 1) * 100.0 / speed;
}

/*
 * Next to monster m (the one the bot strikes): a shot when the launcher in
 * hand does more than a blow with it; the best melee weapon to hand when
 * the turn that takes is won back (1 + hp / its blow below hp / what the
 * hand does now).  ACT_NONE: strike.
 */
static struct action arms_adjacent(const struct game *g, const struct monster *m)
{
	int c = grid_index(g->grid, m->x, m->y);
	double blow = blow_worth(g, m, g->wielded);
	double shot = can_fire_at(g, c) ? shot_worth(g, g->wielded) : 0;
	double now = blow > shot ? blow : shot;
	int melee = best_melee(g);
	if (melee != g->wielded && melee >= 0) {
		double better = blow_worth(g, m, melee);
		if (1 + m->hp / better < m->hp / now)
			return wield(melee);
	}
	return shot > blow ? fire_at(g, c) : act(ACT_NONE);
}

/*
 * No monster next to the bot: a shot at the monster in the line of fire
 * that matters most (an archer, then the nearest: the first to reach it,
 * then the weakest), or the launcher taken in hand for it while the
 * melee hunters are still three turns off; the best melee weapon back in
 * hand when the nearest hunter will reach the bot before its next action
 * and blows then do more than the shot now would.  `nearest` is the
 * nearest melee threat (-1 none) at step distance nearest_d.  ACT_NONE
 * when no shot is worth it.
 */
static struct action arms_ranged(const struct game *g, int nearest, int nearest_d)
{
	int launcher = best_launcher(g), melee = best_melee(g);
	double reach = nearest >= 0 ? turns_to_reach(&g->monsters[nearest], nearest_d) : 1e9;
	const struct item_def *w = launcher >= 0 ? known_def(g, launcher) : NULL;
	int here = here_of(g), target = -1, target_d = 0;
	bool target_archer = false;
	for (int i = 0; w && i < g->n_monsters; i++) {
		const struct monster *m = &g->monsters[i];
		if (!m->alive || !m->seen || m->mind.asleep)
			continue; /* a sleeper is let lie (or walked to) */
		int c = grid_index(g->grid, m->x, m->y), d = grid_step_distance(g->grid, here, c);
		if (d > w->range || game_shot_stop_seen(g, c) != c)
			continue;
		bool archer = m->kind->range > 0 && !m->mind.fleeing;
		if (!archer && blows_for(g, m) * harm_of(g, m) < g->player.hp * BOT_SHOT_FIGHT)
			continue; /* a fight that cheap is not worth a shot that may break */
		if (target >= 0 && (target_archer != archer ? target_archer
				    : d != target_d          ? d > target_d
							     : m->hp >= g->monsters[target].hp))
			continue;
		target = i;
		target_d = d;
		target_archer = archer;
	}
	if (target < 0) {
		/* nothing to shoot at: the melee weapon back in hand for a hunter
		 * two turns off (a launcher out of ammunition, or out of line) */
		const struct item_def *hand = g->wielded >= 0 ? known_def(g, g->wielded) : NULL;
		if (melee >= 0 && melee != g->wielded && hand && hand->ammo[0] &&
		    weapon_worth(known_def(g, melee)) > weapon_worth(hand) && reach <= 2)
			return wield(melee);
		return act(ACT_NONE);
	}
	const struct monster *t = &g->monsters[target];
	int tc = grid_index(g->grid, t->x, t->y);
	bool swap_back = melee >= 0 && weapon_worth(known_def(g, melee)) > weapon_worth(w);
	if (g->wielded == launcher) {
		if (swap_back && reach <= 1) {
			/* it reaches the bot before its next action: this shot, or
			 * the melee weapon in hand for the fight that follows */
			const struct monster *m = &g->monsters[nearest];
			double now = blow_worth(g, m, launcher), shot = shot_worth(g, launcher);
			now = now > shot ? now : shot;
			if (m->hp / blow_worth(g, m, melee) < (m->hp - shot) / now)
				return wield(melee);
		}
		return fire_at(g, tc);
	}
	/* worth a turn to take in hand: an archer, or time for a shot before the
	 * hunters come (and the melee weapon back); no weapon better at hand */
	if (!swap_back || target_archer || reach >= 3)
		return wield(launcher);
	return act(ACT_NONE);
}

/*
 * Without a launcher to fire: a stone or an arrow thrown by hand (ACT_THROW
 * flies `range` cells one way and hits the first monster on its line) at
 * a monster in view that runs away (it would come back healed).  A throw
 * at an archer out of reach was tried and did not pay: a stone by hand
 * hits for 1 (docs/perf-log.md, twenty-seventh session, arms).  ACT_NONE
 * when nothing is in such a line.
 */
static struct action arms_throw(const struct game *g)
{
	int here = here_of(g);
	for (int s = 0; s < PACK_SLOTS; s++) {
		const struct item_def *d = known_def(g, s);
		if (!d || d->cls != ITEM_AMMO)
			continue;
		int range = d->range > 0 ? d->range : 1;
		for (int dir = 0; dir < GRID_DIR_COUNT; dir++) {
			int x = g->player.x, y = g->player.y;
			for (int i = 0; i < range; i++) {
				int nx, ny;
				if (!grid_dir_step(g->grid, x, y, (enum grid_dir)dir, &nx, &ny) ||
				    !grid_in_bounds(g->grid, nx, ny))
					break;
				x = nx;
				y = ny;
			}
			int end = grid_index(g->grid, x, y);
			if (end == here)
				continue;
			int stop = game_shot_stop_seen(g, end);
			if (stop < 0 || !seen_monster_at(g, stop))
				continue;
			const struct monster *m = &g->monsters[g->occupant[stop]];
			if (!m->mind.fleeing)
				continue;
			return (struct action){ .kind = ACT_THROW, .x = s, .dir = (enum grid_dir)dir };
		}
		return act(ACT_NONE); /* one kind is enough to look with */
	}
	return act(ACT_NONE);
}

/* Within this many steps, the bot walks to the ammunition it can use once nothing is in view. */
#define BOT_PICKUP_STEPS 12

/* Whether the item at cell c is ammunition the bot uses (for a launcher it
 * has, or by hand) and has room for. */
static bool wanted_ammo(const struct game *g, int c)
{
	const struct item_def *d = game_item_def(g, g->items[c] - 1);
	return d && d->cls == ITEM_AMMO && game_item_wanted(g, c);
}

/*
 * With nothing in view: the nearest ammunition lying within
 * BOT_PICKUP_STEPS, picked up (',') where the bot stands, walked to
 * otherwise (a step onto it picks it up).  ACT_NONE when there is none.
 */
static struct action pick_up_ammo(struct sim_bot *b, const struct game *g)
{
	int here = here_of(g);
	if (g->items[here] && wanted_ammo(g, here))
		return act(ACT_PICKUP);
	int x0 = g->player.x, y0 = g->player.y, found = 0;
	for (int y = y0 - BOT_PICKUP_STEPS; y <= y0 + BOT_PICKUP_STEPS && !found; y++)
		for (int x = x0 - BOT_PICKUP_STEPS; x <= x0 + BOT_PICKUP_STEPS && !found; x++)
			if (grid_in_bounds(g->grid, x, y)) {
				int c = grid_index(g->grid, x, y);
				found = g->items[c] && g->remembered[c] && wanted_ammo(g, c);
			}
	if (!found || !flood(b, g, false))
		return act(ACT_NONE);
	int cells = g->grid->w * g->grid->h, best = -1;
	for (int c = 0; c < cells; c++)
		if (b->dist[c] > 0 && b->dist[c] <= BOT_PICKUP_STEPS && g->items[c] && g->remembered[c] &&
		    wanted_ammo(g, c) && (best < 0 || b->dist[c] < b->dist[best]))
			best = c;
	int s = best >= 0 ? walk_to(b, g, best) : -1;
	return s >= 0 ? step_to(g, s) : act(ACT_NONE);
}

/*
 * What a careful player does with its pack when nothing is in view: the
 * best melee weapon in hand (a launcher with ammunition stays in hand for
 * BOT_HOLD_TURNS after a fight, and is taken in hand when no melee weapon
 * beats it as one), the best armour on, a known potion of vigour
 * drunk, unknown potions drunk at full health and unknown scrolls read to
 * learn what they are, a known scroll of mapping read on a level not yet
 * explored.  ACT_NONE when there is nothing to do.
 */
static struct action pack_chores(struct sim_bot *b, const struct game *g)
{
	const struct player *p = &g->player;
	int best_w = -1, best_a = -1;
	double cur_w = g->wielded >= 0 ? weapon_worth(known_def(g, g->wielded)) : 0;
	double cur_a = g->worn >= 0 ? armour_worth(known_def(g, g->worn)) : 0;
	/* a launcher with ammunition stays in hand a while after a fight (what
	 * went out of view may come back) */
	bool hold = g->wielded >= 0 && game_pack_ammo(g, g->wielded) >= 0 && g->turn - b->fought < BOT_HOLD_TURNS;
	for (int s = 0; s < PACK_SLOTS; s++) {
		const struct item_def *d = known_def(g, s);
		if (!d)
			continue;
		if (d->cls == ITEM_WEAPON && !d->ammo[0] && s != g->wielded && weapon_worth(d) > cur_w && !hold) {
			best_w = s;
			cur_w = weapon_worth(d);
		}
		if (d->cls == ITEM_ARMOUR && s != g->worn && armour_worth(d) > cur_a) {
			best_a = s;
			cur_a = armour_worth(d);
		}
	}
	if (best_w >= 0)
		return (struct action){ .kind = ACT_WIELD, .x = best_w };
	/* a launcher with ammunition in hand when no melee weapon beats it as one */
	int launcher = best_launcher(g), melee = best_melee(g);
	if (launcher >= 0 && launcher != g->wielded &&
	    weapon_worth(known_def(g, launcher)) >= (melee >= 0 ? weapon_worth(known_def(g, melee)) : 0))
		return wield(launcher);
	if (best_a >= 0)
		return (struct action){ .kind = ACT_WEAR, .x = best_a };
	int s = known_slot(g, ITEM_POTION, EFFECT_VIGOUR);
	if (s >= 0)
		return use(s);
	for (s = 0; s < PACK_SLOTS; s++) {
		if (unknown_in(g, s, ITEM_POTION) && p->hp >= p->max_hp)
			return use(s);
		if (unknown_in(g, s, ITEM_SCROLL))
			return use(s);
	}
	s = known_slot(g, ITEM_SCROLL, EFFECT_MAPPING);
	if (s >= 0 && !b->explored && b->mapped != g->level_serial) {
		b->mapped = g->level_serial;
		return use(s);
	}
	return act(ACT_NONE);
}

/* Hit points the player can count on: what it has and what its potions give. */
static double reserves(const struct game *g)
{
	return g->player.hp + potion_reserve(g);
}

/* ---- the level ----------------------------------------------------------- */

static void level_begin(struct sim_bot *b, const struct game *g)
{
	b->serial = g->level_serial;
	b->level_turn0 = g->turn;
	forget_level(b);
}

/* Notes the player's cell; walking back and forth makes the bot calm for a while. */
static void note_cell(struct sim_bot *b, const struct game *g)
{
	int here = here_of(g), times = 1;
	if (here == b->trail[(b->trail_i + BOT_TRAIL - 1) % BOT_TRAIL])
		return;
	for (int i = 0; i < BOT_TRAIL; i++)
		times += b->trail[i] == here;
	b->trail[b->trail_i] = here;
	b->trail_i = (b->trail_i + 1) % BOT_TRAIL;
	if (times >= BOT_DITHER && g->turn >= b->calm_until) {
		/* torn between goals (what is left to explore lies past a monster
		 * it would rather not wake, an archer that keeps off): done here */
		b->calm_until = g->turn + BOT_DITHER_TURNS;
		b->explored |= b->exit >= 0;
		/* without known stairs: one planner, its own, from now on (autoexplore
		 * and its own plan round what it sees may lead opposite ways) */
		b->own_explore = true;
	}
}

/* Whether the bot is done with this level: explored, or it has spent long enough on it. */
static bool leaving(const struct sim_bot *b, const struct game *g)
{
	return b->explored || g->turn - b->level_turn0 > BOT_LEVEL_TURNS;
}

/* The nearest remembered exit cell (as the crow flies), -1 when none is known. */
static int known_exit(struct sim_bot *b, const struct game *g)
{
	if (b->exit >= 0)
		return b->exit;
	int cells = g->grid->w * g->grid->h, here = here_of(g);
	double best = 0;
	for (int c = 0; c < cells; c++)
		if (g->remembered[c] && g->tiles[c] == TILE_EXIT) {
			double d = grid_heuristic(g->grid, here, c);
			if (b->exit < 0 || d < best) {
				b->exit = c;
				best = d;
			}
		}
	return b->exit;
}

/* To the known exit: a step of the route over remembered cells (the
 * same way the bot takes when monsters are in view, so the two never
 * disagree), else the game's travel, which also crosses unseen cells. */
static struct action go_to_exit(struct sim_bot *b, const struct game *g, int exit)
{
	if (flood(b, g, false)) {
		int s = walk_to(b, g, exit);
		if (s >= 0)
			return step_to(g, s);
	}
	if (g->travel.active && g->travel.mode == MODE_TRAVEL &&
	    grid_index(g->grid, g->travel.goal_x, g->travel.goal_y) == exit)
		return act(ACT_TRAVEL_STEP);
	return (struct action){ .kind = ACT_TRAVEL, .x = grid_x(g->grid, exit), .y = grid_y(g->grid, exit) };
}

/* ---- tools: caltrops and the wand of digging ------------------------------ */

/*
 * A careful player's tools (docs/sim.md, "The bot").  Caltrops strewn
 * where it stands make every cell round it cost their `amount` more to
 * enter, the monsters' steps and its own (game_items.c): a melee hunter
 * that steps next to it then stands spent for that many turns while it
 * strikes, and one that follows it across them falls behind.  A wand of
 * digging turns the walls on a straight line into rubble: zapped when the
 * way it cuts to the known stairs is much shorter than the way round.
 * Both are planned on what the player knows: the remembered cells, the
 * tiles as it last saw them, and the monsters in view.
 */

/* The slot of a known kind of class cls with this effect and something
 * left (a wand's charges), else of an unknown one of that class when
 * `gamble` (used to learn what it is, where the known kind would pay); -1. */
static int tool_slot(const struct game *g, int cls, int effect, bool gamble)
{
	int s = known_slot(g, cls, effect);
	for (int i = 0; s < 0 && gamble && i < PACK_SLOTS; i++)
		if (unknown_in(g, i, cls))
			s = i;
	return s;
}

/* Steps from cell `from` over the cells the player knows are open (the
 * monsters it sees ignored: they move) into b->back, -1 unreached.  The
 * arrays are sized by a flood before it. */
static void flood_back(struct sim_bot *b, const struct game *g, int from)
{
	breadth(b, g, from, b->back, NULL, true, true);
}

/* A dig: zapped from cell `from` (b->dist steps off) in direction dir, the
 * way to the exit then `len` steps, `gain` fewer than without it. */
struct dig {
	int from, gain, len;
	enum grid_dir dir;
};

/* The steps to the exit by the line dug from cell o (b->dist[o] steps
 * off) in direction d (see dig_plan), -1 when the line reaches no known
 * open cell with a way to the exit beyond a wall it digs. */
static int dig_line_len(const struct sim_bot *b, const struct game *g, int o, enum grid_dir d, int range)
{
	int w = g->grid->w, h = g->grid->h, x = grid_x(g->grid, o), y = grid_y(g->grid, o);
	int steps = b->dist[o], dug = 0, best = -1;
	for (int i = 0; i < range; i++) {
		int nx, ny;
		if (!grid_dir_step(g->grid, x, y, d, &nx, &ny) || !grid_in_bounds(g->grid, nx, ny))
			break;
		int c = grid_index(g->grid, nx, ny);
		if (i == 0) { /* a short step of this topology */
			struct grid_step nb[GRID_MAX_NEIGHBOURS];
			int n = grid_adjacent(g->grid, o, nb), k = 0;
			while (k < n && nb[k].cell != c)
				k++;
			if (k == n || nb[k].step > 1.5)
				break;
		}
		enum tile t = g->remembered[c] ? game_tile_known(g, c) : TILE_WALL;
		if (t == TILE_WALL) {
			if (!tile_diggable(t, w, h, nx, ny))
				break;
			dug++;
			steps += 2;
		} else if (!known_open(g, c)) {
			break; /* bedrock or void */
		} else {
			steps += g->known[c];
			if (dug > 0 && b->back[c] >= 0 && (best < 0 || steps + b->back[c] < best))
				best = steps + b->back[c];
		}
		x = nx;
		y = ny;
	}
	return best;
}

/*
 * The zap of a wand of digging that most shortens the way to the known
 * exit, from a cell within `walk` steps of the bot (the flood's b->dist,
 * planned by the caller): along each way a step goes (a short step: a
 * diagonal dug through rock leaves its corners standing, which the corner
 * rule needs open), up to `range` cells, the walls it knows and the cells
 * it never saw (hoped to be rock) become rubble (2 a step), and the
 * line's known open cells join the way on (b->back, the steps from the
 * exit).  A known permanent wall, void or the map's edge ends the line.
 * The gain is against the flood's way (an exit it does not reach counts
 * as far); among equal gains the nearest cell to zap from.  gain 0: no
 * line digs a wall and gains.
 */
static struct dig dig_plan(struct sim_bot *b, const struct game *g, int exit, int range, int walk)
{
	flood_back(b, g, exit);
	struct dig best = { .from = -1, .gain = 0, .len = 0, .dir = GRID_N };
	int cells = g->grid->w * g->grid->h, now = b->dist[exit] > 0 ? b->dist[exit] : cells;
	for (int o = 0; o < cells; o++) {
		if (b->dist[o] < 0 || b->dist[o] > walk || b->dist[o] + 2 >= now - best.gain)
			continue;
		for (int d = 0; d < GRID_DIR_COUNT; d++) {
			int len = dig_line_len(b, g, o, (enum grid_dir)d, range);
			if (len >= 0 && (now - len > best.gain ||
					 (now - len == best.gain && best.from >= 0 && b->dist[o] < b->dist[best.from]))) {
				best = (struct dig){ .from = o, .gain = now - len, .len = len, .dir = (enum grid_dir)d };
			}
		}
	}
	return best;
}

/*
 * A wand of digging toward the exit, when the way dug saves at least
 * `saves` steps and leaves at most `within`: zapped where the bot stands,
 * or a step toward the cell to zap it from (within `walk` steps).  A known
 * wand with charges, else an unknown wand, zapped to learn it where
 * digging would pay (planned with a range of BOT_DIG_GUESS).  ACT_NONE
 * when none pays.  Needs the flood from the player (b->dist).
 */
static struct action dig_to(struct sim_bot *b, const struct game *g, int exit, int saves, int within, int walk)
{
	int s = tool_slot(g, ITEM_WAND, EFFECT_DIG, true);
	if (s < 0 || exit < 0 || exit == here_of(g))
		return act(ACT_NONE);
	const struct item_def *d = known_def(g, s);
	struct dig dig = dig_plan(b, g, exit, d ? (d->range > 0 ? d->range : 1) : BOT_DIG_GUESS, walk);
	if (dig.gain < saves || dig.gain <= 0 || dig.len > within)
		return act(ACT_NONE);
	if (dig.from != here_of(g)) {
		int step = walk_to(b, g, dig.from);
		return step >= 0 ? step_to(g, step) : act(ACT_NONE);
	}
	return (struct action){ .kind = ACT_USE, .x = s, .dir = dig.dir };
}

/* To the known exit (go_to_exit), by a wall dug when that saves `saves` steps or more. */
static struct action to_exit(struct sim_bot *b, const struct game *g, int exit, int saves)
{
	if (tool_slot(g, ITEM_WAND, EFFECT_DIG, true) >= 0 && flood(b, g, false)) {
		struct action dig = dig_to(b, g, exit, saves, g->grid->w * g->grid->h, BOT_DIG_WALK);
		if (dig.kind != ACT_NONE)
			return b->why = "dig: to the stairs", dig;
	}
	return go_to_exit(b, g, exit);
}

/*
 * Caltrops where the bot stands, before melee hunters reach it: known
 * caltrops in the pack, none strewn here yet, and a hunter in view that
 * walks (range 0), awake and not running, coming within `near` steps.
 * (Strewn cells lie round the player: it stands on them to fight, and
 * leaves across one when it runs.)  -1 when not.
 */
static int caltrops_slot(const struct game *g, int near)
{
	int s = known_slot(g, ITEM_TOOL, EFFECT_CALTROPS), here = here_of(g);
	if (s < 0 || g->hazard[here] > 0 || g->tiles[here] == TILE_EXIT)
		return -1;
	for (int i = 0; i < g->n_monsters; i++) {
		const struct monster *m = &g->monsters[i];
		if (threat(m) && m->kind->range <= 0 && m->mind.hunting &&
		    grid_step_distance(g->grid, here, grid_index(g->grid, m->x, m->y)) <= near)
			return s;
	}
	return -1;
}

/* ---- with monsters in view ------------------------------------------------ */

/*
 * A cell within BOT_RETREAT_STEPS with few open cells around it (a
 * corridor, a doorway), which the bot reaches before any threat could
 * (its steps fewer than the threat's distance to it), nearest first;
 * -1 when the player's own cell is as good.
 */
static int retreat_cell(const struct sim_bot *b, const struct game *g)
{
	int here = here_of(g), best = -1, best_open = open_around(g, here), best_d = 0;
	int cells = g->grid->w * g->grid->h;
	for (int c = 0; c < cells; c++) {
		int d = b->dist[c];
		if (d <= 0 || d > BOT_RETREAT_STEPS)
			continue;
		int open = open_around(g, c);
		if (open >= best_open && !(best >= 0 && open == best_open && d < best_d))
			continue;
		bool safe = true;
		for (int i = 0; i < g->n_monsters && safe; i++) {
			const struct monster *m = &g->monsters[i];
			if (threat(m))
				safe = grid_step_distance(g->grid, c, grid_index(g->grid, m->x, m->y)) > d;
		}
		if (safe) {
			best = c;
			best_open = open;
			best_d = d;
		}
	}
	return best_open <= 2 ? best : -1;
}

/* The nearest cell (flood steps, at most BOT_RETREAT_STEPS) out of the
 * line of fire of the archer at cell `from`; -1 when none. */
static int cover_cell(const struct sim_bot *b, const struct game *g, int from)
{
	int cells = g->grid->w * g->grid->h, best = -1;
	for (int c = 0; c < cells; c++) {
		int d = b->dist[c];
		if (d <= 0 || d > BOT_RETREAT_STEPS || (best >= 0 && d >= b->dist[best]))
			continue;
		int hit;
		if (game_shot_stop(g, from, c, &hit) != c)
			best = c;
	}
	return best;
}

/* The nearest frontier cell by steps (flood), -1 when none is reachable. */
static int nearest_frontier(const struct sim_bot *b, const struct game *g)
{
	int cells = g->grid->w * g->grid->h, best = -1;
	for (int c = 0; c < cells; c++)
		if (b->dist[c] > 0 && frontier(g, c) && (best < 0 || b->dist[c] < b->dist[best]))
			best = c;
	return best;
}

/*
 * Moves away from what is in view: on toward unexplored places, else the
 * stairs; a wait when neither.  The frontier it walks to is held while it
 * is still one and the way round the monsters in view still reaches it,
 * and so is the way there (walk_to).
 */
static struct action move_on(struct sim_bot *b, const struct game *g)
{
	int exit = known_exit(b, g);
	int target;
	if (b->explored && exit >= 0)
		target = exit;
	else if (b->goal >= 0 && b->dist[b->goal] > 0 && frontier(g, b->goal))
		target = b->goal;
	else {
		if (b->goal >= 0 && b->dist[b->goal] < 0 && frontier(g, b->goal) && flood(b, g, true)) {
			/* a monster in view stands in the way to the frontier: another
			 * way, a few times; then the stairs when it knows them, else
			 * through it (two monsters that do not come, each in the way
			 * to a frontier, sent the bot from one to the other for ever) */
			if (b->dist[b->goal] > 0 && ++b->turnbacks > BOT_TURNBACKS) {
				int s = first_step(b, g, b->goal);
				if (exit < 0 && s >= 0)
					return step_to(g, s);
				b->explored |= exit >= 0;
			}
			if (!flood(b, g, false))
				return act(ACT_WAIT);
		}
		target = b->explored && exit >= 0 ? exit : (b->goal = nearest_frontier(b, g));
	}
	if (target < 0)
		target = exit;
	if (target >= 0 && route_met(b, g, target) && ++b->turnbacks > BOT_TURNBACKS && flood(b, g, true)) {
		/* its way dropped once too often for a monster in view on it:
		 * on by that way, through the monster (two that do not come,
		 * each on one of two ways round a loop and seen only from its
		 * end, turned it back and forth for ever) */
		int s = first_step(b, g, target);
		if (s >= 0) {
			route_keep(b, target);
			return step_to(g, s);
		}
		if (!flood(b, g, false))
			return act(ACT_WAIT);
	}
	int s = walk_to(b, g, target);
	if (s < 0 && flood(b, g, true)) {
		/* the way is held by a monster: through it */
		if (target < 0)
			target = b->explored && exit >= 0 ? exit : nearest_frontier(b, g);
		s = first_step(b, g, target >= 0 ? target : exit);
	}
	if (s < 0 && target >= 0 && target == exit && flood(b, g, false)) {
		/* stairs known but no known way there, even through the monsters
		 * in view (the way crosses cells never seen): on to explore */
		int f = nearest_frontier(b, g);
		s = f >= 0 ? walk_to(b, g, f) : -1;
	}
	return s >= 0 ? step_to(g, s) : act(ACT_WAIT);
}

static struct action fight(struct sim_bot *b, const struct game *g)
{
	const struct player *p = &g->player;
	int here = here_of(g), n_adj = 0, n_threats = 0, weakest = -1, nearest = -1, archer = -1;
	int nearest_d = 0, archer_d = 0, n_melee = 0;
	bool closer = false;
	if (p->kills != b->kills) { /* a kill ends a chase, and what stood in the way may be gone */
		b->kills = p->kills;
		b->chased = 0;
		b->turnbacks = 0;
	}
	for (int i = 0; i < g->n_monsters; i++) {
		const struct monster *m = &g->monsters[i];
		if (!m->alive || !m->seen)
			continue;
		int c = grid_index(g->grid, m->x, m->y);
		bool adj = grid_is_adjacent(g->grid, here, c) && game_can_step(g, here, c);
		if (adj) {
			n_adj++;
			if (weakest < 0 || m->hp < g->monsters[weakest].hp)
				weakest = i;
		}
		if (!threat(m))
			continue;
		n_threats++;
		int d = grid_step_distance(g->grid, here, c);
		n_melee += m->kind->range <= 0;
		if (m->kind->range > 0) {
			if (archer < 0 || d < archer_d) {
				archer = i;
				archer_d = d;
			}
			continue;
		}
		if (d < g->monster_dist[i])
			closer = true;
		if (nearest < 0 || d < nearest_d) {
			nearest = i;
			nearest_d = d;
		}
	}
	double cost = fight_cost(g, open_around(g, here) <= 2 ? 1 : 8);
	bool lost = cost > reserves(g) * 0.9;
	bool low = p->hp * 10 < p->max_hp * 4;
	int exit = known_exit(b, g);

	/* drink when low and something threatens */
	struct action quaff = drink(g);
	if (low && quaff.kind != ACT_NONE && (n_threats > 0 || n_adj > 0))
		return b->why = "quaff", quaff;
	/* a lost fight on the stairs: leave the level */
	if (lost && g->tiles[here] == TILE_EXIT)
		return b->why = "lost: stairs", act(ACT_DESCEND);
	if (!flood(b, g, false))
		return b->why = "no memory", act(ACT_WAIT);
	/* a lost fight, low, with a known scroll of teleport: away */
	int tele = known_slot(g, ITEM_SCROLL, EFFECT_TELEPORT);
	if (lost && low && tele >= 0)
		return b->why = "teleport away", use(tele);
	/* a lost fight with known stairs near: run for them, caltrops strewn
	 * behind it first in a narrow place when a hunter follows (and with
	 * them behind it, stairs twice as far are run for) */
	int run = BOT_RUN_STEPS;
	if (g->turn - b->strewn < BOT_STREWN_TURNS || known_slot(g, ITEM_TOOL, EFFECT_CALTROPS) >= 0)
		run *= BOT_RUN_CALTROPS;
	if (lost && exit >= 0 && b->dist[exit] > 0 && b->dist[exit] <= run) {
		int s = first_step(b, g, exit);
		int cal = n_adj == 0 && open_around(g, here) <= 2 ? caltrops_slot(g, BOT_CALTROPS_NEAR) : -1;
		if (s >= 0 && cal >= 0) {
			b->strewn = g->turn;
			return b->why = "caltrops: run", use(cal);
		}
		if (s >= 0 && (b->dist[exit] <= BOT_RUN_STEPS || g->turn - b->strewn < BOT_STREWN_TURNS))
			return b->why = "lost: run for the stairs", step_to(g, s);
	}
	/* a lost fight with known stairs too far: a wall dug that brings them near */
	if (lost && exit >= 0) {
		struct action dig = dig_to(b, g, exit, 1, run, 0);
		if (dig.kind != ACT_NONE)
			return b->why = "dig: run for the stairs", dig;
	}
	bool calm = g->turn < b->calm_until || b->chased >= BOT_CHASE_STEPS;
	if (g->turn < b->calm_until && weakest < 0) /* calm: only what stands next to it, else on */
		return b->why = "calm: on", leaving(b, g) && g->tiles[here] == TILE_EXIT ? act(ACT_DESCEND) : move_on(b, g);
	/* several close in: fight where one at a time reaches (not off its caltrops) */
	if (n_melee >= 2 && closer && open_around(g, here) > 2 && g->hazard[here] == 0) {
		int r = retreat_cell(b, g);
		int s = r >= 0 ? first_step(b, g, r) : -1;
		if (s >= 0)
			return b->why = "retreat to a corridor", step_to(g, s);
	}
	/* a dear fight coming: caltrops where it stands, so each hunter that
	 * steps next to it stands spent while it strikes */
	if (n_adj == 0 && closer && cost > p->hp * BOT_CALTROPS_COST) {
		int cal = caltrops_slot(g, BOT_CALTROPS_NEAR);
		if (cal >= 0)
			return b->why = "caltrops: stand", use(cal);
	}
	if (weakest >= 0) {
		b->waited = 0;
		struct action a = arms_adjacent(g, &g->monsters[weakest]);
		if (a.kind == ACT_FIRE)
			return b->why = "fire point-blank", a;
		if (a.kind == ACT_WIELD)
			return b->why = "melee weapon to hand", a;
		return b->why = "strike", step_to(g, grid_index(g->grid, g->monsters[weakest].x, g->monsters[weakest].y));
	}
	/* a shot at what comes or keeps off, the launcher taken in hand for it */
	struct action shot = arms_ranged(g, nearest, nearest_d);
	if (shot.kind == ACT_FIRE)
		return b->why = "fire", shot;
	if (shot.kind == ACT_WIELD)
		return b->why = known_def(g, shot.x)->ammo[0] ? "launcher to hand" : "melee weapon to hand", shot;
	/* without a launcher: a throw at what runs away */
	shot = arms_throw(g);
	if (shot.kind != ACT_NONE)
		return b->why = "throw at a runaway", shot;
	/* an archer is fought, not waited for */
	if (archer >= 0 && !calm && !lost) {
		const struct monster *m = &g->monsters[archer];
		int s = first_step(b, g, grid_index(g->grid, m->x, m->y));
		if (s < 0) { /* the flood goes round monsters: aim beside it */
			struct grid_step nb[GRID_MAX_NEIGHBOURS];
			int n = grid_adjacent(g->grid, grid_index(g->grid, m->x, m->y), nb);
			int best = -1;
			for (int i = 0; i < n; i++)
				if (b->dist[nb[i].cell] > 0 && (best < 0 || b->dist[nb[i].cell] < b->dist[best]))
					best = nb[i].cell;
			s = first_step(b, g, best);
			if (best >= 0 && b->dist[best] == 0)
				s = -1;
		}
		if (s >= 0) {
			b->chased++;
			return b->why = "chase an archer", step_to(g, s);
		}
	}
	/* an archer that cannot be caught: out of its line of fire (a few
	 * times a level: one that guards the way on is walked past) */
	if (archer >= 0 && (lost || b->covers < BOT_COVERS)) {
		const struct monster *m = &g->monsters[archer];
		int c = cover_cell(b, g, grid_index(g->grid, m->x, m->y));
		int s = first_step(b, g, c);
		if (s >= 0) {
			/* a new run of steps to cover is another time: an archer
			 * that follows it round the corner each time (a pillar)
			 * is not hidden from for ever */
			if (b->covered != b->decisions - 1)
				b->covers++;
			b->covered = b->decisions;
			b->ambush_until = g->turn + BOT_AMBUSH_TURNS;
			return b->why = "cover from an archer", step_to(g, s);
		}
	}
	/* hunters coming: let them come, the first blow is the player's
	 * (not under an archer's shots: better go on out of its sight) */
	if (nearest >= 0 && archer < 0 && b->waited < (closer ? 3 * BOT_PATIENCE : BOT_PATIENCE)) {
		b->waited++; /* a crowd that hangs back and edges in is not waited for forever */
		return b->why = "wait for them", act(ACT_WAIT);
	}
	/* a monster that does not come (asleep, unaware, stuck): go for it
	 * when the fight is cheap, else go on past it */
	int target = -1;
	for (int i = 0; i < g->n_monsters; i++) {
		const struct monster *m = &g->monsters[i];
		if (!m->alive || !m->seen || m->mind.fleeing)
			continue; /* a monster running away is let go */
		if (m->mind.hunting && !m->mind.asleep)
			continue; /* awake and hunting but not coming: stuck, or an archer keeping off */
		double harm = blows_for(g, m) * harm_of(g, m);
		if (harm * 2 < p->hp && (target < 0 || m->hp < g->monsters[target].hp))
			target = i;
	}
	if (target >= 0 && !lost && !calm) {
		const struct monster *m = &g->monsters[target];
		int mc = grid_index(g->grid, m->x, m->y), best = -1;
		struct grid_step nb[GRID_MAX_NEIGHBOURS];
		int n = grid_adjacent(g->grid, mc, nb);
		for (int i = 0; i < n; i++)
			if (b->dist[nb[i].cell] > 0 && (best < 0 || b->dist[nb[i].cell] < b->dist[best]))
				best = nb[i].cell;
		int s = first_step(b, g, best);
		if (s >= 0) {
			b->chased++;
			return b->why = "go for a sleeper", step_to(g, s);
		}
	}
	b->waited = 0;
	if (leaving(b, g) && g->tiles[here] == TILE_EXIT)
		return b->why = "done: stairs", act(ACT_DESCEND);
	return b->why = "on", move_on(b, g);
}

/* ---- the decision ---------------------------------------------------------- */

struct action sim_bot_decide(struct sim_bot *b, struct game *g)
{
	b->decisions++;
	if (g->level_serial != b->serial)
		level_begin(b, g);
	note_cell(b, g);
	const struct player *p = &g->player;
	const struct travel *t = &g->travel;
	if (!t->active && t->mode == MODE_EXPLORE && t->stopped == TRAVEL_DONE)
		b->explored = true;
	for (int i = 0; i < g->n_monsters; i++)
		if (g->monsters[i].alive && g->monsters[i].seen) {
			b->damage = g->damage_taken;
			b->fought = g->turn;
			return fight(b, g);
		}
	b->why = "nothing in view";
	b->waited = 0;
	bool shot = g->damage_taken > b->damage; /* hurt by what it does not see: an archer round a corner */
	b->damage = g->damage_taken;
	int here = here_of(g), exit = known_exit(b, g);
	if (shot) { /* no resting here: on to the stairs, or to explore elsewhere */
		b->ambush_until = 0;
		b->explored |= exit >= 0;
		b->own_explore = true;
		if (exit >= 0)
			return g->tiles[here] == TILE_EXIT ? act(ACT_DESCEND) : to_exit(b, g, exit, BOT_DIG_SAVES / 2);
		if (flood(b, g, false) && nearest_frontier(b, g) >= 0)
			return move_on(b, g);
	}
	bool done = leaving(b, g);
	/* hurt with nothing in view: rest (more fully before the stairs) */
	bool rest = done ? p->hp * 10 < p->max_hp * 9 : p->hp * 10 < p->max_hp * 6;
	if (!t->active) {
		struct action c = pack_chores(b, g);
		if (c.kind != ACT_NONE)
			return c;
	}
	if (t->active && t->mode == MODE_REST)
		return act(ACT_TRAVEL_STEP);
	if (g->turn < b->ambush_until) /* in cover: let the archer come */
		return act(p->hp < p->max_hp ? ACT_REST : ACT_WAIT);
	if (rest && p->hp < p->max_hp)
		return act(ACT_REST);
	if (g->turn >= b->calm_until) { /* its shots and throws back into the pack */
		struct action a = pick_up_ammo(b, g);
		if (a.kind != ACT_NONE)
			return a;
	}
	if (done && g->tiles[here] == TILE_EXIT)
		return act(ACT_DESCEND);
	if (done && exit >= 0)
		return to_exit(b, g, exit, BOT_DIG_SAVES);
	if (t->active && t->mode == MODE_EXPLORE)
		return act(ACT_TRAVEL_STEP);
	if (b->explored) /* no stairs known and nothing to explore: wait for news */
		return act(ACT_WAIT);
	if (b->own_explore) {
		int f = flood(b, g, false) ? nearest_frontier(b, g) : -1;
		if (f < 0)
			b->explored = true;
		return f >= 0 ? move_on(b, g) : act(ACT_WAIT);
	}
	return act(ACT_EXPLORE);
}
