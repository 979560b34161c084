/*
 * cmd_bench.c - `astray bench`: the A* core on Moving AI scenario files,
 * every answer checked, the searches alone timed.  This file reads the
 * files and prints; movingai.c parses and path.c searches.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "clock.h"
#include "cmd.h"
#include "help.h"
#include "grid.h"
#include "movingai.h"
#include "opt.h"
#include "path.h"
#include "prune.h"
#include "stats.h"
#include "textfile.h"

/* A .scen map name (at most 255 bytes) escaped: \xNN is 4 bytes per byte. */
#define BENCH_NAME_MAX (4 * 256 + 1)

enum bench_mode {
	MODE_AUTO,     /* dead ends pruned once per map where they pay, then path_find (jump
	                  point search where it applies) on the core */
	MODE_ASTAR,    /* plain A* everywhere */
	MODE_DIJKSTRA, /* weight 0 */
	MODE_FALLBACK, /* fallback on: reachable goals, then sealed goals vs a flood */
	MODE_JPS       /* jump point search wherever it applies, whatever the map (no pruning) */
};

struct bench_args {
	int every, repeat;
	enum grid_topology topo;
	int mode;                /* enum bench_mode */
	int clock;               /* 0 wall (monotonic), 1 cpu (clock_cpu_us) */
	const char *csv;         /* --csv FILE, or NULL */
};

static const char *const mode_choices[] = { "auto", "astar", "dijkstra", "fallback", "jps", NULL };
static const char *const clock_choices[] = { "wall", "cpu", NULL };

/* Any of the five: the Moving AI files' optimal lengths are for square8
 * (and so for diamond8, the same map turned); the others are checked
 * against astray's own Dijkstra. */
static bool parse_topology(const char *text, void *field)
{
	enum grid_topology t;
	if (!grid_topology_parse(text, &t))
		return false;
	*(enum grid_topology *)field = t;
	return true;
}

#define ARG(field) offsetof(struct bench_args, field)
static const struct opt bench_opts[] = {
	{ .name = "every", .kind = OPT_INT, .offset = ARG(every), .metavar = "K", .help = "run every K-th scenario (default 1: all)", .lo = 1, .hi = 1000000 },
	{ .name = "repeat", .kind = OPT_INT, .offset = ARG(repeat), .metavar = "R", .help =
	  "run a file's scenarios R times over, in R rounds, and time each scenario by its fastest run "
	  "(default 1).  On a busy or shared machine a slow spell then spoils one round of a query, not its "
	  "figure; the first line says repeat=R.  Each run after the first must give the same cost and "
	  "expansions (else a mismatch).  In fallback mode the sealed goals' two times are each the fastest "
	  "of R too.",
	  .lo = 1, .hi = 1000 },
	{ .name = "topology", .kind = OPT_CUSTOM, .offset = ARG(topo), .metavar = "T", .help =
	  "square8 (default): each cost is checked against the file's optimal length, |cost - optimal| <= "
	  "0.006 + 1e-5 * optimal.\n"
	  "square4: the files' optimal lengths are for square8, so each cost is checked against astray's own "
	  "Dijkstra (weight 0) on the same query instead; equal within 1e-9.\n"
	  "diamond8, diamond4: each map is loaded turned 45 degrees into diamond storage: square cell (u, v) "
	  "becomes the diamond with the same u and v, and the rest of the diamond rectangle is blocked; then "
	  "each cost is checked as for square8, against the file's optimal length, or square4, against "
	  "astray's own Dijkstra.\n"
	  "hex: each map is read as a hex map, cell (x, y) the hex in row y at position x (odd rows half a "
	  "cell to the right), and each cost is checked against astray's own Dijkstra.",
	  .parse = parse_topology, .want = "square8, square4, diamond8, diamond4 or hex" },
	{ .name = "mode", .kind = OPT_CHOICE, .offset = ARG(mode), .metavar = "M", .help =
	  "auto (default): each map is prepared once (prune.c): dead ends are peeled into trees hanging off "
	  "the map's core, kept when they hold at least a sixteenth of the passable cells; a query walks the "
	  "trees and runs path_find on the core alone (with no trees kept, on the whole map), which on uniform "
	  "square8 and square4 is jump point search where the map's jump points are sparse enough to pay "
	  "(docs/core.md), on hex, diamond4 and diamond8 jump point search where the map "
	  "has at least 4,096 passable cells, at most 2^20 cells, few forced turns (turn share under 0.15; "
	  "not asked on diamond8) and "
	  "terrain on at most one passable cell in 1,024, "
	  "but on any grid plain A* where it goes nearly straight, as on open maps of scattered small "
	  "obstacles of 4,096 passable cells or more, told by sample queries of plain A* at the map's "
	  "preparation; else plain A* (JPS expansions are jump points; each tree step counts one).  "
	  "Each file's line ends with prep_ms=P peeled=C dead_ends=D search=S: the preparation time, which is "
	  "not in the search times, the cells in the trees kept, the cells the peeling found, and the search "
	  "the choice made for queries on the core: jumps, plain (A*) or chains (a maze's junctions).\n"
	  "astar: plain A* for every query (expansions are cells).\n"
	  "dijkstra: weight 0.\n"
	  "fallback: the obstacle-penalty fallback on; the reachable goals must still get their optimal "
	  "cost.  Then each goal is sealed by blocking the cells around it, and the fallback search is timed "
	  "against a full Dijkstra flood of the start's region; their ratio is printed before the last line.\n"
	  "jps: jump point search on every uniform-cost query, whatever the map (no pruning): on square8 to "
	  "weigh auto's choice; on square4 without pruning; on hex, diamond4 and diamond8 also on the maps that "
	  "auto leaves to plain A* (docs/core.md), to set against astar.",
	  .choices = mode_choices },
	{ .name = "clock", .kind = OPT_CHOICE, .offset = ARG(clock), .metavar = "C", .help =
	  "wall (default): the monotonic clock.  cpu: the CPU time of this process (clock_cpu_us), so that "
	  "the time a shared machine gives to other programs does not count; the first line then ends with clock=cpu.",
	  .choices = clock_choices },
	{ .name = "csv", .kind = OPT_STRING, .offset = ARG(csv), .metavar = "FILE", .help = "write one row per scenario to FILE" },
};
#undef ARG

static void bench_usage(FILE *out);

static const struct opt_command bench_command = {
	"bench", bench_opts, (int)(sizeof bench_opts / sizeof bench_opts[0]), bench_usage
};

const struct opt_command *cmd_bench_opts(size_t *args_size)
{
	*args_size = sizeof(struct bench_args);
	return &bench_command;
}

static void bench_usage(FILE *out)
{
	help_usage(out, "bench",
		   (const char *const[]){ "SCEN... [--every K] [--repeat R] [--topology square8|square4|diamond8|diamond4|hex] "
					  "[--mode auto|astar|dijkstra|fallback|jps] [--clock wall|cpu] [--csv FILE]", NULL });
	help_text(out, 0,
		  "\nRuns the A* core on Moving AI scenario files (.scen), each with the .map of the same name "
		  "beside it, checks every cost and times the searches alone, not the loading.  Prints one line "
		  "per file, and in auto mode the total preparation time, then one final line:\n"
		  "  total scenarios=N mismatches=M mean_us=X median_us=Y p95_us=Z\n"
		  "        mean_expanded=E ns_per_expansion=K\n"
		  "and exits 1 if any scenario mismatches (2 on a usage or file error).");
	opt_print_help(out, &bench_command);
}

/* The clock --clock chose, in nanoseconds: the figures below are computed in ns. */
static double now_ns(bool cpu)
{
	return (cpu ? clock_cpu_us() : clock_us()) * 1e3;
}

/* The median and 95th percentile of n times (sorted in place), 0 for none. */
static struct stats_spread spread(double *us, long n)
{
	struct stats_spread s = { 0 };
	if (n > 0)
		stats_spread(us, (size_t)n, &s);
	return s;
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
		grid_set_cost(g, s[i].cell, 0);
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

/* One scenario file while it is benched: what bench_load made, and the
 * figures.  bench_map_fini frees whatever was made. */
struct bench_map {
	const char *scen_path;
	struct movingai_scenario *sc;
	int count;
	char map_path[4096];
	struct grid *g;
	int sq_w, sq_h;          /* the file's map size (g is larger when turned) */
	struct path_ctx *ctx;
	struct prune *pr;        /* auto mode only */
	double prep_ns;
	bool cpu;                /* --clock cpu */
	struct run *run;         /* one per scenario run: sc[j * every] */
	long runs, bad, expanded;
	double ns;
};

/* The grid cell of the file's cell (x, y): itself, or where it was turned to. */
static int map_cell(const struct bench_map *m, int x, int y)
{
	if (grid_is_diamond(m->g->topo))
		return movingai_turned_cell(m->g, m->sq_h, x, y);
	return grid_index(m->g, x, y);
}

static void bench_map_fini(struct bench_map *m)
{
	free(m->run);
	prune_destroy(m->pr);
	path_destroy(m->ctx);
	grid_destroy(m->g);
	free(m->sc);
}

/* Reads `path` whole; false after a message. */
static bool read_whole(const char *path, char **text, size_t *len)
{
	int err = textfile_read(path, text, len);
	if (err) {
		fprintf(stderr, "astray bench: ");
		cli_put_escaped(stderr, path);
		fprintf(stderr, ": %s\n", textfile_strerror(err));
	}
	return err == 0;
}

/* The scenarios, the map beside them (by its file name), the search
 * context and, in auto mode, the prepared map.  0, or 2 after a message. */
static int bench_load(struct bench_map *m, const struct bench_args *a)
{
	size_t len;
	char *text, err[DIAG_ERR_LEN];
	if (!read_whole(m->scen_path, &text, &len))
		return 2;
	m->count = movingai_parse_scen(text, len, &m->sc, err, sizeof err);
	free(text);
	if (m->count < 0) {
		fprintf(stderr, "astray bench: %s: %s\n", m->scen_path, err);
		return 2;
	}
	if (m->count == 0) {
		fprintf(stderr, "astray bench: %s: no scenarios\n", m->scen_path);
		return 2;
	}
	const char *slash = strrchr(m->scen_path, '/');
	int dirlen = slash ? (int)(slash - m->scen_path + 1) : 0;
	int k = snprintf(m->map_path, sizeof m->map_path, "%.*s%s", dirlen, m->scen_path, m->sc[0].map);
	if (k < 0 || (size_t)k >= sizeof m->map_path) {
		fprintf(stderr, "astray bench: %s: path too long\n", m->scen_path);
		return 2;
	}
	if (!read_whole(m->map_path, &text, &len))
		return 2;
	m->g = movingai_parse_map(text, len, err, sizeof err);
	free(text);
	if (!m->g) {
		fprintf(stderr, "astray bench: ");
		cli_put_escaped(stderr, m->map_path);
		fprintf(stderr, ": %s\n", err);
		return 2;
	}
	m->sq_w = m->g->w;
	m->sq_h = m->g->h;
	if (grid_is_diamond(a->topo)) {
		struct grid *d = movingai_turn_diamond(m->g, a->topo);
		grid_destroy(m->g);
		m->g = d;
		if (!m->g) {
			fprintf(stderr, "astray bench: out of memory for %s\n", m->map_path);
			return 2;
		}
	}
	m->g->topo = a->topo;
	m->ctx = path_create(m->g);
	if (!m->ctx) {
		fprintf(stderr, "astray bench: out of memory for ");
		cli_put_escaped(stderr, m->map_path);
		fputc('\n', stderr);
		return 2;
	}
	/* Auto mode prepares the map once (prune.c); the preparation is timed
	 * and reported apart from the searches. */
	if (a->mode == MODE_AUTO) {
		double t0 = now_ns(m->cpu);
		m->pr = prune_create(m->g, false);
		m->prep_ns = now_ns(m->cpu) - t0;
		if (!m->pr) {
			fprintf(stderr, "astray bench: out of memory for ");
		cli_put_escaped(stderr, m->map_path);
		fputc('\n', stderr);
			return 2;
		}
	}
	return 0;
}

/* The scenarios to run, every one checked against the map first; the
 * figures' array.  0, or 2 after a message. */
static int bench_check(struct bench_map *m, const struct bench_args *a)
{
	const struct movingai_scenario *sc = m->sc;
	for (int i = 0; i < m->count; i += a->every) {
		const struct movingai_scenario *s = &sc[i];
		if (s->map_w != m->sq_w || s->map_h != m->sq_h || strcmp(s->map, sc[0].map) != 0) {
			char one[BENCH_NAME_MAX], first[BENCH_NAME_MAX];
			cli_escape(one, sizeof one, s->map);
			cli_escape(first, sizeof first, sc[0].map);
			fprintf(stderr, "astray bench: %s: scenario %d names a %dx%d map %s, not %s\n",
				m->scen_path, i + 1, s->map_w, s->map_h, one, first);
			return 2;
		}
		m->runs++;
	}
	m->run = calloc((size_t)m->runs, sizeof *m->run);
	if (!m->run) {
		fprintf(stderr, "astray bench: out of memory\n");
		return 2;
	}
	return 0;
}

/* The first round's answer of scenario i: its cost checked (against the
 * file, or astray's own Dijkstra off square8) and its route walked. */
static void judge_first(struct bench_map *m, const struct bench_args *a, int i, struct run *u,
			const struct path_result *r)
{
	const struct movingai_scenario *s = &m->sc[i];
	int start = map_cell(m, s->sx, s->sy), goal = map_cell(m, s->gx, s->gy);
	u->reached = r->reached;
	u->cost = r->cost;
	u->expanded = r->expanded;
	u->expect = s->optimal;
	bool ok;
	if (a->topo == GRID_SQUARE8 || a->topo == GRID_DIAMOND8) {
		ok = r->status == PATH_FOUND && r->reached && movingai_cost_matches(r->cost, s->optimal);
	} else {
		struct path_options ref = path_options_default();
		ref.weight = 0.0;
		struct path_result d;
		path_find(m->ctx, start, goal, &ref, &d);
		u->expect = d.reached ? d.cost : -1.0;
		ok = r->reached == d.reached && (!d.reached || fabs(r->cost - d.cost) <= 1e-9);
	}
	/* The route itself must be a walk of adjacent passable cells. */
	if (ok && r->cells[0] == start) {
		for (int k = 1; k < r->len && ok; k++)
			ok = grid_is_adjacent(m->g, r->cells[k - 1], r->cells[k]) && grid_passable(m->g, r->cells[k]);
	} else {
		ok = false;
	}
	u->ok = ok;
	if (!ok) {
		m->bad++;
		if (m->bad <= 5)
			fprintf(stderr, "mismatch: %s #%d (%d,%d)->(%d,%d) expected %.6f got %.6f (%s)\n",
				m->scen_path, i + 1, s->sx, s->sy, s->gx, s->gy, u->expect,
				r->reached ? r->cost : -1.0, r->reached ? "reached" : "not reached");
	}
}

/* A later round's answer must repeat the first's. */
static void judge_again(struct bench_map *m, int i, int round, struct run *u, const struct path_result *r)
{
	const struct movingai_scenario *s = &m->sc[i];
	if (!u->ok || (r->reached == u->reached && r->cost == u->cost && r->expanded == u->expanded))
		return;
	u->ok = false;
	m->bad++;
	fprintf(stderr, "mismatch: %s #%d (%d,%d)->(%d,%d) round %d gave cost %.6f "
		"and %ld expansions, round 1 %.6f and %ld\n",
		m->scen_path, i + 1, s->sx, s->sy, s->gx, s->gy, round + 1, r->reached ? r->cost : -1.0,
		r->expanded, u->reached ? u->cost : -1.0, u->expanded);
}

/* Fallback mode: the goal sealed off, the fallback search timed against a
 * flood of the start's region; the map is restored after. */
static void time_sealed(struct bench_map *m, const struct path_options *opt, int i, int round, struct run *u)
{
	const struct movingai_scenario *s = &m->sc[i];
	int start = map_cell(m, s->sx, s->sy), goal = map_cell(m, s->gx, s->gy);
	int cells[GRID_MAX_NEIGHBOURS], n;
	uint8_t saved[GRID_MAX_NEIGHBOURS];
	if (!seal(m->g, start, goal, cells, saved, &n))
		return;
	struct path_result fr;
	double t0 = now_ns(m->cpu);
	path_find(m->ctx, start, goal, opt, &fr);
	double t1 = now_ns(m->cpu);
	path_flood(m->ctx, start, NULL, false, 0.0);
	double t2 = now_ns(m->cpu);
	if (round == 0 || t1 - t0 < u->fb_ns)
		u->fb_ns = t1 - t0;
	if (round == 0 || t2 - t1 < u->flood_ns)
		u->flood_ns = t2 - t1;
	u->sealed = true;
	if (round == 0 && (fr.status != PATH_FALLBACK || fr.reached || fr.blocked_crossed < 1)) {
		m->bad++;
		fprintf(stderr, "mismatch: %s #%d sealed goal: status %d blocked %d\n", m->scen_path, i + 1,
			(int)fr.status, fr.blocked_crossed);
	}
	for (int k = 0; k < n; k++)
		grid_set_cost(m->g, cells[k], saved[k]);
}

/* Round by round, so that a slow spell of the machine meets one run of a
 * query, not all of them; each query keeps its fastest time. */
static void bench_time(struct bench_map *m, const struct bench_args *a)
{
	struct path_options opt = path_options_default();
	if (a->mode == MODE_ASTAR)
		opt.plain_astar = true;
	else if (a->mode == MODE_DIJKSTRA)
		opt.weight = 0.0;
	else if (a->mode == MODE_FALLBACK)
		opt.fallback = true;
	else if (a->mode == MODE_JPS)
		opt.jps_always = true;
	for (int round = 0; round < a->repeat; round++) {
		for (long j = 0; j < m->runs; j++) {
			struct run *u = &m->run[j];
			const int i = (int)(j * a->every);
			const struct movingai_scenario *s = &m->sc[i];
			int start = map_cell(m, s->sx, s->sy), goal = map_cell(m, s->gx, s->gy);
			struct path_result r;
			double t0 = now_ns(m->cpu);
			if (m->pr)
				prune_find(m->pr, start, goal, &opt, &r);
			else
				path_find(m->ctx, start, goal, &opt, &r);
			double dt = now_ns(m->cpu) - t0;
			if (round == 0 || dt < u->ns)
				u->ns = dt;
			if (round > 0)
				judge_again(m, i, round, u, &r);
			else
				judge_first(m, a, i, u, &r);
			if (a->mode == MODE_FALLBACK)
				time_sealed(m, &opt, i, round, u);
		}
	}
}

/* The file's figures into the totals, its CSV rows and its line.  0, or 2
 * after a message. */
static int bench_report(struct bench_map *m, const struct bench_args *a, FILE *csv, struct totals *tot)
{
	const struct movingai_scenario *sc = m->sc;
	long first = tot->n;
	for (long j = 0; j < m->runs; j++) {
		const struct run *u = &m->run[j];
		const int i = (int)(j * a->every);
		const struct movingai_scenario *s = &sc[i];
		m->ns += u->ns;
		m->expanded += u->expanded;
		if (u->sealed) {
			tot->fb_ns += u->fb_ns;
			tot->flood_ns += u->flood_ns;
			tot->fb_runs++;
		}
		if (!push_time(tot, u->ns / 1000.0)) {
			fprintf(stderr, "astray bench: out of memory\n");
			return 2;
		}
		if (csv) {
			cli_csv_field(csv, sc[0].map);
			fprintf(csv, ",%d,%d,%d,%d,%d,%.8f,%.8f,%ld,%.3f,%d\n", i + 1, s->sx, s->sy,
				s->gx, s->gy, u->expect, u->reached ? u->cost : -1.0, u->expanded, u->ns / 1000.0,
				u->ok ? 1 : 0);
		}
	}
	long runs = m->runs;
	double ns = m->ns;
	struct stats_spread sp = spread(tot->us + first, tot->n - first);
	char name[BENCH_NAME_MAX];
	cli_escape(name, sizeof name, sc[0].map);
	printf("%s scenarios=%ld mismatches=%ld mean_us=%.2f median_us=%.2f p95_us=%.2f "
	       "mean_expanded=%.1f ns_per_expansion=%.1f",
	       name, runs, m->bad, runs ? ns / 1000.0 / (double)runs : 0.0, sp.p50, sp.p95,
	       runs ? (double)m->expanded / (double)runs : 0.0, m->expanded ? ns / (double)m->expanded : 0.0);
	if (m->pr)
		printf(" prep_ms=%.2f peeled=%d dead_ends=%d search=%s", m->prep_ns / 1e6, prune_peeled(m->pr),
		       prune_dead_ends(m->pr), prune_auto_search(m->pr));
	printf("\n");
	fflush(stdout);
	tot->mismatches += m->bad;
	tot->ns += ns;
	tot->expanded += m->expanded;
	tot->prep_ns += m->prep_ns;
	return 0;
}

/* One scenario file: load, check, time, report; 0, or 2 after a message. */
static int bench_file(const char *scen_path, const struct bench_args *a, FILE *csv, struct totals *tot)
{
	struct bench_map m;
	memset(&m, 0, sizeof m);
	m.scen_path = scen_path;
	m.cpu = a->clock == 1;
	int status = bench_load(&m, a);
	if (status == 0)
		status = bench_check(&m, a);
	if (status == 0) {
		bench_time(&m, a);
		status = bench_report(&m, a, csv, tot);
	}
	bench_map_fini(&m);
	return status;
}

static void print_totals(const struct bench_args *a, int nfiles, struct totals *tot)
{
	if (a->mode == MODE_FALLBACK)
		printf("fallback sealed_goals=%ld fallback_mean_us=%.2f flood_mean_us=%.2f "
		       "fallback_vs_flood=%.3f\n",
		       tot->fb_runs, tot->fb_runs ? tot->fb_ns / 1000.0 / (double)tot->fb_runs : 0.0,
		       tot->fb_runs ? tot->flood_ns / 1000.0 / (double)tot->fb_runs : 0.0,
		       tot->flood_ns > 0 ? tot->fb_ns / tot->flood_ns : 0.0);
	if (a->mode == MODE_AUTO)
		printf("prepared files=%d prep_ms=%.2f (not in the times below)\n", nfiles, tot->prep_ns / 1e6);
	struct stats_spread sp = spread(tot->us, tot->n);
	printf("total scenarios=%ld mismatches=%ld mean_us=%.2f median_us=%.2f p95_us=%.2f "
	       "mean_expanded=%.1f ns_per_expansion=%.1f\n",
	       tot->n, tot->mismatches, tot->n ? tot->ns / 1000.0 / (double)tot->n : 0.0, sp.p50, sp.p95,
	       tot->n ? (double)tot->expanded / (double)tot->n : 0.0,
	       tot->expanded ? tot->ns / (double)tot->expanded : 0.0);
}

int cmd_bench(int argc, char **argv)
{
	struct bench_args a = { .every = 1, .repeat = 1, .topo = GRID_SQUARE8, .mode = MODE_AUTO };
	struct opt_list files = { 0 };
	int status = opt_parse(&bench_command, argc, argv, &a, &files, NULL);
	if (status < 0 && files.n == 0) {
		bench_usage(stderr);
		status = 2;
	}
	FILE *csv = NULL;
	if (status < 0 && a.csv) {
		csv = fopen(a.csv, "w");
		if (!csv) {
			fprintf(stderr, "astray bench: %s: %s\n", a.csv, strerror(errno));
			status = 2;
		} else {
			fprintf(csv, "map,scenario,sx,sy,gx,gy,expected,cost,expanded,us,ok\n");
		}
	}
	if (status >= 0) {
		opt_list_fini(&files);
		return status;
	}
	printf("mode=%s topology=%s every=%d repeat=%d%s\n", mode_choices[a.mode], grid_topology_name(a.topo),
	       a.every, a.repeat, a.clock == 1 ? " clock=cpu" : "");
	struct totals tot = { 0 };
	status = 0;
	for (int i = 0; i < files.n && status == 0; i++)
		status = bench_file(files.v[i], &a, csv, &tot);
	/* a CSV that could not be written whole is a failure, never exit 0 */
	bool csv_bad = csv && (fflush(csv) != 0 || ferror(csv));
	int csv_errno = errno;
	if (csv && fclose(csv) != 0 && !csv_bad) {
		csv_bad = true;
		csv_errno = errno;
	}
	if (status == 0) {
		print_totals(&a, files.n, &tot);
		status = tot.mismatches ? 1 : 0;
	}
	if (csv_bad) {
		fprintf(stderr, "astray bench: %s: cannot write the CSV: %s\n", a.csv,
			csv_errno ? strerror(csv_errno) : "write error");
		status = status ? status : 1;
	}
	free(tot.us);
	opt_list_fini(&files);
	return status;
}
