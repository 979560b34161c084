/*
 * test_dungeon.c - the dungeon mode's levels: the same seed gives the same
 * levels (byte for byte) and another seed others; every level parses with
 * the campaign's bestiary and `astray check` finds nothing in it; a run
 * mixes topologies, never the same twice in a row; monsters grow with
 * depth; every level fits an 80x24 terminal; bad sizes are refused.
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
#include "dungeon.h"
#include "level.h"

static struct bestiary campaign;

static int setup(void **state)
{
	(void)state;
	struct diag_list d = { 0 };
	bool ok = bestiary_load_file("levels/bestiary.txt", &campaign, &d);
	diag_list_fini(&d);
	return ok ? 0 : -1;
}

static void make(uint64_t seed, int n, struct dungeon *d)
{
	char err[300];
	if (!dungeon_create(seed, n, &campaign, d, err, sizeof err)) {
		print_error("dungeon %llu: %s\n", (unsigned long long)seed, err);
		fail();
	}
	assert_int_equal(d->n, n);
	assert_true(d->seed == seed);
}

static void test_same_seed_same_levels(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 5; seed++) {
		struct dungeon a, b;
		make(seed, DUNGEON_DEFAULT_LEVELS, &a);
		make(seed, DUNGEON_DEFAULT_LEVELS, &b);
		for (int i = 0; i < a.n; i++) {
			assert_string_equal(a.texts[i], b.texts[i]);
			assert_int_equal(a.levels[i]->topo, b.levels[i]->topo);
			assert_true(a.params[i].seed == b.params[i].seed);
		}
		/* the level text written again from the parsed level is the same
		 * text but for gen's description line, which the played level
		 * leaves out: what is played is what the text says */
		for (int i = 0; i < a.n; i++) {
			size_t len;
			char *again = level_write(a.levels[i], &len);
			assert_non_null(again);
			char *text = strdup(a.texts[i]);
			assert_non_null(text);
			char *desc = strstr(text, "\ndescription: ");
			if (desc) {
				char *end = strchr(desc + 1, '\n');
				assert_non_null(end);
				memmove(desc, end, strlen(end) + 1);
			}
			assert_string_equal(again, text);
			free(text);
			free(again);
		}
		dungeon_fini(&a);
		dungeon_fini(&b);
	}
}

static void test_other_seed_other_levels(void **state)
{
	(void)state;
	struct dungeon a, b;
	make(7, 3, &a);
	make(8, 3, &b);
	int differ = 0;
	for (int i = 0; i < 3; i++)
		differ += strcmp(a.texts[i], b.texts[i]) != 0;
	assert_int_equal(differ, 3);
	dungeon_fini(&a);
	dungeon_fini(&b);
}

/* A shorter run is the start of a longer one: --depth cuts, it does not reshuffle. */
static void test_prefix(void **state)
{
	(void)state;
	struct gen_params p3[3], p10[10];
	assert_true(dungeon_plan(99, 3, p3));
	assert_true(dungeon_plan(99, 10, p10));
	for (int i = 0; i < 3; i++) {
		assert_int_equal(p3[i].topo, p10[i].topo);
		assert_int_equal(p3[i].w, p10[i].w);
		assert_true(p3[i].seed == p10[i].seed);
	}
}

static void test_levels_check_clean(void **state)
{
	(void)state;
	for (uint64_t seed = 100; seed < 130; seed++) {
		struct dungeon d;
		make(seed, DUNGEON_DEFAULT_LEVELS, &d);
		for (int i = 0; i < d.n; i++) {
			/* parsed again from its text with the campaign's bestiary */
			struct diag_list diags = { 0 };
			struct level *lv = level_parse("dungeon", d.texts[i], strlen(d.texts[i]), &campaign, &diags);
			assert_non_null(lv);
			int errors = level_analyse(lv, &campaign, &diags);
			if (errors || diags.errors || diags.warnings) {
				print_error("dungeon %llu level %d:\n%s\n", (unsigned long long)seed, i + 1, d.texts[i]);
				fail();
			}
			diag_list_fini(&diags);
			/* fits 80 columns and 21 map rows */
			assert_true(level_screen_width(lv) <= 80);
			assert_true(lv->h <= 21);
			assert_int_equal(d.params[i].depth, i + 1);
			level_destroy(lv);
		}
		dungeon_fini(&d);
	}
}

static void test_topologies_mix(void **state)
{
	(void)state;
	int seen[8] = { 0 };
	for (uint64_t seed = 0; seed < 50; seed++) {
		struct gen_params p[DUNGEON_DEFAULT_LEVELS];
		assert_true(dungeon_plan(seed, DUNGEON_DEFAULT_LEVELS, p));
		for (int i = 0; i < DUNGEON_DEFAULT_LEVELS; i++) {
			assert_true((int)p[i].topo >= 0 && (int)p[i].topo < 8);
			seen[p[i].topo]++;
			if (i > 0)
				assert_int_not_equal(p[i].topo, p[i - 1].topo);
		}
	}
	assert_true(seen[GRID_SQUARE4] > 0);
	assert_true(seen[GRID_SQUARE8] > 0);
	assert_true(seen[GRID_HEX] > 0);
	assert_true(seen[GRID_DIAMOND4] > 0);
	assert_true(seen[GRID_DIAMOND8] > 0);
}

/* Monsters grow with depth: over many runs, the last levels hold more
 * monsters than the first ones, and more per floor cell. */
static void test_monsters_grow(void **state)
{
	(void)state;
	long first = 0, last = 0;
	double first_density = 0, last_density = 0;
	int runs = 12, grew = 0;
	for (int k = 0; k < runs; k++) {
		struct dungeon d;
		make(1000 + (uint64_t)k, DUNGEON_DEFAULT_LEVELS, &d);
		for (int i = 0; i < 3; i++) {
			int floor = 0, lfloor = 0;
			const struct level *a = d.levels[i], *b = d.levels[d.n - 1 - i];
			for (int c = 0; c < a->w * a->h; c++)
				floor += a->tiles[c] != TILE_WALL && a->tiles[c] != TILE_VOID;
			for (int c = 0; c < b->w * b->h; c++)
				lfloor += b->tiles[c] != TILE_WALL && b->tiles[c] != TILE_VOID;
			first += a->n_monsters;
			last += b->n_monsters;
			first_density += (double)a->n_monsters / floor;
			last_density += (double)b->n_monsters / lfloor;
		}
		grew += d.levels[d.n - 1]->n_monsters > d.levels[0]->n_monsters;
		dungeon_fini(&d);
	}
	assert_true(last > 2 * first);
	assert_true(last_density > 1.5 * first_density);
	assert_int_equal(grew, runs);
}

static void test_bad_sizes(void **state)
{
	(void)state;
	struct dungeon d;
	char err[200] = "";
	assert_false(dungeon_create(1, 0, &campaign, &d, err, sizeof err));
	assert_non_null(strstr(err, "1 to"));
	assert_int_equal(d.n, 0);
	assert_false(dungeon_create(1, DUNGEON_MAX_LEVELS + 1, &campaign, &d, err, sizeof err));
	struct gen_params p[1];
	assert_false(dungeon_plan(1, 0, p));
	dungeon_fini(&d); /* a zeroed dungeon: nothing */
	make(5, 1, &d);
	dungeon_fini(&d);
	assert_null(d.levels);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_seed_same_levels),
		cmocka_unit_test(test_other_seed_other_levels),
		cmocka_unit_test(test_prefix),
		cmocka_unit_test(test_levels_check_clean),
		cmocka_unit_test(test_topologies_mix),
		cmocka_unit_test(test_monsters_grow),
		cmocka_unit_test(test_bad_sizes),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
