/*
 * sim.c - the model side of `astray sim`: scripted players that make the
 * same actions a person would (game_act, never a shortcut into the rules),
 * one game played to its end, its metrics, and the summaries and paired
 * comparisons over many games.  It never prints; cmd_sim.c parses the
 * command line and sim_write.c writes the table, CSV or JSON.
 *
 * What is timed: only the monsters' part of each game_act, which the game
 * measures itself around its monster loop (g->ai.stats.last_ai_us: every
 * monster's decision, with its perception and searches, and the moves and
 * attacks that carry it out).  The player's move,
 * the field of view and the scripted player's own decision (its A* route,
 * made before game_act) are not counted.  A call that covers k game turns
 * (a slow step on rubble) counts as k turns of equal cost.  The time inside
 * the monsters' searches alone is g->ai.stats.search_us.  --chase tells the
 * monsters where the player is through ai_mind_alert, the AI's own entry.
 */
#include "sim.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dungeon.h"
#include "game.h"
#include "gen.h"
#include "sim_bot.h"
#include "journal.h"
#include "grid.h"
#include "path.h"
#include "flood.h"
#include "rng.h"

static const char *const player_names[SIM_PLAYER_COUNT] = { "exit", "flee", "idle", "fight", "bot" };
static const char *const outcome_names[SIM_OUTCOME_COUNT] = { "escaped", "killed", "out_of_turns" };

const char *sim_player_name(enum sim_player p)
{
	return (unsigned)p < SIM_PLAYER_COUNT ? player_names[p] : "?";
}

bool sim_player_parse(const char *s, enum sim_player *out)
{
	for (int i = 0; i < SIM_PLAYER_COUNT; i++)
		if (strcmp(s, player_names[i]) == 0) {
			*out = (enum sim_player)i;
			return true;
		}
	return false;
}

const char *sim_outcome_name(enum sim_outcome o)
{
	return (unsigned)o < SIM_OUTCOME_COUNT ? outcome_names[o] : "?";
}

/* The one table of metrics: names, words, and how to read a difference. */
static const struct sim_metric_info metrics[SIM_METRIC_COUNT] = {
	[SIM_M_ESCAPED] = { "escaped", "escaped", true, false, 3,
		"the player escapes more often", "1 if the player took the exit", 0 },
	[SIM_M_KILLED] = { "killed", "killed", true, false, 3,
		"catches the player more often", "1 if the monsters killed the player", 0 },
	[SIM_M_OUT_OF_TURNS] = { "out_of_turns", "out of turns", true, false, 3,
		"runs out of turns more often", "1 if the turn limit came first", 0 },
	[SIM_M_TURNS] = { "turns", "turns", false, false, 1,
		"makes games last longer", "game turns played", 0 },
	[SIM_M_DAMAGE] = { "damage", "damage taken", false, false, 2,
		"deals more damage to the player", "hit points the player lost", 0 },
	[SIM_M_FIRST_CONTACT] = { "first_contact", "turn of first contact", false, false, 1,
		"reaches the player later",
		"turn a monster first attacked or stood next to the player (empty if never)", 0 },
	[SIM_M_KILLS] = { "kills", "monsters killed", false, false, 2,
		"loses more monsters to the player", "monsters the player killed", 0 },
	[SIM_M_SEARCHES] = { "searches", "searches", false, false, 1,
		"searches more", "A* searches the monsters ran", 0 },
	[SIM_M_EXPANDED_MEAN] = { "expanded_mean", "expansions/search mean", false, false, 1,
		"expands more nodes per search", "mean nodes expanded per search (empty if no search)", 0 },
	[SIM_M_EXPANDED_P95] = { "expanded_p95", "expansions/search p95", false, false, 1,
		"expands more nodes in its long searches",
		"95th percentile (nearest rank) of nodes expanded per search", 0 },
	[SIM_M_FALLBACKS] = { "fallbacks", "fallbacks", false, false, 2,
		"falls back more often", "searches that ended at a fallback cut point", 0 },
	[SIM_M_BUDGET_HITS] = { "budget_hits", "budget exhaustions", false, false, 2,
		"runs out of search budget more often", "searches stopped by the expansion budget", 0 },
	[SIM_M_OSCILLATIONS] = { "oscillations", "oscillations", false, false, 2,
		"dithers more (A-B-A steps)",
		"steps back onto the cell left by the previous step, same target", 0 },
	[SIM_M_STUCK] = { "stuck", "stuck actions", false, false, 1,
		"gets stuck more",
		"hunting actions no closer to the target than 8 actions before", 0 },
	[SIM_M_BLOCKED_WAITS] = { "blocked_waits", "blocked waits", false, false, 2,
		"jams more", "waits because another monster held the next cell of the route", 0 },
	[SIM_M_LONGEST_JAM] = { "longest_jam", "longest jam", false, false, 2,
		"has longer jams", "longest run of one monster's consecutive blocked waits", 0 },
	[SIM_M_DEPTH] = { "depth", "depth reached", false, false, 2,
		"gets the player deeper",
		"the level the game ended on, 1 first; with --dungeon, where the player won, died or ran out of turns", 0 },
	[SIM_M_SEARCH_US_MEAN] = { "time_search_us_mean", "us/search mean", false, true, 2,
		"takes longer per search", "mean microseconds per search", 10.0 },
	[SIM_M_SEARCH_US_P95] = { "time_search_us_p95", "us/search p95", false, true, 2,
		"has slower long searches", "95th percentile of microseconds per search", 10.0 },
	[SIM_M_SEARCH_MS_TURN] = { "time_search_ms_turn", "search ms/turn", false, true, 4,
		"spends more time searching per turn", "milliseconds of searching per game turn", 0.01 },
	[SIM_M_AI_MS_MEAN] = { "time_ai_ms_mean", "AI ms/turn mean", false, true, 4,
		"costs more per turn",
		"mean milliseconds per turn of the monsters' turns (AI, moves, attacks)", 0.01 },
	[SIM_M_AI_MS_P95] = { "time_ai_ms_p95", "AI ms/turn p95", false, true, 4,
		"has slower worst turns", "95th percentile of the monsters' milliseconds per turn", 0.01 },
	[SIM_M_XLEVEL] = { "xlevel", "experience level", false, false, 2,
		"leaves the player at a higher experience level", "the player's experience level at the end", 0 },
	[SIM_M_ITEMS_USED] = { "items_used", "items used", false, false, 2,
		"has the player use more items", "items the player quaffed, read, zapped or applied, and shots thrown or fired", 0 },
	[SIM_M_AI_CPU_MS_MEAN] = { "time_ai_cpu_ms_mean", "AI CPU ms/turn mean", false, true, 4,
		"costs more CPU per turn",
		"time_ai_ms_mean in CPU time: what a shared machine gives other programs is not counted", 0.01 },
	[SIM_M_TIMEOUTS] = { "timeouts", "timeouts", true, false, 3,
		"leaves more games unended",
		"1 if the turn limit came while the player was trying to end the game (every player but idle): "
		"a livelock or a stalemate to look into", 0 },
	[SIM_M_LOWEST_HP] = { "lowest_hp", "lowest hit points", false, false, 2,
		"leaves the player more hit points at its worst", "the player's lowest hit points during the game (0 if killed)", 0 },
	[SIM_M_AI_CPU_MS_P95] = { "time_ai_cpu_ms_p95", "AI CPU ms/turn p95", false, true, 4,
		"has slower worst turns in CPU time",
		"time_ai_ms_p95 in CPU time: the 95th percentile of the monsters' CPU milliseconds per turn", 0.01 },
};

const struct sim_metric_info *sim_metric_info(enum sim_metric m)
{
	return (unsigned)m < SIM_METRIC_COUNT ? &metrics[m] : NULL;
}

int sim_metric_find(const char *name)
{
	for (int i = 0; i < SIM_METRIC_COUNT; i++)
		if (strcmp(metrics[i].name, name) == 0)
			return i;
	return -1;
}

static const struct sim_kind_metric_info kind_metrics[SIM_KIND_METRIC_COUNT] = {
	[SIM_K_MONSTERS] = { "monsters", "monsters", "has more of them", "monsters of the kind at the start" },
	[SIM_K_CONTACTS] = { "contacts", "contacts", "reaches the player more",
		"its actions that attack the player (a blow or a shot) or end next to it" },
	[SIM_K_DAMAGE] = { "damage", "damage dealt", "deals more damage to the player",
		"hit points the player lost to it" },
	[SIM_K_DEATHS] = { "deaths", "deaths", "loses more of them", "its monsters killed" },
	[SIM_K_JAMS] = { "jams", "jams", "jams more", "its blocked waits" },
};

const struct sim_kind_metric_info *sim_kind_metric_info(enum sim_kind_metric m)
{
	return (unsigned)m < SIM_KIND_METRIC_COUNT ? &kind_metrics[m] : NULL;
}

int sim_kind_metric_find(const char *name)
{
	for (int i = 0; i < SIM_KIND_METRIC_COUNT; i++)
		if (strcmp(kind_metrics[i].name, name) == 0)
			return i;
	return -1;
}

double sim_game_value(const struct sim_game *g, int col)
{
	if (col < SIM_METRIC_COUNT)
		return g->v[col];
	int k = (col - SIM_METRIC_COUNT) / SIM_KIND_METRIC_COUNT, km = (col - SIM_METRIC_COUNT) % SIM_KIND_METRIC_COUNT;
	if (k >= SIM_KINDS || g->kinds[k][SIM_K_MONSTERS] == 0)
		return NAN;
	return (double)g->kinds[k][km];
}

uint64_t sim_game_seed(uint64_t base, int i)
{
	return base + (uint64_t)i;
}

/* A growable array of samples. */
struct samples {
	double *v;
	size_t n, cap;
	bool failed;          /* an append ran out of memory: the percentile is not given */
};

static void samples_push(struct samples *s, double x)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 1024;
		double *v = realloc(s->v, cap * sizeof *v);
		if (!v) {
			s->failed = true;
			return;
		}
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = x;
}

/* What the behaviour metrics remember of one monster between its actions. */
struct mon_track {
	int prev_cell;            /* the cell its previous step left; -1 none */
	int prev_target;          /* its target cell at that step */
	int ring[SIM_STUCK_K + 1];/* its cells after its latest hunting actions */
	int ring_n, ring_i;       /* entries held, next slot */
	int jam;                  /* consecutive blocked waits so far */
};

struct sim_runner {
	struct mon_track *track;  /* per monster of the current game */
	int track_cap;
	long oscillations, stuck, blocked_waits, longest_jam; /* this game */
	uint32_t kinds[SIM_KINDS][SIM_KIND_METRIC_COUNT]; /* this game's contacts and jams per kind */
	long damage_mark;         /* g->damage_taken when the monster of damage_kind acted */
	int damage_kind;          /* the kind of the last monster that acted, -1 none */
	int heat_kind;            /* --heat-kind: the kind whose heat is counted, -1 every kind */
	bool kind_met;            /* this game: heat_kind has made its first contact */
	struct sim_heat *heat;    /* borrowed, or NULL */
	struct samples expanded;  /* per search */
	struct samples us;        /* per search */
	struct samples turn_ms;   /* per game turn */
	struct samples turn_cpu_ms; /* per game turn, CPU time */
	double cpu_ms;            /* the monsters' CPU milliseconds of the game */
	int *route;               /* the scripted player's route */
	int route_len, route_pos, route_cap;
	int route_goal;           /* plan_exit: the exit its route reaches, -1 when it reaches none */
	int *exits;               /* exit cells of the current level */
	int n_exits;
	uint16_t *avoid;          /* extra cost per cell: the stairs, for a hunt (fight) */
	struct sim_bot *bot;      /* the bot player's state, made at its first game */
	struct rng rng;           /* the scripted player's own stream for its tie-breaks, seeded from the
	                             game's seed apart from the game's streams (sim_run_game_at) */
	struct flood_ctx *flood;  /* exit's way: a reverse flood from its exit, this level's grid; NULL none */
	bool flood_stale;         /* the player's last action was refused: flood again */
	int *fight_best;          /* fight: per monster, the cheapest route to it so far (x 1000, rounded) */
	bool *given_up;           /* fight: per monster, hunted without gaining ground (below) */
	int fight_cap;            /* slots of fight_best and given_up */
	int fight_idle;           /* fight: its decisions since it last gained ground or struck */
	int fled;                 /* flee: its decisions on this level that ran from a monster */
	int lowest_hp;            /* this game's lowest hit points of the player */
	uint64_t trace;           /* this game's trace hash so far (sim_game.trace) */
	const struct sim_record *record; /* borrowed, or NULL */
	struct journal *jnl;      /* the current game's journal (--record) */
	char jnl_err[DIAG_ERR_LEN]; /* why it failed, when it did */
	bool jnl_failed;
};

struct sim_runner *sim_runner_create(void)
{
	struct sim_runner *r = calloc(1, sizeof(struct sim_runner));
	if (r)
		r->heat_kind = -1;
	return r;
}

void sim_runner_destroy(struct sim_runner *r)
{
	if (!r)
		return;
	free(r->expanded.v);
	free(r->us.v);
	free(r->turn_ms.v);
	free(r->turn_cpu_ms.v);
	free(r->route);
	free(r->exits);
	free(r->avoid);
	free(r->track);
	free(r->fight_best);
	free(r->given_up);
	flood_destroy(r->flood);
	sim_bot_destroy(r->bot);
	free(r);
}

void sim_runner_set_heat(struct sim_runner *r, struct sim_heat *heat)
{
	r->heat = heat;
}

void sim_runner_set_heat_kind(struct sim_runner *r, int kind)
{
	r->heat_kind = kind;
}

void sim_runner_set_record(struct sim_runner *r, const struct sim_record *rec)
{
	r->record = rec;
}

const char *const sim_heat_layer_names[SIM_HEAT_COUNT + 1] = { "occupancy", "contact", "deaths", "blocked", NULL };
static const char *const heat_labels[SIM_HEAT_COUNT] = {
	"monster actions taken on the cell", "player's cell at first contact",
	"player's cell at death", "monster waits blocked by another monster",
};

const char *sim_heat_layer_name(enum sim_heat_layer l)
{
	return (unsigned)l < SIM_HEAT_COUNT ? sim_heat_layer_names[l] : "?";
}

const char *sim_heat_layer_label(enum sim_heat_layer l)
{
	return (unsigned)l < SIM_HEAT_COUNT ? heat_labels[l] : "?";
}

bool sim_heat_layer_parse(const char *s, enum sim_heat_layer *out)
{
	for (int i = 0; i < SIM_HEAT_COUNT; i++)
		if (strcmp(s, sim_heat_layer_names[i]) == 0) {
			*out = (enum sim_heat_layer)i;
			return true;
		}
	return false;
}

void sim_heat_fini(struct sim_heat *h)
{
	if (!h)
		return;
	free(h->tiles);
	for (int l = 0; l < SIM_HEAT_COUNT; l++)
		free(h->v[l]);
	memset(h, 0, sizeof *h);
}

/* Sizes an empty heat for w x h cells with these tiles. */
static bool heat_init(struct sim_heat *h, int w, int hh, int topo, const uint8_t *tiles)
{
	size_t cells = (size_t)w * (size_t)hh;
	h->tiles = malloc(cells);
	bool ok = h->tiles != NULL;
	for (int l = 0; l < SIM_HEAT_COUNT; l++) {
		h->v[l] = calloc(cells, sizeof *h->v[l]);
		ok = ok && h->v[l];
	}
	if (!ok) {
		sim_heat_fini(h);
		return false;
	}
	memcpy(h->tiles, tiles, cells);
	h->w = w;
	h->h = hh;
	h->topo = topo;
	return true;
}

bool sim_heat_add(struct sim_heat *dst, const struct sim_heat *src)
{
	if (src->w == 0)
		return true;
	if (dst->w == 0 && !heat_init(dst, src->w, src->h, src->topo, src->tiles))
		return false;
	if (dst->w != src->w || dst->h != src->h)
		return false;
	size_t cells = (size_t)src->w * (size_t)src->h;
	for (int l = 0; l < SIM_HEAT_COUNT; l++)
		for (size_t i = 0; i < cells; i++)
			dst->v[l][i] += src->v[l][i];
	return true;
}

/* ------------------------------------------------------------------ */
/* Behaviour metrics, from every monster action (game.on_monster_act)  */

/* The place of m's kind in the game's bestiary, or -1 (a constructed test game may give none). */
static int kind_of(const struct game *g, const struct monster *m)
{
	uintptr_t k = (uintptr_t)m->kind, first = (uintptr_t)g->bestiary.kinds;
	if (!m->kind || k < first || k >= first + (uintptr_t)g->bestiary.n * sizeof g->bestiary.kinds[0])
		return -1;
	return (int)((k - first) / sizeof g->bestiary.kinds[0]);
}

/* Charges the damage taken since the last monster acted to its kind. */
static void kind_damage(struct sim_runner *r, const struct game *g)
{
	if (r->damage_kind >= 0)
		r->kinds[r->damage_kind][SIM_K_DAMAGE] += (uint32_t)(g->damage_taken - r->damage_mark);
	r->damage_mark = g->damage_taken;
}

void sim_behaviour_act(void *ud, const struct game *g, int i, struct ai_decision d)
{
	struct sim_runner *r = ud;
	const struct monster *m = &g->monsters[i];
	const struct mind *mi = &m->mind;
	struct mon_track *t = &r->track[i];
	const struct grid *grid = g->grid;
	int here = grid_index(grid, m->x, m->y);
	bool hunting = mi->hunting && !mi->fleeing;
	int target = hunting ? grid_index(grid, mi->target_x, mi->target_y) : -1;
	int kind = kind_of(g, m);
	/* --heat-kind: the other kinds' actions are not counted */
	struct sim_heat *heat = r->heat_kind < 0 || kind == r->heat_kind ? r->heat : NULL;
	if (heat)
		heat->v[SIM_HEAT_OCCUPANCY][here] += 1;

	/* Per kind: the damage since the previous monster acted was its
	 * doing (only monsters hurt the player); a contact is a blow, a shot
	 * or an action that ends next to the player. */
	kind_damage(r, g);
	r->damage_kind = kind;
	int after = d.act == AI_STEP ? d.cell : here;
	int player = grid_index(grid, g->player.x, g->player.y);
	/* every topology's neighbours lie within 2 columns and rows: most
	 * actions are far from the player and skip the neighbour test */
	int dx = grid_x(grid, after) - g->player.x, dy = grid_y(grid, after) - g->player.y;
	bool near = dx >= -2 && dx <= 2 && dy >= -2 && dy <= 2 && grid_is_adjacent(grid, after, player);
	if (kind >= 0 && (d.act == AI_ATTACK || d.act == AI_SHOOT || near)) {
		r->kinds[kind][SIM_K_CONTACTS]++;
		if (heat && r->heat_kind >= 0 && !r->kind_met)
			heat->v[SIM_HEAT_CONTACT][player] += 1;
		r->kind_met |= kind == r->heat_kind;
	}

	/* Blocked wait: waiting while the next cell of its route is held by
	 * another monster (the AI keeps that route: ai.c next_step). */
	bool blocked = d.act == AI_WAIT && hunting && mi->route_len > 0 &&
		       mi->route_pos + 1 < mi->route_len && mi->route[mi->route_pos] == here &&
		       g->occupant[mi->route[mi->route_pos + 1]] >= 0 &&
		       g->occupant[mi->route[mi->route_pos + 1]] != i;
	if (blocked) {
		r->blocked_waits++;
		if (kind >= 0)
			r->kinds[kind][SIM_K_JAMS]++;
		t->jam++;
		if (t->jam > r->longest_jam)
			r->longest_jam = t->jam;
		if (heat)
			heat->v[SIM_HEAT_BLOCKED][here] += 1;
	} else {
		t->jam = 0;
	}

	/* Oscillation: a step back onto the cell its previous step left,
	 * toward the same target. */
	if (d.act == AI_STEP) {
		if (d.cell == t->prev_cell && target == t->prev_target && target >= 0)
			r->oscillations++;
		t->prev_cell = here;
		t->prev_target = target;
	}

	/* Stuck: hunting, not attacking (in melee or with a shot: an archer
	 * holding its distance is doing its job), and no closer (as the crow
	 * flies) to the current target than SIM_STUCK_K hunting actions ago.
	 * A turn of digging is work on the way, neither stuck nor a step: it
	 * is left out of the count. */
	if (!hunting || d.act == AI_ATTACK || d.act == AI_SHOOT) {
		t->ring_n = t->ring_i = 0;
		return;
	}
	if (d.act == AI_DIG)
		return;
	int now = d.act == AI_STEP ? d.cell : here;
	t->ring[t->ring_i] = now;
	t->ring_i = (t->ring_i + 1) % (SIM_STUCK_K + 1);
	if (t->ring_n < SIM_STUCK_K + 1)
		t->ring_n++;
	if (t->ring_n == SIM_STUCK_K + 1) {
		int old = t->ring[t->ring_i]; /* the oldest: K actions before now */
		if (grid_heuristic(grid, now, target) >= grid_heuristic(grid, old, target))
			r->stuck++;
	}
}

/* Fresh tracks for the n_monsters of a level (a dungeon's next level too), counts kept. */
static bool behaviour_level(struct sim_runner *r, int n_monsters)
{
	if (n_monsters > r->track_cap) {
		struct mon_track *t = realloc(r->track, (size_t)n_monsters * sizeof *t);
		if (!t)
			return false;
		r->track = t;
		r->track_cap = n_monsters;
	}
	for (int i = 0; i < n_monsters; i++)
		r->track[i] = (struct mon_track){ .prev_cell = -1, .prev_target = -1 };
	return true;
}

bool sim_behaviour_begin(struct sim_runner *r, int n_monsters)
{
	r->oscillations = r->stuck = r->blocked_waits = r->longest_jam = 0;
	memset(r->kinds, 0, sizeof r->kinds);
	r->damage_kind = -1;
	r->kind_met = false;
	r->damage_mark = 0;
	return behaviour_level(r, n_monsters);
}

void sim_kind_counts(struct sim_runner *r, const struct game *g, uint32_t out[SIM_KINDS][SIM_KIND_METRIC_COUNT])
{
	kind_damage(r, g);
	memcpy(out, r->kinds, sizeof r->kinds);
	for (int i = 0; i < g->n_monsters; i++) {
		int k = kind_of(g, &g->monsters[i]);
		if (k < 0)
			continue;
		out[k][SIM_K_MONSTERS]++;
		out[k][SIM_K_DEATHS] += !g->monsters[i].alive;
	}
}

void sim_behaviour_counts(const struct sim_runner *r, long out[4])
{
	out[0] = r->oscillations;
	out[1] = r->stuck;
	out[2] = r->blocked_waits;
	out[3] = r->longest_jam;
}

static void on_search(void *ud, long expanded, double us)
{
	struct sim_runner *r = ud;
	samples_push(&r->expanded, (double)expanded);
	samples_push(&r->us, us);
}

/* ------------------------------------------------------------------ */
/* Scripted players                                                    */

static int player_cell(const struct game *g)
{
	return grid_index(g->grid, g->player.x, g->player.y);
}

/* The direction that steps from the player's cell to the adjacent `cell`, or -1. */
static int dir_to(const struct game *g, int cell)
{
	for (int d = 0; d < GRID_DIR_COUNT; d++) {
		int nx, ny;
		if (grid_dir_step(g->grid, g->player.x, g->player.y, (enum grid_dir)d, &nx, &ny) &&
		    grid_in_bounds(g->grid, nx, ny) && grid_index(g->grid, nx, ny) == cell)
			return d;
	}
	return -1;
}

static bool store_route(struct sim_runner *r, const struct path_result *res)
{
	if (res->len > r->route_cap) {
		int *cells = realloc(r->route, (size_t)res->len * sizeof *cells);
		if (!cells)
			return false;
		r->route = cells;
		r->route_cap = res->len;
	}
	memcpy(r->route, res->cells, (size_t)res->len * sizeof *r->route);
	r->route_len = res->len;
	r->route_pos = 0;
	return true;
}

/* At most this many exits (the nearest as the crow flies) get a search each. */
#define SIM_EXIT_CANDIDATES 8

/* The A* route to the cheapest exit, kept in r->route.  False: none. */
static bool plan_exit(struct sim_runner *r, struct game *g, struct path_ctx *ctx)
{
	struct path_options opt = path_options_default();
	opt.fallback = true;
	int from = player_cell(g);
	int cand[SIM_EXIT_CANDIDATES], n_cand = 0;
	double ch[SIM_EXIT_CANDIDATES];
	for (int i = 0; i < r->n_exits; i++) {
		int e = r->exits[i], j;
		double h = grid_heuristic(g->grid, from, e);
		if (n_cand < SIM_EXIT_CANDIDATES)
			j = n_cand++;
		else if (h < ch[SIM_EXIT_CANDIDATES - 1])
			j = SIM_EXIT_CANDIDATES - 1;
		else
			continue;
		for (; j > 0 && ch[j - 1] > h; j--) {
			cand[j] = cand[j - 1];
			ch[j] = ch[j - 1];
		}
		cand[j] = e;
		ch[j] = h;
	}
	int best = -1;
	double best_cost = 0;
	bool best_reached = false;
	for (int i = 0; i < n_cand; i++) {
		struct path_result res;
		if (path_find(ctx, from, cand[i], &opt, &res) == PATH_BAD_INPUT)
			continue;
		bool better = best < 0 || (res.reached && !best_reached) ||
			      (res.reached == best_reached && res.cost < best_cost);
		if (better) {
			best = cand[i];
			best_cost = res.cost;
			best_reached = res.reached;
		}
	}
	r->route_len = 0;
	r->route_goal = best_reached ? best : -1;
	if (best < 0)
		return false;
	struct path_result res;
	path_find(ctx, from, best, &opt, &res);
	return store_route(r, &res) && r->route_len > 1;
}

static struct action act_wait(void)
{
	return (struct action){ .kind = ACT_WAIT };
}

static struct action act_move_to(const struct game *g, int cell)
{
	int d = dir_to(g, cell);
	if (d < 0)
		return act_wait();
	return (struct action){ .kind = ACT_MOVE, .dir = (enum grid_dir)d };
}

/* The old way of exit: the A* route (with the fallback, for an exit walled
 * off), kept while the player is on it.  What exit does where its flood
 * cannot reach (below). */
static struct action exit_by_route(struct sim_runner *r, struct game *g, struct path_ctx *ctx)
{
	int here = player_cell(g);
	/* Keep the route while the player is on it; plan again when pushed off. */
	if (r->route_len > 0 && r->route_pos + 1 < r->route_len && r->route[r->route_pos + 1] == here)
		r->route_pos++;
	bool on_route = r->route_len > 1 && r->route[r->route_pos] == here &&
			r->route_pos + 1 < r->route_len;
	if (!on_route && !plan_exit(r, g, ctx))
		return act_wait();
	/* A monster on the next cell is attacked by the move (bump to attack). */
	return act_move_to(g, r->route[r->route_pos + 1]);
}

/* Makes (or carries on) the reverse flood from the exit plan_exit picks,
 * until the player's cell is settled.  False: no flood reaches it. */
static bool exit_flood(struct sim_runner *r, struct game *g, struct path_ctx *ctx)
{
	int here = player_cell(g);
	if (r->flood && !r->flood_stale && flood_source(r->flood) >= 0) {
		if (!flood_settled(r->flood, here))
			flood_settle(r->flood, &here, 1);
		if (flood_settled(r->flood, here))
			return true;
	}
	r->flood_stale = false;
	if (!plan_exit(r, g, ctx) || r->route[r->route_len - 1] != r->route_goal)
		return false; /* no exit, or none reachable: the fallback route */
	if (!r->flood && !(r->flood = flood_create(g->grid)))
		return false;
	struct flood_options fo = flood_options_default();
	fo.reverse = true;
	return flood_run(r->flood, r->route_goal, &fo, &here, 1) >= 0 && flood_settled(r->flood, here);
}

/* A draw from the player's stream among n > 0 equal choices: none when n is 1. */
static int pick(struct sim_runner *r, int n)
{
	return n > 1 ? rng_range(&r->rng, 0, n - 1) : 0;
}

/*
 * exit: a shortest route to the cheapest exit, chosen step by step among
 * every shortest route: each neighbour that lies on one (downhill on the
 * reverse flood from the exit, by its full step cost) is an equal choice,
 * and the player's stream picks one.  A monster on it is attacked by the
 * move.  Where no flood reaches the player (the exit walled off), the A*
 * route with the fallback, as before.
 */
static struct action decide_exit(struct sim_runner *r, struct game *g, struct path_ctx *ctx)
{
	if (!exit_flood(r, g, ctx))
		return exit_by_route(r, g, ctx);
	int here = player_cell(g), cand[GRID_MAX_NEIGHBOURS], k = 0;
	struct grid_step nb[GRID_MAX_NEIGHBOURS];
	int n = grid_neighbours(g->grid, here, false, nb);
	double dh = flood_distance(r->flood, here), tol = 1e-9 * (dh > 1 ? dh : 1);
	for (int i = 0; i < n; i++) {
		int c = nb[i].cell;
		if (!flood_settled(r->flood, c))
			continue;
		double via = flood_distance(r->flood, c) + nb[i].step * g->grid->cost[c];
		if (fabs(via - dh) <= tol)
			cand[k++] = c;
	}
	if (k == 0) {
		/* the costs changed under the flood (a wall dug to rubble): flood
		 * again next time, the A* route this time */
		r->flood_stale = true;
		return exit_by_route(r, g, ctx);
	}
	return act_move_to(g, cand[pick(r, k)]);
}

/* Distance as the crow flies from a cell to the nearest seen monster (large if none). */
static double nearest_seen(const struct game *g, int cell, double *sum)
{
	double best = 1e18;
	*sum = 0;
	for (int i = 0; i < g->n_monsters; i++) {
		const struct monster *m = &g->monsters[i];
		if (!m->alive || !m->seen)
			continue;
		double d = grid_heuristic(g->grid, cell, grid_index(g->grid, m->x, m->y));
		*sum += d;
		if (d < best)
			best = d;
	}
	return best;
}

/* Turns of a level flee spends running before it makes for the exit
 * whatever it sees (a monster as fast as the player, seen all the way round
 * a loop, held it there until the turn limit). */
#define SIM_FLEE_PATIENCE 100

/* flee: away from what it sees; with nothing in sight, or once it has
 * run SIM_FLEE_PATIENCE turns of the level, exit's way out (a flee that
 * only waited for the monsters, or ran round a loop, never ended its game). */
static struct action decide_flee(struct sim_runner *r, struct game *g, struct path_ctx *ctx)
{
	int here = player_cell(g);
	double sum, best_sum;
	double best = nearest_seen(g, here, &best_sum);
	if (best >= 1e18 || r->fled > SIM_FLEE_PATIENCE)
		return decide_exit(r, g, ctx);
	r->fled++;
	int best_cell = here, ties = 0;
	for (int d = 0; d < GRID_DIR_COUNT; d++) {
		int nx, ny;
		if (!grid_dir_step(g->grid, g->player.x, g->player.y, (enum grid_dir)d, &nx, &ny) ||
		    !grid_in_bounds(g->grid, nx, ny))
			continue;
		int c = grid_index(g->grid, nx, ny);
		if (!game_can_step(g, here, c) || g->occupant[c] >= 0)
			continue;
		double dist = nearest_seen(g, c, &sum);
		/* Farther from the nearest; on a tie, farther from all of them;
		 * cells equal in both, one drawn at random (reservoir: each of
		 * the t equal ones kept with chance 1/t). */
		if (dist > best || (dist == best && sum > best_sum)) {
			best = dist;
			best_sum = sum;
			best_cell = c;
			ties = 1;
		} else if (ties > 0 && dist == best && sum == best_sum && rng_range(&r->rng, 1, ++ties) == 1) {
			best_cell = c;
		}
	}
	return best_cell == here ? act_wait() : act_move_to(g, best_cell);
}

/* Decisions the fight player hunts one monster without getting a cheaper
 * route to it than before, nor striking any, before it gives that one up
 * (a monster that keeps its distance, or one it cannot reach). */
#define SIM_FIGHT_PATIENCE 40

/* Fresh per-monster hunting records for a level of cap monster slots. */
static bool fight_level(struct sim_runner *r, int cap)
{
	if (cap > r->fight_cap) {
		int *best = realloc(r->fight_best, (size_t)cap * sizeof *best);
		if (best)
			r->fight_best = best;
		bool *gu = realloc(r->given_up, (size_t)cap * sizeof *gu);
		if (gu)
			r->given_up = gu;
		if (!best || !gu)
			return false;
		r->fight_cap = cap;
	}
	for (int i = 0; i < cap; i++) {
		r->fight_best[i] = INT32_MAX;
		r->given_up[i] = false;
	}
	r->fight_idle = 0;
	r->fled = 0;
	return true;
}

/* Whether fight still has a monster to hunt: alive and not given up. */
static bool fight_has_prey(const struct sim_runner *r, const struct game *g)
{
	for (int i = 0; i < g->n_monsters; i++)
		if (g->monsters[i].alive && (i >= r->fight_cap || !r->given_up[i]))
			return true;
	return false;
}

static struct action decide_fight(struct sim_runner *r, struct game *g, struct path_ctx *ctx)
{
	int here = player_cell(g), target = -1, who = -1, ties = 0;
	double best = 0;
	/* A monster next to the player is struck, hunted or not. */
	for (int i = 0; i < g->n_monsters; i++) {
		const struct monster *m = &g->monsters[i];
		int c = grid_index(g->grid, m->x, m->y);
		if (!m->alive || !grid_is_adjacent(g->grid, here, c))
			continue;
		struct action a = act_move_to(g, c);
		if (a.kind == ACT_MOVE && game_can_step(g, here, c)) {
			r->fight_idle = 0;
			return a;
		}
	}
	for (int i = 0; i < g->n_monsters; i++) {
		const struct monster *m = &g->monsters[i];
		if (!m->alive || (i < r->fight_cap && r->given_up[i]))
			continue;
		int c = grid_index(g->grid, m->x, m->y);
		double d = grid_heuristic(g->grid, here, c);
		if (target < 0 || d < best) {
			best = d;
			target = c;
			who = i;
			ties = 1;
		} else if (d == best && rng_range(&r->rng, 1, ++ties) == 1) {
			target = c; /* equally near: one drawn from the player's stream */
			who = i;
		}
	}
	if (target < 0) /* the level is cleared (or given up): leave it as exit does */
		return decide_exit(r, g, ctx);
	struct path_options opt = path_options_default();
	opt.fallback = true;
	/* Stepping onto the stairs leaves the level: the hunt goes round them
	 * unless they are the only way. */
	opt.extra = r->avoid;
	struct path_result res;
	if (path_find(ctx, here, target, &opt, &res) == PATH_BAD_INPUT || res.len < 2 ||
	    !store_route(r, &res)) {
		res.reached = false;
		res.len = 0;
	}
	/* Ground gained: a cheaper route to this monster than ever before. */
	if (who < r->fight_cap) {
		double cost = res.len >= 2 && res.reached ? res.cost * 1000.0 : (double)INT32_MAX;
		int c = cost < (double)INT32_MAX ? (int)lround(cost) : INT32_MAX;
		if (c < r->fight_best[who]) {
			r->fight_best[who] = c;
			r->fight_idle = 0;
		} else if (++r->fight_idle > SIM_FIGHT_PATIENCE) {
			r->given_up[who] = true;
			r->fight_idle = 0;
		}
	}
	if (res.len < 2)
		return act_wait();
	const int next = r->route[1];
	/* A hunt is planned afresh each turn; the way out is planned when the
	 * last monster falls, not taken from an old hunt. */
	r->route_len = r->route_pos = 0;
	return act_move_to(g, next);
}

/* Exit and flee take the stairs when they stand on them; fight once no
 * monster is left to hunt; idle stays. */
static bool takes_stairs(const struct sim_runner *r, enum sim_player p, const struct game *g)
{
	/* the bot decides for itself (sim_bot.c) */
	return p == SIM_PLAYER_EXIT || p == SIM_PLAYER_FLEE ||
	       (p == SIM_PLAYER_FIGHT && !fight_has_prey(r, g));
}

static struct action decide(struct sim_runner *r, struct game *g, struct path_ctx *ctx,
			    enum sim_player p)
{
	switch (p) {
	case SIM_PLAYER_EXIT:
		return decide_exit(r, g, ctx);
	case SIM_PLAYER_FLEE:
		return decide_flee(r, g, ctx);
	case SIM_PLAYER_FIGHT:
		return decide_fight(r, g, ctx);
	case SIM_PLAYER_BOT:
		return sim_bot_decide(r->bot, g);
	case SIM_PLAYER_IDLE:
	case SIM_PLAYER_COUNT:
		break;
	}
	return act_wait();
}

/* ------------------------------------------------------------------ */
/* One game                                                            */

static bool find_exits(struct sim_runner *r, const struct game *g)
{
	int cells = g->grid->w * g->grid->h, n = 0;
	for (int i = 0; i < cells; i++)
		n += g->tiles[i] == TILE_EXIT;
	free(r->exits);
	free(r->avoid);
	r->exits = malloc((size_t)(n ? n : 1) * sizeof *r->exits);
	r->avoid = calloc((size_t)cells, sizeof *r->avoid);
	if (!r->exits || !r->avoid)
		return false;
	r->n_exits = 0;
	for (int i = 0; i < cells; i++)
		if (g->tiles[i] == TILE_EXIT) {
			r->exits[r->n_exits++] = i;
			r->avoid[i] = UINT16_MAX;
		}
	return true;
}

static double percentile_or_nan(struct samples *s, double q)
{
	return s->failed ? NAN : stats_percentile(s->v, s->n, q);
}

/* One value folded into the trace (splitmix64's finaliser over h ^ v). */
static uint64_t trace_mix(uint64_t h, uint64_t v)
{
	uint64_t z = h ^ v;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (z ^ (z >> 31)) + 0x9e3779b97f4a7c15ULL;
}

/* Folds what the game looks like after an action into r->trace: the turn,
 * the level, the player's cell and hit points, every monster's cell and
 * hit points.  What the seed is, or where a random stream stands, is not
 * in it: two seeds that play the same game give the same trace. */
static void trace_turn(struct sim_runner *r, const struct game *g)
{
	uint64_t h = trace_mix(r->trace, (uint64_t)g->turn << 32 | (uint64_t)(uint32_t)g->depth);
	h = trace_mix(h, (uint64_t)(uint32_t)player_cell(g) << 32 | (uint64_t)(uint32_t)g->player.hp);
	for (int i = 0; i < g->n_monsters; i++) {
		const struct monster *m = &g->monsters[i];
		uint64_t cell = m->alive ? (uint64_t)(uint32_t)grid_index(g->grid, m->x, m->y) : UINT32_MAX;
		h = trace_mix(h, cell << 32 | (uint64_t)(uint32_t)m->hp);
	}
	r->trace = h;
}

static void collect(struct sim_runner *r, const struct game *g, enum sim_outcome outcome,
		    struct sim_game *out)
{
	const struct ai_stats *st = &g->ai.stats;
	double *v = out->v;
	out->outcome = outcome;
	v[SIM_M_ESCAPED] = outcome == SIM_ESCAPED;
	v[SIM_M_KILLED] = outcome == SIM_KILLED;
	v[SIM_M_OUT_OF_TURNS] = outcome == SIM_OUT_OF_TURNS;
	v[SIM_M_TURNS] = g->turn;
	v[SIM_M_DAMAGE] = (double)g->damage_taken;
	v[SIM_M_FIRST_CONTACT] = g->first_contact_turn >= 0 ? g->first_contact_turn : NAN;
	v[SIM_M_KILLS] = g->player.kills;
	v[SIM_M_SEARCHES] = (double)st->searches;
	v[SIM_M_FALLBACKS] = (double)st->fallbacks;
	v[SIM_M_BUDGET_HITS] = (double)st->budget_hits;
	v[SIM_M_OSCILLATIONS] = (double)r->oscillations;
	v[SIM_M_STUCK] = (double)r->stuck;
	v[SIM_M_BLOCKED_WAITS] = (double)r->blocked_waits;
	v[SIM_M_LONGEST_JAM] = (double)r->longest_jam;
	bool any = st->searches > 0;
	v[SIM_M_EXPANDED_MEAN] = any ? (double)st->expanded / (double)st->searches : NAN;
	v[SIM_M_SEARCH_US_MEAN] = any ? st->search_us / (double)st->searches : NAN;
	/* The hook may not have seen every search; a percentile needs them. */
	v[SIM_M_EXPANDED_P95] = r->expanded.n > 0 ? percentile_or_nan(&r->expanded, 95) : NAN;
	v[SIM_M_SEARCH_US_P95] = r->us.n > 0 ? percentile_or_nan(&r->us, 95) : NAN;
	v[SIM_M_SEARCH_MS_TURN] = g->turn > 0 ? st->search_us / 1e3 / g->turn : NAN;
	double total = 0;
	for (size_t i = 0; i < r->turn_ms.n; i++)
		total += r->turn_ms.v[i];
	v[SIM_M_AI_MS_MEAN] = r->turn_ms.n > 0 ? total / (double)r->turn_ms.n : NAN;
	v[SIM_M_AI_MS_P95] = r->turn_ms.n > 0 ? percentile_or_nan(&r->turn_ms, 95) : NAN;
	sim_kind_counts(r, g, out->kinds);
	v[SIM_M_XLEVEL] = g->player.xlevel;
	v[SIM_M_ITEMS_USED] = g->items_used;
	/* the killer's kind: g->killer is "a goblin", "an orc" */
	const char *k = g->killer;
	if (strncmp(k, "a ", 2) == 0)
		k += 2;
	else if (strncmp(k, "an ", 3) == 0)
		k += 3;
	snprintf(out->killer, sizeof out->killer, "%.31s", outcome == SIM_KILLED ? k : "");
	v[SIM_M_AI_CPU_MS_MEAN] = r->turn_ms.n > 0 ? r->cpu_ms / (double)r->turn_ms.n : NAN;
	v[SIM_M_AI_CPU_MS_P95] = r->turn_cpu_ms.n > 0 ? percentile_or_nan(&r->turn_cpu_ms, 95) : NAN;
	v[SIM_M_DEPTH] = g->depth + 1;
	v[SIM_M_LOWEST_HP] = r->lowest_hp;
	out->trace = trace_mix(r->trace, (uint64_t)outcome);
}

/*
 * --chase: every living monster that is not running away is told where the
 * player stands, as if it had just seen it, before each of the player's
 * actions.  The scale runs need every monster hunting on a map far larger
 * than any sight radius; the AI then decides as it would for a monster
 * that sees the player (route, crowding, attack), only perception is set.
 */
static void tell_monsters(struct game *g)
{
	for (int i = 0; i < g->n_monsters; i++) {
		struct monster *m = &g->monsters[i];
		if (m->alive && !m->mind.fleeing)
			ai_mind_alert(&m->mind, m->kind, g->player.x, g->player.y, g->turn);
	}
}

/*
 * Game turns the player's action a will take: a step costs 100 energy
 * times the entering cost of the cell (an attack, a wait 100), and each
 * turn gives the player 100.  The rules decide; this only predicts, so
 * that the turn limit can be kept exactly.
 */
static int turns_of(const struct game *g, const struct action *a)
{
	int cost = 100;
	if (a->kind == ACT_MOVE) {
		int nx, ny;
		if (grid_dir_step(g->grid, g->player.x, g->player.y, a->dir, &nx, &ny) &&
		    grid_in_bounds(g->grid, nx, ny)) {
			int c = grid_index(g->grid, nx, ny);
			if (g->occupant[c] < 0 && g->grid->cost[c] > 0)
				cost = 100 * g->grid->cost[c];
		}
	}
	int energy = g->player.energy - cost, k = 0;
	while (energy < 100) {
		energy += 100;
		k++;
	}
	return k;
}

/* Player actions allowed per turn of the limit before a game that makes no
 * progress (every action refused) is called out of turns. */
#define SIM_ACTIONS_PER_TURN 4

/* Journals one game_act when recording; false when the journal failed (the game stops). */
static bool record(struct sim_runner *r, const struct action *a, enum act_result res, const struct game *g)
{
	if (!r->jnl)
		return true;
	if (journal_record(r->jnl, a, res, g, r->jnl_err, sizeof r->jnl_err))
		return true;
	r->jnl_failed = true;
	return false;
}

/* The death layer: the player's cell, when the killing blow (the last
 * monster action: the monsters stop when the player dies) was of the
 * heat's kind. */
static void heat_death(struct sim_runner *r, const struct game *g)
{
	if (r->heat && (r->heat_kind < 0 || r->damage_kind == r->heat_kind))
		r->heat->v[SIM_HEAT_DEATHS][player_cell(g)] += 1;
}

/* A dungeon's next level was loaded: the scripted players' search
 * context, exits and route, and the monsters' tracks, are made anew. */
static bool next_level(struct sim_runner *r, struct game *g, struct path_ctx **ctx)
{
	*ctx = g->path; /* the game's own, made anew with the level */
	r->route_len = r->route_pos = 0;
	flood_destroy(r->flood); /* the flood belongs to the old level's grid */
	r->flood = NULL;
	return *ctx && find_exits(r, g) && behaviour_level(r, g->monster_cap) && fight_level(r, g->monster_cap);
}

static enum sim_outcome play(struct sim_runner *r, struct game *g, struct path_ctx **ctxp,
			     const struct sim_options *opt)
{
	long actions = 0, max_actions = (long)opt->max_turns * SIM_ACTIONS_PER_TURN + 16;
	while (g->turn < opt->max_turns && actions++ < max_actions) {
		if (g->over)
			return g->won ? SIM_ESCAPED : SIM_KILLED;
		if (opt->chase)
			tell_monsters(g);
		int here = player_cell(g);
		bool on_exit = g->tiles[here] == TILE_EXIT;
		struct action a;
		if (on_exit && takes_stairs(r, opt->player, g))
			a = (struct action){ .kind = ACT_DESCEND };
		else if (opt->player != SIM_PLAYER_BOT && g->player.potions > 0 &&
			 g->player.hp + POTION_HEAL <= g->player.max_hp)
			a = (struct action){ .kind = ACT_QUAFF }; /* potions go into the pack: drink when it all helps */
		else
			a = decide(r, g, *ctxp, opt->player);
		/* A slow step that would end past the limit becomes a wait, so
		 * no game plays more than max_turns turns. */
		if (a.kind == ACT_MOVE && g->turn + turns_of(g, &a) > opt->max_turns)
			a = act_wait();
		int turn0 = g->turn;
		bool contact0 = g->first_contact_turn >= 0;
		enum act_result res = game_act(g, &a);
		r->flood_stale |= res == RESULT_NOTHING; /* exit's step was refused: its way is flooded anew */
		double spent = g->ai.stats.last_ai_us / 1e3, cpu = g->ai.stats.last_ai_cpu_us / 1e3;
		if (!record(r, &a, res, g))
			return SIM_OUT_OF_TURNS;
		if (res == RESULT_NOTHING && a.kind != ACT_WAIT) {
			/* A refused action costs no time; the player waits instead. */
			struct action w = act_wait();
			res = game_act(g, &w);
			spent += g->ai.stats.last_ai_us / 1e3;
			cpu += g->ai.stats.last_ai_cpu_us / 1e3;
			if (!record(r, &w, res, g))
				return SIM_OUT_OF_TURNS;
		}
		int turns = g->turn - turn0;
		for (int k = 0; k < turns; k++) {
			samples_push(&r->turn_ms, spent / turns);
			samples_push(&r->turn_cpu_ms, cpu / turns);
		}
		r->cpu_ms += cpu;
		if (g->player.hp < r->lowest_hp)
			r->lowest_hp = g->player.hp > 0 ? g->player.hp : 0;
		trace_turn(r, g);
		if (r->heat && r->heat_kind < 0 && !contact0 && g->first_contact_turn >= 0)
			r->heat->v[SIM_HEAT_CONTACT][player_cell(g)] += 1;
		if (res == RESULT_DIED || g->player.hp <= 0) {
			heat_death(r, g);
			return SIM_KILLED;
		}
		if (res == RESULT_NEW_LEVEL && g->n_levels > 1) {
			if (!next_level(r, g, ctxp))
				return SIM_OUT_OF_TURNS;
			continue;
		}
		if (res == RESULT_WON || res == RESULT_NEW_LEVEL)
			return SIM_ESCAPED;
		/* Standing on the stairs and told to descend is leaving the level,
		 * whatever the rules answer for a single-level campaign. */
		if (a.kind == ACT_DESCEND && on_exit)
			return SIM_ESCAPED;
		if (g->over) {
			if (!g->won)
				heat_death(r, g);
			return g->won ? SIM_ESCAPED : SIM_KILLED;
		}
	}
	return SIM_OUT_OF_TURNS;
}

void sim_gen_name(const struct sim_gen *gen, int game, uint64_t seed, char *buf, size_t size)
{
	enum grid_topology t = gen->topos[(unsigned)game % (unsigned)gen->n_topos];
	int w = gen->w, h = gen->h;
	if (w <= 0 || h <= 0)
		gen_default_size(t, &w, &h);
	snprintf(buf, size, "gen:%s:%dx%d:d%d:%" PRIu64, grid_topology_name(t), w, h, gen->depth, seed);
}

bool sim_gen_make(const struct sim_gen *gen, const struct bestiary *b, int game, uint64_t seed,
		  struct gen_result *out, char *err, size_t errlen)
{
	struct gen_params p = {
		.topo = gen->topos[(unsigned)game % (unsigned)gen->n_topos],
		.w = gen->w, .h = gen->h, .depth = gen->depth, .seed = seed,
		.style = GEN_STYLE_MIXED, .bestiary = b,
	};
	if (p.w <= 0 || p.h <= 0)
		gen_default_size(p.topo, &p.w, &p.h);
	return gen_level(&p, out, err, errlen);
}

void sim_record_name(const struct sim_level *src, const char *side, int game, uint64_t seed, char *buf,
		     size_t size)
{
	char level[160];
	if (src->gen) {
		/* gen:hex:30x12:d1:SEED: the name without its seed, ':' made '-'. */
		sim_gen_name(src->gen, game, seed, level, sizeof level);
		char *last = strrchr(level, ':');
		if (last)
			*last = '\0';
	} else {
		const char *base = strrchr(src->file, '/');
		base = base ? base + 1 : src->file;
		snprintf(level, sizeof level, "%s", base);
		char *dot = strrchr(level, '.');
		if (dot && dot != level)
			*dot = '\0';
	}
	for (char *c = level; *c; c++)
		if (*c == ':' || *c == '/' || (unsigned char)*c < 0x20)
			*c = '-';
	snprintf(buf, size, "%s%s%s-%" PRIu64 ".jnl", level, side ? "-" : "", side ? side : "", seed);
}

/* A dungeon's journal: every level's text as the dungeon plays it, as
 * play --dungeon journals it, so astray replay shows the whole run. */
static bool record_dungeon(struct sim_runner *r, const char *path, const struct dungeon *dg, uint64_t seed,
			   const struct game *g)
{
	const struct sim_record *rec = r->record;
	struct journal_level *jl = calloc((size_t)dg->n, sizeof *jl);
	bool ok = jl != NULL;
	for (int i = 0; ok && i < dg->n; i++) {
		size_t len = 0;
		char *t = dungeon_played_text(dg->texts[i], &len);
		jl[i] = (struct journal_level){ .name = "dungeon", .text = t, .len = len };
		ok = t != NULL;
	}
	if (ok) {
		struct journal_setup setup = {
			.program = rec->program, .seed = seed,
			.bestiary_name = rec->bestiary_name, .bestiary_text = rec->bestiary_text,
			.bestiary_len = rec->bestiary_len, .sets = rec->sets, .n_sets = rec->n_sets,
			.levels = jl, .n_levels = dg->n,
		};
		r->jnl = journal_create(path, &setup, g, r->jnl_err, sizeof r->jnl_err);
	} else {
		snprintf(r->jnl_err, sizeof r->jnl_err, "%.400s: out of memory", path);
	}
	for (int i = 0; jl && i < dg->n; i++)
		free((char *)jl[i].text);
	free(jl);
	return r->jnl != NULL;
}

/* Creates the game's journal (r->record set); false with the reason in r->jnl_err. */
static bool record_begin(struct sim_runner *r, const struct sim_level *src, int game, uint64_t seed,
			 const struct gen_result *gres, const struct dungeon *dg, const struct game *g)
{
	const struct sim_record *rec = r->record;
	char name[256], path[4096], gname[160];
	sim_record_name(src, rec->side, game, seed, name, sizeof name);
	snprintf(path, sizeof path, "%s/%s", rec->dir, name);
	if (rec->force)
		remove(path); /* --force: the journal of this name is written anew (none there: nothing to do) */
	struct journal_level jl = { .name = src->file };
	if (src->dungeon > 0)
		return record_dungeon(r, path, dg, seed, g);
	if (src->gen) {
		sim_gen_name(src->gen, game, seed, gname, sizeof gname);
		jl.name = gname;
		jl.text = gres->text;
		jl.len = gres->len;
	} else if (src->fixed) {
		jl.text = src->fixed_text;
		jl.len = src->fixed_len;
	} else {
		jl.text = src->map_text;
		jl.len = src->map_len;
		jl.movingai = true;
		jl.monsters = src->map_monsters;
		jl.glyph = src->map_glyph;
		jl.place_seed = seed;
	}
	if (!jl.text) {
		snprintf(r->jnl_err, sizeof r->jnl_err, "%.400s: the level's text is not available to record", path);
		return false;
	}
	struct journal_setup setup = {
		.program = rec->program, .seed = seed,
		.bestiary_name = rec->bestiary_name, .bestiary_text = rec->bestiary_text,
		.bestiary_len = rec->bestiary_len, .sets = rec->sets, .n_sets = rec->n_sets,
		.levels = &jl, .n_levels = 1,
	};
	r->jnl = journal_create(path, &setup, g, r->jnl_err, sizeof r->jnl_err);
	return r->jnl != NULL;
}

/* Ends the game's journal with a checksum of the final state; false when anything failed. */
static bool record_end(struct sim_runner *r, const struct game *g)
{
	if (!r->jnl)
		return !r->jnl_failed;
	char err[DIAG_ERR_LEN];
	bool ok = !r->jnl_failed && journal_append_checksum(r->jnl, g, r->jnl_err, sizeof r->jnl_err);
	if (!journal_close(r->jnl, err, sizeof err) && ok) {
		snprintf(r->jnl_err, sizeof r->jnl_err, "%s", err);
		ok = false;
	}
	r->jnl = NULL;
	return ok;
}

int sim_run_game(struct sim_runner *r, const struct sim_level *src, const struct bestiary *b,
		 uint64_t seed, const struct sim_options *opt, struct sim_game *out,
		 struct diag_list *diags)
{
	return sim_run_game_at(r, src, b, 0, seed, opt, out, diags);
}

int sim_run_game_at(struct sim_runner *r, const struct sim_level *src, const struct bestiary *b, int game,
		    uint64_t seed, const struct sim_options *opt, struct sim_game *out, struct diag_list *diags)
{
	struct level *made = NULL;
	struct gen_result gres = { 0 };
	struct dungeon dg = { 0 };
	const struct level *lv = src->fixed;
	const struct level *const *levels = &lv;
	int n_levels = 1;
	if (src->dungeon > 0) {
		/* the game's seed makes its dungeon, as play --dungeon --seed does */
		char err[DIAG_ERR_LEN];
		if (!dungeon_create(seed, src->dungeon, b, &dg, err, sizeof err)) {
			diag_add(diags, DIAG_ERROR, src->file, 0, 0, "%s", err);
			return -1;
		}
		levels = (const struct level *const *)dg.levels;
		n_levels = dg.n;
	} else if (src->gen) {
		char err[DIAG_ERR_LEN];
		if (!sim_gen_make(src->gen, b, game, seed, &gres, err, sizeof err)) {
			char name[128];
			sim_gen_name(src->gen, game, seed, name, sizeof name);
			diag_add(diags, DIAG_ERROR, name, 0, 0, "%s", err);
			return -1;
		}
		lv = gres.level;
	} else if (!lv) {
		made = level_from_movingai(src->file, src->map_text, src->map_len, seed,
					   src->map_monsters, src->map_glyph, diags);
		if (!made)
			return -1;
		lv = made;
	}
	struct game *g = game_create(levels, n_levels, b, seed);
	/* The scripted player plans on the game's search context: its routes
	 * are copied out (store_route) and the monsters' searches between two
	 * of its turns start afresh, as travel's do; a context of its own cost
	 * 17 bytes a cell of address space (issue 33). */
	struct path_ctx *ctx = g ? g->path : NULL;
	int rc = -1;
	if (!g || !ctx || !find_exits(r, g) || !sim_behaviour_begin(r, g->monster_cap))
		goto done;
	if (opt->player == SIM_PLAYER_BOT && !r->bot && !(r->bot = sim_bot_create()))
		goto done;
	if (r->bot)
		sim_bot_begin(r->bot);
	if (r->heat && r->heat->w == 0 &&
	    !heat_init(r->heat, g->grid->w, g->grid->h, (int)g->grid->topo, g->tiles))
		goto done;
	if (r->heat && (r->heat->w != g->grid->w || r->heat->h != g->grid->h))
		goto done;
	g->on_monster_act = sim_behaviour_act;
	g->on_monster_act_ud = r;
	r->expanded.n = r->us.n = r->turn_ms.n = r->turn_cpu_ms.n = 0;
	r->cpu_ms = 0;
	r->expanded.failed = r->us.failed = r->turn_ms.failed = r->turn_cpu_ms.failed = false;
	r->route_len = r->route_pos = 0;
	flood_destroy(r->flood);
	r->flood = NULL;
	r->flood_stale = false;
	rng_seed(&r->rng, seed ^ 0x706c61796572ULL); /* "player": apart from the game's streams */
	r->lowest_hp = g->player.hp;
	r->trace = 0;
	if (!fight_level(r, g->monster_cap))
		goto done;
	g->ai.stats.on_search = on_search;
	g->ai.stats.ud = r;

	memset(out, 0, sizeof *out);
	out->seed = seed;
	out->index = game;
	out->monsters = g->n_monsters;
	r->jnl_failed = false;
	if (r->record && !record_begin(r, src, game, seed, &gres, &dg, g)) {
		diag_add(diags, DIAG_ERROR, r->record->dir, 0, 0, "--record: %s%s", r->jnl_err,
			 r->record->force ? "" : " (--force replaces the journals a folder already holds)");
		goto done;
	}
	enum sim_outcome outcome = play(r, g, &ctx, opt);
	if (r->record && !record_end(r, g)) {
		diag_add(diags, DIAG_ERROR, r->record->dir, 0, 0, "--record: %s", r->jnl_err);
		goto done;
	}
	collect(r, g, outcome, out);
	out->v[SIM_M_TIMEOUTS] = outcome == SIM_OUT_OF_TURNS && opt->player != SIM_PLAYER_IDLE;
	rc = 0;
done:
	game_destroy(g);
	level_destroy(made);
	gen_result_free(&gres);
	dungeon_fini(&dg);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Settings, summaries, comparisons                                    */

bool sim_apply_settings(struct bestiary *b, const char *list, char *err, size_t errlen)
{
	const char *p = list;
	char one[256];
	for (;;) {
		while (*p == ' ' || *p == ',' || *p == '\t')
			p++;
		if (!*p)
			return true;
		size_t n = strcspn(p, " ,\t");
		if (n >= sizeof one) {
			snprintf(err, errlen, "setting too long: %.40s...", p);
			return false;
		}
		memcpy(one, p, n);
		one[n] = '\0';
		if (!bestiary_set(b, one, err, errlen))
			return false;
		p += n;
	}
}

static int cmp_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
	return (a > b) - (a < b);
}

/* Distinct values among k[0..n): sorts k. */
static int count_distinct(uint64_t *k, int n)
{
	qsort(k, (size_t)n, sizeof *k, cmp_u64);
	int d = 0;
	for (int i = 0; i < n; i++)
		d += i == 0 || k[i] != k[i - 1];
	return d;
}

int sim_distinct(const struct sim_game *games, int n, int col)
{
	uint64_t *k = malloc((size_t)(n > 0 ? n : 1) * sizeof *k);
	if (!k)
		return -1;
	int m = 0;
	for (int i = 0; i < n; i++)
		if (col < 0 || !isnan(sim_game_value(&games[i], col)))
			k[m++] = games[i].trace;
	int d = count_distinct(k, m);
	free(k);
	return d;
}

int sim_distinct_pairs(const struct sim_game *a, const struct sim_game *b, int n, int col)
{
	uint64_t *k = malloc((size_t)(n > 0 ? n : 1) * sizeof *k);
	if (!k)
		return -1;
	int m = 0;
	for (int i = 0; i < n; i++)
		if (col < 0 || (!isnan(sim_game_value(&a[i], col)) && !isnan(sim_game_value(&b[i], col))))
			k[m++] = a[i].trace * 0x9e3779b97f4a7c15ULL ^ b[i].trace; /* the pair as one key */
	int d = count_distinct(k, m);
	free(k);
	return d;
}

int sim_summarize(const struct sim_game *games, int n, enum sim_metric m,
		  struct stats_summary *out)
{
	return sim_summarize_col(games, n, (int)m, out);
}

int sim_summarize_col(const struct sim_game *games, int n, int col, struct stats_summary *out)
{
	double *v = malloc((size_t)(n > 0 ? n : 1) * sizeof *v);
	if (!v)
		return -1;
	for (int i = 0; i < n; i++)
		v[i] = sim_game_value(&games[i], col);
	/* Every metric that is not a rate is a count, a turn or a time: never
	 * negative, so its interval must not go below 0 either. */
	bool rate = col < SIM_METRIC_COUNT && metrics[col].rate;
	int used = rate ? stats_rate_ci(v, (size_t)n, out) : stats_nonneg_ci(v, (size_t)n, out);
	free(v);
	int d = sim_distinct(games, n, col);
	if (d < 0)
		return -1;
	stats_effective_n(out, d, rate, true);
	return used;
}

int sim_compare_metric(const struct sim_game *a, const struct sim_game *b, int n,
		       enum sim_metric m, struct sim_paired *out)
{
	return sim_compare_col(a, b, n, (int)m, out);
}

int sim_compare_col(const struct sim_game *a, const struct sim_game *b, int n, int col,
		    struct sim_paired *out)
{
	size_t sz = (size_t)(n > 0 ? n : 1);
	double *va = malloc(sz * sizeof *va), *vb = malloc(sz * sizeof *vb);
	int rc = -1;
	if (va && vb) {
		for (int i = 0; i < n; i++) {
			va[i] = sim_game_value(&a[i], col);
			vb[i] = sim_game_value(&b[i], col);
		}
		rc = stats_paired(va, vb, (size_t)n, &out->diff, &out->a, &out->b);
		out->n = out->diff.n;
		out->distinct = sim_distinct_pairs(a, b, n, col);
		if (out->distinct < 0)
			rc = -1;
		else
			stats_effective_n(&out->diff, out->distinct, false, false);
		out->sign = stats_interval_sign(out->diff.lo, out->diff.hi);
	}
	free(va);
	free(vb);
	return rc;
}

int sim_utf8_seq(const unsigned char *p)
{
	unsigned c = p[0];
	if (c < 0x80)
		return 1;
	int n;
	unsigned cp, min;
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		cp = c & 0x1f;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		cp = c & 0x0f;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		cp = c & 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
	for (int i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0; /* also stops at the NUL of a cut sequence */
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}
