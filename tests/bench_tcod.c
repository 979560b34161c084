/*
 * bench_tcod.c - the peer comparison behind `make bench`: the same Moving AI
 * scenarios through libtcod's TCOD_path (diagonal cost 1.41421356, a cost
 * callback that forbids corner cutting) and through astray's search three
 * ways: as `astray bench` (auto mode) runs it, dead ends pruned once per map
 * (prune.c), then path_find on the core; plain A* (path_find, plain_astar);
 * and jump point search wherever it applies (jps_always).  One process, the
 * searches timed alone, in this thread's CPU time (the machine is shared)
 * and in wall time, except that astray's preparation of each map is counted
 * in the default's time, so the ratio does not leave it out.  Each tool runs
 * a file's queries as one timed batch, R rounds (--rounds), its fastest
 * round kept; the tools take turns to go first from round to round.
 * --no-tcod leaves libtcod out (the chooser's table alone).  Prints the
 * means and libtcod's time over each of astray's per file and pooled over
 * all files (the sums of the times, so a file weighs by its queries).
 * Only libtcod's public C API is used.
 *
 * usage: bench_tcod SCEN... [--every K] [--rounds R] [--no-tcod]
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

/* One reading of both clocks, in nanoseconds. */
struct stamp {
	double cpu, wall;
};

static struct stamp now(void)
{
	struct timespec c, w;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c);
	clock_gettime(CLOCK_MONOTONIC, &w);
	return (struct stamp){ (double)c.tv_sec * 1e9 + (double)c.tv_nsec,
			       (double)w.tv_sec * 1e9 + (double)w.tv_nsec };
}

/* The tools compared, in the order of the columns. */
enum { T_TCOD, T_DEFAULT, T_ASTAR, T_JPS, TOOLS };
static const char *const tool_name[TOOLS] = { "tcod", "default", "astar", "jps" };

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
	double cpu[TOOLS], wall[TOOLS]; /* the default's include astray_prep */
	double astray_prep_ns;          /* CPU */
	double astray_prep_wall;
	long runs, bad[TOOLS];
};

static void add_time(struct sums *f, int tool, struct stamp a, struct stamp b)
{
	f->cpu[tool] += b.cpu - a.cpu;
	f->wall[tool] += b.wall - a.wall;
}

/* One line of figures: CPU means, then libtcod's CPU time over each
 * astray search's, then the same ratios in wall time; then plain A*'s CPU
 * time over the default's and over JPS's (item 2 of issue 32: the default
 * must never be slower than plain A*). */
static void print_sums(const char *name, const struct sums *f, bool tcod)
{
	const double n = f->runs > 0 ? (double)f->runs : 1.0;
	printf("%-20s scenarios=%ld", name, f->runs);
	for (int t = tcod ? 0 : T_DEFAULT; t < TOOLS; t++)
		printf(" %s_us=%.2f", tool_name[t], f->cpu[t] / 1000.0 / n);
	if (tcod) {
		for (int t = T_DEFAULT; t < TOOLS; t++)
			printf(" ratio_%s=%.2f", tool_name[t], f->cpu[T_TCOD] / f->cpu[t]);
		printf(" ratio_default_search=%.2f", f->cpu[T_TCOD] / (f->cpu[T_DEFAULT] - f->astray_prep_ns));
		for (int t = T_DEFAULT; t < TOOLS; t++)
			printf(" wall_ratio_%s=%.2f", tool_name[t], f->wall[T_TCOD] / f->wall[t]);
		printf(" wall_ratio_default_search=%.2f", f->wall[T_TCOD] / (f->wall[T_DEFAULT] - f->astray_prep_wall));
	}
	printf(" astar_over_default=%.2f astar_over_jps=%.2f", f->cpu[T_ASTAR] / f->cpu[T_DEFAULT],
	       f->cpu[T_ASTAR] / f->cpu[T_JPS]);
	printf(" mismatches=%ld/%ld/%ld/%ld prep_ms=%.2f\n", f->bad[T_TCOD], f->bad[T_DEFAULT],
	       f->bad[T_ASTAR], f->bad[T_JPS], f->astray_prep_ns / 1e6);
	fflush(stdout);
}

/* One libtcod search; false when its route is missing or not optimal. */
static bool tcod_one(TCOD_path_t tp, const struct movingai_scenario *s)
{
	if (!TCOD_path_compute(tp, s->sx, s->sy, s->gx, s->gy))
		return false;
	double cost = 0.0;
	int px = s->sx, py = s->sy, n = TCOD_path_size(tp);
	for (int k = 0; k < n; k++) {
		int x, y;
		TCOD_path_get(tp, k, &x, &y);
		cost += (x != px && y != py) ? GRID_SQRT2 : 1.0;
		px = x;
		py = y;
	}
	return movingai_cost_matches(cost, s->optimal);
}

/*
 * One tool over a file's queries (every `every`-th), timed as one batch:
 * a CPU clock read is a system call on a virtual machine (about 1.5 us of
 * CPU, as much as a small query), so one pair of reads per batch keeps it
 * out of the figures.  Each route is checked inside the batch, the same
 * small cost for every tool.
 */
static void time_batch(struct sums *f, int tool, const struct movingai_scenario *sc, int count, int every,
		       const struct grid *g, TCOD_path_t tp, struct prune *pr, struct path_ctx *ctx,
		       const struct path_options *opt)
{
	long bad = 0;
	struct stamp a = now();
	for (int i = 0; i < count; i += every) {
		const struct movingai_scenario *s = &sc[i];
		if (tool == T_TCOD) {
			bad += !tcod_one(tp, s);
			continue;
		}
		const int start = grid_index(g, s->sx, s->sy), goal = grid_index(g, s->gx, s->gy);
		struct path_result r;
		if (pr)
			prune_find(pr, start, goal, opt, &r);
		else
			path_find(ctx, start, goal, opt, &r);
		bad += !r.reached || !movingai_cost_matches(r.cost, s->optimal);
	}
	struct stamp b = now();
	add_time(f, tool, a, b);
	f->bad[tool] += bad;
}

static int run_file(const char *scen_path, int every, int rounds, bool tcod, struct sums *all)
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
	TCOD_path_t tp = tcod ? TCOD_path_new_using_function(g->w, g->h, tcod_cost, g, 1.41421356f) : NULL;
	struct stamp p0 = now();
	struct prune *pr = prune_create(g, false);
	struct stamp p1 = now();
	struct path_ctx *ctx = path_create(g);
	if ((tcod && !tp) || !pr || !ctx) {
		fprintf(stderr, "bench_tcod: out of memory\n");
		return 2;
	}
	struct path_options opt = path_options_default();
	struct path_options astar = opt, jps = opt;
	astar.plain_astar = true;
	jps.jps_always = true;
	struct sums f = { .astray_prep_ns = p1.cpu - p0.cpu, .astray_prep_wall = p1.wall - p0.wall };
	add_time(&f, T_DEFAULT, p0, p1);
	/* rounds: each tool's batch once per round, and each tool keeps its
	 * fastest round (a slow spell of the machine spoils one round) */
	struct sums best = f;
	for (int round = 0; round < rounds; round++) {
		struct sums cur = f;
		/* the tools take turns to go first, so that none always
		 * starts with the caches another tool left */
		for (int k = 0; k < TOOLS; k++) {
			const int t = (k + round) % TOOLS;
			if (t == T_TCOD && tcod)
				time_batch(&cur, T_TCOD, sc, count, every, g, tp, NULL, NULL, NULL);
			else if (t == T_DEFAULT)
				time_batch(&cur, T_DEFAULT, sc, count, every, g, NULL, pr, NULL, &opt);
			else if (t == T_ASTAR)
				time_batch(&cur, T_ASTAR, sc, count, every, g, NULL, NULL, ctx, &astar);
			else if (t == T_JPS)
				time_batch(&cur, T_JPS, sc, count, every, g, NULL, NULL, ctx, &jps);
		}
		for (int t = 0; t < TOOLS; t++) {
			if (round == 0 || cur.cpu[t] < best.cpu[t]) {
				best.cpu[t] = cur.cpu[t];
				best.wall[t] = cur.wall[t];
			}
			if (round == 0)
				best.bad[t] = cur.bad[t];
		}
	}
	f = best;
	for (int i = 0; i < count; i += every)
		f.runs++;
	print_sums(sc[0].map, &f, tcod);
	for (int t = 0; t < TOOLS; t++) {
		all->cpu[t] += f.cpu[t];
		all->wall[t] += f.wall[t];
		all->bad[t] += f.bad[t];
	}
	all->astray_prep_ns += f.astray_prep_ns;
	all->astray_prep_wall += f.astray_prep_wall;
	all->runs += f.runs;
	path_destroy(ctx);
	if (tp)
		TCOD_path_delete(tp);
	prune_destroy(pr);
	grid_destroy(g);
	free(sc);
	return 0;
}

int main(int argc, char **argv)
{
	int every = 1, rounds = 1, files = 0;
	bool tcod = true;
	struct sums all = { 0 };
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--every") == 0 && i + 1 < argc) {
			every = atoi(argv[++i]);
			if (every < 1)
				every = 1;
			continue;
		}
		if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) {
			rounds = atoi(argv[++i]);
			if (rounds < 1)
				rounds = 1;
			continue;
		}
		if (strcmp(argv[i], "--no-tcod") == 0) {
			tcod = false;
			continue;
		}
		if (strcmp(argv[i], "--help") == 0) {
			printf("usage: bench_tcod SCEN... [--every K] [--rounds R] [--no-tcod]\n");
			return 0;
		}
		files++;
	}
	if (files == 0) {
		fprintf(stderr, "usage: bench_tcod SCEN... [--every K] [--rounds R] [--no-tcod]\n");
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--every") == 0 || strcmp(argv[i], "--rounds") == 0) {
			i++;
			continue;
		}
		if (strcmp(argv[i], "--no-tcod") == 0)
			continue;
		if (run_file(argv[i], every, rounds, tcod, &all) != 0)
			return 2;
	}
	printf("(times in CPU; the default's include preparing each map once: prune_create, prep_ms;\n"
	       " ratio_X is libtcod's time over X's, pooled: the sums over all files;\n"
	       " ratio_default_search leaves the preparation out)\n");
	print_sums("pooled", &all, tcod);
	return all.bad[T_DEFAULT] + all.bad[T_ASTAR] + all.bad[T_JPS] ? 1 : 0;

}
