/*
 * test_knowledge.c - no overlay shows a cell the player has never seen
 * (issue 30; $ASTRAY_BIN, built with the sanitizers, in a pseudo-
 * terminal).  On tests/levels/e2e/hidden.lvl a goblin sees the player
 * across a pool and takes the corridor below, behind two closed doors the
 * player has never seen past: the monster routes (r), the travel cursor's
 * preview, the route of a travel under way, and the descriptions of the
 * cursor and of a right click all leave that corridor blank or unexplored;
 * each route is cut at the door where it enters the unknown.
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

#include <cmocka.h>

#include "pty_check.h"
#include "run_capture.h"

#define CORRIDOR_Y 5 /* the hidden corridor's row, cells 1..9 */

struct map_at {
	int row, col; /* the screen position of cell (0, 0) */
};

static void start(struct pty *p, struct map_at *at, const char *delay, const char *sight)
{
	char *argv[] = { (char *)test_bin(),
			 (char *)"play",
			 (char *)"tests/levels/e2e/hidden.lvl",
			 (char *)"--seed",
			 (char *)"1",
			 (char *)"--no-save",
			 (char *)"--bestiary",
			 (char *)"levels/bestiary.txt",
			 (char *)"--set",
			 (char *)"goblin.sleep=0",
			 (char *)"--set",
			 (char *)"goblin.flee=0",
			 (char *)"--set",
			 (char *)sight,
			 (char *)"--delay",
			 (char *)delay,
			 NULL };
	assert_true(pty_start(p, 24, 80, argv));
	if (!pty_wait_text(p, "Turn 0", WAIT_MS) || !pty_wait_idle(p, WAIT_MS))
		pty_fail(p, "the game did not start");
	pty_dismiss_more(p);
	int row, col;
	if (!pty_find(p, "#@..~~~~", &row, &col))
		pty_fail(p, "the map is not where the test looks");
	at->row = row - 1;
	at->col = col;
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

/* The hidden corridor and the wall below it are blank on the screen. */
static void corridor_blank(struct pty *p, const struct map_at *at, const char *overlay)
{
	for (int y = CORRIDOR_Y; y <= CORRIDOR_Y + 1; y++)
		for (int x = 0; x <= 10; x++) {
			uint32_t ch = pty_char(p, at->row + y, at->col + x);
			if (ch != 0 && ch != ' ') {
				char what[160];
				snprintf(what, sizeof what, "%s shows '%c' at the unseen cell (%d,%d)", overlay,
					 ch < 128 ? (char)ch : '?', x, y);
				pty_fail(p, what);
			}
		}
}

/* Whether ch stands on the screen at a cell of the room (rows 1..4). */
static bool room_shows(struct pty *p, const struct map_at *at, uint32_t ch)
{
	for (int y = 1; y <= 4; y++)
		for (int x = 0; x <= 10; x++)
			if (pty_char(p, at->row + y, at->col + x) == ch)
				return true;
	return false;
}

/* r: the goblin's route is drawn in the room, up to the door, and not
 * through the corridor it is bound for. */
static void test_monster_routes(void **state)
{
	(void)state;
	struct pty p;
	struct map_at at;
	start(&p, &at, "30", "goblin.sight=8");
	pty_send_idle(&p, "r");
	pty_send(&p, "s"); /* the goblin sees the player and plans */
	if (!pty_wait_text(&p, "Turn 1", WAIT_MS) || !pty_wait_idle(&p, WAIT_MS))
		pty_fail(&p, "no turn went by");
	if (!room_shows(&p, &at, ':'))
		pty_fail(&p, "r shows no route in the room");
	corridor_blank(&p, &at, "r (monster routes)");
	quit(&p);
}

/* The travel cursor on a corridor cell: "unexplored", a preview in the
 * room cut at the door, nothing in the corridor; then a right click on
 * a corridor cell says "unexplored" too. */
static void test_cursor_preview_and_describe(void **state)
{
	(void)state;
	struct pty p;
	struct map_at at;
	start(&p, &at, "30", "goblin.sight=8");
	pty_send_idle(&p, "x");
	pty_send_idle(&p, "jjjjllll"); /* from (1,1) to (5,5) */
	if (!(pty_wait_text(&p, "(5,5): ", WAIT_MS) && pty_find(&p, "; unexplored", NULL, NULL)) ||
	    !pty_wait_idle(&p, WAIT_MS))
		pty_fail(&p, "the cursor does not describe the unseen cell as unexplored");
	if (!room_shows(&p, &at, '*'))
		pty_fail(&p, "the preview shows no route in the room");
	/* the cursor itself stands at (5,5): blank under it */
	corridor_blank(&p, &at, "the travel preview");
	pty_send_idle(&p, "\033");
	pty_click(&p, 2, at.col + 7, at.row + CORRIDOR_Y, false);
	if (!pty_wait_text(&p, "unexplored (7,5)", WAIT_MS))
		pty_fail(&p, "a right click on the unseen cell does not say unexplored");
	corridor_blank(&p, &at, "a right click");
	quit(&p);
}

/* A travel under way into the corridor: its route is drawn up to the
 * door, not beyond (--delay 1000 holds it between steps; a blind goblin
 * does not come closer and stop it). */
static void test_travel_route(void **state)
{
	(void)state;
	struct pty p;
	struct map_at at;
	start(&p, &at, "1000", "goblin.sight=0");
	pty_send_idle(&p, "x");
	pty_send_idle(&p, "jjjjllll");
	if (!(pty_wait_text(&p, "(5,5): ", WAIT_MS) && pty_find(&p, "; unexplored", NULL, NULL)))
		pty_fail(&p, "the cursor did not reach (5,5)");
	pty_send(&p, "\r");
	if (!pty_wait_text(&p, "Turn 1", WAIT_MS) || !pty_wait_idle(&p, WAIT_MS))
		pty_fail(&p, "the travel took no step");
	if (!room_shows(&p, &at, '*'))
		pty_fail(&p, "no travel route is drawn in the room");
	corridor_blank(&p, &at, "a travel under way");
	pty_send(&p, "\033"); /* a key stops the travel, and says so */
	if (!pty_wait_gone(&p, "*", WAIT_MS) || !pty_wait_text(&p, "You stop: you pressed a key.", WAIT_MS))
		pty_fail(&p, "the travel did not stop, or did not say why");
	quit(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_monster_routes),
		cmocka_unit_test(test_cursor_preview_and_describe),
		cmocka_unit_test(test_travel_route),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
