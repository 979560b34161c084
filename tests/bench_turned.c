/*
 * bench_turned.c - behind `make bench-turned`: jump point search on hex
 * and diamond maps (jps_turned.c, path_find with jps_always) against plain
 * A* (plain_astar) on the same Moving AI scenarios, read as the topology
 * asked for (hex: cell (x, y) the hex of row y; diamond: the map turned
 * 45 degrees, as `astray bench --topology diamond8` does).  Interleaved:
 * each query runs plain A* and then JPS (the order swapped every other
 * round), R rounds, and each keeps its least CPU time (clock_cpu_us) and
 * its least wall time.  Every JPS cost must equal plain A*'s (within
 * 1e-9) and every route must be a walk of adjacent passable cells; plain
 * A* is held to astray's Dijkstra by `astray bench --topology T`.
 * Prints per file and pooled: queries, both CPU totals and their ratio,
 * the wall ratio, and the mean expansions (cells for A*, jump points for
 * JPS).  Exit 1 on any mismatch.
 *
 * usage: bench_turned [--topology hex|diamond4|diamond8] [--every K] [--rounds R] SCEN...
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "grid.h"
#include "jps_turned.h"
#include "movingai.h"
#include "path.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = NULL;
	if (fseek(f, 0, SEEK_END) == 0) {
		long n = ftell(f);
		if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1)) != NULL) {
			if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
				free(buf);
				buf = NULL;
			} else {
				*len = (size_t)n;
			}
		}
	}
	fclose(f);
	return buf;
}

struct sums {
	long queries, mismatches;
	double a_cpu, j_cpu, a_wall, j_wall; /* microseconds, each query's least */
	double a_exp, j_exp;
};

static bool walk_ok(const struct grid *g, const struct path_result *r, int start, int goal)
{
	if (r->len < 1 || r->cells[0] != start || (r->reached && r->cells[r->len - 1] != goal))
		return false;
	for (int k = 1; k < r->len; k++)
		if (!grid_is_adjacent(g, r->cells[k - 1], r->cells[k]) || !grid_passable(g, r->cells[k]))
			return false;
	return true;
}

/* One query once: its CPU and wall time in us. */
static void timed(struct path_ctx *ctx, int s, int t, const struct path_options *o, struct path_result *r,
		  double *cpu, double *wall)
{
	const double c0 = clock_cpu_us(), w0 = clock_us();
	path_find(ctx, s, t, o, r);
	*wall = clock_us() - w0;
	*cpu = clock_cpu_us() - c0;
}

static int bench_file(const char *scen, enum grid_topology topo, int every, int rounds, struct sums *all)
{
	size_t len;
	char *text = slurp(scen, &len), err[256];
	if (!text) {
		fprintf(stderr, "bench_turned: cannot read %s\n", scen);
		return 2;
	}
	struct movingai_scenario *sc;
	int count = movingai_parse_scen(text, len, &sc, err, sizeof err);
	free(text);
	if (count <= 0) {
		fprintf(stderr, "bench_turned: %s: %s\n", scen, count < 0 ? err : "no scenarios");
		return 2;
	}
	char map[4096];
	const char *slash = strrchr(scen, '/');
	snprintf(map, sizeof map, "%.*s%s", slash ? (int)(slash - scen + 1) : 0, scen, sc[0].map);
	text = slurp(map, &len);
	struct grid *g = text ? movingai_parse_map(text, len, err, sizeof err) : NULL;
	free(text);
	if (!g) {
		fprintf(stderr, "bench_turned: cannot load %s\n", map);
		free(sc);
		return 2;
	}
	const int sq_h = g->h;
	if (grid_is_diamond(topo)) {
		struct grid *d = movingai_turn_diamond(g, topo);
		grid_destroy(g);
		g = d;
	}
	if (g)
		g->topo = topo; /* before path_create, whose chooser reads the topology */
	struct path_ctx *ctx = g ? path_create(g) : NULL;
	if (!ctx) {
		fprintf(stderr, "bench_turned: out of memory\n");
		grid_destroy(g);
		free(sc);
		return 2;
	}
	const double share_t0 = clock_cpu_us();
	const double share = jps_turned_turn_share(g, NULL, NULL);
	const double share_ms = (clock_cpu_us() - share_t0) / 1e3;
	const int runs = (count + every - 1) / every;
	double *best = malloc((size_t)runs * 4 * sizeof *best);
	if (!best) {
		fprintf(stderr, "bench_turned: out of memory\n");
		path_destroy(ctx);
		grid_destroy(g);
		free(sc);
		return 2;
	}
	struct path_options a = path_options_default(), j = path_options_default();
	a.plain_astar = true;
	j.jps_always = true;
	struct sums f = { 0 };
	for (int round = 0; round < rounds; round++) {
		for (int q = 0; q < runs; q++) {
			const struct movingai_scenario *s = &sc[q * every];
			int st, gl;
			if (grid_is_diamond(topo)) {
				st = movingai_turned_cell(g, sq_h, s->sx, s->sy);
				gl = movingai_turned_cell(g, sq_h, s->gx, s->gy);
			} else {
				st = grid_index(g, s->sx, s->sy);
				gl = grid_index(g, s->gx, s->gy);
			}
			struct path_result ra, rj;
			double ac, aw, jc, jw;
			if (round & 1) {
				timed(ctx, st, gl, &j, &rj, &jc, &jw);
				timed(ctx, st, gl, &a, &ra, &ac, &aw);
			} else {
				timed(ctx, st, gl, &a, &ra, &ac, &aw);
				/* ra's cells live in the context until the next query: judge the walk first */
				if (round == 0 && !walk_ok(g, &ra, st, gl))
					f.mismatches++;
				timed(ctx, st, gl, &j, &rj, &jc, &jw);
			}
			double *b = &best[q * 4];
			if (round == 0 || ac < b[0])
				b[0] = ac;
			if (round == 0 || jc < b[1])
				b[1] = jc;
			if (round == 0 || aw < b[2])
				b[2] = aw;
			if (round == 0 || jw < b[3])
				b[3] = jw;
			if (round == 0) {
				f.a_exp += (double)ra.expanded;
				f.j_exp += (double)rj.expanded;
				if (ra.reached != rj.reached || fabs(ra.cost - rj.cost) > 1e-9 ||
				    !walk_ok(g, &rj, st, gl)) {
					if (f.mismatches++ < 5)
						fprintf(stderr, "mismatch: %s #%d: A* %.6f, JPS %.6f\n", scen,
							q * every + 1, ra.reached ? ra.cost : -1.0,
							rj.reached ? rj.cost : -1.0);
				}
			}
		}
	}
	for (int q = 0; q < runs; q++) {
		f.a_cpu += best[q * 4];
		f.j_cpu += best[q * 4 + 1];
		f.a_wall += best[q * 4 + 2];
		f.j_wall += best[q * 4 + 3];
	}
	f.queries = runs;
	printf("%-20s queries=%d astar_cpu_ms=%.1f jps_cpu_ms=%.1f cpu_ratio=%.2f wall_ratio=%.2f "
	       "astar_expanded=%.0f jps_expanded=%.0f turn_share=%.3f (%.2f ms) mismatches=%ld\n",
	       sc[0].map, runs, f.a_cpu / 1e3, f.j_cpu / 1e3, f.j_cpu > 0 ? f.a_cpu / f.j_cpu : 0.0,
	       f.j_wall > 0 ? f.a_wall / f.j_wall : 0.0, f.a_exp / runs, f.j_exp / runs, share, share_ms, f.mismatches);
	fflush(stdout);
	all->queries += f.queries;
	all->mismatches += f.mismatches;
	all->a_cpu += f.a_cpu;
	all->j_cpu += f.j_cpu;
	all->a_wall += f.a_wall;
	all->j_wall += f.j_wall;
	all->a_exp += f.a_exp;
	all->j_exp += f.j_exp;
	free(best);
	path_destroy(ctx);
	grid_destroy(g);
	free(sc);
	return 0;
}

int main(int argc, char **argv)
{
	enum grid_topology topo = GRID_HEX;
	int every = 1, rounds = 3, first = 1;
	for (; first < argc && strncmp(argv[first], "--", 2) == 0; first += 2) {
		if (first + 1 >= argc)
			break;
		if (strcmp(argv[first], "--topology") == 0) {
			if (!grid_topology_parse(argv[first + 1], &topo) || grid_is_square(topo)) {
				fprintf(stderr, "bench_turned: --topology hex, diamond4 or diamond8\n");
				return 2;
			}
		} else if (strcmp(argv[first], "--every") == 0) {
			every = atoi(argv[first + 1]);
		} else if (strcmp(argv[first], "--rounds") == 0) {
			rounds = atoi(argv[first + 1]);
		} else {
			break;
		}
	}
	if (first >= argc || every < 1 || rounds < 1) {
		fprintf(stderr, "usage: bench_turned [--topology hex|diamond4|diamond8] [--every K] [--rounds R] SCEN...\n");
		return 2;
	}
	printf("topology=%s every=%d rounds=%d (each query's least time of the rounds; ratio = A* / JPS)\n",
	       grid_topology_name(topo), every, rounds);
	struct sums all = { 0 };
	for (int i = first; i < argc; i++) {
		int st = bench_file(argv[i], topo, every, rounds, &all);
		if (st)
			return st;
	}
	printf("pooled queries=%ld astar_cpu_ms=%.1f jps_cpu_ms=%.1f cpu_ratio=%.2f wall_ratio=%.2f mismatches=%ld\n",
	       all.queries, all.a_cpu / 1e3, all.j_cpu / 1e3, all.j_cpu > 0 ? all.a_cpu / all.j_cpu : 0.0,
	       all.j_wall > 0 ? all.a_wall / all.j_wall : 0.0, all.mismatches);
	return all.mismatches ? 1 : 0;
}
