/*
 * test_editor_broken.c - a level file with errors in the editor: the
 * tolerant parse (level_parse_partial) keeps the map as far as it can be
 * read and the same errors as level_parse; the editor lists them first,
 * at the cells they name, until it saves; a file with no map is refused.
 * Every file of the level fuzz corpus goes through it too, so no input
 * crashes the editor's way in.
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
#include <unistd.h>

#include "bestiary.h"
#include "editor.h"
#include "level.h"

static const char BROKEN[] = "astray-level 1\n"
			     "topology: hex\n"
			     "; no name\n"
			     "map:\n"
			     "# # # # # # # #\n"
			     " # . @ . . Q . #\n"
			     "# . . # * . > #\n"
			     " # # # # # # # #\n";

static void load(const char *text, struct bestiary *b, struct level **lv, struct diag_list *d)
{
	struct diag_list bd = { 0 };
	assert_true(bestiary_load_file("tests/levels/bestiary.txt", b, &bd));
	diag_list_fini(&bd);
	memset(d, 0, sizeof *d);
	*lv = level_parse_partial("b.lvl", text, strlen(text), b, d);
}

/* The same errors as level_parse, and the map with only the bad cells void. */
static void test_partial_parse(void **state)
{
	(void)state;
	struct bestiary b;
	struct level *lv;
	struct diag_list d;
	load(BROKEN, &b, &lv, &d);
	assert_non_null(lv);
	struct diag_list strict = { 0 };
	assert_null(level_parse("b.lvl", BROKEN, strlen(BROKEN), &b, &strict));
	assert_int_equal(d.n, strict.n);
	for (int i = 0; i < d.n; i++) {
		assert_string_equal(d.items[i].msg, strict.items[i].msg);
		assert_int_equal(d.items[i].line, strict.items[i].line);
	}
	diag_list_fini(&strict);
	assert_null(lv->name);
	assert_int_equal(lv->topo, GRID_HEX);
	assert_int_equal(lv->w, 8);
	assert_int_equal(lv->h, 4);
	assert_int_equal(lv->player_x * 10 + lv->player_y, 21);
	assert_int_equal(level_tile(lv, 5, 1), TILE_VOID);  /* the unknown monster */
	assert_int_equal(level_tile(lv, 4, 2), TILE_VOID);  /* the unknown glyph */
	assert_int_equal(level_tile(lv, 6, 2), TILE_EXIT);  /* the rest of its row is read */
	level_destroy(lv);
	diag_list_fini(&d);
}

/* A hex row shifted by one column: its terrain is read half a cell off,
 * so the walls and the exit are there to fix. */
static void test_shifted_row(void **state)
{
	(void)state;
	static const char text[] = "astray-level 1\n"
				   "name: Shift\n"
				   "topology: hex\n"
				   "map:\n"
				   "# # # # # # # #\n"
				   " # . @ . . . . #\n"
				   " # . . #!# . > #\n"
				   " # # # # # # # #\n";
	struct bestiary b;
	struct level *lv;
	struct diag_list d;
	load(text, &b, &lv, &d);
	assert_non_null(lv);
	assert_int_equal(d.errors, 1); /* the shifted row, once: its exit is still read */
	assert_int_equal(level_tile(lv, 0, 2), TILE_WALL);
	assert_int_equal(level_tile(lv, 3, 2), TILE_WALL);
	assert_int_equal(level_tile(lv, 5, 2), TILE_FLOOR);
	assert_int_equal(level_tile(lv, 6, 2), TILE_EXIT);
	assert_int_equal(level_tile(lv, 7, 2), TILE_WALL);
	/* the '!' stands at a cell's column, so the parser read it there; the
	 * shifted '#' beside it does not overwrite it */
	assert_int_equal(lv->n_items, 1);
	assert_int_equal(level_tile(lv, 4, 2), TILE_FLOOR);
	level_destroy(lv);
	diag_list_fini(&d);
}

/* A hex row shifted by one column comes back whole, half a cell off:
 * its things too (a monster of a known kind, items, the start the map
 * lacks), each on floor, and the editor shows them; an unknown monster
 * stays out.  The diagnostics stay those of the text. */
static void test_shifted_row_things(void **state)
{
	(void)state;
	static const char text[] = "astray-level 1\n"
				   "name: Shift\n"
				   "topology: hex\n"
				   "map:\n"
				   "# # # # # # # #\n"
				   " # . . . . . . #\n"
				   " # g ! @ $ > Q #\n"
				   " # # # # # # # #\n";
	struct bestiary b;
	struct level *lv;
	struct diag_list d;
	load(text, &b, &lv, &d);
	assert_non_null(lv);
	assert_int_equal(d.errors, 2); /* the shifted row (once) and its unknown 'Q': its start and exit are read */
	assert_int_equal(lv->player_x, 3);
	assert_int_equal(lv->player_y, 2);
	assert_int_equal(lv->n_monsters, 1);
	assert_int_equal(lv->monsters[0].glyph, 'g');
	assert_int_equal(lv->monsters[0].x, 1);
	assert_int_equal(lv->monsters[0].y, 2);
	assert_int_equal(lv->n_items, 2);
	assert_int_equal(level_tile(lv, 5, 2), TILE_EXIT);
	assert_int_equal(level_tile(lv, 6, 2), TILE_VOID); /* 'Q': no such kind */
	struct editor *ed = editor_create(lv, &b, "s.lvl");
	assert_non_null(ed);
	const char want[] = "#g!@$> #";
	for (int x = 0; x < 8; x++)
		assert_int_equal(editor_glyph(ed, x, 2), want[x]);
	/* as the editor writes it, the row is back in its columns */
	size_t n;
	char *out = editor_write(ed, &n);
	assert_non_null(strstr(out, "\n# g ! @ $ >   #\n"));
	free(out);
	editor_destroy(ed);
	level_destroy(lv);
	diag_list_fini(&d);
	/* a start elsewhere on the map keeps its place: the shifted '@' is a
	 * second start, floor as every second start is */
	static const char two[] = "astray-level 1\nname: Two\ntopology: hex\nmap:\n"
				  "# # # # #\n"
				  " # @ . > #\n"
				  " # . @ . #\n"
				  " # # # # #\n";
	load(two, &b, &lv, &d);
	assert_non_null(lv);
	assert_int_equal(lv->player_x, 1);
	assert_int_equal(lv->player_y, 1);
	assert_int_equal(level_tile(lv, 2, 2), TILE_FLOOR);
	assert_int_equal(d.errors, 2); /* the shifted row and the second start */
	level_destroy(lv);
	diag_list_fini(&d);
}

/* The file's errors come first, at their cells, and go when the level is saved. */
static void test_editor_lists_file_errors(void **state)
{
	(void)state;
	struct bestiary b;
	struct level *lv;
	struct diag_list d;
	load(BROKEN, &b, &lv, &d);
	assert_non_null(lv);
	struct editor *ed = editor_create(lv, &b, "b.lvl");
	assert_non_null(ed);
	assert_true(editor_set_file_diags(ed, &d, lv->map_line));
	int n_file = d.n;
	level_destroy(lv);
	diag_list_fini(&d);
	assert_int_equal(editor_file_diag_count(ed), n_file);
	assert_true(editor_file_errors(ed) >= 3);
	const struct diag_list *now = editor_diags(ed);
	assert_true(now->n >= n_file);
	int qx = -1, qy = -1, found = 0;
	for (int i = 0; i < n_file; i++) {
		if (strstr(now->items[i].msg, "unknown monster 'Q'")) {
			assert_true(editor_diag_cell(ed, i, &qx, &qy));
			found++;
		}
		if (strstr(now->items[i].msg, "missing 'name:'")) {
			int x, y;
			assert_false(editor_diag_cell(ed, i, &x, &y)); /* a header line: no cell */
			found++;
		}
	}
	assert_int_equal(found, 2);
	assert_int_equal(qx * 10 + qy, 51);
	/* the map is still all there to edit; the loaded errors stay put ... */
	assert_int_equal(editor_glyph(ed, 2, 1), '@');
	assert_int_equal(editor_glyph(ed, 6, 2), '>');
	assert_true(editor_paint(ed, 5, 1, 'g') > 0);
	assert_int_equal(editor_file_diag_count(ed), n_file);
	/* ... and move with the map when it grows on the left */
	char err[320];
	assert_int_equal(editor_resize(ed, 1, 2, 0, 0, err, sizeof err), 1);
	for (int i = 0; i < n_file; i++)
		if (strstr(editor_diags(ed)->items[i].msg, "unknown monster 'Q'")) {
			assert_true(editor_diag_cell(ed, i, &qx, &qy));
			assert_int_equal(qx * 10 + qy, 63);
		}
	/* a save over the file: the errors were those of the old text */
	char dir[] = "/tmp/astray-broken-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[64];
	snprintf(path, sizeof path, "%s/b.lvl", dir);
	assert_true(editor_save(ed, path, true, true, err, sizeof err));
	assert_int_equal(editor_file_diag_count(ed), 0);
	assert_int_equal(editor_diags(ed)->errors, 0);
	size_t len;
	char *text = level_read_file(path, &len);
	assert_non_null(text);
	struct diag_list d2 = { 0 };
	struct level *again = level_parse(path, text, len, &b, &d2);
	assert_non_null(again);
	assert_string_equal(again->name, "untitled");
	level_destroy(again);
	diag_list_fini(&d2);
	free(text);
	unlink(path);
	rmdir(dir);
	editor_destroy(ed);
}

/* Nothing to show: no map line, an empty map. */
static void test_no_map(void **state)
{
	(void)state;
	static const char *const texts[] = {
		"hello\nworld\n",
		"astray-level 1\nname: x\ntopology: hex\n",
		"astray-level 1\nname: x\ntopology: hex\nmap:\n\n\n",
		"",
	};
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		struct diag_list d = { 0 };
		assert_null(level_parse_partial("x.lvl", texts[i], strlen(texts[i]), NULL, &d));
		assert_true(d.errors > 0);
		diag_list_fini(&d);
	}
}

/* Every corpus file: a partial level (or NULL with errors) that the editor
 * opens (with the file's comments), diagnoses and writes as text that
 * parses (partially) again. */
static void test_corpus(void **state)
{
	(void)state;
	DIR *dir = opendir("tests/fuzz-corpus");
	assert_non_null(dir);
	struct dirent *e;
	int files = 0;
	while ((e = readdir(dir))) {
		if (e->d_name[0] == '.')
			continue;
		char path[512];
		snprintf(path, sizeof path, "tests/fuzz-corpus/%s", e->d_name);
		size_t len;
		char *text = level_read_file(path, &len);
		if (!text)
			continue;
		files++;
		struct diag_list d = { 0 };
		struct level *lv = level_parse_partial(path, text, len, NULL, &d);
		if (!lv) {
			assert_true(d.errors > 0);
		} else {
			struct editor *ed = editor_create(lv, NULL, path);
			assert_non_null(ed);
			assert_true(editor_set_file_diags(ed, &d, lv->map_line));
			assert_true(editor_keep_comments(ed, text, len));
			const struct diag_list *now = editor_diags(ed);
			for (int i = 0; i < now->n; i++) {
				int x, y;
				if (editor_diag_cell(ed, i, &x, &y))
					assert_true(x >= 0 && y >= 0 && x < editor_width(ed) && y < editor_height(ed));
			}
			size_t wl;
			char *out = editor_write(ed, &wl);
			assert_non_null(out);
			struct diag_list d2 = { 0 };
			struct level *again = level_parse_partial("again.lvl", out, wl, NULL, &d2);
			assert_non_null(again);
			assert_int_equal(again->w, editor_width(ed));
			level_destroy(again);
			diag_list_fini(&d2);
			free(out);
			editor_destroy(ed);
			level_destroy(lv);
		}
		diag_list_fini(&d);
		free(text);
	}
	closedir(dir);
	assert_true(files > 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_partial_parse),
		cmocka_unit_test(test_shifted_row),
		cmocka_unit_test(test_shifted_row_things),
		cmocka_unit_test(test_editor_lists_file_errors),
		cmocka_unit_test(test_no_map),
		cmocka_unit_test(test_corpus),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
