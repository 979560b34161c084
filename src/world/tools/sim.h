/* sim.h - headless games for AI tuning: scripted players, per-game metrics, summaries and paired comparisons. */
#ifndef ASTRAY_SIM_H
#define ASTRAY_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ai.h"
#include "bestiary.h"
#include "diag.h"
#include "grid.h"
#include "level.h"
#include "stats.h"

/*
 * The scripted players.  Each turn they make an action as the UI would.
 * Where two choices are equally good (two shortest routes, two monsters
 * equally near, two cells equally far from danger) they draw from a
 * stream of their own, seeded from the game's seed apart from the game's
 * streams, so the seed matters to them too and their draws shift nothing
 * of the rules' (docs/sim.md, "Players").  Every player but idle ends its
 * games: a game it takes to the turn limit counts as a timeout.
 */
enum sim_player {
	SIM_PLAYER_EXIT,   /* walks a shortest route to the nearest exit, attacking what blocks it */
	SIM_PLAYER_FLEE,   /* steps to the cell farthest from the nearest seen monster; none seen: exit's way */
	SIM_PLAYER_IDLE,   /* waits */
	SIM_PLAYER_FIGHT,  /* hunts the nearest monster; gives up one it gains no ground on; none left: exit */
	SIM_PLAYER_BOT,    /* a careful player of whole dungeons, from what the player knows (sim_bot.h) */
	SIM_PLAYER_COUNT
};

const char *sim_player_name(enum sim_player p);
bool sim_player_parse(const char *s, enum sim_player *out); /* false if unknown */

enum sim_outcome {
	SIM_ESCAPED,       /* the player took the exit of the level (of a dungeon's last level: won) */
	SIM_KILLED,        /* the monsters killed the player */
	SIM_OUT_OF_TURNS,  /* the turn limit came first */
	SIM_OUTCOME_COUNT
};

const char *sim_outcome_name(enum sim_outcome o);

/*
 * The metrics of one game, in output order.  Rates are 1 or 0 per game;
 * a value a game does not define (first contact without contact, figures
 * per search without a search) is NaN and left out of its summary.
 * Time metrics are wall-clock measurements: they differ from run to run,
 * everything else replays exactly from the seed.
 */
enum sim_metric {
	SIM_M_ESCAPED,
	SIM_M_KILLED,
	SIM_M_OUT_OF_TURNS,
	SIM_M_TURNS,
	SIM_M_DAMAGE,
	SIM_M_FIRST_CONTACT,
	SIM_M_KILLS,
	SIM_M_SEARCHES,
	SIM_M_EXPANDED_MEAN,
	SIM_M_EXPANDED_P95,
	SIM_M_FALLBACKS,
	SIM_M_BUDGET_HITS,
	SIM_M_OSCILLATIONS,
	SIM_M_STUCK,
	SIM_M_BLOCKED_WAITS,
	SIM_M_LONGEST_JAM,
	SIM_M_DEPTH,       /* after the counts, before the time metrics, which come last */
	SIM_M_SEARCH_US_MEAN,
	SIM_M_SEARCH_US_P95,
	SIM_M_SEARCH_MS_TURN,
	SIM_M_AI_MS_MEAN,
	SIM_M_AI_MS_P95,
	SIM_M_XLEVEL,        /* appended: the per-game CSV keeps its older columns in place */
	SIM_M_ITEMS_USED,
	SIM_M_AI_CPU_MS_MEAN,
	SIM_M_TIMEOUTS,      /* appended: a turn limit the player meant to avoid (docs/sim.md) */
	SIM_M_LOWEST_HP,
	SIM_METRIC_COUNT
};

struct sim_metric_info {
	const char *name;    /* CSV column and JSON key: "killed", "time_ai_ms_mean" */
	const char *label;   /* words for the table */
	bool rate;           /* 1/0 per game: Wilson interval */
	bool time;           /* wall clock: not reproducible, left out by --no-time */
	int decimals;        /* digits after the point in the table */
	const char *higher;  /* what a higher value means, for --compare ("catches the player more often") */
	const char *doc;     /* one line for --help and docs/sim.md */
	double floor;        /* the least difference of practical interest: a --compare verdict
	                        ignores a smaller one however sure (docs/sim.md, "Statistics") */
};

const struct sim_metric_info *sim_metric_info(enum sim_metric m);
/* The metric with this name, or -1. */
int sim_metric_find(const char *name);

/*
 * Per-kind metrics (docs/sim.md, "Per kind"): for every kind of the run's
 * bestiary, counts over one game.  A kind with no monster in a game
 * defines none of them there (the summaries count the games that have it).
 */
enum sim_kind_metric {
	SIM_K_MONSTERS,      /* monsters of the kind at the start */
	SIM_K_CONTACTS,      /* its actions that attack the player (a blow or a shot) or end next to it */
	SIM_K_DAMAGE,        /* hit points the player lost to it */
	SIM_K_DEATHS,        /* its monsters killed (by the player or a stray shot) */
	SIM_K_JAMS,          /* its blocked waits (below) */
	SIM_KIND_METRIC_COUNT
};

struct sim_kind_metric_info {
	const char *name;    /* the column's part after the kind: "wolf.contacts" */
	const char *label;   /* words for the table */
	const char *higher;  /* what a higher value means, for --compare */
	const char *doc;
};

const struct sim_kind_metric_info *sim_kind_metric_info(enum sim_kind_metric m);
int sim_kind_metric_find(const char *name); /* "contacts" -> SIM_K_CONTACTS, or -1 */

#define SIM_KINDS BESTIARY_MAX_KINDS

/*
 * A column of the report: a metric (0 .. SIM_METRIC_COUNT-1) or, after
 * them, kind k's metric km as SIM_METRIC_COUNT + k * SIM_KIND_METRIC_COUNT
 * + km.  k is the kind's place in the run's bestiary (sim) or in the
 * header's list of kinds (sim-report), which are the same order.
 */
static inline int sim_kind_col(int kind, enum sim_kind_metric km)
{
	return SIM_METRIC_COUNT + kind * SIM_KIND_METRIC_COUNT + (int)km;
}

/* One game's result. */
struct sim_game {
	int level;           /* index of the level in the run */
	int index;           /* game number on that level, 0-based */
	uint64_t seed;       /* the game's seed (sim_game_seed) */
	enum sim_outcome outcome;
	int monsters;        /* monsters at the start */
	double v[SIM_METRIC_COUNT]; /* NaN where undefined */
	uint32_t kinds[SIM_KINDS][SIM_KIND_METRIC_COUNT]; /* per kind; all 0 for a kind not in the game */
	char killer[32];     /* the kind that killed the player ("goblin"), "" when it was not killed */
	uint64_t trace;      /* what was played, as a hash of every turn's positions and hit points
	                        (not of the seed or the random streams): equal traces are one game
	                        played again (sim_distinct) */
};

/* Column `col` of game g (sim_kind_col): NaN where undefined, a kind's
 * columns included when the game has none of it. */
double sim_game_value(const struct sim_game *g, int col);

/* Actions of look-back for the `stuck` metric (docs/sim.md). */
#define SIM_STUCK_K 8

/*
 * Heat-map layers: counts per cell summed over the games played into a
 * struct sim_heat.  docs/sim.md defines each.
 */
enum sim_heat_layer {
	SIM_HEAT_OCCUPANCY,  /* monster actions taken standing on the cell */
	SIM_HEAT_CONTACT,    /* the player's cell at the first contact of a game */
	SIM_HEAT_DEATHS,     /* the player's cell when killed */
	SIM_HEAT_BLOCKED,    /* blocked waits of monsters standing on the cell */
	SIM_HEAT_COUNT
};

/* the layers' names in order, then NULL (the choices of --layer) */
extern const char *const sim_heat_layer_names[SIM_HEAT_COUNT + 1];
const char *sim_heat_layer_name(enum sim_heat_layer l);   /* "occupancy", "contact", "deaths", "blocked" */
const char *sim_heat_layer_label(enum sim_heat_layer l);  /* words for a legend */
bool sim_heat_layer_parse(const char *s, enum sim_heat_layer *out);

/* Per-cell counts of one setting over many games on one level.  The
 * first game sizes it and copies the level's terrain (all games of a level
 * share their walls, a .map included). */
struct sim_heat {
	int w, h;              /* 0 until the first game */
	int topo;              /* enum grid_topology */
	uint8_t *tiles;        /* w*h enum tile, as the level starts */
	double *v[SIM_HEAT_COUNT]; /* w*h counts per layer */
};

void sim_heat_fini(struct sim_heat *h);
/* Adds src's counts into dst (sizing dst from src when empty): how the
 * heat of parallel workers is merged.  False on no memory or a size mismatch. */
bool sim_heat_add(struct sim_heat *dst, const struct sim_heat *src);

/* Game i of a run with base seed s plays with seed s + i, on every level
 * and in both settings of --compare, so games pair up by seed. */
uint64_t sim_game_seed(uint64_t base, int i);

/* Generated levels (sim --generate): game i plays on gen_level of
 * topology topos[i % n_topos] with the game's own seed, so N games are N
 * different levels and both sides of --compare get the same ones. */
struct sim_gen {
	const enum grid_topology *topos; /* borrowed; each gen_supports */
	int n_topos;
	int w, h;                   /* 0: gen_default_size of each topology */
	int depth;                  /* 1 to GEN_MAX_DEPTH */
};

/* Game `game`'s level with seed `seed` (gen_level with the bestiary b): what sim_run_game_at plays. */
struct gen_result;
bool sim_gen_make(const struct sim_gen *gen, const struct bestiary *b, int game, uint64_t seed,
		  struct gen_result *out, char *err, size_t errlen);

/* The name of game i's generated level with seed s: "gen:square8:79x23:d1:SEED". */
void sim_gen_name(const struct sim_gen *gen, int game, uint64_t seed, char *buf, size_t size);

/* A level to simulate: a parsed .lvl, a Moving AI .map whose player,
 * exit and monsters are placed anew from each game's seed, or generated
 * levels (gen not NULL, fixed and map_text NULL). */
struct sim_level {
	const char *file;           /* for messages */
	const struct level *fixed;  /* a .lvl (borrowed), or NULL */
	const char *map_text;       /* a .map's text (borrowed) when fixed is NULL */
	size_t map_len;
	int map_monsters;           /* monsters to place on a .map */
	char map_glyph;             /* their kind */
	const char *fixed_text;     /* the .lvl's text (borrowed; for --record), or NULL */
	size_t fixed_len;
	const struct sim_gen *gen;  /* generated levels, or NULL */
	int dungeon;                /* sim --dungeon: each game plays the whole dungeon of this many levels
	                               that dungeon_create makes from the game's seed (as play --dungeon
	                               does); 0: not a dungeon */
};

struct sim_options {
	enum sim_player player;
	int max_turns;              /* a game that reaches this turn is out of turns */
	bool chase;                 /* every monster is told where the player is before each action */
};

/* Scratch reused from game to game (sample buffers).  NULL on no memory. */
struct sim_runner *sim_runner_create(void);
void sim_runner_destroy(struct sim_runner *r); /* NULL does nothing */
/* Games played from now on add their counts to heat (borrowed; NULL stops). */
void sim_runner_set_heat(struct sim_runner *r, struct sim_heat *heat);
/* Heat of one kind only (--heat-kind; docs/sim.md): kind is its place in
 * the game's bestiary, -1 every kind (the default).  occupancy and blocked
 * count that kind's monsters; contact the player's cell at the kind's
 * first contact of each game; deaths the player's cell when the kind
 * dealt the killing blow. */
void sim_runner_set_heat_kind(struct sim_runner *r, int kind);

/* sim --record: one journal per game, DIR/LEVELNAME-SEED.jnl (with
 * -A-/-B- before the seed for the sides of --compare), so any game can be
 * watched with `astray replay`.  Every pointer is borrowed while games are
 * played.  The level's text comes from sim_level (fixed_text, map_text or
 * the generated text). */
struct sim_record {
	const char *dir;
	const char *program;        /* the program version, kept in the journal */
	const char *bestiary_name;
	const char *bestiary_text;  /* the bestiary file's text, before the overrides */
	size_t bestiary_len;
	const char *const *sets;    /* KIND.KEY=VALUE overrides the game's bestiary has, in order */
	int n_sets;
	const char *side;           /* NULL, or "A"/"B" */
	bool force;                 /* a journal of the same name is replaced (sim --force), not an error */
};

/* Games played from now on are recorded (rec borrowed; NULL stops).  A
 * journal that cannot be written makes sim_run_game fail with the reason
 * in diags.  Not with opt->chase: its hints to the monsters are outside
 * the rules, so a replay could not repeat them. */
void sim_runner_set_record(struct sim_runner *r, const struct sim_record *rec);

/* The journal's file name for a game: LEVELNAME[-SIDE]-SEED.jnl (no folder). */
void sim_record_name(const struct sim_level *src, const char *side, int game, uint64_t seed, char *buf,
		     size_t size);

/*
 * The behaviour metrics' observer, which sim_run_game installs as the
 * game's on_monster_act; public so tests can feed it constructed actions.
 * begin resets the counts for a game of n_monsters (false on no memory);
 * act sees one decision before the rules carry it out (g is a struct
 * game); counts gives oscillations, stuck, blocked waits, longest jam.
 */
struct game;
bool sim_behaviour_begin(struct sim_runner *r, int n_monsters);
void sim_behaviour_act(void *runner, const struct game *g, int monster, struct ai_decision d);
void sim_behaviour_counts(const struct sim_runner *r, long out[4]);
/* The per-kind counts of the game so far (the observer's and the game's
 * monsters): what sim_run_game puts in sim_game.kinds. */
void sim_kind_counts(struct sim_runner *r, const struct game *g, uint32_t out[SIM_KINDS][SIM_KIND_METRIC_COUNT]);

/*
 * Plays one headless game with the same game code as `play` (game_act on
 * actions): level src, a copy of bestiary b, the given seed.  Fills out.
 * Returns 0; -1 when the level could not be made (the reasons go to
 * diags) or memory ran out (nothing in diags).
 */
int sim_run_game(struct sim_runner *r, const struct sim_level *src, const struct bestiary *b,
		 uint64_t seed, const struct sim_options *opt, struct sim_game *out,
		 struct diag_list *diags);

/*
 * sim_run_game for game number `game` of a run (it picks the topology of
 * generated levels and names recorded journals); sim_run_game is game 0.
 */
int sim_run_game_at(struct sim_runner *r, const struct sim_level *src, const struct bestiary *b, int game,
		    uint64_t seed, const struct sim_options *opt, struct sim_game *out, struct diag_list *diags);

/*
 * Applies a settings list "KIND.KEY=VALUE KIND.KEY=VALUE" (separated by
 * spaces or commas) to b with bestiary_set.  On the first bad one returns
 * false with the reason in err; b may then hold the earlier ones.
 */
bool sim_apply_settings(struct bestiary *b, const char *list, char *err, size_t errlen);

/*
 * Distinct games: how many different traces (sim_game.trace) there are
 * among games[0..n) that define column col (col < 0: among all of them);
 * -1 on no memory.  The effective sample size of that column's summary.
 */
int sim_distinct(const struct sim_game *games, int n, int col);
/* The same for pairs: distinct (a[i].trace, b[i].trace) among the pairs
 * where both define col (col < 0: every pair). */
int sim_distinct_pairs(const struct sim_game *a, const struct sim_game *b, int n, int col);

/* The summary of metric m over n games: Wilson for rates, t for the rest,
 * the interval that of as many games as are distinct (stats_effective_n
 * with sim_distinct: none when every game is the same one).
 * Returns the number of games that define it, or -1 on no memory. */
int sim_summarize(const struct sim_game *games, int n, enum sim_metric m,
		  struct stats_summary *out);
/* sim_summarize of any column (sim_kind_col); a kind's columns are counts, not rates. */
int sim_summarize_col(const struct sim_game *games, int n, int col, struct stats_summary *out);

/* Metric m of setting A against setting B over n paired games (a[i] and b[i] share a seed). */
struct sim_paired {
	int n;               /* pairs where both define the metric */
	double a, b;         /* means over those pairs */
	struct stats_summary diff; /* of b - a: mean, sd and the paired t interval */
	int sign;            /* +1 the interval lies above 0 (B higher), -1 below, 0 it holds 0 */
	int distinct;        /* distinct pairs of games among the n (sim_distinct_pairs): the
	                        interval is that of as many pairs (none below 2) */
};

int sim_compare_metric(const struct sim_game *a, const struct sim_game *b, int n,
		       enum sim_metric m, struct sim_paired *out);
/* sim_compare_metric of any column: the pairs where both games define it. */
int sim_compare_col(const struct sim_game *a, const struct sim_game *b, int n, int col,
		    struct sim_paired *out);

/* The length (1 to 4) of the valid UTF-8 sequence at the start of p (not
 * empty; NUL ends it), or 0 when it is not valid UTF-8 (a stray byte, an
 * overlong form, a surrogate, past U+10FFFF, cut short).  For writers of
 * JSON and SVG, which must not carry invalid bytes from file names. */
int sim_utf8_seq(const unsigned char *p);

#endif
