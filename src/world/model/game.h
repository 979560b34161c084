/* game.h - the rules and state of a game: turns, energy, combat, items, messages, RNG; monsters act on the AI's decisions. */
#ifndef ASTRAY_GAME_H
#define ASTRAY_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ai.h"
#include "bestiary.h"
#include "cellmark.h"
#include "grid.h"
#include "level.h"
#include "noise.h"
#include "path.h"
#include "rng.h"

/* What the player asks for: the UI and the scripted sim players make these;
 * the game never sees keys or escape codes. */
enum action_kind {
	ACT_NONE,
	ACT_MOVE,         /* dir: step, bump-attack, open a door (grid_dir_step gives the cell) */
	ACT_WAIT,         /* pass one turn */
	ACT_TRAVEL,       /* x, y: start travel there through the fallback (a click, or Enter on the cursor) */
	ACT_TRAVEL_STEP,  /* take the next step of the current travel */
	ACT_DESCEND,      /* take the stairs when standing on an exit (only this descends) */
	ACT_REST,         /* rest until healed or disturbed (continued by ACT_TRAVEL_STEP) */
	ACT_QUAFF,        /* drink a potion of healing from the pack (a shortcut for scripted players) */
	ACT_EXPLORE,      /* autoexplore (continued by ACT_TRAVEL_STEP) */
	ACT_RUN,          /* dir: run straight until something is worth a stop (continued by ACT_TRAVEL_STEP) */
	/* items (game_items.c); appended here, after every older kind, so old journals keep their meaning */
	ACT_PICKUP,       /* pick up the item the player stands on */
	ACT_USE,          /* x: pack slot; quaff, read, zap (in dir), apply, wield or wear, by the item's class */
	ACT_THROW,        /* x: pack slot, dir: throw one of it that way (ammunition, by hand) */
	ACT_FIRE,         /* x, y: the target cell; the wielded launcher fires its ammunition from the pack */
	ACT_WIELD,        /* x: pack slot of a weapon, -1 bare hands */
	ACT_WEAR,         /* x: pack slot of armour, -1 take it off */
	ACT_DROP,         /* x: pack slot */
	ACT_CLOSE,        /* dir: close the open door that way */
	/* appended after the items, as they were */
	ACT_STOP,         /* stop travel, rest, autoexplore or a run (the player pressed a key during
	                     it); no time passes.  An action, so that a journal replays the stop */
	/* appended after the stop, as it was */
	ACT_THROW_AT      /* x, y: the target cell, item: the pack slot; one piece of that
	                     ammunition thrown by hand at the cell, as a shot flies */
};

struct action {
	enum action_kind kind;
	enum grid_dir dir;
	int x, y;         /* cell for ACT_TRAVEL (already clamped by the caller or clamped here) */
	int item;         /* ACT_THROW_AT: the pack slot thrown (the other kinds keep theirs in x) */
};

/* What happened when the player acted. */
enum act_result {
	RESULT_NOTHING,   /* no time passed (bumped a wall, a direction with no meaning here...) */
	RESULT_ACTED,     /* time passed */
	RESULT_NEW_LEVEL, /* the player went down the stairs: a new level is loaded */
	RESULT_WON,       /* left the last level */
	RESULT_DIED
};

/* Why travel stopped (for the message and the tests). */
enum travel_stop {
	TRAVEL_NONE,      /* still travelling, or never started */
	TRAVEL_ARRIVED,   /* reached the target or the cut point */
	TRAVEL_MONSTER,   /* a monster came into view, came closer, or the next step would be next to one */
	TRAVEL_HURT,      /* the player was hurt */
	TRAVEL_BLOCKED,   /* the next step was blocked (a monster stands there...) */
	TRAVEL_INTERRUPTED,/* the player pressed a key (the UI calls game_travel_cancel) */
	TRAVEL_STAIRS,    /* stepped onto stairs that were not the destination */
	TRAVEL_ITEM,      /* a run or autoexplore stepped onto an item */
	TRAVEL_DONE,      /* rested to full health, or nothing left to explore */
	TRAVEL_HEARD      /* the player heard a monster it does not see (digging, a door, an arrival) */
};

/* What a travel-like activity is doing; every one advances by ACT_TRAVEL_STEP
 * and stops for the same reasons (travel_stop above). */
enum travel_mode {
	MODE_TRAVEL,      /* to a cell, over the player's map memory */
	MODE_REST,        /* waiting until healed */
	MODE_EXPLORE,     /* to the nearest unexplored place or remembered item */
	MODE_RUN          /* straight on in one direction */
};

/*
 * The rules version.  Every journal and snapshot records it, and a save or
 * journal of another version is refused with both versions named and kept
 * as it is (docs/journal.md).  Any change that alters play or a journal's
 * checksums bumps it (shared/GAME.md, principle 4).  1: every game before
 * the version was recorded; 2: the state table (game_state.c) hashes every
 * field of the state; 3: the hunt (monster minds, noise, sleep, wandering,
 * scent, digging and shots; docs/ai.md); 4: the second wave: the walls of
 * what is seen are seen (fov_wall_seen); growth by experience, to-hit and
 * damage rolls from their own stream, wandering arrivals that grow with the
 * time a level is held, monsters that heal, rest stopped by what is heard
 * (docs/play.md); items (levels/items.txt); the swarm and breed minds;
 * 5: crowds pass (the rules' crowd key: hunters of the shared field push
 * the crowd ahead of them; docs/ai.md, "Crowds: priority passing"); and the per-cell maps hashed by blocks
 * (game_state.c), so a checksum costs what changed, not the whole level;
 * 6: on large levels, own searchers far from their goal walk the shared
 * flood and go round a blocker back onto their route, and the other minds
 * sidestep and queue before a crowd detour (docs/ai.md, "Scale");
 * and the crowd's plan of a turn (crowd.c: the hunters of the shared field
 * take their steps in order of priority, the longest waiting first) and a
 * wait count that a detour search no longer starts again; and square4
 * searches by jump points (path.c), which may pick another of equally
 * short routes than plain A*;
 * 7: the occupant map is left out of the hash and the snapshot (it is the
 * monsters' places, which both keep), so a checksum no longer reads it
 * whole when many monsters move; a click on a known wall or into a region
 * the known walls seal gets the fallback's exact answer on every level,
 * not the travel budget's partial one (game_travel.c, plan_known); and the
 * crowd's front (crowd.c: with some cells beside the player free and
 * others held, the hunters near it head for the free ones round those
 * that attack) and no step back onto the cell a hunter's last step left
 * while its goal stays (docs/ai.md, "Crowds: priority passing"); and
 * hex and diamond levels of at least 4,096 passable cells whose walls make
 * few forced turns, with next to no terrain, search by jump points
 * (path.c's chooser, docs/core.md), which among equally short routes may
 * pick another than plain A*'s;
 * 8: the crowd's front first (crowd.c: the hunters the front reaches are
 * planned before the others, so a file pulled on from behind no longer
 * takes the way round from one that waits beside the attackers); and the
 * crowd costs out of the hash and the snapshot (the crowd knob on the
 * monsters' cells, made again when a state loads, as the occupant map is);
 * 9: each monster hashed on its own, its fields in four lanes, then mixed
 * into the state's hash (game_state.c's monster_hash: a checksum of 67,000
 * monsters no longer waits on one chain of multiplications); and far plans:
 * on large levels a monster's own search toward a goal over
 * 256 cells away is a weighted A* (weight 1.5 at least) of at most 65,536
 * expansions (ai.c, far_plan; docs/ai.md, "Far plans"), where an exact one
 * across a 4096x4096 level took 150 ms of one key; and there a wanderer
 * with no goal draws its next one on one turn in eight, by its monster
 * number (ai.h, AI_WANDER_EVERY), not all of them on turn 1;
 * 10: on large levels a wanderer walks straight toward its goal, no
 * search (each step to the neighbour nearest the goal while that comes
 * nearer; ai.c, wander_walk), its goal drawn among passable cells
 * whatever their region, and one whose next cell another monster
 * holds gives up that goal and waits, where it searched a detour: the
 * 22,500 bats of the 4096x4096 bench level searched 3,500 times a key,
 * over half of an ordinary key's CPU time (docs/ai.md, "Noise, sleep and
 * wandering");
 * 11: far clicks on large levels: a goal the player can reach whose
 * shortest route the travel budget cannot find is walked by a route of
 * weighted A* over the player's memory (weights 1.15, then 1.5, each within
 * the budget), where travel walked the budget's partial route and stopped
 * with "You cannot reach that spot"; and when even that runs out, travel
 * plans again where the partial route ends (game_travel.c, FAR_WEIGHTS;
 * struct travel's `partial`, a new field of the state); and a goal out of
 * reach whose fallback search runs out of budget (it settles the player's
 * whole region first) walks to a cut point through the fewest walls,
 * found from the goal's side (game_travel.c, deep_target), the cost
 * among such points kept only roughly; past that search's 65,536 cells
 * (a goal deep in thick rock) the budget's partial route is walked and
 * planned again where it ends, until a plan gets no closer;
 * 12: a click's plan searches the player's whole region of the map
 * memory when it holds at most 262,144 cells (TRAVEL_WHOLE_REGION: the
 * budget is 65,536 expansions plus the region's size), so every goal
 * in it gets its shortest route, where a far one on a mapped 512x512
 * maze got rules 11's weighted or partial route, walked in parts
 * into dead ends (game_travel.c, travel_budget); a click two or more
 * walls from the player's region (deep in rock, in a pocket the known
 * walls seal) gets the fallback's own answer, the fewest walls and then
 * the least cost, when path.c's fallback_deep finds it within the budget
 * (its tie rule among equal routes is A*'s; past 250 walls it does not
 * try, nor does the layered search), where rules 11 walked to a
 * cut point found from the goal's side whose cost was kept only roughly;
 * and where the budget does not hold it, a goal on open floor in such a
 * pocket walks to that cut point as a goal in rock does, where rules 11
 * walked the budget's partial route (deep_target lost such a goal before
 * its first layer);
 * 13: a far click the player can reach, whose shortest route the budget
 * does not find, goes through the dead-end trees of the map memory when
 * they hold a sixteenth of its open cells or more (a maze; prune.h): a
 * tree's route is the only one, the cells between the trees (the core)
 * are searched within the budget, as chains between their junctions when
 * they are mostly corridor (a maze with loops), and the route is the
 * shortest, where a far click on a mapped maze larger than
 * TRAVEL_WHOLE_REGION got rules 11's partial routes, walked in parts into
 * dead ends; a core too large even so gets the far weights on the core,
 * then a partial route that ends on the core, never in a dead end
 * (game_travel.c, plan_trees);
 * 14: a swarm never holds in vain: a member rushes at once when fewer
 * members of any swarm kind are alive on the level than its kind's
 * `swarm` (the last three of five ants held for ever, backing off faster
 * than the player walks: no fight, no exploring or resting with them in
 * view, and 9 of 200 of the bot's games ran out of turns), and one that
 * has held near the player for its kind's `patience` of its own actions
 * (a new bestiary key, default 20) rushes with whoever is there until it
 * loses sight of the player, every member near the player with it
 * (mind_swarm.c, rule 4);
 * 15: an archer does not back off for ever: driven back by the player
 * for its kind's `patience` of its actions in a row (the swarm's key,
 * default 20), it stands its ground while the player presses it, biting
 * beside the player ("The kobold stands its ground!"); on square4 a
 * player walking at a kobold never cornered it in a room, and it shot
 * again as soon as the player stopped (mind_ranged.c; the mind's new
 * field `pressed` is in the state); and the bestiary's `arrival` 5, not 4,
 * so that the bot's contract stays in its band (docs/sim.md);
 * 16: ammunition wears out: a stone or arrow, fired or thrown, that hits
 * a monster breaks with its kind's `break` percent (a new item key,
 * default 0: never), drawn from the combat stream after the damage roll
 * ("The stone hits the goblin and breaks (3 damage, ...)."); a launcher
 * was a free ranged attack in every fight (docs/sim.md).
 * 17: square4 searches by jump points only where they are sparse (corner
 * share below 0.2, as on square8): plain square4 A* in the whole-step
 * ring beat JPS on random512-like maps, and there the game's searches
 * now run plain, which picks another of the routes of equal cost.
 * 18: a far click on a level whose regions a plan does not search whole
 * (larger than 512x512) gets two more weights, 2 and then 3, when 1.5
 * runs out of budget (game_travel.c's FAR_WEIGHTS): on 4096x4096 room levels such
 * clicks were walked in parts, up to a quarter of them on square4; the
 * smaller levels of the campaign and the dungeons play as before.
 * 19: the jump point searches pass a cell through instead of queueing it,
 * square8's diagonal jumps, square4's vertical ones and hex's and
 * diamond's spawning ones (path.c's jps_through, jps_turned.c's
 * jump_spawning; the rule of JPS2): the same costs with about half the
 * jump points, but among routes of equal cost a monster's search may pick
 * another (docs/core.md, "Diagonal cells passed through").
 * 20: on a map of 4,096 passable cells or more whose jump points are
 * sparse, the searches still run plain A* where A* goes nearly straight
 * (path.c's near_straight: open maps of scattered pillars or small
 * blocks, where the jumps took up to 2.2x A*'s time), and diamond8 jumps
 * whatever its turn share (its jump search beat its plain A* on every
 * dense map measured); either picks another of the routes of equal cost.
 * The campaign's and the dungeon's levels are smaller and play as before
 * (docs/core.md, "Where plain A* goes straight").
 */
#define GAME_RULES 20

#define GAME_MESSAGES 200   /* messages kept in the history */
#define GAME_MESSAGE_LEN 160
#define GAME_SHOT_MAX 64     /* samples of a shot's line the rules trace (the `range` knob is at most 16) */

/* One message; a message equal to the newest one is merged into it
 * (count goes up) instead of added, so "There is a wall in the way." ten
 * times reads once, "(x10)" added by whoever shows it. */
struct message {
	int turn;             /* turn of its last occurrence */
	int count;            /* occurrences merged into it (>= 1) */
	unsigned stamp;       /* g->message_stamp when it was added or last merged */
	char text[GAME_MESSAGE_LEN];
};

struct player {
	int x, y;
	int hp, max_hp;
	int damage;           /* melee damage per hit */
	int energy;
	int gold;
	int kills;
	int potions_drunk;
	int potions;          /* potions of healing in the pack (kept by the pack's code: scripted players read it) */
	int regen;            /* turns spent below max_hp since the last point regained */
	int xp;               /* experience points from kills (growth) */
	int xlevel;           /* experience level, 1 at the start */
	int hit_bonus;        /* percent points added to the chance to hit, from equipment (items) */
	int damage_bonus;     /* added to each hit's damage roll, from equipment (items) */
	int armour;           /* percent points taken from monsters' chance to hit the player, from equipment (items) */
};

#define PACK_SLOTS 16         /* the pack's letters a-p */
#define ITEM_LOOKS 12         /* appearances a class of unknown items draws from */

/* One slot of the pack; a slot keeps its letter while it holds something. */
struct pack_slot {
	int kind;             /* index into g->bestiary.items, -1 empty */
	int qty;              /* how many (potions, scrolls, ammunition stack); a wand's charges left */
};

struct travel {
	bool active;
	enum travel_mode mode;
	int goal_x, goal_y;   /* where the player clicked (clamped) */
	int *cells;           /* route to walk, cells[0] = start; NULL until the first route */
	int len, pos, cap;    /* cap: the longest route (the level's cells) */
	int room;             /* cells[] allocated, grown to the longest route so far (not state) */
	bool partial;         /* the route ends where a far goal's plan ran out of budget: planned
	                         again from there, until a plan gets no closer (rules 11;
	                         game_travel.c, FAR_WEIGHTS) */
	enum travel_stop stopped;
	unsigned known_version; /* g->known_version the route was planned on */
	enum grid_dir dir;    /* MODE_RUN: the direction */
	int sides;            /* MODE_RUN: which side cells were open where the run stands */
};

#define PLAYER_HP 30
#define PLAYER_DAMAGE 4
#define PLAYER_SIGHT 8
#define POTION_HEAL 12        /* the healing of the built-in catalogue's potion of healing (levels/items.txt) */
#define PLAYER_REGEN_TURNS 10 /* below max_hp the player regains 1 hp every this many turns */
#define TRAVEL_BUDGET 65536L  /* expansions a travel plan or preview may take (a frame on any map) */
#define TRAVEL_WHOLE_REGION 262144L /* a player's region of known[] this small is searched whole by a
                                      plan: its size is added to TRAVEL_BUDGET (rules 12, game_travel.c) */
#define REACH_COST 64         /* the player's distance map covers cells this near (travel cost over known[]) */
#define DIG_HEARD 16          /* the player hears digging it does not see this many steps away or nearer */

/* The player's distance map: a flood over known[] from the player's cell,
 * out to REACH_COST, made by the first preview or plan after the player
 * moved or learnt something, and reused by every later one
 * (game_travel.c).  It is made on a window of known[] around the player,
 * REACH_COST steps each way (the flood never leaves it), with a context
 * the size of the window: a few hundred KB, where a context of the whole
 * level is 17 bytes a cell (283 MB on 4096x4096). */
struct reach {
	struct grid *win;     /* the window: known[]'s cells round the player, blocked past the level's edges */
	int x0, y0;           /* the level's cell at the window's (0, 0) (y0 even: rows keep their parity) */
	struct path_ctx *ctx; /* the window's search context, made with it by the first preview or plan */
	int source;           /* player cell it was flooded from; -1 none */
	unsigned version;     /* g->known_version it was flooded on */
	long settled;         /* cells settled by the flood */
	int cells[REACH_COST + 2]; /* the last route read from it (a step costs at least 1) */
	long expanded;        /* the last plan's search expansions (0: the distance map answered); for benches */
	double weight;        /* the last plan's heuristic weight: 1, the shortest route over known[];
	                         above 1, a far goal's route by weighted A* (rules 11), at most that
	                         many times as dear as the shortest */
	long whole_region;    /* TRAVEL_WHOLE_REGION; the tests set less to try on small levels what
	                         play does on levels whose regions are larger */
	bool out_of_reach;    /* the last plan's goal is one the player cannot reach, its walk planned
	                         from the goal's side (rules 11; game_travel.c, deep_target) */
	struct region *labels;/* the regions of known[] (region.h), for the click fallback; made at the
	                         first plan, kept up to date cell by cell as known[] changes */
	unsigned labels_version; /* the known_version they describe ... */
	bool labels_ok;       /* ... if set; otherwise (a restore, known[] written at once) they are
	                         labelled anew at the next plan.  Speed only: no answer depends on them */
	uint32_t *open_squares; /* the open cells of known[] in each square of 64 x 64 cells, for
	                         a click deep in rock (game_travel.c, deep_nearest): counted at the
	                         first such click, kept up to date cell by cell as known[] changes */
	unsigned open_squares_version; /* the known_version they describe ... */
	bool open_squares_ok; /* ... if set; otherwise counted anew.  Speed only, as the labels */
	uint64_t *deep_seen;  /* a bit a cell, all clear between clicks: the cells a click deep in
	                         rock has seen (game_travel.c, deep_target), made at the first */
	struct prune *trees;  /* the dead-end trees of known[] (prune.h), for far clicks in a large
	                         region (rules 13; game_travel.c, known_trees); NULL: none kept */
	unsigned trees_version; /* the known_version they were peeled on ... */
	bool trees_ok;        /* ... if set (trees NULL and set: known[] had too few to keep) */
	struct trees_job *job;/* the trees of known[] being peeled in a thread of their own, started
	                         when the map is learnt (game_trees_start) or, while they are
	                         followed, after a turn that changed it (game_trees_follow); NULL none */
	struct trees_job *stopping; /* an older thread told to stop (known[] changed), not yet ended */
	struct side *side;    /* a click's side search (game_travel.c): its context, made at the first
	                         click that uses it; its thread runs only within a click */
	bool side_off;        /* plan on the key's thread alone (the same answers): set at a level's
	                         start on a machine of one core, and by the tests and benches that
	                         compare */
	long side_rungs;      /* the last plan's rungs run to their end by the side search */
	struct trees_job *ahead; /* the trees and labels of known[] as a map of the level would leave
	                         it, made in a thread when the level began (game_trees_ahead); taken
	                         when a map learnt makes known[] so, else dropped; NULL none */
	bool trees_follow;    /* the last peeling kept trees: a turn that changes known[] starts the
	                         next in a thread, so the next far click finds them made */
	uint8_t *shadow[2];   /* n each: known[] as of shadow_version[i], which a thread reads (the
	                         level's known[] changes under it); two, so that a new thread need
	                         not wait for a stopping one; NULL until needed */
	unsigned shadow_version[2];
	bool shadow_ok[2];    /* shadow[i] holds known[] as of shadow_version[i] */
	int *log;             /* the cells of known[] changed at versions log_base + 1 ... (one each,
	                         game_known_changed) ... */
	unsigned log_base;
	int log_len;          /* ... TREES_LOG at most */
	bool log_lost;        /* ... more than that: the next thread copies known[] whole */
};
/* The per-cell maps whose writes are marked (struct game's marks[]). */
enum game_map {
	MAP_TILES,
	MAP_HAZARD,
	MAP_OPEN,
	MAP_ITEMS,
	MAP_ITEM_QTY,
	MAP_VISIBLE,
	MAP_REMEMBERED,
	MAP_KNOWN,
	MAP_OPAQUE,
	MAP_OCCUPANT,
	MAP_SCENT,
	GAME_MAPS
};

struct game {
	/* campaign: borrowed levels, played in order */
	const struct level *const *levels;
	int n_levels;
	int depth;              /* index of the current level */
	struct bestiary bestiary; /* the game's own copy (after --set overrides) */

	/* the current level, as play changes it */
	struct grid *grid;      /* entering costs (doors passable) */
	uint8_t *tiles;         /* w*h enum tile, doors opened in place (TILE_FLOOR after opening? see open[]) */
	uint8_t *open;          /* w*h: 1 where a door stands open */
	uint8_t *items;         /* w*h: 0 none, else 1 + the kind's index in bestiary.items (one item a cell) */
	uint8_t *item_qty;      /* w*h: how many lie there (ammunition, gold), a wand's charges */
	uint8_t *hazard;        /* w*h: extra entering cost laid there (caltrops), added to the tile's */
	uint8_t *visible;       /* w*h: seen this turn */
	uint8_t *remembered;    /* w*h: seen at some time */
	uint8_t *known;         /* w*h: the player's map memory as entering costs: the true cost where
	                           remembered, 1 (open floor) where never seen; travel plans over it */
	unsigned known_version; /* counts changes of known[] */
	int *monster_dist;      /* n_monsters: each one's distance from the player before it last acted */
	uint8_t *noticed;       /* n_monsters: 1 once the player has seen it (travel stops for news only) */
	uint8_t *opaque;        /* w*h: 1 where sight is blocked (walls, void, closed doors) */
	int *occupant;          /* w*h: index into monsters[] or -1 */
	struct monster *monsters; /* n_monsters (struct monster: ai.h); dead ones stay, alive = false */
	int n_monsters;
	int monster_cap;        /* slots of monsters[], monster_dist[], noticed[] and the AI's per-monster
	                           buffers: the level's monsters and room for what breeders may add
	                           (breed_max of each breeding kind present) and for rules.arrival_max
	                           wandering arrivals; n_monsters grows up to it */
	struct path_ctx *path;  /* one search context for the level, reused */
	struct reach reach;     /* the player's distance map (travel previews) */
	int *scent;             /* w*h: the game turn the player last stood on each cell, -1 never; water keeps
	                           none (stamped once a game turn: the track mind's trail, docs/ai.md) */
	struct noise *noise;    /* the noise flood's buffers (noise.h) */
	int noise_cell;         /* the cell of the last noise made on this level, -1 none */
	int noise_turn;         /* the game turn it was made */
	int noise_loud;         /* its loudness (steps it carried) */

	struct player player;
	struct pack_slot pack[PACK_SLOTS];
	int wielded, worn;      /* pack slots of the weapon and the armour in use, -1 none */
	uint8_t identified[ITEMS_MAX]; /* 1: the player knows the kind (used one, or never unknown) */
	uint8_t looks[ITEMS_MAX];      /* each unknown kind's appearance (index into its class's words), per game */
	int items_used;         /* items quaffed, read, zapped, applied, thrown or fired (sim's CSV) */
	struct travel travel;
	int turn;
	uint64_t seed;
	struct rng rng;
	struct rng combat;      /* to-hit and damage rolls (seeded from the seed, apart from rng) */
	struct rng arrive;      /* wandering arrivals: when, where, which kind */
	int level_turn;         /* g->turn when the current level was entered (arrivals grow with the time since) */
	int arrivals;           /* wandering monsters that arrived on the current level (monsters[] after the level's own) */
	bool over, won;
	int sight_radius;       /* the player's */

	struct message messages[GAME_MESSAGES]; /* ring buffer */
	int n_messages;         /* total ever added (merges not counted); newest at (n_messages - 1) % GAME_MESSAGES */
	unsigned message_stamp; /* counts additions and merges: a UI shows what is newer than its mark */
	char killer[48];        /* what killed the player ("a goblin"), "" while alive */

	const char *heard;      /* during one game_act: what the player heard ("digging", "a door open"...)
	                           that stops an activity, NULL nothing; cleared by act() and
	                           game_activity_check, so never kept between actions (not in the state table) */

	int last_hurt_turn;
	int first_contact_turn; /* turn a monster first hit or was adjacent; -1 none */
	long damage_taken;
	int level_serial;       /* counts level loads */

	/* The AI's own state (ai.h): sharing policy (ai.share), the "all
	 * hunt" switch, the search counters (ai.stats), floods, crowd costs
	 * and route buffers.  The rules change it only through ai.h. */
	struct ai ai;

	/* Optional observer of every monster action (sim's heat maps and
	 * behaviour metrics), called with the decision before the rules carry
	 * it out; it must not change the game.  NULL: none. */
	void (*on_monster_act)(void *ud, const struct game *g, int monster, struct ai_decision d);
	void *on_monster_act_ud;

	/* Not state: which blocks of each per-cell map were written since the
	 * hash last read them and since the level began (cellmark.h), so the
	 * hash and a snapshot cost what changed, not the whole level.  Every
	 * write of one of these maps marks its cell (game_mark). */
	struct cellmark marks[GAME_MAPS];
	bool level_fresh;       /* not state: the level is as game_level_load left it (no action since) */
	bool prefault;          /* not state: a person plays (game_prefault): every level load makes the
	                           path context resident */
	int fov_box[4];         /* not state: x0, y0, x1, y1 of the cells the last field of view may have set
	                           (x0 > x1: none; x0 < 0: not known, the whole map is cleared) */
};

/*
 * A person plays this game: its path context (17 bytes a cell, 285 MB on
 * 4096x4096) is made resident now and at every later level load, so the
 * first clicks and preview into unexplored space meet no page faults
 * (path_prefault).  Games no one waits on (replay, sim, the tests, a
 * resume until its first frame) do without: their searches touch only
 * what they reach.  The play screen calls it after its first frame.
 */
void game_prefault(struct game *g);

/*
 * Starts a game on levels[0] (borrowed: they must outlive the game) with a
 * copy of the bestiary and an explicit seed.  NULL on no memory.
 */
struct game *game_create(const struct level *const *levels, int n_levels,
			 const struct bestiary *b, uint64_t seed);
void game_destroy(struct game *g); /* NULL does nothing */

/* The player acts; monsters act until the player's next turn; FOV updated. */
enum act_result game_act(struct game *g, const struct action *a);

/*
 * The route a click on (x, y) would travel now (through the fallback, the
 * same search as ACT_TRAVEL), without acting: *cells (owned by the game,
 * valid until its next search) from the player's cell, *len cells (0 when
 * there is no route at all).  The plan is over the player's map memory
 * (known[]: cells never seen count as open floor), so it shows nothing the
 * player has not seen, and takes at most TRAVEL_BUDGET expansions (a goal
 * the player can reach but the budget cannot, up to two more budgets of
 * weighted A*: g->reach.weight says which search answered).  Returns
 * the search's status: PATH_FOUND when the route reaches (x, y),
 * PATH_FALLBACK when it only gets as close as it can, PATH_BUDGET when the
 * budget ran out first (the route then leads to the closest cell found).
 */
enum path_status game_travel_plan(struct game *g, int x, int y, const int **cells, int *len);

/* Whether a plan now might wait for the thread that peels the dead-end
 * trees of known[] (a map learnt at once, or a turn's change of a large
 * maze's: up to half a second on 4096x4096): what the pointer's preview,
 * which a mere movement of the mouse asks for, does not wait on. */
bool game_travel_busy(const struct game *g);

/* For the preview bench (play --bench-preview): the search a click on
 * (x, y) would need for the exact answer, game_travel_plan's search over
 * known[] without its budget; *expanded its expansions, *len its cells. */
enum path_status game_travel_exact(struct game *g, int x, int y, long *expanded, int *len);

/* Stops travel (a key was pressed). */
void game_travel_cancel(struct game *g);

/* The player learns the level's map within `radius` steps (0: all of it),
 * as a scroll of magic mapping teaches it: every cell but the void
 * remembered, its cost known.  The editor's play-test and the preview
 * bench (--bench-mapped) call it too. */
void game_map_level(struct game *g, int radius);

/* The known down stairs nearest the player (in steps; the first in cell
 * order among equals) into (*x, *y); false when the player has seen none. */
bool game_known_stairs(const struct game *g, int *x, int *y);

/* Message history: i = 0 is the newest; NULL past the end.  Adding a
 * message equal to the newest merges it (count, stamp, turn). */
const struct message *game_message(const struct game *g, int i);
void game_message_add(struct game *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "a" or "an" for a noun ("an orc", "a goblin"). */
const char *game_article(const char *noun);

/* What monster m is doing, as the player sees it: "asleep", "fleeing from
 * you", "hunting you", "lying in wait", "following your trail",
 * "wandering" or "waiting". */
const char *game_monster_doing(const struct monster *m);

/* The tile of `cell` as the player knows it: the true one where it sees
 * the cell, else as it last saw it (a wall dug out of its sight is still
 * a wall to it: its memory, known[], changes only with what it sees). */
enum tile game_tile_known(const struct game *g, int cell);

/* A short description of a cell for a right click ("a goblin", "rubble", "unexplored"). */
void game_describe(const struct game *g, int x, int y, char *buf, size_t size);

/* ---- items (game_items.c) ---- */

/* An item as the player knows it: "a murky potion", "potion of healing
 * (x3)", "wand of digging (3 charges)", "sling"; qty as in a pack slot. */
void game_item_name(const struct game *g, int kind, int qty, char *buf, size_t size);
/* What the player knows an item kind does, in a sentence or two, its
 * numbers from the catalogue ("Ammunition for a sling: 3 damage a shot,
 * ... one that hits breaks half the time."); an unknown potion, scroll
 * or wand says only that using it tells. */
void game_item_about(const struct game *g, int kind, char *buf, size_t size);
/* The pack slot of the ammunition the launcher in pack slot s fires; -1
 * when there is none (no launcher there, or none of its ammunition).  For
 * the wielded one (s = g->wielded), game_fire_none says why, as firing
 * would. */
int game_pack_ammo(const struct game *g, int s);
void game_fire_none(const struct game *g, char *buf, size_t size);
/* How many steps a piece of pack slot s flies when thrown by hand
 * (ACT_THROW, ACT_THROW_AT); 0 when it is not ammunition. */
int game_throw_range(const struct game *g, int s);
/* The wielded launcher's reach in steps; 0 without one. */
int game_fire_range(const struct game *g);
/* The catalogue kind, or NULL for an index out of range. */
const struct item_def *game_item_def(const struct game *g, int kind);
/* Everything in the pack counted (slots and stacks): changes on every pick-up, use and drop. */
int game_pack_total(const struct game *g);
/* The slot a kind would go into (its stack, or a free slot), -1 when the pack is full. */
int game_pack_room(const struct game *g, int kind);
/* Whether the item on `cell` is worth walking to: gold, or one the pack has room for. */
bool game_item_wanted(const struct game *g, int cell);
/* The nearest living monster the player sees (fewest steps), or -1: the first target of f. */
int game_nearest_target(const struct game *g);

/* The current level (borrowed from the campaign). */
const struct level *game_level(const struct game *g);

/* How many monsters the player sees are aware of the player: awake and
 * hunting it (seen, remembered or heard) or following its trail.  The
 * status line shows it ("noticed by 2"). */
int game_noticed_by(const struct game *g);

/* Chances in percent (5..100) that the player hits a monster of kind k
 * (rules.player_hit, its level, its hit_bonus, the kind's evade), and
 * that a monster of kind k hits the player (its hit less the armour). */
int game_player_hit_chance(const struct game *g, const struct monster_kind *k);
int game_monster_hit_chance(const struct game *g, const struct monster_kind *k);

/* The experience that reaches experience level `level` (0 for level 1). */
long game_xp_for_level(const struct game *g, int level);

/* The monster standing at (x, y), or NULL (dead monsters stand nowhere). */
struct monster *game_monster_at(const struct game *g, int x, int y);

/* Whether a mover may step from cell `from` to cell `to` (adjacent,
 * passable, no corner cutting on square8).  The player's moves and travel
 * obey it, and the rules hold every monster step the AI decides to it. */
bool game_can_step(const struct game *g, int from, int to);

/*
 * Where a shot from cell `from` at cell `to` stops: it flies along the
 * line of sight (fov_line_cells) and stops at the first place the line
 * cannot pass, where both cells of a border it passes, or the one cell
 * it crosses, block: a cell that blocks sight (a wall, a closed door) or
 * holds a monster.  Returns `to` when the line is free (the target is
 * hit); else the cell it stops at (-1: outside the map), with *monster
 * the index of the monster hit there or -1 for a wall.  Between a monster
 * and a wall on one border the monster is hit; between two monsters, the
 * first the line lists.  The rules carry AI_SHOOT out with it.
 */
int game_shot_stop(const struct game *g, int from, int to, int *monster);
/* The same for a shot of the player's at `to` as the player can tell it:
 * only the monsters it sees stop it (the sim's bot aims by it). */
int game_shot_stop_seen(const struct game *g, int to);

/* A hash of the whole play state: every field game_state_save keeps
 * (game_state.c lists them once for both), equal on every machine for
 * equal states; for the journal's checksums, the determinism tests and
 * sim's replay check. */
uint64_t game_hash(const struct game *g);

/* The per-cell maps of enum game_map were written from outside the rules
 * (a test setting a cell by hand): every block of every map is hashed
 * again and kept in the next snapshot.  The rules mark what they write
 * themselves (cellmark.h); the test build's hash checks they did. */
void game_maps_written(struct game *g);

/* ---- the whole play state as bytes (journal snapshots) -------------------- */

enum game_state_status {
	GAME_STATE_OK,
	GAME_STATE_UNSAVABLE,   /* not now: the AI's flood was moved by flood_shift and cannot be rebuilt exactly */
	GAME_STATE_NO_MEMORY
};

/*
 * Every byte of state the next game_act depends on, in a portable encoding
 * (fixed-width little-endian; equal states give equal bytes).  The levels
 * and the bestiary are not in it: a state loads into a game created on the
 * same campaign and bestiary.  *out is malloc'ed (caller frees), *len its
 * size; both NULL/0 unless GAME_STATE_OK.
 */
enum game_state_status game_state_save(const struct game *g, void **out, size_t *len);

/*
 * The same bytes into a buffer the caller keeps from one save to the next
 * (a snapshot every 16 actions on a large level: the pages of a new
 * buffer of megabytes cost more to touch than the bytes to write): the
 * state goes to (*buf)[at, at + *len), *buf (malloc'ed, or NULL with *cap
 * 0) grown with realloc as needed, the first `at` bytes left for the
 * caller.  *buf and *cap stay valid (the caller frees) whatever it returns.
 */
enum game_state_status game_state_save_into(const struct game *g, size_t at, void **buf, size_t *cap, size_t *len);

/*
 * A snapshot written while play goes on (journal.c's writer thread): the
 * state is captured on the key (game_state_capture: a copy of what
 * game_state_save reads, a few milliseconds where saving it took ten or
 * more on a 4096x4096 level), and saved from the copy on another thread
 * (game_state_copy_save_into: the very bytes game_state_save gives for
 * the game as it was at the capture).  The copy shares nothing the game
 * writes afterwards, and keeps its buffers from one capture to the next.
 * The capture's status is game_state_save's (UNSAVABLE: a shifted flood);
 * copy_save_into repeats it.
 */
struct game_state_copy;
struct game_state_copy *game_state_copy_new(void); /* NULL on no memory */
void game_state_copy_free(struct game_state_copy *c); /* NULL does nothing */
enum game_state_status game_state_capture(const struct game *g, struct game_state_copy *c);
enum game_state_status game_state_copy_save_into(const struct game_state_copy *c, size_t at, void **buf,
						 size_t *cap, size_t *len);
int game_state_copy_turn(const struct game_state_copy *c); /* the game turn at the capture */
/* game_hash of the game as it was at the capture, from the copy alone (so
 * on another thread: the checksum of a snapshot key is taken beside the
 * next keys).  The capture took the part that reads the per-cell maps
 * (the sums of the blocks written since the last hash) on the game;
 * the copy's part is the fields, the monsters and their routes.  0 when
 * the capture failed. */
uint64_t game_state_copy_hash(const struct game_state_copy *c);

/*
 * Puts a state made by game_state_save into g, a game created on the same
 * levels and bestiary (fresh from game_create, or any later state of it):
 * afterwards g plays on exactly as the game that was saved.  Every value is
 * range-checked, so a damaged state never crashes.  False with a message
 * when the bytes are not such a state; g must then be destroyed unused.
 */
bool game_state_load(struct game *g, const void *bytes, size_t len, char *err, size_t errlen);

#endif
