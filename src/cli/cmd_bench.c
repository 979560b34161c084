/*
 * cmd_bench.c - `astray bench`: the A* core on Moving AI scenario files,
 * every answer checked, the searches alone timed.  This file reads the
 * files and prints; movingai.c parses and path.c searches.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "grid.h"
#include "movingai.h"
#include "path.h"
#include "prune.h"

enum bench_mode {
	MODE_AUTO,     /* dead ends pruned once per map, then path_find (jump point search
	                  where it applies) on the core */
	MODE_ASTAR,    /* plain A* everywhere */
	MODE_DIJKSTRA, /* weight 0 */
	MODE_FALLBACK  /* fallback on: reachable goals, then sealed goals vs a flood */
};

static const char *const mode_names[] = { "auto", "astar", "dijkstra", "fallback" };

static void bench_usage(FILE *out)
{
	fprintf(out,
		"usage: astray bench SCEN... [--every K] [--repeat R] [--topology square8|square4]\n"
		"                    [--mode auto|astar|dijkstra|fallback] [--csv FILE]\n"
		"\n"
		"Runs the A* core on Moving AI scenario files (.scen), each with the .map\n"
		"of the same name beside it, checks every cost and times the searches\n"
		"alone (not the loading).  Prints one line per file (and in auto mode\n"
		"the total preparation time), then one final line:\n"
		"  total scenarios=N mismatches=M mean_us=X median_us=Y p95_us=Z\n"
		"        mean_expanded=E ns_per_expansion=K\n"
		"and exits 1 if any scenario mismatches (2 on a usage or file error).\n"
		"\n"
		"  --every K      run every K-th scenario (default 1: all)\n"
		"  --repeat R     run a file's scenarios R times over, in R rounds, and time\n"
		"                 each scenario by its fastest run (default 1).  On a busy\n"
		"                 or shared machine a slow spell then spoils one round of a\n"
		"                 query, not its figure; the first line says repeat=R.  Each\n"
		"                 run after the first must give the same cost and expansions\n"
		"                 (else a mismatch).  In fallback mode the sealed goals' two\n"
		"                 times are each the fastest of R too.\n"
		"  --topology T   square8 (default): each cost is checked against the file's\n"
		"                 optimal length, |cost - optimal| <= 0.006 + 1e-5 * optimal.\n"
		"                 square4: the files' optimal lengths are for square8, so\n"
		"                 each cost is checked against astray's own Dijkstra\n"
		"                 (weight 0) on the same query instead; equal within 1e-9.\n"
		"  --mode M       auto (default): each map is prepared once (prune.c):\n"
		"                 dead ends are peeled into trees hanging off the map's\n"
		"                 core; a query walks the trees and runs path_find on the\n"
		"                 core alone, which on uniform square8 is jump point search\n"
		"                 (its expansions are jump points, and each tree step\n"
		"                 counts one).  Each file's line ends with prep_ms=P\n"
		"                 peeled=C: the preparation time (not in the search\n"
		"                 times) and the cells peeled.\n"
		"                 astar: plain A* for every query (expansions are cells).\n"
		"                 dijkstra: weight 0.\n"
		"                 fallback: the obstacle-penalty fallback on; the reachable\n"
		"                 goals must still get their optimal cost.  Then each goal is\n"
		"                 sealed by blocking the cells around it, and the fallback\n"
		"                 search is timed against a full Dijkstra flood of the\n"
		"                 start's region; their ratio is printed before the last line.\n"
		"  --csv FILE     write one row per scenario to FILE\n"
		"  --help         this text\n");
}

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Whole file into memory; NULL with errno set on failure. */
static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (n < cap) {
			if (ferror(f)) {
				free(buf);
				buf = NULL;
			}
			break;
		}
		char *nb = realloc(buf, cap * 2);
		if (!nb) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = nb;
		cap *= 2;
	}
	fclose(f);
	*len = n;
	return buf;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double percentile(const double *sorted, long n, double q)
{
	if (n == 0)
		return 0.0;
	long i = (long)ceil(q * (double)n) - 1;
	if (i < 0)
		i = 0;
	if (i >= n)
		i = n - 1;
	return sorted[i];
}

struct totals {
	double *us;          /* one time per scenario run */
	long n, cap;
	long mismatches;
	double ns;
	long expanded;
	double fb_ns, flood_ns;  /* fallback mode: sealed goals */
	long fb_runs;
	double prep_ns;          /* auto mode: preparing the maps */
};

static bool push_time(struct totals *t, double us)
{
	if (t->n == t->cap) {
		long nc = t->cap ? t->cap * 2 : 4096;
		double *nu = realloc(t->us, (size_t)nc * sizeof *nu);
		if (!nu)
			return false;
		t->us = nu;
		t->cap = nc;
	}
	t->us[t->n++] = us;
	return true;
}

/* Seals `goal` by blocking every adjacent cell; saved[] gets their old costs.
 * Returns false (nothing changed) when the start is the goal or beside it. */
static bool seal(struct grid *g, int start, int goal, int *cells, uint8_t *saved, int *n)
{
	struct grid_step s[GRID_MAX_NEIGHBOURS];
	*n = grid_adjacent(g, goal, s);
	if (start == goal)
		return false;
	for (int i = 0; i < *n; i++)
		if (s[i].cell == start)
			return false;
	for (int i = 0; i < *n; i++) {
		cells[i] = s[i].cell;
		saved[i] = g->cost[s[i].cell];
		g->cost[s[i].cell] = 0;
	}
	return true;
}

/* One scenario's figures over the rounds: its fastest times, and the
 * first round's answer, which every later round must repeat. */
struct run {
	double ns, fb_ns, flood_ns;
	double cost, expect;
	long expanded;
	bool reached, ok, sealed;
};

static int bench_file(const char *scen_path, int every, int repeat, enum grid_topology topo,
		      enum bench_mode mode, FILE *csv, struct totals *tot)
{
	size_t len;
	char *text = read_file(scen_path, &len);
	if (!text) {
		fprintf(stderr, "astray bench: %s: %s\n", scen_path, strerror(errno));
		return 2;
	}
	char err[256];
	struct movingai_scenario *sc = NULL;
	int count = movingai_parse_scen(text, len, &sc, err, sizeof err);
	free(text);
	if (count < 0) {
		fprintf(stderr, "astray bench: %s: %s\n", scen_path, err);
		return 2;
	}
	if (count == 0) {
		fprintf(stderr, "astray bench: %s: no scenarios\n", scen_path);
		free(sc);
		return 2;
	}
	/* The map is beside the .scen, by its file name. */
	const char *slash = strrchr(scen_path, '/');
	size_t dirlen = slash ? (size_t)(slash - scen_path + 1) : 0;
	char map_path[4096];
	if (dirlen + strlen(sc[0].map) + 1 > sizeof map_path) {
		fprintf(stderr, "astray bench: %s: path too long\n", scen_path);
		free(sc);
		return 2;
	}
	memcpy(map_path, scen_path, dirlen);
	strcpy(map_path + dirlen, sc[0].map);
	char *mtext = read_file(map_path, &len);
	if (!mtext) {
		fprintf(stderr, "astray bench: %s: %s\n", map_path, strerror(errno));
		free(sc);
		return 2;
	}
	struct grid *g = movingai_parse_map(mtext, len, err, sizeof err);
	free(mtext);
	if (!g) {
		fprintf(stderr, "astray bench: %s: %s\n", map_path, err);
		free(sc);
		return 2;
	}
	g->topo = topo;
	struct path_ctx *ctx = path_create(g);
	if (!ctx) {
		fprintf(stderr, "astray bench: out of memory for %s\n", map_path);
		grid_destroy(g);
		free(sc);
		return 2;
	}

	/* Auto mode prepares the map once (prune.c); the preparation is timed
	 * and reported apart from the searches. */
	struct prune *pr = NULL;
	double prep_ns = 0.0;
	if (mode == MODE_AUTO) {
		double t0 = now_ns();
		pr = prune_create(g, false);
		prep_ns = now_ns() - t0;
		if (!pr) {
			fprintf(stderr, "astray bench: out of memory for %s\n", map_path);
			path_destroy(ctx);
			grid_destroy(g);
			free(sc);
			return 2;
		}
	}

	struct path_options opt = path_options_default();
	if (mode == MODE_ASTAR)
		opt.plain_astar = true;
	else if (mode == MODE_DIJKSTRA)
		opt.weight = 0.0;
	else if (mode == MODE_FALLBACK)
		opt.fallback = true;
	struct path_options ref = path_options_default();
	ref.weight = 0.0;

	/* The scenarios to run, checked against the map first. */
	long runs = 0;
	for (int i = 0; i < count; i += every) {
		const struct movingai_scenario *s = &sc[i];
		if (s->map_w != g->w || s->map_h != g->h || strcmp(s->map, sc[0].map) != 0) {
			fprintf(stderr, "astray bench: %s: scenario %d names a %dx%d map %s, not %s\n",
				scen_path, i + 1, s->map_w, s->map_h, s->map, sc[0].map);
			prune_destroy(pr);
			path_destroy(ctx);
			grid_destroy(g);
			free(sc);
			return 2;
		}
		runs++;
	}
	struct run *run = calloc((size_t)runs, sizeof *run);
	if (!run) {
		fprintf(stderr, "astray bench: out of memory\n");
		prune_destroy(pr);
		path_destroy(ctx);
		grid_destroy(g);
		free(sc);
		return 2;
	}

	/* Round by round, so that a slow spell of the machine meets one run
	 * of a query, not all of them. */
	long bad = 0, expanded = 0;
	for (int round = 0; round < repeat; round++) {
		for (long j = 0; j < runs; j++) {
			struct run *u = &run[j];
			const int i = (int)(j * every);
			const struct movingai_scenario *s = &sc[i];
			int start = grid_index(g, s->sx, s->sy), goal = grid_index(g, s->gx, s->gy);
			struct path_result r;
			double t0 = now_ns();
			if (pr)
				prune_find(pr, start, goal, &opt, &r);
			else
				path_find(ctx, start, goal, &opt, &r);
			double dt = now_ns() - t0;
			if (round == 0 || dt < u->ns)
				u->ns = dt;
			if (round > 0) {
				/* Every run of a query must give the same answer. */
				if (u->ok && (r.reached != u->reached || r.cost != u->cost ||
					      r.expanded != u->expanded)) {
					u->ok = false;
					bad++;
					fprintf(stderr, "mismatch: %s #%d (%d,%d)->(%d,%d) round %d gave cost %.6f "
						"and %ld expansions, round 1 %.6f and %ld\n",
						scen_path, i + 1, s->sx, s->sy, s->gx, s->gy, round + 1,
						r.reached ? r.cost : -1.0, r.expanded,
						u->reached ? u->cost : -1.0, u->expanded);
				}
			} else {
				u->reached = r.reached;
				u->cost = r.cost;
				u->expanded = r.expanded;
				u->expect = s->optimal;
				bool ok;
				if (topo == GRID_SQUARE8) {
					ok = r.status == PATH_FOUND && r.reached &&
					     movingai_cost_matches(r.cost, s->optimal);
				} else {
					struct path_result d;
					path_find(ctx, start, goal, &ref, &d);
					u->expect = d.reached ? d.cost : -1.0;
					ok = r.reached == d.reached &&
					     (!d.reached || fabs(r.cost - d.cost) <= 1e-9);
				}
				/* The route itself must be a walk of adjacent passable cells. */
				if (ok && r.cells[0] == start) {
					for (int k = 1; k < r.len && ok; k++)
						ok = grid_is_adjacent(g, r.cells[k - 1], r.cells[k]) &&
						     grid_passable(g, r.cells[k]);
				} else {
					ok = false;
				}
				u->ok = ok;
				if (!ok) {
					bad++;
					if (bad <= 5)
						fprintf(stderr, "mismatch: %s #%d (%d,%d)->(%d,%d) expected %.6f "
							"got %.6f (%s)\n",
							scen_path, i + 1, s->sx, s->sy, s->gx, s->gy, u->expect,
							r.reached ? r.cost : -1.0,
							r.reached ? "reached" : "not reached");
				}
			}

			if (mode == MODE_FALLBACK) {
				int cells[GRID_MAX_NEIGHBOURS], n;
				uint8_t saved[GRID_MAX_NEIGHBOURS];
				if (seal(g, start, goal, cells, saved, &n)) {
					struct path_result fr;
					double a = now_ns();
					path_find(ctx, start, goal, &opt, &fr);
					double b = now_ns();
					path_flood(ctx, start, NULL, false, 0.0);
					double c = now_ns();
					if (round == 0 || b - a < u->fb_ns)
						u->fb_ns = b - a;
					if (round == 0 || c - b < u->flood_ns)
						u->flood_ns = c - b;
					u->sealed = true;
					if (round == 0 &&
					    (fr.status != PATH_FALLBACK || fr.reached || fr.blocked_crossed < 1)) {
						bad++;
						fprintf(stderr, "mismatch: %s #%d sealed goal: status %d blocked %d\n",
							scen_path, i + 1, (int)fr.status, fr.blocked_crossed);
					}
					for (int k = 0; k < n; k++)
						g->cost[cells[k]] = saved[k];
				}
			}
		}
	}

	double ns = 0.0;
	long first = tot->n;
	for (long j = 0; j < runs; j++) {
		const struct run *u = &run[j];
		const int i = (int)(j * every);
		const struct movingai_scenario *s = &sc[i];
		ns += u->ns;
		expanded += u->expanded;
		if (u->sealed) {
			tot->fb_ns += u->fb_ns;
			tot->flood_ns += u->flood_ns;
			tot->fb_runs++;
		}
		if (!push_time(tot, u->ns / 1000.0)) {
			fprintf(stderr, "astray bench: out of memory\n");
			free(run);
			prune_destroy(pr);
			path_destroy(ctx);
			grid_destroy(g);
			free(sc);
			return 2;
		}
		if (csv)
			fprintf(csv, "%s,%d,%d,%d,%d,%d,%.8f,%.8f,%ld,%.3f,%d\n", sc[0].map, i + 1,
				s->sx, s->sy, s->gx, s->gy, u->expect, u->reached ? u->cost : -1.0,
				u->expanded, u->ns / 1000.0, u->ok ? 1 : 0);
	}
	free(run);
	qsort(tot->us + first, (size_t)(tot->n - first), sizeof *tot->us, cmp_double);
	printf("%s scenarios=%ld mismatches=%ld mean_us=%.2f median_us=%.2f p95_us=%.2f "
	       "mean_expanded=%.1f ns_per_expansion=%.1f",
	       sc[0].map, runs, bad, runs ? ns / 1000.0 / (double)runs : 0.0,
	       percentile(tot->us + first, tot->n - first, 0.5),
	       percentile(tot->us + first, tot->n - first, 0.95),
	       runs ? (double)expanded / (double)runs : 0.0,
	       expanded ? ns / (double)expanded : 0.0);
	if (pr)
		printf(" prep_ms=%.2f peeled=%d", prep_ns / 1e6, prune_peeled(pr));
	printf("\n");
	fflush(stdout);
	tot->mismatches += bad;
	tot->ns += ns;
	tot->expanded += expanded;
	tot->prep_ns += prep_ns;
	prune_destroy(pr);
	path_destroy(ctx);
	grid_destroy(g);
	free(sc);
	return 0;
}

int cmd_bench(int argc, char **argv)
{
	int every = 1, repeat = 1;
	enum grid_topology topo = GRID_SQUARE8;
	enum bench_mode mode = MODE_AUTO;
	const char *csv_path = NULL;
	int nfiles = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			bench_usage(stdout);
			return 0;
		} else if (strcmp(a, "--every") == 0 && i + 1 < argc) {
			char *end;
			long k = strtol(argv[++i], &end, 10);
			if (*end || k < 1 || k > 1000000) {
				fprintf(stderr, "astray bench: --every wants a positive number, not '%s'\n", argv[i]);
				return 2;
			}
			every = (int)k;
		} else if (strcmp(a, "--repeat") == 0 && i + 1 < argc) {
			char *end;
			long k = strtol(argv[++i], &end, 10);
			if (*end || k < 1 || k > 1000) {
				fprintf(stderr, "astray bench: --repeat wants a number from 1 to 1000, not '%s'\n",
					argv[i]);
				return 2;
			}
			repeat = (int)k;
		} else if (strcmp(a, "--topology") == 0 && i + 1 < argc) {
			if (!grid_topology_parse(argv[++i], &topo) || topo == GRID_HEX) {
				fprintf(stderr, "astray bench: --topology is square8 or square4, not '%s'\n", argv[i]);
				return 2;
			}
		} else if (strcmp(a, "--mode") == 0 && i + 1 < argc) {
			const char *m = argv[++i];
			size_t k = 0;
			while (k < sizeof mode_names / sizeof mode_names[0] && strcmp(m, mode_names[k]) != 0)
				k++;
			if (k == sizeof mode_names / sizeof mode_names[0]) {
				fprintf(stderr, "astray bench: --mode is auto, astar, dijkstra or fallback, not '%s'\n", m);
				return 2;
			}
			mode = (enum bench_mode)k;
		} else if (strcmp(a, "--csv") == 0 && i + 1 < argc) {
			csv_path = argv[++i];
		} else if (a[0] == '-') {
			fprintf(stderr, "astray bench: unknown or incomplete option '%s' (see astray bench --help)\n", a);
			return 2;
		} else {
			nfiles++;
		}
	}
	if (nfiles == 0) {
		bench_usage(stderr);
		return 2;
	}
	FILE *csv = NULL;
	if (csv_path) {
		csv = fopen(csv_path, "w");
		if (!csv) {
			fprintf(stderr, "astray bench: %s: %s\n", csv_path, strerror(errno));
			return 2;
		}
		fprintf(csv, "map,scenario,sx,sy,gx,gy,expected,cost,expanded,us,ok\n");
	}
	printf("mode=%s topology=%s every=%d repeat=%d\n", mode_names[mode], grid_topology_name(topo),
	       every, repeat);
	struct totals tot = { 0 };
	int rc = 0;
	for (int i = 1; i < argc && rc == 0; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--every") == 0 || strcmp(a, "--repeat") == 0 || strcmp(a, "--topology") == 0 ||
		    strcmp(a, "--mode") == 0 || strcmp(a, "--csv") == 0) {
			i++;
			continue;
		}
		rc = bench_file(a, every, repeat, topo, mode, csv, &tot);
	}
	if (csv)
		fclose(csv);
	if (rc != 0) {
		free(tot.us);
		return rc;
	}
	if (mode == MODE_FALLBACK)
		printf("fallback sealed_goals=%ld fallback_mean_us=%.2f flood_mean_us=%.2f "
		       "fallback_vs_flood=%.3f\n",
		       tot.fb_runs, tot.fb_runs ? tot.fb_ns / 1000.0 / (double)tot.fb_runs : 0.0,
		       tot.fb_runs ? tot.flood_ns / 1000.0 / (double)tot.fb_runs : 0.0,
		       tot.flood_ns > 0 ? tot.fb_ns / tot.flood_ns : 0.0);
	if (mode == MODE_AUTO)
		printf("prepared files=%d prep_ms=%.2f (not in the times below)\n", nfiles,
		       tot.prep_ns / 1e6);
	qsort(tot.us, (size_t)tot.n, sizeof *tot.us, cmp_double);
	printf("total scenarios=%ld mismatches=%ld mean_us=%.2f median_us=%.2f p95_us=%.2f "
	       "mean_expanded=%.1f ns_per_expansion=%.1f\n",
	       tot.n, tot.mismatches, tot.n ? tot.ns / 1000.0 / (double)tot.n : 0.0,
	       percentile(tot.us, tot.n, 0.5), percentile(tot.us, tot.n, 0.95),
	       tot.n ? (double)tot.expanded / (double)tot.n : 0.0,
	       tot.expanded ? tot.ns / (double)tot.expanded : 0.0);
	free(tot.us);
	return tot.mismatches ? 1 : 0;
}
