/*
 * test_keys.c - keys that do what they say on every terminal (issue 30;
 * $ASTRAY_BIN, built with the sanitizers, in a pseudo-terminal under
 * TERM=xterm-256color, whose key table lacks most application-mode keypad
 * keys): ESC O q (numpad 1, as PuTTY and tmux send it) steps south-west
 * and drinks nothing, ESC O x (numpad 8) steps north and opens no cursor,
 * ESC O u (numpad 5) waits, Alt-l steps east; the up arrow moves on a hex
 * map (two presses: straight up the same column); a click on an adjacent
 * monster attacks it; > in the travel cursor goes to the known stairs,
 * and > off the stairs travels to them.
 */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "pty_check.h"
#include "run_capture.h"

static void start(struct pty *p, const char *level)
{
	char *argv[] = { (char *)test_bin(), (char *)"play",      (char *)level,
			 (char *)"--seed",   (char *)"1",         (char *)"--no-save",
			 (char *)"--bestiary", (char *)"levels/bestiary.txt", (char *)"--set",
			 (char *)"goblin.sleep=0", NULL };
	assert_true(pty_start(p, 24, 80, argv));
	if (!pty_wait_text(p, "Turn 0", WAIT_MS) || !pty_wait_idle(p, WAIT_MS))
		pty_fail(p, "the game did not start");
	pty_dismiss_more(p);
}

static void quit(struct pty *p)
{
	pty_wait_idle(p, WAIT_MS);
	for (int i = 0; i < 10 && pty_find(p, "--More--", NULL, NULL); i++)
		pty_send_idle(p, " ");
	pty_send(p, "Q");
	if (!pty_wait_text(p, "Really quit", WAIT_MS))
		pty_fail(p, "no quit question");
	pty_send(p, "y");
	assert_true(pty_wait_exit(p, WAIT_MS));
	assert_true(WIFEXITED(p->status));
	pty_close(p);
}

/* The screen position of '@'. */
static void player_at(struct pty *p, int *row, int *col)
{
	if (!pty_find(p, "@", row, col))
		pty_fail(p, "no @ on the screen");
}

/* Sends keys and waits for the turn counter to read `turn`; the player
 * then stands (drow, dcol) from where it stood. */
static void step(struct pty *p, const char *keys, int turn, int drow, int dcol, const char *what)
{
	int r0, c0, r, c;
	player_at(p, &r0, &c0);
	char want[32];
	snprintf(want, sizeof want, "Turn %d ", turn);
	pty_send(p, keys);
	if (!pty_wait_text(p, want, WAIT_MS) || !pty_wait_idle(p, WAIT_MS))
		pty_fail(p, what);
	player_at(p, &r, &c);
	if (r != r0 + drow || c != c0 + dcol) {
		char msg[200];
		snprintf(msg, sizeof msg, "%s: @ from row %d col %d to row %d col %d", what, r0, c0, r, c);
		pty_fail(p, msg);
	}
}

static void test_keypad_application_mode(void **state)
{
	(void)state;
	struct pty p;
	start(&p, "tests/levels/e2e/square.lvl"); /* the player at (3,2) */
	step(&p, "\033Oq", 1, 1, -1, "numpad 1 (ESC O q) did not step south-west");
	if (pty_find(&p, "potion", NULL, NULL) || pty_find(&p, "drink", NULL, NULL))
		pty_fail(&p, "numpad 1 tried to drink");
	step(&p, "\033Ox", 2, -1, 0, "numpad 8 (ESC O x) did not step north");
	if (pty_find(&p, "Move the cursor", NULL, NULL))
		pty_fail(&p, "numpad 8 opened the travel cursor");
	step(&p, "\033Ou", 3, 0, 0, "numpad 5 (ESC O u) did not wait a turn");
	step(&p, "\033l", 4, 0, 1, "Alt-l did not step east");
	step(&p, "\033Ov", 5, 0, 1, "numpad 6 (ESC O v) did not step east");
	quit(&p);
}

/* On a hex map the up and down arrows step up and down, alternating the
 * two neighbours: two presses, two rows straight down the same column. */
static void test_hex_arrows(void **state)
{
	(void)state;
	struct pty p;
	start(&p, "tests/levels/e2e/hex.lvl"); /* the player at (3,2), row 2 */
	int r0, c0, r1, c1;
	player_at(&p, &r0, &c0);
	step(&p, "\033[A", 1, -1, 1, "the up arrow did not step up on hex");
	step(&p, "\033[B", 2, 1, -1, "the down arrow did not step down on hex");
	player_at(&p, &r1, &c1);
	if (r1 != r0 || c1 != c0)
		pty_fail(&p, "up then down did not come back");
	step(&p, "\033[B", 3, 1, 1, "the down arrow did not step down on hex");
	step(&p, "\033[B", 4, 1, -1, "the second down arrow did not keep the column");
	step(&p, "\033Ox", 5, -1, 1, "numpad 8 (ESC O x) did not step up on hex");
	quit(&p);
}

static void write_level(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

/* A click on the goblin next to the player attacks it (a turn goes by,
 * the player stays); travel would have said nothing useful. */
static void test_click_attacks(void **state)
{
	(void)state;
	char dir[64] = "/tmp/astray-keys-test-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[128];
	snprintf(path, sizeof path, "%s/a.lvl", dir);
	write_level(path, "astray-level 1\nname: Click\ntopology: square8\nmap:\n"
			  "#######\n#@g...#\n#....>#\n#######\n");
	struct pty p;
	start(&p, path);
	int r, c;
	player_at(&p, &r, &c);
	pty_click(&p, 0, c + 1, r, false);
	if (!pty_wait_text(&p, "Turn 1 ", WAIT_MS) || !pty_wait_idle(&p, WAIT_MS))
		pty_fail(&p, "a click on the adjacent goblin took no turn");
	int r2, c2;
	player_at(&p, &r2, &c2);
	if (r2 != r || c2 != c)
		pty_fail(&p, "the player moved instead of attacking");
	if (!pty_find(&p, "goblin", NULL, NULL))
		pty_fail(&p, "no word of the attack");
	quit(&p);
	snprintf(path, sizeof path, "rm -rf -- '%s'", dir);
	assert_int_equal(system(path), 0);
}

/* On hex, when the upper cell that keeps the column is a wall the player
 * sees, up takes the other upper cell. */
static void test_hex_up_around_a_wall(void **state)
{
	(void)state;
	char dir[64] = "/tmp/astray-keys-test-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[128];
	snprintf(path, sizeof path, "%s/h.lvl", dir);
	write_level(path, "astray-level 1\nname: Hex Wall\ntopology: hex\nmap:\n"
			  "# # # # # # # #\n"
			  " # . . # . . . #\n"
			  "# . . @ . . . #\n"
			  " # . . . . . > #\n"
			  "# # # # # # # #\n");
	struct pty p;
	start(&p, path);
	step(&p, "\033[A", 1, -1, -1, "up did not take the open upper cell");
	quit(&p);
	snprintf(path, sizeof path, "rm -rf -- '%s'", dir);
	assert_int_equal(system(path), 0);
}

/* > in the travel cursor puts it on the stairs seen; > on the map, off
 * the stairs, travels there. */
static void test_stairs_key(void **state)
{
	(void)state;
	struct pty p;
	start(&p, "tests/levels/e2e/square.lvl"); /* the stairs at (1,6) */
	pty_send_idle(&p, "x");
	pty_send(&p, ">");
	if (!pty_wait_text(&p, "stairs down", WAIT_MS) || !pty_find(&p, "(1,6)", NULL, NULL))
		pty_fail(&p, "> in the cursor did not go to the stairs");
	pty_send_idle(&p, "\033");
	pty_send(&p, ">");
	if (!pty_wait_text(&p, "There are stairs down here", WAIT_MS))
		pty_fail(&p, "> off the stairs did not travel to them");
	quit(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keypad_application_mode),
		cmocka_unit_test(test_hex_arrows),
		cmocka_unit_test(test_hex_up_around_a_wall),
		cmocka_unit_test(test_click_attacks),
		cmocka_unit_test(test_stairs_key),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
