/*
 * test_diamond.c - diamond maps played in a pseudo-terminal ($ASTRAY_BIN,
 * built with the sanitizers): the edge keys y u b n and, on diamond8, the
 * corner keys h l k j (and numpad, arrows) move the player; on diamond4 the
 * corner keys say they have no meaning; a click walks to a cell, a click
 * on a wall walks to the cut point, a click between two cells (a text
 * column of the wrong parity) resolves to the cell on its left.  Positions
 * are found on the screen from the '@', and a cell (x, y) is drawn at text
 * column 2x + (y & 1) from there (DESIGN section 2).
 */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "pty_check.h"
#include "run_capture.h"

#define D8 "tests/levels/e2e/diamond8.lvl"
#define D4 "tests/levels/e2e/diamond4.lvl"

struct dm {
	struct pty p;
	int ox, oy; /* screen position of map text column 0, row 0 */
};

static void dm_fail(struct dm *e, const char *what)
{
	pty_fail(&e->p, what);
}

/* The screen position of text column X, row Y of the map. */
static void dm_screen(const struct dm *e, int X, int Y, int *col, int *row)
{
	*col = e->ox + X;
	*row = e->oy + Y;
}

/* Waits for the '@' at text column X, row Y (a cell: X = 2x + (Y & 1)). */
static void dm_wait_at(struct dm *e, int X, int Y)
{
	int col, row;
	dm_screen(e, X, Y, &col, &row);
	if (!pty_wait_char_at(&e->p, '@', row, col, WAIT_MS)) {
		char what[96];
		snprintf(what, sizeof what, "the player never reached text column %d, row %d", X, Y);
		dm_fail(e, what);
	}
}

static int dm_turn(struct dm *e)
{
	return pty_turn(&e->p);
}

/* Travel is over: what set it off taken in, no "TRAVEL: any key stops"
 * on the status line, and that frame whole. */
static void dm_wait_still(struct dm *e)
{
	if (!pty_wait_idle(&e->p, WAIT_MS) || !pty_wait_gone(&e->p, "any key stops", WAIT_MS) ||
	    !pty_wait_idle(&e->p, WAIT_MS))
		dm_fail(e, "travel never stopped");
}

/* Starts the game; the player stands at text column X, row Y. */
static void dm_start(struct dm *e, const char *level, int X, int Y)
{
	char *argv[] = { (char *)test_bin(), (char *)"play", (char *)level, (char *)"--seed", (char *)"1", NULL };
	assert_true(pty_start(&e->p, 24, 80, argv));
	if (!pty_wait_text(&e->p, "Turn 0", WAIT_MS) || !pty_wait_idle(&e->p, WAIT_MS))
		dm_fail(e, "the game did not start");
	for (int r = 0; r < e->p.rows; r++)
		for (int c = 0; c < e->p.cols; c++)
			if (pty_char(&e->p, r, c) == '@') {
				e->ox = c - X;
				e->oy = r - Y;
				return;
			}
	dm_fail(e, "no @ on the screen");
}

static void dm_quit(struct dm *e)
{
	pty_send(&e->p, "Q");
	if (!pty_wait_text(&e->p, "Really quit", WAIT_MS))
		dm_fail(e, "no quit question");
	pty_send(&e->p, "y");
	assert_true(pty_wait_exit(&e->p, WAIT_MS));
	assert_true(WIFEXITED(e->p.status));
	assert_int_equal(WEXITSTATUS(e->p.status), 0);
	pty_close(&e->p);
}

static int dm_setup(void **state)
{
	struct dm *e = calloc(1, sizeof *e);
	if (!e)
		return -1;
	e->p.fd = -1;
	e->p.pid = -1;
	*state = e;
	return 0;
}

static int dm_teardown(void **state)
{
	struct dm *e = *state;
	if (e->p.vt)
		pty_close(&e->p);
	free(e);
	return 0;
}

/* The player starts at cell (3, 3): text column 7, row 3. */
static void test_diamond8_keys(void **state)
{
	struct dm *e = *state;
	dm_start(e, D8, 7, 3);
	static const struct {
		const char *key;
		int X, Y;
	} steps[] = {
		{ "n", 8, 4 },  /* edge step down-right */
		{ "l", 10, 4 }, /* corner step: two columns right */
		{ "j", 10, 6 }, /* corner step: two rows down */
		{ "y", 9, 5 },  /* edge step up-left */
		{ "k", 9, 3 },  /* corner step: two rows up */
		{ "h", 7, 3 },  /* corner step: two columns left */
		{ "b", 6, 4 },  /* edge step down-left */
		{ "u", 7, 3 },  /* edge step up-right */
		{ "3", 8, 4 },  /* numpad: edge steps 7 9 1 3, corner steps 4 6 8 2 */
		{ "6", 10, 4 },
		{ "2", 10, 6 },
		{ "7", 9, 5 },
		{ "8", 9, 3 },
		{ "4", 7, 3 },
		{ "1", 6, 4 },
		{ "9", 7, 3 },
		{ "\033OC", 9, 3 }, /* arrows: the corner steps */
		{ "\033OB", 9, 5 },
		{ "\033OD", 7, 5 },
		{ "\033OA", 7, 3 },
	};
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
		pty_send(&e->p, steps[i].key);
		dm_wait_at(e, steps[i].X, steps[i].Y);
	}
	assert_true(pty_wait_idle(&e->p, WAIT_MS));
	assert_int_equal(dm_turn(e), 20);
	dm_quit(e);
}

static void test_diamond4_corner_keys_refused(void **state)
{
	struct dm *e = *state;
	dm_start(e, D4, 7, 3);
	pty_send(&e->p, "l");
	if (!pty_wait_text(&e->p, "No corner steps on a diamond4 map", WAIT_MS))
		dm_fail(e, "l on diamond4 did not say it has no meaning");
	assert_true(pty_send_idle(&e->p, "k"));
	assert_int_equal(dm_turn(e), 0); /* no time spent */
	/* the arrows turn to the edge steps: up is u, down is b */
	pty_send(&e->p, "\033OA");
	dm_wait_at(e, 8, 2);
	pty_send(&e->p, "\033OB");
	dm_wait_at(e, 7, 3);
	pty_send(&e->p, "n");
	dm_wait_at(e, 8, 4);
	pty_send(&e->p, "9");
	dm_wait_at(e, 9, 3);
	dm_quit(e);
}

/* Click on the cell (6, 5): text column 13, row 5. */
static void click_cell(void **state, const char *level)
{
	struct dm *e = *state;
	dm_start(e, level, 7, 3);
	int col, row;
	dm_screen(e, 13, 5, &col, &row);
	pty_click(&e->p, 0, col, row, false);
	dm_wait_at(e, 13, 5);
	dm_wait_still(e);
	dm_wait_at(e, 13, 5);
	/* diamond8: two edge and two corner steps; diamond4: six edge steps */
	assert_int_equal(dm_turn(e), strstr(level, "diamond8") ? 4 : 6);
	dm_quit(e);
}

static void test_click_walks_diamond8(void **state) { click_cell(state, D8); }
static void test_click_walks_diamond4(void **state) { click_cell(state, D4); }

/* The wall at cell (7, 4), text column 14: the walk stops at (6, 3),
 * text column 13, row 3, the cell before it (astray path --fallback). */
static void click_wall(void **state, const char *level)
{
	struct dm *e = *state;
	dm_start(e, level, 7, 3);
	int col, row;
	dm_screen(e, 14, 4, &col, &row);
	pty_click(&e->p, 0, col, row, false);
	/* The walk stops next to the wall at the fallback's cut point.  On
	 * diamond8 two cells beside it tie (an edge step from 13,3 and a
	 * corner step from 12,4 cost the same from the start), and the
	 * player's distance map may settle either; diamond4 has only 13,3. */
	int c1, r1, c2, r2;
	dm_screen(e, 13, 3, &c1, &r1);
	dm_screen(e, 12, 4, &c2, &r2);
	bool two = strcmp(level, D8) == 0;
	dm_wait_still(e);
	bool at1 = pty_char(&e->p, r1, c1) == '@';
	bool at2 = two && pty_char(&e->p, r2, c2) == '@';
	if (!at1 && !at2)
		dm_fail(e, "the walk did not stop at the cut point beside the wall");
	dm_quit(e);
}

static void test_click_wall_diamond8(void **state) { click_wall(state, D8); }
static void test_click_wall_diamond4(void **state) { click_wall(state, D4); }

/* Text column 14 of row 5 lies between the cells at columns 13 and 15: the
 * click takes the one on its left, (6, 5). */
static void test_click_between_cells(void **state)
{
	struct dm *e = *state;
	dm_start(e, D8, 7, 3);
	int col, row;
	dm_screen(e, 14, 5, &col, &row);
	pty_click(&e->p, 0, col, row, false);
	dm_wait_at(e, 13, 5);
	dm_wait_still(e);
	dm_wait_at(e, 13, 5);
	dm_quit(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_diamond8_keys, dm_setup, dm_teardown),
		cmocka_unit_test_setup_teardown(test_diamond4_corner_keys_refused, dm_setup, dm_teardown),
		cmocka_unit_test_setup_teardown(test_click_walks_diamond8, dm_setup, dm_teardown),
		cmocka_unit_test_setup_teardown(test_click_walks_diamond4, dm_setup, dm_teardown),
		cmocka_unit_test_setup_teardown(test_click_wall_diamond8, dm_setup, dm_teardown),
		cmocka_unit_test_setup_teardown(test_click_wall_diamond4, dm_setup, dm_teardown),
		cmocka_unit_test_setup_teardown(test_click_between_cells, dm_setup, dm_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
