/* test_movingai.c - the Moving AI formats, and every scenario of three benchmark maps. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "grid.h"
#include "movingai.h"
#include "path.h"

static void test_parse_map_quirks(void **state)
{
	(void)state;
	/* CRLF, no final newline, every terrain letter */
	const char *text = "type octile\r\nheight 2\r\nwidth 4\r\nmap\r\n.GS@\r\nOTW.";
	char err[128];
	struct grid *g = movingai_parse_map(text, strlen(text), err, sizeof err);
	assert_non_null(g);
	assert_int_equal(g->w, 4);
	assert_int_equal(g->h, 2);
	assert_int_equal(g->topo, GRID_SQUARE8);
	const uint8_t want[8] = { 1, 1, 1, 0, 0, 0, 0, 1 };
	assert_memory_equal(g->cost, want, 8);
	grid_destroy(g);
}

static void test_parse_map_errors(void **state)
{
	(void)state;
	char err[128];
	const char *short_row = "type octile\nheight 2\nwidth 3\nmap\n...\n..\n";
	assert_null(movingai_parse_map(short_row, strlen(short_row), err, sizeof err));
	assert_non_null(strstr(err, "line 6"));
	const char *few = "type octile\nheight 3\nwidth 2\nmap\n..\n..\n";
	assert_null(movingai_parse_map(few, strlen(few), err, sizeof err));
	assert_non_null(strstr(err, "rows"));
	const char *type = "type hex\nheight 1\nwidth 1\nmap\n.\n";
	assert_null(movingai_parse_map(type, strlen(type), err, sizeof err));
	assert_non_null(strstr(err, "line 1"));
	const char *nomap = "type octile\nheight 1\nwidth 1\n";
	assert_null(movingai_parse_map(nomap, strlen(nomap), err, sizeof err));
}

static void test_parse_scen(void **state)
{
	(void)state;
	const char *text = "version 1.0\n"
			   "0 maps/bgmaps/AR0011SR.map 512 512 10 20 30 40 44.5\n"
			   "\n"
			   "1\tBerlin_0_256.map\t256\t256\t1\t2\t3\t4\t5.65685425\n\n\n";
	struct movingai_scenario *sc;
	char err[128];
	int n = movingai_parse_scen(text, strlen(text), &sc, err, sizeof err);
	assert_int_equal(n, 2);
	assert_string_equal(sc[0].map, "AR0011SR.map");
	assert_int_equal(sc[0].map_w, 512);
	assert_int_equal(sc[0].sx, 10);
	assert_int_equal(sc[0].gy, 40);
	assert_true(sc[0].optimal == 44.5);
	assert_string_equal(sc[1].map, "Berlin_0_256.map");
	assert_int_equal(sc[1].bucket, 1);
	free(sc);
	const char *bad = "version 1\n0 a.map 5 5 1 2 3\n";
	assert_int_equal(movingai_parse_scen(bad, strlen(bad), &sc, err, sizeof err), -1);
	assert_non_null(strstr(err, "line 2"));
	const char *outside = "version 1\n0 a.map 5 5 1 2 3 9 1.0\n";
	assert_int_equal(movingai_parse_scen(outside, strlen(outside), &sc, err, sizeof err), -1);
	const char *nover = "0 a.map 5 5 1 2 3 4 1.0\n";
	assert_int_equal(movingai_parse_scen(nover, strlen(nover), &sc, err, sizeof err), -1);
	assert_true(movingai_cost_matches(100.0, 100.005));
	assert_false(movingai_cost_matches(100.0, 100.01));
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* Every scenario of one benchmark file, through path_find (JPS), plain
 * A* and the fallback; each must match the file's optimal length. */
static void run_benchmark(const char *name)
{
	const char *dir = getenv("ASTRAY_MAPS");
	if (!dir)
		dir = "../shared/maps/movingai";
	char path[1024];
	size_t len;
	snprintf(path, sizeof path, "%s/%s.scen", dir, name);
	char *text = slurp(path, &len);
	if (!text) {
		print_message("SKIPPED: %s not found (set ASTRAY_MAPS to the Moving AI folder)\n", path);
		skip();
		return;
	}
	struct movingai_scenario *sc;
	char err[128];
	int n = movingai_parse_scen(text, len, &sc, err, sizeof err);
	free(text);
	assert_true(n > 0);
	snprintf(path, sizeof path, "%s/%s", dir, name);
	text = slurp(path, &len);
	assert_non_null(text);
	struct grid *g = movingai_parse_map(text, len, err, sizeof err);
	free(text);
	assert_non_null(g);
	struct path_ctx *ctx = path_create(g);
	struct path_options fast = path_options_default(), plain = fast, fb = fast;
	plain.plain_astar = true;
	fb.fallback = true;
	for (int i = 0; i < n; i++) {
		int s = grid_index(g, sc[i].sx, sc[i].sy), t = grid_index(g, sc[i].gx, sc[i].gy);
		struct path_result r;
		assert_int_equal(path_find(ctx, s, t, &fast, &r), PATH_FOUND);
		if (!movingai_cost_matches(r.cost, sc[i].optimal))
			fail_msg("%s #%d: cost %.6f, optimal %.6f", name, i + 1, r.cost, sc[i].optimal);
		for (int k = 1; k < r.len; k++)
			assert_true(grid_is_adjacent(g, r.cells[k - 1], r.cells[k]) &&
				    grid_passable(g, r.cells[k]));
		if (i % 4 == 0) { /* the slower searches on a quarter, under the sanitizers */
			assert_int_equal(path_find(ctx, s, t, &plain, &r), PATH_FOUND);
			assert_true(movingai_cost_matches(r.cost, sc[i].optimal));
			assert_int_equal(path_find(ctx, s, t, &fb, &r), PATH_FOUND);
			assert_true(movingai_cost_matches(r.cost, sc[i].optimal));
		}
	}
	path_destroy(ctx);
	grid_destroy(g);
	free(sc);
}

static void test_arena(void **state) { (void)state; run_benchmark("arena.map"); }
static void test_den520d(void **state) { (void)state; run_benchmark("den520d.map"); }
static void test_berlin(void **state) { (void)state; run_benchmark("Berlin_0_256.map"); }

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_map_quirks),
		cmocka_unit_test(test_parse_map_errors),
		cmocka_unit_test(test_parse_scen),
		cmocka_unit_test(test_arena),
		cmocka_unit_test(test_den520d),
		cmocka_unit_test(test_berlin),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
