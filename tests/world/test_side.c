/*
 * test_side.c - the side search of a far click (game_travel.c): a thread
 * beside the key's climbs the ladder of searches (the cut point of a goal
 * out of reach, the shortest way, the far weights) with it, and the click
 * gets what the key alone finds, climbing in turn: the same status, cells,
 * expansions, weight and cut point, on every grid, on rooms and caves
 * levels (no trees: the weights climbed beside the shortest way) and on a
 * maze (its trees asked first).  And the regions' lazy labels, read by
 * both threads at once, are what one thread reads.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_game_fixture.h"

#include "bestiary.h"
#include "diag.h"
#include "game_internal.h"
#include "gen.h"
#include "level.h"
#include "region.h"
#include "testmaze.h"
#include "testrand.h"

#include <pthread.h>

/* What a click planned: enough to tell two plans apart. */
struct plan {
	enum path_status st;
	int len;
	int *cells;
	long expanded;
	double weight;
	bool out_of_reach;
	long side_rungs;
};

static struct plan plan_of(struct game *g, int x, int y)
{
	struct plan p = { 0 };
	const int *cells;
	p.st = game_travel_plan(g, x, y, &cells, &p.len);
	p.cells = malloc(sizeof *p.cells * (size_t)(p.len > 0 ? p.len : 1));
	assert_non_null(p.cells);
	if (p.len > 0)
		memcpy(p.cells, cells, sizeof *p.cells * (size_t)p.len);
	p.expanded = g->reach.expanded;
	p.weight = g->reach.weight;
	p.out_of_reach = g->reach.out_of_reach;
	p.side_rungs = g->reach.side_rungs;
	return p;
}

/* What the clicks of one level came to, with the side search. */
struct tally {
	int clicks, side_rungs, weighted, cut, partial;
};

/*
 * `n` clicks at random cells of the level, planned by `alone` (side_off)
 * and by `sided` (the side search on), each game as mapped as the other:
 * the same answers, to the cell and the expansion.
 */
static void same_plans(struct game *alone, struct game *sided, uint32_t seed, int n, const char *what,
		       struct tally *t)
{
	alone->reach.side_off = true;
	sided->reach.side_off = false;
	const int w = alone->grid->w, h = alone->grid->h;
	for (int i = 0; i < n; i++) {
		const int x = (int)(rnd(&seed) % (uint32_t)w), y = (int)(rnd(&seed) % (uint32_t)h);
		struct plan a = plan_of(alone, x, y), b = plan_of(sided, x, y);
		if (a.st != b.st || a.len != b.len || a.expanded != b.expanded || a.weight != b.weight ||
		    a.out_of_reach != b.out_of_reach)
			fail_msg("%s, click %d at (%d, %d): alone status %d, %d cells, %ld expanded, weight %.2f, "
				 "out of reach %d; with the side %d, %d, %ld, %.2f, %d",
				 what, i, x, y, a.st, a.len, a.expanded, a.weight, a.out_of_reach, b.st, b.len,
				 b.expanded, b.weight, b.out_of_reach);
		if (a.len > 0 && memcmp(a.cells, b.cells, sizeof *a.cells * (size_t)a.len) != 0)
			fail_msg("%s, click %d at (%d, %d): the same length, other cells", what, i, x, y);
		assert_int_equal(a.side_rungs, 0);
		t->clicks++;
		t->side_rungs += (int)b.side_rungs;
		t->weighted += b.weight > 1.0;
		t->cut += b.out_of_reach;
		t->partial += b.st == PATH_BUDGET;
		free(a.cells);
		free(b.cells);
	}
}

/* Two games of level text `text`, mapped, planned as play plans on a level
 * larger than a plan searches whole. */
static void two_games(const struct level *lv, const struct bestiary *b, struct game **alone, struct game **sided)
{
	const struct level *levels[1] = { lv };
	*alone = game_create(levels, 1, b, 3);
	*sided = game_create(levels, 1, b, 3);
	assert_non_null(*alone);
	assert_non_null(*sided);
	(*alone)->reach.whole_region = (*sided)->reach.whole_region = 0;
	game_map_level(*alone, 0);
	game_map_level(*sided, 0);
}

/*
 * Generated rooms levels of all five grids and a caves level, mapped:
 * clicks anywhere (floor out of reach of the distance map, walls, rock
 * between rooms) plan the same with the side search as without.  The
 * clicks must have used it: rungs run by the side, routes by weight, and
 * walks to a cut point.
 */
static void test_side_same_answers_generated(void **state)
{
	(void)state;
	struct bestiary b;
	struct diag_list diags = { 0 };
	assert_true(bestiary_load_file("levels/bestiary.txt", &b, &diags));
	diag_list_fini(&diags);
	static const struct {
		enum grid_topology topo;
		enum gen_style style;
	} kinds[] = { { GRID_SQUARE8, GEN_STYLE_ROOMS }, { GRID_SQUARE4, GEN_STYLE_ROOMS },
		      { GRID_HEX, GEN_STYLE_ROOMS },     { GRID_DIAMOND4, GEN_STYLE_ROOMS },
		      { GRID_DIAMOND8, GEN_STYLE_ROOMS }, { GRID_SQUARE8, GEN_STYLE_CAVES } };
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		struct gen_params p = { .topo = kinds[k].topo, .w = 1600, .h = 1200, .depth = 3, .seed = 11 + k,
					.style = kinds[k].style, .bestiary = &b };
		struct gen_result r;
		char err[200];
		assert_true(gen_level(&p, &r, err, sizeof err));
		struct game *alone, *sided;
		two_games(r.level, &b, &alone, &sided);
		char what[64];
		snprintf(what, sizeof what, "%s %s", grid_topology_name(kinds[k].topo), gen_style_name(kinds[k].style));
		struct tally t = { 0 };
		same_plans(alone, sided, 7u + (uint32_t)k, 24, what, &t);
		print_message("%s: %d clicks, %d rungs by the side, %d by weight, %d to a cut point, %d partial\n",
			      what, t.clicks, t.side_rungs, t.weighted, t.cut, t.partial);
		/* each level's clicks used the side, climbed past the shortest
		 * way and walked to cut points */
		assert_true(t.side_rungs > 0 && t.weighted > 0 && t.cut > 0);
		game_destroy(alone);
		game_destroy(sided);
		gen_result_free(&r);
	}
}

/*
 * A 511x511 maze, unmapped and then mapped: its trees are kept, so the key
 * asks them after the shortest way runs out (plan_far's order) while the
 * side found the cut point and ran the shortest way.  The same answers.
 * The sided game is readied as for a person first, so its first click
 * joins the thread that made the side's context resident.
 */
static void test_side_same_answers_maze(void **state)
{
	(void)state;
	struct fixture fa, fb;
	char *map = test_maze_text(511, 511, 99u, 0, 0);
	struct game *alone = fixture_game(&fa, "square8", map, 1), *sided = fixture_game(&fb, "square8", map, 1);
	free(map);
	alone->reach.whole_region = sided->reach.whole_region = 0;
	sided->reach.side_off = false;
	game_prefault(sided); /* as for a person: the side's context made resident in a thread */
	struct tally t = { 0 };
	same_plans(alone, sided, 5u, 12, "maze, unmapped", &t);
	game_map_level(alone, 0);
	game_map_level(sided, 0);
	same_plans(alone, sided, 6u, 24, "maze, mapped", &t);
	print_message("maze: %d clicks, %d rungs by the side, %d by weight, %d to a cut point, %d partial\n", t.clicks,
		      t.side_rungs, t.weighted, t.cut, t.partial);
	assert_true(t.side_rungs > 0);
	fixture_fini(&fa);
	fixture_fini(&fb);
}

/* Two threads reading lazy labels at once. */
struct reader {
	const struct region *r;
	int n, from;
	int32_t *out;
};

static void *read_labels(void *arg)
{
	struct reader *rd = arg;
	for (int i = 0; i < rd->n; i++) {
		const int c = (rd->from + i) % rd->n;
		rd->out[c] = region_of(rd->r, c);
	}
	return NULL;
}

/*
 * The lazy labels (region.c's bands, written on their first read) read by
 * two threads at once, from the two ends: every cell's label what one
 * thread reading labels made anew reads.
 */
static void test_labels_read_by_two_threads(void **state)
{
	(void)state;
	const int w = 1024, h = 512, n = w * h;
	uint8_t *cost = malloc((size_t)n);
	assert_non_null(cost);
	uint32_t seed = 3;
	for (int c = 0; c < n; c++)
		cost[c] = rnd(&seed) % 100 < 38 ? 0 : 1;
	struct grid *g = grid_create(w, h, GRID_SQUARE8);
	assert_non_null(g);
	grid_set_costs(g, cost);
	for (int round = 0; round < 3; round++) {
		struct region *one = region_create(g, false), *two = region_create(g, false);
		assert_non_null(one);
		assert_non_null(two);
		int32_t *want = malloc(sizeof *want * (size_t)n), *a = malloc(sizeof *a * (size_t)n),
			*b = malloc(sizeof *b * (size_t)n);
		assert_non_null(want);
		assert_non_null(a);
		assert_non_null(b);
		for (int c = 0; c < n; c++)
			want[c] = region_of(one, c);
		struct reader ra = { two, n, 0, a }, rb = { two, n, n / 2 + round * 4099, b };
		pthread_t t;
		assert_int_equal(pthread_create(&t, NULL, read_labels, &ra), 0);
		read_labels(&rb);
		pthread_join(t, NULL);
		/* the ids are the same function of the map in both: a region's
		 * first cell's order */
		for (int c = 0; c < n; c++)
			if (a[c] != want[c] || b[c] != want[c])
				fail_msg("round %d, cell %d: labels %d and %d, one thread read %d", round, c, a[c], b[c],
					 want[c]);
		free(want);
		free(a);
		free(b);
		region_destroy(one);
		region_destroy(two);
	}
	grid_destroy(g);
	free(cost);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_side_same_answers_generated),
		cmocka_unit_test(test_side_same_answers_maze),
		cmocka_unit_test(test_labels_read_by_two_threads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
