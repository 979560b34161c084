/* test_input.c - the key table, the click state machine and the viewport maths, without a terminal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "grid.h"
#include "input.h"

static void check_move(int key, enum grid_dir d, int count)
{
	struct input_command c = input_key(key);
	assert_int_equal(c.kind, INPUT_MOVE);
	assert_int_equal(c.dir, d);
	assert_int_equal(c.count, count);
}

static void test_vi_keys(void **state)
{
	(void)state;
	check_move('h', GRID_W, 1);
	check_move('j', GRID_S, 1);
	check_move('k', GRID_N, 1);
	check_move('l', GRID_E, 1);
	check_move('y', GRID_NW, 1);
	check_move('u', GRID_NE, 1);
	check_move('b', GRID_SW, 1);
	check_move('n', GRID_SE, 1);
	check_move('L', GRID_E, 8);
	check_move('B', GRID_SW, 8);
}

static void test_arrows_and_numpad(void **state)
{
	(void)state;
	check_move(INPUT_UP, GRID_N, 1);
	check_move(INPUT_DOWN, GRID_S, 1);
	check_move(INPUT_LEFT, GRID_W, 1);
	check_move(INPUT_RIGHT, GRID_E, 1);
	check_move(INPUT_A1, GRID_NW, 1);
	check_move(INPUT_A3, GRID_NE, 1);
	check_move(INPUT_C1, GRID_SW, 1);
	check_move(INPUT_C3, GRID_SE, 1);
	check_move(INPUT_HOME, GRID_NW, 1);
	check_move(INPUT_PGUP, GRID_NE, 1);
	check_move(INPUT_END, GRID_SW, 1);
	check_move(INPUT_PGDN, GRID_SE, 1);
	static const enum grid_dir digits[10] = { 0, GRID_SW, GRID_S, GRID_SE, GRID_W, 0, GRID_E, GRID_NW, GRID_N, GRID_NE };
	for (int d = 1; d <= 9; d++) {
		if (d == 5)
			continue;
		check_move('0' + d, digits[d], 1);
	}
	/* numpad 5 waits with numlock on or off, as the help says; R rests */
	assert_int_equal(input_key('5').kind, INPUT_WAIT);
	assert_int_equal(input_key('R').kind, INPUT_REST);
	assert_int_equal(input_key('s').kind, INPUT_WAIT);
	assert_int_equal(input_key(INPUT_B2).kind, INPUT_WAIT);
	assert_int_equal(input_key('.').kind, INPUT_WAIT);
}

/* Bytes after an ESC, for input_after_escape. */
struct bytes {
	const char *s;
	size_t at;
};

static int next_byte(void *ctx)
{
	struct bytes *b = ctx;
	return b->s[b->at] ? (unsigned char)b->s[b->at++] : -1;
}

/* The key the sequence ESC `rest` decodes to; *left: bytes not read. */
static int decode(const char *rest, int *unread, size_t *left)
{
	struct bytes b = { rest, 0 };
	int k = input_after_escape(next_byte, &b, unread);
	*left = strlen(rest) - b.at;
	return k;
}

static void check_decode(const char *rest, int want)
{
	int unread;
	size_t left;
	assert_int_equal(decode(rest, &unread, &left), want);
	assert_int_equal(unread, -1);
	assert_int_equal(left, 0);
}

/* Keypads in application mode (PuTTY, tmux: ESC O p..y, ESC O M) and Alt
 * keys decode to their keys, not to Escape then a letter (numpad 1 drank
 * a potion: ESC O q; numpad 8 opened the cursor: ESC O x). */
static void test_escape_sequences(void **state)
{
	(void)state;
	const char finals[] = "pqrstuvwxy";
	for (int d = 0; d <= 9; d++) {
		char seq[3] = { 'O', finals[d], 0 };
		check_decode(seq, '0' + d);
	}
	int unread;
	size_t left;
	char seq[3] = { 'O', 'q', 0 };
	assert_int_equal(input_key(decode(seq, &unread, &left)).kind, INPUT_MOVE);
	assert_int_equal(input_key(decode(seq, &unread, &left)).dir, GRID_SW);
	seq[1] = 'x';
	assert_int_equal(input_key(decode(seq, &unread, &left)).dir, GRID_N);
	seq[1] = 'u';
	assert_int_equal(input_key(decode(seq, &unread, &left)).kind, INPUT_WAIT);
	check_decode("OM", '\n');
	assert_int_equal(input_key('\n').kind, INPUT_CONFIRM);
	check_decode("Ok", '+');
	check_decode("On", '.');
	check_decode("OA", INPUT_UP);
	check_decode("OD", INPUT_LEFT);
	check_decode("OE", INPUT_B2);
	check_decode("[E", INPUT_B2);
	check_decode("[B", INPUT_DOWN);
	check_decode("[5~", INPUT_PGUP);
	check_decode("[6~", INPUT_PGDN);
	check_decode("[1~", INPUT_HOME);
	check_decode("[4~", INPUT_END);
	check_decode("[3~", INPUT_ESC);
	/* Alt with a key is the key */
	check_decode("l", 'l');
	check_decode("q", 'q');
	check_decode("5", '5');
	/* Escape alone */
	check_decode("", INPUT_ESC);
	/* Escape, then another sequence: the second ESC is read again */
	assert_int_equal(decode("\033", &unread, &left), INPUT_ESC);
	assert_int_equal(unread, 27);
	/* Alt-O, then a key that is no keypad's: both */
	assert_int_equal(decode("Oz", &unread, &left), 'O');
	assert_int_equal(unread, 'z');
	check_decode("O", 'O');
	/* a mouse report ncurses did not take means nothing, and eats itself */
	check_decode("[M !!", INPUT_ESC);
	check_decode("[<0;3;4M", INPUT_ESC);
	/* cut short */
	check_decode("[12", INPUT_ESC);
	/* a control byte ends a would-be sequence: read again */
	assert_int_equal(decode("[1\t", &unread, &left), INPUT_ESC);
	assert_int_equal(unread, '\t');
}

/* xterm's extended keypad names (ncurses gives them codes of their own). */
static void test_keypad_names(void **state)
{
	(void)state;
	assert_int_equal(input_key_named("ka2"), '8');
	assert_int_equal(input_key(input_key_named("ka2")).dir, GRID_N);
	assert_int_equal(input_key_named("kc2"), '2');
	assert_int_equal(input_key_named("kb1"), '4');
	assert_int_equal(input_key_named("kb3"), '6');
	assert_int_equal(input_key_named("kpZRO"), '0');
	assert_int_equal(input_key_named("kpDOT"), '.');
	assert_int_equal(input_key_named("KEY_UP"), -1);
	assert_int_equal(input_key_named(NULL), -1);
}

/* Arrow keys on every grid: on hex, up and down alternate between the two
 * upper (lower) neighbours so that two presses go two rows straight up
 * (down) the same screen column; on diamond4 the arrows take the edge
 * steps that way round on the screen.  Keys other than the arrows and up
 * and down keep their direction. */
static void test_move_dir_on_every_grid(void **state)
{
	(void)state;
	struct grid *hex = grid_create(9, 9, GRID_HEX);
	for (int y0 = 3; y0 <= 4; y0++) {
		const int keys[2] = { INPUT_UP, 'j' };
		for (int k = 0; k < 2; k++) {
			enum grid_dir d0 = k == 0 ? GRID_N : GRID_S;
			int x = 4, y = y0, col0, row0;
			grid_cell_to_screen(hex, x, y, &col0, &row0);
			for (int step = 0; step < 2; step++) {
				enum grid_dir d = input_move_dir(GRID_HEX, keys[k], d0, y);
				int nx, ny;
				assert_true(grid_dir_step(hex, x, y, d, &nx, &ny));
				x = nx;
				y = ny;
			}
			int col, row;
			grid_cell_to_screen(hex, x, y, &col, &row);
			assert_int_equal(col, col0);
			assert_int_equal(row, row0 + (k == 0 ? -2 : 2));
		}
	}
	assert_int_equal(input_move_dir(GRID_HEX, 'y', GRID_NW, 4), GRID_NW);
	assert_int_equal(input_move_dir(GRID_HEX, 'l', GRID_E, 4), GRID_E);
	grid_destroy(hex);

	struct grid *dia = grid_create(9, 9, GRID_DIAMOND4);
	const int arrows[4] = { INPUT_UP, INPUT_RIGHT, INPUT_DOWN, INPUT_LEFT };
	const enum grid_dir table[4] = { GRID_N, GRID_E, GRID_S, GRID_W };
	for (int a = 0; a < 4; a++) {
		enum grid_dir d = input_move_dir(GRID_DIAMOND4, arrows[a], table[a], 4);
		int nx, ny, col0, row0, col, row;
		assert_true(grid_dir_step(dia, 4, 4, d, &nx, &ny));
		grid_cell_to_screen(dia, 4, 4, &col0, &row0);
		grid_cell_to_screen(dia, nx, ny, &col, &row);
		/* up: a row up and to the right; then clockwise */
		const int dcol[4] = { 1, 1, -1, -1 }, drow[4] = { -1, 1, 1, -1 };
		assert_int_equal(col - col0 > 0 ? 1 : -1, dcol[a]);
		assert_int_equal(row - row0, drow[a]);
	}
	/* k is no arrow: diamond4 keeps its meaning (and says there is none) */
	assert_int_equal(input_move_dir(GRID_DIAMOND4, 'k', GRID_N, 4), GRID_N);
	grid_destroy(dia);
	/* square maps: as the table */
	assert_int_equal(input_move_dir(GRID_SQUARE8, INPUT_UP, GRID_N, 3), GRID_N);
	assert_int_equal(input_move_dir(GRID_SQUARE4, INPUT_LEFT, GRID_W, 3), GRID_W);
	assert_int_equal(input_move_dir(GRID_DIAMOND8, INPUT_UP, GRID_N, 3), GRID_N);
}

static void test_other_keys(void **state)
{
	(void)state;
	assert_int_equal(input_key('>').kind, INPUT_DESCEND);
	assert_int_equal(input_key('?').kind, INPUT_HELP);
	assert_int_equal(input_key('P').kind, INPUT_HISTORY);
	assert_int_equal(input_key(INPUT_CTRL('p')).kind, INPUT_HISTORY);
	assert_int_equal(input_key('q').kind, INPUT_QUAFF);
	assert_int_equal(input_key('Q').kind, INPUT_QUIT);
	assert_int_equal(input_key(INPUT_CTRL('q')).kind, INPUT_QUIT);
	assert_int_equal(input_key('o').kind, INPUT_EXPLORE);
	assert_int_equal(input_key('i').kind, INPUT_INVENTORY);
	assert_int_equal(input_key('\t').kind, INPUT_NEXT);
	assert_int_equal(input_key('_').kind, INPUT_CURSOR);
	assert_int_equal(input_key('x').kind, INPUT_CURSOR);
	assert_int_equal(input_key('r').kind, INPUT_ROUTES);
	assert_int_equal(input_key('\r').kind, INPUT_CONFIRM);
	assert_int_equal(input_key(INPUT_ENTER).kind, INPUT_CONFIRM);
	assert_int_equal(input_key(INPUT_ESC).kind, INPUT_CANCEL);
	assert_int_equal(input_key('Z').kind, INPUT_NONE);
	/* the keys that mean nothing on hex are exactly the vertical ones */
	assert_true(input_is_vertical(input_key('k').dir));
	assert_true(input_is_vertical(input_key('2').dir));
	assert_true(input_is_vertical(input_key(INPUT_DOWN).dir));
	assert_false(input_is_vertical(input_key('u').dir));
	assert_false(input_is_vertical(input_key('h').dir));
}

static void test_click_forms_act_once(void **state)
{
	(void)state;
	struct input_click c = { { false } };
	/* CLICKED acts */
	assert_true(input_click_event(&c, INPUT_BUTTON_LEFT, INPUT_CLICKED));
	/* PRESSED then RELEASED acts once, on the release */
	assert_false(input_click_event(&c, INPUT_BUTTON_LEFT, INPUT_PRESSED));
	assert_true(input_click_event(&c, INPUT_BUTTON_LEFT, INPUT_RELEASED));
	/* a lone RELEASED (its press went elsewhere) does nothing */
	assert_false(input_click_event(&c, INPUT_BUTTON_LEFT, INPUT_RELEASED));
	/* buttons are independent */
	assert_false(input_click_event(&c, INPUT_BUTTON_RIGHT, INPUT_PRESSED));
	assert_false(input_click_event(&c, INPUT_BUTTON_LEFT, INPUT_RELEASED));
	assert_true(input_click_event(&c, INPUT_BUTTON_RIGHT, INPUT_RELEASED));
	/* a CLICKED after a lone PRESSED acts once and clears it */
	assert_false(input_click_event(&c, INPUT_BUTTON_LEFT, INPUT_PRESSED));
	assert_true(input_click_event(&c, INPUT_BUTTON_LEFT, INPUT_CLICKED));
	assert_false(input_click_event(&c, INPUT_BUTTON_LEFT, INPUT_RELEASED));
}

static void test_view_small_map_centred(void **state)
{
	(void)state;
	int o = -1;
	input_view_follow(&o, 3, 10, 40);
	assert_int_equal(o, -15);
	input_view_follow(&o, 9, 10, 40);
	assert_int_equal(o, -15);
}

static void test_view_scrolls_and_clamps(void **state)
{
	(void)state;
	int o = -1;
	input_view_follow(&o, 5, 200, 80);
	assert_int_equal(o, 0); /* near the left edge: clamped */
	input_view_follow(&o, 50, 200, 80);
	assert_int_equal(o, 0); /* inside the margins: no scroll */
	input_view_follow(&o, 61, 200, 80);
	assert_int_equal(o, 21); /* past three quarters: recentred */
	input_view_follow(&o, 199, 200, 80);
	assert_int_equal(o, 120); /* never past the far edge */
	for (int p = 0; p < 200; p++) {
		input_view_follow(&o, p, 200, 80);
		assert_true(p >= o && p < o + 80);
	}
}

static void test_click_to_cell_square(void **state)
{
	(void)state;
	struct grid *g = grid_create(100, 50, GRID_SQUARE8);
	assert_non_null(g);
	struct input_view v = { .top = 2, .left = 0, .width = 80, .height = 21, .col0 = 10, .row0 = 5 };
	int x, y, col, row;
	input_screen_to_cell(&v, g, 7, 4, &x, &y);
	assert_int_equal(x, 17);
	assert_int_equal(y, 7);
	assert_true(input_cell_to_screen(&v, g, 17, 7, &col, &row));
	assert_int_equal(col, 7);
	assert_int_equal(row, 4);
	/* the message rows above the map go to the nearest row of the map shown */
	input_screen_to_cell(&v, g, 0, 0, &x, &y);
	assert_int_equal(x, 10);
	assert_int_equal(y, 3);
	assert_false(input_cell_to_screen(&v, g, 0, 0, &col, &row));
	grid_destroy(g);
}

static void test_click_to_cell_hex(void **state)
{
	(void)state;
	struct grid *g = grid_create(10, 6, GRID_HEX);
	assert_non_null(g);
	/* a centred map: its text column 0 is at screen column 5 */
	struct input_view v = { .top = 2, .left = 0, .width = 30, .height = 10, .col0 = -5, .row0 = -2 };
	int x, y, col, row;
	assert_true(input_cell_to_screen(&v, g, 3, 1, &col, &row));
	assert_int_equal(col, 5 + 7);
	assert_int_equal(row, 2 + 2 + 1);
	input_screen_to_cell(&v, g, col, row, &x, &y);
	assert_int_equal(x, 3);
	assert_int_equal(y, 1);
	/* between two cells of row 1 (text column 8): a neighbouring cell */
	input_screen_to_cell(&v, g, 5 + 8, row, &x, &y);
	assert_int_equal(y, 1);
	assert_true(x == 3 || x == 4);
	/* far outside: clamped to the nearest cell */
	input_screen_to_cell(&v, g, 200, 200, &x, &y);
	assert_int_equal(x, 9);
	assert_int_equal(y, 5);
	input_screen_to_cell(&v, g, 0, 0, &x, &y);
	assert_int_equal(x, 0);
	assert_int_equal(y, 0);
	grid_destroy(g);
}

/* Issue 13: a click's screen position comes from the terminal and may be
 * any int; far outside it goes to the nearest cell, with no overflow
 * (UBSan stops this test if a sum overflows). */
static void test_huge_click_goes_to_nearest_cell(void **state)
{
	(void)state;
	struct grid *g = grid_create(30, 20, GRID_SQUARE8);
	struct grid *h = grid_create(30, 20, GRID_HEX);
	assert_non_null(g);
	assert_non_null(h);
	struct input_view v = { .top = 2, .left = 0, .width = 80, .height = 20, .col0 = -5, .row0 = 3 };
	int x, y;
	input_screen_to_cell(&v, g, 2147483647, 10, &x, &y);
	assert_int_equal(x, 29);
	assert_int_equal(y, 11);
	input_screen_to_cell(&v, g, -2147483647 - 1, -2147483647 - 1, &x, &y);
	assert_int_equal(x, 0);
	assert_int_equal(y, 0);
	input_screen_to_cell(&v, h, 2147483647, 2147483647, &x, &y);
	assert_int_equal(x, 29);
	assert_int_equal(y, 19);
	struct input_view far = { .top = -2147483647, .left = 2147483647, .width = 1, .height = 1,
				  .col0 = 2147483647, .row0 = -2147483647 };
	input_screen_to_cell(&far, h, -2147483647, 2147483647, &x, &y);
	assert_true(x >= 0 && x < 30 && y >= 0 && y < 20);
	grid_destroy(g);
	grid_destroy(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vi_keys),
		cmocka_unit_test(test_arrows_and_numpad),
		cmocka_unit_test(test_other_keys),
		cmocka_unit_test(test_escape_sequences),
		cmocka_unit_test(test_keypad_names),
		cmocka_unit_test(test_move_dir_on_every_grid),
		cmocka_unit_test(test_click_forms_act_once),
		cmocka_unit_test(test_view_small_map_centred),
		cmocka_unit_test(test_view_scrolls_and_clamps),
		cmocka_unit_test(test_click_to_cell_square),
		cmocka_unit_test(test_click_to_cell_hex),
		cmocka_unit_test(test_huge_click_goes_to_nearest_cell),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
