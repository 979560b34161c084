/* ai_internal.h - what ai.c (the chase rule, perception, search sharing) and the minds' files (mind_*.c) share; for no other file. */
#ifndef ASTRAY_AI_INTERNAL_H
#define ASTRAY_AI_INTERNAL_H

#include "ai.h"

/*
 * A mind other than chase (enum mind_kind, bestiary.h): decides monster
 * `self`'s action into *d and returns true, or returns false to leave it
 * to the chase rule (toward mi->target_x/y while mi->hunting, else wait).
 * `sees`: it sees the player now (perception ran; mi->target is set).  It
 * runs after the flee check: a fleeing monster never gets here.  Reads
 * the game only through v; keeps its own memory in mi (post, timer and
 * the route) or in struct ai.
 */
typedef bool (*ai_mind_fn)(struct ai *ai, const struct ai_view *v, int self, struct mind *mi, bool sees,
			   struct ai_decision *d);

/* ---- ai.c's helpers for the minds ---- */

int ai_monster_cell(const struct ai_view *v, const struct monster *m);
int ai_player_cell(const struct ai_view *v);

/* The movement rule of the game: adjacent, passable, no corner cutting. */
bool ai_can_step(const struct grid *g, int from, int to);

/* How far (cells, each way) a wanderer's next goal may lie, and how many
 * cells it draws before it gives up for this turn: a goal near it keeps
 * each plan a short search, however large the level. */
#define WANDER_RANGE 12
#define WANDER_TRIES 8

/* rng_range(r, -WANDER_RANGE, WANDER_RANGE): the same draws of the stream
 * and the same value (test_ai checks), with the span known here, so its
 * two 64-bit divisions by a span known only at run time are a multiply
 * each (16 draws a wanderer's goal on a large level, two of them). */
static inline int ai_wander_draw(struct rng *r)
{
	const uint64_t span = 2 * WANDER_RANGE + 1, range = 1ULL << 53, limit = range - range % span;
	uint64_t v;
	do
		v = rng_next(r) >> 11;
	while (v >= limit);
	return -WANDER_RANGE + (int)(v % span);
}

/* Whether monster m sees the player (its sight knob, line of sight). */
bool ai_sees_player(const struct ai *ai, const struct ai_view *v, const struct monster *m);

/* Where m's route toward `goal` stands by the chase rule's schedule: it
 * must be planned now (none, left, used up, or a new sighting of another
 * goal), kept (not due yet, or a crowd detour still committed), or is due
 * by the `repath` schedule (the caller decides whether a due route is kept:
 * an exact search toward the same goal would give the same cost). */
enum ai_route_due { AI_ROUTE_PLAN, AI_ROUTE_KEEP, AI_ROUTE_DUE };
enum ai_route_due ai_route_due(const struct ai_view *v, const struct monster *m, const struct mind *mi, int goal);

/*
 * Whether a due route of a monster that searches on its own (a digger, a
 * kind with a finite penalty or a budget) is kept on a large level (more
 * than AI_SHARE_MIN x AI_SHARE_CELLS open cells; docs/ai.md, "Scale"):
 * farther than AI_NEAR_DIST from a goal that moved less than AI_STALE_DIST
 * from the one it planned toward, or the goal moved less than
 * 1/AI_FRESH_RATIO of its distance.  It heads for where the player was a
 * few turns ago and plans more often as it comes near: a bounded own
 * search (GAME.md principle 5).  Never on a smaller level, and never for a
 * crowd detour.
 */
#define AI_FRESH_RATIO 8
bool ai_route_fresh(const struct ai *ai, const struct ai_view *v, const struct monster *m, const struct mind *mi,
		    int goal);

/* The next cell of m's route toward `goal` under the chase rule's
 * planning (its knobs, crowd detours, route kept while valid), or -1 to
 * wait.  The caller that steps to it must advance mi->route_pos. */
int ai_next_step(struct ai *ai, const struct ai_view *v, const struct monster *m, struct mind *mi, int goal);

/*
 * Own searchers far from their goal on a large level (docs/ai.md,
 * "Scale"; a kind off the shared flood, a digger): farther than
 * AI_NEAR_DIST from goal on a level of more than AI_SHARE_MIN x
 * AI_SHARE_CELLS open cells.
 */
bool ai_far(const struct ai *ai, const struct ai_view *v, int here, int goal);
/* Rule 3 for one of them: when the whole shared flood serves goal (its
 * source within AI_STALE_DIST) and its walk from `here` costs at most
 * penalty + h / AI_FRESH_RATIO more than the straight distance h (every
 * route through a blocked cell costs at least h + P; penalty <= 0:
 * automatic P, always), its route is that walk, downhill toward the
 * flood's source, as a chaser's; false (nothing changed) when not. */
bool ai_far_flood(struct ai *ai, const struct ai_view *v, const struct monster_kind *k, struct mind *mi, int here,
		  int goal, double penalty);
/* Rule 4 for one of them: round the monster holding its next step and
 * back onto its own route, at its farthest free cell at most AI_REJOIN
 * steps on (a search with crowd costs and at most AI_REJOIN_BUDGET
 * expansions), committed for the detour's window; with no such way it
 * keeps its route and waits out the window.  False (nothing changed) when
 * it is not far, does not detour (crowd 0) or is off its route.
 * AI_REJOIN and AI_REJOIN_BUDGET are in ai.h. */
bool ai_far_rejoin(struct ai *ai, const struct ai_view *v, const struct monster_kind *k, struct mind *mi, int here,
		   int goal);

/* ---- crowds (crowd.c; docs/ai.md, "Crowds: priority passing") ---- */

/* Whether kind k's plans are the exact route the shared field gives. */
bool ai_crowd_shareable(const struct ai *ai, const struct monster_kind *k);

/* The flood that serves a hunter at `here` toward `goal`, settled at
 * `here`, or NULL when it must search on its own (flood_reach). */
struct flood_ctx *ai_crowd_field(struct ai *ai, const struct ai_view *v, int goal, int here);

/* Rule 4 of the chase rule: m plans a detour round the other monsters
 * (their crowd cost) toward goal, and commits to it. */
void ai_crowd_detour(struct ai *ai, const struct ai_view *v, const struct monster *m, struct mind *mi, int goal);

/* The crowd rule `pass` for a chase-mind hunter of the shared field: the
 * cell it steps to (the player's cell: attack), pushing the monsters it
 * needs to on (ai_pushed), or -1 to wait.  Sets the route as ai_next_step
 * would (the caller advances route_pos on a step). */
int ai_crowd_step(struct ai *ai, const struct ai_view *v, int self, struct mind *mi, int goal);

/* How far round the player the crowd's plan looks for a free cell beside
 * it (crowd.c, the front; docs/ai.md, "Crowds: priority passing"). */
#define AI_FRONT_RADIUS 3

/* The crowd's plan of one turn (crowd.c): buffers for a level of `cells`
 * cells and max_monsters monsters, NULL on no memory; _destroy(NULL) does
 * nothing. */
struct crowd_plan *crowd_plan_create(int cells, int max_monsters);
void crowd_plan_destroy(struct crowd_plan *p);
/* Maps the pages of the crowd's per-cell arrays and the route buffers
 * now, on a map small enough (crowd.c): not on a crowd's first turns. */
void ai_crowd_pretouch(struct ai *ai, const struct grid *grid);

/* ---- the minds (mind_*.c) ---- */

/* mind_ranged.c: keeps a band of distance with a line of sight, shoots, backs off. */
bool ai_mind_ranged(struct ai *ai, const struct ai_view *v, int self, struct mind *mi, bool sees,
		    struct ai_decision *d);
/* Its per-level buffers (struct ai's `ranged`): the player's turn map and
 * the firing-spot search; NULL on no memory.  _destroy(NULL) does nothing. */
struct ranged_map *ranged_map_create(const struct grid *g);
void ranged_map_destroy(struct ranged_map *rm);
/* A new game turn: the player's turn map is made again when next needed. */
void ranged_map_forget(struct ranged_map *rm);
/* The turns the player needs to walk to `cell` by the player's turn map
 * (made at most once a game turn, shared by the ranged and swarm minds),
 * or -1 beyond AI_PLAYER_REACH turns or with no map (no memory). */
#define AI_PLAYER_REACH 18
int ai_player_turns(struct ai *ai, const struct ai_view *v, int cell);

/* Counts a flood of a mind's own in ai->stats (searches, expanded,
 * search_us, on_search): `expanded` the cells it settled. */
void ai_count_flood(struct ai *ai, long expanded, double us);

/* Counts a search of a mind's own in ai->stats (searches, expansions,
 * time, fallbacks, budget hits), as the chase rule's are counted. */
void ai_count_search(struct ai *ai, const struct path_result *r, double us);

/* The crowd costs (path_options.extra) with `value` on every cell another
 * monster holds, as the chase rule's crowd detours use them. */
const uint16_t *ai_crowd(struct ai *ai, const struct ai_view *v, int value);

struct ai_decision ai_wait(void);
struct ai_decision ai_step(int cell);
struct ai_decision ai_attack(int cell);

/* ---- the minds (one file each) ---- */

/* mind_track.c: follows the player's scent trail (docs/ai.md, "Mind: track"). */
bool ai_mind_track(struct ai *ai, const struct ai_view *v, int self, struct mind *mi, bool sees,
		   struct ai_decision *d);

/* mind_dig.c: through walls, digging the first of its route into rubble. */
bool ai_mind_dig(struct ai *ai, const struct ai_view *v, int self, struct mind *mi, bool sees,
		 struct ai_decision *d);

/* ---- mind_field.c: small Dijkstra fields over a window of the level ---- */

/* Distances toward the nearest of some source cells over a window of the
 * level; buffers sized once, a run allocates nothing.  A run never enters
 * its walls: the `blocked` cell, and up to MIND_FIELD_WALLS - 1 more. */
#define MIND_FIELD_WALLS (GRID_MAX_NEIGHBOURS + 2)
struct mind_field_entry {
	float d;                /* distance */
	int l;                  /* window index */
};
struct mind_field {
	int x0, y0, w, h;       /* the window of the last run, in level cells */
	int cap;                /* cells the buffers hold: the largest window */
	float *dist;            /* w*h: cost to the nearest source (INFINITY: not reached) */
	int *pos;               /* w*h: slot in the queue; -1 never queued, -2 settled */
	struct mind_field_entry *heap; /* the queue of a run */
	int queued;             /* entries in the queue */
	int walls[MIND_FIELD_WALLS]; /* the cells the run never enters (-1: none) */
	int n_walls;
};

/* Buffers for windows of up to cap cells; false on no memory (then fini). */
bool mind_field_init(struct mind_field *f, int cap);
void mind_field_fini(struct mind_field *f);

/* A reverse Dijkstra (a mover's cost to reach a source, paying the terrain
 * of each cell entered) from sources[0..n) over the cells within `radius`
 * columns and rows of `centre` (radius < 0: the whole level), never
 * entering `blocked` (-1 none): mind_field_begin starts it, settling
 * nothing; mind_field_settle carries it on until `target` is settled (-1:
 * to the end) and returns the cells it settled; mind_field_run is both. */
void mind_field_begin(struct mind_field *f, const struct grid *g, int centre, int radius, const int *sources,
		      int n, int blocked);
long mind_field_settle(struct mind_field *f, const struct grid *g, int target);
/* One more cell the run begun never enters (before it settles anything);
 * false when the walls are full. */
bool mind_field_wall(struct mind_field *f, int cell);
long mind_field_run(struct mind_field *f, const struct grid *g, int centre, int radius, const int *sources,
		    int n, int blocked);
bool mind_field_settled(const struct mind_field *f, const struct grid *g, int cell);

/* The cost from `cell` to its nearest source (INFINITY: not reached or
 * outside the window; final once the cell is settled). */
float mind_field_dist(const struct mind_field *f, const struct grid *g, int cell);

/* The neighbour a mover at a settled `cell` steps to going downhill: the
 * first start of an optimal route; with `occupant`, the best neighbour no
 * monster holds that is still strictly nearer (such a neighbour is settled
 * too).  -1 at a source, unreached, or none. */
int mind_field_next(const struct mind_field *f, const struct grid *g, int cell, const int *occupant);

/* The route downhill from `from` (out[0] = from), at most cap cells;
 * returns its length. */
int mind_field_route(const struct mind_field *f, const struct grid *g, int from, int *out, int cap);

/* ---- mind_stairs.c: the player's likely way to the stairs ---- */

struct mind_stairs *mind_stairs_create(const struct grid *g);
/* Whether s holds its per-cell field yet (made at the first question). */
bool mind_stairs_ready(const struct mind_stairs *s);
void mind_stairs_destroy(struct mind_stairs *s); /* NULL does nothing */
/* A cell's cost changed (a dug wall): the field is made again when next asked. */
void mind_stairs_forget(struct mind_stairs *s);

/* The next cell of the shortest way from `cell` to the nearest stairs
 * (the field is begun at the level's first question and settled out to
 * `cell`), or -1 on the stairs or with no stairs in reach. */
int mind_stairs_next(struct ai *ai, const struct ai_view *v, int cell);

/* Whether `cell` is a narrow place: a doorway, or a cell whose open
 * neighbours round it fall into two or more runs parted by walls. */
bool mind_narrow(const struct ai_view *v, int cell);

/* ---- the minds and their shared caches (made per level in ai_level_init) ---- */

struct mind_pack *mind_pack_create(int max_monsters);
void mind_pack_destroy(struct mind_pack *p); /* NULL does nothing */
struct mind_ambush *mind_ambush_create(void);
void mind_ambush_destroy(struct mind_ambush *a); /* NULL does nothing */
/* A new game turn (ai_turn_begin): this turn's posts and lairs are made
 * again at the first mind that asks. */
void mind_pack_turn(struct mind_pack *p);
/* A cost of the grid changed (ai_cell_changed, ai_level_refresh): the
 * pack's fields, kept while the player stands, are made again. */
void mind_pack_forget(struct mind_pack *p);
void mind_ambush_turn(struct mind_ambush *a);

bool mind_pack(struct ai *ai, const struct ai_view *v, int self, struct mind *mi, bool sees,
	       struct ai_decision *d);
bool mind_ambush(struct ai *ai, const struct ai_view *v, int self, struct mind *mi, bool sees,
		 struct ai_decision *d);

/* mind_swarm.c: holds back out of reach until enough are near, then rushes (docs/ai.md, "Mind: swarm"). */
bool mind_swarm(struct ai *ai, const struct ai_view *v, int self, struct mind *mi, bool sees,
		struct ai_decision *d);
/* mind_breed.c: buds off another of its kind while unseen (docs/ai.md, "Mind: breed"). */
bool mind_breed(struct ai *ai, const struct ai_view *v, int self, struct mind *mi, bool sees,
		struct ai_decision *d);

#endif
