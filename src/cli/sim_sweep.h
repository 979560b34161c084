/* sim_sweep.h - `astray sim --sweep KEY=VALUES`: one knob over a list of values on the same seeds, a tidy CSV and a line plot. */
#ifndef ASTRAY_SIM_SWEEP_H
#define ASTRAY_SIM_SWEEP_H

/*
 * cmd_sim.c parses --sweep with sim_sweep_parse, plays the run once per
 * value (the value added to --set) and hands each value's games to
 * sim_sweep_take, which writes them: the tidy summary rows, or with
 * --per-game/--shard the per-game CSV with a `sweep` column first.
 * cmd_sim_report.c hands per-game CSV whose header starts with `sweep`
 * to sim_sweep_report, which merges each value's games as sim-report
 * merges any run and writes the same rows.  docs/sim.md, "Sweeps".
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "opt.h"
#include "sim.h"

#define SIM_SWEEP_MAX 200        /* values in one sweep */
#define SIM_SWEEP_MAX_METRICS 6  /* panels of one plot */

/* --sweep KEY=LO..HI[:STEP] or KEY=V1,V2,... */
struct sim_sweep_spec {
	char key[96];                       /* "wolf.sight": anything --set takes before '=' */
	int n;
	double v[SIM_SWEEP_MAX];            /* in the order given (a range: rising) */
	char text[SIM_SWEEP_MAX][32];       /* each value as written to --set and the CSV */
	char set[SIM_SWEEP_MAX][128];       /* "wolf.sight=4": the --set of each value */
};

/* Parses spec; false with the reason in err (for a usage error). */
bool sim_sweep_parse(const char *spec, struct sim_sweep_spec *out, char *err, size_t errlen);

/* Whether `name` is a metric a sweep can plot: a metric or KIND.METRIC. */
bool sim_sweep_metric_ok(const char *name);

/* What the plot's title says about the run. */
struct sim_sweep_about {
	char level[512];                    /* the level drawn: the one level, or "all N levels" */
	int games;
	uint64_t seed;
	char player[16];                    /* "" when unknown (sim-report) */
	char settings[1024];                /* the other --set, "" for none */
};

/* One sweep being written: the tidy rows go to f as each value comes. */
struct sim_sweep_out;

/* metrics: comma-separated names to plot ("" or NULL: none kept).
 * per_game: each value's per-game CSV with a sweep column, no summary. */
struct sim_sweep_out *sim_sweep_out_create(const struct sim_sweep_spec *spec, FILE *f, bool per_game,
					   const char *metrics);
void sim_sweep_out_destroy(struct sim_sweep_out *s);

struct sim_out;
/* Value vi's games, as sim's report writer would take them; 0, or 1 after reporting. */
int sim_sweep_take(struct sim_sweep_out *s, int vi, const struct sim_out *o);

/* The plot of the kept metrics against the value to path (SVG); 0, or 1 after reporting. */
int sim_sweep_plot(const struct sim_sweep_out *s, const char *path, const struct sim_sweep_about *about,
		   const char *prog);

/* sim-report of sweep shards: files (CSV only) merged per value; the exit status. */
int sim_sweep_report(const char *const *files, int n, const char *plot, const char *metrics);

/* Whether a file's text is per-game CSV of a sweep (its header starts with "sweep,"). */
bool sim_sweep_is_csv(const char *text, size_t len);

#endif
