/*
 * test_gen.c - the level generator: properties over thousands of seeds per
 * topology (check clean, one region, exit reachable, a loop on all but the
 * smallest maps, no monster near the start, items reachable, every monster
 * letter in the campaign's bestiary), the same bytes for the same inputs,
 * mixed equal to the style it picks, bad parameters refused, and the shape
 * measure on hand-drawn maps.  GEN_SEEDS=N changes the seeds per topology
 * (make gen-sweep runs 20000).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bestiary.h"
#include "gen.h"
#include "level.h"

/* Levels of at least this many cells must have a loop. */
#define LOOP_MIN_CELLS 400

static struct bestiary campaign;

static int setup(void **state)
{
	(void)state;
	struct diag_list d = { 0 };
	bool ok = bestiary_load_file("levels/bestiary.txt", &campaign, &d);
	diag_list_fini(&d);
	return ok ? 0 : -1;
}

static long seeds_per_topology(void)
{
	const char *s = getenv("GEN_SEEDS");
	long n = s && *s ? strtol(s, NULL, 10) : 2000;
	return n > 0 ? n : 2000;
}

/* The sizes, depths and styles vary with the seed so the sweep covers them. */
static struct gen_params params_for(enum grid_topology topo, uint64_t seed)
{
	struct gen_params p = { .topo = topo, .seed = seed };
	uint64_t z = seed * 0x9e3779b97f4a7c15ULL;
	z ^= z >> 29;
	int wmax = grid_is_staggered(topo) ? 36 : 56;
	p.w = GEN_MIN_WIDTH + (int)(z % (uint64_t)(wmax - GEN_MIN_WIDTH + 1));
	p.h = GEN_MIN_HEIGHT + (int)((z >> 16) % 21);
	p.depth = 1 + (int)((z >> 32) % 12);
	p.style = (enum gen_style)((z >> 40) % 3);
	return p;
}

static void fail_level(const struct gen_params *p, const struct gen_result *r, const char *why)
{
	print_error("%s: %s %dx%d depth %d style %s seed %llu\n%s\n", why, grid_topology_name(p->topo), p->w, p->h,
		    p->depth, gen_style_name(p->style), (unsigned long long)p->seed, r ? r->text : "");
	fail();
}

static void check_level(const struct gen_params *p)
{
	struct gen_result r;
	char err[200];
	if (!gen_level(p, &r, err, sizeof err)) {
		print_error("gen_level: %s\n", err);
		fail_level(p, NULL, "generation failed");
	}
	/* The text parses with the campaign's bestiary: every letter is a kind. */
	struct diag_list d = { 0 };
	struct level *lv = level_parse("gen", r.text, r.len, &campaign, &d);
	if (!lv)
		fail_level(p, &r, "the text does not parse with levels/bestiary.txt");
	int errors = level_analyse(lv, &campaign, &d);
	if (errors || d.errors || d.warnings)
		fail_level(p, &r, "astray check finds errors or warnings");
	diag_list_fini(&d);

	int cells = lv->w * lv->h;
	int *region = malloc((size_t)cells * sizeof *region);
	assert_non_null(region);
	if (level_regions(lv, region) != 1)
		fail_level(p, &r, "the floor is not one region");
	int home = region[lv->player_y * lv->w + lv->player_x];
	int exits = 0;
	for (int i = 0; i < cells; i++)
		if (lv->tiles[i] == TILE_EXIT) {
			exits++;
			if (region[i] != home)
				fail_level(p, &r, "exit unreachable");
		}
	if (exits != 1)
		fail_level(p, &r, "not exactly one exit");
	for (int i = 0; i < lv->n_items; i++)
		if (region[lv->items[i].y * lv->w + lv->items[i].x] != home)
			fail_level(p, &r, "item unreachable");

	struct grid *g = level_grid(lv);
	assert_non_null(g);
	int start = grid_index(g, lv->player_x, lv->player_y);
	for (int i = 0; i < lv->n_monsters; i++) {
		int c = grid_index(g, lv->monsters[i].x, lv->monsters[i].y);
		if (grid_is_adjacent(g, start, c) || grid_step_distance(g, start, c) < 3)
			fail_level(p, &r, "a monster next to the start");
	}
	grid_destroy(g);
	free(region);

	struct gen_shape s;
	assert_true(gen_measure(lv, &s));
	if (s.regions != 1 || s.route < 1 || s.on_route < s.route + 1)
		fail_level(p, &r, "measure: no route");
	if (cells >= LOOP_MIN_CELLS && s.loops < 1)
		fail_level(p, &r, "no loop");
	if (s.cycles < s.loops)
		fail_level(p, &r, "fewer cycles than loops");
	level_destroy(lv);
	gen_result_free(&r);
}

static void sweep(enum grid_topology topo)
{
	long n = seeds_per_topology();
	for (long i = 0; i < n; i++) {
		struct gen_params p = params_for(topo, (uint64_t)i);
		check_level(&p);
	}
}

static void test_sweep_square4(void **state) { (void)state; sweep(GRID_SQUARE4); }
static void test_sweep_square8(void **state) { (void)state; sweep(GRID_SQUARE8); }
static void test_sweep_hex(void **state) { (void)state; sweep(GRID_HEX); }
static void test_sweep_diamond4(void **state) { (void)state; sweep(GRID_DIAMOND4); }
static void test_sweep_diamond8(void **state) { (void)state; sweep(GRID_DIAMOND8); }

/* A few full-size and large levels: default size, 80x40, 200x120, every depth band. */
static void test_large(void **state)
{
	(void)state;
	const enum grid_topology topos[] = { GRID_SQUARE4, GRID_SQUARE8, GRID_HEX, GRID_DIAMOND4, GRID_DIAMOND8 };
	for (int t = 0; t < 5; t++) {
		for (uint64_t seed = 0; seed < 6; seed++) {
			struct gen_params p = { .topo = topos[t], .seed = seed, .depth = 1 + (int)seed * 3,
						.style = (enum gen_style)(seed % 3) };
			gen_default_size(p.topo, &p.w, &p.h);
			check_level(&p);
			p.w = 80;
			p.h = 40;
			check_level(&p);
		}
		struct gen_params p = { .topo = topos[t], .seed = 99, .depth = 10, .w = 200, .h = 120 };
		check_level(&p);
	}
}

static void test_deterministic(void **state)
{
	(void)state;
	const enum grid_topology topos[] = { GRID_SQUARE4, GRID_SQUARE8, GRID_HEX, GRID_DIAMOND4, GRID_DIAMOND8 };
	for (int t = 0; t < 5; t++) {
		for (uint64_t seed = 0; seed < 20; seed++) {
			struct gen_params p = params_for(topos[t], seed * 7919);
			struct gen_result a, b;
			char err[200];
			assert_true(gen_level(&p, &a, err, sizeof err));
			assert_true(gen_level(&p, &b, err, sizeof err));
			assert_int_equal(a.len, b.len);
			assert_memory_equal(a.text, b.text, a.len);
			/* Another seed gives another level. */
			p.seed++;
			struct gen_result c;
			assert_true(gen_level(&p, &c, err, sizeof err));
			assert_true(c.len != a.len || memcmp(c.text, a.text, a.len) != 0);
			gen_result_free(&a);
			gen_result_free(&b);
			gen_result_free(&c);
		}
	}
}

/* mixed picks a style from the seed and is then exactly that style. */
static void test_mixed_is_a_style(void **state)
{
	(void)state;
	int rooms = 0, caves = 0;
	for (uint64_t seed = 0; seed < 40; seed++) {
		struct gen_params p = { .topo = GRID_SQUARE8, .w = 40, .h = 20, .depth = 2, .seed = seed,
					.style = GEN_STYLE_MIXED };
		struct gen_result m, s;
		char err[200];
		assert_true(gen_level(&p, &m, err, sizeof err));
		assert_true(m.style == GEN_STYLE_ROOMS || m.style == GEN_STYLE_CAVES);
		rooms += m.style == GEN_STYLE_ROOMS;
		caves += m.style == GEN_STYLE_CAVES;
		p.style = m.style;
		assert_true(gen_level(&p, &s, err, sizeof err));
		assert_string_equal(m.text, s.text);
		char want[64];
		snprintf(want, sizeof want, "style %s, seed %llu.", gen_style_name(m.style), (unsigned long long)seed);
		assert_non_null(strstr(m.text, want));
		assert_non_null(strstr(m.text, "\nauthor: astray gen\n"));
		gen_result_free(&m);
		gen_result_free(&s);
	}
	assert_true(rooms >= 5 && caves >= 5);
}

/* Monsters grow with depth: more of them, and kinds that depth 1 lacks. */
static void test_depth(void **state)
{
	(void)state;
	long shallow = 0, deep = 0;
	bool ogre_shallow = false, ogre_deep = false;
	for (uint64_t seed = 0; seed < 30; seed++) {
		for (int depth = 1; depth <= 10; depth += 9) {
			struct gen_params p = { .topo = GRID_SQUARE4, .w = 79, .h = 23, .depth = depth, .seed = seed,
						.style = GEN_STYLE_ROOMS };
			struct gen_result r;
			char err[200];
			assert_true(gen_level(&p, &r, err, sizeof err));
			for (int i = 0; i < r.level->n_monsters; i++) {
				bool ogre = r.level->monsters[i].glyph == 'O';
				if (depth == 1)
					ogre_shallow |= ogre;
				else
					ogre_deep |= ogre;
			}
			*(depth == 1 ? &shallow : &deep) += r.level->n_monsters;
			gen_result_free(&r);
		}
	}
	assert_false(ogre_shallow);
	assert_true(ogre_deep);
	assert_true(deep > 2 * shallow);
}

static void test_bad_params(void **state)
{
	(void)state;
	struct gen_params ok = { .topo = GRID_HEX, .w = 30, .h = 20, .depth = 1, .seed = 1 };
	struct gen_params bad[] = { ok, ok, ok, ok, ok };
	bad[0].w = GEN_MIN_WIDTH - 1;
	bad[1].h = LEVEL_MAX_SIDE + 1;
	bad[2].depth = 0;
	bad[3].depth = GEN_MAX_DEPTH + 1;
	bad[4].topo = (enum grid_topology)77;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct gen_result r;
		char err[200] = "";
		assert_false(gen_level(&bad[i], &r, err, sizeof err));
		assert_true(err[0] != '\0');
		assert_null(r.text);
		assert_null(r.level);
	}
	assert_false(gen_supports((enum grid_topology)77));
	enum gen_style s;
	assert_true(gen_style_parse("caves", &s) && s == GEN_STYLE_CAVES);
	assert_false(gen_style_parse("maze", &s));
}

static struct level *parse(const char *text)
{
	struct diag_list d = { 0 };
	struct level *lv = level_parse("t", text, strlen(text), NULL, &d);
	diag_list_fini(&d);
	assert_non_null(lv);
	return lv;
}

/* The measure on hand-drawn maps: a ring has one loop, an open room none
 * (its 2x2 blocks are trivial cycles), two pillars two loops. */
static void test_measure(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		long loops, cycles;
		int route, on_route;
	} cases[] = {
		{ "astray-level 1\nname: r\ntopology: square4\nmap:\n#####\n#@..#\n#.#.#\n#..>#\n#####\n", 1, 1, 4, 8 },
		{ "astray-level 1\nname: o\ntopology: square8\nmap:\n#####\n#@..#\n#...#\n#..>#\n#####\n", 0, 4, 2, 3 },
		{ "astray-level 1\nname: p\ntopology: square4\nmap:\n#######\n#@....#\n#.#.#.#\n#....>#\n#######\n", 2, 2, 6, 13 },
		{ "astray-level 1\nname: h\ntopology: hex\nmap:\n# # # # #\n # @ . . #\n# . # . #\n # . . > #\n# # # # #\n",
		  1, 3, 3, 4 },
		/* Diamonds: a block of four is a trivial cycle; on diamond8 the
		 * corner step S crosses it.  A ring round a pillar is a loop. */
		{ "astray-level 1\nname: d\ntopology: diamond4\nmap:\n# # # #\n # @ # #\n# . . #\n # > # #\n# # # #\n",
		  0, 1, 2, 4 },
		{ "astray-level 1\nname: e\ntopology: diamond8\nmap:\n# # # #\n # @ # #\n# . . #\n # > # #\n# # # #\n",
		  0, 1, 1, 2 },
		{ "astray-level 1\nname: f\ntopology: diamond4\nmap:\n# # # # #\n # # @ # #\n# # . . #\n # . # . #\n"
		  "# # . . #\n # # > # #\n# # # # #\n",
		  1, 1, 4, 8 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct level *lv = parse(cases[i].text);
		struct gen_shape s;
		assert_true(gen_measure(lv, &s));
		if (s.loops != cases[i].loops || s.cycles != cases[i].cycles || s.route != cases[i].route ||
		    s.on_route != cases[i].on_route) {
			print_error("case %zu: loops %ld cycles %ld route %d on_route %d\n", i, s.loops, s.cycles,
				    s.route, s.on_route);
			fail();
		}
		assert_int_equal(s.regions, 1);
		level_destroy(lv);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_measure),
		cmocka_unit_test(test_bad_params),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_mixed_is_a_style),
		cmocka_unit_test(test_depth),
		cmocka_unit_test(test_large),
		cmocka_unit_test(test_sweep_square4),
		cmocka_unit_test(test_sweep_square8),
		cmocka_unit_test(test_sweep_hex),
		cmocka_unit_test(test_sweep_diamond4),
		cmocka_unit_test(test_sweep_diamond8),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
