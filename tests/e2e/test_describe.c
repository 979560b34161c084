/*
 * test_describe.c - what a player can learn of a cell (issue 30 item 8),
 * through the real program in a pseudo-terminal on tests/levels/e2e/
 * hidden.lvl (a goblin in view across a pool): a right click on the
 * goblin describes it in full (health, blow, speed, odds, how it hunts)
 * and takes no turn; v in the travel cursor describes the water (its
 * cost, what it does); an unexplored cell gets no box; any key returns;
 * ? explains costs and the corner rule with a picture of the grid; in the
 * pack a capital letter describes an item (items.lvl).
 */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pty_check.h"

static void start(struct pty *p, const char *level, int *row0, int *col0)
{
	char *argv[] = { (char *)pty_bin(), (char *)"play", (char *)level, (char *)"--seed", (char *)"1",
			 (char *)"--no-save", (char *)"--bestiary", (char *)"levels/bestiary.txt", (char *)"--set",
			 (char *)"goblin.sleep=0", (char *)"--set", (char *)"goblin.sight=0", NULL };
	assert_true(pty_start(p, 24, 80, argv));
	if (!pty_wait_text(p, "Turn 0", WAIT_MS) || !pty_wait_idle(p, WAIT_MS))
		pty_fail(p, "the game did not start");
	pty_dismiss_more(p);
	if (row0 && col0) {
		int row, col;
		if (!pty_find(p, "#@..~~~~", &row, &col))
			pty_fail(p, "the map is not where the test looks");
		*row0 = row - 1;
		*col0 = col;
	}
}

static void quit(struct pty *p)
{
	pty_send(p, "Q");
	if (!pty_wait_text(p, "Really quit", WAIT_MS))
		pty_fail(p, "Q did not ask");
	pty_send(p, "y");
	assert_true(pty_wait_exit(p, WAIT_MS));
	pty_close(p);
}

static void expect(struct pty *p, const char *text)
{
	pty_expect(p, text, WAIT_MS);
}

static void test_right_click_describes_a_monster(void **state)
{
	(void)state;
	struct pty p;
	int r0, c0;
	start(&p, "tests/levels/e2e/hidden.lvl", &r0, &c0);
	pty_click(&p, 2, c0 + 9, r0 + 1, false); /* the goblin at (9,1) */
	expect(&p, "How it hunts (");
	expect(&p, "Health ");
	expect(&p, "damage.  Speed:");
	expect(&p, "It hits you ");
	expect(&p, "any key or click returns");
	assert_true(pty_wait_idle(&p, WAIT_MS));
	assert_int_equal(pty_turn(&p), 0); /* looking takes no time */
	pty_send(&p, " ");
	if (!pty_wait_gone(&p, "How it hunts", WAIT_MS))
		pty_fail(&p, "a key did not close the description");
	assert_true(pty_wait_idle(&p, WAIT_MS));
	assert_int_equal(pty_turn(&p), 0);
	quit(&p);
}

static void test_cursor_describes_terrain(void **state)
{
	(void)state;
	struct pty p;
	start(&p, "tests/levels/e2e/hidden.lvl", NULL, NULL);
	pty_send(&p, "x");
	expect(&p, "CURSOR");
	pty_send(&p, "lll"); /* the pool at (4,1) */
	expect(&p, "(4,1)");
	pty_send(&p, "v");
	expect(&p, "shallow water");
	expect(&p, "Cost to enter: 3 (floor is 1)");
	expect(&p, "1.4 diagonal");
	pty_send(&p, "\033");
	if (!pty_wait_gone(&p, "Cost to enter", WAIT_MS))
		pty_fail(&p, "Esc did not close the description");
	expect(&p, "CURSOR"); /* back in the cursor */
	/* a cell never seen: the line says unexplored, no box */
	pty_send(&p, "jjjj");
	expect(&p, "(4,5): ");
	expect(&p, "; unexplored");
	pty_send(&p, ";");
	assert_true(pty_wait_idle(&p, WAIT_MS));
	assert_false(pty_find(&p, "Cost to enter", NULL, NULL));
	assert_false(pty_find(&p, "any key or click returns", NULL, NULL));
	pty_send(&p, "\033");
	assert_true(pty_wait_idle(&p, WAIT_MS));
	quit(&p);
}

/* Pages the help down until text shows or its end is reached. */
static bool help_has(struct pty *p, const char *text)
{
	for (int i = 0; i < 12; i++) {
		if (pty_find(p, text, NULL, NULL))
			return true;
		pty_send(p, "\033[6~"); /* PgDn */
		pty_wait_idle(p, WAIT_MS);
	}
	return pty_find(p, text, NULL, NULL);
}

static void help_shows(const char *level, const char *picture)
{
	struct pty p;
	start(&p, level, NULL, NULL);
	pty_send(&p, "?");
	expect(&p, "astray - keys");
	assert_true(pty_wait_idle(&p, WAIT_MS));
	if (!help_has(&p, "The corner rule") && !help_has(&p, "no corners"))
		pty_fail(&p, "the help does not explain corners");
	if (!help_has(&p, picture))
		pty_fail(&p, "the help has no picture of this grid");
	pty_send(&p, "\033");
	assert_true(pty_wait_idle(&p, WAIT_MS));
	quit(&p);
}

/* In the pack a capital letter tells what the item does, takes no turn,
 * and goes back to the pack; an item on the floor says it too. */
static void test_pack_capital_describes(void **state)
{
	(void)state;
	struct pty p;
	start(&p, "tests/levels/e2e/items.lvl", NULL, NULL);
	pty_send(&p, "llll"); /* a potion, a scroll, a weapon, stones */
	expect(&p, "stone (x8)");
	assert_true(pty_wait_idle(&p, WAIT_MS));
	const int turn = pty_turn(&p);
	pty_send(&p, "i");
	expect(&p, "a capital letter tells what it does");
	pty_send(&p, "D");
	expect(&p, "Ammunition: fired from a sling");
	expect(&p, "breaks half the time");
	pty_send(&p, "\033");
	if (!pty_wait_gone(&p, "Ammunition: fired", WAIT_MS))
		pty_fail(&p, "Esc did not close the description");
	expect(&p, "a capital letter tells what it does"); /* back in the pack */
	pty_send(&p, "A");
	expect(&p, "Unknown: drink it"); /* the potion is not known yet */
	pty_send(&p, " ");
	expect(&p, "a capital letter tells what it does");
	pty_send(&p, "\033");
	if (!pty_wait_gone(&p, "a capital letter", WAIT_MS))
		pty_fail(&p, "Esc did not close the pack");
	assert_true(pty_wait_idle(&p, WAIT_MS));
	assert_int_equal(pty_turn(&p), turn); /* reading takes no time */
	quit(&p);
}

static void test_help_costs_and_corners(void **state)
{
	(void)state;
	help_shows("tests/levels/e2e/hidden.lvl", "floor . 1");
	help_shows("tests/levels/e2e/hidden.lvl", "#x");
	help_shows("tests/levels/e2e/hex.lvl", "hex:");
	help_shows("tests/levels/e2e/diamond4.lvl", "diamond4:");
	help_shows("tests/levels/e2e/diamond8.lvl", "diamond8:");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_right_click_describes_a_monster),
		cmocka_unit_test(test_cursor_describes_terrain),
		cmocka_unit_test(test_help_costs_and_corners),
		cmocka_unit_test(test_pack_capital_describes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
