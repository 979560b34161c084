/*
 * test_e2e.c - the real program ($ASTRAY_BIN, built with the sanitizers)
 * played in a pseudo-terminal, as a player would: keys, both forms of a
 * mouse click, resizes, a tiny terminal, Ctrl-C and SIGTERM.  The screen is
 * read back through libvterm (tests/lib/pty_driver.c).  Positions are found on the
 * screen (the '@'), never assumed, so the layout may change freely.
 */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <termios.h>
#include <unistd.h>

#include <cmocka.h>

#include "pty_check.h"
#include "run_capture.h"

#define SQUARE "tests/levels/e2e/square.lvl"
#define HEX "tests/levels/e2e/hex.lvl"
#define ITEMS "tests/levels/e2e/items.lvl"
#define UI_SIDE_W_TEST 28 /* the monster list's columns on a wide terminal (ui_curses_internal.h) */

struct e2e {
	struct pty p;
	int ox, oy;        /* screen position of map text column 0, row 0 */
	bool hex;
};

static _Noreturn void e2e_fail_dump(struct e2e *e, const char *what)
{
	pty_fail(&e->p, what);
}

/* Where the player's '@' is on the screen. */
static bool e2e_player(struct e2e *e, int *col, int *row)
{
	for (int r = 0; r < e->p.rows; r++)
		for (int c = 0; c < e->p.cols; c++)
			if (pty_char(&e->p, r, c) == '@') {
				*col = c;
				*row = r;
				return true;
			}
	return false;
}

/* Screen position of map cell (x, y). */
static void e2e_cell(const struct e2e *e, int x, int y, int *col, int *row)
{
	*col = e->ox + (e->hex ? 2 * x + (y & 1) : x);
	*row = e->oy + y;
}

static void e2e_wait_player_at(struct e2e *e, int x, int y)
{
	int col, row;
	e2e_cell(e, x, y, &col, &row);
	if (!pty_wait_char_at(&e->p, '@', row, col, WAIT_MS)) {
		char what[96];
		snprintf(what, sizeof what, "the player never reached cell %d,%d", x, y);
		e2e_fail_dump(e, what);
	}
}

/* Travel's end at cell x,y on game turn `turn`: the player there, the
 * "any key stops" hint gone and the status line at that turn; else the
 * test fails with `what`. */
static void e2e_wait_travel_done(struct e2e *e, int x, int y, int turn, const char *what)
{
	char status[24];
	snprintf(status, sizeof status, "Turn %d ", turn);
	e2e_wait_player_at(e, x, y);
	if (!pty_wait_gone(&e->p, "any key stops", WAIT_MS) || !pty_wait_text(&e->p, status, WAIT_MS))
		e2e_fail_dump(e, what);
}

/* The turn counter of the status line. */
static int e2e_turn(struct e2e *e)
{
	return pty_turn(&e->p);
}

/* Whether the game, idle after what was sent, shows turn `turn`. */
static bool e2e_idle_at_turn(struct e2e *e, int turn)
{
	if (!pty_wait_idle(&e->p, WAIT_MS))
		e2e_fail_dump(e, "the game did not take its input");
	return e2e_turn(e) == turn;
}

/* Waits until travel (or a run) is over: what set it off taken in, the
 * status line no longer says "TRAVEL: any key stops" (or RUNNING: ...),
 * and that frame whole. */
static void e2e_wait_still(struct e2e *e)
{
	if (!pty_wait_idle(&e->p, WAIT_MS) || !pty_wait_gone(&e->p, "any key stops", WAIT_MS) ||
	    !pty_wait_idle(&e->p, WAIT_MS))
		e2e_fail_dump(e, "travel never stopped");
}

/* Starts the game on a level; the player starts at (px, py). */
static void e2e_start(struct e2e *e, const char *level, int px, int py, int rows, int cols,
		      const char *const extra[])
{
	memset(e, 0, sizeof *e);
	e->hex = strstr(level, "hex") != NULL;
	char *argv[32];
	int n = 0;
	argv[n++] = (char *)test_bin();
	argv[n++] = (char *)"play";
	argv[n++] = (char *)level;
	argv[n++] = (char *)"--seed";
	argv[n++] = (char *)"1";
	for (int i = 0; extra && extra[i] && n < 31; i++)
		argv[n++] = (char *)extra[i];
	argv[n] = NULL;
	assert_true(pty_start(&e->p, rows, cols, argv));
	if (!pty_wait_text(&e->p, "Turn 0", WAIT_MS) || !pty_wait_idle(&e->p, WAIT_MS))
		e2e_fail_dump(e, "the game did not start");
	int col, row;
	if (!e2e_player(e, &col, &row))
		e2e_fail_dump(e, "no @ on the screen");
	e->ox = col - (e->hex ? 2 * px + (py & 1) : px);
	e->oy = row - py;
}

/* Q, y: the game quits as it should; the driver kept for a look at its output. */
static void e2e_quit_keep(struct e2e *e)
{
	pty_send(&e->p, "Q");
	if (!pty_wait_text(&e->p, "Really quit", WAIT_MS))
		e2e_fail_dump(e, "no quit question");
	pty_send(&e->p, "y");
	assert_true(pty_wait_exit(&e->p, WAIT_MS));
	assert_true(WIFEXITED(e->p.status));
	assert_int_equal(WEXITSTATUS(e->p.status), 0);
	assert_true(pty_log_has(&e->p, "seed=1 outcome=quit"));
	/* the exact command that plays the same game again */
	assert_true(pty_log_has(&e->p, "Play it again: astray play ") && pty_log_has(&e->p, " --seed 1\r\n"));
}

static void e2e_quit(struct e2e *e)
{
	e2e_quit_keep(e);
	pty_close(&e->p);
}

/* The terminal after the program: main screen, cursor shown, cooked mode. */
static void e2e_check_restored(struct e2e *e)
{
	assert_true(pty_log_has(&e->p, "\033[?1049h"));  /* it did enter the alternate screen */
	assert_false(e->p.altscreen);                    /* ...and left it */
	assert_true(pty_log_has(&e->p, "\033[?1049l"));
	assert_true(e->p.cursor_visible);
	struct termios t;
	if (tcgetattr(e->p.fd, &t) == 0) {
		assert_true(t.c_lflag & ECHO);
		assert_true(t.c_lflag & ICANON);
	}
}

/* Each test gets a fresh driver; the teardown ends the program and frees
 * everything even when an assertion jumped out of the test. */
static int e2e_setup(void **state)
{
	struct e2e *e = calloc(1, sizeof *e);
	if (!e)
		return -1;
	e->p.fd = -1;
	e->p.pid = -1;
	*state = e;
	return 0;
}

static int e2e_teardown(void **state)
{
	struct e2e *e = *state;
	if (e->p.vt)
		pty_close(&e->p);
	free(e);
	return 0;
}

static void test_vi_keys_square(void **state)
{
	struct e2e *e = *state;
	e2e_start(e, SQUARE, 3, 2, 24, 80, NULL);
	pty_send(&e->p, "l");
	e2e_wait_player_at(e, 4, 2);
	pty_send(&e->p, "j");
	e2e_wait_player_at(e, 4, 3);
	pty_send(&e->p, "n");
	e2e_wait_player_at(e, 5, 4);
	pty_send(&e->p, "y");
	e2e_wait_player_at(e, 4, 3);
	pty_send(&e->p, "h");
	e2e_wait_player_at(e, 3, 3);
	pty_send(&e->p, "k");
	e2e_wait_player_at(e, 3, 2);
	assert_true(e2e_idle_at_turn(e, 6));
	e2e_quit(e);
}

static void test_arrows_and_numpad_square(void **state)
{
	struct e2e *e = *state;
	e2e_start(e, SQUARE, 3, 2, 24, 80, NULL);
	/* keypad mode: the cursor keys send ESC O x (terminfo kcuf1 ...) */
	pty_send(&e->p, "\033OC");
	e2e_wait_player_at(e, 4, 2);
	pty_send(&e->p, "\033OB");
	e2e_wait_player_at(e, 4, 3);
	pty_send(&e->p, "\033OD");
	e2e_wait_player_at(e, 3, 3);
	pty_send(&e->p, "\033OA");
	e2e_wait_player_at(e, 3, 2);
	pty_send(&e->p, "3"); /* numpad digits */
	e2e_wait_player_at(e, 4, 3);
	pty_send(&e->p, "7");
	e2e_wait_player_at(e, 3, 2);
	pty_send(&e->p, ".");
	assert_true(e2e_idle_at_turn(e, 7));
	e2e_quit(e);
}

static void test_click_floor_walks_there(void **state)
{
	struct e2e *e = *state;
	e2e_start(e, SQUARE, 3, 2, 24, 80, NULL);
	int col, row;
	e2e_cell(e, 8, 5, &col, &row);
	pty_click(&e->p, 0, col, row, false);
	e2e_wait_player_at(e, 8, 5);
	e2e_wait_still(e);
	e2e_wait_player_at(e, 8, 5);
	assert_int_equal(e2e_turn(e), 5); /* one step per turn, octile: 5 steps */
	e2e_quit(e);
}

/* items.lvl started, and its four items walked over into the pack. */
static void e2e_take_items(struct e2e *e)
{
	e2e_start(e, ITEMS, 1, 1, 24, 80, NULL);
	for (int x = 2; x <= 5; x++) {
		pty_send(&e->p, "l");
		e2e_wait_player_at(e, x, 1);
		pty_send(&e->p, " "); /* past a --More-- if one is up */
	}
}

/* Items: walking over them fills the pack; i shows it with letters, a
 * click on a line uses that item (a potion: quaffed and named); q with
 * nothing to quaff says so; w opens the weapons. */
static void test_pack_click_uses_item(void **state)
{
	struct e2e *e = *state;
	e2e_take_items(e);
	pty_send(&e->p, "i");
	if (!pty_wait_text(&e->p, "Your pack", WAIT_MS) || !pty_wait_idle(&e->p, WAIT_MS))
		e2e_fail_dump(e, "i did not show the pack");
	int row, col;
	if (!pty_find(&e->p, "  a - ", &row, &col) || !pty_find(&e->p, "  d - ", NULL, NULL))
		e2e_fail_dump(e, "the pack does not list its letters");
	pty_click(&e->p, 0, col + 4, row, false);
	if (!pty_wait_text(&e->p, "You drink a", WAIT_MS))
		e2e_fail_dump(e, "a click on the potion did not quaff it");
	pty_send(&e->p, " "); /* the --More-- */
	if (!pty_wait_text(&e->p, "It was a potion of", WAIT_MS))
		e2e_fail_dump(e, "the potion drunk was not named");
	pty_send(&e->p, "q");
	if (!pty_wait_text(&e->p, "no potions to quaff", WAIT_MS))
		e2e_fail_dump(e, "q with no potion did not say so");
	pty_send(&e->p, "w");
	if (!pty_wait_text(&e->p, "Wield which weapon", WAIT_MS))
		e2e_fail_dump(e, "w did not open the weapons");
	pty_send_idle(&e->p, "\033"); /* alone: an Escape followed at once by Q reads as Alt-Q */
	e2e_quit(e);
}

/* t aims a throw with the cursor, as f aims a shot: the status says
 * THROW, the line under the map how far the cursor is, Enter throws at
 * any cell (here two right and one down, on none of the eight lines), and
 * a left click while aiming throws at the cell clicked instead of walking
 * there; after it the travel cursor is the travel cursor again. */
static void test_throw_aims_with_the_cursor(void **state)
{
	struct e2e *e = *state;
	e2e_take_items(e);
	assert_true(pty_wait_idle(&e->p, WAIT_MS));
	int turn = e2e_turn(e);
	pty_send(&e->p, "t");
	if (!pty_wait_text(&e->p, "Throw what?", WAIT_MS) || !pty_wait_idle(&e->p, WAIT_MS))
		e2e_fail_dump(e, "t did not ask what to throw");
	int row, col;
	if (!pty_find(&e->p, "- stone (x8)", &row, &col))
		e2e_fail_dump(e, "the stones are not in the menu");
	char letter[2] = { (char)pty_char(&e->p, row, col - 2), 0 };
	pty_send(&e->p, letter);
	if (!pty_wait_text(&e->p, "THROW: Enter=throw", WAIT_MS) || !pty_wait_text(&e->p, "Throw 0 steps (Enter throws", WAIT_MS))
		e2e_fail_dump(e, "choosing the stones did not start the aim");
	pty_send(&e->p, "l");
	pty_send(&e->p, "l");
	pty_send(&e->p, "j");
	if (!pty_wait_text(&e->p, "2 steps (Enter throws", WAIT_MS))
		e2e_fail_dump(e, "the cursor did not say how far it is");
	pty_send(&e->p, "\r");
	if (!pty_wait_text(&e->p, "You throw the stone.", WAIT_MS) || !pty_wait_gone(&e->p, "THROW:", WAIT_MS))
		e2e_fail_dump(e, "Enter did not throw");
	assert_true(e2e_idle_at_turn(e, turn + 1));
	int sc, sr;
	e2e_cell(e, 7, 2, &sc, &sr);
	if (pty_char(&e->p, sr, sc) != '(')
		e2e_fail_dump(e, "the stone does not lie where it was thrown");
	/* a click while aiming throws there; the player stays */
	pty_send(&e->p, "t");
	if (!pty_wait_text(&e->p, "Throw what?", WAIT_MS) || !pty_wait_idle(&e->p, WAIT_MS))
		e2e_fail_dump(e, "t did not ask again");
	pty_send(&e->p, letter);
	if (!pty_wait_text(&e->p, "THROW: Enter=throw", WAIT_MS))
		e2e_fail_dump(e, "no aim the second time");
	e2e_cell(e, 3, 2, &sc, &sr);
	pty_click(&e->p, 0, sc, sr, false);
	if (!pty_wait_gone(&e->p, "THROW:", WAIT_MS))
		e2e_fail_dump(e, "the click did not end the aim");
	assert_true(e2e_idle_at_turn(e, turn + 2));
	e2e_wait_player_at(e, 5, 1);
	if (pty_char(&e->p, sr, sc) != '(')
		e2e_fail_dump(e, "the click did not throw at the cell clicked");
	/* aiming, the cursor follows the pointer: Enter throws where it rests */
	pty_send(&e->p, "t");
	if (!pty_wait_text(&e->p, "Throw what?", WAIT_MS) || !pty_wait_idle(&e->p, WAIT_MS))
		e2e_fail_dump(e, "t did not ask a third time");
	pty_send(&e->p, letter);
	if (!pty_wait_text(&e->p, "THROW: Enter=throw", WAIT_MS))
		e2e_fail_dump(e, "no aim the third time");
	e2e_cell(e, 2, 2, &sc, &sr);
	pty_hover(&e->p, sc, sr);
	if (!pty_wait_text(&e->p, "Throw 3 steps", WAIT_MS))
		e2e_fail_dump(e, "the aim did not follow the pointer");
	pty_send(&e->p, "\r");
	if (!pty_wait_gone(&e->p, "THROW:", WAIT_MS) || !e2e_idle_at_turn(e, turn + 3))
		e2e_fail_dump(e, "Enter did not throw at the pointer's cell");
	if (pty_char(&e->p, sr, sc) != '(')
		e2e_fail_dump(e, "the stone does not lie where the pointer was");
	pty_send(&e->p, "x");
	if (!pty_wait_text(&e->p, "CURSOR: Enter=go", WAIT_MS))
		e2e_fail_dump(e, "after a click's throw the cursor still aims");
	pty_send_idle(&e->p, "\033");
	/* no launcher in hand (a dagger is no sling): f throws by hand too */
	pty_send(&e->p, "f");
	if (!pty_wait_text(&e->p, "THROW: Enter=throw", WAIT_MS))
		e2e_fail_dump(e, "f with no launcher did not aim a throw");
	pty_send(&e->p, "l");
	pty_send(&e->p, "f");
	if (!pty_wait_gone(&e->p, "THROW:", WAIT_MS) || !e2e_idle_at_turn(e, turn + 4))
		e2e_fail_dump(e, "f did not throw");
	e2e_quit(e);
}

/* Asked for a direction (c closes a door, z zaps), a click gives the
 * grid's line nearest it: on the door beside the player, or further along
 * its line (hex: east), closes the door; a click on the player cancels. */
static void test_click_gives_a_direction(void **state)
{
	struct e2e *e = *state;
	e2e_start(e, "tests/levels/e2e/door-hex.lvl", 3, 2, 24, 80, NULL);
	int dc, dr, fc, fr, pc, pr;
	e2e_cell(e, 4, 2, &dc, &dr); /* the door */
	e2e_cell(e, 7, 2, &fc, &fr); /* three cells past it */
	e2e_cell(e, 3, 2, &pc, &pr);
	for (int round = 0; round < 2; round++) {
		pty_send(&e->p, "l"); /* through the door, which opens */
		e2e_wait_player_at(e, 4, 2);
		pty_send(&e->p, "h");
		if (!pty_wait_char_at(&e->p, '\'', dr, dc, WAIT_MS))
			e2e_fail_dump(e, "the door is not open behind the player");
		e2e_wait_player_at(e, 3, 2);
		pty_send(&e->p, "c");
		if (!pty_wait_text(&e->p, "Close the door which way?", WAIT_MS) || !pty_wait_idle(&e->p, WAIT_MS))
			e2e_fail_dump(e, "c did not ask which way");
		if (round == 0)
			pty_click(&e->p, 0, dc, dr, false);
		else
			pty_click(&e->p, 0, fc, fr, false);
		if (!pty_wait_char_at(&e->p, '+', dr, dc, WAIT_MS))
			e2e_fail_dump(e, round == 0 ? "a click on the door did not close it"
						    : "a click along the door's line did not close it");
	}
	pty_send(&e->p, "c");
	if (!pty_wait_text(&e->p, "Close the door which way?", WAIT_MS) || !pty_wait_idle(&e->p, WAIT_MS))
		e2e_fail_dump(e, "c did not ask again");
	pty_click(&e->p, 0, pc, pr, false);
	if (!pty_wait_text(&e->p, "Never mind.", WAIT_MS))
		e2e_fail_dump(e, "a click on the player did not cancel");
	e2e_quit(e);
}

/* A terminal 110 columns wide or more lists the monsters in view beside
 * the map, nearest first, with a bar of health and what each is doing; a
 * click on one describes it and takes no turn; at 80 columns there is no
 * list. */
static void test_monster_list_beside_the_map(void **state)
{
	struct e2e *e = *state;
	e2e_start(e, "tests/levels/e2e/three.lvl", 3, 2, 30, 120, NULL);
	if (!pty_wait_text(&e->p, "Monsters in view: 3", WAIT_MS) || !pty_wait_text(&e->p, "[########]", WAIT_MS))
		e2e_fail_dump(e, "no list of the monsters in view");
	int row, col;
	if (!pty_find(&e->p, "g goblin", &row, &col) || !pty_find(&e->p, "w wolf", NULL, NULL) ||
	    !pty_find(&e->p, "o orc", NULL, NULL))
		e2e_fail_dump(e, "the list does not name the three");
	int pc, pr;
	assert_true(e2e_player(e, &pc, &pr));
	assert_true(col > pc + 10); /* beside the map, not over it */
	pty_click(&e->p, 0, col + 2, row, false);
	if (!pty_wait_text(&e->p, "Health", WAIT_MS) || !pty_wait_text(&e->p, "goblin", WAIT_MS))
		e2e_fail_dump(e, "a click on the goblin's line did not describe it");
	assert_true(e2e_idle_at_turn(e, 0));
	pty_send_idle(&e->p, "\033");
	e2e_quit(e);
	e2e_start(e, "tests/levels/e2e/three.lvl", 3, 2, 24, 80, NULL);
	if (pty_find(&e->p, "in view", NULL, NULL))
		e2e_fail_dump(e, "an 80-column screen has no room for the list");
	e2e_quit(e);
	/* items in view under the monsters: a line each, nearest first; a
	 * click on one describes it */
	e2e_start(e, ITEMS, 1, 1, 30, 120, NULL);
	if (!pty_wait_text(&e->p, "No monster in view", WAIT_MS) || !pty_wait_text(&e->p, "Items in view: 4", WAIT_MS))
		e2e_fail_dump(e, "no list of the items in view");
	int pr0, pc0, sr, sc;
	if (!pty_find(&e->p, "! a ", &pr0, &pc0) || !pty_find(&e->p, "( stone (x8)", &sr, &sc) || sr <= pr0)
		e2e_fail_dump(e, "the items are not listed nearest first");
	pty_click(&e->p, 0, sc + 3, sr, false);
	if (!pty_wait_text(&e->p, "stone (x8) on floor (5,1)", WAIT_MS) || !pty_wait_text(&e->p, "Ammunition", WAIT_MS))
		e2e_fail_dump(e, "a click on the stones' line did not describe them");
	assert_true(e2e_idle_at_turn(e, 0));
	pty_send_idle(&e->p, "\033");
	pty_dismiss_more(&e->p); /* the level's first messages */
	e2e_quit(e);
}

/* Whether any cell of the map area shows the route mark '*'. */
static bool e2e_route_shown(struct e2e *e)
{
	for (int r = e->oy; r < e->oy + 8; r++)
		for (int c = e->ox; c < e->ox + 20; c++)
			if (pty_char(&e->p, r, c) == '*')
				return true;
	return false;
}

/* The pointer resting on a map cell (no button) shows the route a click
 * there would walk, and beside the map (110 columns or more) the cell and
 * its steps; no turn passes; a key, or the pointer leaving the map, takes
 * the route away; the terminal's motion reports are turned off at the end. */
static void test_pointer_shows_the_route(void **state)
{
	struct e2e *e = *state;
	e2e_start(e, SQUARE, 3, 2, 30, 120, NULL);
	int col, row;
	e2e_cell(e, 8, 5, &col, &row);
	pty_hover(&e->p, col, row);
	if (!pty_wait_text(&e->p, "(8,5) 5 steps:", WAIT_MS))
		e2e_fail_dump(e, "the pointer's cell and steps are not beside the map");
	assert_true(e2e_idle_at_turn(e, 0));
	if (!e2e_route_shown(e))
		e2e_fail_dump(e, "no route drawn to the pointer's cell");
	pty_hover(&e->p, e->p.cols - 3, row); /* onto the list beside the map */
	if (!pty_wait_gone(&e->p, "(8,5) 5 steps:", WAIT_MS) || !pty_wait_idle(&e->p, WAIT_MS))
		e2e_fail_dump(e, "the pointer left the map and its route stayed");
	if (e2e_route_shown(e))
		e2e_fail_dump(e, "a route is still drawn");
	/* a burst of motion, then a key: the burst read to its end (the key
	 * kept), so the cell where the pointer stopped is the one shown */
	int c1, r1;
	e2e_cell(e, 5, 5, &c1, &r1);
	char burst[96];
	snprintf(burst, sizeof burst, "\033[<35;%d;%dM\033[<35;%d;%dM", c1 + 1, r1 + 1, col + 1, row + 1);
	pty_send(&e->p, burst);
	if (!pty_wait_text(&e->p, "(8,5) 5 steps:", WAIT_MS) || !pty_wait_idle(&e->p, WAIT_MS))
		e2e_fail_dump(e, "the pointer came back and showed nothing");
	assert_false(pty_find(&e->p, "(5,5)", NULL, NULL));
	pty_send(&e->p, "s"); /* a key: a turn's wait */
	if (!pty_wait_gone(&e->p, "(8,5) 5 steps:", WAIT_MS) || !e2e_idle_at_turn(e, 1))
		e2e_fail_dump(e, "a key did not take the pointer's route away");
	if (e2e_route_shown(e))
		e2e_fail_dump(e, "a route is still drawn after the key");
	assert_true(pty_log_has(&e->p, "\033[?1003h")); /* motion reported, with no button down */
	/* O turns the pointer's route off: motion is no longer asked for, and
	 * the pointer shows nothing */
	assert_false(pty_log_has(&e->p, "\033[?1003l"));
	pty_send(&e->p, "O");
	if (!pty_wait_text(&e->p, "Pointer    on", WAIT_MS))
		e2e_fail_dump(e, "the options have no pointer row");
	pty_send(&e->p, "jjj ");
	if (!pty_wait_text(&e->p, "Pointer    off", WAIT_MS))
		e2e_fail_dump(e, "the pointer's route did not turn off");
	pty_send_idle(&e->p, "\033");
	if (!pty_wait_text(&e->p, "Options kept", WAIT_MS))
		e2e_fail_dump(e, "the options were not kept");
	assert_true(pty_log_has(&e->p, "\033[?1003l"));
	pty_hover(&e->p, col, row);
	assert_true(pty_wait_idle(&e->p, WAIT_MS));
	if (pty_find(&e->p, "5 steps", NULL, NULL) || e2e_route_shown(e))
		e2e_fail_dump(e, "the pointer still shows a route");
	e2e_quit_keep(e);
	assert_true(pty_log_has(&e->p, "\033[?1006;1000l")); /* the terminal left clean */
	pty_close(&e->p);
}

/* Whether the map area (left of the monster list) shows the monster route mark ':'. */
static bool e2e_monster_route_shown(struct e2e *e)
{
	for (int r = 2; r < e->p.rows - 1; r++)
		for (int c = 0; c < e->p.cols - UI_SIDE_W_TEST; c++)
			if (pty_char(&e->p, r, c) == ':')
				return true;
	return false;
}

/* Travel steps on time while the pointer moves: its motion, read
 * between the steps, does not put the next step off (with the step due
 * after a quiet spell, a pointer moving every 30 ms held a 100 ms travel
 * still). */
static void test_travel_steps_while_the_pointer_moves(void **state)
{
	struct e2e *e = *state;
	static const char *const slow[] = { "--delay", "100", NULL };
	e2e_start(e, SQUARE, 3, 2, 24, 80, slow);
	int col, row, pc, pr;
	e2e_cell(e, 10, 2, &col, &row);
	e2e_cell(e, 6, 5, &pc, &pr);
	pty_click(&e->p, 0, col, row, false); /* 7 steps: 0.7 s */
	for (int i = 0; i < 60; i++) { /* 1.8 s of motion, away from the route */
		pty_hover(&e->p, pc + (i & 1), pr);
		struct timespec t = { .tv_nsec = 30000000 };
		nanosleep(&t, NULL);
	}
	/* (no idle waits: ncurses may read several of the motions as one
	 * KEY_MOUSE, fewer keys than the driver sent) */
	e2e_wait_travel_done(e, 10, 2, 7, "travel did not end after its 7 steps");
	e2e_quit(e);
}

/* A click whose release reaches the game in one read with the pointer's
 * motion after it (a quick click, then the mouse moved on) still walks:
 * ncurses gives such a run newest first, the motion, with the release
 * queued behind it. */
static void test_click_kept_before_motion(void **state)
{
	struct e2e *e = *state;
	e2e_start(e, SQUARE, 3, 2, 24, 80, NULL);
	int col, row, mc, mr;
	e2e_cell(e, 8, 5, &col, &row);
	e2e_cell(e, 12, 6, &mc, &mr);
	char run[128];
	snprintf(run, sizeof run, "\033[<0;%d;%dM\033[<0;%d;%dm\033[<35;%d;%dM", col + 1, row + 1, col + 1, row + 1,
		 mc + 1, mr + 1);
	pty_send(&e->p, run);
	e2e_wait_travel_done(e, 8, 5, 5, "the click before the motion did not walk its 5 steps");
	e2e_quit(e);
}

/* The pointer on a hunting monster also shows the monster's own route
 * (':', as r draws every monster's, over the route a click would walk);
 * off the map, none.  A goblin that has not planned yet has no route to
 * show (nor has it under r), so each goblin in view is pointed at until
 * one shows its route: seed 1 makes it the same one every run. */
static void test_pointer_on_a_monster_shows_its_route(void **state)
{
	struct e2e *e = *state;
	static const char *const no_save[] = { "--no-save", NULL };
	e2e_start(e, "tests/levels/e2e/chase20.lvl", 38, 10, 30, 120, no_save);
	pty_send(&e->p, "s");
	pty_send(&e->p, "s");
	assert_true(e2e_idle_at_turn(e, 2)); /* two have seen the player and come for it */
	bool shown = false;
	int pointed = 0;
	for (int r = 2; r < e->p.rows - 1 && !shown; r++)
		for (int c = 0; c < e->p.cols - UI_SIDE_W_TEST && !shown; c++) {
			if (pty_char(&e->p, r, c) != 'g')
				continue;
			pty_hover(&e->p, c, r);
			if (!pty_wait_text(&e->p, "a goblin", WAIT_MS) || !pty_wait_idle(&e->p, WAIT_MS))
				e2e_fail_dump(e, "the pointer on a goblin did not describe it");
			pointed++;
			shown = e2e_monster_route_shown(e);
		}
	if (!shown)
		e2e_fail_dump(e, "no goblin's own route was drawn under the pointer");
	pty_hover(&e->p, e->p.cols - 3, 3); /* onto the list: no route */
	if (!pty_wait_gone(&e->p, "a goblin:", WAIT_MS) || !pty_wait_idle(&e->p, WAIT_MS))
		e2e_fail_dump(e, "the pointer left the map and the goblin's route stayed");
	assert_false(e2e_monster_route_shown(e));
	assert_true(pointed >= 1);
	assert_true(e2e_idle_at_turn(e, 2));
	e2e_quit(e);
}

static void test_click_wall_walks_to_cut_point(void **state)
{
	struct e2e *e = *state;
	e2e_start(e, SQUARE, 3, 2, 24, 80, NULL);
	int col, row;
	e2e_cell(e, 3, 7, &col, &row); /* the bottom wall, straight below */
	pty_click(&e->p, 0, col, row, false);
	e2e_wait_player_at(e, 3, 6);    /* the cell before the wall */
	e2e_wait_still(e);
	e2e_wait_player_at(e, 3, 6);
	/* a click far outside the map goes to the nearest cell: the corner wall
	 * at 19,7.  The walls of what is seen are seen (rules 4): the corner
	 * touches the floor at 18,6, so the player knows it for a wall and the
	 * walk ends next to it, at 18,6 (before, the corner was never seen and
	 * the walk stopped at 17,6, short of the walls that might shut it off). */
	pty_click(&e->p, 0, e->p.cols - 1, e->p.rows - 2, false);
	e2e_wait_player_at(e, 18, 6);
	e2e_wait_still(e);
	e2e_wait_player_at(e, 18, 6);
	e2e_quit(e);
}

static void test_click_sealed_vault_stops_at_wall(void **state)
{
	struct e2e *e = *state;
	e2e_start(e, SQUARE, 3, 2, 24, 80, NULL);
	int col, row;
	e2e_cell(e, 13, 3, &col, &row); /* inside the vault (walls 11..15 x 2..4) */
	pty_click(&e->p, 0, col, row, false);
	/* it sets off, then stops next to the vault's wall */
	e2e_wait_still(e);
	int pc, pr;
	assert_true(e2e_player(e, &pc, &pr));
	int x = pc - e->ox, y = pr - e->oy;
	/* next to the vault: within one cell of its wall ring, outside it */
	assert_true(x >= 10 && x <= 16 && y >= 1 && y <= 5);
	assert_false(x >= 11 && x <= 15 && y >= 2 && y <= 4);
	e2e_quit(e);
}

/* A click on the player waits one turn: the turn counter shows that each
 * click form acts exactly once. */
static void test_both_click_forms_act_once(void **state)
{
	struct e2e *e = *state;
	e2e_start(e, SQUARE, 3, 2, 24, 80, NULL);
	int col, row;
	e2e_cell(e, 3, 2, &col, &row);
	pty_click(&e->p, 0, col, row, false); /* CLICKED */
	assert_true(e2e_idle_at_turn(e, 1)); /* once, and only once, for good */
	pty_click(&e->p, 0, col, row, true);  /* PRESSED, idle, RELEASED */
	assert_true(e2e_idle_at_turn(e, 2));
	/* and travel by the split form: three steps, three turns */
	e2e_cell(e, 6, 2, &col, &row);
	pty_click(&e->p, 0, col, row, true);
	e2e_wait_player_at(e, 6, 2);
	e2e_wait_still(e);
	assert_int_equal(e2e_turn(e), 5);
	/* a right click describes and takes no time */
	e2e_cell(e, 0, 0, &col, &row);
	pty_click(&e->p, 2, col, row, false);
	if (!pty_wait_text(&e->p, "wall", WAIT_MS))
		e2e_fail_dump(e, "a right click on a wall did not describe it");
	assert_int_equal(e2e_turn(e), 5);
	e2e_quit(e);
}

static void test_cursor_travel(void **state)
{
	struct e2e *e = *state;
	e2e_start(e, SQUARE, 3, 2, 24, 80, NULL);
	pty_send(&e->p, "x");
	if (!pty_wait_text(&e->p, "CURSOR", WAIT_MS))
		e2e_fail_dump(e, "no cursor mode");
	pty_send(&e->p, "lllj");
	/* the route Enter would take shows before it is taken: 3 steps, the two
	 * cells between drawn as route marks */
	if (!pty_wait_text(&e->p, "(6,3): 3 steps", WAIT_MS))
		e2e_fail_dump(e, "the cursor did not preview the route");
	int marks = 0;
	for (int x = 4; x <= 5; x++)
		for (int y = 2; y <= 3; y++) {
			int col, row;
			e2e_cell(e, x, y, &col, &row);
			marks += pty_char(&e->p, row, col) == '*';
		}
	if (marks != 2)
		e2e_fail_dump(e, "the previewed route is not two marks between player and cursor");
	pty_send(&e->p, "\r");
	e2e_wait_player_at(e, 6, 3);
	e2e_wait_still(e);
	assert_int_equal(e2e_turn(e), 3);
	/* Esc leaves the cursor without acting */
	assert_true(pty_send_idle(&e->p, "_l"));
	pty_send(&e->p, "\033");
	if (!pty_wait_gone(&e->p, "CURSOR", WAIT_MS))
		e2e_fail_dump(e, "Esc did not leave cursor mode");
	assert_int_equal(e2e_turn(e), 3);
	/* into the sealed vault: its far side has not been seen, so the
	 * preview plans round the vault and in through the unseen wall */
	pty_send(&e->p, "_llllllljj");
	if (!pty_wait_text(&e->p, "(13,5): 7 steps", WAIT_MS))
		e2e_fail_dump(e, "no preview below the vault");
	pty_send(&e->p, "kk");
	if (!pty_wait_text(&e->p, "(13,3): ", WAIT_MS))
		e2e_fail_dump(e, "no preview into the vault");
	if (pty_find(&e->p, "out of reach", NULL, NULL))
		e2e_fail_dump(e, "the preview gives away that the vault is sealed");
	pty_send(&e->p, "\033");
	if (!pty_wait_gone(&e->p, "CURSOR", WAIT_MS))
		e2e_fail_dump(e, "Esc did not leave cursor mode");
	assert_int_equal(e2e_turn(e), 3);
	e2e_quit(e);
}

static void test_hex_keys_and_clicks(void **state)
{
	struct e2e *e = *state;
	e2e_start(e, HEX, 3, 2, 24, 80, NULL);
	pty_send(&e->p, "l");
	e2e_wait_player_at(e, 4, 2);
	pty_send(&e->p, "u"); /* up-right: row 1 is shifted right */
	e2e_wait_player_at(e, 4, 1);
	pty_send(&e->p, "b");
	e2e_wait_player_at(e, 4, 2);
	pty_send(&e->p, "n");
	e2e_wait_player_at(e, 4, 3);
	pty_send(&e->p, "y");
	e2e_wait_player_at(e, 4, 2);
	pty_send(&e->p, "h");
	e2e_wait_player_at(e, 3, 2);
	/* up and down on hex: the two upper (lower) cells in turn, keeping
	 * the column (row 1 is shifted right: up from row 2 is up-right) */
	pty_send(&e->p, "k");
	e2e_wait_player_at(e, 3, 1);
	pty_send(&e->p, "j");
	e2e_wait_player_at(e, 3, 2);
	assert_true(e2e_idle_at_turn(e, 8));
	/* numpad 9 and 1 are the up-right and down-left steps */
	pty_send(&e->p, "9");
	e2e_wait_player_at(e, 3, 1);
	pty_send(&e->p, "1");
	e2e_wait_player_at(e, 3, 2);
	/* a click on a floor cell walks there */
	int col, row;
	e2e_cell(e, 8, 4, &col, &row);
	pty_click(&e->p, 0, col, row, false);
	e2e_wait_player_at(e, 8, 4);
	e2e_wait_still(e);
	/* a click between two hex cells goes to one of them */
	e2e_cell(e, 5, 2, &col, &row);
	pty_click(&e->p, 0, col + 1, row, true);
	e2e_wait_still(e);
	int pc, pr;
	assert_true(e2e_player(e, &pc, &pr));
	assert_int_equal(pr, row);
	assert_true(pc == col || pc == col + 2);
	e2e_quit(e);
}

static void test_resize_redraws(void **state)
{
	struct e2e *e = *state;
	e2e_start(e, SQUARE, 3, 2, 24, 80, NULL);
	pty_resize(&e->p, 30, 100);
	/* the status line moves to the new last row, the map is centred again */
	if (!pty_wait_idle(&e->p, WAIT_MS))
		e2e_fail_dump(e, "the game did not take the resize");
	char line[1024];
	pty_row(&e->p, 29, line, sizeof line);
	if (!strstr(line, "Turn 0"))
		e2e_fail_dump(e, "no redraw after the resize");
	int col, row;
	assert_true(e2e_player(e, &col, &row));
	assert_int_equal(col, (100 - 20) / 2 + 3);
	/* and it still plays */
	e->ox = col - 3;
	e->oy = row - 2;
	pty_send(&e->p, "l");
	e2e_wait_player_at(e, 4, 2);
	e2e_quit(e);
}

static void test_tiny_terminal_notice(void **state)
{
	struct e2e *e = *state;
	char *argv[] = { (char *)test_bin(), (char *)"play", (char *)SQUARE, (char *)"--seed",
			 (char *)"1", NULL };
	assert_true(pty_start(&e->p, 6, 30, argv));
	if (!pty_wait_text(&e->p, "too small", WAIT_MS))
		e2e_fail_dump(e, "no notice in a 30x6 terminal");
	if (!pty_wait_text(&e->p, "30x6, need 40x10", WAIT_MS) || !pty_wait_text(&e->p, "Q quits", WAIT_MS))
		e2e_fail_dump(e, "the notice does not say the size, the need and the way out");
	pty_send(&e->p, "l"); /* ignored while too small */
	pty_resize(&e->p, 24, 80);
	if (!pty_wait_text(&e->p, "Turn 0", WAIT_MS))
		e2e_fail_dump(e, "the game did not come back when the terminal grew");
	if (!pty_wait_gone(&e->p, "too small", WAIT_MS))
		e2e_fail_dump(e, "the too-small notice stayed after the terminal grew");
	e2e_quit(e);
}

static void test_ctrl_c_restores_terminal(void **state)
{
	struct e2e *e = *state;
	e2e_start(e, SQUARE, 3, 2, 24, 80, NULL);
	assert_true(e->p.altscreen);
	assert_true(pty_log_has(&e->p, "\033[?1006;1000h")); /* SGR mouse reports on */
	pty_send(&e->p, "\003");
	if (!pty_wait_exit(&e->p, WAIT_MS))
		e2e_fail_dump(e, "Ctrl-C did not end the game");
	e2e_check_restored(e);
	assert_true(WIFSIGNALED(e->p.status));
	assert_int_equal(WTERMSIG(e->p.status), SIGINT);
	assert_true(pty_log_has(&e->p, "seed=1 outcome=interrupted"));
	pty_close(&e->p);
}

static void test_sigterm_during_travel_restores_terminal(void **state)
{
	struct e2e *e = *state;
	e2e_start(e, SQUARE, 3, 2, 24, 80, NULL);
	int col, row;
	e2e_cell(e, 17, 6, &col, &row);
	pty_click(&e->p, 0, col, row, false);
	if (!pty_wait_text(&e->p, "TRAVEL", WAIT_MS))
		e2e_fail_dump(e, "no travel");
	kill(e->p.pid, SIGTERM);
	if (!pty_wait_exit(&e->p, WAIT_MS))
		e2e_fail_dump(e, "SIGTERM did not end the game");
	e2e_check_restored(e);
	assert_true(WIFSIGNALED(e->p.status));
	assert_int_equal(WTERMSIG(e->p.status), SIGTERM);
	pty_close(&e->p);
}

/* Every other signal that ends a program (here SIGQUIT, Ctrl-\\, and
 * SIGPIPE): the terminal is restored first (alternate screen left, mouse
 * reports off, echo back), then the program dies of that same signal. */
static void e2e_fatal_signal(struct e2e *e, int sig)
{
	e2e_start(e, SQUARE, 3, 2, 24, 80, NULL);
	assert_true(pty_log_has(&e->p, "\033[?1006;1000h"));
	kill(e->p.pid, sig);
	if (!pty_wait_exit(&e->p, WAIT_MS))
		e2e_fail_dump(e, "the signal did not end the game");
	e2e_check_restored(e);
	assert_true(pty_log_has(&e->p, "\033[?1006;1000l")); /* mouse reports off */
	assert_true(WIFSIGNALED(e->p.status));
	assert_int_equal(WTERMSIG(e->p.status), sig);
	pty_close(&e->p);
}

static void test_sigquit_and_sigpipe_restore_terminal(void **state)
{
	e2e_fatal_signal(*state, SIGQUIT);
	e2e_fatal_signal(*state, SIGPIPE);
	e2e_fatal_signal(*state, SIGUSR1);
	e2e_fatal_signal(*state, SIGALRM);
}

/* A closed terminal window: the program must end (not spin on failing
 * reads), first through SIGHUP, then with SIGHUP blocked through the read. */
static void e2e_hangup(struct e2e *e, bool block_hup)
{
	char *argv[] = { (char *)test_bin(), (char *)"play", (char *)SQUARE, (char *)"--seed",
			 (char *)"1", NULL };
	if (block_hup)
		assert_true(pty_start_hup_blocked(&e->p, 24, 80, argv));
	else
		assert_true(pty_start(&e->p, 24, 80, argv));
	if (!pty_wait_text(&e->p, "Turn 0", WAIT_MS))
		e2e_fail_dump(e, "the game did not start");
	pty_hangup(&e->p);
	assert_true(pty_wait_exit(&e->p, WAIT_MS));
	assert_true(WIFEXITED(e->p.status));
	assert_int_equal(WEXITSTATUS(e->p.status), 129);
}

static void test_hangup_ends_the_game(void **state)
{
	e2e_hangup(*state, false);
}

static void test_closed_terminal_without_sighup(void **state)
{
	e2e_hangup(*state, true);
}

/* An older message too long for its row shows its start, cut at a word
 * with "...", never its tail cut mid-word at the left edge. */
static void test_old_message_cut_at_word(void **state)
{
	struct e2e *e = *state;
	e2e_start(e, "levels/03-hex-arena.lvl", 0, 0, 24, 80, NULL);
	pty_send_idle(&e->p, "\033"); /* past the opening --More-- (apart: ESC R at once is Alt-R) */
	pty_send(&e->p, "R");          /* at full health: one fresh message below */
	if (!pty_wait_text(&e->p, "no need to rest", WAIT_MS))
		e2e_fail_dump(e, "resting said nothing");
	char row[256];
	pty_row(&e->p, 0, row, sizeof row);
	if (strncmp(row, "An open hex floor", 17) != 0 || !strstr(row, "...") || strlen(row) > 80)
		e2e_fail_dump(e, "the older message is not shown from its start with ...");
	e2e_quit(e);
}

/* At the smallest size the help wraps its descriptions under the key
 * column, so no key's meaning is cut off at the right edge. */
static void test_help_wraps_at_40_columns(void **state)
{
	struct e2e *e = *state;
	e2e_start(e, "levels/01-first-steps.lvl", 0, 0, 10, 40, NULL);
	/* the status line is compact rather than cut: every figure and the hint */
	if (!pty_wait_text(&e->p, "L1/1  Turn 0  $0", WAIT_MS) || !pty_find(&e->p, "? help", NULL, NULL))
		e2e_fail_dump(e, "the 40-column status line lost a figure or the help hint");
	pty_send_idle(&e->p, "\033\033");
	pty_send(&e->p, "?");
	if (!pty_wait_text(&e->p, "j/k scroll", WAIT_MS))
		e2e_fail_dump(e, "no help with its scroll hint");
	if (!pty_wait_text(&e->p, "              off)", WAIT_MS))
		e2e_fail_dump(e, "the numpad line was not wrapped under the descriptions");
	/* more than the help's wrapped lines (it grew with items and growth) */
	for (int i = 0; i < 3; i++)
		pty_send(&e->p, "jjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjj");
	if (!pty_wait_text(&e->p, "@#    @.", WAIT_MS)) /* the corner rule's picture, last */
		e2e_fail_dump(e, "scrolling did not reach the help's last line");
	pty_send(&e->p, "x");
	e2e_quit(e);
}

/* A click while --More-- is shown pages on like a key: the next page of
 * messages shows and the player does not move (the turn stays 0). */
static void test_click_pages_more(void **state)
{
	struct e2e *e = *state;
	e2e_start(e, "levels/01-first-steps.lvl", 0, 0, 24, 80, NULL);
	if (!pty_wait_text(&e->p, "--More--", WAIT_MS))
		e2e_fail_dump(e, "the opening messages did not need --More--");
	int col, row;
	if (!e2e_player(e, &col, &row))
		e2e_fail_dump(e, "no @");
	pty_click(&e->p, 0, col + 3, row, false);
	if (!pty_wait_text(&e->p, "to open it, into a rat", WAIT_MS))
		e2e_fail_dump(e, "the click did not show the next page");
	char st[256];
	pty_row(&e->p, 23, st, sizeof st);
	if (!strstr(st, "Turn 0"))
		e2e_fail_dump(e, "the click under --More-- moved the player");
	e2e_quit(e);
}

static void test_quit_restores_terminal(void **state)
{
	struct e2e *e = *state;
	e2e_start(e, HEX, 3, 2, 24, 80, NULL);
	pty_send(&e->p, "Q");
	if (!pty_wait_text(&e->p, "Really quit", WAIT_MS))
		e2e_fail_dump(e, "no quit question");
	pty_send(&e->p, "n"); /* anything but y goes back */
	if (!pty_wait_gone(&e->p, "Really quit", WAIT_MS))
		e2e_fail_dump(e, "n did not cancel the quit");
	pty_send(&e->p, "Q");
	if (!pty_wait_text(&e->p, "Really quit", WAIT_MS))
		e2e_fail_dump(e, "no quit question");
	pty_send(&e->p, "y");
	assert_true(pty_wait_exit(&e->p, WAIT_MS));
	e2e_check_restored(e);
	assert_int_equal(WEXITSTATUS(e->p.status), 0);
	assert_true(pty_log_has(&e->p, "seed=1 outcome=quit"));
	pty_close(&e->p);
}

/* Leaves the end screen with Enter and checks the outcome line. */
static void e2e_leave_end(struct e2e *e, const char *outcome)
{
	pty_send(&e->p, "\r");
	if (!pty_wait_exit(&e->p, WAIT_MS))
		e2e_fail_dump(e, "Enter did not leave the end screen");
	e2e_check_restored(e);
	assert_int_equal(WEXITSTATUS(e->p.status), 0);
	assert_true(pty_log_has(&e->p, outcome));
}

static void test_win_restores_terminal(void **state)
{
	struct e2e *e = *state;
	e2e_start(e, SQUARE, 3, 2, 24, 80, NULL);
	int col, row;
	e2e_cell(e, 1, 6, &col, &row); /* the exit: '>' on it leaves the last level */
	pty_click(&e->p, 0, col, row, false);
	e2e_wait_player_at(e, 1, 6);
	e2e_wait_still(e);
	pty_send(&e->p, ">");
	if (!pty_wait_text(&e->p, "Enter leaves", WAIT_MS))
		e2e_fail_dump(e, "no end screen after the last exit");
	/* the prompt and the status bar arrive in separate writes: wait for the
	   whole frame before judging that travel is no longer shown */
	if (!pty_wait_gone(&e->p, "TRAVEL", WAIT_MS))
		e2e_fail_dump(e, "the end screen still shows travel");
	e2e_leave_end(e, "outcome=won");
}

static void test_death_restores_terminal(void **state)
{
	struct e2e *e = *state;
	e2e_start(e, "tests/levels/e2e/death.lvl", 2, 1, 24, 80,
		  (const char *const[]){ "--set", "goblin.damage=1000", "--set", "goblin.hit=100", NULL });
	for (int i = 0; i < 10 && !pty_find(&e->p, "Enter leaves", NULL, NULL); i++)
		pty_send_idle(&e->p, ".");
	if (!pty_find(&e->p, "Enter leaves", NULL, NULL))
		e2e_fail_dump(e, "the player did not die");
	/* a stray key does not leave the end screen */
	if (!pty_send_idle(&e->p, "l"))
		e2e_fail_dump(e, "a stray key left the end screen");
	assert_false(e->p.exited);
	e2e_leave_end(e, "outcome=died");
}

/* Three hits in one turn: more than the two message rows hold, so the
 * first page ends with --More--, and a key shows the rest; none is lost. */
static void test_three_hits_all_shown(void **state)
{
	struct e2e *e = *state;
	e2e_start(e, "tests/levels/e2e/three.lvl", 3, 2, 24, 80,
		  (const char *const[]){ "--set", "goblin.damage=1", "--set", "orc.damage=1", "--set",
					 "wolf.damage=1", "--set", "wolf.speed=100", "--set", "goblin.hit=100", "--set",
					 "orc.hit=100", "--set", "wolf.hit=100", NULL });
	pty_send(&e->p, "s");
	if (!pty_wait_text(&e->p, "--More--", WAIT_MS))
		e2e_fail_dump(e, "no --More-- after three hits");
	if (!pty_find(&e->p, "The goblin hits you (1).", NULL, NULL) ||
	    !pty_find(&e->p, "The orc hits you (1).", NULL, NULL))
		e2e_fail_dump(e, "the first page does not show the first two hits");
	pty_send(&e->p, " ");
	if (!pty_wait_text(&e->p, "The wolf hits you (1).", WAIT_MS))
		e2e_fail_dump(e, "the third hit never reached the screen");
	if (!pty_wait_gone(&e->p, "--More--", WAIT_MS))
		e2e_fail_dump(e, "--More-- stayed after the last page");
	assert_int_equal(e2e_turn(e), 1); /* the key that paged did not act */
	e2e_quit(e);
}

/* After death the end line names the killer, and P shows the history. */
static void test_death_names_killer_and_keeps_history(void **state)
{
	struct e2e *e = *state;
	e2e_start(e, "tests/levels/e2e/death.lvl", 2, 1, 24, 80,
		  (const char *const[]){ "--set", "goblin.damage=1000", "--set", "goblin.hit=100", NULL });
	pty_send(&e->p, ".");
	if (!pty_wait_text(&e->p, "killed by a goblin", WAIT_MS))
		e2e_fail_dump(e, "the end line does not say what killed the player");
	pty_send(&e->p, "P");
	if (!pty_wait_text(&e->p, "Message history", WAIT_MS))
		e2e_fail_dump(e, "no history after death");
	if (!pty_find(&e->p, "). You die on level 1", NULL, NULL))
		e2e_fail_dump(e, "the history lacks the death");
	pty_send(&e->p, "x");
	if (!pty_wait_text(&e->p, "killed by a goblin", WAIT_MS))
		e2e_fail_dump(e, "the history did not return to the end screen");
	e2e_leave_end(e, "outcome=died");
}

/* A map larger than the screen scrolls to keep the player in view. */
static void test_big_map_scrolls(void **state)
{
	struct e2e *e = *state;
	e2e_start(e, "tests/levels/e2e/big.lvl", 2, 15, 24, 80,
		  (const char *const[]){ "--delay", "1", NULL });
	int col, row;
	assert_true(e2e_player(e, &col, &row));
	pty_click(&e->p, 0, 79, row, false); /* the right edge of the screen */
	e2e_wait_still(e); /* (at --delay 1 a wait for TRAVEL to show could miss it) */
	int pc, pr;
	if (!e2e_player(e, &pc, &pr))
		e2e_fail_dump(e, "the player left the screen");
	/* it walked to the cell shown at column 79, and the view followed */
	assert_int_equal(pr, row);
	assert_true(pc < 79 - 10);
	/* shifted keys run: back to the left wall */
	pty_send(&e->p, "H");
	e2e_wait_still(e);
	assert_true(e2e_player(e, &pc, &pr));
	assert_int_equal(pc, col - 1);
	assert_int_equal(pr, row);
	e2e_quit(e);
}

static void test_help_lists_keys(void **state)
{
	struct e2e *e = *state;
	e2e_start(e, SQUARE, 3, 2, 24, 80, NULL);
	pty_send(&e->p, "?");
	if (!pty_wait_text(&e->p, "astray - keys", WAIT_MS))
		e2e_fail_dump(e, "? did not open the help");
	pty_send(&e->p, "jjjjjjjjjjjjjjjjjjjj"); /* the help is longer than 24 rows: scroll to its end */
	if (!pty_wait_text(&e->p, "routes", WAIT_MS))
		e2e_fail_dump(e, "help does not list the routes key");
	if (!pty_wait_text(&e->p, "history", WAIT_MS))
		e2e_fail_dump(e, "help does not list the history key");
	pty_send(&e->p, " ");
	if (!pty_wait_text(&e->p, "Turn 0", WAIT_MS))
		e2e_fail_dump(e, "help did not return to the map");
	pty_send(&e->p, "r");
	if (!pty_wait_text(&e->p, "[routes]", WAIT_MS))
		e2e_fail_dump(e, "r did not toggle routes");
	pty_send(&e->p, "P");
	if (!pty_wait_text(&e->p, "Message history", WAIT_MS))
		e2e_fail_dump(e, "no message history");
	pty_send(&e->p, "\033");
	if (!pty_wait_text(&e->p, "Turn 0", WAIT_MS))
		e2e_fail_dump(e, "history did not return to the map");
	e2e_quit(e);
}

/* At 40x10 the help does not fit: it says it scrolls, j and PgDn bring
 * its last line into view and take its first out, k brings it back, and
 * any other key returns to the map. */
static void test_help_scrolls_at_40x10(void **state)
{
	struct e2e *e = *state;
	e2e_start(e, SQUARE, 3, 2, 10, 40, NULL);
	pty_send(&e->p, "?");
	if (!pty_wait_text(&e->p, "astray - keys", WAIT_MS))
		e2e_fail_dump(e, "no help at 40x10");
	if (!pty_wait_text(&e->p, "scroll", WAIT_MS))
		e2e_fail_dump(e, "the help does not say it scrolls");
	if (pty_find(&e->p, "new each game", NULL, NULL))
		e2e_fail_dump(e, "the whole help fits in 40x10: the test shows nothing");
	pty_send(&e->p, "j");
	if (!pty_wait_gone(&e->p, "astray - keys", WAIT_MS))
		e2e_fail_dump(e, "j did not scroll the help");
	/* page by page to the end; the end of a line longer than 40 columns
	 * ("pack ... a letter or a click uses it") shows on a row
	 * of its own instead of being cut off */
	bool pack_seen = false;
	for (int i = 0; i < 24 && !pty_find(&e->p, "new each game", NULL, NULL); i++) {
		assert_true(pty_send_idle(&e->p, "\033[6~")); /* PgDn */
		pack_seen = pack_seen || pty_find(&e->p, "click uses it", NULL, NULL);
	}
	if (!pty_wait_text(&e->p, "new each game", WAIT_MS))
		e2e_fail_dump(e, "PgDn did not reach the help's last line");
	if (!pack_seen)
		e2e_fail_dump(e, "a help line longer than the terminal lost its end");
	for (int i = 0; i < 150; i++)
		pty_send(&e->p, "k");
	if (!pty_wait_text(&e->p, "astray - keys", WAIT_MS))
		e2e_fail_dump(e, "k did not scroll back to the top");
	pty_send(&e->p, " ");
	if (!pty_wait_text(&e->p, "Turn 0", WAIT_MS))
		e2e_fail_dump(e, "help did not return to the map");
	e2e_quit(e);
}

/* A click on the status line's "? help" (both click forms) opens the help
 * and does not walk the player: the turn stays 0. */
static void test_click_status_help(void **state)
{
	struct e2e *e = *state;
	e2e_start(e, SQUARE, 3, 2, 24, 80, NULL);
	for (int split = 0; split < 2; split++) {
		int row, col;
		if (!pty_find(&e->p, "? help", &row, &col))
			e2e_fail_dump(e, "no ? help on the status line");
		pty_click(&e->p, 0, col + 2, row, split);
		if (!pty_wait_text(&e->p, "astray - keys", WAIT_MS))
			e2e_fail_dump(e, "a click on ? help did not open the help");
		pty_send(&e->p, " ");
		if (!pty_wait_text(&e->p, "Turn 0", WAIT_MS))
			e2e_fail_dump(e, "the click walked the player, or help did not return");
	}
	e2e_quit(e);
}

static void test_no_mouse_leaves_mouse_alone(void **state)
{
	struct e2e *e = *state;
	e2e_start(e, SQUARE, 3, 2, 24, 80, (const char *const[]){ "--no-mouse", NULL });
	assert_false(pty_log_has(&e->p, "1000h"));
	assert_false(pty_log_has(&e->p, "\033[?1006"));
	e2e_quit(e);
}

static void test_bad_level_fails_before_curses(void **state)
{
	struct e2e *e = *state;
	struct pty *p = &e->p;
	char *argv[] = { (char *)test_bin(), (char *)"play", (char *)"tests/levels/e2e/no-such.lvl", NULL };
	assert_true(pty_start(p, 24, 80, argv));
	assert_true(pty_wait_exit(p, WAIT_MS));
	assert_int_equal(WEXITSTATUS(p->status), 1);
	assert_false(pty_log_has(p, "\033[?1049h")); /* the screen never changed */
	assert_true(pty_log_has(p, "no-such.lvl"));
}

/* `astray path` colours its marks on a terminal, and never with NO_COLOR. */
static void test_path_colours_on_a_terminal(void **state)
{
	struct e2e *e = *state;
	struct pty *p = &e->p;
	char *argv[] = { (char *)test_bin(), (char *)"path", (char *)SQUARE, (char *)"3,2",
			 (char *)"13,3", (char *)"--fallback", NULL };
	/* the driver clears NO_COLOR in the child; env(1) sets it again below */
	assert_true(pty_start(p, 24, 80, argv));
	assert_true(pty_wait_exit(p, WAIT_MS));
	assert_int_equal(WEXITSTATUS(p->status), 0);
	assert_true(pty_log_has(p, "\033[1;32mS\033[0m"));   /* start, green */
	assert_true(pty_log_has(p, "\033[1;33m*\033[0m"));   /* route, yellow */
	assert_true(pty_log_has(p, "\033[1;31mX\033[0m"));   /* the sealed goal, red */
	assert_true(pty_wait_text(p, "reached=no", WAIT_MS)); /* the text reads the same */
	pty_close(p);

	memset(p, 0, sizeof *p);
	p->fd = -1;
	p->pid = -1;
	char *argv_nc[] = { (char *)"/usr/bin/env", (char *)"NO_COLOR=1", (char *)test_bin(),
			    (char *)"path", (char *)SQUARE, (char *)"3,2", (char *)"13,3",
			    (char *)"--fallback", NULL };
	assert_true(pty_start(p, 24, 80, argv_nc));
	assert_true(pty_wait_exit(p, WAIT_MS));
	assert_int_equal(WEXITSTATUS(p->status), 0);
	assert_false(pty_log_has(p, "\033["));
	assert_true(pty_wait_text(p, "reached=no", WAIT_MS));
}

/* Runs a shell command; returns its exit status and what it wrote (both streams). */
static int e2e_shell(const char *cmd, char *out, size_t size)
{
	FILE *f = popen(cmd, "r");
	assert_non_null(f);
	size_t n = fread(out, 1, size - 1, f);
	out[n] = '\0';
	int st = pclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_refuses_without_terminal(void **state)
{
	(void)state;
	char cmd[512], out[16384]; /* room for all of play --help: a pipe closed early fails the write */
	snprintf(cmd, sizeof cmd, "%s play %s </dev/null 2>&1", test_bin(), SQUARE);
	assert_int_equal(e2e_shell(cmd, out, sizeof out), 1);
	assert_non_null(strstr(out, "needs a terminal"));
	/* a bad --set is named, before anything starts */
	snprintf(cmd, sizeof cmd, "%s play %s --set nosuch.hp=3 </dev/null 2>&1", test_bin(), SQUARE);
	assert_int_equal(e2e_shell(cmd, out, sizeof out), 2); /* a bad option value: usage */
	assert_non_null(strstr(out, "nosuch"));
	snprintf(cmd, sizeof cmd, "%s play --help", test_bin());
	assert_int_equal(e2e_shell(cmd, out, sizeof out), 0);
	assert_non_null(strstr(out, "--no-mouse"));
}

/* Measures (does not assert) the CPU time of one key press with twenty
 * monsters chasing on an 80x24 screen; the figure is printed. */
static void test_bench_keys_figure(void **state)
{
	(void)state;
	char cmd[512];
	snprintf(cmd, sizeof cmd,
		 "%s play tests/levels/e2e/chase20.lvl --seed 1 --set goblin.sight=40 --bench-keys 200",
		 test_bin());
	FILE *f = popen(cmd, "r");
	assert_non_null(f);
	char line[512] = "";
	bool seen = false;
	while (fgets(line, sizeof line, f))
		if (strncmp(line, "bench-keys:", 11) == 0) {
			seen = true;
			printf("  %s", line);
		}
	assert_int_equal(pclose(f), 0);
	assert_true(seen);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_vi_keys_square, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_arrows_and_numpad_square, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_click_floor_walks_there, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_throw_aims_with_the_cursor, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_click_gives_a_direction, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_monster_list_beside_the_map, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_pointer_shows_the_route, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_pointer_on_a_monster_shows_its_route, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_travel_steps_while_the_pointer_moves, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_click_kept_before_motion, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_pack_click_uses_item, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_click_wall_walks_to_cut_point, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_click_sealed_vault_stops_at_wall, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_both_click_forms_act_once, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_cursor_travel, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_three_hits_all_shown, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_death_names_killer_and_keeps_history, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_path_colours_on_a_terminal, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_hex_keys_and_clicks, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_resize_redraws, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_tiny_terminal_notice, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_ctrl_c_restores_terminal, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_sigterm_during_travel_restores_terminal, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_sigquit_and_sigpipe_restore_terminal, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_hangup_ends_the_game, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_closed_terminal_without_sighup, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_quit_restores_terminal, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_win_restores_terminal, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_death_restores_terminal, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_big_map_scrolls, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_help_lists_keys, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_help_scrolls_at_40x10, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_click_status_help, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_no_mouse_leaves_mouse_alone, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_bad_level_fails_before_curses, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_refuses_without_terminal, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_bench_keys_figure, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_old_message_cut_at_word, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_help_wraps_at_40_columns, e2e_setup, e2e_teardown),
		cmocka_unit_test_setup_teardown(test_click_pages_more, e2e_setup, e2e_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
