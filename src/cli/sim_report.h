/* sim_report.h - what `astray sim-report` (cmd_sim_report.c) hands to sim's report writer (sim_write.c). */
#ifndef ASTRAY_SIM_REPORT_H
#define ASTRAY_SIM_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "sim.h"

/* One level's games as read back from per-game CSV, in game order. */
struct sim_report_level {
	const char *file;               /* the level column */
	int monsters;                   /* monsters of its lowest-numbered game */
	struct sim_game *games[2];      /* games of setting A (or the run), and B with compare */
	const char *settings[2];        /* each side's settings column (NULL in older files) */
};

struct sim_report {
	struct sim_report_level *levels;
	int n_levels;
	int games;                      /* games per level, the same for every level */
	uint64_t seed;                  /* the seed of game 0 */
	bool compare;                   /* the files hold sides A and B */
	bool hidden[SIM_METRIC_COUNT];  /* metrics absent from the files */
	const char (*kind_names)[32];   /* the kinds of the per-kind columns, in the files' order */
	int n_kinds;
	int format;                     /* 0 table, 1 csv, 2 json (sim's --format) */
	int files;                      /* how many files were merged */
};

/* Writes the report sim would print for the same games to stdout: the
 * same numbers.  Returns the exit status (1 after reporting a write error). */
int sim_report_print(const struct sim_report *r);

#endif
