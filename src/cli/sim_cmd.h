/* sim_cmd.h - what the files of `astray sim` share: its arguments, the levels of a run, and each file's entry points. */
#ifndef ASTRAY_SIM_CMD_H
#define ASTRAY_SIM_CMD_H

/*
 * cmd_sim.c parses the options and runs the steps in order: sim_load.c
 * loads what the games are played on, sim_workers.c plays them (here or
 * in --jobs worker processes), sim_write.c writes what they gave.  Only
 * these four files and sim_sweep.c (--sweep) include this header;
 * sim-report reaches the writer through sim_report.h.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bestiary.h"
#include "grid.h"
#include "level.h"
#include "opt.h"
#include "sim.h"

enum sim_format { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON };

#define SIM_DEFAULT_MAP_MONSTERS 10  /* --monsters on a .map when not given */
#define SIM_MAX_GEN_TOPOS 16         /* topologies in one --generate list */

/* --shard I/N: the I-th (1-based) of N slices of the games */
struct shard_arg {
	int i, n;
};

/* --monsters K[:KIND] */
struct monsters_arg {
	int n;                       /* K, -1 when not given */
	const char *kind;            /* the KIND, or NULL */
};

/* --size WxH */
struct size_arg {
	int w, h;                    /* 0 when not given */
};

/* The command line, as cmd_sim.c parsed and checked it; read-only after. */
struct sim_args {
	struct opt_list levels;
	const char *generate;        /* --generate T[,T...], or NULL */
	enum grid_topology gen_topos[SIM_MAX_GEN_TOPOS];
	int n_gen_topos;
	struct size_arg size;        /* --size WxH */
	int depth;                   /* --depth D, 0 when not given (with --dungeon: its number of levels) */
	bool dungeon;                /* --dungeon: each game a whole generated dungeon */
	const char *record;          /* --record DIR, or NULL */
	int games;
	uint64_t seed;
	struct sim_options opt;
	int format;                  /* enum sim_format */
	struct opt_list sets;        /* --set, in order */
	const char *bestiary;        /* --bestiary FILE or NULL */
	struct monsters_arg monsters;
	const char *compare[2];      /* --compare A B, or NULL */
	bool per_game;
	bool no_time;
	const char *heatmap;         /* --heatmap FILE.svg or "-", or NULL */
	const char *heat_counts;     /* --heat-counts FILE, or NULL */
	int layer;                   /* enum sim_heat_layer */
	const char *heat_kind;       /* --heat-kind KIND, or NULL: every kind */
	int jobs;                    /* worker processes, 1 = none */
	struct shard_arg shard;      /* --shard I/N; n = 0 when not given */
	const char *sweep;           /* --sweep KIND.KEY=VALUES, or NULL (sim_sweep.h) */
	const char *sweep_plot;      /* --sweep-plot FILE.svg, or NULL */
	const char *sweep_metric;    /* --sweep-metric M[,M...], or NULL: the default */
	bool force;                  /* --force: --record replaces journals of the same names */
};

/* One level's games: [0] the run (or setting A), [1] setting B of --compare. */
struct sim_level_run {
	struct sim_level src;
	struct level *parsed;        /* owned, for a .lvl */
	struct sim_gen gen;          /* --generate */
	char name[160];              /* the run's name for --generate */
	char *text;                  /* owned file text */
	uint64_t text_hash;          /* heatmap_text_hash of it */
	uint64_t config[2];          /* per side: sim_load_config, the per-game CSV's config column */
	int monsters;                /* at the start of its first game */
	struct sim_game *games[2];
	struct sim_heat heat[2];     /* --heatmap: per side */
};

/* Whether the games count heat: for a picture or for a counts file. */
static inline bool sim_wants_heat(const struct sim_args *a)
{
	return a->heatmap || a->heat_counts;
}

/* ------------------------------------------------------------------ */
/* sim_load.c: what the games are played on.  Each returns false after  */
/* printing why on stderr.                                              */

/* The bestiary of --bestiary (or beside the first level) with every
 * --set applied; a bad --set is a usage error of cmd (*usage = 2). */
bool sim_load_bestiary(const struct sim_args *a, const struct opt_command *cmd, struct bestiary *b,
		       int *usage);

/* The glyph of --monsters K:KIND (a name or a letter), or the first kind. */
bool sim_load_monster_glyph(const struct sim_args *a, struct bestiary *b, char *glyph);

/* The level files to run: each LEVEL argument, a folder standing for its
 * .lvl files in name order.  Owned names (cli_names_free); NULL on error. */
char **sim_load_files(const struct sim_args *a, int *n_out);

/* The one run of --generate, its first level made now so that a bad
 * size is reported before any game. */
bool sim_load_generated(const struct sim_args *a, const struct bestiary *b, struct sim_level_run *lr);

/* The one run of --dungeon (a->depth levels), its first dungeon made now
 * so that a failure is reported before any game. */
bool sim_load_dungeon(const struct sim_args *a, const struct bestiary *b, struct sim_level_run *lr);

/* A .lvl or Moving AI .map file into lr (glyph: the monsters of a .map). */
bool sim_load_level(const struct sim_args *a, const struct bestiary *b, char glyph, struct sim_level_run *lr,
		    const char *file);

/* The bestiary file a run reads (--bestiary, beside the first level, or
 * for --generate/--dungeon the one found from anywhere) and the hash of its
 * text; false (nothing said) when there is none or it cannot be read. */
bool sim_load_bestiary_file(const struct sim_args *a, char *path, size_t size, uint64_t *hash);

/* The per-game CSV's config column for one side (bestiary b) of a level. */
uint64_t sim_load_config(const struct sim_args *a, const struct bestiary *b, uint64_t level_hash);

/* What the games of a run share: the levels, the two settings. */
struct sim_play {
	const struct sim_args *a;
	struct sim_level_run *runs;
	int n_runs;
	int sides;
	struct bestiary side[2];
	struct sim_record rec[2];    /* --record, per side */
	int heat_kind;               /* --heat-kind: the kind's place in the bestiary, -1 every kind */
};

/* Everything --record keeps the same for every game: the bestiary's text and each side's overrides. */
struct sim_record_ctx {
	char *bestiary_text;
	char bestiary_path[4096];
	char **sets[2];
	int n_sets[2];
};

/* Makes --record's folder and fills pc->rec from rc (which it fills). */
bool sim_load_record(const struct sim_args *a, struct sim_play *pc, struct sim_record_ctx *rc);
void sim_load_record_fini(struct sim_record_ctx *rc);

/* ------------------------------------------------------------------ */
/* sim_workers.c: playing the games                                    */

/*
 * Plays games [first, end) of every level and side of pc into
 * runs[].games and heat: in this process, or with --jobs N in N worker
 * processes, with the same results.  Shows progress on a terminal.
 * Returns 0, or 1 after reporting the error.
 */
int sim_workers_play(struct sim_play *pc, int first, int end);

/* ------------------------------------------------------------------ */
/* sim_write.c: what the games gave                                     */

/* The games to report and how. */
struct sim_out {
	const struct sim_args *a;
	struct sim_level_run *runs;
	int n_runs;
	struct sim_game *all[2];    /* every level's games together, for "all" */
	int n_all;
	int first, end;             /* the games played: all, or a --shard slice */
	bool hidden[SIM_METRIC_COUNT]; /* metrics not shown (sim-report: absent from its input) */
	int report_files;           /* sim-report: the CSV files merged; 0 for sim */
	char kind_names[SIM_KINDS][32]; /* the kinds of the per-kind columns, in order (the bestiary's) */
	int n_kinds;
	char settings[2][1024];     /* words for the header */
	char bestiary[512];         /* the bestiary file read (sim; "" for sim-report) */
	uint64_t bestiary_hash;     /* heatmap_text_hash of its text */
	char run_words[2][2048];    /* each side's whole setting in words: player, turns, bestiary, settings;
	                               the per-game CSV's settings column, sim-report's header */
};

/* The report in o->a->format (table, CSV or JSON) to f; write errors show in ferror(f). */
void sim_write_report(FILE *f, const struct sim_out *o);

/* A side's settings in words: --set, then `extra` (its --compare list). */
void sim_write_settings(char *buf, size_t size, const struct sim_args *a, const char *extra);

/* Fills o->run_words from a, o->settings and o->bestiary. */
void sim_write_run_words(struct sim_out *o);

/* Whether the folder of --OPT's file `path` takes files (said when not),
 * checked before the games so a run that fails leaves no half picture. */
bool sim_write_path_ok(const char *opt, const char *path);

/* --heatmap of the one level: 0, or 1 after reporting. */
int sim_write_heatmap(const struct sim_args *a, const struct sim_level_run *lr);

/* --heat-counts of the one level's games [first, end): 0, or 1 after reporting. */
int sim_write_heat_counts(const struct sim_args *a, const struct sim_level_run *lr, int first, int end);

#endif
