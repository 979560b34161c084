/*
 * bench_region.c - behind `make bench-region`: a whole relabelling of a
 * level's region labels (region.c) in CPU time (clock_cpu_us), as the
 * game pays it: region_refresh of stale labels over the level's true map
 * (the player's known[] after a map of the level is read: the first click
 * relabels; `mapped_read`, the same and then a cell of every 4096 read,
 * which writes every label, since region.c writes them as they are read),
 * over a memory that has seen nothing (every cell open, as known[]
 * starts), and region_label into an array (the AI's labels,
 * level_grid_regions); and `first`, the game's case, labels made over a
 * memory that has seen nothing and the level then learnt whole: the first
 * relabelling of fresh labels, with whatever memory it must make.  Each is run R times; the least, the median and the
 * largest are printed, with the region count as a check that the run
 * labelled what it should.  To compare two builds, build this file against
 * each and run them in turn (tools and docs/perf-log.md show how).
 *
 * usage: bench_region [--rounds R] LEVEL.lvl...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "diag.h"
#include "grid.h"
#include "level.h"
#include "region.h"

static int cmp_double(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void report(const char *file, const char *what, double *us, int rounds, long regions)
{
	qsort(us, (size_t)rounds, sizeof *us, cmp_double);
	printf("bench-region: file=%s what=%s rounds=%d cpu_ms_min=%.2f cpu_ms_median=%.2f cpu_ms_max=%.2f regions=%ld\n",
	       file, what, rounds, us[0] / 1e3, us[rounds / 2] / 1e3, us[rounds - 1] / 1e3, regions);
}

static int bench_file(const char *file, int rounds)
{
	size_t len = 0;
	char *text = level_read_file(file, &len);
	if (!text) {
		fprintf(stderr, "bench_region: %s: cannot read\n", file);
		return 1;
	}
	struct diag_list diags = { 0 };
	struct level *lv = level_parse(file, text, len, NULL, &diags);
	free(text);
	for (int i = 0; i < diags.n; i++) {
		char line[512];
		diag_format(&diags.items[i], line, sizeof line);
		fprintf(stderr, "%s\n", line);
	}
	diag_list_fini(&diags);
	struct grid *g = lv ? level_grid(lv) : NULL;
	if (!g) {
		fprintf(stderr, "bench_region: %s: no level\n", file);
		level_destroy(lv);
		return 1;
	}
	const int n = g->w * g->h;
	uint8_t *open = malloc((size_t)n);
	int32_t *out = malloc((size_t)n * sizeof *out);
	double *us = malloc((size_t)rounds * sizeof *us);
	struct region *mapped = region_create(g, false);
	struct region *blank = open ? region_create_over(g, (memset(open, 1, (size_t)n), open), false) : NULL;
	int rc = 1;
	if (!out || !us || !mapped || !blank) {
		fprintf(stderr, "bench_region: out of memory\n");
		goto done;
	}
	for (int k = 0; k < rounds; k++) {
		region_mark_stale(mapped);
		const double t0 = clock_cpu_us();
		if (!region_refresh(mapped))
			goto done;
		us[k] = clock_cpu_us() - t0;
	}
	report(file, "mapped", us, rounds, region_count(mapped));
	/* the labels are written as they are read (region.c's bands): the most
	 * a reader can add, a cell read every 4096, so every band is written */
	for (int k = 0; k < rounds; k++) {
		region_mark_stale(mapped);
		const double t0 = clock_cpu_us();
		if (!region_refresh(mapped))
			goto done;
		for (int c = 0; c < n; c += 4096)
			if (region_of(mapped, c) < -1)
				goto done;
		us[k] = clock_cpu_us() - t0;
	}
	report(file, "mapped_read", us, rounds, region_count(mapped));
	for (int k = 0; k < rounds; k++) {
		region_mark_stale(blank);
		const double t0 = clock_cpu_us();
		if (!region_refresh(blank))
			goto done;
		us[k] = clock_cpu_us() - t0;
	}
	report(file, "blank", us, rounds, region_count(blank));
	long first_regions = 0;
	for (int k = 0; k < rounds; k++) {
		memset(open, 1, (size_t)n);
		struct region *fresh = region_create_over(g, open, false);
		if (!fresh)
			goto done;
		memcpy(open, g->cost, (size_t)n);
		region_mark_stale(fresh);
		const double t0 = clock_cpu_us();
		const bool ok = region_refresh(fresh);
		us[k] = clock_cpu_us() - t0;
		first_regions = region_count(fresh);
		region_destroy(fresh);
		if (!ok)
			goto done;
	}
	report(file, "first", us, rounds, first_regions);
	memset(out, 0, (size_t)n * sizeof *out); /* its first touch is not the labelling's */
	long ids = 0;
	for (int k = 0; k < rounds; k++) {
		const double t0 = clock_cpu_us();
		ids = region_label(g, g->cost, false, out);
		us[k] = clock_cpu_us() - t0;
	}
	report(file, "label", us, rounds, ids);
	rc = 0;
done:
	region_destroy(mapped);
	region_destroy(blank);
	free(us);
	free(out);
	free(open);
	grid_destroy(g);
	level_destroy(lv);
	return rc;
}

int main(int argc, char **argv)
{
	int rounds = 9, rc = 0, files = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
			rounds = atoi(argv[++i]);
			if (rounds < 1 || rounds > 1000) {
				fprintf(stderr, "bench_region: --rounds takes 1 to 1000\n");
				return 2;
			}
			continue;
		}
		files++;
		rc |= bench_file(argv[i], rounds);
	}
	if (!files) {
		fprintf(stderr, "usage: bench_region [--rounds R] LEVEL.lvl...\n");
		return 2;
	}
	return rc;
}
