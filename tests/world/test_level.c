/*
 * test_level.c - the level format: every error message with its exact text
 * and position (fixtures in tests/levels/errors/, each NAME.lvl beside the
 * NAME.expect it must produce), files that must load (CRLF, ragged rows,
 * hex), write -> parse round trips of every shipped level, the Moving AI
 * import, the fuzz regression corpus and the 4096x4096 size limit.
 * Run from the top folder (make test does).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bestiary.h"
#include "grid.h"
#include "level.h"

static char *read_text(const char *path, size_t *len)
{
	char *t = level_read_file(path, len);
	if (!t)
		fail_msg("cannot read %s", path);
	return t;
}

/* Sorted names in dir ending with suffix; returns the count. */
static int list_dir(const char *dir, const char *suffix, char names[][256], int max)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int n = 0;
	struct dirent *e;
	size_t sl = strlen(suffix);
	while ((e = readdir(d)) && n < max) {
		size_t l = strlen(e->d_name);
		if (e->d_name[0] == '.' || l < sl || strcmp(e->d_name + l - sl, suffix) != 0 || l >= 200)
			continue;
		snprintf(names[n++], 256, "%s", e->d_name);
	}
	closedir(d);
	qsort(names, (size_t)n, 256, (int (*)(const void *, const void *))strcmp);
	return n;
}

static void load_test_bestiary(struct bestiary *b)
{
	struct diag_list d = { 0 };
	assert_true(bestiary_load_file("tests/levels/bestiary.txt", b, &d));
	diag_list_fini(&d);
}

/* All diagnostics, one formatted line each. */
static char *format_all(const struct diag_list *d)
{
	size_t cap = 1024, n = 0;
	char *out = malloc(cap);
	out[0] = '\0';
	for (int i = 0; i < d->n; i++) {
		char line[800];
		diag_format(&d->items[i], line, sizeof line);
		size_t l = strlen(line);
		while (n + l + 2 > cap) {
			cap *= 2;
			out = realloc(out, cap);
		}
		memcpy(out + n, line, l);
		n += l;
		out[n++] = '\n';
		out[n] = '\0';
	}
	return out;
}

static void test_error_fixtures(void **state)
{
	(void)state;
	struct bestiary b;
	load_test_bestiary(&b);
	static char names[200][256];
	int n = list_dir("tests/levels/errors", ".lvl", names, 200);
	assert_true(n >= 30);
	for (int i = 0; i < n; i++) {
		char path[300], expect_path[300];
		snprintf(path, sizeof path, "tests/levels/errors/%s", names[i]);
		snprintf(expect_path, sizeof expect_path, "tests/levels/errors/%.*s.expect",
			 (int)strlen(names[i]) - 4, names[i]);
		size_t len, elen;
		char *text = read_text(path, &len);
		char *expect = read_text(expect_path, &elen);
		struct diag_list d = { 0 };
		struct level *lv = level_parse(path, text, len, &b, &d);
		char *got = format_all(&d);
		if (lv || strcmp(got, expect) != 0) {
			print_error("%s:\n--- expected\n%s--- got\n%s", path, expect, got);
			fail();
		}
		assert_true(d.errors > 0);
		free(got);
		free(expect);
		free(text);
		diag_list_fini(&d);
	}
}

static struct level *parse_ok(const char *path, const struct bestiary *b)
{
	size_t len;
	char *text = read_text(path, &len);
	struct diag_list d = { 0 };
	struct level *lv = level_parse(path, text, len, b, &d);
	if (!lv || d.n) {
		char *got = format_all(&d);
		print_error("%s did not load cleanly:\n%s", path, got);
		free(got);
		fail();
	}
	diag_list_fini(&d);
	free(text);
	return lv;
}

static void assert_same_level(const struct level *a, const struct level *b)
{
	assert_string_equal(a->name, b->name);
	assert_true((a->author == NULL) == (b->author == NULL));
	if (a->author)
		assert_string_equal(a->author, b->author);
	assert_true((a->description == NULL) == (b->description == NULL));
	if (a->description)
		assert_string_equal(a->description, b->description);
	assert_int_equal(a->topo, b->topo);
	assert_int_equal(a->w, b->w);
	assert_int_equal(a->h, b->h);
	assert_memory_equal(a->tiles, b->tiles, (size_t)a->w * (size_t)a->h);
	assert_int_equal(a->player_x, b->player_x);
	assert_int_equal(a->player_y, b->player_y);
	assert_int_equal(a->n_items, b->n_items);
	for (int i = 0; i < a->n_items; i++) {
		assert_int_equal(a->items[i].kind, b->items[i].kind);
		assert_int_equal(a->items[i].x, b->items[i].x);
		assert_int_equal(a->items[i].y, b->items[i].y);
	}
	assert_int_equal(a->n_monsters, b->n_monsters);
	for (int i = 0; i < a->n_monsters; i++) {
		assert_int_equal(a->monsters[i].glyph, b->monsters[i].glyph);
		assert_int_equal(a->monsters[i].x, b->monsters[i].x);
		assert_int_equal(a->monsters[i].y, b->monsters[i].y);
	}
	assert_int_equal(a->n_sealed, b->n_sealed);
	for (int i = 0; i < a->n_sealed; i++) {
		assert_int_equal(a->sealed[i].x, b->sealed[i].x);
		assert_int_equal(a->sealed[i].y, b->sealed[i].y);
	}
}

/* parse -> write -> parse gives the same level, and writing again the same text. */
static void round_trip(const struct level *lv, const struct bestiary *b)
{
	size_t len;
	char *text = level_write(lv, &len);
	assert_non_null(text);
	assert_int_equal(strlen(text), len);
	struct diag_list d = { 0 };
	struct level *again = level_parse("round-trip", text, len, b, &d);
	if (!again) {
		char *got = format_all(&d);
		print_error("written level does not parse:\n%s\n%s", text, got);
		free(got);
		fail();
	}
	assert_same_level(lv, again);
	size_t len2;
	char *text2 = level_write(again, &len2);
	assert_string_equal(text, text2);
	free(text2);
	free(text);
	level_destroy(again);
	diag_list_fini(&d);
}

static void test_round_trip_campaign(void **state)
{
	(void)state;
	struct bestiary b;
	struct diag_list d = { 0 };
	assert_true(bestiary_load_file("levels/bestiary.txt", &b, &d));
	static char names[100][256];
	int n = list_dir("levels", ".lvl", names, 100);
	assert_true(n >= 8);
	for (int i = 0; i < n; i++) {
		char path[300];
		snprintf(path, sizeof path, "levels/%s", names[i]);
		struct level *lv = parse_ok(path, &b);
		assert_non_null(lv->description); /* the game shows it on entering */
		round_trip(lv, &b);
		level_destroy(lv);
	}
	diag_list_fini(&d);
}

static void test_ok_fixtures(void **state)
{
	(void)state;
	struct bestiary b;
	load_test_bestiary(&b);
	static char names[100][256];
	int n = list_dir("tests/levels/ok", ".lvl", names, 100);
	assert_true(n >= 5);
	for (int i = 0; i < n; i++) {
		char path[300];
		snprintf(path, sizeof path, "tests/levels/ok/%s", names[i]);
		struct level *lv = parse_ok(path, &b);
		round_trip(lv, &b);
		level_destroy(lv);
	}
}

static void test_crlf_same_as_lf(void **state)
{
	(void)state;
	struct bestiary b;
	load_test_bestiary(&b);
	struct level *lf = parse_ok("tests/levels/ok/lf.lvl", &b);
	struct level *crlf = parse_ok("tests/levels/ok/crlf.lvl", &b);
	assert_same_level(lf, crlf);
	assert_string_equal(lf->description, "a room; with a semicolon");
	assert_int_equal(lf->w, 7);
	assert_int_equal(lf->h, 5);
	assert_int_equal(level_tile(lf, 2, 2), TILE_RUBBLE);
	assert_int_equal(level_tile(lf, 3, 2), TILE_WATER);
	assert_int_equal(level_tile(lf, 4, 2), TILE_DOOR);
	assert_int_equal(level_tile(lf, 5, 3), TILE_EXIT);
	assert_int_equal(level_tile(lf, 1, 1), TILE_FLOOR); /* under '@' */
	assert_int_equal(level_tile(lf, 5, 2), TILE_FLOOR); /* under 'g' */
	assert_int_equal(lf->n_monsters, 1);
	assert_int_equal(lf->monsters[0].glyph, 'g');
	assert_int_equal(lf->n_items, 2);
	assert_int_equal(lf->items[0].kind, ITEM_POTION);
	assert_int_equal(lf->items[1].kind, ITEM_GOLD);
	level_destroy(lf);
	level_destroy(crlf);
}

static void test_ragged_rows_are_void(void **state)
{
	(void)state;
	struct level *lv = parse_ok("tests/levels/ok/ragged.lvl", NULL);
	assert_int_equal(lv->w, 9);
	assert_int_equal(lv->h, 5); /* trailing blank lines are not rows */
	assert_int_equal(level_tile(lv, 8, 1), TILE_WALL);
	assert_int_equal(level_tile(lv, 8, 0), TILE_VOID);
	assert_int_equal(level_tile(lv, 3, 2), TILE_VOID);
	assert_int_equal(level_tile(lv, 0, 3), TILE_VOID); /* a blank row inside the map */
	assert_int_equal(level_tile(lv, 0, 4), TILE_WALL);
	level_destroy(lv);
}

static void test_hex_layout(void **state)
{
	(void)state;
	struct bestiary b;
	load_test_bestiary(&b);
	struct level *lv = parse_ok("tests/levels/ok/hex.lvl", &b);
	assert_int_equal(lv->topo, GRID_HEX);
	assert_int_equal(lv->w, 7);
	assert_int_equal(lv->h, 4);
	assert_int_equal(lv->player_x, 2); /* text column 5 of an odd row */
	assert_int_equal(lv->player_y, 1);
	assert_int_equal(level_tile(lv, 2, 2), TILE_WATER);
	assert_int_equal(level_tile(lv, 3, 2), TILE_RUBBLE);
	assert_int_equal(level_tile(lv, 5, 2), TILE_EXIT);
	int line, col;
	level_cell_position(lv, 2, 1, &line, &col);
	assert_int_equal(line, 6);
	assert_int_equal(col, 6);
	level_destroy(lv);

	/* a void first row, and trailing spaces that keep the width */
	lv = parse_ok("tests/levels/ok/void-column.lvl", NULL);
	assert_int_equal(lv->w, 6);
	assert_int_equal(lv->h, 4);
	assert_int_equal(level_tile(lv, 0, 0), TILE_VOID);
	level_destroy(lv);
}

/* Diamond maps share hex's layout: cell (x, y) at text column 2x + (y & 1). */
static void test_diamond_layout(void **state)
{
	(void)state;
	struct bestiary b;
	load_test_bestiary(&b);
	const char *const files[2] = { "tests/levels/ok/diamond4.lvl", "tests/levels/ok/diamond8.lvl" };
	for (int k = 0; k < 2; k++) {
		struct level *lv = parse_ok(files[k], &b);
		assert_int_equal(lv->topo, k ? GRID_DIAMOND8 : GRID_DIAMOND4);
		assert_int_equal(lv->w, 7);
		assert_int_equal(lv->h, 4);
		assert_int_equal(level_screen_width(lv), 14);
		assert_int_equal(lv->player_x, 2); /* text column 5 of an odd row */
		assert_int_equal(lv->player_y, 1);
		assert_int_equal(level_tile(lv, 2, 2), TILE_WATER);
		assert_int_equal(level_tile(lv, 3, 2), TILE_RUBBLE);
		assert_int_equal(level_tile(lv, 5, 2), TILE_EXIT);
		int line, col;
		level_cell_position(lv, 2, 1, &line, &col);
		assert_int_equal(line, 6);
		assert_int_equal(col, 6);
		/* written back in the same layout, byte for byte */
		size_t len, wlen;
		char *text = read_text(files[k], &len), *out = level_write(lv, &wlen);
		assert_non_null(out);
		assert_non_null(strstr(out, k ? "topology: diamond8\n" : "topology: diamond4\n"));
		assert_non_null(strstr(out, "\n # . @ . "));
		free(out);
		free(text);
		level_destroy(lv);
	}
}

static void test_tile_table(void **state)
{
	(void)state;
	static const char glyphs[TILE_COUNT] = { ' ', '#', '.', ',', '~', '+', '>', '%' };
	static const int costs[TILE_COUNT] = { 0, 0, 1, 2, 3, 1, 1, 0 };
	for (int t = 0; t < TILE_COUNT; t++) {
		assert_int_equal(tile_info((enum tile)t)->glyph, glyphs[t]);
		assert_int_equal(tile_info((enum tile)t)->cost, costs[t]);
	}
	assert_true(tile_info(TILE_WALL)->blocks_sight);
	assert_true(tile_info(TILE_BEDROCK)->blocks_sight);
	assert_true(tile_info(TILE_DOOR)->blocks_sight);
	assert_false(tile_info(TILE_WATER)->blocks_sight);
	struct level *lv = parse_ok("tests/levels/ok/lf.lvl", NULL);
	struct grid *g = level_grid(lv);
	assert_int_equal(g->cost[grid_index(g, 4, 2)], 1); /* doors passable */
	assert_int_equal(g->cost[grid_index(g, 3, 2)], 3);
	assert_int_equal(g->cost[grid_index(g, 0, 0)], 0);
	grid_destroy(g);
	level_destroy(lv);
}

static const char small_map[] = "type octile\nheight 6\nwidth 8\nmap\n"
				"@@@@@@@@\n"
				"@....@.@\n"
				"@....@.@\n"
				"@.T..@@@\n"
				"@......@\n"
				"@@@@@@@@\n";

static void test_movingai_import(void **state)
{
	(void)state;
	struct diag_list d = { 0 };
	struct level *a = level_from_movingai("small.map", small_map, sizeof small_map - 1, 42, 3, 'g', &d);
	struct level *b = level_from_movingai("small.map", small_map, sizeof small_map - 1, 42, 3, 'g', &d);
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(d.n, 0);
	assert_int_equal(a->topo, GRID_SQUARE8);
	assert_int_equal(a->w, 8);
	assert_int_equal(a->h, 6);
	assert_int_equal(a->map_line, 5);
	assert_int_equal(level_tile(a, 2, 3), TILE_WALL); /* T is blocked */
	assert_same_level(a, b);                          /* same seed, same placement */
	assert_int_equal(a->n_monsters, 3);
	/* everything in the largest region (not the 2-cell pocket at x = 6) */
	assert_true(a->player_x != 6);
	int exits = 0;
	for (int y = 0; y < a->h; y++)
		for (int x = 0; x < a->w; x++)
			if (level_tile(a, x, y) == TILE_EXIT) {
				exits++;
				assert_true(x != 6);
				assert_false(x == a->player_x && y == a->player_y);
			}
	assert_int_equal(exits, 1);
	for (int i = 0; i < a->n_monsters; i++) {
		assert_int_equal(a->monsters[i].glyph, 'g');
		assert_true(a->monsters[i].x != 6);
		assert_int_equal(level_tile(a, a->monsters[i].x, a->monsters[i].y), TILE_FLOOR);
	}
	/* it analyses clean and round-trips through the .lvl format */
	assert_int_equal(level_analyse(a, NULL, &d), 0);
	round_trip(a, NULL);
	level_destroy(a);
	level_destroy(b);
	diag_list_fini(&d);

	/* different seeds move things */
	int moved = 0;
	for (uint64_t seed = 1; seed < 10; seed++) {
		struct level *c = level_from_movingai("small.map", small_map, sizeof small_map - 1, seed, 1, 'r', &d);
		assert_non_null(c);
		moved += c->player_x != 1 || c->player_y != 1;
		level_destroy(c);
	}
	assert_true(moved > 0);

	/* errors come back with the line */
	static const char bad[] = "type octile\nheight 2\nwidth 3\nmap\n...\n..\n";
	assert_null(level_from_movingai("bad.map", bad, sizeof bad - 1, 1, 0, 'g', &d));
	assert_int_equal(d.errors, 1);
	assert_int_equal(d.items[0].line, 6);
	diag_list_fini(&d);
}

/* A side past the largest level in a .map header: said at the number,
 * with the limit (the format's reader called it an unexpected line). */
static void test_movingai_side_too_large(void **state)
{
	(void)state;
	static const char tall[] = "type octile\nheight 100000\nwidth 5\nmap\n.....\n";
	struct diag_list d = { 0 };
	assert_null(level_from_movingai("tall.map", tall, sizeof tall - 1, 1, 0, 'g', &d));
	assert_int_equal(d.errors, 1);
	assert_string_equal(d.items[0].file, "tall.map");
	assert_int_equal(d.items[0].line, 2);
	assert_int_equal(d.items[0].col, 8);
	assert_non_null(strstr(d.items[0].msg, "height 100000 is too large (at most 4096)"));
	diag_list_fini(&d);
	/* just past the limit, the width, CRLF and a tab; and a number too
	 * long for any integer */
	static const char wide[] = "type octile\r\nwidth\t4097\r\nheight 4\r\nmap\r\n";
	assert_null(level_from_movingai("wide.map", wide, sizeof wide - 1, 1, 0, 'g', &d));
	assert_int_equal(d.items[0].line, 2);
	assert_int_equal(d.items[0].col, 7);
	assert_non_null(strstr(d.items[0].msg, "width 4097 is too large (at most 4096)"));
	diag_list_fini(&d);
	static const char huge[] = "type octile\nheight 3\nwidth 99999999999999999999999999999999\nmap\n";
	assert_null(level_from_movingai("huge.map", huge, sizeof huge - 1, 1, 0, 'g', &d));
	assert_int_equal(d.items[0].line, 3);
	assert_non_null(strstr(d.items[0].msg, "is too large (at most 4096)"));
	diag_list_fini(&d);
}

static void test_movingai_shared_maps(void **state)
{
	(void)state;
	const char *dir = getenv("ASTRAY_MAPS");
	char path[512];
	snprintf(path, sizeof path, "%s/arena.map", dir ? dir : "../shared/maps/movingai");
	size_t len;
	char *text = level_read_file(path, &len);
	if (!text) {
		print_message("skipped: %s is absent\n", path);
		skip();
	}
	struct diag_list d = { 0 };
	struct level *lv = level_from_movingai(path, text, len, 7, 20, 'g', &d);
	assert_non_null(lv);
	assert_int_equal(lv->n_monsters, 20);
	assert_int_equal(level_analyse(lv, NULL, &d), 0);
	level_destroy(lv);
	free(text);
	diag_list_fini(&d);
}

/* Builds a level text of w x h with the player and exit in the corners. */
static char *big_level(int w, int h, size_t *len)
{
	static const char head[] = "astray-level 1\nname: Big\ntopology: square8\nmap:\n";
	size_t n = sizeof head - 1 + (size_t)h * ((size_t)w + 1);
	char *t = malloc(n + 1);
	memcpy(t, head, sizeof head - 1);
	char *p = t + sizeof head - 1;
	for (int y = 0; y < h; y++) {
		memset(p, (y % 7 == 3) ? ',' : '.', (size_t)w);
		p[w] = '\n';
		p += w + 1;
	}
	t[sizeof head - 1] = '@';
	t[n - 2] = '>';
	t[n] = '\0';
	*len = n;
	return t;
}

static void test_largest_map(void **state)
{
	(void)state;
	size_t len;
	char *text = big_level(LEVEL_MAX_SIDE, LEVEL_MAX_SIDE, &len);
	struct diag_list d = { 0 };
	clock_t t0 = clock();
	struct level *lv = level_parse("big.lvl", text, len, NULL, &d);
	double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	assert_non_null(lv);
	assert_int_equal(lv->w, LEVEL_MAX_SIDE);
	assert_int_equal(lv->h, LEVEL_MAX_SIDE);
	assert_int_equal(level_tile(lv, LEVEL_MAX_SIDE - 1, LEVEL_MAX_SIDE - 1), TILE_EXIT);
	print_message("4096x4096 parse under the sanitizers: %.3f s\n", secs);
	assert_true(secs < 10.0); /* the optimised build's target is 0.5 s; see the closing note */
	level_destroy(lv);
	free(text);
	diag_list_fini(&d);
}

/* Every input that ever troubled the parser, run again on every make test. */
static void test_fuzz_corpus(void **state)
{
	(void)state;
	static char names[4000][256];
	int n = list_dir("tests/fuzz-corpus", "", names, 4000);
	assert_true(n > 0);
	for (int i = 0; i < n; i++) {
		char path[300];
		snprintf(path, sizeof path, "tests/fuzz-corpus/%s", names[i]);
		size_t len;
		char *text = read_text(path, &len);
		struct diag_list d = { 0 };
		struct level *lv = level_parse(path, text, len, NULL, &d);
		if (lv) {
			level_analyse(lv, NULL, &d);
			round_trip(lv, NULL);
		} else {
			assert_true(d.errors > 0);
		}
		level_destroy(lv);
		struct bestiary b;
		bestiary_parse(path, text, len, &b, &d);
		diag_list_fini(&d);
		free(text);
	}
}

static void test_null_diags_and_empty(void **state)
{
	(void)state;
	assert_null(level_parse("x", "", 0, NULL, NULL));
	assert_null(level_parse("x", "astray-level 1\n", 15, NULL, NULL));
	level_destroy(NULL);
}

/*
 * level_grid_regions against a labelling made here from grid_neighbours
 * (corner rule on, as the game moves): on random square4, square8, hex and diamond
 * grids the same region of every cell, numbered in order of each region's
 * first cell.  Square grids take the four-neighbour path in level.c.
 */
static void test_grid_regions_match_neighbours(void **state)
{
	(void)state;
	uint32_t seed = 77;
	int grids = 0;
	for (int t = 0; t < 5; t++) { /* square4, square8, hex, diamond4, diamond8 */
		for (int m = 0; m < 200; m++) {
			seed = seed * 1103515245u + 12345u;
			const int w = 1 + (int)(seed >> 16) % 30;
			seed = seed * 1103515245u + 12345u;
			const int h = 1 + (int)(seed >> 16) % 20, n = w * h;
			seed = seed * 1103515245u + 12345u;
			const int walls = (int)(seed >> 16) % 70;
			struct grid *g = grid_create(w, h, (enum grid_topology)t);
			assert_non_null(g);
			for (int c = 0; c < n; c++) {
				seed = seed * 1103515245u + 12345u;
				grid_set_cost(g, c, (int)(seed >> 16) % 100 < walls ? 0 : 1);
			}
			int *got = malloc((size_t)n * sizeof *got), *want = malloc((size_t)n * sizeof *want);
			int *stack = malloc((size_t)n * sizeof *stack);
			assert_non_null(got);
			assert_non_null(want);
			assert_non_null(stack);
			int regions = 0;
			for (int c = 0; c < n; c++)
				want[c] = -1;
			for (int c = 0; c < n; c++) {
				if (want[c] >= 0 || !g->cost[c])
					continue;
				int top = 0;
				stack[top++] = c;
				want[c] = regions;
				while (top > 0) {
					struct grid_step nb[GRID_MAX_NEIGHBOURS];
					int k = grid_neighbours(g, stack[--top], false, nb);
					for (int j = 0; j < k; j++)
						if (want[nb[j].cell] < 0) {
							want[nb[j].cell] = regions;
							stack[top++] = nb[j].cell;
						}
				}
				regions++;
			}
			assert_int_equal(level_grid_regions(g, got), regions);
			for (int c = 0; c < n; c++)
				assert_int_equal(got[c], want[c]);
			free(got);
			free(want);
			free(stack);
			grid_destroy(g);
			grids++;
		}
	}
	print_message("level_grid_regions = a grid_neighbours labelling on %d random grids\n", grids);
}
/*
 * '%', the wall no one can dig (DESIGN section 4, rule 6): parsed, written
 * back and parsed again the same on square and hex maps; only a '#' off the
 * map's edge can be dug; and `astray check` says a digger walled off by
 * walls it can dig reaches the player, one walled off by '%' never does,
 * and a chaser behind '#' never does either.
 */
static void test_permanent_wall(void **state)
{
	(void)state;
	static const char kinds[] = "kind: mole\nglyph: m\nbehaviour: dig\ndig: 4\n"
				    "kind: goblin\nglyph: g\n";
	struct bestiary b;
	struct diag_list d = { 0 };
	assert_true(bestiary_parse("k", kinds, sizeof kinds - 1, &b, &d));
	static const char square[] = "astray-level 1\nname: Vaults\ntopology: square8\nmap:\n"
				     "%%%%%%%%%%%%\n"
				     "%@.>#m.%g.m%\n"
				     "%...#..%%%%%\n"
				     "%%%%%%%%%%%%\n";
	struct level *lv = level_parse("sq.lvl", square, sizeof square - 1, &b, &d);
	assert_non_null(lv);
	assert_int_equal(d.n, 0);
	assert_int_equal(level_tile(lv, 0, 0), TILE_BEDROCK);
	assert_int_equal(level_tile(lv, 7, 1), TILE_BEDROCK);
	assert_int_equal(level_tile(lv, 4, 1), TILE_WALL);
	assert_true(tile_diggable(level_tile(lv, 4, 1), lv->w, lv->h, 4, 1));
	assert_false(tile_diggable(level_tile(lv, 7, 1), lv->w, lv->h, 7, 1)); /* '%' */
	assert_false(tile_diggable(TILE_WALL, lv->w, lv->h, 0, 1));             /* the edge */
	assert_false(tile_diggable(TILE_WALL, lv->w, lv->h, 4, lv->h - 1));
	assert_false(tile_diggable(TILE_VOID, lv->w, lv->h, 4, 1));
	round_trip(lv, &b);
	size_t len;
	char *text = level_write(lv, &len);
	assert_non_null(strstr(text, "\n%@.>#m.%g.m%\n"));
	free(text);
	assert_int_equal(level_analyse(lv, &b, &d), 0);
	char *got = format_all(&d);
	/* the mole at 5,1 digs through '#'; the goblin and the mole behind '%' never come */
	assert_null(strstr(got, "'m' at 5,1"));
	assert_non_null(strstr(got, "goblin 'g' at 8,1 can never reach the player (walled off"));
	assert_non_null(strstr(got, "mole 'm' at 10,1 can never reach the player, even digging"));
	free(got);
	diag_list_fini(&d);
	level_destroy(lv);

	static const char hex[] = "astray-level 1\nname: Hex vault\ntopology: hex\nmap:\n"
				  "% % % % % %\n"
				  " % @ . # > %\n"
				  "% % % % % %\n";
	lv = level_parse("hex.lvl", hex, sizeof hex - 1, &b, &d);
	assert_non_null(lv);
	assert_int_equal(level_tile(lv, 0, 0), TILE_BEDROCK);
	assert_int_equal(level_tile(lv, 3, 1), TILE_WALL);
	round_trip(lv, &b);
	level_destroy(lv);
	diag_list_fini(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grid_regions_match_neighbours),
		cmocka_unit_test(test_error_fixtures),
		cmocka_unit_test(test_ok_fixtures),
		cmocka_unit_test(test_crlf_same_as_lf),
		cmocka_unit_test(test_ragged_rows_are_void),
		cmocka_unit_test(test_hex_layout),
		cmocka_unit_test(test_diamond_layout),
		cmocka_unit_test(test_tile_table),
		cmocka_unit_test(test_permanent_wall),
		cmocka_unit_test(test_round_trip_campaign),
		cmocka_unit_test(test_movingai_import),
		cmocka_unit_test(test_movingai_side_too_large),
		cmocka_unit_test(test_movingai_shared_maps),
		cmocka_unit_test(test_largest_map),
		cmocka_unit_test(test_fuzz_corpus),
		cmocka_unit_test(test_null_diags_and_empty),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
