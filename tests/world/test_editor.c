/*
 * test_editor.c - the model of `astray edit` without a terminal: paint,
 * undo and redo sequences (undo after N changes gives back the original
 * bytes), flood fill, rectangles and lines on square, hex and diamond
 * maps, the write -> parse round trip, the diagnostics and the routes after a change.
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
#include <sys/stat.h>
#include <unistd.h>

#include "bestiary.h"
#include "editor.h"
#include "game.h"
#include "grid.h"
#include "level.h"

static const char SQUARE[] = "astray-level 1\n"
			     "name: Test\n"
			     "topology: square8\n"
			     "map:\n"
			     "##########\n"
			     "#@...#...#\n"
			     "#....+.g.#\n"
			     "#..!.#..>#\n"
			     "##########\n";

static const char HEX[] = "astray-level 1\n"
			  "name: Hex\n"
			  "topology: hex\n"
			  "author: me\n"
			  "map:\n"
			  "# # # # # # # #\n"
			  " # . @ . . g . #\n"
			  "# . . # # . > #\n"
			  " # # # # # # # #\n";

/* Diamond4: cell (x, y) at text column 2x + (y & 1), like hex. */
static const char DIAMOND[] = "astray-level 1\n"
			      "name: Diamond\n"
			      "topology: diamond4\n"
			      "map:\n"
			      "# # # # # # # #\n"
			      " # . @ . . g . #\n"
			      "# . . . . . . #\n"
			      " # . . . . . . #\n"
			      "# . . . . . > #\n"
			      " # # # # # # # #\n";

struct fixture {
	struct bestiary b;
	struct editor *ed;
};

static struct editor *open_text(struct bestiary *b, const char *text)
{
	struct diag_list d = { 0 };
	assert_true(bestiary_load_file("tests/levels/bestiary.txt", b, &d));
	struct level *lv = level_parse("t.lvl", text, strlen(text), b, &d);
	if (!lv) {
		for (int i = 0; i < d.n; i++)
			print_error("%d:%d: %s\n", d.items[i].line, d.items[i].col, d.items[i].msg);
	}
	assert_non_null(lv);
	diag_list_fini(&d);
	struct editor *ed = editor_create(lv, b, "t.lvl");
	assert_non_null(ed);
	level_destroy(lv);
	return ed;
}

static char *written(struct editor *ed)
{
	size_t len;
	char *t = editor_write(ed, &len);
	assert_non_null(t);
	assert_int_equal(strlen(t), len);
	return t;
}

/* The text as loaded is what the editor writes before any change. */
static void test_write_unchanged(void **state)
{
	(void)state;
	struct bestiary b;
	struct editor *ed = open_text(&b, SQUARE);
	char *t = written(ed);
	assert_string_equal(t, SQUARE);
	free(t);
	assert_false(editor_modified(ed));
	editor_destroy(ed);
}

/* The header's whole-line comments survive a save: a file with them under
 * its first line writes back byte for byte; ones between the keys move
 * there, in their order; ';' lines after map: are map rows' business, and
 * a comment after a value is not a whole-line one. */
static void test_comments_kept(void **state)
{
	(void)state;
	static const char TOP[] = "astray-level 1\n"
				  "; made for the tests\n"
				  ";   with two lines\n"
				  "name: Commented\n"
				  "topology: square8\n"
				  "map:\n"
				  "#####\n"
				  "#@.>#\n"
				  "#####\n";
	struct bestiary b;
	struct editor *ed = open_text(&b, TOP);
	assert_true(editor_keep_comments(ed, TOP, strlen(TOP)));
	char *t = written(ed);
	assert_string_equal(t, TOP);
	free(t);
	assert_true(editor_text_complete(TOP, strlen(TOP)));
	/* an edit keeps them too */
	editor_begin(ed);
	editor_paint(ed, 2, 1, '#');
	editor_end(ed);
	t = written(ed);
	assert_non_null(strstr(t, "astray-level 1\n; made for the tests\n;   with two lines\nname: Commented\n"));
	assert_non_null(strstr(t, "#@#>#"));
	free(t);
	editor_destroy(ed);

	static const char MID[] = "astray-level 1\n"
				  "name: Commented ; not a whole line\n"
				  "; between the keys\n"
				  "topology: square8\n"
				  "map:\n"
				  "#####\n"
				  "#@.>#\n"
				  "#####\n";
	ed = open_text(&b, MID);
	assert_true(editor_keep_comments(ed, MID, strlen(MID)));
	t = written(ed);
	static const char want[] = "astray-level 1\n; between the keys\nname: Commented\n";
	assert_true(strncmp(t, want, sizeof want - 1) == 0);
	assert_null(strstr(t, "not a whole line"));
	free(t);
	editor_destroy(ed);
}

static void test_paint_undo_redo(void **state)
{
	(void)state;
	struct bestiary b;
	struct editor *ed = open_text(&b, SQUARE);
	char *orig = written(ed);
	assert_int_equal(editor_paint(ed, 2, 2, '#'), 1);
	assert_int_equal(editor_glyph(ed, 2, 2), '#');
	assert_int_equal(editor_paint(ed, 2, 2, '#'), 0); /* no change, no step */
	assert_int_equal(editor_undo_count(ed), 1);
	assert_int_equal(editor_paint(ed, 3, 1, '~'), 1);
	assert_int_equal(editor_paint(ed, 4, 3, 'g'), 1);
	assert_int_equal(editor_paint(ed, 1, 1, 'Q'), -1); /* no kind 'Q' */
	assert_int_equal(editor_paint(ed, 1, 1, '*'), -1);
	assert_true(editor_modified(ed));
	char *after = written(ed);
	assert_int_equal(editor_undo_count(ed), 3);
	for (int i = 0; i < 3; i++)
		assert_true(editor_undo(ed));
	assert_false(editor_undo(ed));
	char *back = written(ed);
	assert_string_equal(back, orig);
	assert_false(editor_modified(ed));
	for (int i = 0; i < 3; i++)
		assert_true(editor_redo(ed));
	assert_false(editor_redo(ed));
	char *again = written(ed);
	assert_string_equal(again, after);
	/* a new edit after an undo forgets the redo */
	assert_true(editor_undo(ed));
	assert_int_equal(editor_redo_count(ed), 1);
	assert_int_equal(editor_paint(ed, 6, 1, ','), 1);
	assert_int_equal(editor_redo_count(ed), 0);
	assert_false(editor_redo(ed));
	free(orig);
	free(after);
	free(back);
	free(again);
	editor_destroy(ed);
}

/* Many steps deep: 500 paints undone give the original bytes. */
static void test_undo_deep(void **state)
{
	(void)state;
	struct bestiary b;
	struct editor *ed = open_text(&b, SQUARE);
	char *orig = written(ed);
	const char glyphs[] = "#.,~+!$";
	int steps = 0;
	for (int i = 0; i < 500; i++) {
		int r = editor_paint(ed, 1 + i % 8, 1 + (i / 8) % 3, glyphs[i % 7]);
		assert_true(r >= 0);
		steps += r > 0;
	}
	assert_int_equal(editor_undo_count(ed), steps);
	while (editor_undo(ed))
		;
	char *back = written(ed);
	assert_string_equal(back, orig);
	free(orig);
	free(back);
	editor_destroy(ed);
}

/* One start: painting '@' moves it, and one undo puts it back. */
static void test_start_moves(void **state)
{
	(void)state;
	struct bestiary b;
	struct editor *ed = open_text(&b, SQUARE);
	assert_int_equal(editor_paint(ed, 3, 2, '@'), 2);
	assert_int_equal(editor_glyph(ed, 1, 1), '.');
	assert_int_equal(editor_glyph(ed, 3, 2), '@');
	const struct level *lv = editor_level(ed);
	assert_int_equal(lv->player_x, 3);
	assert_int_equal(lv->player_y, 2);
	assert_true(editor_undo(ed));
	assert_int_equal(editor_glyph(ed, 1, 1), '@');
	assert_int_equal(editor_glyph(ed, 3, 2), '.');
	editor_destroy(ed);
}

/* A pencil drag with '@' puts the start where the pointer is (the end of
 * each segment, not its beginning), and a wall it crosses stays a wall;
 * one undo gives the level back. */
static void test_start_dragged(void **state)
{
	(void)state;
	struct bestiary b;
	struct editor *ed = open_text(&b, SQUARE);
	editor_begin(ed);
	editor_paint(ed, 1, 1, '@');
	editor_line(ed, 1, 1, 4, 1, '@');
	assert_int_equal(editor_glyph(ed, 4, 1), '@');
	editor_line(ed, 4, 1, 5, 1, '@'); /* over the wall */
	editor_line(ed, 5, 1, 6, 1, '@');
	editor_end(ed);
	assert_int_equal(editor_glyph(ed, 6, 1), '@');
	assert_int_equal(editor_glyph(ed, 5, 1), '#');
	assert_int_equal(editor_glyph(ed, 4, 1), '.');
	assert_int_equal(editor_glyph(ed, 1, 1), '.');
	assert_true(editor_undo(ed));
	assert_int_equal(editor_glyph(ed, 1, 1), '@');
	assert_int_equal(editor_glyph(ed, 5, 1), '#');
	assert_int_equal(editor_glyph(ed, 6, 1), '.');
	editor_destroy(ed);
}

static void test_fill_one_step(void **state)
{
	(void)state;
	struct bestiary b;
	struct editor *ed = open_text(&b, SQUARE);
	/* the left room's floor: 4x3 minus '@' and '!' = 10 cells */
	assert_int_equal(editor_fill(ed, 2, 1, '~'), 10);
	assert_int_equal(editor_glyph(ed, 4, 3), '~');
	assert_int_equal(editor_glyph(ed, 1, 1), '@');
	assert_int_equal(editor_glyph(ed, 6, 1), '.'); /* beyond the wall and the door */
	assert_int_equal(editor_undo_count(ed), 1);
	assert_true(editor_undo(ed));
	assert_int_equal(editor_glyph(ed, 4, 3), '.');
	assert_int_equal(editor_glyph(ed, 2, 1), '.');
	/* a fill never leaks through a diagonal gap on square8 */
	struct editor *e2 = editor_new(GRID_SQUARE8, 6, 6, "gap", &b, "gap.lvl");
	assert_non_null(e2);
	assert_int_equal(editor_line(e2, 1, 4, 4, 1, '#'), 4);
	assert_int_equal(editor_fill(e2, 1, 1, ','), 6); /* the upper left triangle */
	assert_int_equal(editor_glyph(e2, 4, 4), '.');
	editor_destroy(e2);
	editor_destroy(ed);
}

static void test_rect_and_line(void **state)
{
	(void)state;
	struct bestiary b;
	struct editor *ed = open_text(&b, SQUARE);
	editor_destroy(ed);
	ed = editor_new(GRID_SQUARE4, 12, 8, "r", &b, "r.lvl");
	assert_int_equal(editor_rect(ed, 2, 2, 6, 5, '#', false), 14);
	assert_int_equal(editor_glyph(ed, 4, 3), '.');
	assert_int_equal(editor_glyph(ed, 6, 5), '#');
	assert_int_equal(editor_rect(ed, 3, 3, 5, 4, ',', true), 6);
	assert_int_equal(editor_undo_count(ed), 2);
	/* partly outside: clipped */
	assert_int_equal(editor_rect(ed, -3, -3, 1, 1, '~', true), 4);
	/* a square4 line steps orthogonally: 4 across + 3 down + the start */
	assert_int_equal(editor_line(ed, 7, 1, 10, 4, '+'), 7);
	assert_int_equal(editor_undo_count(ed), 4);
	/* a rectangle, line or fill of starts places one start */
	assert_int_equal(editor_rect(ed, 1, 1, 3, 3, '@', true), 1);
	editor_destroy(ed);
}

/* A hex line is a chain of hex neighbours from end to end. */
static void test_hex_line(void **state)
{
	(void)state;
	struct bestiary b;
	struct editor *ed = open_text(&b, HEX);
	editor_destroy(ed);
	ed = editor_new(GRID_HEX, 20, 15, "h", &b, "h.lvl");
	struct grid *g = grid_create(20, 15, GRID_HEX);
	static const int ends[][4] = { { 1, 1, 18, 1 }, { 1, 1, 1, 13 }, { 2, 13, 17, 2 }, { 5, 2, 9, 12 } };
	for (size_t k = 0; k < sizeof ends / sizeof ends[0]; k++) {
		const int *e = ends[k];
		int n = editor_line(ed, e[0], e[1], e[2], e[3], '#');
		assert_true(n > 0);
		assert_int_equal(editor_glyph(ed, e[0], e[1]), '#');
		assert_int_equal(editor_glyph(ed, e[2], e[3]), '#');
		/* every wall cell of the line touches another, and the number of
		 * cells is the hex distance + 1 */
		int d = grid_step_distance(g, e[1] * 20 + e[0], e[3] * 20 + e[2]);
		assert_int_equal(n, d + 1);
		assert_true(editor_undo(ed));
	}
	grid_destroy(g);
	editor_destroy(ed);
}

/* Painted levels written and parsed again hold the same map. */
static void round_trip(const char *text)
{
	struct bestiary b;
	struct editor *ed = open_text(&b, text);
	assert_true(editor_paint(ed, 2, 2, '~') > 0);
	assert_true(editor_paint(ed, 4, 1, 'g') > 0);
	assert_true(editor_paint(ed, 1, 2, '$') > 0);
	size_t len;
	char *t = editor_write(ed, &len);
	struct diag_list d = { 0 };
	struct level *lv = level_parse("rt.lvl", t, len, &b, &d);
	assert_non_null(lv);
	assert_int_equal(d.errors, 0);
	struct editor *e2 = editor_create(lv, &b, "rt.lvl");
	assert_int_equal(editor_width(e2), editor_width(ed));
	assert_int_equal(editor_height(e2), editor_height(ed));
	assert_int_equal(editor_topology(e2), editor_topology(ed));
	for (int y = 0; y < editor_height(ed); y++)
		for (int x = 0; x < editor_width(ed); x++)
			assert_int_equal(editor_glyph(e2, x, y), editor_glyph(ed, x, y));
	char *t2 = editor_write(e2, NULL);
	assert_string_equal(t, t2);
	free(t);
	free(t2);
	diag_list_fini(&d);
	level_destroy(lv);
	editor_destroy(e2);
	editor_destroy(ed);
}

static void test_round_trip_square(void **state)
{
	(void)state;
	round_trip(SQUARE);
}

static void test_round_trip_hex(void **state)
{
	(void)state;
	round_trip(HEX);
	struct bestiary b;
	struct editor *ed = open_text(&b, HEX);
	assert_int_equal(editor_glyph(ed, 2, 1), '@');
	assert_int_equal(editor_glyph(ed, 6, 2), '>');
	char *t = written(ed);
	assert_string_equal(t, HEX);
	free(t);
	editor_destroy(ed);
}

static void test_round_trip_diamond(void **state)
{
	(void)state;
	round_trip(DIAMOND);
	struct bestiary b;
	struct editor *ed = open_text(&b, DIAMOND);
	assert_int_equal(editor_topology(ed), GRID_DIAMOND4);
	assert_int_equal(editor_glyph(ed, 2, 1), '@');
	assert_int_equal(editor_glyph(ed, 5, 1), 'g');
	assert_int_equal(editor_glyph(ed, 6, 4), '>');
	char *t = written(ed);
	assert_string_equal(t, DIAMOND);
	free(t);
	editor_destroy(ed);
}

/* The end-to-end diamond8 level, unchanged, writes back byte for byte
 * (without its `;` comment lines, which the model does not hold). */
static void test_diamond_file_unchanged(void **state)
{
	(void)state;
	FILE *f = fopen("tests/levels/e2e/diamond8.lvl", "r");
	assert_non_null(f);
	char raw[4096], want[4096];
	size_t n = fread(raw, 1, sizeof raw - 1, f);
	fclose(f);
	assert_true(n > 0 && n < sizeof raw - 1);
	raw[n] = '\0';
	size_t k = 0;
	for (const char *line = raw; *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) + 1 : strlen(line);
		if (line[0] != ';') {
			memcpy(want + k, line, len);
			k += len;
		}
		line += len;
	}
	want[k] = '\0';
	struct bestiary b;
	struct editor *ed = open_text(&b, raw);
	assert_int_equal(editor_topology(ed), GRID_DIAMOND8);
	assert_int_equal(editor_glyph(ed, 3, 3), '@');
	assert_int_equal(editor_glyph(ed, 7, 4), '#');
	char *t = written(ed);
	assert_string_equal(t, want);
	free(t);
	/* paint, fill, write, parse back: the same cells */
	assert_int_equal(editor_paint(ed, 4, 1, '#'), 1);
	assert_true(editor_fill(ed, 1, 5, '~') > 0);
	size_t len;
	t = editor_write(ed, &len);
	assert_non_null(t);
	struct diag_list d = { 0 };
	struct level *lv = level_parse("d8.lvl", t, len, &b, &d);
	assert_non_null(lv);
	assert_int_equal(d.errors, 0);
	assert_int_equal(lv->topo, GRID_DIAMOND8);
	struct editor *e2 = editor_create(lv, &b, "d8.lvl");
	assert_non_null(e2);
	for (int y = 0; y < editor_height(ed); y++)
		for (int x = 0; x < editor_width(ed); x++)
			assert_int_equal(editor_glyph(e2, x, y), editor_glyph(ed, x, y));
	assert_int_equal(editor_glyph(e2, 4, 1), '#');
	assert_int_equal(editor_glyph(e2, 1, 5), '~');
	free(t);
	diag_list_fini(&d);
	level_destroy(lv);
	editor_destroy(e2);
	editor_destroy(ed);
}

/*
 * A diamond fill follows the diamond's edge neighbours (NE, NW, SE, SW):
 * a cell whose four edge neighbours are walls is shut in, though the cells
 * left and right of it in its row (its corner neighbours) are floor.
 */
static void test_diamond_fill(void **state)
{
	(void)state;
	struct bestiary b;
	struct editor *ed = open_text(&b, DIAMOND);
	editor_destroy(ed);
	for (int t = 0; t < 2; t++) {
		enum grid_topology topo = t ? GRID_DIAMOND8 : GRID_DIAMOND4;
		ed = editor_new(topo, 9, 9, "d", &b, "d.lvl");
		/* (4, 4), an even row: NE (4, 3), NW (3, 3), SE (4, 5), SW (3, 5) */
		assert_int_equal(editor_paint(ed, 4, 3, '#'), 1);
		assert_int_equal(editor_paint(ed, 3, 3, '#'), 1);
		assert_int_equal(editor_paint(ed, 4, 5, '#'), 1);
		assert_int_equal(editor_paint(ed, 3, 5, '#'), 1);
		assert_int_equal(editor_fill(ed, 4, 4, '~'), 1);
		assert_int_equal(editor_glyph(ed, 5, 4), '.');
		assert_int_equal(editor_glyph(ed, 3, 4), '.');
		/* the rest of the floor is one region: 7 x 7 inside the wall,
		 * less the 4 walls and the shut-in cell */
		assert_int_equal(editor_fill(ed, 1, 1, ','), 7 * 7 - 5);
		editor_destroy(ed);
	}
}

/* A diamond line is a chain of the topology's steps: as many cells as
 * the step distance + 1 (diamond4 adds the edge cell of each corner step). */
static void test_diamond_line(void **state)
{
	(void)state;
	struct bestiary b;
	struct editor *ed = open_text(&b, DIAMOND);
	editor_destroy(ed);
	static const int ends[][4] = { { 1, 1, 18, 1 },  { 1, 1, 1, 13 }, { 2, 13, 17, 2 },
				       { 5, 2, 9, 12 }, { 9, 7, 3, 6 },  { 4, 3, 4, 4 } };
	for (int t = 0; t < 2; t++) {
		enum grid_topology topo = t ? GRID_DIAMOND8 : GRID_DIAMOND4;
		ed = editor_new(topo, 20, 15, "d", &b, "d.lvl");
		struct grid *g = grid_create(20, 15, topo);
		for (size_t k = 0; k < sizeof ends / sizeof ends[0]; k++) {
			const int *e = ends[k];
			int n = editor_line(ed, e[0], e[1], e[2], e[3], '~');
			assert_int_equal(editor_glyph(ed, e[0], e[1]), '~');
			assert_int_equal(editor_glyph(ed, e[2], e[3]), '~');
			int d = grid_step_distance(g, e[1] * 20 + e[0], e[3] * 20 + e[2]);
			assert_int_equal(n, d + 1);
			/* every cell of the line has a neighbour on it */
			for (int y = 0; y < 15 && d > 0; y++)
				for (int x = 0; x < 20; x++) {
					if (editor_glyph(ed, x, y) != '~')
						continue;
					struct grid_step nb[GRID_MAX_NEIGHBOURS];
					int m = grid_adjacent(g, y * 20 + x, nb), on = 0;
					for (int i = 0; i < m; i++)
						on += editor_glyph(ed, grid_x(g, nb[i].cell), grid_y(g, nb[i].cell)) == '~';
					assert_true(on > 0);
				}
			assert_true(editor_undo(ed));
		}
		grid_destroy(g);
		editor_destroy(ed);
	}
}

static bool has_diag(struct editor *ed, const char *text, int *index)
{
	const struct diag_list *d = editor_diags(ed);
	for (int i = 0; i < d->n; i++)
		if (strstr(d->items[i].msg, text)) {
			if (index)
				*index = i;
			return true;
		}
	return false;
}

static void test_diagnostics_follow_changes(void **state)
{
	(void)state;
	struct bestiary b;
	struct editor *ed = open_text(&b, SQUARE);
	assert_int_equal(editor_diags(ed)->n, 0);
	/* close the door: the exit, the goblin and the right room are cut off */
	assert_int_equal(editor_paint(ed, 5, 2, '#'), 1);
	int i;
	assert_true(has_diag(ed, "exit '>' at 8,3 cannot be reached", &i));
	assert_int_equal(editor_diags(ed)->errors, 1);
	int x, y;
	assert_true(editor_diag_cell(ed, i, &x, &y));
	assert_int_equal(x, 8);
	assert_int_equal(y, 3);
	/* the line and column are those of the file as written */
	assert_int_equal(editor_diags(ed)->items[i].line, 8);
	assert_int_equal(editor_diags(ed)->items[i].col, 9);
	assert_true(has_diag(ed, "goblin 'g' at 7,2 can never reach the player", NULL));
	assert_true(editor_undo(ed));
	assert_int_equal(editor_diags(ed)->n, 0);
	/* no start, no exit: the parser's words */
	assert_true(editor_paint(ed, 1, 1, '.') > 0);
	assert_true(has_diag(ed, "no player start", NULL));
	assert_true(editor_paint(ed, 8, 3, '.') > 0);
	assert_true(has_diag(ed, "no exit", NULL));
	assert_int_equal(editor_diags(ed)->errors, 2);
	assert_false(editor_diag_cell(ed, 0, &x, &y));
	editor_destroy(ed);
}

static void test_route_follows_changes(void **state)
{
	(void)state;
	struct bestiary b;
	struct editor *ed = open_text(&b, SQUARE);
	assert_false(editor_route(ed)->active);
	editor_set_marker(ed, 0, 1, 1);
	editor_set_marker(ed, 1, 8, 3);
	const struct editor_route *r = editor_route(ed);
	assert_true(r->active);
	assert_int_equal(r->status, PATH_FOUND);
	assert_true(r->reached);
	double open_cost = r->cost;
	int open_steps = r->steps;
	assert_int_equal(r->len, r->steps + 1);
	assert_int_equal(r->cells[0], 1 * 10 + 1);
	assert_int_equal(r->end, 3 * 10 + 8);
	/* water on the way makes it dearer or longer */
	assert_true(editor_rect(ed, 6, 1, 6, 3, '~', true) > 0);
	r = editor_route(ed);
	assert_int_equal(r->status, PATH_FOUND);
	assert_true(r->cost > open_cost);
	/* a wall across: no route; with the fallback the walk stops before it */
	assert_true(editor_paint(ed, 5, 2, '#') > 0);
	r = editor_route(ed);
	assert_int_equal(r->status, PATH_NO_ROUTE);
	struct editor_route_options o = editor_route_get_options(ed);
	o.fallback = true;
	o.explored = true;
	editor_route_set_options(ed, &o);
	r = editor_route(ed);
	assert_int_equal(r->status, PATH_FALLBACK);
	assert_false(r->reached);
	assert_true(editor_route_explored(ed, 1, 1));
	assert_false(editor_route_explored(ed, 0, 0));
	assert_true(editor_undo(ed));
	assert_true(editor_undo(ed));
	r = editor_route(ed);
	assert_int_equal(r->status, PATH_FOUND);
	assert_int_equal(r->steps, open_steps);
	editor_destroy(ed);
}

static void test_monster_routes(void **state)
{
	(void)state;
	struct bestiary b;
	struct editor *ed = open_text(&b, SQUARE);
	assert_int_equal(editor_monster_routes(ed), 1);
	int x, y, len;
	const int *cells;
	bool ok;
	assert_true(editor_monster_route(ed, 0, &x, &y, &cells, &len, &ok));
	assert_true(ok);
	assert_int_equal(x, 7);
	assert_int_equal(y, 2);
	assert_int_equal(cells[0], 2 * 10 + 7);
	assert_int_equal(cells[len - 1], 1 * 10 + 1);
	assert_true(editor_paint(ed, 5, 2, '#') > 0);
	assert_int_equal(editor_monster_routes(ed), 1);
	assert_true(editor_monster_route(ed, 0, &x, &y, &cells, &len, &ok));
	assert_false(ok);
	assert_int_equal(len, 0);
	assert_null(cells); /* never an offset into a list that may not exist */
	editor_destroy(ed);
}

/* The minds of the plan tests: a chaser, a digger, a pack, an archer and an ambusher. */
static const char MINDS[] =
	"kind: goblin\nglyph: g\nhp: 6\ndamage: 2\nsight: 8\nmemory: 10\n\n"
	"kind: mole\nglyph: m\nhp: 8\ndamage: 2\nsight: 5\nmemory: 20\nbehaviour: dig\ndig: 3\ndig_turns: 2\n\n"
	"kind: wolf\nglyph: w\nhp: 7\ndamage: 2\nspeed: 130\nsight: 10\nmemory: 25\ncrowd: 2\nbehaviour: pack\n\n"
	"kind: kobold\nglyph: k\nhp: 4\ndamage: 1\nsight: 7\nmemory: 8\nbehaviour: ranged\nrange: 4\nkeep: 2\n\n"
	"kind: spider\nglyph: s\nhp: 10\ndamage: 3\nsight: 6\nmemory: 12\nbehaviour: ambush\nambush: 2\n";

static struct editor *open_minds(struct bestiary *b, const char *map)
{
	struct diag_list d = { 0 };
	assert_true(bestiary_parse("minds", MINDS, strlen(MINDS), b, &d));
	char text[2048];
	snprintf(text, sizeof text, "astray-level 1\nname: Minds\ntopology: square8\nmap:\n%s", map);
	struct level *lv = level_parse("m.lvl", text, strlen(text), b, &d);
	for (int i = 0; !lv && i < d.n; i++)
		print_error("%d:%d: %s\n", d.items[i].line, d.items[i].col, d.items[i].msg);
	assert_non_null(lv);
	diag_list_fini(&d);
	struct editor *ed = editor_create(lv, b, "m.lvl");
	assert_non_null(ed);
	level_destroy(lv);
	return ed;
}

/* The map's monster at x,y: its plan. */
static struct editor_monster_plan plan_at(struct editor *ed, int x, int y)
{
	int n = editor_monster_plans(ed);
	for (int i = 0; i < n; i++) {
		struct editor_monster_plan p;
		assert_true(editor_monster_plan(ed, i, &p));
		if (p.x == x && p.y == y)
			return p;
	}
	fail_msg("no monster at %d,%d", x, y);
	return (struct editor_monster_plan){ 0 };
}

static int cheb(int w, int a, int b)
{
	int dx = abs(a % w - b % w), dy = abs(a / w - b / w);
	return dx > dy ? dx : dy;
}

/* The digger's plan goes through the wall of a sealed room and marks the
 * walls it digs; a chaser beside it has no way in and digs nothing. */
static void test_plan_dig(void **state)
{
	(void)state;
	struct bestiary b;
	struct editor *ed = open_minds(&b, "############\n"
					   "#m...#....>#\n"
					   "#g...#.@...#\n"
					   "#....#.....#\n"
					   "############\n");
	int w = 12;
	assert_int_equal(editor_monster_plans(ed), 2);
	struct editor_monster_plan mole = plan_at(ed, 1, 1), gob = plan_at(ed, 1, 2);
	assert_int_equal(mole.mind, MIND_DIG);
	assert_true(mole.n_dug >= 1);
	for (int i = 0; i < mole.n_dug; i++)
		assert_int_equal(editor_glyph(ed, mole.dug[i] % w, mole.dug[i] / w), '#');
	assert_true(mole.strike >= 0);                       /* it got in and bit */
	assert_int_equal(cheb(w, mole.strike, 2 * w + 7), 1);
	assert_int_equal(mole.walk[0], 1 * w + 1);
	assert_int_equal(gob.mind, MIND_CHASE);
	assert_int_equal(gob.n_dug, 0);
	assert_int_equal(gob.strike, -1);                    /* no way in */
	/* A change of the map plays again: a door, and the goblin comes in too. */
	assert_true(editor_paint(ed, 5, 2, '+') > 0);
	gob = plan_at(ed, 1, 2);
	bool through = false; /* behind the mole in the doorway, but on its way in */
	for (int i = 0; i < gob.walk_len; i++)
		through |= gob.walk[i] == 2 * w + 5;
	assert_true(through);
	editor_destroy(ed);
}

/* Pack members take different posts beside the player; a chaser holds none. */
static void test_plan_pack(void **state)
{
	(void)state;
	struct bestiary b;
	struct editor *ed = open_minds(&b, "##############\n"
					   "#w..........>#\n"
					   "#............#\n"
					   "#w.....@.....#\n"
					   "#............#\n"
					   "#g...........#\n"
					   "##############\n");
	int w = 14, pc = 3 * w + 7;
	struct editor_monster_plan w1 = plan_at(ed, 1, 1), w2 = plan_at(ed, 1, 3), g = plan_at(ed, 1, 5);
	assert_int_equal(w1.mind, MIND_PACK);
	assert_true(w1.post >= 0 && w2.post >= 0);
	assert_true(w1.post != w2.post);
	assert_int_equal(cheb(w, w1.post, pc), 1);
	assert_int_equal(cheb(w, w2.post, pc), 1);
	assert_int_equal(w1.walk[w1.walk_len - 1], w1.post); /* it walked to its post */
	assert_int_equal(g.post, -1);
	assert_int_equal(cheb(w, g.walk[g.walk_len - 1], pc), 1);
	/* when each arrives: the goblin walks 5 steps, one a turn, and
	 * strikes on the next turn; the wolves settle at their posts */
	print_message("goblin: %d steps, settled turn %d, strikes turn %d; wolf settled turn %d\n",
		      g.walk_len - 1, g.settle_turn, g.strike_turn, w1.settle_turn);
	assert_int_equal(g.walk_len - 1, 5);
	assert_int_equal(g.settle_turn, 5);
	assert_int_equal(g.strike_turn, 6);
	assert_true(w1.settle_turn >= 1 && w1.settle_turn <= editor_monster_plan_turns(ed, &(bool){ false }));
	editor_destroy(ed);
}

/* The archer stops at a firing spot in its band and shoots from there; the
 * ambusher walks to a lair by the chokepoint and waits, never striking. */
static void test_plan_ranged_ambush(void **state)
{
	(void)state;
	struct bestiary b;
	struct editor *ed = open_minds(&b, "####################\n"
					   "#@.............k...#\n"
					   "#..................#\n"
					   "#########.##########\n"
					   "######....##########\n"
					   "######.##.##########\n"
					   "#s.....##.........>#\n"
					   "####################\n");
	int w = 20, pc = 1 * w + 1;
	struct editor_monster_plan k = plan_at(ed, 15, 1), s = plan_at(ed, 1, 6);
	assert_int_equal(k.mind, MIND_RANGED);
	assert_true(k.strike >= 0);
	int d = cheb(w, k.strike, pc);
	assert_true(d >= 2 && d <= 4);
	assert_int_equal(s.mind, MIND_AMBUSH);
	assert_int_equal(s.strike, -1);
	assert_true(s.post >= 0);
	assert_int_equal(s.walk[s.walk_len - 1], s.post);
	print_message("kobold strikes from %d,%d; spider waits at %d,%d\n", k.strike % w, k.strike / w,
		      s.post % w, s.post / w);
	editor_destroy(ed);
}

/* A 200x100 level: a stroke's recomputation is timed by the editor itself
 * (the figure is printed; the budget is checked by `astray edit --bench`). */
static void test_big_level(void **state)
{
	(void)state;
	struct bestiary b;
	struct editor *ed = open_text(&b, SQUARE);
	editor_destroy(ed);
	ed = editor_new(GRID_SQUARE8, 200, 100, "big", &b, "big.lvl");
	assert_non_null(ed);
	assert_true(editor_paint(ed, 1, 1, '@') > 0);
	assert_true(editor_paint(ed, 198, 98, '>') > 0);
	for (int i = 0; i < 40; i++)
		assert_true(editor_paint(ed, 5 + i * 4, 50, 'g') > 0);
	editor_set_marker(ed, 0, 1, 1);
	editor_set_marker(ed, 1, 198, 98);
	assert_int_equal(editor_route(ed)->status, PATH_FOUND);
	assert_true(editor_line(ed, 100, 0, 100, 99, '#') > 0);
	assert_true(has_diag(ed, "exit '>' at 198,98 cannot be reached", NULL));
	assert_int_equal(editor_route(ed)->status, PATH_NO_ROUTE);
	assert_int_equal(editor_monster_routes(ed), 40);
	print_message("200x100 refresh after a stroke: %.0f us CPU (sanitized build)\n",
		      editor_last_refresh_us(ed));
	editor_destroy(ed);
}

/* Header edits: each one an undo step, written as the parser reads it;
 * values the file could not hold are refused and change nothing. */
static void test_header_edit(void **state)
{
	(void)state;
	struct bestiary b;
	struct editor *ed = open_text(&b, SQUARE);
	char err[320] = "";
	assert_int_equal(editor_set_header(ed, EDITOR_NAME, "  The Pit  ", err, sizeof err), 1);
	assert_string_equal(editor_header(ed, EDITOR_NAME), "The Pit");
	assert_int_equal(editor_set_header(ed, EDITOR_AUTHOR, "me", err, sizeof err), 1);
	assert_int_equal(editor_set_header(ed, EDITOR_DESCRIPTION, "Rats; and stairs", err, sizeof err), 1);
	assert_int_equal(editor_set_header(ed, EDITOR_AUTHOR, "me", err, sizeof err), 0);
	assert_true(editor_modified(ed));
	char *t = written(ed);
	assert_non_null(strstr(t, "name: The Pit\ntopology: square8\nauthor: me\ndescription: Rats; and stairs\nmap:\n"));
	/* what is written parses back to the same header */
	struct diag_list d = { 0 };
	struct level *lv = level_parse("t.lvl", t, strlen(t), &b, &d);
	assert_non_null(lv);
	assert_string_equal(lv->name, "The Pit");
	assert_string_equal(lv->author, "me");
	assert_string_equal(lv->description, "Rats; and stairs");
	level_destroy(lv);
	diag_list_fini(&d);
	free(t);
	/* the diagnostics name the lines of the text that would be saved */
	assert_true(editor_paint(ed, 8, 3, '#') > 0);
	assert_true(has_diag(ed, "no exit", NULL));
	assert_true(editor_undo(ed));
	/* refused: an empty name, a comment, a tab, a non-ASCII byte */
	assert_int_equal(editor_set_header(ed, EDITOR_NAME, "   ", err, sizeof err), -1);
	assert_non_null(strstr(err, "needs a name"));
	assert_int_equal(editor_set_header(ed, EDITOR_AUTHOR, "me ;you", err, sizeof err), -1);
	assert_non_null(strstr(err, "character 4"));
	assert_non_null(strstr(err, "comment"));
	assert_int_equal(editor_set_header(ed, EDITOR_AUTHOR, ";x", err, sizeof err), -1);
	assert_int_equal(editor_set_header(ed, EDITOR_DESCRIPTION, "a\tb", err, sizeof err), -1);
	assert_non_null(strstr(err, "character 2"));
	assert_int_equal(editor_set_header(ed, EDITOR_DESCRIPTION, "caf\xc3\xa9", err, sizeof err), -1);
	assert_non_null(strstr(err, "non-ASCII"));
	assert_string_equal(editor_header(ed, EDITOR_AUTHOR), "me");
	/* an empty author removes the key; undo brings every step back */
	assert_int_equal(editor_set_header(ed, EDITOR_AUTHOR, "", err, sizeof err), 1);
	assert_null(editor_header(ed, EDITOR_AUTHOR));
	while (editor_undo(ed))
		;
	t = written(ed);
	assert_string_equal(t, SQUARE);
	free(t);
	assert_false(editor_modified(ed));
	/* and redo all of it */
	while (editor_redo(ed))
		;
	assert_null(editor_header(ed, EDITOR_AUTHOR));
	assert_string_equal(editor_header(ed, EDITOR_NAME), "The Pit");
	editor_destroy(ed);
}

/* The model test of resize: grow and shrink every side, on square, hex
 * and diamond, then undo gives back the original bytes, and redo the same
 * resized bytes again. */
static void resize_round(const char *text, int left, int top, int right, int bottom)
{
	struct bestiary b;
	struct editor *ed = open_text(&b, text);
	int w = editor_width(ed), h = editor_height(ed);
	char err[320] = "";
	int r = editor_resize(ed, left, top, right, bottom, err, sizeof err);
	if (r != 1)
		print_error("resize %d %d %d %d: %s\n", left, top, right, bottom, err);
	assert_int_equal(r, 1);
	assert_int_equal(editor_width(ed), w + left + right);
	assert_int_equal(editor_height(ed), h + top + bottom);
	char *grown = written(ed);
	/* the text parses back to the same cells; void rows at the bottom are
	 * blank lines, which the format does not keep */
	struct diag_list d = { 0 };
	struct level *lv = level_parse_partial("t.lvl", grown, strlen(grown), &b, &d);
	assert_non_null(lv);
	assert_int_equal(lv->w, editor_width(ed));
	assert_true(lv->h <= editor_height(ed));
	struct editor *back_ed = editor_create(lv, &b, "t.lvl");
	for (int y = 0; y < editor_height(ed); y++)
		for (int x = 0; x < editor_width(ed); x++)
			assert_int_equal(editor_glyph(back_ed, x, y), editor_glyph(ed, x, y));
	/* and a cell that stays keeps its glyph at its new place */
	struct editor *orig = open_text(&b, text);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			if (x + left >= 0 && x + left < editor_width(ed) && y + top >= 0 && y + top < editor_height(ed))
				assert_int_equal(editor_glyph(ed, x + left, y + top), editor_glyph(orig, x, y));
	editor_destroy(orig);
	editor_destroy(back_ed);
	level_destroy(lv);
	diag_list_fini(&d);
	(void)editor_diags(ed);
	(void)editor_route(ed);
	assert_true(editor_undo(ed));
	assert_int_equal(editor_width(ed), w);
	char *back = written(ed);
	assert_string_equal(back, text);
	assert_true(editor_redo(ed));
	char *again = written(ed);
	assert_string_equal(again, grown);
	free(grown);
	free(back);
	free(again);
	editor_destroy(ed);
}

static void test_resize_undo(void **state)
{
	(void)state;
	static const char *const texts[] = { SQUARE, HEX, DIAMOND };
	for (int i = 0; i < 3; i++) {
		resize_round(texts[i], 2, 2, 3, 1);     /* grow every side */
		resize_round(texts[i], -1, 0, -2, -1);  /* shrink: the walls go */
		resize_round(texts[i], 0, -2, 1, 0);    /* two rows off the top */
		resize_round(texts[i], 3, 0, -3, 0);    /* shift right, cut on the right */
	}
}

static void test_resize_rules(void **state)
{
	(void)state;
	struct bestiary b;
	char err[320] = "";
	struct editor *ed = open_text(&b, HEX);
	/* one row on top would move every hex half a cell: refused */
	assert_int_equal(editor_resize(ed, 0, 1, 0, 0, err, sizeof err), -1);
	assert_non_null(strstr(err, "pairs"));
	assert_int_equal(editor_resize(ed, 0, 0, 0, 1, err, sizeof err), 1); /* the bottom is free */
	/* the cells keep their neighbours: the start's row parity is kept */
	assert_int_equal(editor_resize(ed, 1, 2, 0, 0, err, sizeof err), 1);
	assert_int_equal(editor_glyph(ed, 3, 3), '@');
	char *t = written(ed);
	assert_non_null(strstr(t, "\n   # . @ . . g . #\n")); /* two cells right, two rows down */
	free(t);
	assert_int_equal(editor_resize(ed, -editor_width(ed), 0, 0, 0, err, sizeof err), -1);
	assert_non_null(strstr(err, "from 1 to"));
	assert_int_equal(editor_resize(ed, 0, 0, LEVEL_MAX_SIDE, 0, err, sizeof err), -1);
	assert_int_equal(editor_resize(ed, 0, 0, 0, 0, err, sizeof err), 0);
	editor_destroy(ed);

	/* square: any side; the start cut off is missed, markers and sealed cells move */
	ed = open_text(&b, SQUARE);
	editor_set_marker(ed, 0, 1, 1);
	editor_set_marker(ed, 1, 8, 3);
	assert_int_equal(editor_resize(ed, 0, 1, 0, 0, err, sizeof err), 1);
	int x, y;
	assert_true(editor_marker(ed, 0, &x, &y));
	assert_int_equal(x * 100 + y, 102);
	assert_int_equal(editor_route(ed)->status, PATH_FOUND);
	assert_int_equal(editor_resize(ed, -2, 0, 0, 0, err, sizeof err), 1);
	assert_false(editor_marker(ed, 0, &x, &y)); /* fell off with its cell */
	assert_true(has_diag(ed, "no player start", NULL));
	assert_true(editor_undo(ed));
	assert_false(has_diag(ed, "no player start", NULL));
	/* a stroke open: no resize in its middle */
	editor_begin(ed);
	assert_int_equal(editor_resize(ed, 1, 0, 0, 0, err, sizeof err), -1);
	assert_non_null(strstr(err, "stroke"));
	editor_end(ed);
	/* a paint after the undo drops the redo of the resize (freed, no leak) */
	assert_true(editor_paint(ed, 2, 2, '~') > 0);
	assert_false(editor_redo(ed));
	editor_destroy(ed);
}

static const char SEALED[] = "astray-level 1\n"
			     "name: Sealed\n"
			     "topology: square4\n"
			     "sealed: 7,2\n"
			     "map:\n"
			     "##########\n"
			     "#@..>#####\n"
			     "#....#...#\n"
			     "##########\n";

static void test_resize_sealed(void **state)
{
	(void)state;
	struct bestiary b;
	char err[320] = "";
	struct editor *ed = open_text(&b, SEALED);
	assert_int_equal(editor_resize(ed, 2, 0, 0, 0, err, sizeof err), 1);
	char *t = written(ed);
	assert_non_null(strstr(t, "sealed: 9,2\n"));
	free(t);
	assert_false(has_diag(ed, "unreachable", NULL));
	assert_int_equal(editor_resize(ed, 0, 0, -4, 0, err, sizeof err), 1); /* the sealed room goes */
	t = written(ed);
	assert_null(strstr(t, "sealed:"));
	free(t);
	assert_true(editor_undo(ed));
	assert_true(editor_undo(ed));
	t = written(ed);
	assert_string_equal(t, SEALED);
	free(t);
	editor_destroy(ed);
}

/* A save keeps the previous file as LEVEL~; when that cannot be done for a
 * reason other than a file system without hard links (here: LEVEL~ is a
 * folder that will not go), the save fails with the reason and the level
 * file is untouched. */
static void test_save_stops_when_backup_cannot_be_kept(void **state)
{
	(void)state;
	struct bestiary b;
	struct editor *ed = open_text(&b, SQUARE);
	char dir[] = "/tmp/astray-backup-XXXXXX", path[96], tilde[100], err[512] = "";
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/t.lvl", dir);
	snprintf(tilde, sizeof tilde, "%s~", path);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("old text\n", f);
	fclose(f);
	assert_int_equal(mkdir(tilde, 0700), 0);
	assert_false(editor_save(ed, path, true, true, err, sizeof err));
	assert_true(err[0] != '\0');
	size_t len;
	char *text = level_read_file(path, &len);
	assert_non_null(text);
	assert_string_equal(text, "old text\n"); /* untouched */
	free(text);
	/* the folder gone, the same save keeps the old text as LEVEL~ */
	assert_int_equal(rmdir(tilde), 0);
	assert_true(editor_save(ed, path, true, true, err, sizeof err));
	text = level_read_file(tilde, &len);
	assert_non_null(text);
	assert_string_equal(text, "old text\n");
	free(text);
	unlink(tilde);
	unlink(path);
	rmdir(dir);
	editor_destroy(ed);
}

/*
 * The undo history's memory cap (issue 33 item 7): past it the oldest
 * steps go, the newest always stays, the count of dropped steps is told
 * once, what is left undoes and redoes exactly, a header edit's kept
 * states are freed with their step (ASan sees a leak otherwise), and the
 * saved mark that fell off the history no longer counts as reachable.
 */
static void test_undo_cap(void **state)
{
	(void)state;
	struct bestiary b;
	struct editor *ed = open_text(&b, SQUARE);
	char err[320] = "";
	assert_true(editor_undo_cap(ed) == EDITOR_UNDO_CAP);
	assert_true(editor_undo_bytes(ed) == 0);
	/* a header edit first: its step holds two whole states */
	assert_int_equal(editor_set_header(ed, EDITOR_AUTHOR, "me", err, sizeof err), 1);
	editor_mark_saved(ed); /* as if saved here */
	for (int i = 0; i < 6; i++)
		assert_true(editor_paint(ed, 1 + i, 3, '~') > 0);
	long all = -1;
	assert_int_equal(editor_undo_dropped(ed, &all), 0);
	assert_int_equal(all, 0);
	assert_int_equal(editor_undo_count(ed), 7);
	size_t one = editor_undo_bytes(ed);
	assert_true(one > 0);
	char *before_fill = written(ed);
	/* a fill of the room: one big step */
	assert_true(editor_fill(ed, 2, 2, ',') >= 7);
	size_t big = editor_undo_bytes(ed) - one;
	/* a cap just above the fill: every step before it goes */
	editor_set_undo_cap(ed, big + 1);
	assert_true(editor_undo_bytes(ed) <= big + 1);
	assert_int_equal(editor_undo_count(ed), 1);
	assert_int_equal(editor_undo_dropped(ed, &all), 7);
	assert_int_equal(all, 7);
	assert_int_equal(editor_undo_dropped(ed, NULL), 0); /* told once */
	assert_true(editor_modified(ed));
	/* the one step left undoes to the state before it, and no further */
	assert_true(editor_undo(ed));
	char *t = written(ed);
	assert_string_equal(t, before_fill);
	free(t);
	assert_false(editor_undo(ed));
	assert_true(editor_modified(ed)); /* the saved state is gone from the history */
	assert_string_equal(editor_header(ed, EDITOR_AUTHOR), "me");
	assert_true(editor_redo(ed));
	assert_int_equal(editor_glyph(ed, 2, 2), ',');
	/* under a small cap each new step pushes the oldest out; the newest
	 * stays even when it alone is over the cap */
	editor_set_undo_cap(ed, 1);
	assert_int_equal(editor_undo_count(ed), 1);
	assert_true(editor_paint(ed, 8, 1, '#') > 0);
	assert_int_equal(editor_undo_count(ed), 1);
	assert_int_equal(editor_undo_dropped(ed, &all), 1);
	assert_int_equal(all, 8);
	/* a header edit dropped in turn frees its states (no leak) */
	assert_int_equal(editor_set_header(ed, EDITOR_NAME, "Capped", err, sizeof err), 1);
	assert_true(editor_paint(ed, 8, 2, '#') > 0);
	assert_int_equal(editor_undo_count(ed), 1);
	assert_true(editor_undo(ed));
	assert_string_equal(editor_header(ed, EDITOR_NAME), "Capped");
	assert_int_equal(editor_glyph(ed, 8, 2), '.');
	/* no cap: nothing goes */
	editor_set_undo_cap(ed, 0);
	for (int i = 0; i < 5; i++)
		assert_true(editor_paint(ed, 1 + i, 1, i % 2 ? '~' : '$') > 0);
	assert_int_equal(editor_undo_count(ed), 5);
	assert_int_equal(editor_undo_dropped(ed, NULL), 2);
	free(before_fill);
	editor_destroy(ed);
}

/* Copy, stamp (a paste is one), mirror of a rectangle: each one undo
 * step, a stamp clipped at the map's edge, a start in the clip moves the
 * start, and a mirror twice gives the text back. */
static void test_copy_stamp_mirror(void **state)
{
	(void)state;
	struct bestiary b;
	struct editor *ed = open_text(&b, SQUARE);
	char *orig = written(ed);
	struct editor_clip c = { 0 };
	/* the room's corner with the start: 1,1 .. 3,2 ("@.." / "...") */
	assert_true(editor_copy(ed, 3, 2, 1, 1, &c));
	assert_int_equal(c.w, 3);
	assert_int_equal(c.h, 2);
	assert_memory_equal(c.glyphs, "@.....", 6);
	assert_false(editor_copy(ed, 20, 20, 30, 30, &c)); /* off the map: the clip stays */
	assert_int_equal(c.w, 3);
	/* mirrored left to right: "..@" / "..." */
	editor_clip_mirror(&c, true);
	assert_memory_equal(c.glyphs, "..@...", 6);
	editor_clip_mirror(&c, false);
	assert_memory_equal(c.glyphs, "..." "..@", 6);
	/* stamped at 6,2: the start moves there, the old one is floor */
	int undo = editor_undo_count(ed);
	assert_true(editor_stamp(ed, &c, 6, 2) > 0);
	assert_int_equal(editor_undo_count(ed), undo + 1);
	assert_int_equal(editor_glyph(ed, 8, 3), '@');
	assert_int_equal(editor_glyph(ed, 1, 1), '.');
	assert_int_equal(editor_glyph(ed, 7, 2), '.'); /* the goblin is gone under the stamp */
	/* the edge clips it: at 8,3 only the column x = 8 lands */
	struct editor_clip wall = { 0 };
	assert_true(editor_copy(ed, 0, 0, 2, 0, &wall)); /* "###" */
	assert_int_equal(editor_stamp(ed, &wall, 8, 4), 0); /* on the bottom wall: nothing changes */
	assert_int_equal(editor_stamp(ed, &wall, 8, 2), 1); /* 8,2; 9,2 is a wall already, 10,2 off */
	assert_int_equal(editor_glyph(ed, 8, 2), '#');
	/* one undo each: the map as it was */
	assert_true(editor_undo(ed));
	assert_true(editor_undo(ed));
	char *t = written(ed);
	assert_string_equal(t, orig);
	free(t);
	/* mirror in place: the middle row's door side turned over, one step */
	assert_true(editor_mirror(ed, 0, 2, 9, 2, true) > 0);
	assert_int_equal(editor_glyph(ed, 4, 2), '+');
	assert_int_equal(editor_glyph(ed, 2, 2), 'g');
	assert_true(editor_mirror(ed, 9, 2, 0, 2, true) > 0); /* and back */
	t = written(ed);
	assert_string_equal(t, orig);
	free(t);
	assert_true(editor_undo(ed));
	assert_true(editor_undo(ed));
	t = written(ed);
	assert_string_equal(t, orig);
	free(t);
	/* top to bottom over the whole map: rows reversed, the start with them */
	assert_true(editor_mirror(ed, 0, 0, 9, 4, false) > 0);
	assert_int_equal(editor_glyph(ed, 1, 3), '@');
	assert_int_equal(editor_glyph(ed, 8, 1), '>');
	assert_int_equal(editor_mirror(ed, 20, 20, 30, 30, false), 0);
	editor_clip_free(&c);
	editor_clip_free(&wall);
	assert_null(c.glyphs);
	free(orig);
	editor_destroy(ed);
}

/* Every header key: sealed cells (checked as the parser checks them) and
 * the topology within its layout, each one undo step, written and parsed
 * back. */
static void test_header_sealed_topology(void **state)
{
	(void)state;
	struct bestiary b;
	struct editor *ed = open_text(&b, SQUARE);
	char err[320] = "";
	assert_null(editor_header(ed, EDITOR_SEALED));
	assert_string_equal(editor_header(ed, EDITOR_TOPOLOGY), "square8");
	assert_int_equal(editor_set_header(ed, EDITOR_SEALED, " 2,1   7,3 ", err, sizeof err), 1);
	assert_string_equal(editor_header(ed, EDITOR_SEALED), "2,1 7,3");
	assert_int_equal(editor_set_header(ed, EDITOR_SEALED, "2,1 7,3", err, sizeof err), 0);
	/* refused: outside, blocked, not a cell */
	assert_int_equal(editor_set_header(ed, EDITOR_SEALED, "2,1 10,3", err, sizeof err), -1);
	assert_non_null(strstr(err, "10,3 is outside the map (10x5 cells)"));
	assert_int_equal(editor_set_header(ed, EDITOR_SEALED, "0,0", err, sizeof err), -1);
	assert_non_null(strstr(err, "0,0 is blocked (wall)"));
	assert_int_equal(editor_set_header(ed, EDITOR_SEALED, "2,1 x", err, sizeof err), -1);
	assert_non_null(strstr(err, "'x' at character 5 is not a cell"));
	assert_int_equal(editor_set_header(ed, EDITOR_SEALED, "2,1,3", err, sizeof err), -1);
	assert_int_equal(editor_set_header(ed, EDITOR_SEALED, "-1,2", err, sizeof err), -1);
	assert_string_equal(editor_header(ed, EDITOR_SEALED), "2,1 7,3");
	/* the topology: square4, not hex */
	assert_int_equal(editor_set_header(ed, EDITOR_TOPOLOGY, "hex", err, sizeof err), -1);
	assert_non_null(strstr(err, "hex lays its rows out shifted, this map straight: square4 or square8 only"));
	assert_int_equal(editor_set_header(ed, EDITOR_TOPOLOGY, "squar", err, sizeof err), -1);
	assert_non_null(strstr(err, "unknown 'squar'"));
	assert_int_equal(editor_set_header(ed, EDITOR_TOPOLOGY, "", err, sizeof err), -1);
	assert_int_equal(editor_set_header(ed, EDITOR_TOPOLOGY, "square4", err, sizeof err), 1);
	assert_int_equal(editor_topology(ed), GRID_SQUARE4);
	assert_int_equal(editor_level(ed)->topo, GRID_SQUARE4);
	char *t = written(ed);
	assert_non_null(strstr(t, "topology: square4\n"));
	assert_non_null(strstr(t, "sealed: 2,1 7,3\n"));
	struct diag_list d = { 0 };
	struct level *lv = level_parse("t.lvl", t, strlen(t), &b, &d);
	assert_non_null(lv);
	assert_int_equal(d.errors, 0);
	assert_int_equal(lv->topo, GRID_SQUARE4);
	assert_int_equal(lv->n_sealed, 2);
	level_destroy(lv);
	diag_list_fini(&d);
	free(t);
	/* a route now takes no diagonal: 1,1 to 3,3 is 4 steps */
	editor_set_marker(ed, 0, 1, 1);
	editor_set_marker(ed, 1, 3, 3);
	assert_int_equal(editor_route(ed)->steps, 4);
	/* undo: square8 (2 diagonal steps), then no sealed key */
	assert_true(editor_undo(ed));
	assert_int_equal(editor_topology(ed), GRID_SQUARE8);
	assert_int_equal(editor_route(ed)->steps, 2);
	assert_true(editor_undo(ed));
	assert_null(editor_header(ed, EDITOR_SEALED));
	assert_true(editor_redo(ed));
	assert_string_equal(editor_header(ed, EDITOR_SEALED), "2,1 7,3");
	/* empty removes the key */
	assert_int_equal(editor_set_header(ed, EDITOR_SEALED, "  ", err, sizeof err), 1);
	assert_null(editor_header(ed, EDITOR_SEALED));
	editor_destroy(ed);
	/* hex to diamond8 and back: the same text */
	ed = open_text(&b, HEX);
	assert_int_equal(editor_set_header(ed, EDITOR_TOPOLOGY, "square8", err, sizeof err), -1);
	assert_int_equal(editor_set_header(ed, EDITOR_TOPOLOGY, "diamond8", err, sizeof err), 1);
	t = written(ed);
	assert_non_null(strstr(t, "topology: diamond8\n"));
	assert_non_null(strstr(t, " # . @ . . g . #\n"));
	free(t);
	assert_int_equal(editor_set_header(ed, EDITOR_TOPOLOGY, "hex", err, sizeof err), 1);
	t = written(ed);
	assert_string_equal(t, HEX);
	free(t);
	editor_destroy(ed);
}

/* A play-test from any cell one can stand on, with or without the map
 * known; refused on a wall or a monster, with the reason. */
static void test_playtest_from_cursor(void **state)
{
	(void)state;
	struct bestiary b;
	struct editor *ed = open_text(&b, SQUARE);
	struct editor_playtest pt;
	char err[320] = "";
	/* from the start, as in play: the far room unknown */
	assert_true(editor_playtest_start(ed, -1, -1, false, &b, 7, &pt, err, sizeof err));
	assert_int_equal(pt.g->player.x, 1);
	assert_int_equal(pt.g->player.y, 1);
	assert_int_equal(pt.g->remembered[3 * 10 + 8], 0); /* the exit, behind the door */
	editor_playtest_end(&pt);
	assert_null(pt.g);
	/* from 6,3, the map known: every cell remembered, the exit known */
	assert_true(editor_playtest_start(ed, 6, 3, true, &b, 7, &pt, err, sizeof err));
	assert_int_equal(pt.g->player.x, 6);
	assert_int_equal(pt.g->player.y, 3);
	for (int c = 0; c < 50; c++)
		assert_int_equal(pt.g->remembered[c], 1);
	int sx, sy;
	assert_true(game_known_stairs(pt.g, &sx, &sy));
	assert_int_equal(sx, 8);
	assert_int_equal(sy, 3);
	/* the editor's level keeps its own start */
	assert_int_equal(editor_level(ed)->player_x, 1);
	editor_playtest_end(&pt);
	/* refused: a wall, the goblin, off the map */
	assert_false(editor_playtest_start(ed, 0, 0, false, &b, 7, &pt, err, sizeof err));
	assert_non_null(strstr(err, "0,0 is wall"));
	assert_false(editor_playtest_start(ed, 7, 2, false, &b, 7, &pt, err, sizeof err));
	assert_non_null(strstr(err, "a goblin stands on 7,2"));
	assert_false(editor_playtest_start(ed, 10, 2, false, &b, 7, &pt, err, sizeof err));
	assert_non_null(strstr(err, "off the map"));
	assert_null(pt.g);
	editor_destroy(ed);
}

/* The sight view: a monster's field of view by its kind's radius, doors
 * shut; the cells that see the start; who sees it; after an edit. */
static void test_sight(void **state)
{
	(void)state;
	struct bestiary b;
	struct editor *ed = open_minds(&b, "####################\n"
					   "#..........#.......#\n"
					   "#..@.......#...g...#\n"
					   "#..........+.......#\n"
					   "#....w.....#.......#\n"
					   "#..........#......>#\n"
					   "####################\n");
	int w = 20;
	uint8_t seen[20 * 7];
	assert_int_equal(editor_sight_radius(ed, 15, 2), 8);
	assert_int_equal(editor_sight_radius(ed, 5, 4), 10);
	assert_int_equal(editor_sight_radius(ed, 3, 2), -1); /* the start is no monster */
	assert_int_equal(editor_sight_widest(ed), 10);
	/* the goblin sees its room and the walls around it, nothing past the shut door */
	int n = editor_sight(ed, 15, 2, 8, seen);
	assert_true(n > 20);
	assert_int_equal(seen[5 * w + 18], 1);  /* the exit */
	assert_int_equal(seen[3 * w + 11], 1);  /* the door */
	assert_int_equal(seen[2 * w + 5], 0);   /* behind the wall */
	assert_int_equal(editor_sees(ed, 15, 2, 3, 2, 8), 0);
	/* the start's view (the wolf's radius): the wolf sees the start */
	assert_true(editor_sight(ed, 3, 2, 10, seen) > 0);
	assert_int_equal(seen[4 * w + 5], 1);
	assert_int_equal(editor_sees(ed, 5, 4, 3, 2, 10), 1);
	assert_int_equal(seen[2 * w + 15], 0);  /* the goblin's room */
	/* open the door and the wall beside: the goblin's room opens to the
	 * start's view, but the goblin is 12 cells off, past its 8 */
	assert_true(editor_rect(ed, 11, 1, 11, 5, '.', true) > 0);
	assert_true(editor_sight(ed, 3, 2, 10, seen) > 0);
	assert_int_equal(seen[2 * w + 12], 1);
	assert_int_equal(editor_sees(ed, 15, 2, 3, 2, 8), 0);
	assert_int_equal(editor_sees(ed, 15, 2, 3, 2, 12), 1);
	assert_int_equal(editor_sight(ed, 20, 2, 8, seen), -1);
	editor_destroy(ed);
}

/* The quick sim: games a few at a time on a copy of the level, the
 * outcome counts adding up, heat of contacts and deaths on the map's
 * cells; stopped early it keeps what it played; errors refuse it. */
static void test_quick_sim(void **state)
{
	(void)state;
	struct bestiary b;
	struct editor *ed = open_minds(&b, "##########\n"
					   "#@.......#\n"
					   "#.......g#\n"
					   "#.g.....>#\n"
					   "##########\n");
	char err[320] = "";
	/* the idle player waits: the goblins come, contact every game */
	struct editor_sim *s = editor_sim_start(ed, &b, 6, 2 /* idle */, 60, 11, err, sizeof err);
	assert_non_null(s);
	assert_string_equal(editor_sim_player_name(2), "idle");
	assert_int_equal(editor_sim_players(), 5);
	/* an edit now does not reach the games: they play a copy */
	assert_true(editor_paint(ed, 2, 3, '.') > 0);
	assert_false(editor_sim_finished(s));
	assert_int_equal(editor_sim_step(s, 4), 4);
	assert_int_equal(editor_sim_step(s, 4), 6);
	assert_true(editor_sim_finished(s));
	const struct editor_sim_result *r = editor_sim_result(s);
	assert_int_equal(r->done, 6);
	assert_int_equal(r->escaped + r->killed + r->out_of_turns, 6);
	assert_int_equal(r->escaped, 0);
	int w, h;
	double max;
	const double *contact = editor_sim_heat(s, false, &w, &h, &max);
	assert_non_null(contact);
	assert_int_equal(w, 10);
	assert_int_equal(h, 5);
	double sum = 0;
	for (int i = 0; i < w * h; i++)
		sum += contact[i];
	assert_true(sum == 6);          /* one first contact a game, at the start */
	assert_true(contact[1 * w + 1] == 6);
	const double *deaths = editor_sim_heat(s, true, &w, &h, &max);
	assert_non_null(deaths);
	assert_true(max == (r->killed ? deaths[1 * w + 1] : 0));
	editor_sim_destroy(s);
	/* the exit player on the map without goblins escapes every game */
	assert_true(editor_paint(ed, 8, 2, '.') > 0);
	s = editor_sim_start(ed, &b, 3, 0 /* exit */, 100, 11, err, sizeof err);
	assert_non_null(s);
	assert_int_equal(editor_sim_step(s, 10), 3);
	assert_int_equal(editor_sim_result(s)->escaped, 3);
	assert_true(editor_sim_result(s)->mean_turns == 7);
	editor_sim_destroy(s);
	/* a level with errors is refused */
	assert_true(editor_paint(ed, 8, 3, '#') > 0);
	assert_null(editor_sim_start(ed, &b, 3, 0, 100, 11, err, sizeof err));
	assert_non_null(strstr(err, "error"));
	editor_sim_destroy(NULL);
	editor_destroy(ed);
}

/* A stroke still open counts as the newest step: when the change array
 * fills over the cap, the oldest steps go before it grows, and the
 * stroke, once ended, undoes as one step. */
static void test_undo_cap_in_stroke(void **state)
{
	(void)state;
	struct bestiary b;
	struct editor *ed = open_text(&b, "astray-level 1\nname: Big\ntopology: square8\nmap:\n"
					  "########################################\n"
					  "#@....................................>#\n"
					  "########################################\n");
	/* 300 one-cell steps: more than the array's first 256 changes */
	for (int i = 0; i < 300; i++)
		assert_true(editor_paint(ed, 2 + i % 30, 1, (i / 30) % 2 ? '~' : ',') > 0);
	assert_int_equal(editor_undo_count(ed), 300);
	editor_set_undo_cap(ed, 600 * 8); /* room for about 600 changes */
	assert_int_equal(editor_undo_count(ed), 300);
	char *before = written(ed);
	/* one stroke of 900 changes: the old steps go while it is open */
	editor_begin(ed);
	for (int i = 0; i < 900; i++)
		assert_true(editor_paint(ed, 2 + i % 30, 1, (i / 30) % 2 ? '.' : '$') > 0);
	assert_true(editor_undo_count(ed) < 300);
	editor_end(ed);
	long all;
	assert_true(editor_undo_dropped(ed, &all) == 300);
	assert_int_equal(editor_undo_count(ed), 1);
	/* the stroke's 900 changes and its step's start, nothing else */
	assert_int_equal(editor_undo_bytes(ed), 900 * 8 + sizeof(int));
	assert_true(editor_undo(ed));
	char *t = written(ed);
	assert_string_equal(t, before);
	free(t);
	free(before);
	assert_false(editor_undo(ed));
	assert_true(editor_redo(ed));
	assert_int_equal(editor_glyph(ed, 2, 1), '.'); /* the stroke's last pass */
	editor_destroy(ed);
}


/* The editor's derived level and diagnostics (editor_derived.c: a table
 * per glyph, the analysis over the editor's own grid) against the parser's
 * level and level_analyse's, on the campaign and the check fixtures (items,
 * monsters, sealed regions, unreachable exits, diamond4's corners). */
static void compare_derived(const char *path)
{
	struct bestiary b;
	struct diag_list d = { 0 };
	assert_true(bestiary_load_file("levels/bestiary.txt", &b, &d));
	size_t len;
	char *text = level_read_file(path, &len);
	assert_non_null(text);
	struct level *lv = level_parse(path, text, len, &b, &d);
	free(text);
	assert_non_null(lv);
	struct editor *ed = editor_create(lv, &b, path);
	assert_non_null(ed);
	const struct level *got = editor_level(ed);
	assert_non_null(got);
	assert_int_equal(got->w, lv->w);
	assert_int_equal(got->h, lv->h);
	assert_memory_equal(got->tiles, lv->tiles, (size_t)lv->w * (size_t)lv->h);
	assert_int_equal(got->player_x, lv->player_x);
	assert_int_equal(got->player_y, lv->player_y);
	assert_int_equal(got->n_items, lv->n_items);
	for (int i = 0; i < lv->n_items; i++) {
		assert_int_equal(got->items[i].kind, lv->items[i].kind);
		assert_int_equal(got->items[i].x, lv->items[i].x);
		assert_int_equal(got->items[i].y, lv->items[i].y);
	}
	assert_int_equal(got->n_monsters, lv->n_monsters);
	for (int i = 0; i < lv->n_monsters; i++) {
		assert_int_equal(got->monsters[i].glyph, lv->monsters[i].glyph);
		assert_int_equal(got->monsters[i].x, lv->monsters[i].x);
		assert_int_equal(got->monsters[i].y, lv->monsters[i].y);
	}
	struct diag_list want = { 0 };
	level_analyse(lv, &b, &want);
	const struct diag_list *have = editor_diags(ed);
	assert_int_equal(have->n, want.n);
	for (int i = 0; i < want.n; i++) {
		assert_int_equal(have->items[i].severity, want.items[i].severity);
		/* the editor counts lines in the text it writes (no comments) */
		assert_int_equal(have->items[i].line - got->map_line, want.items[i].line - lv->map_line);
		assert_int_equal(have->items[i].col, want.items[i].col);
		assert_string_equal(have->items[i].msg, want.items[i].msg);
	}
	diag_list_fini(&want);
	diag_list_fini(&d);
	editor_destroy(ed);
	level_destroy(lv);
}

static void test_derived_as_parsed(void **state)
{
	(void)state;
	static const char *const dirs[] = { "levels", "tests/levels/check" };
	int n = 0, with_diags = 0;
	for (size_t k = 0; k < sizeof dirs / sizeof dirs[0]; k++) {
		DIR *dir = opendir(dirs[k]);
		assert_non_null(dir);
		struct dirent *e;
		while ((e = readdir(dir))) {
			size_t l = strlen(e->d_name);
			if (l < 5 || strcmp(e->d_name + l - 4, ".lvl") != 0)
				continue;
			char path[512];
			snprintf(path, sizeof path, "%s/%s", dirs[k], e->d_name);
			compare_derived(path);
			n++;
			with_diags += strstr(dirs[k], "check") != NULL;
		}
		closedir(dir);
	}
	assert_true(n >= 15);
	assert_true(with_diags >= 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_unchanged),
		cmocka_unit_test(test_comments_kept),
		cmocka_unit_test(test_paint_undo_redo),
		cmocka_unit_test(test_undo_deep),
		cmocka_unit_test(test_start_moves),
		cmocka_unit_test(test_start_dragged),
		cmocka_unit_test(test_fill_one_step),
		cmocka_unit_test(test_rect_and_line),
		cmocka_unit_test(test_hex_line),
		cmocka_unit_test(test_round_trip_square),
		cmocka_unit_test(test_round_trip_hex),
		cmocka_unit_test(test_round_trip_diamond),
		cmocka_unit_test(test_diamond_file_unchanged),
		cmocka_unit_test(test_diamond_fill),
		cmocka_unit_test(test_diamond_line),
		cmocka_unit_test(test_diagnostics_follow_changes),
		cmocka_unit_test(test_route_follows_changes),
		cmocka_unit_test(test_monster_routes),
		cmocka_unit_test(test_plan_dig),
		cmocka_unit_test(test_plan_pack),
		cmocka_unit_test(test_plan_ranged_ambush),
		cmocka_unit_test(test_big_level),
		cmocka_unit_test(test_header_edit),
		cmocka_unit_test(test_undo_cap),
		cmocka_unit_test(test_undo_cap_in_stroke),
		cmocka_unit_test(test_copy_stamp_mirror),
		cmocka_unit_test(test_header_sealed_topology),
		cmocka_unit_test(test_playtest_from_cursor),
		cmocka_unit_test(test_sight),
		cmocka_unit_test(test_quick_sim),
		cmocka_unit_test(test_resize_undo),
		cmocka_unit_test(test_resize_rules),
		cmocka_unit_test(test_resize_sealed),
		cmocka_unit_test(test_save_stops_when_backup_cannot_be_kept),
		cmocka_unit_test(test_derived_as_parsed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
