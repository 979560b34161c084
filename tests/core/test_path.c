/* test_path.c - the A* core against an independent Dijkstra, and the fallback rules. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "testrand.h"

#include "grid.h"
#include "path.h"
#include "grid_text.h"


/* Plain O(n^2) Dijkstra over grid_neighbours: the reference. dist[] gets
 * the cost from src of every cell (-1 unreached). */
static void ref_dijkstra(const struct grid *g, int src, bool cc, double *dist)
{
	int n = g->w * g->h;
	bool *done = calloc((size_t)n, 1);
	assert_non_null(done);
	for (int i = 0; i < n; i++)
		dist[i] = -1;
	dist[src] = 0;
	for (;;) {
		int u = -1;
		for (int i = 0; i < n; i++)
			if (!done[i] && dist[i] >= 0 && (u < 0 || dist[i] < dist[u]))
				u = i;
		if (u < 0)
			break;
		done[u] = true;
		struct grid_step s[GRID_MAX_NEIGHBOURS];
		int k = grid_neighbours(g, u, cc, s);
		for (int i = 0; i < k; i++) {
			double nd = dist[u] + s[i].step * g->cost[s[i].cell];
			if (dist[s[i].cell] < 0 || nd < dist[s[i].cell] - 1e-12)
				dist[s[i].cell] = nd;
		}
	}
	free(done);
}

/* The walk is legal, starts at start, and its step costs add up to r->cost. */
static void check_walk(const struct grid *g, const struct path_result *r, int start, bool cc)
{
	assert_true(r->len >= 1);
	assert_int_equal(r->cells[0], start);
	assert_int_equal(r->end, r->cells[r->len - 1]);
	assert_int_equal(r->steps, r->len - 1);
	double sum = 0;
	for (int i = 1; i < r->len; i++) {
		struct grid_step s[GRID_MAX_NEIGHBOURS];
		int k = grid_neighbours(g, r->cells[i - 1], cc, s), j;
		for (j = 0; j < k; j++)
			if (s[j].cell == r->cells[i])
				break;
		assert_true(j < k);
		sum += s[j].step * g->cost[r->cells[i]];
	}
	assert_true(fabs(sum - r->cost) < 1e-9);
}

static struct grid *random_grid(uint32_t *seed, enum grid_topology t, bool terrain, int wall_pct)
{
	int w = 3 + (int)(rnd(seed) % 10), h = 3 + (int)(rnd(seed) % 10);
	struct grid *g = grid_create(w, h, t);
	assert_non_null(g);
	for (int i = 0; i < w * h; i++) {
		int r = (int)(rnd(seed) % 100);
		grid_set_cost(g, i, r < wall_pct ? 0 : !terrain ? 1 : (uint8_t)(1 + rnd(seed) % 3));
	}
	return g;
}

/* A* (and JPS, and weighted A* within its bound) against the reference on
 * 1000 random maps per topology. */
static void run_random(enum grid_topology t, uint32_t seed, bool terrain)
{
	int checked = 0, reached = 0;
	for (int m = 0; m < 1000; m++) {
		struct grid *g = random_grid(&seed, t, terrain, 25);
		int n = g->w * g->h;
		struct path_ctx *ctx = path_create(g);
		assert_non_null(ctx);
		double *dist = malloc((size_t)n * sizeof *dist);
		int start = (int)(rnd(&seed) % (unsigned)n), goal = (int)(rnd(&seed) % (unsigned)n);
		grid_set_cost(g, start, 1);
		bool cc = (t == GRID_SQUARE8 || t == GRID_DIAMOND8) && m % 7 == 3;
		ref_dijkstra(g, start, cc, dist);
		struct path_options opt = path_options_default();
		opt.corner_cutting = cc;
		struct path_result r;
		enum path_status st = path_find(ctx, start, goal, &opt, &r);
		if (dist[goal] < 0) {
			assert_int_equal(st, PATH_NO_ROUTE);
			assert_int_equal(r.len, 1);
			assert_false(r.reached);
		} else {
			assert_int_equal(st, PATH_FOUND);
			assert_true(r.reached);
			assert_true(fabs(r.cost - dist[goal]) < 1e-9);
			check_walk(g, &r, start, cc);
			reached++;
			/* jump point search wherever it applies agrees */
			opt.jps_always = true;
			path_find(ctx, start, goal, &opt, &r);
			assert_true(fabs(r.cost - dist[goal]) < 1e-9);
			check_walk(g, &r, start, cc);
			opt.jps_always = false;
			/* plain A* and Dijkstra agree */
			opt.plain_astar = true;
			path_find(ctx, start, goal, &opt, &r);
			assert_true(fabs(r.cost - dist[goal]) < 1e-9);
			opt.weight = 0;
			path_find(ctx, start, goal, &opt, &r);
			assert_true(fabs(r.cost - dist[goal]) < 1e-9);
			/* weighted A* stays within its bound */
			opt.weight = 2.5;
			path_find(ctx, start, goal, &opt, &r);
			assert_true(r.reached);
			assert_true(r.cost <= 2.5 * dist[goal] + 1e-9);
			check_walk(g, &r, start, cc);
			/* the fallback on a reachable goal is exactly optimal */
			opt = path_options_default();
			opt.corner_cutting = cc;
			opt.fallback = true;
			path_find(ctx, start, goal, &opt, &r);
			assert_int_equal(r.status, PATH_FOUND);
			assert_true(fabs(r.cost - dist[goal]) < 1e-9);
			assert_int_equal(r.blocked_crossed, 0);
		}
		checked++;
		free(dist);
		path_destroy(ctx);
		grid_destroy(g);
	}
	assert_int_equal(checked, 1000);
	assert_true(reached > 300); /* the maps are not all disconnected */
}

/* The grid's passability bits say what its costs say, in rows and turned. */
static void assert_bits_match(const struct grid *g)
{
	for (int y = 0; y < g->h; y++)
		for (int x = 0; x < g->w; x++) {
			const bool open = g->cost[y * g->w + x] != 0;
			assert_int_equal(open, (int)(g->rows[y * g->row_words + x / 64] >> (x % 64) & 1));
			assert_int_equal(open, (int)(g->cols[x * g->col_words + y / 64] >> (y % 64) & 1));
		}
	for (int y = 0; y < g->h; y++) /* nothing past the width */
		if (g->w % 64)
			assert_int_equal(g->rows[y * g->row_words + g->row_words - 1] >> (g->w % 64), 0);
}

/*
 * Jump point search on maps wider and taller than a 64-bit word (the bit
 * scans cross word boundaries; widths and heights on both sides of 64 and
 * 128), rooms with scattered pillars, cells changed in place between
 * queries (a door shut, a wall dug): every cost equal to plain A*'s.
 */
static void jps_wide_and_changing(enum grid_topology t, uint32_t seed)
{
	static const int sizes[] = { 63, 64, 65, 127, 128, 129, 200 };
	int found = 0;
	long jps_total = 0, plain_total = 0;
	for (int m = 0; m < 14; m++) {
		const int w = sizes[m % 7], h = sizes[(m * 3 + 1) % 7];
		struct grid *g = grid_create(w, h, t);
		assert_non_null(g);
		for (int i = 0; i < w * h; i++) {
			const int x = i % w, y = i / w;
			const bool wall = (x % 17 == 0 && y % 9 != 4) || (y % 13 == 0 && x % 11 != 5) ||
					  rnd(&seed) % 100 < (unsigned)(m % 3) * 3;
			grid_set_cost(g, i, wall ? 0 : 1);
		}
		assert_bits_match(g);
		struct path_ctx *ctx = path_create(g);
		assert_non_null(ctx);
		for (int q = 0; q < 40; q++) {
			for (int k = 0; k < 30; k++) /* shut or open some cells in place */
				grid_set_cost(g, (int)(rnd(&seed) % (unsigned)(w * h)), rnd(&seed) % 4 ? 1 : 0);
			const int start = (int)(rnd(&seed) % (unsigned)(w * h)), goal = (int)(rnd(&seed) % (unsigned)(w * h));
			grid_set_cost(g, start, 1);
			grid_set_cost(g, goal, 1);
			struct path_options opt = path_options_default();
			opt.jps_always = true;
			struct path_result r;
			const enum path_status st = path_find(ctx, start, goal, &opt, &r);
			const double jps_cost = r.cost;
			const long jps_expanded = r.expanded;
			const int end = r.cells[r.len - 1];
			if (st == PATH_FOUND)
				check_walk(g, &r, start, false); /* every step a legal move, the cost its sum */
			opt.jps_always = false;
			opt.plain_astar = true;
			const enum path_status st2 = path_find(ctx, start, goal, &opt, &r);
			assert_int_equal(st, st2);
			if (st == PATH_FOUND) {
				assert_int_equal(end, goal);
				assert_true(fabs(jps_cost - r.cost) < 1e-9);
				/* it did jump: on square8 on every long route; on square4,
				 * where A*'s Manhattan bound is often exact, overall */
				if (r.steps > 20 && t == GRID_SQUARE8)
					assert_true(jps_expanded < r.expanded);
				jps_total += jps_expanded;
				plain_total += r.expanded;
				found++;
			}
		}
		assert_bits_match(g);
		path_destroy(ctx);
		grid_destroy(g);
	}
	assert_true(found > 300);
	assert_true(jps_total * 2 < plain_total);
}

static void test_jps_wide_and_changing(void **state)
{
	(void)state;
	jps_wide_and_changing(GRID_SQUARE8, 4242);
}

/* The same for square4's jump point search (jps4_search): the horizontal
 * jumps on the bit rows, the vertical ones cell by cell. */
static void test_jps4_wide_and_changing(void **state)
{
	(void)state;
	jps_wide_and_changing(GRID_SQUARE4, 4243);
}

/*
 * Square JPS passes cells through (path.c's jps_through: square8's
 * diagonal jumps, square4's vertical ones; their straight jump points
 * relaxed at once, the cell recorded but never queued) on mid-sized maps,
 * where those jumps cross many such cells, meet ones recorded before
 * (cheaper, dearer, or queued jump points), and routes pass through them:
 * 600 maps of 16 to 47 cells a side, walls 5% to 35% and pillars, several
 * queries each with cells changed between them.  Every cost is the
 * reference Dijkstra's, every walk legal, and the cells `astray path
 * --explored` shows are the jump points expanded.
 */
static void jps_through_random(enum grid_topology t, uint32_t seed)
{
	int found = 0, none = 0;
	for (int m = 0; m < 600; m++) {
		const int w = 16 + (int)(rnd(&seed) % 32), h = 16 + (int)(rnd(&seed) % 32), n = w * h;
		const unsigned pct = 5 + rnd(&seed) % 31;
		struct grid *g = grid_create(w, h, t);
		assert_non_null(g);
		for (int i = 0; i < n; i++) {
			const int x = i % w, y = i / w;
			const bool pillar = m % 2 && x % 6 == 3 && y % 5 == 2;
			grid_set_cost(g, i, pillar || rnd(&seed) % 100 < pct ? 0 : 1);
		}
		struct path_ctx *ctx = path_create(g);
		assert_non_null(ctx);
		double *dist = malloc((size_t)n * sizeof *dist);
		assert_non_null(dist);
		for (int q = 0; q < 4; q++) {
			for (int k = 0; k < 6; k++)
				grid_set_cost(g, (int)(rnd(&seed) % (unsigned)n), rnd(&seed) % 3 ? 1 : 0);
			const int start = (int)(rnd(&seed) % (unsigned)n), goal = (int)(rnd(&seed) % (unsigned)n);
			grid_set_cost(g, start, 1);
			grid_set_cost(g, goal, 1);
			ref_dijkstra(g, start, false, dist);
			struct path_options opt = path_options_default();
			opt.jps_always = true;
			struct path_result r;
			const enum path_status st = path_find(ctx, start, goal, &opt, &r);
			if (dist[goal] < 0) {
				assert_int_equal(st, PATH_NO_ROUTE);
				none++;
				continue;
			}
			assert_int_equal(st, PATH_FOUND);
			assert_int_equal(r.cells[r.len - 1], goal);
			assert_true(fabs(r.cost - dist[goal]) < 1e-9);
			check_walk(g, &r, start, false);
			/* the cells passed through are not counted or shown as expanded
			 * (a query from a cell to itself searches nothing) */
			long shown = 0;
			for (int c = 0; c < n; c++)
				shown += path_was_expanded(ctx, c);
			if (start != goal)
				assert_int_equal(shown, r.expanded);
			found++;
		}
		free(dist);
		path_destroy(ctx);
		grid_destroy(g);
	}
	assert_true(found > 1500);
	assert_true(none > 20);
}

static void test_jps_diagonal_through(void **state)
{
	(void)state;
	jps_through_random(GRID_SQUARE8, 9090);
}

static void test_jps4_vertical_through(void **state)
{
	(void)state;
	jps_through_random(GRID_SQUARE4, 9091);
}

/* square4 JPS on small random maps, every cell plain (so JPS's answer is
 * never handed back to plain A*), some cells changed in place between
 * queries: the same cost as plain A* and a legal walk. */
static void test_jps4_random(void **state)
{
	(void)state;
	uint32_t seed = 99;
	int found = 0;
	for (int m = 0; m < 400; m++) {
		struct grid *g = random_grid(&seed, GRID_SQUARE4, false, 10 + m % 30);
		const int n = g->w * g->h;
		struct path_ctx *ctx = path_create(g);
		assert_non_null(ctx);
		for (int q = 0; q < 5; q++) {
			grid_set_cost(g, (int)(rnd(&seed) % (unsigned)n), rnd(&seed) % 3 ? 1 : 0);
			const int start = (int)(rnd(&seed) % (unsigned)n), goal = (int)(rnd(&seed) % (unsigned)n);
			grid_set_cost(g, start, 1);
			struct path_options opt = path_options_default();
			opt.jps_always = true;
			struct path_result r;
			const enum path_status st = path_find(ctx, start, goal, &opt, &r);
			const double cost = r.cost;
			if (st == PATH_FOUND)
				check_walk(g, &r, start, false);
			opt.jps_always = false;
			opt.plain_astar = true;
			assert_int_equal(path_find(ctx, start, goal, &opt, &r), st);
			if (st == PATH_FOUND) {
				assert_true(fabs(cost - r.cost) < 1e-9);
				found++;
			}
		}
		path_destroy(ctx);
		grid_destroy(g);
	}
	assert_true(found > 800);
}

/* The default search picks JPS where jump points are sparse (rooms) and
 * plain A* where they are dense (scattered pillars), on square8 and (rules
 * 17) square4; both exact. */
static void test_jps_choice(void **state)
{
	(void)state;
	uint32_t seed = 77;
	int redrawn = 0;
	for (int k = 0; k < 4; k++) {
		const enum grid_topology topo = k < 2 ? GRID_SQUARE8 : GRID_SQUARE4;
		const int dense = k % 2;
		struct grid *g = grid_create(150, 90, topo);
		assert_non_null(g);
		for (int i = 0; i < 150 * 90; i++) {
			const int x = i % 150, y = i / 150;
			const bool wall = dense ? rnd(&seed) % 100 < 25 : (x % 30 == 0 && y % 20 != 10) || (y % 30 == 0 && x % 25 != 12);
			grid_set_cost(g, i, wall ? 0 : 1);
		}
		const int start = 1 * 150 + 1, goal = 88 * 150 + 148;
		grid_set_cost(g, start, 1);
		grid_set_cost(g, goal, 1);
		struct path_ctx *ctx = path_create(g);
		assert_non_null(ctx);
		struct path_options opt = path_options_default();
		struct path_result r;
		if (path_find(ctx, start, goal, &opt, &r) != PATH_FOUND) { /* a dense map may wall the corner off */
			/* only a dense map is drawn again (the open ones have a route),
			 * and not for ever */
			assert_true(dense && ++redrawn < 50);
			path_destroy(ctx);
			grid_destroy(g);
			k--;
			continue;
		}
		const double cost = r.cost;
		const long auto_expanded = r.expanded;
		opt.plain_astar = true;
		path_find(ctx, start, goal, &opt, &r);
		assert_true(fabs(cost - r.cost) < 1e-9);
		if (dense)
			assert_int_equal(auto_expanded, r.expanded); /* the same search: plain A* */
		else
			assert_true(auto_expanded * 4 < r.expanded); /* jump points, far fewer than cells */
		path_destroy(ctx);
		grid_destroy(g);
	}
}

/*
 * The auto choice's second rule (rules 20): where plain A* goes nearly
 * straight (open maps of scattered pillars) every grid searches plainly,
 * even where the jump points are sparse; a map of rooms keeps its jump
 * search; a map under 4,096 passable cells keeps the first rule alone.
 * Each auto answer has plain A*'s cost; "plainly" is told by the same
 * expansions, "jumps" by far fewer.
 */
static void test_straight_choice(void **state)
{
	(void)state;
	static const enum grid_topology topos[] = { GRID_SQUARE8, GRID_SQUARE4, GRID_HEX, GRID_DIAMOND4,
						    GRID_DIAMOND8 };
	uint32_t seed = 91;
	for (size_t t = 0; t < sizeof topos / sizeof topos[0]; t++) {
		for (int kind = 0; kind < 3; kind++) { /* pillars, rooms, small pillars */
			const int w = kind == 2 ? 60 : 160, h = kind == 2 ? 50 : 120;
			struct grid *g = grid_create(w, h, topos[t]);
			assert_non_null(g);
			for (int i = 0; i < w * h; i++) {
				const int x = i % w, y = i / w;
				const bool wall = kind == 1 ? (x % 32 == 0 && y % 24 != 12) || (y % 24 == 0 && x % 32 != 16)
							    : rnd(&seed) % 1000 < 8;
				grid_set_cost(g, i, wall ? 0 : 1);
			}
			struct path_ctx *ctx = path_create(g);
			assert_non_null(ctx);
			long auto_sum = 0, plain_sum = 0;
			for (int q = 0; q < 40; q++) {
				const int start = (int)(rnd(&seed) % (unsigned)(w * h)),
					  goal = (int)(rnd(&seed) % (unsigned)(w * h));
				if (!g->cost[start] || !g->cost[goal] || start == goal)
					continue;
				struct path_options opt = path_options_default();
				struct path_result r;
				if (path_find(ctx, start, goal, &opt, &r) != PATH_FOUND)
					continue;
				const double cost = r.cost;
				auto_sum += r.expanded;
				opt.plain_astar = true;
				assert_int_equal(path_find(ctx, start, goal, &opt, &r), PATH_FOUND);
				assert_true(fabs(cost - r.cost) < 1e-9);
				plain_sum += r.expanded;
			}
			assert_true(plain_sum > 1000);
			const bool square = topos[t] == GRID_SQUARE8 || topos[t] == GRID_SQUARE4;
			assert_string_equal(path_auto_search(ctx), kind == 1 || (kind == 2 && square) ? "jumps" : "plain");
			if (kind == 0)
				assert_int_equal(auto_sum, plain_sum); /* plainly */
			else if (kind == 1 || topos[t] == GRID_SQUARE8 || topos[t] == GRID_SQUARE4)
				assert_true(auto_sum * 2 < plain_sum); /* jumps (hex and diamond: not under 4,096) */
			else
				assert_int_equal(auto_sum, plain_sum);
			path_destroy(ctx);
			grid_destroy(g);
		}
	}
}

static void test_random_square4(void **state) { (void)state; run_random(GRID_SQUARE4, 1, true); }
static void test_random_square8(void **state) { (void)state; run_random(GRID_SQUARE8, 2, true); }
static void test_random_hex(void **state) { (void)state; run_random(GRID_HEX, 3, true); }
static void test_random_diamond4(void **state) { (void)state; run_random(GRID_DIAMOND4, 5, true); }
static void test_random_diamond8(void **state) { (void)state; run_random(GRID_DIAMOND8, 6, true); }
/* uniform cost: the jump point search path */
static void test_random_square8_uniform(void **state) { (void)state; run_random(GRID_SQUARE8, 4, false); }

/* Lexicographic reference for the fallback: fewest blocked cells entered
 * (the start excepted), then least travel.  Steps into or out of a blocked
 * cell ignore corners and cost the plain step (no terrain multiplier). */
static void ref_fallback(const struct grid *g, int src, bool cc, int *count, double *travel)
{
	int n = g->w * g->h;
	bool *done = calloc((size_t)n, 1);
	for (int i = 0; i < n; i++)
		count[i] = -1;
	count[src] = 0;
	travel[src] = 0;
	for (;;) {
		int u = -1;
		for (int i = 0; i < n; i++)
			if (!done[i] && count[i] >= 0 &&
			    (u < 0 || count[i] < count[u] || (count[i] == count[u] && travel[i] < travel[u])))
				u = i;
		if (u < 0)
			break;
		done[u] = true;
		struct grid_step s[GRID_MAX_NEIGHBOURS];
		int k = grid_adjacent(g, u, s);
		for (int i = 0; i < k; i++) {
			int v = s[i].cell;
			bool ub = g->cost[u] == 0, vb = g->cost[v] == 0;
			if (!ub && !vb && (g->topo == GRID_SQUARE8 || g->topo == GRID_DIAMOND8) && !cc && s[i].step > 1.0) {
				struct grid_step t[GRID_MAX_NEIGHBOURS];
				int kk = grid_neighbours(g, u, false, t), j;
				for (j = 0; j < kk && t[j].cell != v; j++)
					;
				if (j == kk)
					continue;
			}
			int nc = count[u] + (vb ? 1 : 0);
			double nt = travel[u] + s[i].step * (vb ? 1 : g->cost[v]);
			if (count[v] < 0 || nc < count[v] || (nc == count[v] && nt < travel[v] - 1e-12)) {
				count[v] = nc;
				travel[v] = nt;
			}
		}
	}
	free(done);
}

static void run_fallback_random(enum grid_topology t, uint32_t seed)
{
	for (int m = 0; m < 300; m++) {
		struct grid *g = random_grid(&seed, t, true, 45);
		int n = g->w * g->h;
		struct path_ctx *ctx = path_create(g);
		int *count = malloc((size_t)n * sizeof *count);
		double *travel = malloc((size_t)n * sizeof *travel), *dist = malloc((size_t)n * sizeof *dist);
		int start = (int)(rnd(&seed) % (unsigned)n), goal = (int)(rnd(&seed) % (unsigned)n);
		grid_set_cost(g, start, 1);
		ref_fallback(g, start, false, count, travel);
		ref_dijkstra(g, start, false, dist);
		struct path_options opt = path_options_default();
		opt.fallback = true;
		struct path_result r;
		path_find(ctx, start, goal, &opt, &r);
		assert_int_equal(r.blocked_crossed, count[goal]);
		/* the walk never enters a blocked cell and is an optimal walk to its end */
		check_walk(g, &r, start, false);
		for (int i = 1; i < r.len; i++)
			assert_true(g->cost[r.cells[i]] != 0);
		assert_true(fabs(r.cost - dist[r.end]) < 1e-9);
		if (count[goal] == 0) {
			assert_int_equal(r.status, PATH_FOUND);
			assert_true(r.reached);
		} else {
			assert_int_equal(r.status, PATH_FALLBACK);
			assert_false(r.reached);
		}
		free(count);
		free(travel);
		free(dist);
		path_destroy(ctx);
		grid_destroy(g);
	}
}

/* Reference for a fallback with a finite P and solid cells: Dijkstra
 * where a blocked cell costs its plain step plus P to enter, a solid one
 * cannot be entered, and passable cells keep the corner rule between them. */
static void ref_penalty(const struct grid *g, int src, const uint8_t *solid, double p, double *dist)
{
	int n = g->w * g->h;
	bool *done = calloc((size_t)n, 1);
	assert_non_null(done);
	for (int i = 0; i < n; i++)
		dist[i] = -1;
	dist[src] = 0;
	for (;;) {
		int u = -1;
		for (int i = 0; i < n; i++)
			if (!done[i] && dist[i] >= 0 && (u < 0 || dist[i] < dist[u]))
				u = i;
		if (u < 0)
			break;
		done[u] = true;
		struct grid_step s[GRID_MAX_NEIGHBOURS];
		int k = grid_adjacent(g, u, s);
		for (int i = 0; i < k; i++) {
			int v = s[i].cell;
			bool ub = u != src && g->cost[u] == 0, vb = g->cost[v] == 0;
			if (vb && solid[v])
				continue;
			if (!ub && !vb && s[i].step > 1.0) {
				struct grid_step t[GRID_MAX_NEIGHBOURS];
				int kk = grid_neighbours(g, u, false, t), j;
				for (j = 0; j < kk && t[j].cell != v; j++)
					;
				if (j == kk)
					continue;
			}
			double nd = dist[u] + (vb ? s[i].step + p : s[i].step * g->cost[v]);
			if (dist[v] < 0 || nd < dist[v] - 1e-12)
				dist[v] = nd;
		}
	}
	free(done);
}

/* A finite P with solid cells (a digging monster's search) against the
 * reference on random maps: the walk is an optimal route to its end, the
 * first blocked cell is entered from it at step + P and is never solid,
 * and a goal solid cells wall off has no route. */
static void run_solid_random(enum grid_topology t, uint32_t seed)
{
	for (int m = 0; m < 300; m++) {
		struct grid *g = random_grid(&seed, t, true, 40);
		int n = g->w * g->h;
		uint8_t *solid = malloc((size_t)n);
		double *dist = malloc((size_t)n * sizeof *dist);
		for (int i = 0; i < n; i++)
			solid[i] = !g->cost[i] && rnd(&seed) % 2;
		int start = (int)(rnd(&seed) % (unsigned)n), goal = (int)(rnd(&seed) % (unsigned)n);
		grid_set_cost(g, start, 1);
		grid_set_cost(g, goal, 1);
		solid[start] = solid[goal] = 0;
		double p = 0.5 + (double)(rnd(&seed) % 8);
		ref_penalty(g, start, solid, p, dist);
		struct path_ctx *ctx = path_create(g);
		struct path_options opt = path_options_default();
		opt.fallback = true;
		opt.penalty = p;
		opt.solid = solid;
		struct path_result r;
		enum path_status st = path_find(ctx, start, goal, &opt, &r);
		if (dist[goal] < 0) {
			assert_int_equal(st, PATH_NO_ROUTE);
			assert_int_equal(r.len, 1);
		} else {
			check_walk(g, &r, start, false);
			assert_true(fabs(r.cost - dist[r.end]) < 1e-9);
			if (r.first_blocked < 0) {
				assert_int_equal(st, PATH_FOUND);
				assert_true(fabs(r.cost - dist[goal]) < 1e-9);
			} else {
				assert_int_equal(st, PATH_FALLBACK);
				assert_int_equal(g->cost[r.first_blocked], 0);
				assert_int_equal(solid[r.first_blocked], 0);
				assert_true(grid_is_adjacent(g, r.end, r.first_blocked));
				assert_true(r.blocked_crossed >= 1);
			}
		}
		/* with automatic P the same cells are closed */
		opt.penalty = 0.0;
		st = path_find(ctx, start, goal, &opt, &r);
		assert_int_equal(st == PATH_NO_ROUTE, dist[goal] < 0);
		if (st != PATH_NO_ROUTE && r.first_blocked >= 0)
			assert_int_equal(solid[r.first_blocked], 0);
		free(solid);
		free(dist);
		path_destroy(ctx);
		grid_destroy(g);
	}
}

static void test_solid_random_square8(void **state) { (void)state; run_solid_random(GRID_SQUARE8, 31); }
static void test_solid_random_square4(void **state) { (void)state; run_solid_random(GRID_SQUARE4, 32); }
static void test_solid_random_hex(void **state) { (void)state; run_solid_random(GRID_HEX, 33); }
static void test_solid_random_diamond8(void **state) { (void)state; run_solid_random(GRID_DIAMOND8, 34); }

static void test_fallback_random_square8(void **state) { (void)state; run_fallback_random(GRID_SQUARE8, 11); }
static void test_fallback_random_square4(void **state) { (void)state; run_fallback_random(GRID_SQUARE4, 12); }
static void test_fallback_random_hex(void **state) { (void)state; run_fallback_random(GRID_HEX, 13); }
static void test_fallback_random_diamond4(void **state) { (void)state; run_fallback_random(GRID_DIAMOND4, 14); }
static void test_fallback_random_diamond8(void **state) { (void)state; run_fallback_random(GRID_DIAMOND8, 15); }

/*
 * A square map turned 45 degrees into diamond storage (DESIGN section 2):
 * square cell (u, v) becomes the diamond at text column X = u - v + off,
 * row Y = u + v (off even and at least h - 1, so X >= 0 and X + Y stays
 * even); the diamond rectangle's other cells are blocked.  dcell[] maps
 * each square cell to its diamond cell.
 */
static struct grid *turn_square(const struct grid *sq, enum grid_topology t, int *dcell)
{
	const int off = (sq->h - 1 + 1) & ~1, H = sq->w + sq->h - 1, W = (sq->w - 1 + off) / 2 + 1;
	struct grid *d = grid_create(W, H, t);
	assert_non_null(d);
	for (int v = 0; v < sq->h; v++)
		for (int u = 0; u < sq->w; u++) {
			const int X = u - v + off, Y = u + v;
			const int c = grid_index(d, (X - (Y & 1)) / 2, Y);
			dcell[grid_index(sq, u, v)] = c;
			grid_set_cost(d, c, sq->cost[grid_index(sq, u, v)]);
		}
	return d;
}

/* A diamond map and the square map it is turned from give the same costs
 * for the same queries: plain, corner cutting, Dijkstra, fallback, floods. */
static void run_turned(enum grid_topology sq_t, enum grid_topology d_t, uint32_t seed)
{
	for (int m = 0; m < 300; m++) {
		struct grid *sq = random_grid(&seed, sq_t, true, 30);
		int n = sq->w * sq->h;
		int *dcell = malloc((size_t)n * sizeof *dcell);
		struct grid *dm = turn_square(sq, d_t, dcell);
		struct path_ctx *cs = path_create(sq), *cd = path_create(dm);
		assert_non_null(cs);
		assert_non_null(cd);
		for (int q = 0; q < 8; q++) {
			int a = (int)(rnd(&seed) % (unsigned)n), b = (int)(rnd(&seed) % (unsigned)n);
			grid_set_cost(sq, a, 1);
			grid_set_cost(dm, dcell[a], 1);
			struct path_options opt = path_options_default();
			opt.corner_cutting = q == 3;
			opt.fallback = q >= 6;
			opt.weight = q == 5 ? 0.0 : 1.0;
			struct path_result rs, rd;
			enum path_status ss = path_find(cs, a, b, &opt, &rs);
			enum path_status sd = path_find(cd, dcell[a], dcell[b], &opt, &rd);
			assert_int_equal(ss, sd);
			/* equal routes may tie differently (the cell order differs), so
			 * a fallback's cut walk may differ; its crossing count may not */
			if (ss != PATH_FALLBACK)
				assert_true(fabs(rs.cost - rd.cost) < 1e-9);
			assert_int_equal(rs.blocked_crossed, rd.blocked_crossed);
			if (ss == PATH_FOUND)
				check_walk(dm, &rd, dcell[a], opt.corner_cutting);
			/* floods: every distance the same */
			path_flood(cs, a, &opt, q & 1, 0.0);
			path_flood(cd, dcell[a], &opt, q & 1, 0.0);
			for (int c = 0; c < n; c++)
				assert_true(fabs(path_flood_distance(cs, c) - path_flood_distance(cd, dcell[c])) < 1e-9);
		}
		path_destroy(cs);
		path_destroy(cd);
		grid_destroy(sq);
		grid_destroy(dm);
		free(dcell);
	}
}

static void test_turned_diamond8(void **state) { (void)state; run_turned(GRID_SQUARE8, GRID_DIAMOND8, 21); }
static void test_turned_diamond4(void **state) { (void)state; run_turned(GRID_SQUARE4, GRID_DIAMOND4, 22); }

static void assert_cells(const struct grid *g, const struct path_result *r, const int (*xy)[2], int n)
{
	assert_int_equal(r->len, n);
	for (int i = 0; i < n; i++)
		assert_int_equal(r->cells[i], grid_index(g, xy[i][0], xy[i][1]));
}

/* Row 1: floor, a wall at x=7, a sealed room x=8..10; walls all round. */
static const char *const corridor[] = {
	"############",
	"#......#...#",
	"############",
};

static void fallback_exact(enum grid_topology t)
{
	struct grid *g = grid_from(t, corridor, 3);
	struct path_ctx *ctx = path_create(g);
	struct path_options opt = path_options_default();
	opt.fallback = true;
	struct path_result r;
	static const int walk[6][2] = { { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 1 }, { 5, 1 }, { 6, 1 } };

	/* reachable goal: the optimal path, status FOUND */
	assert_int_equal(path_find(ctx, grid_index(g, 1, 1), grid_index(g, 5, 1), &opt, &r), PATH_FOUND);
	assert_cells(g, &r, walk, 5);
	assert_true(r.reached);
	assert_true(r.cost == 4.0);

	/* sealed vault: goal (9,1) behind the wall at (7,1); the walk stops at (6,1) */
	assert_int_equal(path_find(ctx, grid_index(g, 1, 1), grid_index(g, 9, 1), &opt, &r), PATH_FALLBACK);
	assert_cells(g, &r, walk, 6);
	assert_false(r.reached);
	assert_int_equal(r.blocked_crossed, 1);
	assert_true(r.cost == 5.0);

	/* a click on a wall: the goal (7,1) itself is the wall */
	assert_int_equal(path_find(ctx, grid_index(g, 1, 1), grid_index(g, 7, 1), &opt, &r), PATH_FALLBACK);
	assert_cells(g, &r, walk, 6);
	assert_int_equal(r.blocked_crossed, 1);

	/* a goal outside the map, clamped by the caller: (30, 1) -> (11, 1),
	 * the east wall: two blocked cells (7,1) and (11,1) */
	int gx = 30, gy = 1;
	grid_clamp(g, &gx, &gy);
	assert_int_equal(gx, 11);
	path_find(ctx, grid_index(g, 1, 1), grid_index(g, gx, gy), &opt, &r);
	assert_int_equal(r.status, PATH_FALLBACK);
	assert_cells(g, &r, walk, 6);
	assert_int_equal(r.blocked_crossed, 2);

	/* empty walk: from inside the vault (8,1) toward (2,1): the first step is the wall */
	assert_int_equal(path_find(ctx, grid_index(g, 8, 1), grid_index(g, 2, 1), &opt, &r), PATH_FALLBACK);
	assert_int_equal(r.len, 1);
	assert_int_equal(r.cells[0], grid_index(g, 8, 1));
	assert_int_equal(r.steps, 0);
	assert_true(r.cost == 0.0);
	assert_int_equal(r.blocked_crossed, 1);

	/* without fallback the same goals are refused */
	opt.fallback = false;
	assert_int_equal(path_find(ctx, grid_index(g, 1, 1), grid_index(g, 9, 1), &opt, &r), PATH_NO_ROUTE);
	assert_int_equal(r.len, 1);
	assert_int_equal(path_find(ctx, grid_index(g, 1, 1), grid_index(g, 7, 1), &opt, &r), PATH_NO_ROUTE);
	path_destroy(ctx);
	grid_destroy(g);
}

static void test_fallback_exact_square8(void **state) { (void)state; fallback_exact(GRID_SQUARE8); }
static void test_fallback_exact_square4(void **state) { (void)state; fallback_exact(GRID_SQUARE4); }
static void test_fallback_exact_hex(void **state) { (void)state; fallback_exact(GRID_HEX); }

/*
 * The fallback's exact walks on a diamond map: the corridor above turned
 * 45 degrees, so it runs diagonally on screen (down-right), walked by edge
 * steps.  The walks are the square ones, cell for cell.
 */
static void fallback_exact_diamond(enum grid_topology t)
{
	struct grid *sq = grid_from(GRID_SQUARE4, corridor, 3);
	int dcell[36];
	struct grid *g = turn_square(sq, t, dcell);
	struct path_ctx *ctx = path_create(g);
	struct path_options opt = path_options_default();
	opt.fallback = true;
	struct path_result r;
#define D(x, y) dcell[grid_index(sq, x, y)]
	const int walk[6] = { D(1, 1), D(2, 1), D(3, 1), D(4, 1), D(5, 1), D(6, 1) };

	assert_int_equal(path_find(ctx, D(1, 1), D(5, 1), &opt, &r), PATH_FOUND);
	assert_int_equal(r.len, 5);
	assert_memory_equal(r.cells, walk, 5 * sizeof walk[0]);
	assert_true(r.cost == 4.0);

	/* sealed vault (9,1) behind the wall (7,1): the walk stops at (6,1) */
	assert_int_equal(path_find(ctx, D(1, 1), D(9, 1), &opt, &r), PATH_FALLBACK);
	assert_int_equal(r.len, 6);
	assert_memory_equal(r.cells, walk, 6 * sizeof walk[0]);
	assert_int_equal(r.blocked_crossed, 1);
	assert_true(r.cost == 5.0);

	/* a click on the wall (7,1) itself */
	assert_int_equal(path_find(ctx, D(1, 1), D(7, 1), &opt, &r), PATH_FALLBACK);
	assert_int_equal(r.len, 6);
	assert_memory_equal(r.cells, walk, 6 * sizeof walk[0]);
	assert_int_equal(r.blocked_crossed, 1);

	/* outside the map: text position far right of the corridor's end
	 * row, clamped to the rectangle's last cell of that row (blocked,
	 * beyond the wall) */
	int gx = 99, gy = grid_y(g, D(11, 1));
	grid_clamp(g, &gx, &gy);
	assert_int_equal(gx, g->w - 1);
	path_find(ctx, D(1, 1), grid_index(g, gx, gy), &opt, &r);
	assert_int_equal(r.status, PATH_FALLBACK);
	assert_int_equal(r.len, 6);
	assert_memory_equal(r.cells, walk, 6 * sizeof walk[0]);
	assert_true(r.blocked_crossed >= 2);

	/* from inside the vault the first step is the wall: an empty walk */
	assert_int_equal(path_find(ctx, D(8, 1), D(2, 1), &opt, &r), PATH_FALLBACK);
	assert_int_equal(r.len, 1);
	assert_int_equal(r.cells[0], D(8, 1));
	assert_int_equal(r.blocked_crossed, 1);
#undef D
	path_destroy(ctx);
	grid_destroy(g);
	grid_destroy(sq);
}

static void test_fallback_exact_diamond4(void **state) { (void)state; fallback_exact_diamond(GRID_DIAMOND4); }
static void test_fallback_exact_diamond8(void **state) { (void)state; fallback_exact_diamond(GRID_DIAMOND8); }

/* Steps between two passable cells keep the corner rule in the fallback:
 * the squeeze between (1,1) and (2,2) is not a route, so the route crosses
 * a wall, and the walk stops before it.  With corner cutting it is taken. */
static void test_fallback_corner_rule(void **state)
{
	(void)state;
	static const char *const rows[] = {
		"####",
		"#.##",
		"##.#",
		"####",
	};
	struct grid *g = grid_from(GRID_SQUARE8, rows, 4);
	struct path_ctx *ctx = path_create(g);
	struct path_options opt = path_options_default();
	struct path_result r;
	int a = grid_index(g, 1, 1), b = grid_index(g, 2, 2);
	assert_int_equal(path_find(ctx, a, b, &opt, &r), PATH_NO_ROUTE);
	opt.fallback = true;
	assert_int_equal(path_find(ctx, a, b, &opt, &r), PATH_FALLBACK);
	assert_int_equal(r.len, 1);
	assert_int_equal(r.blocked_crossed, 1);
	opt.corner_cutting = true;
	assert_int_equal(path_find(ctx, a, b, &opt, &r), PATH_FOUND);
	assert_int_equal(r.len, 2);
	assert_true(r.cost == GRID_SQRT2);
	path_destroy(ctx);
	grid_destroy(g);
}

/* A finite P is a knob: a detour longer than P goes "through" the wall,
 * yet the walk still stops before it. */
static void test_fallback_finite_penalty(void **state)
{
	(void)state;
	static const char *const rows[] = {
		"#######",
		"#..#..#",
		"#.###.#",
		"#.....#",
		"#######",
	};
	struct grid *g = grid_from(GRID_SQUARE4, rows, 5);
	struct path_ctx *ctx = path_create(g);
	struct path_options opt = path_options_default();
	opt.fallback = true;
	struct path_result r;
	int a = grid_index(g, 2, 1), b = grid_index(g, 4, 1);
	/* automatic P: the detour (10 steps) */
	assert_int_equal(path_find(ctx, a, b, &opt, &r), PATH_FOUND);
	assert_true(r.cost == 10.0);
	assert_int_equal(r.first_blocked, -1);
	/* P = 1: through the wall at (3,1) costs 2 + 1 < 10 */
	opt.penalty = 1.0;
	assert_int_equal(path_find(ctx, a, b, &opt, &r), PATH_FALLBACK);
	assert_int_equal(r.len, 1);
	assert_int_equal(r.blocked_crossed, 1);
	assert_int_equal(r.first_blocked, grid_index(g, 3, 1)); /* the wall a digger digs */
	/* that wall solid (no one can dig it), and the map's edge: through
	 * the three below it, 7 < 10 */
	uint8_t *solid = calloc((size_t)(g->w * g->h), 1);
	for (int y = 0; y < g->h; y++)
		for (int x = 0; x < g->w; x++)
			solid[grid_index(g, x, y)] = x == 0 || y == 0 || x == g->w - 1 || y == g->h - 1;
	solid[grid_index(g, 3, 1)] = 1;
	opt.solid = solid;
	assert_int_equal(path_find(ctx, a, b, &opt, &r), PATH_FALLBACK);
	assert_int_equal(r.blocked_crossed, 3);
	assert_int_equal(r.first_blocked, grid_index(g, 2, 2));
	/* every wall solid: the detour, whatever P */
	for (int i = 0; i < g->w * g->h; i++)
		solid[i] = !g->cost[i];
	assert_int_equal(path_find(ctx, a, b, &opt, &r), PATH_FOUND);
	assert_true(r.cost == 10.0);
	assert_int_equal(r.first_blocked, -1);
	/* the goal walled off by solid cells: no route at all, either P */
	grid_set_cost(g, grid_index(g, 3, 2), 1);
	grid_set_cost(g, grid_index(g, 3, 3), 0);
	solid[grid_index(g, 3, 3)] = 1;
	assert_int_equal(path_find(ctx, a, b, &opt, &r), PATH_NO_ROUTE);
	assert_int_equal(r.len, 1);
	opt.penalty = 0.0;
	assert_int_equal(path_find(ctx, a, b, &opt, &r), PATH_NO_ROUTE);
	assert_int_equal(r.first_blocked, -1);
	opt.solid = NULL;
	assert_int_equal(path_find(ctx, a, b, &opt, &r), PATH_FALLBACK);
	free(solid);
	grid_set_cost(g, grid_index(g, 3, 2), 0);
	grid_set_cost(g, grid_index(g, 3, 3), 1);
	/* P = 20: the detour again */
	opt.penalty = 20.0;
	assert_int_equal(path_find(ctx, a, b, &opt, &r), PATH_FOUND);
	assert_true(r.cost == 10.0);
	path_destroy(ctx);
	grid_destroy(g);
}

static void test_simple_cases(void **state)
{
	(void)state;
	static const char *const rows[] = {
		"......",
		".####.",
		".#..#.",
		".####.",
		"......",
	};
	struct grid *g = grid_from(GRID_SQUARE8, rows, 5);
	struct path_ctx *ctx = path_create(g);
	struct path_options opt = path_options_default();
	struct path_result r;
	/* start == goal */
	assert_int_equal(path_find(ctx, 0, 0, &opt, &r), PATH_FOUND);
	assert_int_equal(r.len, 1);
	assert_true(r.reached);
	assert_true(r.cost == 0.0);
	/* goal blocked */
	assert_int_equal(path_find(ctx, 0, grid_index(g, 1, 1), &opt, &r), PATH_NO_ROUTE);
	assert_false(r.reached);
	/* no route: the enclosed room */
	assert_int_equal(path_find(ctx, 0, grid_index(g, 2, 2), &opt, &r), PATH_NO_ROUTE);
	assert_int_equal(r.len, 1);
	assert_int_equal(r.cells[0], 0);
	assert_true(r.expanded > 0);
	/* bad input */
	assert_int_equal(path_find(ctx, -1, 0, &opt, &r), PATH_BAD_INPUT);
	assert_int_equal(path_find(ctx, 0, 30, &opt, &r), PATH_BAD_INPUT);
	assert_int_equal(path_find(ctx, grid_index(g, 1, 1), 0, &opt, &r), PATH_BAD_INPUT);
	/* around the ring: (0,0) -> (5,4) costs 4 + 4 sqrt 2 ... or 9 orthogonal; the ring allows 5 + 4 */
	assert_int_equal(path_find(ctx, 0, grid_index(g, 5, 4), &opt, &r), PATH_FOUND);
	check_walk(g, &r, 0, false);
	assert_true(fabs(r.cost - 9.0) < 1e-9);
	assert_true(path_was_expanded(ctx, 0));
	assert_false(path_was_expanded(ctx, grid_index(g, 2, 2)));
	path_destroy(ctx);
	grid_destroy(g);
}

static void test_budget(void **state)
{
	(void)state;
	struct grid *g = grid_create(20, 20, GRID_SQUARE8);
	grid_fill(g, 1);
	for (int y = 0; y < 15; y++)
		grid_set_cost(g, grid_index(g, 10, y), 0);
	struct path_ctx *ctx = path_create(g);
	struct path_options opt = path_options_default();
	opt.budget = 25;
	struct path_result r;
	int start = grid_index(g, 2, 2), goal = grid_index(g, 18, 2);
	assert_int_equal(path_find(ctx, start, goal, &opt, &r), PATH_BUDGET);
	assert_int_equal(r.expanded, 25);
	assert_false(r.reached);
	check_walk(g, &r, start, false);
	/* the end is the expanded cell nearest the goal by h */
	int expanded = 0;
	for (int c = 0; c < 400; c++) {
		if (!path_was_expanded(ctx, c))
			continue;
		expanded++;
		assert_true(grid_heuristic(g, r.end, goal) <= grid_heuristic(g, c, goal));
	}
	assert_int_equal(expanded, 25);
	/* a big enough budget reaches the goal */
	opt.budget = 100000;
	assert_int_equal(path_find(ctx, start, goal, &opt, &r), PATH_FOUND);
	path_destroy(ctx);
	grid_destroy(g);
}

static void test_determinism(void **state)
{
	(void)state;
	uint32_t seed = 99;
	enum grid_topology topo[3] = { GRID_SQUARE4, GRID_SQUARE8, GRID_HEX };
	for (int m = 0; m < 60; m++) {
		struct grid *g = random_grid(&seed, topo[m % 3], m % 2 == 0, 20);
		int n = g->w * g->h;
		struct path_ctx *c1 = path_create(g), *c2 = path_create(g);
		int s = (int)(rnd(&seed) % (unsigned)n), t = (int)(rnd(&seed) % (unsigned)n);
		grid_set_cost(g, s, 1);
		grid_set_cost(g, t, 1);
		struct path_options opt = path_options_default();
		opt.fallback = m % 4 == 1;
		struct path_result a, b;
		path_find(c1, s, t, &opt, &a);
		int *keep = malloc((size_t)a.len * sizeof *keep);
		memcpy(keep, a.cells, (size_t)a.len * sizeof *keep);
		int len = a.len;
		path_find(c1, t, s, &opt, &b); /* something else in between */
		path_find(c1, s, t, &opt, &a);
		path_find(c2, s, t, &opt, &b);
		assert_int_equal(a.len, len);
		assert_int_equal(b.len, len);
		assert_memory_equal(a.cells, keep, (size_t)len * sizeof *keep);
		assert_memory_equal(b.cells, keep, (size_t)len * sizeof *keep);
		free(keep);
		path_destroy(c1);
		path_destroy(c2);
		grid_destroy(g);
	}
}

/* Floods against the reference, both ways, and flood_next walks downhill. */
static void test_flood(void **state)
{
	(void)state;
	uint32_t seed = 7;
	enum grid_topology topo[3] = { GRID_SQUARE4, GRID_SQUARE8, GRID_HEX };
	for (int m = 0; m < 90; m++) {
		struct grid *g = random_grid(&seed, topo[m % 3], true, 20);
		int n = g->w * g->h;
		struct path_ctx *ctx = path_create(g);
		double *dist = malloc((size_t)n * sizeof *dist), *back = malloc((size_t)n * sizeof *back);
		int src = (int)(rnd(&seed) % (unsigned)n);
		grid_set_cost(g, src, 1);
		struct path_options opt = path_options_default();
		ref_dijkstra(g, src, false, dist);
		long settled = path_flood(ctx, src, &opt, false, 0.0);
		long reached = 0;
		for (int c = 0; c < n; c++) {
			if (dist[c] >= 0)
				reached++;
			double d = path_flood_distance(ctx, c);
			assert_true(dist[c] < 0 ? d < 0 : fabs(d - dist[c]) < 1e-9);
		}
		assert_int_equal(settled, reached);
		/* reverse: distance from each cell to src */
		for (int c = 0; c < n; c++) {
			back[c] = -1;
			if (g->cost[c]) {
				ref_dijkstra(g, c, false, dist);
				back[c] = dist[src];
			}
		}
		path_flood(ctx, src, &opt, true, 0.0);
		for (int c = 0; c < n; c++) {
			double d = path_flood_distance(ctx, c);
			assert_true(back[c] < 0 ? d < 0 : fabs(d - back[c]) < 1e-9);
			if (d <= 0)
				continue;
			/* following next from c reaches src paying exactly d */
			double paid = 0;
			int at = c, guard = 0;
			while (at != src) {
				int nx = path_flood_next(ctx, at, &opt);
				assert_true(nx >= 0);
				assert_true(grid_is_adjacent(g, at, nx));
				struct grid_step s[GRID_MAX_NEIGHBOURS];
				int k = grid_neighbours(g, at, false, s), j;
				for (j = 0; j < k && s[j].cell != nx; j++)
					;
				assert_true(j < k);
				paid += s[j].step * g->cost[nx];
				at = nx;
				assert_true(++guard <= n);
			}
			assert_true(fabs(paid - d) < 1e-9);
		}
		assert_int_equal(path_flood_next(ctx, src, &opt), -1);
		/* a cost limit settles only the cells within it */
		path_flood(ctx, src, &opt, false, 2.0);
		for (int c = 0; c < n; c++)
			assert_true(path_flood_distance(ctx, c) <= 2.0);
		free(dist);
		free(back);
		path_destroy(ctx);
		grid_destroy(g);
	}
}

static void test_extra_costs(void **state)
{
	(void)state;
	static const char *const rows[] = {
		".....",
		".....",
		".....",
	};
	struct grid *g = grid_from(GRID_SQUARE4, rows, 3);
	struct path_ctx *ctx = path_create(g);
	uint16_t extra[15] = { 0 };
	extra[grid_index(g, 2, 1)] = 10; /* a crowd in the middle */
	struct path_options opt = path_options_default();
	struct path_result r;
	path_find(ctx, grid_index(g, 0, 1), grid_index(g, 4, 1), &opt, &r);
	assert_true(r.cost == 4.0);
	opt.extra = extra;
	path_find(ctx, grid_index(g, 0, 1), grid_index(g, 4, 1), &opt, &r);
	assert_true(r.cost == 6.0); /* around the crowd */
	for (int i = 0; i < r.len; i++)
		assert_int_not_equal(r.cells[i], grid_index(g, 2, 1));
	path_destroy(ctx);
	grid_destroy(g);
}

/*
 * Fixed-point costs make equal routes tie exactly, so on an open map the
 * tie rule (equal f -> larger g) walks straight to the goal: each expansion
 * is a cell of the route.  Also the row of a cell on narrow maps (1 and 3
 * wide), where the context computes it by a multiply.
 */
static void test_exact_ties(void **state)
{
	(void)state;
	struct grid *g = grid_create(40, 30, GRID_SQUARE8);
	for (int i = 0; i < 40 * 30; i++)
		grid_set_cost(g, i, 1);
	struct path_ctx *ctx = path_create(g);
	struct path_options opt = path_options_default();
	opt.plain_astar = true;
	const int q[][4] = { { 0, 0, 39, 29 }, { 3, 27, 35, 2 }, { 20, 0, 20, 29 }, { 39, 5, 0, 11 } };
	for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
		struct path_result r;
		assert_int_equal(path_find(ctx, grid_index(g, q[i][0], q[i][1]), grid_index(g, q[i][2], q[i][3]),
					   &opt, &r), PATH_FOUND);
		assert_int_equal(r.expanded, r.steps + 1);
		int dx = abs(q[i][0] - q[i][2]), dy = abs(q[i][1] - q[i][3]);
		int lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
		assert_true(fabs(r.cost - ((hi - lo) + lo * GRID_SQRT2)) < 1e-9);
	}
	path_destroy(ctx);
	grid_destroy(g);

	for (int w = 1; w <= 3; w += 2) {
		g = grid_create(w, 50, GRID_SQUARE4);
		for (int i = 0; i < w * 50; i++)
			grid_set_cost(g, i, 1);
		ctx = path_create(g);
		struct path_result r;
		assert_int_equal(path_find(ctx, 0, w * 50 - 1, NULL, &r), PATH_FOUND);
		assert_int_equal(r.steps, 49 + (w - 1));
		for (int i = 1; i < r.len; i++)
			assert_true(grid_is_adjacent(g, r.cells[i - 1], r.cells[i]));
		path_destroy(ctx);
		grid_destroy(g);
	}
}

/*
 * Sealed goals in an open field of pillars: at each layer change most
 * blocked cells (the pillars) can lead nowhere new and are set aside; the
 * result must still match the reference lexicographic search, through one
 * ring of walls and through two.
 */
static void test_fallback_sealed_layers(void **state)
{
	(void)state;
	for (int rings = 1; rings <= 2; rings++) {
		struct grid *g = grid_create(21, 21, GRID_SQUARE8);
		int n = 21 * 21;
		for (int y = 0; y < 21; y++)
			for (int x = 0; x < 21; x++) {
				bool pillar = x % 3 == 1 && y % 3 == 1;
				int d = abs(x - 15) > abs(y - 15) ? abs(x - 15) : abs(y - 15);
				bool ring = d >= 1 && d <= rings;
				grid_set_cost(g, grid_index(g, x, y), pillar || ring ? 0 : 1);
			}
		int start = grid_index(g, 0, 0), goal = grid_index(g, 15, 15);
		int *count = malloc((size_t)n * sizeof *count);
		double *travel = malloc((size_t)n * sizeof *travel), *dist = malloc((size_t)n * sizeof *dist);
		ref_fallback(g, start, false, count, travel);
		ref_dijkstra(g, start, false, dist);
		struct path_ctx *ctx = path_create(g);
		struct path_options opt = path_options_default();
		opt.fallback = true;
		struct path_result r;
		assert_int_equal(path_find(ctx, start, goal, &opt, &r), PATH_FALLBACK);
		assert_int_equal(count[goal], rings);
		assert_int_equal(r.blocked_crossed, rings);
		check_walk(g, &r, start, false);
		assert_true(fabs(r.cost - dist[r.end]) < 1e-9);
		for (int i = 1; i < r.len; i++)
			assert_true(g->cost[r.cells[i]] != 0);
		/* the walk ends beside the outer ring */
		int ex = r.end % 21, ey = r.end / 21;
		int d = abs(ex - 15) > abs(ey - 15) ? abs(ex - 15) : abs(ey - 15);
		assert_int_equal(d, rings + 1);
		free(count);
		free(travel);
		free(dist);
		path_destroy(ctx);
		grid_destroy(g);
	}
}

/* path_find(start, goal, opt) and the same with zero extra costs, which
 * the general loop answers: the same status, route cell for cell,
 * expansions, cost and expanded cells.  Returns the status; *a is the
 * first answer, its route copied to cells (n cells) and its expanded
 * cells to seen. */
static enum path_status same_as_general(struct path_ctx *ctx, int start, int goal, struct path_options opt,
					const uint16_t *zero, int n, int *cells, bool *seen, struct path_result *a)
{
	struct path_result b;
	const enum path_status st = path_find(ctx, start, goal, &opt, a);
	memcpy(cells, a->cells, (size_t)a->len * sizeof *cells);
	for (int i = 0; i < n; i++)
		seen[i] = path_was_expanded(ctx, i);
	opt.extra = zero;
	assert_int_equal(path_find(ctx, start, goal, &opt, &b), st);
	assert_int_equal(b.len, a->len);
	assert_memory_equal(b.cells, cells, (size_t)a->len * sizeof *cells);
	assert_true(b.expanded == a->expanded);
	assert_true(b.cost == a->cost);
	for (int i = 0; i < n; i++)
		assert_int_equal(path_was_expanded(ctx, i), seen[i]);
	return st;
}

/* A random map of the ring tests: kind 0 uniform, 1 terrain 1..3, 2
 * spikes up to 255, 3 small (from 1 wide: a map under 2 wide takes the
 * general loop, 2 wide the ring with no interior cell); wall_pct of the
 * cells blocked. */
static struct grid *ring_map(enum grid_topology topo, int kind, int wall_pct, uint32_t *seed)
{
	const int w = kind == 3 ? 1 + (int)(rnd(seed) % 12) : 20 + (int)(rnd(seed) % 61);
	const int h = kind == 3 ? 3 + (int)(rnd(seed) % 10) : 20 + (int)(rnd(seed) % 61);
	struct grid *g = grid_create(w, h, topo);
	assert_non_null(g);
	for (int i = 0; i < w * h; i++) {
		const int r = (int)(rnd(seed) % 100);
		uint8_t c = 1;
		if (kind == 1 || kind == 3)
			c = (uint8_t)(1 + rnd(seed) % 3);
		else if (kind == 2 && r % 6 == 0)
			c = (uint8_t)(1 + rnd(seed) % 255);
		grid_set_cost(g, i, r < wall_pct ? 0 : c);
	}
	return g;
}

/*
 * Plain square8, hex, square4 and diamond4 A* keep most open cells in a
 * ring of buckets by f (see path.c; on the last three, whose steps are
 * whole, the current bucket is sorted by whole_sort);
 * the general loop, where a zero extra cost sends the same query, keeps
 * them all in one heap.  Both must expand the same cells in the same
 * order, so routes and counts agree exactly.  Large terrain multipliers
 * push f past the ring, and small maps run its chunk pool dry: either way
 * the ring hands every cell to the heap and the query goes on there.
 */
static void plain_ring(enum grid_topology topo, uint32_t seed)
{
	int found = 0, budgeted = 0;
	for (int m = 0; m < 240; m++) {
		struct grid *g = ring_map(topo, m % 4, 25, &seed);
		const int n = g->w * g->h;
		const int start = (int)(rnd(&seed) % (unsigned)n), goal = (int)(rnd(&seed) % (unsigned)n);
		grid_set_cost(g, start, 1);
		grid_set_cost(g, goal, 1);
		struct path_ctx *ctx = path_create(g);
		assert_non_null(ctx);
		uint16_t *zero = calloc((size_t)n, sizeof *zero);
		int *cells = malloc((size_t)n * sizeof *cells);
		bool *seen = malloc((size_t)n);
		assert_true(zero && cells && seen);
		struct path_options opt = path_options_default();
		opt.plain_astar = true;
		opt.corner_cutting = m % 5 == 2;
		struct path_result a, b;
		const enum path_status st = same_as_general(ctx, start, goal, opt, zero, n, cells, seen, &a);
		/* Plain A* again on records the general loop, or a flood, left
		 * behind: it must see them all as new. */
		if (m % 2)
			path_flood(ctx, goal, NULL, false, 0.0);
		opt.extra = NULL;
		assert_int_equal(path_find(ctx, start, goal, &opt, &b), st);
		assert_int_equal(b.len, a.len);
		assert_memory_equal(b.cells, cells, (size_t)a.len * sizeof *cells);
		assert_true(b.expanded == a.expanded);
		for (int i = 0; i < n; i++)
			assert_int_equal(path_was_expanded(ctx, i), seen[i]);
		/* With a budget (the ring keeps the budget's best cell itself:
		 * the player's far clicks): the same partial route, cell for
		 * cell, as the general loop's, or the same whole one. */
		if (st == PATH_FOUND || st == PATH_NO_ROUTE) {
			struct path_options bo = opt;
			bo.extra = NULL;
			bo.budget = 1 + (long)(rnd(&seed) % (unsigned)(a.expanded + 2));
			struct path_result ra, rb;
			const enum path_status bs = path_find(ctx, start, goal, &bo, &ra);
			budgeted += bs == PATH_BUDGET;
			int *part = malloc((size_t)ra.len * sizeof *part);
			assert_non_null(part);
			memcpy(part, ra.cells, (size_t)ra.len * sizeof *part);
			bo.extra = zero;
			assert_int_equal(path_find(ctx, start, goal, &bo, &rb), bs);
			assert_int_equal(rb.len, ra.len);
			assert_memory_equal(rb.cells, part, (size_t)ra.len * sizeof *part);
			assert_true(rb.expanded == ra.expanded);
			assert_true(rb.cost == ra.cost);
			free(part);
		}
		if (st == PATH_FOUND) {
			found++;
			opt.extra = NULL;
			opt.weight = 0;
			path_find(ctx, start, goal, &opt, &b);
			assert_true(fabs(b.cost - a.cost) < 1e-9);
		}
		free(seen);
		free(cells);
		free(zero);
		path_destroy(ctx);
		grid_destroy(g);
	}
	assert_true(found > 100);
	assert_true(budgeted > 50);
}

/*
 * Weighted A* (weight above 1, no fallback or extra costs) runs in plain
 * A*'s bucket ring on hex, square4 and the diamond grids (path.c,
 * astar_wring; square8 keeps the general loop, and its test guards that),
 * whose keys fall below the current bucket as often as above it.  Held to the general loop (which zero extra costs force):
 * the same status, route cell for cell, expansions, cost and expanded
 * cells, with a budget (the same partial route) or without, at the game's
 * far weights and more, and again on records a flood left behind.
 */
static void weighted_ring(enum grid_topology topo, uint32_t seed)
{
	static const double weights[] = { 1.15, 1.5, 2.0, 3.0, 5.0 };
	int found = 0, budgeted = 0, cheaper = 0;
	for (int m = 0; m < 200; m++) {
		const int kind = m % 4; /* ring_map's */
		struct grid *g = ring_map(topo, kind, 22, &seed);
		const int n = g->w * g->h;
		const int start = (int)(rnd(&seed) % (unsigned)n), goal = (int)(rnd(&seed) % (unsigned)n);
		grid_set_cost(g, start, 1);
		/* a goal of cost 2 or 3 at weight 2 or 3: the goal's g can equal
		 * the f last popped, where weighted A* stops early */
		grid_set_cost(g, goal, kind == 1 ? (uint8_t)(1 + rnd(&seed) % 3) : 1);
		struct path_ctx *ctx = path_create(g);
		assert_non_null(ctx);
		uint16_t *zero = calloc((size_t)n, sizeof *zero);
		int *cells = malloc((size_t)n * sizeof *cells);
		bool *seen = malloc((size_t)n);
		assert_true(zero && cells && seen);
		struct path_options opt = path_options_default();
		opt.weight = weights[m % 5];
		opt.corner_cutting = m % 7 == 3;
		opt.budget = m % 3 == 1 ? 1 + (long)(rnd(&seed) % 40) : 0;
		if (m % 2)
			path_flood(ctx, goal, NULL, false, 0.0); /* records of another search */
		struct path_result a;
		const enum path_status st = same_as_general(ctx, start, goal, opt, zero, n, cells, seen, &a);
		assert_true(st == PATH_FOUND || st == PATH_NO_ROUTE || st == PATH_BUDGET);
		found += st == PATH_FOUND;
		budgeted += st == PATH_BUDGET;
		if (st == PATH_FOUND) {
			/* within the weight of the shortest, and often dearer */
			struct path_options ex = path_options_default();
			ex.corner_cutting = opt.corner_cutting;
			ex.plain_astar = true;
			struct path_result e;
			assert_int_equal(path_find(ctx, start, goal, &ex, &e), PATH_FOUND);
			assert_true(a.cost <= opt.weight * e.cost + 1e-9);
			cheaper += e.cost < a.cost;
		}
		free(seen);
		free(cells);
		free(zero);
		path_destroy(ctx);
		grid_destroy(g);
	}
	assert_true(found > 100);
	assert_true(budgeted > 20);
	assert_true(cheaper > 20); /* the weights were in play */
}

static void test_weighted_ring(void **state) { (void)state; weighted_ring(GRID_SQUARE8, 5252); }
static void test_weighted_ring_hex(void **state) { (void)state; weighted_ring(GRID_HEX, 5353); }
static void test_weighted_ring_square4(void **state) { (void)state; weighted_ring(GRID_SQUARE4, 5454); }
static void test_weighted_ring_diamond4(void **state) { (void)state; weighted_ring(GRID_DIAMOND4, 5555); }
static void test_weighted_ring_diamond8(void **state) { (void)state; weighted_ring(GRID_DIAMOND8, 5656); }

static void test_plain_ring(void **state) { (void)state; plain_ring(GRID_SQUARE8, 4242); }
static void test_plain_ring_hex(void **state) { (void)state; plain_ring(GRID_HEX, 4343); }
static void test_plain_ring_square4(void **state) { (void)state; plain_ring(GRID_SQUARE4, 4444); }
static void test_plain_ring_diamond4(void **state) { (void)state; plain_ring(GRID_DIAMOND4, 4545); }
static void test_plain_ring_diamond8(void **state) { (void)state; plain_ring(GRID_DIAMOND8, 4646); }

/*
 * Plain A* from start to goal against the general loop on the same query
 * (an all-zero extra array sends it there): the same route, expansions and
 * cost.  zero holds a zero per cell.
 */
static void check_plain_equals_general(struct path_ctx *ctx, int start, int goal,
				       const uint16_t *zero)
{
	struct path_options opt = path_options_default();
	opt.plain_astar = true;
	struct path_result a, b;
	assert_int_equal(path_find(ctx, start, goal, &opt, &a), PATH_FOUND);
	const int len = a.len;
	const long expanded = a.expanded;
	const double cost = a.cost;
	int *cells = malloc((size_t)len * sizeof *cells);
	assert_non_null(cells);
	memcpy(cells, a.cells, (size_t)len * sizeof *cells);
	opt.extra = zero;
	assert_int_equal(path_find(ctx, start, goal, &opt, &b), PATH_FOUND);
	assert_int_equal(b.len, len);
	assert_memory_equal(b.cells, cells, (size_t)len * sizeof *cells);
	assert_true(b.expanded == expanded);
	assert_true(b.cost == cost);
	free(cells);
}

/* One plain A* query on g in a new context, held to the general loop by
 * check_plain_equals_general; its cost and expansions. */
static void plain_one(const struct grid *g, int start, int goal, double *cost, long *expanded)
{
	struct path_ctx *ctx = path_create(g);
	assert_non_null(ctx);
	uint16_t *zero = calloc((size_t)(g->w * g->h), sizeof *zero);
	assert_non_null(zero);
	struct path_options opt = path_options_default();
	opt.plain_astar = true;
	struct path_result a;
	assert_int_equal(path_find(ctx, start, goal, &opt, &a), PATH_FOUND);
	*cost = a.cost;
	*expanded = a.expanded;
	check_plain_equals_general(ctx, start, goal, zero);
	free(zero);
	path_destroy(ctx);
}

/*
 * Large buckets: on an open map with a few scattered walls hundreds of
 * open cells share one bucket, and a few buckets (two here) are too far
 * from falling order for insertion sort (path.c, ring_advance), so they
 * become heaps.  On hex a bucket is one f and thousands of keys, sorted by
 * h and then cell (whole_sort), with long groups of one h where start and
 * goal lie on a line (the queries from the middle: the same row, the same
 * diagonal); with terrain too.  The answers must still be the general loop's.
 */
static void big_buckets(enum grid_topology topo, uint32_t seed, bool terrain)
{
	const int w = 256, h = 256, n = w * h;
	struct grid *g = grid_create(w, h, topo);
	assert_non_null(g);
	for (int i = 0; i < n; i++)
		grid_set_cost(g, i, rnd(&seed) % 100 < 3 ? 0 : terrain ? (uint8_t)(1 + rnd(&seed) % 3) : 1);
	struct path_ctx *ctx = path_create(g);
	assert_non_null(ctx);
	uint16_t *zero = calloc((size_t)n, sizeof *zero);
	assert_non_null(zero);
	for (int q = 0; q < (topo == GRID_SQUARE8 ? 6 : 8); q++) {
		int start = (int)(rnd(&seed) % 16) * w + (int)(rnd(&seed) % 16);
		int goal = (h - 1 - (int)(rnd(&seed) % 16)) * w + w - 1 - (int)(rnd(&seed) % 16);
		if (q == 6) {
			start = 128 * w + 8;
			goal = 128 * w + 240;
		} else if (q == 7) {
			start = 8 * w + 8;
			goal = 232 * w + 8 + 112;
		}
		grid_set_cost(g, start, 1);
		grid_set_cost(g, goal, 1);
		check_plain_equals_general(ctx, start, goal, zero);
	}
	free(zero);
	path_destroy(ctx);
	grid_destroy(g);
}

static void test_plain_big_buckets(void **state) { (void)state; big_buckets(GRID_SQUARE8, 99, false); }
static void test_plain_big_buckets_whole(void **state)
{
	(void)state;
	big_buckets(GRID_HEX, 98, false);
	big_buckets(GRID_HEX, 97, true);
	big_buckets(GRID_SQUARE4, 96, false);
	big_buckets(GRID_DIAMOND4, 95, true);
}

/*
 * Plain A* packs g into 48 bits; a route dearer than that (400 cells of
 * multiplier 255 at the finest scale) hands the query to the general loop,
 * which must give the same answer as a query that starts there.
 */
static void test_plain_large_costs(void **state)
{
	(void)state;
	const int w = 400, h = 4;
	struct grid *g = grid_create(w, h, GRID_SQUARE8);
	assert_non_null(g);
	for (int i = 0; i < w * h; i++)
		grid_set_cost(g, i, 255);
	for (int x = 0; x < w; x++)
		grid_set_cost(g, 3 * w + x, 0);
	double cost;
	long expanded;
	plain_one(g, w + 0, w + w - 1, &cost, &expanded);
	assert_true(fabs(cost - 255.0 * (w - 1)) < 1e-6);
	grid_destroy(g);
}

/*
 * A maze of one-cell corridors: along a dead end f climbs by up to two
 * steps a cell, so the few open cells lie buckets apart and the search
 * goes round the ring of buckets many times, finding each next used slot
 * across empty ones (path.c, ring_next).  Plain A* must still match the
 * general loop, also when the goal is walled off and the ring runs dry.
 */
static void test_plain_maze(void **state)
{
	(void)state;
	uint32_t seed = 7;
	const int k = 40, w = 2 * k + 1, h = 2 * k + 1, n = w * h;
	struct grid *g = grid_create(w, h, GRID_SQUARE8);
	assert_non_null(g);
	/* Depth-first carving from room (0, 0); rooms sit at odd coordinates. */
	int *stack = malloc((size_t)(k * k) * sizeof *stack);
	assert_non_null(stack);
	int top = 0;
	stack[top++] = 0;
	grid_set_cost(g, w + 1, 1);
	while (top > 0) {
		const int room = stack[top - 1], rx = room % k, ry = room / k;
		int next[4], count = 0;
		const int dx[4] = { 0, -1, 1, 0 }, dy[4] = { -1, 0, 0, 1 };
		for (int d = 0; d < 4; d++) {
			const int nx = rx + dx[d], ny = ry + dy[d];
			if (nx >= 0 && ny >= 0 && nx < k && ny < k && !g->cost[(2 * ny + 1) * w + 2 * nx + 1])
				next[count++] = d;
		}
		if (count == 0) {
			top--;
			continue;
		}
		const int d = next[rnd(&seed) % (unsigned)count];
		const int nx = rx + dx[d], ny = ry + dy[d];
		grid_set_cost(g, (2 * ry + 1 + dy[d]) * w + 2 * rx + 1 + dx[d], 1);
		grid_set_cost(g, (2 * ny + 1) * w + 2 * nx + 1, 1);
		stack[top++] = ny * k + nx;
	}
	free(stack);
	struct path_ctx *ctx = path_create(g);
	assert_non_null(ctx);
	uint16_t *zero = calloc((size_t)n, sizeof *zero);
	assert_non_null(zero);
	struct path_options dij = path_options_default();
	dij.weight = 0.0;
	for (int q = 0; q < 24; q++) {
		const int start = (int)(2 * (rnd(&seed) % (unsigned)k) + 1) * w + (int)(2 * (rnd(&seed) % (unsigned)k) + 1);
		const int goal = (int)(2 * (rnd(&seed) % (unsigned)k) + 1) * w + (int)(2 * (rnd(&seed) % (unsigned)k) + 1);
		check_plain_equals_general(ctx, start, goal, zero);
		struct path_options opt = path_options_default();
		opt.plain_astar = true;
		struct path_result a, b;
		path_find(ctx, start, goal, &opt, &a);
		const double cost = a.cost;
		assert_int_equal(path_find(ctx, start, goal, &dij, &b), PATH_FOUND);
		assert_true(fabs(b.cost - cost) < 1e-9);
	}
	/* A goal walled off (the corner, touching a room only diagonally):
	 * the whole maze is expanded, and the ring runs dry. */
	grid_set_cost(g, 0, 1);
	struct path_options opt = path_options_default();
	opt.plain_astar = true;
	struct path_result a, b;
	assert_int_equal(path_find(ctx, (h - 2) * w + w - 2, 0, &opt, &a), PATH_NO_ROUTE);
	const long expanded = a.expanded;
	assert_true(expanded > n / 3);
	opt.extra = zero;
	assert_int_equal(path_find(ctx, (h - 2) * w + w - 2, 0, &opt, &b), PATH_NO_ROUTE);
	assert_true(b.expanded == expanded);
	free(zero);
	path_destroy(ctx);
	grid_destroy(g);
}

/*
 * A corridor of multiplier 8 toward the goal: each step raises f by 7
 * plain steps, 224 of the ring's 256 buckets, so the next used slot is
 * often below the current one in the same word of the ring's bit map
 * (path.c, ring_next, after it has gone round the other words).
 */
static void test_plain_far_buckets(void **state)
{
	(void)state;
	const int w = 40, h = 3;
	struct grid *g = grid_create(w, h, GRID_SQUARE8);
	assert_non_null(g);
	for (int x = 1; x < w; x++)
		grid_set_cost(g, w + x, 8); /* a step back west would leave the ring: no cell there */
	double cost;
	long expanded;
	plain_one(g, w + 1, 2 * w - 2, &cost, &expanded);
	assert_true(fabs(cost - 8.0 * (w - 3)) < 1e-9);
	assert_true(expanded == w - 2);
	grid_destroy(g);
}

/* Across phase changes at their default length (a phase lasts at most
 * 32,000 generations and sweeps every record once: path.c,
 * new_generation), plain A* between other queries keeps its answer. */
/* One query's answer, kept to compare a context with a fresh one. */
struct answer {
	enum path_status st;
	int len, end;
	long expanded;
	double cost;
	int cells[4096];
	bool was[4096];
	double flood[4096];
};

/* Query q of a mix on g: plain A*, Dijkstra, weighted, fallback, a budget,
 * the default (jump points), a flood; into *a. */
static void mixed_query(struct path_ctx *ctx, const struct grid *g, int q, int start, int goal,
			struct answer *a)
{
	const int n = g->w * g->h;
	struct path_options opt = path_options_default();
	memset(a, 0, sizeof *a);
	const int kind = q % 7;
	if (kind == 6) {
		a->expanded = path_flood(ctx, start, NULL, q % 2 == 0, 0.0);
		for (int i = 0; i < n; i++)
			a->flood[i] = path_flood_distance(ctx, i);
		return;
	}
	opt.plain_astar = kind == 0 || kind == 1;
	opt.corner_cutting = kind == 1;
	if (kind == 2)
		opt.weight = 0.0;
	if (kind == 3)
		opt.weight = 1.5;
	if (kind == 4)
		opt.fallback = true;
	if (kind == 5 && q % 2)
		opt.budget = 20;
	struct path_result r;
	a->st = path_find(ctx, start, goal, &opt, &r);
	a->len = r.len;
	a->end = r.end;
	a->expanded = r.expanded;
	a->cost = r.cost;
	if (r.len > 0)
		memcpy(a->cells, r.cells, (size_t)r.len * sizeof *r.cells);
	for (int i = 0; i < n; i++)
		a->was[i] = path_was_expanded(ctx, i);
}

/*
 * Phases a few generations long: plain A*'s codes change class and come
 * back every few queries, and the sweep between must leave no word of
 * the class's last use.  Every answer of a long-lived context, queries of
 * every kind mixed, equals a fresh context's: route, cost, expansions,
 * the cells expanded and the flood's distances.
 */
static void test_generation_phases(void **state)
{
	(void)state;
	uint32_t seed = 9191;
	struct answer *a = malloc(sizeof *a), *b = malloc(sizeof *b);
	assert_true(a && b);
	long plain_found = 0;
	for (int m = 0; m < 12; m++) {
		const int w = 8 + (int)(rnd(&seed) % 40), h = 8 + (int)(rnd(&seed) % 40);
		struct grid *g = grid_create(w, h, GRID_SQUARE8);
		assert_non_null(g);
		const int n = w * h;
		for (int i = 0; i < n; i++) {
			const int r = (int)(rnd(&seed) % 100);
			const uint8_t c = m % 3 == 0 ? (uint8_t)(1 + rnd(&seed) % 4) : 1;
			grid_set_cost(g, i, r < 22 ? 0 : c);
		}
		struct path_ctx *ctx = path_create(g);
		assert_non_null(ctx);
		/* phases of 1 to 6 generations, of 1 to 3 codes */
		path_set_phases(ctx, 1 + m % 6, 1 + m % 3);
		for (int q = 0; q < 400; q++) {
			/* mostly passable ends; the map itself never changes (the
			 * context chose its search from it when made) */
			int start, goal;
			do {
				start = (int)(rnd(&seed) % (unsigned)n);
				goal = (int)(rnd(&seed) % (unsigned)n);
			} while (q % 5 != 4 && (!g->cost[start] || !g->cost[goal]));
			mixed_query(ctx, g, q, start, goal, a);
			struct path_ctx *fresh = path_create(g);
			assert_non_null(fresh);
			mixed_query(fresh, g, q, start, goal, b);
			path_destroy(fresh);
			assert_int_equal(a->st, b->st);
			assert_int_equal(a->len, b->len);
			assert_int_equal(a->end, b->end);
			assert_true(a->expanded == b->expanded);
			assert_true(a->cost == b->cost);
			assert_memory_equal(a->cells, b->cells, (size_t)a->len * sizeof *a->cells);
			assert_memory_equal(a->was, b->was, (size_t)n * sizeof *a->was);
			assert_memory_equal(a->flood, b->flood, (size_t)n * sizeof *a->flood);
			if (q % 7 < 2 && a->st == PATH_FOUND)
				plain_found++;
		}
		path_destroy(ctx);
		grid_destroy(g);
	}
	free(a);
	free(b);
	assert_true(plain_found > 500);
}

static void test_generation_wrap(void **state)
{
	(void)state;
	const int w = 7, h = 6;
	struct grid *g = grid_create(w, h, GRID_SQUARE8);
	assert_non_null(g);
	for (int i = 0; i < w * h; i++)
		grid_set_cost(g, i, (uint8_t)(1 + i % 3));
	grid_set_cost(g, 2 * w + 3, 0);
	struct path_ctx *ctx = path_create(g);
	assert_non_null(ctx);
	struct path_options opt = path_options_default();
	opt.plain_astar = true;
	struct path_options dij = path_options_default();
	dij.weight = 0.0;
	struct path_result r;
	const int start = w + 1, goal = 4 * w + 5;
	assert_int_equal(path_find(ctx, start, goal, &opt, &r), PATH_FOUND);
	int cells[64];
	const int len = r.len;
	const long expanded = r.expanded;
	assert_true(len <= 64);
	memcpy(cells, r.cells, (size_t)len * sizeof *cells);
	/* Other queries between (a wrap near query 32767), then plain A*
	 * alone (a wrap near 65534, between two plain queries). */
	for (int k = 0; k < 70000; k++) {
		if (k < 35000 && k % 3 == 0)
			path_flood(ctx, goal, NULL, false, 0.0);
		else if (k < 35000 && k % 3 == 1)
			path_find(ctx, goal, start, &dij, &r);
		assert_int_equal(path_find(ctx, start, goal, &opt, &r), PATH_FOUND);
		assert_int_equal(r.len, len);
		assert_true(r.expanded == expanded);
		assert_memory_equal(r.cells, cells, (size_t)len * sizeof *cells);
	}
	path_destroy(ctx);
	grid_destroy(g);
}

static void test_memory(void **state)
{
	(void)state;
	struct grid *g = grid_create(1024, 1024, GRID_SQUARE8);
	struct path_ctx *ctx = path_create(g);
	assert_non_null(ctx);
	assert_true(path_memory(ctx) < 32u * 1024u * 1024u);
	assert_true(path_memory(ctx) > 1024u * 1024u * 16u); /* it does hold every cell */
	path_destroy(ctx);
	path_destroy(NULL);
	grid_destroy(g);
}

/* path_prefault changes no answer: on a fresh context, between queries
 * and on one that has answered many, the same queries give the same
 * status, cost and cells as on a context never prefaulted. */
static void test_prefault(void **state)
{
	(void)state;
	path_prefault(NULL);
	uint32_t seed = 31;
	const enum grid_topology tops[] = { GRID_SQUARE8, GRID_HEX, GRID_DIAMOND8 };
	for (int t = 0; t < 3; t++) {
		struct grid *g = grid_create(300, 200, tops[t]); /* 60,000 records: many pages */
		assert_non_null(g);
		for (int i = 0; i < g->w * g->h; i++)
			grid_set_cost(g, i, rnd(&seed) % 100 < 30 ? 0 : (uint8_t)(1 + rnd(&seed) % 3));
		struct path_ctx *plain = path_create(g), *warm = path_create(g);
		assert_non_null(plain);
		assert_non_null(warm);
		path_prefault(warm);
		for (int q = 0; q < 40; q++) {
			int a = (int)(rnd(&seed) % (unsigned)(g->w * g->h)), b = (int)(rnd(&seed) % (unsigned)(g->w * g->h));
			grid_set_cost(g, a, 1);
			struct path_options opt = path_options_default();
			opt.fallback = q % 2 == 0;
			opt.budget = q % 5 == 1 ? 2000 : 0;
			struct path_result r1, r2;
			enum path_status s1 = path_find(plain, a, b, &opt, &r1);
			if (q % 7 == 3)
				path_prefault(warm);
			enum path_status s2 = path_find(warm, a, b, &opt, &r2);
			assert_int_equal(s1, s2);
			assert_int_equal(r1.len, r2.len);
			assert_true(r1.cost == r2.cost);
			assert_memory_equal(r1.cells, r2.cells, (size_t)r1.len * sizeof *r1.cells);
		}
		path_destroy(plain);
		path_destroy(warm);
		grid_destroy(g);
	}
}

/*
 * The queue starts small and grows during a query (path.c, queue_grow):
 * a fresh context, whose queue grows in the middle of each search (dear
 * terrain keeps a wide band of cells open; a serpentine route outgrows
 * it with its cells), answers exactly as one prefaulted to the full
 * bound: status, cells, cost, expansions, and a flood's distances.
 */
static void test_queue_growth(void **state)
{
	(void)state;
	uint32_t seed = 77;
	const enum grid_topology tops[] = { GRID_SQUARE8, GRID_SQUARE4, GRID_HEX };
	for (int t = 0; t < 3; t++) {
		const int w = 256, h = 300, n = w * h;
		struct grid *g = grid_create(w, h, tops[t]);
		assert_non_null(g);
		for (int i = 0; i < n; i++) {
			const int x = i % w, y = i / w;
			/* the top half: a floor on the left (long tie runs), a
			 * checkerboard of costs 1 and 255 on the right (each dear cell
			 * stays open until the search's f passes it by 255 steps);
			 * the bottom half a serpentine of wall rows (a long route) */
			uint8_t c = x < w / 3 || (x + y) % 2 ? 1 : 255;
			if (y >= h / 2)
				c = y % 2 == 0 || (y % 4 == 1 ? x == w - 1 : x == 0) ? 1 : 0;
			grid_set_cost(g, i, c);
		}
		struct path_ctx *warm = path_create(g);
		assert_non_null(warm);
		path_prefault(warm);
		int grew = 0;
		for (int q = 0; q < 12; q++) {
			int a, b;
			do {
				a = (int)(rnd(&seed) % (unsigned)n);
				b = (int)(rnd(&seed) % (unsigned)n);
			} while (!g->cost[a] || !g->cost[b]);
			if (q % 3 == 0) {
				a = 0;
				b = n - w - 1; /* the serpentine's far end */
			}
			struct path_options opt = path_options_default();
			opt.weight = q % 4 == 1 ? 0.0 : q % 4 == 2 ? 1.5 : 1.0;
			opt.fallback = q % 5 == 3;
			opt.plain_astar = true;
			struct path_ctx *fresh = path_create(g);
			assert_non_null(fresh);
			const size_t before = path_memory(fresh);
			struct path_result r1, r2;
			const enum path_status s1 = path_find(fresh, a, b, &opt, &r1);
			const enum path_status s2 = path_find(warm, a, b, &opt, &r2);
			assert_int_equal(s1, s2);
			assert_int_not_equal(s1, PATH_BAD_INPUT);
			assert_int_equal(r1.len, r2.len);
			assert_true(r1.cost == r2.cost);
			assert_true(r1.expanded == r2.expanded);
			assert_memory_equal(r1.cells, r2.cells, (size_t)r1.len * sizeof *r1.cells);
			grew += path_memory(fresh) > before;
			path_flood(fresh, a, &opt, false, 0.0);
			path_flood(warm, a, &opt, false, 0.0);
			for (int c = 0; c < n; c += 7)
				assert_true(path_flood_distance(fresh, c) == path_flood_distance(warm, c));
			path_destroy(fresh);
		}
		assert_true(grew >= 4); /* at least the corner to corner routes grew it */
		path_destroy(warm);
		grid_destroy(g);
	}
}

/* What a context holds per cell on the largest legal level (4096 x 4096):
 * an 8-byte word and an 8-byte record, the ring's pool and a queue that
 * starts small.  It was 30 bytes a cell (a 16-byte record, and a queue
 * sized for every cell at once). */
static void test_memory_largest(void **state)
{
	(void)state;
	struct grid *g = grid_create(4096, 4096, GRID_SQUARE8);
	assert_non_null(g);
	grid_fill(g, 1);
	struct path_ctx *ctx = path_create(g);
	assert_non_null(ctx);
	const double per_cell = (double)path_memory(ctx) / (4096.0 * 4096.0);
	assert_true(per_cell < 17.0);
	assert_true(per_cell > 16.0);
	struct path_result r;
	assert_int_equal(path_find(ctx, 0, 4096 * 4096 - 1, NULL, &r), PATH_FOUND);
	assert_int_equal(r.len, 4096);
	path_destroy(ctx);
	grid_destroy(g);
}

/*
 * path_options.stop: a budgeted search whose flag is set ends as out of
 * budget within PATH_STOP_EVERY (1,024) expansions of its start; with the
 * flag clear it answers as without one, to the expansion and the cell.
 * On every grid, plain (the ring) and weighted, on a map with obstacles.
 */
static void test_stop_flag(void **state)
{
	(void)state;
	static const enum grid_topology topos[] = { GRID_SQUARE4, GRID_SQUARE8, GRID_HEX, GRID_DIAMOND4, GRID_DIAMOND8 };
	for (size_t t = 0; t < sizeof topos / sizeof topos[0]; t++) {
		const int w = 300, h = 300;
		struct grid *g = grid_create(w, h, topos[t]);
		assert_non_null(g);
		uint8_t *cost = malloc((size_t)w * h);
		assert_non_null(cost);
		uint32_t seed = 77u + (uint32_t)t;
		for (int c = 0; c < w * h; c++)
			cost[c] = rnd(&seed) % 100 < 20 ? 0 : 1;
		cost[0] = cost[w * h - 1] = 1;
		grid_set_costs(g, cost);
		struct path_ctx *ctx = path_create(g);
		assert_non_null(ctx);
		for (int k = 0; k < 3; k++) {
			const double weight = k == 0 ? 1.0 : k == 1 ? 1.5 : 3.0;
			struct path_options opt = path_options_default();
			opt.weight = weight;
			opt.budget = 200000;
			struct path_result r;
			const enum path_status want = path_find(ctx, 0, w * h - 1, &opt, &r);
			const long want_ex = r.expanded;
			int *want_cells = malloc(sizeof *want_cells * (size_t)r.len);
			assert_non_null(want_cells);
			memcpy(want_cells, r.cells, sizeof *want_cells * (size_t)r.len);
			const int want_len = r.len;
			atomic_int stop;
			atomic_init(&stop, 0);
			opt.stop = &stop;
			assert_int_equal(path_find(ctx, 0, w * h - 1, &opt, &r), want);
			assert_int_equal(r.expanded, want_ex);
			assert_int_equal(r.len, want_len);
			assert_memory_equal(r.cells, want_cells, sizeof *want_cells * (size_t)want_len);
			if (want_ex > 2048) { /* set: ends as out of budget at its first look */
				atomic_store(&stop, 1);
				if (path_find(ctx, 0, w * h - 1, &opt, &r) != PATH_BUDGET)
					fail_msg("%s, weight %.1f: not stopped (%ld expansions)", grid_topology_name(topos[t]), weight, r.expanded);
				assert_true(r.expanded <= 1024);
			}
			free(want_cells);
		}
		path_destroy(ctx);
		free(cost);
		grid_destroy(g);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stop_flag),
		cmocka_unit_test(test_jps_wide_and_changing),
		cmocka_unit_test(test_jps_diagonal_through),
		cmocka_unit_test(test_jps4_vertical_through),
		cmocka_unit_test(test_jps4_wide_and_changing),
		cmocka_unit_test(test_jps4_random),
		cmocka_unit_test(test_jps_choice),
		cmocka_unit_test(test_straight_choice),
		cmocka_unit_test(test_random_square4),
		cmocka_unit_test(test_random_square8),
		cmocka_unit_test(test_random_hex),
		cmocka_unit_test(test_random_diamond4),
		cmocka_unit_test(test_random_diamond8),
		cmocka_unit_test(test_turned_diamond4),
		cmocka_unit_test(test_turned_diamond8),
		cmocka_unit_test(test_fallback_random_diamond4),
		cmocka_unit_test(test_fallback_random_diamond8),
		cmocka_unit_test(test_fallback_exact_diamond4),
		cmocka_unit_test(test_fallback_exact_diamond8),
		cmocka_unit_test(test_random_square8_uniform),
		cmocka_unit_test(test_fallback_random_square8),
		cmocka_unit_test(test_fallback_random_square4),
		cmocka_unit_test(test_fallback_random_hex),
		cmocka_unit_test(test_fallback_exact_square8),
		cmocka_unit_test(test_fallback_exact_square4),
		cmocka_unit_test(test_fallback_exact_hex),
		cmocka_unit_test(test_fallback_corner_rule),
		cmocka_unit_test(test_fallback_finite_penalty),
		cmocka_unit_test(test_solid_random_square8),
		cmocka_unit_test(test_solid_random_square4),
		cmocka_unit_test(test_solid_random_hex),
		cmocka_unit_test(test_solid_random_diamond8),
		cmocka_unit_test(test_simple_cases),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_flood),
		cmocka_unit_test(test_extra_costs),
		cmocka_unit_test(test_exact_ties),
		cmocka_unit_test(test_fallback_sealed_layers),
		cmocka_unit_test(test_plain_ring),
		cmocka_unit_test(test_plain_ring_hex),
		cmocka_unit_test(test_plain_ring_square4),
		cmocka_unit_test(test_plain_ring_diamond4),
		cmocka_unit_test(test_plain_ring_diamond8),
		cmocka_unit_test(test_weighted_ring),
		cmocka_unit_test(test_weighted_ring_hex),
		cmocka_unit_test(test_weighted_ring_square4),
		cmocka_unit_test(test_weighted_ring_diamond4),
		cmocka_unit_test(test_weighted_ring_diamond8),
		cmocka_unit_test(test_plain_big_buckets),
		cmocka_unit_test(test_plain_big_buckets_whole),
		cmocka_unit_test(test_plain_large_costs),
		cmocka_unit_test(test_plain_maze),
		cmocka_unit_test(test_plain_far_buckets),
		cmocka_unit_test(test_generation_wrap),
		cmocka_unit_test(test_generation_phases),
		cmocka_unit_test(test_memory),
		cmocka_unit_test(test_prefault),
		cmocka_unit_test(test_queue_growth),
		cmocka_unit_test(test_memory_largest),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
