/* heatmap.h - heat counts files: sim's heat of one level as text (write, parse, merge), and the run it is of. */
#ifndef ASTRAY_HEATMAP_H
#define ASTRAY_HEATMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"
#include "sim.h"

/*
 * What a heat map is of: the run's level and options, for the picture's
 * title (heat_render.h) and for checking that counts merged from shards
 * belong together; and the fixed marks drawn on it.
 */
struct heatmap_run {
	char level[1024];          /* the level file, as sim names it */
	uint64_t level_hash;       /* heatmap_text_hash of the level file's text */
	int games;                 /* games counted, 1 or more */
	uint64_t seed;             /* seed of game 0; game i has seed + i (modulo 2^64) */
	char player[16];           /* sim_player_name */
	bool chase;                /* --chase */
	int max_turns;             /* --turns */
	bool compare;              /* two sides, A and B */
	char settings[2][1024];    /* each side's settings in words ([1] under compare) */
	int start;                 /* the player's start cell (y * w + x); -1 when it varies (a .map) */
	char kind[32];             /* --heat-kind: the one kind counted; "" every kind */
};

/* FNV-1a (64 bits) of a level file's text: tells two versions apart. */
uint64_t heatmap_text_hash(const char *text, size_t len);

/*
 * Heat counts files ("astray-heat 1"): what `sim --heat-counts FILE`
 * writes for one level so that `sim-report --heatmap` can add up the heat
 * of shards.  Text, one `key: value` a line, the terrain, then one line
 * `LAYER SIDE X Y COUNT` per cell with a count (in order), then `end`.
 * docs/sim.md describes it.
 */
struct heatmap_counts {
	struct heatmap_run run;
	struct sim_heat heat[2];   /* side A (or the run), side B under compare */
	int line_of[16];           /* where each header key was read (for messages) */
	char *monsters;            /* owned: w * h kind glyphs where monsters start, 0 elsewhere; NULL for none */
};

void heatmap_counts_fini(struct heatmap_counts *c);   /* NULL does nothing */

/* Writes run and heat (b NULL unless run->compare) in that format, with
 * the monsters' starts (w * h glyphs, 0 for none; NULL: no section).  -1
 * when the heat is empty or a name holds a line break; write errors show
 * in ferror(f). */
int heatmap_counts_write(FILE *f, const struct heatmap_run *run, const struct sim_heat *a,
			 const struct sim_heat *b, const char *monsters);

/* Parses a counts file from memory (`file` names it in messages).  On the
 * first problem returns false with `file:line:col: message` in d; out is
 * then empty. */
bool heatmap_counts_parse(const char *file, const char *text, size_t len, struct heatmap_counts *out,
			  struct diag_list *d);

/*
 * Adds up n parsed files (names files[i]) into out: they must be of the
 * same level (name and text), topology, size, player, turn limit, chase
 * and settings, and their seed ranges must join into one range without
 * overlap; the picture's terrain and start come from the file holding
 * game 0.  False with the reason (file and line) in d.
 */
bool heatmap_counts_merge(const struct heatmap_counts *const *parts, const char *const *files, int n,
			  struct heatmap_counts *out, struct diag_list *d);

#endif
