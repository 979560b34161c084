/*
 * bench_tcod.c - the peer comparison behind `make bench`: the same Moving AI
 * scenarios through libtcod's TCOD_path (diagonal cost 1.41421356, a cost
 * callback that forbids corner cutting) and through astray's search as
 * `astray bench` (auto mode) runs it: dead ends pruned once per map
 * (prune.c), then path_find on the core.  One process, the searches timed
 * alone, except that astray's preparation of each map is counted in its
 * time, so the ratio does not leave it out.  Prints both means and their
 * ratio per file and overall.  Only libtcod's public C API is used.
 *
 * usage: bench_tcod SCEN... [--every K]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#pragma GCC diagnostic ignored "-Wshadow"
#include <libtcod.h>
#pragma GCC diagnostic pop

#include "grid.h"
#include "movingai.h"
#include "path.h"
#include "prune.h"

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* libtcod's walk cost: 0 forbids the move.  A diagonal is allowed only when
 * both orthogonal cells it passes are free (the Moving AI rule). */
static float tcod_cost(int xf, int yf, int xt, int yt, void *user)
{
	const struct grid *g = user;
	if (!g->cost[grid_index(g, xt, yt)])
		return 0.0f;
	if (xf != xt && yf != yt &&
	    (!g->cost[grid_index(g, xt, yf)] || !g->cost[grid_index(g, xf, yt)]))
		return 0.0f;
	return 1.0f;
}

struct sums {
	double tcod_ns, astray_ns; /* astray_ns includes astray_prep_ns */
	double astray_prep_ns;
	long runs, tcod_bad, astray_bad;
};

static int run_file(const char *scen_path, int every, struct sums *all)
{
	size_t len;
	char err[256];
	char *text = slurp(scen_path, &len);
	if (!text) {
		fprintf(stderr, "bench_tcod: cannot read %s\n", scen_path);
		return 2;
	}
	struct movingai_scenario *sc = NULL;
	int count = movingai_parse_scen(text, len, &sc, err, sizeof err);
	free(text);
	if (count <= 0) {
		fprintf(stderr, "bench_tcod: %s: %s\n", scen_path, count < 0 ? err : "no scenarios");
		free(sc);
		return 2;
	}
	char map_path[4096];
	const char *slash = strrchr(scen_path, '/');
	int dirlen = slash ? (int)(slash - scen_path + 1) : 0;
	snprintf(map_path, sizeof map_path, "%.*s%s", dirlen, scen_path, sc[0].map);
	text = slurp(map_path, &len);
	struct grid *g = text ? movingai_parse_map(text, len, err, sizeof err) : NULL;
	free(text);
	if (!g) {
		fprintf(stderr, "bench_tcod: cannot load %s\n", map_path);
		free(sc);
		return 2;
	}
	TCOD_path_t tp = TCOD_path_new_using_function(g->w, g->h, tcod_cost, g, 1.41421356f);
	double p0 = now_ns();
	struct prune *pr = prune_create(g, false);
	double prep = now_ns() - p0;
	if (!tp || !pr) {
		fprintf(stderr, "bench_tcod: out of memory\n");
		return 2;
	}
	struct path_options opt = path_options_default();
	struct sums f = { .astray_ns = prep, .astray_prep_ns = prep };
	for (int i = 0; i < count; i += every) {
		const struct movingai_scenario *s = &sc[i];
		double t0 = now_ns();
		bool ok = TCOD_path_compute(tp, s->sx, s->sy, s->gx, s->gy);
		double t1 = now_ns();
		double cost = 0.0;
		if (ok) {
			int px = s->sx, py = s->sy, n = TCOD_path_size(tp);
			for (int k = 0; k < n; k++) {
				int x, y;
				TCOD_path_get(tp, k, &x, &y);
				cost += (x != px && y != py) ? GRID_SQRT2 : 1.0;
				px = x;
				py = y;
			}
		}
		if (!ok || !movingai_cost_matches(cost, s->optimal))
			f.tcod_bad++;

		struct path_result r;
		double t2 = now_ns();
		prune_find(pr, grid_index(g, s->sx, s->sy), grid_index(g, s->gx, s->gy), &opt, &r);
		double t3 = now_ns();
		if (!r.reached || !movingai_cost_matches(r.cost, s->optimal))
			f.astray_bad++;
		f.tcod_ns += t1 - t0;
		f.astray_ns += t3 - t2;
		f.runs++;
	}
	printf("%-20s scenarios=%ld tcod_mean_us=%.2f astray_mean_us=%.2f ratio=%.2f "
	       "tcod_mismatches=%ld astray_mismatches=%ld astray_prep_ms=%.2f\n",
	       sc[0].map, f.runs, f.tcod_ns / 1000.0 / (double)f.runs,
	       f.astray_ns / 1000.0 / (double)f.runs, f.tcod_ns / f.astray_ns, f.tcod_bad,
	       f.astray_bad, f.astray_prep_ns / 1e6);
	fflush(stdout);
	all->tcod_ns += f.tcod_ns;
	all->astray_ns += f.astray_ns;
	all->astray_prep_ns += f.astray_prep_ns;
	all->runs += f.runs;
	all->tcod_bad += f.tcod_bad;
	all->astray_bad += f.astray_bad;
	TCOD_path_delete(tp);
	prune_destroy(pr);
	grid_destroy(g);
	free(sc);
	return 0;
}

int main(int argc, char **argv)
{
	int every = 1, files = 0;
	struct sums all = { 0 };
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--every") == 0 && i + 1 < argc) {
			every = atoi(argv[++i]);
			if (every < 1)
				every = 1;
			continue;
		}
		if (strcmp(argv[i], "--help") == 0) {
			printf("usage: bench_tcod SCEN... [--every K]\n");
			return 0;
		}
		files++;
	}
	if (files == 0) {
		fprintf(stderr, "usage: bench_tcod SCEN... [--every K]\n");
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--every") == 0) {
			i++;
			continue;
		}
		if (run_file(argv[i], every, &all) != 0)
			return 2;
	}
	printf("(astray's times include preparing each map once: prune_create, astray_prep_ms)\n");
	printf("overall scenarios=%ld tcod_mean_us=%.2f astray_mean_us=%.2f ratio=%.2f "
	       "tcod_total_s=%.2f astray_total_s=%.2f astray_prep_s=%.3f\n",
	       all.runs, all.tcod_ns / 1000.0 / (double)all.runs,
	       all.astray_ns / 1000.0 / (double)all.runs, all.tcod_ns / all.astray_ns,
	       all.tcod_ns / 1e9, all.astray_ns / 1e9, all.astray_prep_ns / 1e9);
	return all.astray_bad ? 1 : 0;
}
