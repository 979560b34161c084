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
	assert_int_equal(input_key('5').kind, INPUT_REST);
	assert_int_equal(input_key('R').kind, INPUT_REST);
	assert_int_equal(input_key('s').kind, INPUT_WAIT);
	assert_int_equal(input_key(INPUT_B2).kind, INPUT_WAIT);
	assert_int_equal(input_key('.').kind, INPUT_WAIT);
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
		cmocka_unit_test(test_click_forms_act_once),
		cmocka_unit_test(test_view_small_map_centred),
		cmocka_unit_test(test_view_scrolls_and_clamps),
		cmocka_unit_test(test_click_to_cell_square),
		cmocka_unit_test(test_click_to_cell_hex),
		cmocka_unit_test(test_huge_click_goes_to_nearest_cell),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
