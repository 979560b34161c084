/* ai.h - monster minds: what a monster remembers, the AI's own state, and the decision of one monster turn. */
#ifndef ASTRAY_AI_H
#define ASTRAY_AI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "bestiary.h"
#include "flood.h"
#include "grid.h"
#include "path.h"
#include "rng.h"

struct mind_stairs;
struct mind_pack;
struct mind_ambush;

/*
 * The AI decides and the rules act: ai_decide reads the game through a
 * read-only struct ai_view and returns a struct ai_decision (wait, step to
 * a cell, attack the player); game.c carries it out (the move, the door,
 * the attack, the messages) and charges the energy.  The AI writes only
 * its own state: the acting monster's struct mind and the struct ai the
 * game embeds.  It never includes game.h.
 */

struct ranged_map; /* mind_ranged.c */

/*
 * A monster's mind: what the AI remembers between turns.  The fields
 * every turn reads of every monster come first, with the body's before
 * them in struct monster (its first 64 bytes: one cache line where the
 * array is aligned so, game.c); the rest after.  The state table
 * (game_state.c) names each field, so their order here is not the
 * order they are saved or hashed in.
 */
struct mind {
	/* read each turn (the turn loop, the flood count, the view) */
	bool hunting;           /* has a target */
	bool fleeing;
	bool asleep;            /* sees nothing until a noise or the player next to it wakes it */
	bool tracking;          /* track mind: following the player's scent trail */
	bool saw_player;        /* it saw the player at its last decision */
	bool sighted;           /* this decision sees the player and the last did not: plan at once */
	bool route_stuck;       /* the route ends short of route_goal (cut point, no route): wait there until the next repath */
	int wander;             /* the cell an idle wanderer walks to; -1 none */
	int target_x, target_y; /* where it last saw the player (or where it is fleeing from) */
	int route_pos, route_len;
	int next_repath;        /* turn at which the route is recomputed */
	int *route;             /* cells of the current route, route[0] = its cell when planned (in struct ai's route_cells) */
	/* read when it plans or hunts */
	int route_cap;
	int route_goal;         /* the target cell the route was planned toward */
	int commit_until;       /* a detour around other monsters is kept until this turn */
	int memory_left;        /* turns left before it gives up on an unseen target */
	int last_seen_turn;     /* game turn it last saw the player */
	/* for the minds other than chase (docs/ai.md, "Minds"); in the state table */
	int post;               /* a cell the mind holds to (a pack member's side, an ambush, a firing spot); -1 none */
	int timer;              /* turns of what the mind is doing (digging, waiting, reloading); 0 none */
	int pressed;            /* ranged mind: back-offs in a row, to patience + 1 (it stands); 0 none */
	/* sleep, wandering, noise and scent (docs/ai.md, "Noise, sleep and wandering"); in the state table */
	int trail;              /* track mind: the newest scent stamp (game turn) it has followed or seen; -1 none */
	/* crowds, rules crowd pass (crowd.c; docs/ai.md, "Crowds: priority passing"); in the state table */
	int waited;             /* its actions in a row that found no free step nearer its target: its priority */
};

/*
 * A monster: the body, which only the rules (game.c) change, and the mind,
 * which only the AI changes.  Declared here because the AI reads every
 * monster's body and mind (to count the hunters that share a flood), and
 * game.h includes this header, not the other way round.  The fields each
 * turn reads first (struct mind); hp, read by a hit and a heal, last.
 */
struct monster {
	const struct monster_kind *kind; /* points into the game's own bestiary copy */
	int x, y;
	int energy;             /* acts when energy >= 100 */
	bool alive;
	bool seen;              /* in the player's view this turn */
	bool was_seen;          /* in the player's view after the player's previous action */
	struct mind mind;
	int hp;
};

/* Counters for `astray sim` (nothing reads time for decisions). */
struct ai_stats {
	long searches;          /* A* searches, crowd replans on the flood, floods and their resumptions */
	long expanded;          /* total expansions (a flood's: the cells it settled) */
	long fallbacks;         /* searches that ended at a cut point */
	long budget_hits;       /* searches that ran out of budget */
	double search_us;       /* total microseconds in searches */
	/* optional per-search hook for distributions (p95); NULL = none */
	void (*on_search)(void *ud, long expanded, double us);
	void *ud;
	long floods;            /* shared reverse floods (also counted in searches) */
	double ai_us;           /* total microseconds of monster turns (decisions and their moves; game.c measures) */
	double last_ai_us;      /* microseconds of monster turns in the latest game_act */
	double ai_cpu_us;       /* the same in this process's CPU time (clock_cpu_us): what a shared machine gives others is not counted */
	double last_ai_cpu_us;
};

/* How hunters share search work (ai.c; docs/ai.md).  AUTO floods once from
 * the player when enough monsters need a route this turn; the other two
 * force one method, so tests can check both choose equally good moves. */
enum ai_share { AI_SHARE_AUTO, AI_SHARE_NEVER, AI_SHARE_ALWAYS };
#define AI_SHARE_MIN 4      /* AUTO floods when at least this many hunters are due */
#define AI_SHARE_CELLS 8192 /* ... and at least one per this many passable cells (a flood may settle them all) */
/* Large levels, a goal that moves (ai.c, docs/ai.md): the whole flood is
 * kept while the goal stays nearer its source than AI_STALE_DIST, and a
 * flood out to AI_NEAR_DIST around the goal serves the monsters there
 * (cost units: a plain step costs 1). */
#define AI_STALE_DIST 32.0
#define AI_NEAR_DIST 48.0
#define AI_ROUTE_MAX 128    /* cells of a route a monster keeps (it replans when they run out) */
#define AI_CROWD_COMMIT 8   /* turns a monster keeps a detour it took around other monsters */
#define AI_REJOIN 8           /* large levels: a far own searcher goes round a blocker back onto its route this many cells on */
#define AI_REJOIN_BUDGET 1024 /* ... in a search of at most this many expansions (ai_far_rejoin) */
#define AI_FAR_PLAN 256.0    /* large levels: a monster's own search toward a goal farther than this ... */
#define AI_FAR_WEIGHT 1.5    /* ... is a weighted A* of at least this weight ... */
#define AI_FAR_BUDGET 65536L /* ... and at most this many expansions (ai.c, far_plan; rules 9) */
/* On a large level a wanderer with no goal draws its next one only on the
 * game turns when the turn plus its monster number is a multiple of this,
 * and waits on the others (ai.c, idle; rules 9): on the 4096x4096 bench
 * level 22,800 bats drew and planned their first goals all on turn 1,
 * 100 ms of the first key; an eighth of them now do on each of the first
 * eight turns, and one that reaches its goal rests up to seven turns.
 * Its way there is a straight walk, no search (ai.c, wander_walk; rules
 * 10). */
#define AI_WANDER_EVERY 8
#define AI_PUSH_MAX 64      /* monsters one action may push ahead of it (crowd.c) */

/*
 * The AI's state in a game (struct game embeds one).  The policy and the
 * counters last the whole game; the buffers are made per level by
 * ai_level_init and freed by ai_level_fini.
 */
struct ai {
	/* the whole game */
	enum ai_share share;    /* AI_SHARE_AUTO unless a test or a tuner forces a method */
	bool all_hunt;          /* every monster knows where the player is, sight or not (the "chasing" scale runs) */
	struct ai_stats stats;

	/* the current level */
	struct path_ctx *path;  /* borrowed: the level's one search context, shared with the player's travel */
	struct flood_ctx *flood;/* context of the shared reverse flood toward the goal (flood.h) */
	uint16_t *crowd;        /* w*h: the crowd cost of cells held by monsters (path_options.extra) */
	int *region;            /* w*h: connected region of each passable cell (level_grid_regions), -1 blocked;
	                           kept up to date as walls are dug (ai_cell_changed): equal labels, same region */
	int regions;            /* labels region[] may use are below this */
	bool region_later;      /* region[] not labelled yet: a large level's, labelled by its first reader
	                           (ai_regions) or for a person (ai_prefault) */
	uint8_t *solid;         /* w*h: 1 for a blocked cell no one can dig (the map's edge, '%', void):
	                           a digger's fallback may not cross it (path_options.solid); fixed per level */
	int *route_cells;       /* max_monsters * AI_ROUTE_MAX: the monsters' route buffers */
	int crowd_value;        /* the crowd knob crowd[] is filled with now */
	int flood_goal;         /* cell the current flood was made from; -1 none */
	struct flood_ctx *near; /* large levels: the flood around a goal that moved (ai.c), or NULL */
	int near_goal;          /* cell the near flood was made from; -1 none */
	int due;                /* shareable hunters due to replan this turn (ai_turn_begin) */
	/* ai_turn_open .. ai_turn_close's count, scratch of one pass */
	int count_pc, count_other, count_due_pc, count_due_other, count_need;
	bool counting;
	int goal;               /* the goal those hunters share (the player's cell, or a cell they remember); -1 none */
	int share_need;         /* hunters due before AUTO floods on this level (ai_level_init) */
	struct ranged_map *ranged; /* the ranged mind's player turn map and spot search (mind_ranged.c); a cache */
	/* the pack and ambush minds' shared maps (mind_*.c): pure caches, made
	 * again on demand, so none is in the state table */
	struct mind_stairs *stairs; /* distances to the nearest stairs, made once per level */
	struct mind_pack *pack;     /* this turn's posts of the pack around the player */
	struct mind_ambush *ambush; /* this turn's chokepoint and its lairs */
	/* the swarm mind's count (mind_swarm.c): a pure cache of this turn */
	int swarm_turn;             /* the game turn `swarm` was counted on; -1 none */
	struct swarm_count {
		int near;           /* members hunting within their gather + 2 turns of the player */
		int alive;          /* members alive on the level, asleep or not */
		int done;           /* members near the player that rush out of patience */
	} swarm;
	/* crowds (crowd.c): scratch of one decision and this turn's wants, no state */
	int max_monsters;           /* monsters the level keeps room for */
	int *push_who, *push_to;    /* AI_PUSH_MAX: the monsters the acting one pushes this action, and where */
	int push_n;
	unsigned *tried;            /* max_monsters: the decision a monster was last asked to make room in */
	unsigned decision;          /* counts the crowd rule's decisions, for tried[] */
	uint16_t *want;             /* w*h: hunters that wanted each cell on turn want_turn[] (congestion) */
	int *want_turn;             /* 0 at first (with want 0: none, whatever the turn) */
	struct crowd_plan *cplan;   /* this turn's plan of the crowd (crowd.c), a cache of one turn */
	int plan_cell;              /* the cell the acting monster's plan returned this action, -1 none (the planner rule) */
};

/*
 * What the AI may read of the game, all through const: the rules change
 * it between two decisions (a move, an opened door), never during one.
 */
struct ai_view {
	const struct grid *grid;        /* entering costs; doors passable */
	const uint8_t *opaque;          /* w*h: 1 where sight is blocked */
	const int *occupant;            /* w*h: index into monsters[] or -1 */
	const struct monster *monsters; /* n_monsters bodies and minds */
	int n_monsters;
	int player_x, player_y;
	int turn;                       /* the game turn */
	const uint8_t *tiles;           /* w*h enum tile (level.h): walls, doors, stairs as the level stands now */
	const int *scent;               /* w*h: the game turn the player last stood on each cell; -1 never (water keeps none) */
	struct rng *rng;                /* the game's random numbers: drawn only for a choice at random (a wanderer's goal) */
	int crowd_rule;                 /* enum crowd_rule (bestiary.h): the rules' crowd key */
};

/* What a monster does with one action.  The rules charge it: a step 100
 * times the entering cost of the cell, an attack or a wait 100. */
enum ai_act {
	AI_WAIT,
	AI_STEP,                /* enter `cell`: adjacent, legal and free (a closed door opens) */
	AI_ATTACK,              /* hit the player, who stands at `cell`, adjacent */
	AI_SHOOT,               /* shoot at `cell` (the player's) along the line of sight: the shot stops at a wall or the first monster */
	AI_DIG,                 /* dig at `cell`, an adjacent wall that is not permanent: a turn of work toward rubble;
	                           the work is done when the mind's timer reaches the kind's dig_turns */
	AI_BREED                /* bud off another monster of its kind onto `cell`, adjacent and free (breed mind);
	                           the rules refuse it past the kind's breed_max (then it is a wait) */
};

/* What the rules say about a decision, when the player can see (or hear)
 * it: the tell of a mind's tactic (GAME.md principle 2).  Monsters cannot
 * print; game.c words it. */
enum ai_tell {
	AI_TELL_NONE,
	AI_TELL_PACK_SPREAD,    /* a pack member takes its post on a side of the player ("The jackals spread out.") */
	AI_TELL_AMBUSH_SPRING,  /* an ambusher leaves the lair it waited in ("A spider drops from its lair!") */
	AI_TELL_SWARM_HOLD,     /* a swarm member starts holding back, too few near ("The ants hang back, gathering.") */
	AI_TELL_SWARM_RUSH,     /* a holding swarm member rushes with the others ("The ants swarm in!") */
	AI_TELL_RANGED_STAND    /* a pressed archer stands ("The kobold stands its ground!") */
};

struct ai_decision {
	enum ai_act act;
	int cell;               /* AI_STEP: the cell entered; AI_ATTACK: the player's cell; AI_DIG: the wall; AI_WAIT: -1 */
	enum ai_tell tell;      /* AI_TELL_NONE unless a mind has something to show */
};

/* A new game's AI: automatic sharing, no counts, no level yet. */
void ai_init(struct ai *ai);

/*
 * Makes the buffers of a level on `grid` (which must outlive them) for up
 * to max_monsters monsters; `tiles` (w*h enum tile, level.h) says which
 * blocked cells can be dug (tile_diggable); `path` is the level's search
 * context, borrowed.  False on no memory (ai_level_fini then frees what
 * was made).
 */
bool ai_level_init(struct ai *ai, const struct grid *grid, const uint8_t *tiles, struct path_ctx *path,
		   int max_monsters);

/*
 * The rules changed the entering cost of `cell` in the grid: a dug wall
 * became rubble (the only change play makes; doors are passable in the
 * grid).  Every map the AI keeps of the grid follows: the region labels
 * (joined where the cell joins them, without allocating) and the shared
 * floods, which assume fixed costs (dropped; the next plan floods anew).
 */
void ai_cell_changed(struct ai *ai, const struct grid *grid, int cell);

/*
 * The grid's costs were put back from a saved state (game_state_load):
 * the floods are dropped before the state's own flood is rebuilt, and
 * the region labels made again from them when `passable_changed` (a
 * cell opened or closed since they were made: else they still hold).
 * False on no memory.
 */
bool ai_level_refresh(struct ai *ai, const struct grid *grid, bool passable_changed);

/*
 * Touches now, keeping their values, the level's maps that every
 * monster's first plan writes a little of: the route buffers and the
 * crowd map (on a 4096x4096 level 66 MB, whose first touches were about
 * half the first key's 230-330 ms).  Only for a person (game_prefault).
 */
void ai_prefault(struct ai *ai, const struct grid *grid);

/*
 * region[], labelled now if it was left for later.  On a large level
 * (large_level: the shared flood's) ai_level_init leaves the labels to
 * their first reader, a monster that plans near the player: a resume or
 * a replay whose actions read none skips a pass over the level (on
 * 4096x4096 about 100 ms and 64 MiB of first touches).  The labels are
 * those of the grid as it is then, the regions the labels kept up to date
 * since the level began would give (ai_cell_changed: play never closes a
 * cell), and only their equality is read.
 */
const int *ai_regions(struct ai *ai, const struct grid *grid);

/* Frees the level's buffers; the policy and the counters stay. */
void ai_level_fini(struct ai *ai);

/* Gives monster number `index` of the level its route buffer. */
void ai_mind_init(struct ai *ai, struct mind *mind, int index);

/* Forgets the route (the buffer stays with struct ai). */
void ai_mind_fini(struct mind *mind);

/* The monster of kind k learns that the player stands at (x, y) on `turn`,
 * as if it had just seen it: it hunts toward that cell. */
void ai_mind_alert(struct mind *mind, const struct monster_kind *k, int x, int y, int turn);

/* The monster of kind k hears a noise made at (x, y) on `turn` (the rules'
 * noise flood reached its cell): it wakes, and unless it saw the player at
 * its last decision or is running away, a restless one (a wanderer or a
 * tracker) or one just woken goes to look at that cell, as if it
 * remembered the player there.  A monster already awake that waits in its
 * place (wander 0, not a tracker) only wakes: today's kinds stay deaf. */
void ai_mind_hear(struct mind *mind, const struct monster_kind *k, int x, int y, int turn);

/* Once per game turn before any monster acts: counts the hunters that may
 * share a flood this turn (the choice depends on counts, never on time). */
void ai_turn_begin(struct ai *ai, const struct ai_view *v);

/* The same in three parts, for a turn loop that passes over the monsters
 * anyway (game.c gives them their energy in it): ai_turn_open, then
 * ai_turn_count for each monster in order, then ai_turn_close; no other
 * AI call between them.  One pass over 67,000 monsters fewer a turn on
 * a 4096x4096 level. */
void ai_turn_open(struct ai *ai, const struct ai_view *v);
static inline void ai_turn_count(struct ai *ai, const struct ai_view *v, int self);
void ai_turn_close(struct ai *ai);
/* ai_turn_count's part for a monster its inline test does not pass by */
void ai_turn_count_near(struct ai *ai, const struct ai_view *v, int self);


/*
 * One action of monster v->monsters[self] (alive, with energy to act):
 * perceive, update its mind (`mind`, which is v->monsters[self].mind),
 * and choose.  The caller must carry the decision out before the next
 * decision: a step the mind has already counted as taken.
 */
struct ai_decision ai_decide(struct ai *ai, const struct ai_view *v, int self, struct mind *mind);

/*
 * Whether monster `self` (alive, with energy to act) would wait at each
 * of its actions this turn, its decision one that changes nothing but
 * its perception (a sleeper not next to the player; an awake chaser
 * that hunts nothing, does not wander or waits for its turn to draw a
 * goal, and has the player outside its sight's box): then its mind is
 * left as ai_decide would leave it and true is returned, and the caller
 * carries out the waits without asking ai_decide.  False: ask it.  Most
 * of a 4096x4096 level's 67,000 monsters each turn; no effect on play.
 */
static inline bool ai_idles(struct ai *ai, const struct ai_view *v, int self, struct mind *mind);

/* The same decision, written to *d (the turn loop's call).  A decision
 * returned in registers was built on the stack and read back whole, a
 * load that no store could forward (two stores of 4 bytes, one load of
 * 8): it waited for every store before it to reach the cache, the moves
 * of the monsters before too (the occupant and crowd cells they left
 * and entered, misses on a 4096x4096 level), about a third of
 * ai_decide's CPU time there. */
void ai_decide_to(struct ai *ai, const struct ai_view *v, int self, struct mind *mind, struct ai_decision *d);

/*
 * The crowd rule `pass` (crowd.c): the acting monster's step may enter a
 * cell another monster holds when the AI pushes that one on.  Where the
 * AI pushed monster `index` in the decision just made (its own step,
 * which the rules carry out first and charge to its energy; onto the
 * pusher's cell it is a swap), or -1 when it was not pushed.
 */
int ai_pushed(const struct ai *ai, int index);

/* The planner rule: the cell the acting monster's plan returned in the
 * decision just made (a step must enter it), or -1 when none did. */
static inline int ai_planned(const struct ai *ai)
{
	return ai->plan_cell;
}

/* The rules moved a monster off `cell` (held = false) or onto it (held =
 * true): keeps the crowd costs in step with the occupants. */
static inline void ai_cell_held(struct ai *ai, int cell, bool held)
{
	ai->crowd[cell] = held ? (uint16_t)ai->crowd_value : 0;
}


/* ---- inline: what the turn loop asks of every monster -------------------- */

/* Whether the level is large: more than AI_SHARE_MIN x AI_SHARE_CELLS open
 * cells (ai_level_init), where floods are kept while the goal moves and the
 * scale rules apply (docs/ai.md, "Scale"). */
static inline bool ai_large_level(const struct ai *ai)
{
	return ai->share_need > AI_SHARE_MIN;
}

/* Whether a wanderer with no goal, monster number `self`, waits on game
 * turn `turn` without drawing one (a large level's rule, idle in ai.c):
 * then its decision reads no map row and no route, and the turn loop asks
 * no memory for it (game.c, run_monsters' prefetches). */
static inline bool ai_wander_waits(const struct ai *ai, int turn, int self)
{
	return ai_large_level(ai) && ((long)turn + (long)self) % AI_WANDER_EVERY != 0;
}

/* Whether the player stands in the box of m's sight (fov_line_of_sight's
 * own first test): outside it, m does not see the player. */
static inline bool ai_sight_box(const struct ai_view *v, const struct monster *m)
{
	int r = m->kind->sight;
	if (r <= 0)
		return false;
	const int rows = grid_is_diamond(v->grid->topo) ? 2 * r : r;
	return abs(v->player_x - m->x) <= r + 1 && abs(v->player_y - m->y) <= rows;
}

static inline void ai_turn_count(struct ai *ai, const struct ai_view *v, int self)
{
	/* a monster that may share no flood (shared_goal in ai.c: dead,
	 * fleeing, asleep, or hunting nothing and not seeing the player)
	 * counts for nothing: most of them, without a call */
	const struct monster *m = &v->monsters[self];
	if (!ai->counting || !m->alive || m->mind.fleeing ||
	    (!ai->all_hunt && (m->mind.asleep || (!m->mind.hunting && !ai_sight_box(v, m)))))
		return;
	ai_turn_count_near(ai, v, self);
}

static inline bool ai_idles(struct ai *ai, const struct ai_view *v, int self, struct mind *mi)
{
	const struct monster *m = &v->monsters[self];
	const struct monster_kind *k = m->kind;
	if (ai->all_hunt)
		return false;
	if (mi->asleep) {
		/* perceive: asleep and not woken, it sees nothing; decide waits */
		if (grid_step_distance_xy(v->grid, m->x, m->y, v->player_x, v->player_y) <= 1)
			return false;
		mi->sighted = mi->saw_player = false;
	} else {
		/* perceive sees nothing (outside the box) and hunted nothing;
		 * not fleeing (neither sees nor hunts); the chase mind (no mind
		 * of its own) leaves it to idle, which waits: not a wanderer,
		 * or one with no goal whose turn to draw one this is not (the
		 * same at its second action of the turn) */
		if (mi->hunting || k->behaviour != MIND_CHASE || ai_sight_box(v, m) ||
		    (k->wander && !(mi->wander < 0 && ai_wander_waits(ai, v->turn, self))))
			return false;
		mi->sighted = mi->saw_player = false;
		mi->fleeing = false;
	}
	ai->plan_cell = -1;
	ai->push_n = 0;
	return true;
}

#endif
