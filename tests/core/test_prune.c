/* test_prune.c - dead-end pruning against path_find on random maps, and the peeled trees themselves. */
#include <math.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "testmaze.h"
#include "testrand.h"

#include "grid.h"
#include "path.h"
#include "prune.h"
#include "grid_text.h"

#if defined(__SANITIZE_ADDRESS__)
#define HAVE_ASAN_STATS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HAVE_ASAN_STATS 1
#endif
#endif
#ifdef HAVE_ASAN_STATS
/* The sanitizer runtime's allocator statistics (its allocator_interface.h,
 * which not every toolchain installs). */
size_t __sanitizer_get_current_allocated_bytes(void);
size_t __sanitizer_get_heap_size(void);
size_t __sanitizer_get_free_bytes(void);
#endif

static int rnd_below(uint32_t *s, int n) { return (int)(rnd(s) % (uint32_t)n); }

static const enum grid_topology topologies[] = { GRID_SQUARE4, GRID_SQUARE8, GRID_HEX, GRID_DIAMOND4, GRID_DIAMOND8 };


/* Moves counted twice (once from each end) among the 3 x 3 box around
 * cell c: opening or closing c changes no move outside it (a move into c,
 * or a diagonal past c, joins two cells of the box). */
static int box_moves(const struct grid *g, int c, bool cc)
{
	struct grid_step s[GRID_MAX_NEIGHBOURS];
	int cx = grid_x(g, c), cy = grid_y(g, c), m = 0;
	/* on diamond maps the box is 3 x 5: a corner step into c spans two rows */
	const int ry = grid_is_diamond(g->topo) ? 2 : 1;
	for (int y = cy - ry; y <= cy + ry; y++) {
		for (int x = cx - 1; x <= cx + 1; x++) {
			if (!grid_in_bounds(g, x, y) || !g->cost[grid_index(g, x, y)])
				continue;
			int k = grid_neighbours(g, grid_index(g, x, y), cc, s);
			for (int i = 0; i < k; i++) {
				int vx = grid_x(g, s[i].cell), vy = grid_y(g, s[i].cell);
				if (vx >= cx - 1 && vx <= cx + 1 && vy >= cy - ry && vy <= cy + ry)
					m++;
			}
		}
	}
	return m;
}

/* Grows a forest on an all-blocked grid: up to `seeds` isolated cells, then
 * cells that add exactly one move each, so the move graph stays a forest
 * with one tree per seed that took.  Returns the number of trees. */
static int grow_forest(struct grid *g, uint32_t *rng, int seeds, bool cc)
{
	int n = g->w * g->h, trees = 0;
	for (int t = 0; t < seeds * 4 && trees < seeds; t++) {
		int c = rnd_below(rng, n);
		if (g->cost[c])
			continue;
		int before = box_moves(g, c, cc);
		grid_set_cost(g, c, 1);
		if (box_moves(g, c, cc) == before)
			trees++;
		else
			grid_set_cost(g, c, 0);
	}
	for (int t = 0; t < n * 12; t++) {
		int c = rnd_below(rng, n);
		if (g->cost[c])
			continue;
		int before = box_moves(g, c, cc);
		grid_set_cost(g, c, 1);
		if (box_moves(g, c, cc) != before + 2)
			grid_set_cost(g, c, 0);
	}
	return trees;
}

/* Components of the move graph, numbered in comp[] (-1 blocked); returns the count. */
static int count_components(const struct grid *g, bool cc, int *comp)
{
	int n = g->w * g->h, next = 0;
	int *queue = malloc((size_t)n * sizeof *queue);
	assert_non_null(queue);
	struct grid_step s[GRID_MAX_NEIGHBOURS];
	for (int c = 0; c < n; c++)
		comp[c] = -1;
	for (int c = 0; c < n; c++) {
		if (!g->cost[c] || comp[c] >= 0)
			continue;
		int head = 0, tail = 0;
		comp[c] = next;
		queue[tail++] = c;
		while (head < tail) {
			int u = queue[head++], k = grid_neighbours(g, u, cc, s);
			for (int i = 0; i < k; i++)
				if (comp[s[i].cell] < 0) {
					comp[s[i].cell] = next;
					queue[tail++] = s[i].cell;
				}
		}
		next++;
	}
	free(queue);
	return next;
}

/* Checks that r is a legal walk from start to goal whose cost, summed
 * here, is the reported one. */
static void check_walk(const struct grid *g, bool cc, int start, int goal, const struct path_result *r)
{
	assert_true(r->len >= 1);
	assert_int_equal(r->cells[0], start);
	assert_int_equal(r->cells[r->len - 1], goal);
	assert_int_equal(r->end, goal);
	assert_int_equal(r->steps, r->len - 1);
	double sum = 0.0;
	for (int i = 1; i < r->len; i++) {
		int a = r->cells[i - 1], b = r->cells[i];
		assert_true(grid_is_adjacent(g, a, b));
		assert_true(grid_passable(g, b));
		struct grid_step s[GRID_MAX_NEIGHBOURS];
		int k = grid_neighbours(g, a, cc, s), j = 0;
		while (j < k && s[j].cell != b)
			j++;
		assert_true(j < k); /* a move the rules allow (corners included) */
		sum += s[j].step * (double)g->cost[b];
	}
	assert_true(fabs(sum - r->cost) <= 1e-9 * (1.0 + sum));
}

/* ---- hand-made maps ---- */

static const char *const room_tail[] = {
	"#######",
	"#.....#",
	"#.....#",
	"#.....#",
	"###.###",
	"###.###",
	"#######",
};

static const char *const ring_tail[] = {
	"#######",
	"#.....#",
	"#.###.#",
	"#.....#",
	"###.###",
	"###.###",
	"#######",
};

static void test_ring_with_tail(void **state)
{
	(void)state;
	for (int t = 0; t < 2; t++) {
		struct grid *g = grid_from(topologies[t], ring_tail, 7);
		struct prune *p = prune_create(g, false);
		assert_non_null(p);
		int hub = grid_index(g, 3, 3), mid = grid_index(g, 3, 4), tip = grid_index(g, 3, 5);
		assert_int_equal(prune_peeled(p), 2);
		assert_int_equal(prune_root(p, tip), hub);
		assert_int_equal(prune_root(p, mid), hub);
		assert_int_equal(prune_depth(p, tip), 2);
		assert_int_equal(prune_depth(p, mid), 1);
		assert_int_equal(prune_root(p, hub), hub);
		assert_int_equal(prune_depth(p, hub), 0);
		assert_int_equal(prune_root(p, grid_index(g, 1, 1)), grid_index(g, 1, 1));
		assert_int_equal(prune_root(p, 0), -1);
		assert_int_equal(prune_depth(p, 0), -1);

		/* Tip to the far corner: down the tail, then round the ring. */
		struct path_result r;
		int far = grid_index(g, 1, 1);
		assert_int_equal(prune_find(p, tip, far, NULL, &r), PATH_FOUND);
		check_walk(g, false, tip, far, &r);
		struct path_ctx *ctx = path_create(g);
		assert_non_null(ctx);
		struct path_result ref;
		path_find(ctx, tip, far, NULL, &ref);
		assert_true(fabs(ref.cost - r.cost) < 1e-9);
		assert_int_equal(r.len, 7); /* 2 in the tail, 4 on the ring (diagonals are cut by walls) */
		path_destroy(ctx);
		prune_destroy(p);

		/* With corner cutting on square8 the tail's top cell sees three
		 * ring cells, so only the tip hangs. */
		if (topologies[t] == GRID_SQUARE8) {
			p = prune_create(g, true);
			assert_non_null(p);
			assert_int_equal(prune_peeled(p), 1);
			assert_int_equal(prune_root(p, tip), mid);
			prune_destroy(p);
		}
		grid_destroy(g);
	}
}

static void test_options_not_served(void **state)
{
	(void)state;
	struct grid *g = grid_from(GRID_SQUARE8, ring_tail, 7);
	struct prune *p = prune_create(g, false);
	assert_non_null(p);
	struct path_result r;
	int a = grid_index(g, 1, 1), b = grid_index(g, 3, 5);
	struct path_options o = path_options_default();
	o.fallback = true;
	assert_int_equal(prune_find(p, a, b, &o, &r), PATH_BAD_INPUT);
	o = path_options_default();
	o.corner_cutting = true;
	assert_int_equal(prune_find(p, a, b, &o, &r), PATH_BAD_INPUT);
	assert_int_equal(prune_find(p, 0, b, NULL, &r), PATH_BAD_INPUT);  /* start blocked */
	assert_int_equal(prune_find(p, a, -1, NULL, &r), PATH_BAD_INPUT);
	assert_int_equal(prune_find(p, a, 49, NULL, &r), PATH_BAD_INPUT); /* past the end */
	assert_int_equal(prune_find(p, a, 0, NULL, &r), PATH_NO_ROUTE);   /* goal blocked */
	assert_int_equal(r.len, 1);
	assert_int_equal(r.cells[0], a);
	assert_false(r.reached);
	assert_int_equal(prune_find(p, a, a, NULL, &r), PATH_FOUND);
	assert_int_equal(r.len, 1);
	assert_true(r.reached);
	assert_true(r.cost == 0.0);
	prune_destroy(p);
	grid_destroy(g);
}

/* An open map with one dead-end niche: the peeling finds it, but a tree
 * of one cell in 1,600 is not worth keeping, so every query is path_find
 * on the map itself; the answers stay path_find's. */
static void test_few_dead_ends_not_kept(void **state)
{
	(void)state;
	for (int t = 0; t < 2; t++) {
		struct grid *g = grid_create(40, 40, topologies[t]);
		assert_non_null(g);
		grid_fill(g, 1);
		grid_set_cost(g, grid_index(g, 5, 4), 0);
		grid_set_cost(g, grid_index(g, 4, 5), 0);
		grid_set_cost(g, grid_index(g, 6, 5), 0);
		const int tip = grid_index(g, 5, 5);
		struct prune *p = prune_create(g, false);
		struct path_ctx *ctx = path_create(g);
		assert_non_null(p);
		assert_non_null(ctx);
		assert_int_equal(prune_dead_ends(p), 1);
		assert_int_equal(prune_peeled(p), 0);
		assert_int_equal(prune_root(p, tip), tip);
		assert_int_equal(prune_depth(p, tip), 0);
		assert_int_equal(prune_root(p, grid_index(g, 5, 4)), -1);
		const int goals[] = { grid_index(g, 39, 39), grid_index(g, 0, 0), grid_index(g, 5, 3), tip };
		for (int i = 0; i < 4; i++) {
			struct path_result a, b;
			assert_int_equal(prune_find(p, tip, goals[i], NULL, &a), PATH_FOUND);
			check_walk(g, false, tip, goals[i], &a);
			path_find(ctx, tip, goals[i], NULL, &b);
			assert_true(fabs(a.cost - b.cost) < 1e-9);
			assert_int_equal(a.len, b.len);
		}
		path_destroy(ctx);
		prune_destroy(p);
		grid_destroy(g);
	}
}

/* ---- forests: one root per component ---- */

static void test_perfect_maze_one_root_per_component(void **state)
{
	(void)state;
	uint32_t rng = 0x9e3779b9u;
	for (int t = 0; t < 5; t++) {
		for (int m = 0; m < 60; m++) {
			int w = 4 + rnd_below(&rng, 20), h = 4 + rnd_below(&rng, 20);
			bool cc = (topologies[t] == GRID_SQUARE8 || topologies[t] == GRID_DIAMOND8) && m % 4 == 3;
			struct grid *g = grid_create(w, h, topologies[t]);
			assert_non_null(g);
			int trees = grow_forest(g, &rng, 1 + m % 3, cc);
			int n = w * h, passable = 0;
			int *comp = malloc((size_t)n * sizeof *comp);
			assert_non_null(comp);
			assert_int_equal(count_components(g, cc, comp), trees);
			struct prune *p = prune_create(g, cc);
			assert_non_null(p);
			int roots = 0;
			int *root_of_comp = malloc((size_t)trees * sizeof *root_of_comp);
			assert_non_null(root_of_comp);
			for (int i = 0; i < trees; i++)
				root_of_comp[i] = -1;
			for (int c = 0; c < n; c++) {
				if (!g->cost[c]) {
					assert_int_equal(prune_root(p, c), -1);
					continue;
				}
				passable++;
				int r = prune_root(p, c);
				assert_true(r >= 0);
				assert_int_equal(comp[r], comp[c]);
				assert_int_equal(prune_component(p, r), prune_component(p, c));
				if (r == c) {
					roots++;
					assert_int_equal(prune_depth(p, c), 0);
				}
				if (root_of_comp[comp[c]] < 0)
					root_of_comp[comp[c]] = r;
				assert_int_equal(root_of_comp[comp[c]], r); /* one root per tree */
			}
			assert_int_equal(roots, trees);
			assert_int_equal(prune_peeled(p), passable); /* no core at all */
			free(root_of_comp);
			free(comp);
			prune_destroy(p);
			grid_destroy(g);
		}
	}
}

/* ---- random maps: every answer against path_find ---- */

struct coverage {
	long same_tree, different_roots, core_to_core, no_route, start_is_goal, found;
};

/* A random map with dead ends: a forest plus random openings (cycles,
 * pockets), or random walls at 30-45 %; terrain 1..3, or all 1. */
static void random_map(struct grid *g, uint32_t *rng, int kind, bool cc)
{
	int n = g->w * g->h;
	grid_fill(g, 0);
	if (kind % 2 == 0) {
		grow_forest(g, rng, 1 + rnd_below(rng, 3), cc);
		int extra = rnd_below(rng, n / 6 + 1);
		for (int i = 0; i < extra; i++)
			grid_set_cost(g, rnd_below(rng, n), 1);
	} else {
		int wall = 30 + rnd_below(rng, 16);
		for (int c = 0; c < n; c++)
			grid_set_cost(g, c, rnd_below(rng, 100) >= wall);
	}
	if (kind % 3 != 0)
		for (int c = 0; c < n; c++)
			if (g->cost[c])
				grid_set_cost(g, c, (uint8_t)(1 + rnd_below(rng, 3)));
}

/* A random passable cell for which want(cell) holds, or -1. */
static int pick(const struct grid *g, const struct prune *p, uint32_t *rng, int kind, int other)
{
	int n = g->w * g->h, from = rnd_below(rng, n);
	for (int k = 0; k < n; k++) {
		int c = (from + k) % n;
		if (!g->cost[c])
			continue;
		bool core = prune_depth(p, c) == 0 && prune_root(p, c) == c;
		switch (kind) {
		case 0: /* any */
			return c;
		case 1: /* same tree as other, not other */
			if (c != other && prune_root(p, c) == prune_root(p, other))
				return c;
			break;
		case 2: /* peeled, another root, same component */
			if (prune_depth(p, c) > 0 && prune_root(p, c) != prune_root(p, other) &&
			    prune_component(p, c) == prune_component(p, other))
				return c;
			break;
		case 3: /* a root */
			if (core && c != other)
				return c;
			break;
		default:
			break;
		}
	}
	return -1;
}

static void compare_one(const struct grid *g, struct prune *p, struct path_ctx *ctx,
			const struct path_options *o, int s, int goal, struct coverage *cov)
{
	struct path_result a, b;
	enum path_status sa = prune_find(p, s, goal, o, &a);
	enum path_status sb = path_find(ctx, s, goal, o, &b);
	assert_int_equal(sa, sb);
	assert_int_equal(a.reached, b.reached);
	if (sa == PATH_NO_ROUTE) {
		cov->no_route++;
		assert_int_equal(a.len, 1);
		assert_int_equal(a.cells[0], s);
		return;
	}
	assert_int_equal(sa, PATH_FOUND);
	cov->found++;
	if (s == goal)
		cov->start_is_goal++;
	else if (prune_root(p, s) == prune_root(p, goal))
		cov->same_tree++;
	else {
		cov->different_roots++;
		if (prune_depth(p, s) == 0 && prune_depth(p, goal) == 0)
			cov->core_to_core++;
	}
	if (fabs(a.cost - b.cost) > 1e-9 * (1.0 + b.cost))
		fail_msg("%s %dx%d %d -> %d: prune %.9f, path_find %.9f",
			 grid_topology_name(g->topo), g->w, g->h, s, goal, a.cost, b.cost);
	check_walk(g, o->corner_cutting, s, goal, &a);
}

static void test_random_maps_match_path_find(void **state)
{
	(void)state;
	uint32_t rng = 12345;
	for (int t = 0; t < 5; t++) {
		struct coverage cov = { 0 };
		long peeled = 0;
		for (int m = 0; m < 1000; m++) {
			int w = 1 + rnd_below(&rng, 20), h = 1 + rnd_below(&rng, 20);
			bool cc = (topologies[t] == GRID_SQUARE8 || topologies[t] == GRID_DIAMOND8) && m % 5 == 4;
			struct grid *g = grid_create(w, h, topologies[t]);
			assert_non_null(g);
			random_map(g, &rng, m, cc);
			struct prune *p = prune_create(g, cc);
			struct path_ctx *ctx = path_create(g);
			assert_non_null(p);
			assert_non_null(ctx);
			peeled += prune_peeled(p);
			struct path_options o = path_options_default();
			o.corner_cutting = cc;
			o.weight = m % 2 ? 0.0 : 1.0;
			for (int q = 0; q < 16; q++) {
				int n = w * h, s = pick(g, p, &rng, 0, -1);
				if (s < 0)
					break;
				int goal;
				switch (q % 8) {
				case 0: goal = rnd_below(&rng, n); break;   /* blocked or elsewhere too */
				case 1: goal = s; break;
				case 2: case 3: goal = pick(g, p, &rng, 1, s); break;
				case 4: case 5: goal = pick(g, p, &rng, 2, s); break;
				case 6: s = pick(g, p, &rng, 3, -1); goal = s < 0 ? -1 : pick(g, p, &rng, 3, s); break;
				default: goal = pick(g, p, &rng, 0, -1); break;
				}
				if (s < 0 || goal < 0)
					continue;
				compare_one(g, p, ctx, &o, s, goal, &cov);
			}
			path_destroy(ctx);
			prune_destroy(p);
			grid_destroy(g);
		}
		print_message("%s: %ld found (%ld start=goal, %ld same tree, %ld across roots, %ld core to core), "
			      "%ld no route, %ld cells peeled\n",
			      grid_topology_name(topologies[t]), cov.found, cov.start_is_goal, cov.same_tree,
			      cov.different_roots, cov.core_to_core, cov.no_route, peeled);
		/* Every kind of query was asked, many times. */
		assert_true(cov.start_is_goal >= 100);
		assert_true(cov.same_tree >= 500);
		assert_true(cov.different_roots >= 500);
		assert_true(cov.core_to_core >= 100);
		assert_true(cov.no_route >= 100);
	}
}

/* Mazes with loops on every grid (a forest, then a few cells more, each
 * joining trees or closing a loop): their cores are mostly corridor, so
 * they are searched as chains of junctions; every answer, at weights 0 and
 * 1, costs what path_find's costs (a legal walk), weight 1.5 at most 1.5
 * times that, and a budget of a few junctions answers a partial route
 * that ends on the core. */
static void test_chains_match_path_find(void **state)
{
	(void)state;
	uint32_t rng = 2468;
	for (int t = 0; t < 5; t++) {
		struct coverage cov = { 0 };
		long chained = 0, junctions = 0, weighted = 0, partial = 0;
		for (int m = 0; m < 400; m++) {
			const int w = 8 + rnd_below(&rng, 40), h = 8 + rnd_below(&rng, 30), n = w * h;
			const bool cc = (topologies[t] == GRID_SQUARE8 || topologies[t] == GRID_DIAMOND8) && m % 5 == 4;
			struct grid *g = grid_create(w, h, topologies[t]);
			assert_non_null(g);
			grid_fill(g, 0);
			grow_forest(g, &rng, 1 + rnd_below(&rng, 3), cc);
			const int extra = 1 + rnd_below(&rng, n / 40 + 1);
			for (int i = 0; i < extra; i++)
				grid_set_cost(g, rnd_below(&rng, n), 1);
			if (m % 3 != 0)
				for (int c = 0; c < n; c++)
					if (g->cost[c])
						grid_set_cost(g, c, (uint8_t)(1 + rnd_below(&rng, 3)));
			struct prune *p = prune_create(g, cc);
			struct path_ctx *ctx = path_create(g);
			assert_non_null(p);
			assert_non_null(ctx);
			if (prune_junctions(p) == 0) {
				prune_destroy(p);
				path_destroy(ctx);
				grid_destroy(g);
				continue;
			}
			chained++;
			junctions += prune_junctions(p);
			struct path_options o = path_options_default();
			o.corner_cutting = cc;
			o.weight = m % 2 ? 0.0 : 1.0;
			for (int q = 0; q < 24; q++) {
				int s = pick(g, p, &rng, q % 4 == 0 ? 3 : 0, -1);
				if (s < 0)
					break;
				const int goal = q % 4 == 1 ? pick(g, p, &rng, 3, s) : pick(g, p, &rng, q % 2 ? 2 : 0, s);
				if (goal < 0)
					continue;
				compare_one(g, p, ctx, &o, s, goal, &cov);
				/* weighted: found where the exact one is, within its weight */
				struct path_options ow = o;
				ow.weight = 1.5;
				struct path_result a, b;
				const enum path_status sa = prune_find(p, s, goal, &ow, &a);
				const double acost = a.cost;
				const enum path_status sb = path_find(ctx, s, goal, &o, &b);
				assert_int_equal(sa, sb);
				if (sa == PATH_FOUND) {
					assert_true(acost <= 1.5 * b.cost + 1e-9 * (1.0 + b.cost));
					assert_true(acost >= b.cost - 1e-9 * (1.0 + b.cost));
					weighted++;
				}
				/* a budget of one junction, where the route needs more */
				struct path_options ob = o;
				ob.budget = 1;
				const enum path_status sc = prune_find(p, s, goal, &ob, &a);
				if (sc == PATH_BUDGET) {
					partial++;
					assert_false(a.reached);
					assert_int_equal(a.cells[0], s);
					assert_int_equal(prune_depth(p, a.end), 0);
					for (int i = 1; i < a.len; i++)
						assert_true(grid_is_adjacent(g, a.cells[i - 1], a.cells[i]));
				} else {
					assert_int_equal(sc, sb);
				}
			}
			prune_destroy(p);
			path_destroy(ctx);
			grid_destroy(g);
		}
		print_message("%s: %ld maps as chains (%ld junctions), %ld found (%ld core to core), %ld no route, "
			      "%ld weighted, %ld partial\n",
			      grid_topology_name(topologies[t]), chained, junctions, cov.found, cov.core_to_core,
			      cov.no_route, weighted, partial);
		assert_true(chained >= 50);
		assert_true(cov.core_to_core >= 200);
		assert_true(weighted >= 200);
		assert_true(partial >= 50);
	}
}

/* test_maze_carve's dig into a grid: the cell opens at cost 1. */
static void dig_grid(void *ctx, int x, int y)
{
	struct grid *g = ctx;
	grid_set_cost(g, grid_index(g, x, y), 1);
}

/* prune_create_until with its flag clear prepares g as prune_create did
 * (p); with it set, not at all. */
static void assert_until_alike(const struct grid *g, const struct prune *p)
{
	atomic_int stop;
	atomic_init(&stop, 0);
	struct prune *q = prune_create_until(g, false, &stop);
	assert_non_null(q);
	assert_int_equal(prune_peeled(q), prune_peeled(p));
	assert_int_equal(prune_junctions(q), prune_junctions(p));
	for (int c = 0; c < g->w * g->h; c++) {
		assert_int_equal(prune_depth(q, c), prune_depth(p, c));
		if (c % 31 == 0) { /* a climb each */
			assert_int_equal(prune_root(q, c), prune_root(p, c));
			assert_int_equal(prune_component(q, c), prune_component(p, c));
		}
	}
	prune_destroy(q);
	atomic_store(&stop, 1);
	assert_null(prune_create_until(g, false, &stop));
}

/* Cores larger than the sample's threshold: a maze beside a wide open
 * floor (its core mostly open ground: told so by a sample, searched whole,
 * its components from region labels, with a sealed room for a second
 * one), and a maze with loops (mostly corridor: kept as chains); every
 * answer the same as path_find's. */
static void test_large_cores(void **state)
{
	(void)state;
	uint32_t rng = 97531;
	const enum grid_topology topos[] = { GRID_SQUARE8, GRID_SQUARE4 };
	for (int t = 0; t < 2; t++) {
		for (int kind = 0; kind < 2; kind++) {
			const int w = kind == 0 ? 641 : 601, h = kind == 0 ? 321 : 601;
			struct grid *g = grid_create(w, h, topos[t]);
			assert_non_null(g);
			grid_fill(g, 0);
			int open = 0;
			if (kind == 0) {
				test_maze_carve(150, (h - 1) / 2, &rng, dig_grid, g); /* x 1..299 */
				for (int y = 1; y < h - 1; y++)
					for (int x = 305; x < w - 1; x++)
						grid_set_cost(g, grid_index(g, x, y), (uint8_t)(1 + rnd_below(&rng, 3)));
				for (int x = 299; x < 305; x++) /* one door from the maze */
					grid_set_cost(g, grid_index(g, x, 1), 1);
				for (int y = 100; y < 140; y++) /* a sealed room in the floor */
					for (int x = 400; x < 440; x++)
						if (y == 100 || y == 139 || x == 400 || x == 439)
							grid_set_cost(g, grid_index(g, x, y), 0);
				open = grid_index(g, 500, 200);
			} else {
				test_maze_carve((w - 1) / 2, (h - 1) / 2, &rng, dig_grid, g);
				for (int i = 0; i < w * h / 25; i++) { /* knock walls out between corridors */
					const int x = 1 + rnd_below(&rng, w - 2), y = 1 + rnd_below(&rng, h - 2), c = grid_index(g, x, y);
					if (!g->cost[c] && ((g->cost[c - 1] && g->cost[c + 1]) || (g->cost[c - w] && g->cost[c + w])))
						grid_set_cost(g, c, 1);
				}
			}
			struct prune *p = prune_create(g, false);
			struct path_ctx *ctx = path_create(g);
			assert_non_null(p);
			assert_non_null(ctx);
			assert_true(prune_peeled(p) > 0);
			if (kind == 0)
				assert_int_equal(prune_junctions(p), 0);
			else
				assert_true(prune_junctions(p) > 0);
			assert_until_alike(g, p);
			struct path_options o = path_options_default();
			struct coverage cov = { 0 };
			for (int q = 0; q < 40; q++) {
				const int s = q % 4 == 0 && open ? open : pick(g, p, &rng, 0, -1);
				const int goal = q % 5 == 1 && kind == 0 ? grid_index(g, 420, 120) : pick(g, p, &rng, 0, s);
				assert_true(s >= 0 && goal >= 0);
				compare_one(g, p, ctx, &o, s, goal, &cov);
			}
			if (kind == 0) {
				/* the sealed room is a component of its own */
				assert_true(prune_component(p, grid_index(g, 420, 120)) != prune_component(p, open));
				assert_true(cov.no_route >= 1);
			}
			assert_true(cov.found >= 20);
			prune_destroy(p);
			path_destroy(ctx);
			grid_destroy(g);
		}
	}
}

/* A 2^k-cell perfect maze in the Moving AI shape (corridors one cell wide,
 * square8 without corner cutting): every query is a tree walk. */
static void test_corridor_maze_is_one_tree(void **state)
{
	(void)state;
	enum { W = 41, H = 31 };
	struct grid *g = grid_create(W, H, GRID_SQUARE8);
	assert_non_null(g);
	/* Depth-first carving on the odd cells, with an explicit stack. */
	int *stack = malloc(sizeof(int) * W * H);
	assert_non_null(stack);
	uint32_t rng = 777;
	int top = 0, start = grid_index(g, 1, 1);
	grid_set_cost(g, start, 1);
	stack[top++] = start;
	while (top > 0) {
		int c = stack[top - 1], x = grid_x(g, c), y = grid_y(g, c);
		static const int dx[4] = { 2, -2, 0, 0 }, dy[4] = { 0, 0, 2, -2 };
		int opts[4], k = 0;
		for (int i = 0; i < 4; i++) {
			int nx = x + dx[i], ny = y + dy[i];
			if (nx > 0 && ny > 0 && nx < W - 1 && ny < H - 1 && !g->cost[grid_index(g, nx, ny)])
				opts[k++] = i;
		}
		if (k == 0) {
			top--;
			continue;
		}
		int i = opts[rnd_below(&rng, k)];
		grid_set_cost(g, grid_index(g, x + dx[i] / 2, y + dy[i] / 2), 1);
		grid_set_cost(g, grid_index(g, x + dx[i], y + dy[i]), 1);
		stack[top++] = grid_index(g, x + dx[i], y + dy[i]);
	}
	free(stack);
	struct prune *p = prune_create(g, false);
	struct path_ctx *ctx = path_create(g);
	assert_non_null(p);
	assert_non_null(ctx);
	int passable = 0, roots = 0;
	for (int c = 0; c < W * H; c++) {
		passable += g->cost[c] != 0;
		roots += g->cost[c] && prune_root(p, c) == c;
	}
	assert_int_equal(roots, 1);
	assert_int_equal(prune_peeled(p), passable);
	struct coverage cov = { 0 };
	for (int q = 0; q < 300; q++) {
		int s = pick(g, p, &rng, 0, -1), goal = pick(g, p, &rng, 0, -1);
		struct path_result r;
		compare_one(g, p, ctx, &(struct path_options){ .weight = 1.0 }, s, goal, &cov);
		prune_find(p, s, goal, NULL, &r);
		/* A tree walk: one expansion per step, nothing searched. */
		assert_int_equal(r.expanded, r.steps);
	}
	assert_int_equal(cov.different_roots, 0);
	path_destroy(ctx);
	prune_destroy(p);
	grid_destroy(g);
}

/* ---- no allocation per query ---- */

/* A budget applies to the core search alone: one too small for it answers
 * PATH_BUDGET with a partial route up the start's tree and on along the
 * core search's partial route, so it ends on the core (in no dead end);
 * one large enough, the route without it; a walk within one tree takes no
 * budget. */
static void test_budget_on_the_core(void **state)
{
	(void)state;
	struct grid *g = grid_from(GRID_SQUARE8, room_tail, 7);
	struct prune *p = prune_create(g, false);
	assert_non_null(p);
	assert_true(prune_peeled(p) > 0);
	assert_int_equal(prune_junctions(p), 0); /* the room searched whole */
	const int tail = grid_index(g, 3, 5), ring = grid_index(g, 1, 1), joint = grid_index(g, 3, 3);
	assert_int_equal(prune_root(p, tail), joint);
	struct path_result r, free_run;
	assert_int_equal(prune_find(p, tail, ring, NULL, &free_run), PATH_FOUND);
	int *cells = malloc((size_t)free_run.len * sizeof *cells);
	assert_non_null(cells);
	memcpy(cells, free_run.cells, (size_t)free_run.len * sizeof *cells);
	const int len = free_run.len;
	const double cost = free_run.cost;
	struct path_options o = path_options_default();
	for (long budget = 1; budget <= 2; budget++) {
		o.budget = budget;
		assert_int_equal(prune_find(p, tail, ring, &o, &r), PATH_BUDGET);
		assert_false(r.reached);
		assert_true(r.expanded >= budget);
		assert_int_equal(r.cells[0], tail);
		assert_true(r.len >= 3); /* the tail's two cells up, at least */
		assert_int_equal(r.cells[2], joint);
		assert_int_equal(r.end, r.cells[r.len - 1]);
		assert_int_equal(prune_depth(p, r.end), 0); /* on the core */
		assert_int_equal(prune_root(p, r.end), r.end);
		double sum = 0;
		for (int i = 1; i < r.len; i++) {
			assert_true(grid_is_adjacent(g, r.cells[i - 1], r.cells[i]));
			sum += (grid_x(g, r.cells[i]) != grid_x(g, r.cells[i - 1]) &&
				grid_y(g, r.cells[i]) != grid_y(g, r.cells[i - 1]) ? GRID_SQRT2 : 1.0) *
			       g->cost[r.cells[i]];
		}
		assert_true(fabs(sum - r.cost) < 1e-9);
	}
	o.budget = 1000;
	assert_int_equal(prune_find(p, tail, ring, &o, &r), PATH_FOUND);
	assert_int_equal(r.len, len);
	assert_memory_equal(r.cells, cells, (size_t)len * sizeof *cells);
	assert_true(r.cost == cost);
	o.budget = 1;
	assert_int_equal(prune_find(p, tail, grid_index(g, 3, 4), &o, &r), PATH_FOUND); /* one tree */
	assert_int_equal(r.len, 2);
	free(cells);
	prune_destroy(p);
	grid_destroy(g);
}

/* The peeling over a costs array of the caller's (the game's map memory:
 * the grid's cost pointed at it, the grid's bit rows describing another
 * map) is the peeling of a grid made from that array: the same trees,
 * roots, depths and components, and the same routes, on every grid and on
 * widths that end anywhere in a word. */
static void test_caller_costs_peel_alike(void **state)
{
	(void)state;
	uint32_t rng = 777;
	long kept = 0, compared = 0;
	for (int t = 0; t < 5; t++) {
		for (int m = 0; m < 160; m++) {
			const int w = 1 + rnd_below(&rng, 150), h = 1 + rnd_below(&rng, 12), n = w * h;
			const bool cc = (topologies[t] == GRID_SQUARE8 || topologies[t] == GRID_DIAMOND8) && m % 5 == 4;
			struct grid *g = grid_create(w, h, topologies[t]);
			struct grid *same = grid_create(w, h, topologies[t]);
			uint8_t *costs = malloc((size_t)n);
			assert_non_null(g);
			assert_non_null(same);
			assert_non_null(costs);
			random_map(g, &rng, m, cc);
			/* the caller's array: the grid's map with a few cells changed */
			memcpy(costs, g->cost, (size_t)n);
			for (int i = 0; i < n / 10; i++) {
				const int c = rnd_below(&rng, n);
				costs[c] = costs[c] ? 0 : 1;
			}
			grid_set_costs(same, costs);
			const uint8_t *own = g->cost;
			g->cost = costs;
			struct prune *a = prune_create(g, cc);
			struct prune *b = prune_create(same, cc);
			assert_non_null(a);
			assert_non_null(b);
			assert_int_equal(prune_peeled(a), prune_peeled(b));
			assert_int_equal(prune_dead_ends(a), prune_dead_ends(b));
			kept += prune_peeled(a) > 0;
			for (int c = 0; c < n; c++) {
				assert_int_equal(prune_root(a, c), prune_root(b, c));
				assert_int_equal(prune_depth(a, c), prune_depth(b, c));
				assert_int_equal(prune_component(a, c), prune_component(b, c));
			}
			for (int q = 0; q < 4; q++) {
				const int s = pick(same, b, &rng, 0, -1), goal = pick(same, b, &rng, 0, -1);
				if (s < 0 || goal < 0)
					break;
				struct path_result ra, rb;
				assert_int_equal(prune_find(a, s, goal, NULL, &ra), prune_find(b, s, goal, NULL, &rb));
				assert_int_equal(ra.len, rb.len);
				assert_memory_equal(ra.cells, rb.cells, (size_t)ra.len * sizeof *ra.cells);
				assert_true(ra.cost == rb.cost);
				compared++;
			}
			prune_destroy(a);
			prune_destroy(b);
			g->cost = own;
			free(costs);
			grid_destroy(same);
			grid_destroy(g);
		}
	}
	print_message("%ld maps with trees kept, %ld routes compared\n", kept, compared);
	assert_true(kept >= 100);
	assert_true(compared >= 1000);
}

#ifdef HAVE_ASAN_STATS
struct heap_stats {
	size_t allocated, heap, free_bytes;
};

static struct heap_stats heap_now(void)
{
	return (struct heap_stats){ __sanitizer_get_current_allocated_bytes(),
				    __sanitizer_get_heap_size(), __sanitizer_get_free_bytes() };
}

static bool heap_same(struct heap_stats a, struct heap_stats b)
{
	return a.allocated == b.allocated && a.heap == b.heap && a.free_bytes == b.free_bytes;
}
#endif

static void test_no_allocation_per_query(void **state)
{
	(void)state;
#ifdef HAVE_ASAN_STATS
	uint32_t rng = 4242;
	struct grid *g = grid_create(40, 40, GRID_SQUARE8);
	assert_non_null(g);
	random_map(g, &rng, 0, false);
	struct prune *p = prune_create(g, false);
	assert_non_null(p);
	int pairs[400][2];
	for (int i = 0; i < 400; i++) {
		pairs[i][0] = pick(g, p, &rng, 0, -1);
		pairs[i][1] = i % 2 ? pick(g, p, &rng, 2, pairs[i][0]) : pick(g, p, &rng, 0, -1);
		if (pairs[i][1] < 0)
			pairs[i][1] = pairs[i][0];
	}
	/* The detector first: one malloc and free between two readings shows.
	 * The statistics move on every malloc (free bytes drop, as a freed
	 * block waits in the sanitizer's quarantine). */
	struct heap_stats a = heap_now();
	void *volatile probe = malloc(64);
	free(probe);
	struct heap_stats b = heap_now();
	assert_false(heap_same(a, b));

	struct path_result r;
	long found = 0;
	a = heap_now();
	for (int i = 0; i < 400; i++)
		found += prune_find(p, pairs[i][0], pairs[i][1], NULL, &r) == PATH_FOUND;
	b = heap_now();
	assert_true(heap_same(a, b));
	assert_true(found > 100);
	prune_destroy(p);
	grid_destroy(g);
#else
	skip();
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring_with_tail),
		cmocka_unit_test(test_options_not_served),
		cmocka_unit_test(test_few_dead_ends_not_kept),
		cmocka_unit_test(test_perfect_maze_one_root_per_component),
		cmocka_unit_test(test_random_maps_match_path_find),
		cmocka_unit_test(test_corridor_maze_is_one_tree),
		cmocka_unit_test(test_no_allocation_per_query),
		cmocka_unit_test(test_budget_on_the_core),
		cmocka_unit_test(test_caller_costs_peel_alike),
		cmocka_unit_test(test_chains_match_path_find),
		cmocka_unit_test(test_large_cores),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
