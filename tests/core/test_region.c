/* test_region.c - region labels against a flood, kept up to date, and the fallback through them against the layered search. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "testrand.h"

#include "grid.h"
#include "path.h"
#include "region.h"

static const enum grid_topology TOPOS[] = { GRID_SQUARE4, GRID_SQUARE8, GRID_HEX, GRID_DIAMOND4, GRID_DIAMOND8 };
#define N_TOPOS (sizeof TOPOS / sizeof TOPOS[0])

/* Random walls at `wall_pct` percent, terrain 1..3 on some floors. */
static void fill_random(struct grid *g, uint32_t *seed, int wall_pct)
{
	for (int c = 0; c < g->w * g->h; c++) {
		uint8_t v = (int)(rnd(seed) % 100) < wall_pct ? 0 : 1;
		if (v && rnd(seed) % 8 == 0)
			v = (uint8_t)(2 + rnd(seed) % 2);
		grid_set_cost(g, c, v);
	}
}

/* `count` random cells opened or closed in turn, each reported to r (a
 * refresh when a change leaves the labels stale). */
static void change_cells(struct grid *g, struct region *r, uint32_t *seed, int count)
{
	const int n = g->w * g->h;
	for (int i = 0; i < count; i++) {
		const int c = (int)(rnd(seed) % (unsigned)n);
		const uint8_t old = g->cost[c];
		grid_set_cost(g, c, old ? 0 : 1);
		region_cell_changed(r, c, old);
		if (region_stale(r))
			assert_true(region_refresh(r));
	}
}

/* The reference: which cells a flood over grid_neighbours joins. comp[]
 * gets a component number per passable cell, -1 for blocked; returns the
 * number of components. */
static int ref_components(const struct grid *g, bool cc, int *comp, int *sizes)
{
	const int n = g->w * g->h;
	int *queue = malloc((size_t)n * sizeof *queue);
	assert_non_null(queue);
	for (int c = 0; c < n; c++)
		comp[c] = -1;
	int k = 0;
	for (int c = 0; c < n; c++) {
		if (!g->cost[c] || comp[c] >= 0)
			continue;
		int head = 0, tail = 0;
		queue[tail++] = c;
		comp[c] = k;
		sizes[k] = 0;
		while (head < tail) {
			const int u = queue[head++];
			sizes[k]++;
			struct grid_step s[GRID_MAX_NEIGHBOURS];
			const int m = grid_neighbours(g, u, cc, s);
			for (int i = 0; i < m; i++)
				if (comp[s[i].cell] < 0) {
					comp[s[i].cell] = k;
					queue[tail++] = s[i].cell;
				}
		}
		k++;
	}
	free(queue);
	return k;
}

/* The labels name exactly the reference's components, with their sizes. */
static void check_labels(const struct grid *g, const struct region *r, bool cc)
{
	const int n = g->w * g->h;
	int *comp = malloc((size_t)n * sizeof *comp), *sizes = malloc((size_t)(n + 1) * sizeof *sizes);
	int32_t *label_of = malloc((size_t)(n + 1) * sizeof *label_of);
	assert_true(comp && sizes && label_of);
	const int k = ref_components(g, cc, comp, sizes);
	assert_false(region_stale(r));
	assert_true(region_current(r, g->cost, cc));
	assert_int_equal(region_count(r), k);
	for (int i = 0; i < k; i++)
		label_of[i] = -1;
	for (int c = 0; c < n; c++) {
		if (comp[c] < 0) {
			assert_int_equal(region_of(r, c), -1);
			assert_int_equal(region_size(r, c), 0);
			continue;
		}
		const int32_t l = region_of(r, c);
		assert_true(l >= 0);
		if (label_of[comp[c]] < 0)
			label_of[comp[c]] = l;
		assert_int_equal(l, label_of[comp[c]]);
		assert_int_equal(region_size(r, c), sizes[comp[c]]);
	}
	/* distinct components, distinct labels */
	for (int i = 0; i < k; i++)
		for (int j = i + 1; j < k && j < i + 64; j++)
			assert_int_not_equal(label_of[i], label_of[j]);
	free(comp);
	free(sizes);
	free(label_of);
}

static void test_labels_match_flood(void **state)
{
	(void)state;
	uint32_t seed = 12345;
	for (size_t t = 0; t < N_TOPOS; t++)
		for (int cc = 0; cc < 2; cc++)
			for (int round = 0; round < 6; round++) {
				const int w = 5 + (int)(rnd(&seed) % 40), h = 3 + (int)(rnd(&seed) % 30);
				struct grid *g = grid_create(w, h, TOPOS[t]);
				assert_non_null(g);
				fill_random(g, &seed, 20 + round * 10);
				struct region *r = region_create(g, cc);
				assert_non_null(r);
				check_labels(g, r, cc);
				assert_true(region_memory(r) >= (size_t)(w * h) * 4);
				region_destroy(r);
				grid_destroy(g);
			}
}

/* A map of one of several shapes: random walls at some density, stripes
 * (rows, columns, diagonals both ways), a checkerboard, runs of random
 * lengths, rows copied with a shift (runs that touch only at corners). */
static void fill_shape(struct grid *g, uint32_t *seed, int shape)
{
	const int w = g->w, h = g->h, k = 2 + (int)(rnd(seed) % 4);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			bool open;
			switch (shape) {
			case 0: open = (int)(rnd(seed) % 100) >= 10 * (int)(rnd(seed) % 11); break;
			case 1: open = y % k != 0; break;
			case 2: open = x % k != 0; break;
			case 3: open = (x + y) % k != 0; break;
			case 4: open = (x - y + 4 * h) % k != 0; break;
			case 5: open = (x + y) % 2 == 0; break;
			case 6: open = (x ^ (y * 7)) % k != 1; break;
			default: open = rnd(seed) % 2 == 0; break;
			}
			grid_set_cost(g, y * w + x, open ? (uint8_t)(1 + rnd(seed) % 3) : 0);
		}
	if (shape == 7) /* runs of random lengths, each row the one above shifted by -1, 0 or 1 */
		for (int y = 0; y < h; y++) {
			if (y > 0 && rnd(seed) % 3 != 0) {
				const int d = (int)(rnd(seed) % 3) - 1;
				for (int x = 0; x < w; x++) {
					const int sx = x + d;
					grid_set_cost(g, y * w + x, sx >= 0 && sx < w ? g->cost[(y - 1) * w + sx] : 0);
				}
				continue;
			}
			for (int x = 0; x < w;) {
				const int len = 1 + (int)(rnd(seed) % 80);
				const uint8_t v = rnd(seed) % 2 ? 1 : 0;
				for (int i = 0; i < len && x < w; i++, x++)
					grid_set_cost(g, y * w + x, v);
			}
		}
}

/* region_label's numbers are exactly the flood's (regions in the order of
 * their first cells), and a region's labels name the flood's components
 * with their sizes, on maps of every shape, width (across the 64-cell
 * words of the run scan) and grid, both corner rules. */
static void test_label_equals_flood_numbering(void **state)
{
	(void)state;
	static const int widths[] = { 1, 2, 3, 7, 8, 9, 63, 64, 65, 127, 128, 129, 200 };
	uint32_t seed = 4242;
	for (size_t t = 0; t < N_TOPOS; t++)
		for (int cc = 0; cc < 2; cc++)
			for (int shape = 0; shape < 8; shape++)
				for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
					const int w = widths[wi], h = 1 + (int)(rnd(&seed) % 24);
					struct grid *g = grid_create(w, h, TOPOS[t]);
					assert_non_null(g);
					fill_shape(g, &seed, shape);
					const int n = w * h;
					int *comp = malloc((size_t)n * sizeof *comp), *sizes = malloc((size_t)n * sizeof *sizes);
					int32_t *out = malloc((size_t)n * sizeof *out);
					assert_true(comp && sizes && out);
					const int k = ref_components(g, cc, comp, sizes);
					assert_int_equal(region_label(g, g->cost, cc, out), k);
					for (int c = 0; c < n; c++)
						assert_int_equal(out[c], comp[c]);
					struct region *r = region_create(g, cc);
					assert_non_null(r);
					check_labels(g, r, cc);
					region_destroy(r);
					free(comp);
					free(sizes);
					free(out);
					grid_destroy(g);
				}
}

/* Many cells changed without a report, then a whole relabelling: the
 * labels are the flood's again, round after round on the same region
 * (its sets remade over what the last rounds left). */
static void test_refresh_after_unreported_changes(void **state)
{
	(void)state;
	static const int widths[] = { 5, 64, 65, 130 };
	uint32_t seed = 99;
	for (size_t t = 0; t < N_TOPOS; t++)
		for (int cc = 0; cc < 2; cc++)
			for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
				const int w = widths[wi], h = 3 + (int)(rnd(&seed) % 20), n = w * h;
				struct grid *g = grid_create(w, h, TOPOS[t]);
				assert_non_null(g);
				fill_random(g, &seed, 40);
				struct region *r = region_create(g, cc);
				assert_non_null(r);
				int32_t *out = malloc((size_t)n * sizeof *out);
				int *comp = malloc((size_t)n * sizeof *comp), *sizes = malloc((size_t)n * sizeof *sizes);
				assert_true(out && comp && sizes);
				for (int round = 0; round < 8; round++) {
					const int changes = 1 + (int)(rnd(&seed) % (unsigned)n);
					for (int i = 0; i < changes; i++) {
						const int c = (int)(rnd(&seed) % (unsigned)n);
						grid_set_cost(g, c, g->cost[c] ? 0 : (uint8_t)(1 + rnd(&seed) % 2));
					}
					if (round % 2)
						fill_shape(g, &seed, (int)(rnd(&seed) % 8));
					region_mark_stale(r);
					assert_false(region_current(r, g->cost, cc));
					assert_true(region_refresh(r));
					check_labels(g, r, cc);
					const int k = ref_components(g, cc, comp, sizes);
					assert_int_equal(region_label(g, g->cost, cc, out), k);
					for (int c = 0; c < n; c++)
						assert_int_equal(out[c], comp[c]);
					/* the sets made by the relabelling take later changes */
					change_cells(g, r, &seed, 20);
					check_labels(g, r, cc);
				}
				assert_int_equal(region_rebuilds(r), 9);
				free(out);
				free(comp);
				free(sizes);
				region_destroy(r);
				grid_destroy(g);
			}
}

/* Cells open and close one at a time; after each the labels (refreshed
 * when stale) are the reference's again, and not every closing forces a
 * full labelling. */
static void test_changes_keep_labels(void **state)
{
	(void)state;
	uint32_t seed = 777;
	for (size_t t = 0; t < N_TOPOS; t++)
		for (int cc = 0; cc < 2; cc++) {
			struct grid *g = grid_create(23, 17, TOPOS[t]);
			assert_non_null(g);
			fill_random(g, &seed, 40);
			struct region *r = region_create(g, cc);
			assert_non_null(r);
			long closings = 0;
			for (int step = 0; step < 300; step++) {
				const int c = (int)(rnd(&seed) % (unsigned)(g->w * g->h));
				const uint8_t old = g->cost[c];
				const uint8_t now = old ? (rnd(&seed) % 4 == 0 ? 2 : 0) : 1;
				closings += old && !now;
				grid_set_cost(g, c, now);
				region_cell_changed(r, c, old);
				if (region_stale(r)) {
					assert_false(region_current(r, g->cost, cc));
					assert_true(region_refresh(r));
				}
				check_labels(g, r, cc);
			}
			assert_true(closings > 20);
			/* every split was found by the walks: no full labelling */
			assert_int_equal(region_rebuilds(r), 1);
			region_destroy(r);
			grid_destroy(g);
		}
}

/* Labels of another array, or of another corner rule, are not current. */
static void test_current_only_for_its_array(void **state)
{
	(void)state;
	struct grid *g = grid_create(8, 8, GRID_SQUARE8);
	assert_non_null(g);
	grid_fill(g, 1);
	struct region *r = region_create(g, false);
	assert_non_null(r);
	uint8_t other[64];
	memset(other, 1, sizeof other);
	assert_true(region_current(r, g->cost, false));
	assert_false(region_current(r, g->cost, true));
	assert_false(region_current(r, other, false));
	assert_int_equal(region_count(r), 1);
	/* a wall across the middle splits the map in two */
	for (int x = 0; x < 8; x++) {
		grid_set_cost(g, 3 * 8 + x, 0);
		region_cell_changed(r, 3 * 8 + x, 1);
	}
	assert_false(region_stale(r)); /* the split was found by walking the smaller side */
	assert_true(region_refresh(r));
	assert_int_equal(region_rebuilds(r), 1);
	assert_int_equal(region_count(r), 2);
	assert_int_not_equal(region_of(r, 0), region_of(r, 63));
	assert_int_equal(region_size(r, 0), 24);
	assert_int_equal(region_size(r, 63), 32);
	/* a door in it joins them at once */
	grid_set_cost(g, 3 * 8 + 4, 1);
	region_cell_changed(r, 3 * 8 + 4, 0);
	assert_false(region_stale(r));
	assert_int_equal(region_count(r), 1);
	assert_int_equal(region_of(r, 0), region_of(r, 63));
	assert_int_equal(region_size(r, 0), 57);
	region_destroy(r);
	grid_destroy(g);
}

/* The labels of a relabelling are written a band of 65,536 cells at a
 * time as they are first read or changed (region.c): on maps of several
 * bands, with band edges inside rows, the bands read in a random order and
 * cells changed in bands not yet written (a closing's walks cross bands)
 * give the flood's labels, and so does region_label's labelling of the
 * whole map at once. */
static void test_lazy_bands_any_order(void **state)
{
	(void)state;
	uint32_t seed = 4242;
	for (size_t t = 0; t < N_TOPOS; t++)
		for (int cc = 0; cc < 2; cc++) {
			const int w = 300 + (int)(rnd(&seed) % 37), h = 700, n = w * h, bands = (n + 65535) / 65536;
			struct grid *g = grid_create(w, h, TOPOS[t]);
			assert_non_null(g);
			fill_shape(g, &seed, cc ? 7 : 0);
			struct region *r = region_create(g, cc);
			assert_non_null(r);
			for (int round = 0; round < 3; round++) {
				for (int i = 0; i < 2000; i++) {
					const int c = (int)(rnd(&seed) % (unsigned)n);
					grid_set_cost(g, c, g->cost[c] ? 0 : 1);
				}
				region_mark_stale(r);
				assert_true(region_refresh(r));
				/* changes reported before their bands are read */
				change_cells(g, r, &seed, 40);
				/* the bands first read in a random order, at a band's
				 * first or last cell or within it */
				int order[8];
				assert_true(bands <= 8 && bands >= 3);
				for (int b = 0; b < bands; b++)
					order[b] = b;
				for (int b = bands - 1; b > 0; b--) {
					const int j = (int)(rnd(&seed) % (unsigned)(b + 1)), x = order[b];
					order[b] = order[j];
					order[j] = x;
				}
				for (int b = 0; b < bands; b++) {
					const int lo = order[b] * 65536, hi = lo + 65536 < n ? lo + 65536 : n;
					const int pick = (int)(rnd(&seed) % 3);
					const int c = pick == 0 ? lo : pick == 1 ? hi - 1 : lo + (int)(rnd(&seed) % (unsigned)(hi - lo));
					(void)region_of(r, c);
				}
				check_labels(g, r, cc);
			}
			int32_t *out = malloc((size_t)n * sizeof *out);
			int *comp = malloc((size_t)n * sizeof *comp), *sizes = malloc((size_t)n * sizeof *sizes);
			assert_true(out && comp && sizes);
			assert_int_equal(region_label(g, g->cost, cc, out), ref_components(g, cc, comp, sizes));
			for (int c = 0; c < n; c++)
				assert_int_equal(out[c], comp[c]);
			free(out);
			free(comp);
			free(sizes);
			region_destroy(r);
			grid_destroy(g);
		}
}

/* A pocket across a band's edge sealed by one reported closing: the
 * walk gives the pocket its new id, also in the band not yet written,
 * which must keep it when written. */
static void test_lazy_bands_split_across_edge(void **state)
{
	(void)state;
	for (size_t t = 0; t < N_TOPOS; t++)
		for (int cc = 0; cc < 2; cc++) {
			if (TOPOS[t] == GRID_DIAMOND8 && cc)
				continue; /* corner steps cross a wall a cell thick (and this case labels by cells) */
			const int w = 300, h = 600, edge = 65536 / w; /* band 1 starts in row `edge` */
			struct grid *g = grid_create(w, h, TOPOS[t]);
			assert_non_null(g);
			grid_fill(g, 1);
			/* a ring of walls around x 10..20, rows edge - 5 .. edge + 5 */
			const int x0 = 9, x1 = 21, y0 = edge - 6, y1 = edge + 6, last = y0 * w + 15;
			for (int y = y0; y <= y1; y++)
				for (int x = x0; x <= x1; x++)
					if ((y == y0 || y == y1 || x == x0 || x == x1) && y * w + x != last)
						grid_set_cost(g, y * w + x, 0);
			struct region *r = region_create(g, cc);
			assert_non_null(r);
			assert_int_equal(region_count(r), 1);
			region_mark_stale(r);
			assert_true(region_refresh(r));
			grid_set_cost(g, last, 0);
			region_cell_changed(r, last, 1);
			assert_false(region_stale(r)); /* the pocket was walked */
			assert_int_equal(region_count(r), 2);
			check_labels(g, r, cc);
			assert_int_not_equal(region_of(r, (edge + 3) * w + 15), region_of(r, 0));
			region_destroy(r);
			grid_destroy(g);
		}
}

/* A wall closed across a large map: the last cell cuts it into halves
 * too large to walk, so the labels go stale, and a refresh is exact. */
static void test_large_split_goes_stale(void **state)
{
	(void)state;
	struct grid *g = grid_create(1100, 600, GRID_SQUARE8);
	assert_non_null(g);
	grid_fill(g, 1);
	struct region *r = region_create(g, false);
	assert_non_null(r);
	for (int x = 0; x < 1100; x++) {
		grid_set_cost(g, 300 * 1100 + x, 0);
		region_cell_changed(r, 300 * 1100 + x, 1);
		if (x < 1099)
			assert_false(region_stale(r));
	}
	assert_true(region_stale(r));
	assert_int_equal(region_of(r, 0) >= 0, 1);
	assert_false(region_current(r, g->cost, false));
	assert_true(region_refresh(r));
	assert_int_equal(region_rebuilds(r), 2);
	assert_int_equal(region_count(r), 2);
	assert_int_equal(region_size(r, 0), 300 * 1100);
	/* a small pocket cut off is found by its walk */
	for (int y = 10; y < 13; y++)
		for (int x = 10; x < 13; x++)
			if (y != 11 || x != 11) {
				grid_set_cost(g, y * 1100 + x, 0);
				region_cell_changed(r, y * 1100 + x, 1);
			}
	assert_false(region_stale(r));
	assert_int_equal(region_count(r), 3);
	assert_int_equal(region_size(r, 11 * 1100 + 11), 1);
	assert_int_equal(region_size(r, 0), 300 * 1100 - 9);
	region_destroy(r);
	grid_destroy(g);
}

/* Two answers are the same answer. */
/* The fallback's options with these knobs (automatic P, no labels). */
static struct path_options fallback_options(bool cc, const uint16_t *extra, const uint8_t *solid)
{
	struct path_options opt = path_options_default();
	opt.fallback = true;
	opt.corner_cutting = cc;
	opt.extra = extra;
	opt.solid = solid;
	return opt;
}

/* Crowding costs on about a tenth of the cells, and one blocked cell in
 * `solid_in` solid, for the fallback's `extra` and `solid` options. */
static void crowd_and_solid(const struct grid *g, uint32_t *seed, unsigned solid_in, uint16_t **extra, uint8_t **solid)
{
	const int n = g->w * g->h;
	*extra = calloc((size_t)n, sizeof **extra);
	*solid = calloc((size_t)n, 1);
	assert_true(*extra && *solid);
	for (int c = 0; c < n; c++) {
		if (rnd(seed) % 10 == 0)
			(*extra)[c] = (uint16_t)(1 + rnd(seed) % 5);
		if (!g->cost[c] && rnd(seed) % solid_in == 0)
			(*solid)[c] = 1;
	}
}

static void check_same(const struct path_result *a, const struct path_result *b)
{
	assert_int_equal(a->status, b->status);
	assert_int_equal(a->len, b->len);
	assert_int_equal(a->end, b->end);
	assert_int_equal(a->reached, b->reached);
	assert_int_equal(a->blocked_crossed, b->blocked_crossed);
	assert_int_equal(a->first_blocked, b->first_blocked);
	assert_true(a->cost == b->cost);
	for (int i = 0; i < a->len; i++)
		assert_int_equal(a->cells[i], b->cells[i]);
}

/* The step from a to b as the fallback takes it: between two passable
 * cells a move of grid_neighbours (the corner rule), else one of
 * grid_adjacent; 0 when it is no move, else its length (1 or sqrt 2). */
static double fallback_step(const struct grid *g, bool cc, int a, int b)
{
	struct grid_step nb[GRID_MAX_NEIGHBOURS];
	const int k = g->cost[a] && g->cost[b] ? grid_neighbours(g, a, cc, nb) : grid_adjacent(g, a, nb);
	for (int i = 0; i < k; i++)
		if (nb[i].cell == b)
			return nb[i].step;
	return 0.0;
}

/* The key of a whole fallback route: its blocked cells (the start not
 * counted) and its cost, as units + roots * sqrt 2 (so that two routes'
 * costs compare without the order of a sum).  Fails on an illegal step
 * or a solid cell. */
struct route_key {
	int blocked;
	long units, roots;
};

static struct route_key route_key_of(const struct grid *g, bool cc, const uint16_t *extra, const uint8_t *solid,
				     const int *cells, int len)
{
	struct route_key k = { 0, 0, 0 };
	for (int i = 1; i < len; i++) {
		const int a = cells[i - 1], v = cells[i];
		const double step = fallback_step(g, cc, a, v);
		assert_true(step > 0.0);
		const long mult = g->cost[v] ? g->cost[v] : 1;
		if (step > 1.0)
			k.roots += mult;
		else
			k.units += mult;
		if (g->cost[v] && extra)
			k.units += extra[v];
		if (!g->cost[v]) {
			assert_true(!solid || !solid[v]);
			k.blocked++;
		}
	}
	return k;
}

static double key_cost(struct route_key k) { return (double)k.units + (double)k.roots * 1.4142135623730951; }

/*
 * An answer through two or more blocked cells against the layered
 * search's (ref, a): the same status, blocked cells and whole route's
 * cost; b's route (fast's path_route) legal from the start to the goal,
 * and b's walk its beginning, cut before its first blocked cell.  True
 * when the two routes differ (a tie the two searches break apart).
 */
static bool check_key(const struct grid *g, bool cc, const uint16_t *extra, const uint8_t *solid,
		      const struct path_ctx *ref, const struct path_result *a, const struct path_ctx *fast,
		      const struct path_result *b, int start, int goal)
{
	assert_int_equal(a->status, b->status);
	assert_int_equal(a->blocked_crossed, b->blocked_crossed);
	const int *ra, *rb;
	const int la = path_route(ref, &ra), lb = path_route(fast, &rb);
	assert_true(la >= 1 && lb >= 1);
	if (a->status == PATH_NO_ROUTE) {
		assert_int_equal(lb, 1);
		return false;
	}
	assert_int_equal(rb[0], start);
	assert_int_equal(rb[lb - 1], goal);
	assert_int_equal(ra[la - 1], goal);
	const struct route_key ka = route_key_of(g, cc, extra, solid, ra, la);
	const struct route_key kb = route_key_of(g, cc, extra, solid, rb, lb);
	assert_int_equal(ka.blocked, kb.blocked);
	assert_int_equal(kb.blocked, b->blocked_crossed);
	assert_true(fabs(key_cost(ka) - key_cost(kb)) <= 1e-9 * (1.0 + key_cost(ka)));
	/* the walk: the route up to the cell before its first blocked cell */
	int cut = 1;
	while (cut < lb && g->cost[rb[cut]])
		cut++;
	assert_true(cut < lb);
	assert_int_equal(b->len, cut);
	assert_int_equal(b->first_blocked, rb[cut]);
	assert_int_equal(b->end, rb[cut - 1]);
	assert_false(b->reached);
	for (int i = 0; i < b->len; i++)
		assert_int_equal(b->cells[i], rb[i]);
	const struct route_key kw = route_key_of(g, cc, extra, solid, rb, cut);
	assert_true(fabs(key_cost(kw) - b->cost) <= 1e-9 * (1.0 + b->cost));
	if (la != lb)
		return true;
	for (int i = 0; i < la; i++)
		if (ra[i] != rb[i])
			return true;
	return false;
}

/* A map of rooms: walls of width 1..3 around boxes, doors, sealed boxes,
 * then noise: many regions, and goals one wall or several away. */
static void fill_rooms(struct grid *g, uint32_t *seed)
{
	grid_fill(g, 1);
	for (int k = 0; k < g->w * g->h / 40; k++) {
		const int x0 = (int)(rnd(seed) % (unsigned)g->w), y0 = (int)(rnd(seed) % (unsigned)g->h);
		const int bw = 3 + (int)(rnd(seed) % 8), bh = 3 + (int)(rnd(seed) % 8), th = 1 + (int)(rnd(seed) % 3);
		for (int y = y0; y < y0 + bh && y < g->h; y++)
			for (int x = x0; x < x0 + bw && x < g->w; x++)
				if (x < x0 + th || y < y0 + th || x >= x0 + bw - th || y >= y0 + bh - th)
					grid_set_cost(g, y * g->w + x, 0);
	}
	for (int c = 0; c < g->w * g->h; c++) {
		const unsigned r = rnd(seed) % 100;
		if (r < 6)
			grid_set_cost(g, c, 0);
		else if (r < 9)
			grid_set_cost(g, c, (uint8_t)(1 + r % 3));
	}
}

static long fallback_queries(struct grid *g, bool cc, const uint16_t *extra, const uint8_t *solid, uint32_t *seed,
			     int queries, long *faster, long *one, long *partial)
{
	struct path_ctx *ref = path_create(g), *fast = path_create(g);
	struct region *r = region_create(g, cc);
	assert_true(ref && fast && r);
	struct path_options opt = fallback_options(cc, extra, solid);
	struct path_options with = opt;
	with.regions = r;
	const int n = g->w * g->h;
	long checked = 0;
	for (int q = 0; q < queries; q++) {
		int start = (int)(rnd(seed) % (unsigned)n), goal = (int)(rnd(seed) % (unsigned)n);
		for (int tries = 0; tries < 50 && !g->cost[start]; tries++)
			start = (int)(rnd(seed) % (unsigned)n);
		struct path_result a, b;
		const enum path_status sa = path_find(ref, start, goal, &opt, &a);
		const enum path_status sb = path_find(fast, start, goal, &with, &b);
		assert_int_equal(sa, sb);
		/* two or more blocked cells from a passable start: fallback_deep's
		 * key; every other answer the layered search's, cell for cell */
		if (a.blocked_crossed >= 2 && g->cost[start])
			(void)check_key(g, cc, extra, solid, ref, &a, fast, &b, start, goal);
		else
			check_same(&a, &b);
		if (b.expanded < a.expanded)
			(*faster)++;
		checked++;
		/* one blocked cell away: fallback_near (near_exact, a budget no
		 * search reaches) gives the same answer as fallback_one (no budget) */
		if (a.blocked_crossed == 1 && g->cost[start]) {
			struct path_options bounded = with;
			bounded.budget = 16L * n;
			bounded.near_exact = true;
			assert_int_equal(path_find(ref, start, goal, &bounded, &a), sb);
			check_same(&a, &b);
			(*one)++;
		}
		/* without fallback: the same answer, no route at once when the
		 * labels part the two */
		struct path_options plain = opt, plain_with = with;
		plain.fallback = plain_with.fallback = false;
		const enum path_status pa = path_find(ref, start, goal, &plain, &a);
		const enum path_status pb = path_find(fast, start, goal, &plain_with, &b);
		assert_int_equal(pa, pb);
		if (pa != PATH_BAD_INPUT)
			check_same(&a, &b);
		if (pa == PATH_NO_ROUTE && g->cost[start] && g->cost[goal])
			assert_int_equal(b.expanded, 0);
		/* with a budget (the game's clicks without near_exact): the same
		 * answer, partial or whole, and the same expansions; a goal in
		 * the start's region runs as plain A* there (path_find) */
		if (g->cost[start]) {
			struct path_options ob = opt, wb = with;
			ob.budget = wb.budget = 1 + (long)(rnd(seed) % 400);
			struct path_result c;
			const enum path_status sc = path_find(ref, start, goal, &ob, &c);
			assert_int_equal(path_find(fast, start, goal, &wb, &b), sc);
			check_same(&c, &b);
			assert_int_equal(c.expanded, b.expanded);
			if (sc == PATH_BUDGET && g->cost[goal] && region_of(r, goal) == region_of(r, start))
				partial[0]++;
			else if (sc == PATH_BUDGET && region_size(r, start) > ob.budget)
				partial[1]++; /* the goal elsewhere: a budget smaller than the start's region */
		}
	}
	path_destroy(ref);
	path_destroy(fast);
	region_destroy(r);
	return checked;
}

/*
 * The fallback with labels gives the layered search's answer, cell for
 * cell, on random and room maps of every topology, with and without
 * corner cutting, terrain, crowding costs and solid cells; and it does
 * so with fewer expansions often.
 */
static void test_fallback_same_answer(void **state)
{
	(void)state;
	uint32_t seed = 4242;
	long checked = 0, faster = 0, one = 0, partial[2] = { 0, 0 };
	for (size_t t = 0; t < N_TOPOS; t++)
		for (int kind = 0; kind < 4; kind++) {
			const bool cc = kind == 3 && (TOPOS[t] == GRID_SQUARE8 || TOPOS[t] == GRID_DIAMOND8);
			struct grid *g = grid_create(48 + (int)(rnd(&seed) % 20), 40 + (int)(rnd(&seed) % 20), TOPOS[t]);
			assert_non_null(g);
			if (kind == 0)
				fill_random(g, &seed, 35);
			else
				fill_rooms(g, &seed);
			uint16_t *extra = NULL;
			uint8_t *solid = NULL;
			if (kind == 2)
				crowd_and_solid(g, &seed, 5, &extra, &solid);
			checked += fallback_queries(g, cc, extra, solid, &seed, 120, &faster, &one, partial);
			free(extra);
			free(solid);
			grid_destroy(g);
		}
	print_message("%ld queries, %ld with fewer expansions, %ld one blocked cell away, partial %ld in the start's "
		      "region and %ld elsewhere\n", checked, faster, one, partial[0], partial[1]);
	assert_true(checked >= 2000);
	assert_true(partial[0] >= 200 && partial[1] >= 200);
	assert_true(one >= 200);
	/* the labels spare work in a good share of the queries */
	assert_true(faster * 10 > checked);
}

/*
 * Far clicks on larger maps of every topology, one blocked cell away (a
 * wall beside the start's region, a cell of a small sealed region): the
 * layered search, fallback_one (no budget) and fallback_near (near_exact)
 * give the same answer, cell for cell, and fallback_one settles less than
 * the start's region.
 */
static void test_fallback_one_far(void **state)
{
	(void)state;
	uint32_t seed = 777;
	long one = 0, pockets = 0;
	for (size_t t = 0; t < N_TOPOS; t++)
		for (int kind = 0; kind < 2; kind++) {
			struct grid *g = grid_create(220, 160, TOPOS[t]);
			assert_non_null(g);
			const int n = g->w * g->h;
			if (kind == 0)
				fill_random(g, &seed, 30);
			else
				fill_rooms(g, &seed);
			struct path_ctx *ref = path_create(g), *fast = path_create(g);
			struct region *r = region_create(g, false);
			assert_true(ref && fast && r);
			struct path_options opt = path_options_default();
			opt.fallback = true;
			struct path_options with = opt, bounded = opt;
			with.regions = bounded.regions = r;
			bounded.budget = 16L * n;
			bounded.near_exact = true;
			for (int q = 0; q < 400 && one < 12 * (long)(2 * t + (size_t)kind + 1); q++) {
				/* from the left edge's side to the right's */
				const int start = (int)(rnd(&seed) % 40) + (int)(rnd(&seed) % (unsigned)g->h) * g->w;
				int goal = g->w - 1 - (int)(rnd(&seed) % 40) + (int)(rnd(&seed) % (unsigned)g->h) * g->w;
				if (!g->cost[start] || region_size(r, start) < n / 4)
					continue;
				/* every other query: a cell of a small sealed region there */
				for (int k = 0; q % 2 && k < 400 && !(g->cost[goal] && region_size(r, goal) <= 300); k++)
					goal = g->w - 1 - (int)(rnd(&seed) % 80) + (int)(rnd(&seed) % (unsigned)g->h) * g->w;
				struct path_result a, b, c;
				const enum path_status sb = path_find(fast, start, goal, &with, &b);
				if (b.blocked_crossed != 1)
					continue;
				assert_int_equal(path_find(ref, start, goal, &opt, &a), sb);
				check_same(&a, &b);
				assert_int_equal(path_find(ref, start, goal, &bounded, &c), sb);
				check_same(&c, &b);
				/* near_only: the same answer within the budget; out of it
				 * the start alone, at once, where the layered search
				 * spends more on a partial route */
				struct path_options only = bounded, short_of = bounded;
				only.near_only = true;
				struct path_result d, e;
				assert_int_equal(path_find(ref, start, goal, &only, &d), sb);
				check_same(&d, &b);
				if (c.expanded >= 4) {
					only.budget = short_of.budget = c.expanded / 2;
					assert_int_equal(path_find(ref, start, goal, &only, &d), PATH_BUDGET);
					assert_int_equal(d.len, 1);
					assert_int_equal(d.cells[0], start);
					assert_int_equal(d.expanded, only.budget);
					assert_int_equal(path_find(ref, start, goal, &short_of, &e), PATH_BUDGET);
					assert_true(e.expanded > d.expanded);
				}
				assert_true(b.expanded < region_size(r, start));
				one++;
				if (g->cost[goal])
					pockets++;
			}
			path_destroy(ref);
			path_destroy(fast);
			region_destroy(r);
			grid_destroy(g);
		}
	print_message("%ld far clicks one blocked cell away, %ld into sealed regions\n", one, pockets);
	assert_true(one >= 60);
	assert_true(pockets >= 20);
}

/* Thick rock: blobs of rock, boxes sealed by walls 2..4 thick, noise
 * walls and terrain: goals two or more blocked cells from everywhere. */
static void fill_thick(struct grid *g, uint32_t *seed)
{
	const int w = g->w, h = g->h, n = w * h;
	grid_fill(g, 1);
	for (int k = 0; k < n / 150; k++) {
		const int x0 = (int)(rnd(seed) % (unsigned)w), y0 = (int)(rnd(seed) % (unsigned)h);
		const int bw = 3 + (int)(rnd(seed) % 12), bh = 3 + (int)(rnd(seed) % 12);
		for (int y = y0; y < y0 + bh && y < h; y++)
			for (int x = x0; x < x0 + bw && x < w; x++)
				grid_set_cost(g, y * w + x, 0);
	}
	for (int k = 0; k < n / 300; k++) {
		const int x0 = (int)(rnd(seed) % (unsigned)w), y0 = (int)(rnd(seed) % (unsigned)h);
		const int bw = 7 + (int)(rnd(seed) % 10), bh = 7 + (int)(rnd(seed) % 10), th = 2 + (int)(rnd(seed) % 3);
		for (int y = y0; y < y0 + bh && y < h; y++)
			for (int x = x0; x < x0 + bw && x < w; x++)
				grid_set_cost(g, y * w + x,
					      x < x0 + th || y < y0 + th || x >= x0 + bw - th || y >= y0 + bh - th ? 0 : 1);
	}
	for (int c = 0; c < n; c++) {
		const unsigned r = rnd(seed) % 100;
		if (r < 5)
			grid_set_cost(g, c, 0);
		else if (r < 8 && g->cost[c])
			grid_set_cost(g, c, (uint8_t)(2 + r % 2));
	}
}

/*
 * Goals two or more blocked cells from the start's region (deep in rock,
 * in regions sealed by thick walls) on maps of every topology, with and
 * without corner cutting, crowding costs and solid cells, and with solid
 * cells alone: fallback_deep's answer has the layered search's status,
 * blocked cells and cost; its route is legal and its walk is cut before
 * its first blocked cell; and it expands fewer cells than the layered
 * search, which settles the start's region, in most of them.  On square8
 * and diamond8 without crowding costs it answers on the plain loop
 * (deep_plain), elsewhere by its A* over the pair, as with a budget.
 */
static void test_fallback_deep(void **state)
{
	(void)state;
	/* kind 3 (solid cells, no crowding costs: square8 and diamond8 answer
	 * on the plain loop, deep_plain) draws from a seed of its own, so the
	 * other kinds' maps and goals stay those of 2026-11-29 */
	uint32_t seed0 = 9090, seed3 = 9393;
	long deep = 0, fewer = 0, differ = 0, differ_bud = 0, sealed = 0, none = 0, thick = 0, plain = 0;
	long doors = 0;
	for (size_t t = 0; t < N_TOPOS; t++)
		for (int kind = 0; kind < 4; kind++) {
			uint32_t *const sp = kind == 3 ? &seed3 : &seed0;
			const bool cc = kind == 1 && (TOPOS[t] == GRID_SQUARE8 || TOPOS[t] == GRID_DIAMOND8);
			struct grid *g = grid_create(150 + (int)(rnd(sp) % 20), 110 + (int)(rnd(sp) % 20), TOPOS[t]);
			assert_non_null(g);
			const int n = g->w * g->h;
			fill_thick(g, sp);
			uint16_t *extra = NULL;
			uint8_t *solid = NULL;
			if (kind >= 2)
				crowd_and_solid(g, sp, 8, &extra, &solid);
			if (kind == 3) {
				free(extra);
				extra = NULL;
			}
			struct path_ctx *ref = path_create(g), *fast = path_create(g), *bud = path_create(g);
			struct region *r = region_create(g, cc);
			assert_true(ref && fast && bud && r);
			struct path_options opt = fallback_options(cc, extra, solid);
			struct path_options with = opt;
			with.regions = r;
			long here = 0;
			for (int q = 0; q < 300 && here < 60; q++) {
				const int start = (int)(rnd(sp) % (unsigned)n);
				int goal = (int)(rnd(sp) % (unsigned)n);
				if (!g->cost[start] || region_size(r, start) < n / 8)
					continue;
				/* a blocked goal, or a cell of a small region */
				for (int k = 0; k < 200 && (q % 2 ? g->cost[goal] : !g->cost[goal] || region_size(r, goal) > 200);
				     k++)
					goal = (int)(rnd(sp) % (unsigned)n);
				struct path_result a, b;
				const enum path_status sa = path_find(ref, start, goal, &opt, &a);
				const enum path_status sb = path_find(fast, start, goal, &with, &b);
				assert_int_equal(sa, sb);
				if (sa == PATH_NO_ROUTE) {
					none++;
					continue;
				}
				if (a.blocked_crossed < 2) {
					check_same(&a, &b);
					continue;
				}
				differ += check_key(g, cc, extra, solid, ref, &a, fast, &b, start, goal);
				/* astray path's deep_doors: the key again; where deep_plain
				 * declines, home on the plain loop up to its exits, then the
				 * A* over the pair from the doors (other expansions) */
				{
					struct path_options od = with;
					od.deep_doors = true;
					struct path_result e;
					assert_int_equal(path_find(bud, start, goal, &od, &e), sb);
					check_key(g, cc, extra, solid, ref, &a, bud, &e, start, goal);
					doors += e.expanded != b.expanded;
				}
				/* with a budget (near_exact, the player's clicks) the A*
				 * over the pair answers, not the plain loop: the same key
				 * within a budget no search reaches; the same answer when
				 * the budget holds exactly its expansions, else
				 * PATH_BUDGET with the start alone, one short */
				struct path_options bounded = with;
				bounded.near_exact = true;
				bounded.budget = 16L * n;
				struct path_result c, d;
				assert_int_equal(path_find(bud, start, goal, &bounded, &c), sb);
				differ_bud += check_key(g, cc, extra, solid, ref, &a, bud, &c, start, goal);
				bounded.budget = c.expanded;
				assert_int_equal(path_find(fast, start, goal, &bounded, &d), sb);
				check_same(&c, &d);
				assert_int_equal(d.expanded, c.expanded);
				bounded.budget = c.expanded - 1;
				assert_int_equal(path_find(fast, start, goal, &bounded, &d), PATH_BUDGET);
				assert_int_equal(d.len, 1);
				assert_int_equal(d.cells[0], start);
				assert_true(d.expanded <= bounded.budget);
				deep++;
				here++;
				fewer += b.expanded < a.expanded;
				sealed += g->cost[goal] != 0;
				thick += a.blocked_crossed >= 4;
				plain += !extra && (TOPOS[t] == GRID_SQUARE8 || TOPOS[t] == GRID_DIAMOND8);
			}
			path_destroy(ref);
			path_destroy(fast);
			path_destroy(bud);
			region_destroy(r);
			free(extra);
			free(solid);
			grid_destroy(g);
		}
	print_message("%ld goals two or more blocked cells away (%ld in sealed regions, %ld four or more, %ld on "
		      "square8 or diamond8 without crowding costs), %ld with fewer expansions, %ld on another route of "
		      "the same key (%ld with a budget); %ld walled off by solid cells; %ld answered by deep_doors\n",
		      deep, sealed, thick, plain, fewer, differ, differ_bud, none, doors);
	assert_true(deep >= 800);
	assert_true(plain >= 300);
	assert_true(doors >= 10);
	assert_true(sealed >= 100);
	assert_true(thick >= 50);
	assert_true(fewer * 10 >= deep * 9);
}

/* Two contexts on one map, its labels, and the fallback's options
 * without them (opt: the layered search, the reference) and with them
 * (with); crowding costs and solid cells when `crowd` (one blocked cell
 * in solid_in solid). */
struct deep_pair {
	struct path_ctx *ref, *fast;
	struct region *r;
	uint16_t *extra;
	uint8_t *solid;
	struct path_options opt, with;
};

static void deep_pair_make(struct deep_pair *d, const struct grid *g, bool cc, bool crowd, unsigned solid_in,
			   uint32_t *seed)
{
	d->extra = NULL;
	d->solid = NULL;
	if (crowd)
		crowd_and_solid(g, seed, solid_in, &d->extra, &d->solid);
	d->ref = path_create(g);
	d->fast = path_create(g);
	d->r = region_create(g, cc);
	assert_true(d->ref && d->fast && d->r);
	d->opt = fallback_options(cc, d->extra, d->solid);
	d->with = d->opt;
	d->with.regions = d->r;
}

/* Crowding costs kept, solid cells dropped (the closed-form count of
 * deep goals runs only without them). */
static void deep_pair_no_solid(struct deep_pair *d)
{
	free(d->solid);
	d->solid = NULL;
	d->opt.solid = d->with.solid = NULL;
}

/* Cells x0..x1-1 of rows y0..y1-1 as a large open region: floor, with
 * pillars (6 in 100) and dearer terrain (6 in 100), row by row. */
static void fill_open_room(struct grid *g, int x0, int y0, int x1, int y1, uint32_t *seed)
{
	for (int y = y0; y < y1; y++)
		for (int x = x0; x < x1; x++) {
			const unsigned r = rnd(seed) % 100;
			grid_set_cost(g, y * g->w + x, r < 6 ? 0 : r < 12 ? (uint8_t)(2 + r % 2) : 1);
		}
}

static void deep_pair_free(struct deep_pair *d)
{
	path_destroy(d->ref);
	path_destroy(d->fast);
	region_destroy(d->r);
	free(d->extra);
	free(d->solid);
}

/*
 * Goals more than 250 blocked cells from the start's region, where the
 * count's levels outgrow the record's byte (deep_w's wide count): a room
 * at one end of a strip of rock 420 cells long, goals deep in the rock and
 * in a pocket sealed at its far end, with and without corner cutting,
 * crowding costs and solid cells (square8 and diamond8 without crowding
 * costs answer on the plain loop, the rest by the A* over the pair).
 * Without a budget fallback_deep answers (not the layered search) with its
 * status, blocked cells and cost, its route legal.  (On this strip it
 * expands more cells than that search, which settles a room of 190 cells
 * and then a band of rock a layer; on a large level it is the other way
 * round: docs/perf-log.md, thirty-sixth session.)  With
 * near_exact and a budget that would hold that search, the answer is
 * PATH_BUDGET with the start alone, after 250 levels of the count, as the
 * game's clicks had it before the count widened.
 */
static void test_fallback_deep_thick(void **state)
{
	(void)state;
	uint32_t seed = 4242;
	long wide = 0, over_byte = 0, in_byte = 0;
	for (size_t t = 0; t < N_TOPOS; t++)
		for (int kind = 0; kind < 3; kind++) {
			const int w = 420, h = 12;
			const bool cc = kind == 1 && (TOPOS[t] == GRID_SQUARE8 || TOPOS[t] == GRID_DIAMOND8);
			struct grid *g = grid_create(w, h, TOPOS[t]);
			assert_non_null(g);
			grid_fill(g, 0);
			for (int y = 1; y < h - 1; y++)
				for (int x = 1; x < 20; x++)
					grid_set_cost(g, y * w + x, 1 + (uint8_t)(x % 7 == 3));
			for (int y = 4; y < 8; y++) /* the sealed pocket */
				for (int x = 395; x < 405; x++)
					grid_set_cost(g, y * w + x, 1);
			struct deep_pair d;
			deep_pair_make(&d, g, cc, kind == 2, 40, &seed);
			const int start = 5 * w + 5;
			const int goals[] = { 5 * w + 272, 5 * w + 280, 6 * w + 330, 5 * w + 400, 2 * w + 416 };
			for (size_t k = 0; k < sizeof goals / sizeof goals[0]; k++) {
				const int goal = goals[k];
				if (d.solid && d.solid[goal])
					continue;
				struct path_result a, b;
				const enum path_status sa = path_find(d.ref, start, goal, &d.opt, &a);
				assert_int_equal(path_find(d.fast, start, goal, &d.with, &b), sa);
				if (sa == PATH_NO_ROUTE || a.blocked_crossed <= 250)
					continue;
				check_key(g, cc, d.extra, d.solid, d.ref, &a, d.fast, &b, start, goal);
				/* fallback_deep's answer, not the layered search's
				 * again (which expands exactly a's cells) */
				assert_int_not_equal(b.expanded, a.expanded);
				wide++;
				over_byte += a.blocked_crossed > 255;
				in_byte += a.blocked_crossed <= 255;
				struct path_options bounded = d.with;
				bounded.near_exact = true;
				bounded.budget = 4 * a.expanded;
				struct path_result c;
				assert_int_equal(path_find(d.fast, start, goal, &bounded, &c), PATH_BUDGET);
				assert_int_equal(c.len, 1);
				assert_int_equal(c.cells[0], start);
				assert_true(c.expanded > 250 && c.expanded < b.expanded);
			}
			deep_pair_free(&d);
			grid_destroy(g);
		}
	print_message("%ld goals past 250 blocked cells, %ld of them past 255\n", wide, over_byte);
	assert_true(wide >= 30);
	assert_true(over_byte >= 20);
	assert_true(in_byte >= 3); /* 251 to 255: wide, though the byte would hold them */
}

/*
 * astray path's deep_doors where deep_plain declines (its count too large
 * for a Dijkstra over it): a start in a large open region (the left third:
 * floor, pillars, dearer terrain), goals in thick rock and in small sealed
 * rooms to its right, on every grid, with and without corner cutting and
 * solid cells.  Each answer has the layered search's status, blocked cells
 * and cost, its route legal and its walk cut before its first blocked cell,
 * with deep_doors as without; and deep_doors answers most of them itself
 * (its expansions differ from those without).
 */
static void test_fallback_deep_doors(void **state)
{
	(void)state;
	uint32_t seed = 5151;
	long checked = 0, taken = 0;
	for (size_t t = 0; t < N_TOPOS; t++)
		for (int kind = 0; kind < 3; kind++) {
			const int w = 200, h = 90;
			const bool cc = kind == 1 && (TOPOS[t] == GRID_SQUARE8 || TOPOS[t] == GRID_DIAMOND8);
			struct grid *g = grid_create(w, h, TOPOS[t]);
			assert_non_null(g);
			grid_fill(g, 0);
			fill_open_room(g, 2, 2, 50, h - 2, &seed);
			for (int k = 0; k < 12; k++) { /* sealed rooms in the rock */
				const int x0 = 70 + (int)(rnd(&seed) % 120);
				const int y0 = 2 + (int)(rnd(&seed) % (unsigned)(h - 10));
				for (int y = y0; y < y0 + 5; y++)
					for (int x = x0; x < x0 + 6 && x < w - 1; x++)
						grid_set_cost(g, y * w + x, 1);
			}
			struct deep_pair d;
			deep_pair_make(&d, g, cc, kind == 2, 40, &seed);
			struct path_ctx *doors = path_create(g);
			assert_non_null(doors);
			struct path_options od = d.with;
			od.deep_doors = true;
			for (int q = 0; q < 20; q++) {
				int start = 0;
				for (int k = 0; k < 100 && (!g->cost[start] || region_size(d.r, start) < 1000); k++) {
					const int sy = 2 + (int)(rnd(&seed) % (unsigned)(h - 4));
					start = sy * w + 2 + (int)(rnd(&seed) % 48);
				}
				const int goal = (int)(rnd(&seed) % (unsigned)h) * w + 90 + (int)(rnd(&seed) % 110);
				if (!g->cost[start] || region_size(d.r, start) < 1000 ||
				    (d.solid && (d.solid[goal] || d.solid[start])))
					continue;
				struct path_result a, b, e;
				const enum path_status sa = path_find(d.ref, start, goal, &d.opt, &a);
				assert_int_equal(path_find(d.fast, start, goal, &d.with, &b), sa);
				assert_int_equal(path_find(doors, start, goal, &od, &e), sa);
				if (sa == PATH_NO_ROUTE || a.blocked_crossed < 2)
					continue;
				check_key(g, cc, d.extra, d.solid, d.ref, &a, d.fast, &b, start, goal);
				check_key(g, cc, d.extra, d.solid, d.ref, &a, doors, &e, start, goal);
				checked++;
				taken += e.expanded != b.expanded;
			}
			path_destroy(doors);
			deep_pair_free(&d);
			grid_destroy(g);
		}
	print_message("%ld goals two or more blocked cells away, %ld answered by deep_doors\n", checked,
		      taken);
	assert_true(checked >= 100);
	assert_true(taken >= 40);
}

/*
 * astray path's deep goals in rock, where the count's first levels come
 * in closed form (path.c, deep_ball_reach: every cell of step distance
 * d < D from a blocked goal has w = d when no passable cell lies nearer
 * than D).  A room with pillars and dearer terrain at the
 * left, rock to its right, with or without small sealed rooms in it (the
 * count goes on past them from the ring d = D - 1), starts in the room and
 * in the rock (from a wall), with and without corner cutting and crowding
 * costs (which send the answer to the A* over the pair), on every grid:
 * each answer has the layered search's status, blocked cells and cost, its
 * route legal and its walk cut before its first blocked cell; from a
 * passable start, the same route as with an empty array of solid cells,
 * which turns the closed form off and changes nothing else.  Most answers
 * skip the ball's cells (and from a wall, the start's: deep_start_regions):
 * fewer expansions than that query.
 */
static void test_fallback_deep_ball(void **state)
{
	(void)state;
	uint32_t seed = 6161;
	long checked = 0, skipped = 0, past = 0, walls = 0;
	for (size_t t = 0; t < N_TOPOS; t++)
		for (int kind = 0; kind < 4; kind++) {
			const int w = 230, h = 150, n = w * h;
			const bool cc = kind == 1 && (TOPOS[t] == GRID_SQUARE8 || TOPOS[t] == GRID_DIAMOND8);
			const bool rooms = kind >= 2; /* small sealed rooms in the rock */
			struct grid *g = grid_create(w, h, TOPOS[t]);
			assert_non_null(g);
			grid_fill(g, 0);
			fill_open_room(g, 3, 3, 45, h - 3, &seed);
			int room[10] = { 0 }; /* each room's top left cell */
			for (int k = 0; rooms && k < 10; k++) {
				const int x0 = 80 + (int)(rnd(&seed) % 140), y0 = 2 + (int)(rnd(&seed) % (unsigned)(h - 8));
				room[k] = y0 * w + x0;
				for (int y = y0; y < y0 + 4; y++)
					for (int x = x0; x < x0 + 5 && x < w - 1; x++)
						grid_set_cost(g, y * w + x, 1);
			}
			struct deep_pair d;
			/* kind 3: crowding costs (its solid cells dropped) */
			deep_pair_make(&d, g, cc, kind == 3, 1, &seed);
			deep_pair_no_solid(&d);
			uint8_t *none = calloc((size_t)n, 1);
			struct path_ctx *ball = path_create(g), *nob = path_create(g);
			assert_true(none && ball && nob);
			struct path_options od = d.with, on = d.with;
			od.deep_doors = true;
			on.deep_doors = true;
			on.solid = none;
			for (int q = 0; q < 24; q++) {
				int start;
				if (q % 3 == 2) { /* from a wall in the rock */
					start = (int)(rnd(&seed) % (unsigned)h) * w + 50 + (int)(rnd(&seed) % 60);
				} else {
					start = 0;
					for (int k = 0; k < 100 && (!g->cost[start] || region_size(d.r, start) < 1000); k++)
						start = (3 + (int)(rnd(&seed) % (unsigned)(h - 6))) * w + 3 +
							(int)(rnd(&seed) % 42);
				}
				int goal = (int)(rnd(&seed) % (unsigned)h) * w + 120 + (int)(rnd(&seed) % 110);
				/* at the map's corners and edge, where the ball is cut */
				const int edge[] = { w - 1, n - 1, w + w - 2, (h / 2) * w + w - 1, (h - 2) * w + w - 3 };
				if (q < 5)
					goal = edge[q];
				/* straight above or below a sealed room, its nearest
				 * passable cells (the rows' reach on diamond8: d is half
				 * the rows there) */
				if (rooms && q >= 5 && q < 15) {
					const int ry = room[q - 5] / w, rx = room[q - 5] % w;
					const int dy = 8 + (int)(rnd(&seed) % 30);
					const int gy = q % 2 ? ry - dy : ry + 3 + dy;
					if (gy >= 0 && gy < h)
						goal = gy * w + rx + (int)(rnd(&seed) % 5);
				}
				if (start == goal || (q % 3 != 2 && (!g->cost[start] || region_size(d.r, start) < 1000)))
					continue;
				struct path_result a, b, e;
				const enum path_status sa = path_find(d.ref, start, goal, &d.opt, &a);
				assert_int_equal(path_find(ball, start, goal, &od, &b), sa);
				assert_int_equal(path_find(nob, start, goal, &on, &e), sa);
				if (sa == PATH_NO_ROUTE || a.blocked_crossed < 2)
					continue;
				check_key(g, cc, d.extra, NULL, d.ref, &a, ball, &b, start, goal);
				check_key(g, cc, d.extra, NULL, d.ref, &a, nob, &e, start, goal);
				/* from a passable start every w the same: the same pops
				 * (from a wall past its ball, the cells between read the
				 * level the count stopped at: the key alone is promised) */
				if (g->cost[start])
					check_same(&b, &e);
				checked++;
				if (b.expanded < e.expanded) {
					skipped++;
					past += rooms;
					walls += !g->cost[start];
				}
			}
			path_destroy(ball);
			path_destroy(nob);
			free(none);
			deep_pair_free(&d);
			grid_destroy(g);
		}
	print_message("%ld goals two or more blocked cells away, %ld of them past the ball's cells (%ld among "
		      "sealed rooms, %ld from a wall)\n",
		      checked, skipped, past, walls);
	assert_true(checked >= 150);
	assert_true(skipped * 10 >= checked * 7);
	assert_true(past >= 20);
	assert_true(walls >= 10);
}

/*
 * astray path from a wall (path.c, wall_doors): the regions of the
 * start's ball are home, crossed on the plain loop to their exits
 * (deep_doors); beside them the start itself is an exit to the rock beside
 * it, deeper in the rock home is entered from the ring d = K
 * (deep_entry_seeds).  Two rooms with pillars and dearer terrain, a wall one cell thick
 * between them, rock on both sides with small sealed rooms: starts on
 * the rooms' walls, on the wall between them (home is both rooms) and
 * in the rock a few cells out from the outer walls, goals
 * in the sealed rooms and in the rock, on every grid, with and without
 * corner cutting.  Each answer has the layered search's status, blocked
 * cells and cost, its route legal and its walk cut before its first
 * blocked cell after the start; and, as the same query without the closed
 * form (solid cells, none of them set, turn it off) gives it, the same
 * key.
 */
static void test_fallback_deep_wall_doors(void **state)
{
	(void)state;
	uint32_t seed = 8383;
	long checked = 0, between = 0, deeper = 0, fewer = 0;
	for (size_t t = 0; t < N_TOPOS; t++)
		for (int kind = 0; kind < 2; kind++) {
			const int w = 260, h = 100, n = w * h;
			const bool cc = kind == 1 && (TOPOS[t] == GRID_SQUARE8 || TOPOS[t] == GRID_DIAMOND8);
			struct grid *g = grid_create(w, h, TOPOS[t]);
			assert_non_null(g);
			grid_fill(g, 0);
			/* rooms A (x 60..99) and B (101..139), the rock's wall
			 * x = 100 between them, rock on both sides */
			fill_open_room(g, 60, 3, 100, h - 3, &seed);
			fill_open_room(g, 101, 3, 140, h - 3, &seed);
			int room[8] = { 0 }; /* sealed rooms, four on each side */
			for (int k = 0; k < 8; k++) {
				const int x0 = k % 2 ? 150 + (int)(rnd(&seed) % 100) : 4 + (int)(rnd(&seed) % 46);
				const int y0 = 2 + (int)(rnd(&seed) % (unsigned)(h - 8));
				room[k] = y0 * w + x0;
				for (int y = y0; y < y0 + 4; y++)
					for (int x = x0; x < x0 + 5; x++)
						grid_set_cost(g, y * w + x, 1);
			}
			struct deep_pair d;
			deep_pair_make(&d, g, cc, false, 1, &seed);
			uint8_t *none = calloc((size_t)n, 1);
			struct path_ctx *fast = path_create(g), *nob = path_create(g);
			assert_true(none && fast && nob);
			struct path_options od = d.with, on = d.with;
			od.deep_doors = on.deep_doors = true;
			on.solid = none;
			for (int q = 0; q < 48; q++) {
				/* a wall beside open cells: the wall between the
				 * rooms, their top or bottom wall, their outer walls;
				 * or the rock 2-9 cells out from those (K >= 1) */
				const int y = 3 + (int)(rnd(&seed) % (unsigned)(h - 6)), x = 60 + (int)(rnd(&seed) % 80);
				const int out = 1 + (int)(rnd(&seed) % 8);
				const int start = q % 4 == 0   ? y * w + 100
						  : q % 4 == 1 ? (q % 2 ? 2 : h - 3) * w + x
						  : q % 4 == 2 ? y * w + (q % 8 < 4 ? 59 : 140)
								 : y * w + (q % 8 < 4 ? 59 - out : 140 + out);
				/* in a sealed room or in the rock, on either side */
				const int side = (int)(rnd(&seed) % 2);
				const int goal = q % 4 < 2 ? room[(q / 4) % 8] + (int)(rnd(&seed) % 3) * w + (int)(rnd(&seed) % 5)
							   : (int)(rnd(&seed) % (unsigned)h) * w +
								     (side ? 150 + (int)(rnd(&seed) % 110) : (int)(rnd(&seed) % 50));
				if (g->cost[start] || start == goal)
					continue;
				struct grid_step nb[GRID_MAX_NEIGHBOURS];
				if (q % 4 != 3 && grid_neighbours(g, start, true, nb) == 0)
					continue; /* no open cell beside it */
				struct path_result a, b, e;
				const enum path_status sa = path_find(d.ref, start, goal, &d.opt, &a);
				assert_int_equal(path_find(fast, start, goal, &od, &b), sa);
				assert_int_equal(path_find(nob, start, goal, &on, &e), sa);
				if (sa == PATH_NO_ROUTE || a.blocked_crossed < 2)
					continue;
				check_key(g, cc, NULL, NULL, d.ref, &a, fast, &b, start, goal);
				check_key(g, cc, NULL, NULL, d.ref, &a, nob, &e, start, goal);
				checked++;
				between += q % 4 == 0;
				deeper += q % 4 == 3;
				fewer += b.expanded < e.expanded;
			}
			path_destroy(fast);
			path_destroy(nob);
			free(none);
			deep_pair_free(&d);
			grid_destroy(g);
		}
	print_message("%ld goals from walls beside open cells (%ld between two rooms) or deeper in the rock (%ld), "
		      "%ld with fewer expansions than without the closed form\n",
		      checked, between, deeper, fewer);
	assert_true(checked >= 300);
	assert_true(between >= 60);
	assert_true(deeper >= 80);
}

/*
 * The closed form where the count then passes 250 walls (it widens, each
 * w's high byte kept in deep_hi) in a context whose earlier deep query left
 * high bytes behind on the cells of the ring inside the ball: a strip of
 * rock 640 cells long, a room at its left end and a pocket 300 cells in.
 * The first goal (past the pocket) writes high bytes on the cells right of
 * the pocket; the second (nearer, its ball ending at the pocket) has its
 * ring inside there and widens past the pocket.  Each answer has the
 * layered search's key and the route of the same query without the closed
 * form, on every grid.
 */
static void test_fallback_deep_ball_wide(void **state)
{
	(void)state;
	uint32_t seed = 7272;
	long checked = 0;
	for (size_t t = 0; t < N_TOPOS; t++) {
		const int w = 640, h = 24;
		struct grid *g = grid_create(w, h, TOPOS[t]);
		assert_non_null(g);
		grid_fill(g, 0);
		for (int y = 2; y < h - 2; y++)
			for (int x = 2; x < 20; x++)
				grid_set_cost(g, y * w + x, 1);
		for (int y = 8; y < 14; y++) /* the pocket */
			for (int x = 300; x < 306; x++)
				grid_set_cost(g, y * w + x, 1);
		struct deep_pair d;
		/* crowding costs: home is left to the A* over the pair (the
		 * ball on so thin a strip is within deep_plain's reach) */
		deep_pair_make(&d, g, false, true, 1, &seed);
		deep_pair_no_solid(&d);
		uint8_t *none = calloc((size_t)(w * h), 1);
		struct path_ctx *ball = path_create(g), *nob = path_create(g);
		assert_true(none && ball && nob);
		struct path_options od = d.with, on = d.with;
		od.deep_doors = on.deep_doors = true;
		on.solid = none;
		const int start = 10 * w + 10;
		const int goals[] = { 11 * w + 600, 11 * w + 450, 11 * w + 600, 11 * w + 452 };
		for (size_t k = 0; k < sizeof goals / sizeof goals[0]; k++) {
			struct path_result a, b, e;
			const enum path_status sa = path_find(d.ref, start, goals[k], &d.opt, &a);
			assert_int_equal(sa, PATH_FALLBACK);
			assert_true(a.blocked_crossed > 250);
			assert_int_equal(path_find(ball, start, goals[k], &od, &b), sa);
			assert_int_equal(path_find(nob, start, goals[k], &on, &e), sa);
			check_key(g, false, d.extra, NULL, d.ref, &a, ball, &b, start, goals[k]);
			check_same(&b, &e);
			checked++;
		}
		path_destroy(ball);
		path_destroy(nob);
		free(none);
		deep_pair_free(&d);
		grid_destroy(g);
	}
	assert_int_equal(checked, 4 * (long)N_TOPOS);
}

/*
 * Starts on blocked cells (astray path --fallback from a wall), no budget:
 * on maps of thick rock and sealed boxes of every grid, with and without
 * corner cutting, crowding costs and solid cells, each answer has the
 * layered search's status, blocked cells and cost, its route legal and its
 * walk cut before its first blocked cell after the start.  Most of those
 * answers come from fallback_deep's count (their expansions differ from
 * the layered search's, which the same query would repeat exactly).
 */
static void test_fallback_deep_from_wall(void **state)
{
	(void)state;
	uint32_t seed = 5151;
	long deep = 0, counted = 0, none = 0, same = 0;
	for (size_t t = 0; t < N_TOPOS; t++)
		for (int kind = 0; kind < 3; kind++) {
			const bool cc = kind == 1 && (TOPOS[t] == GRID_SQUARE8 || TOPOS[t] == GRID_DIAMOND8);
			struct grid *g = grid_create(120 + (int)(rnd(&seed) % 20), 90 + (int)(rnd(&seed) % 20), TOPOS[t]);
			assert_non_null(g);
			const int n = g->w * g->h;
			fill_thick(g, &seed);
			struct deep_pair d;
			deep_pair_make(&d, g, cc, kind == 2, 8, &seed);
			const uint8_t *solid = d.solid;
			for (int q = 0; q < 80; q++) {
				int start = (int)(rnd(&seed) % (unsigned)n), goal = (int)(rnd(&seed) % (unsigned)n);
				for (int k = 0; k < 200 && (g->cost[start] || (solid && solid[start])); k++)
					start = (int)(rnd(&seed) % (unsigned)n);
				if (g->cost[start] || (solid && solid[start]) || start == goal)
					continue;
				struct path_result a, b;
				const enum path_status sa = path_find(d.ref, start, goal, &d.opt, &a);
				assert_int_equal(path_find(d.fast, start, goal, &d.with, &b), sa);
				if (sa == PATH_NO_ROUTE) {
					none++;
					continue;
				}
				if (a.blocked_crossed < 1 || (a.expanded == b.expanded && a.len == b.len)) {
					check_same(&a, &b);
					same++;
					continue;
				}
				check_key(g, cc, d.extra, d.solid, d.ref, &a, d.fast, &b, start, goal);
				deep++;
				counted += a.expanded != b.expanded;
			}
			deep_pair_free(&d);
			grid_destroy(g);
		}
	print_message("%ld blocked starts answered by the count, %ld the same as the layered search, %ld walled off\n",
		      counted, same, none);
	assert_int_equal(counted, deep);
	assert_true(counted >= 400);
}

/*
 * A deep goal past a long stretch of the dearest terrain (255 a step): on
 * square8 and diamond8 the plain loop's word (48 bits of g, 2^16 plain
 * steps at the 32 bits of fraction of so small a map) overflows on the
 * way, astar() starts again in the general loop, in a new generation, and
 * fallback_deep answers by its A* over the pair in another (deep_plain's
 * DEEP_AGAIN): still the layered search's key.
 */
static void test_fallback_deep_dear(void **state)
{
	(void)state;
	for (size_t t = 0; t < N_TOPOS; t++) {
		const int w = 420, h = 12;
		struct grid *g = grid_create(w, h, TOPOS[t]);
		assert_non_null(g);
		grid_fill(g, 255);
		for (int y = 0; y < h; y++)
			for (int x = 380; x < 400; x++)
				grid_set_cost(g, y * w + x, 0);
		struct path_ctx *ref = path_create(g), *fast = path_create(g);
		struct region *r = region_create(g, false);
		assert_true(ref && fast && r);
		struct path_options opt = path_options_default();
		opt.fallback = true;
		struct path_options with = opt;
		with.regions = r;
		const int start = 5 * w + 3, goal = 6 * w + 386;
		struct path_result a, b;
		assert_int_equal(path_find(ref, start, goal, &opt, &a), PATH_FALLBACK);
		assert_int_equal(path_find(fast, start, goal, &with, &b), PATH_FALLBACK);
		assert_true(a.blocked_crossed >= 5);
		assert_true(a.cost > 65536.0 * 1.4);
		(void)check_key(g, false, NULL, NULL, ref, &a, fast, &b, start, goal);
		path_destroy(ref);
		path_destroy(fast);
		region_destroy(r);
		grid_destroy(g);
	}
}

/* A map cut in two by a wall: the answer through the wall, found without
 * settling the start's half. */
static void test_fallback_other_half(void **state)
{
	(void)state;
	for (size_t t = 0; t < N_TOPOS; t++) {
		struct grid *g = grid_create(200, 200, TOPOS[t]);
		assert_non_null(g);
		grid_fill(g, 1);
		for (int x = 0; x < 200; x++)
			grid_set_cost(g, 100 * 200 + x, 0);
		struct path_ctx *ctx = path_create(g);
		struct region *r = region_create(g, false);
		assert_true(ctx && r);
		struct path_options opt = path_options_default();
		opt.fallback = true;
		struct path_result a, b;
		const int start = 90 * 200 + 100, goal = 110 * 200 + 100;
		path_find(ctx, start, goal, &opt, &a);
		const long whole = a.expanded;
		int cells[256];
		const int len = a.len;
		assert_true(len < 256);
		memcpy(cells, a.cells, (size_t)len * sizeof *cells);
		const double cost = a.cost;
		opt.regions = r;
		path_find(ctx, start, goal, &opt, &b);
		assert_int_equal(b.status, PATH_FALLBACK);
		assert_int_equal(b.blocked_crossed, 1);
		assert_int_equal(b.len, len);
		assert_true(b.cost == cost);
		assert_memory_equal(b.cells, cells, (size_t)len * sizeof *cells);
		assert_true(whole > 19000);
		assert_true(b.expanded < 2000);
		path_destroy(ctx);
		region_destroy(r);
		grid_destroy(g);
	}
}

/* Goals in a region too large to walk first: one wall away (the labels
 * answer) and two walls away (the search through the labels ends without
 * the goal, and the layered search answers): both the layered answer. */
static void test_fallback_large_goal_region(void **state)
{
	(void)state;
	for (int thick = 1; thick <= 2; thick++) {
		struct grid *g = grid_create(1000, 620, GRID_SQUARE8);
		assert_non_null(g);
		grid_fill(g, 1);
		for (int y = 300; y < 300 + thick; y++)
			for (int x = 0; x < 1000; x++)
				grid_set_cost(g, y * 1000 + x, 0);
		struct path_ctx *ref = path_create(g), *fast = path_create(g);
		struct region *r = region_create(g, false);
		assert_true(ref && fast && r);
		assert_true(region_size(r, 310 * 1000) > (1 << 18));
		struct path_options opt = path_options_default();
		opt.fallback = true;
		struct path_options with = opt;
		with.regions = r;
		struct path_result a, b;
		const int start = 280 * 1000 + 500, goal = 320 * 1000 + 510;
		path_find(ref, start, goal, &opt, &a);
		path_find(fast, start, goal, &with, &b);
		check_same(&a, &b);
		assert_int_equal(b.blocked_crossed, thick);
		if (thick == 1)
			assert_true(b.expanded * 10 < a.expanded);
		else
			assert_true(b.expanded > a.expanded); /* both searches ran */
		path_destroy(ref);
		path_destroy(fast);
		region_destroy(r);
		grid_destroy(g);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_labels_match_flood),
		cmocka_unit_test(test_label_equals_flood_numbering),
		cmocka_unit_test(test_refresh_after_unreported_changes),
		cmocka_unit_test(test_changes_keep_labels),
		cmocka_unit_test(test_current_only_for_its_array),
		cmocka_unit_test(test_large_split_goes_stale),
		cmocka_unit_test(test_lazy_bands_any_order),
		cmocka_unit_test(test_lazy_bands_split_across_edge),
		cmocka_unit_test(test_fallback_same_answer),
		cmocka_unit_test(test_fallback_one_far),
		cmocka_unit_test(test_fallback_deep),
		cmocka_unit_test(test_fallback_deep_thick),
		cmocka_unit_test(test_fallback_deep_doors),
		cmocka_unit_test(test_fallback_deep_ball),
		cmocka_unit_test(test_fallback_deep_ball_wide),
		cmocka_unit_test(test_fallback_deep_wall_doors),
		cmocka_unit_test(test_fallback_deep_from_wall),
		cmocka_unit_test(test_fallback_deep_dear),
		cmocka_unit_test(test_fallback_other_half),
		cmocka_unit_test(test_fallback_large_goal_region),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
