/* sim_csv.h - reads back the per-game CSV of `astray sim` (--shard, --per-game) for sim-report. */
#ifndef ASTRAY_SIM_CSV_H
#define ASTRAY_SIM_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "sim.h"

/* One level's games, in game order 0..games-1. */
struct sim_csv_level {
	const char *file;               /* the level column */
	int monsters;                   /* monsters of its game 0 */
	struct sim_game *games[2];      /* setting A (or the run), and B under compare */
	const char *settings[2];        /* each side's settings column (its first row's), or NULL */
};

/* What the files add up to (memory borrowed from the struct sim_csv). */
struct sim_csv_result {
	struct sim_csv_level *levels;
	int n_levels;
	int games;                      /* games per level, the same for every level */
	uint64_t seed;                  /* the seed of game 0 of the first level */
	bool compare;                   /* the files hold sides A and B */
	bool hidden[SIM_METRIC_COUNT];  /* metrics absent from the files */
	const char (*kind_names)[32];   /* the kinds of the per-kind columns (KIND.METRIC), in order */
	int n_kinds;
};

struct sim_csv *sim_csv_create(void);       /* NULL on no memory */
void sim_csv_destroy(struct sim_csv *c);    /* NULL does nothing */

/*
 * Reads one file's text (from memory: `file` names it in messages): a
 * header row, then one row per game.  Every game goes to its level (the
 * run column's, when there is one: --generate) and side.  On the first
 * error returns false with `file:line:col: message` in d (nothing is
 * printed).
 */
bool sim_csv_add(struct sim_csv *c, const char *file, const char *text, size_t len,
		 struct diag_list *d);

/* After every file: puts each level's games in order, by seed when the
 * files have a seed column (the seeds must make one range S, S+1, ...
 * modulo 2^64, and the game with seed S+i becomes game i: --shard slices
 * and disjoint --seed ranges merge alike), else by game number (0..n-1);
 * checks none is missing or twice, the same games on every level and
 * side, and under --generate that game i is on the topology a single run
 * gives it; fills out.  False with the reason (and a position when one
 * row is at fault) in d. */
bool sim_csv_finish(struct sim_csv *c, struct sim_csv_result *out, struct diag_list *d);

#endif
