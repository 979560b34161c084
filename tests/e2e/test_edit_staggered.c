/*
 * test_edit_staggered.c - `astray edit` ($ASTRAY_BIN) in a pseudo-terminal
 * on hex and diamond maps, where cell (x, y) is drawn at text column
 * 2x + (y & 1): a click (both forms) and a drag paint the cells under the
 * pointer; walling the exit off brings its diagnostic, and undo takes it
 * away; the route marker's cost changes as a wall is drawn across the
 * route; s writes the file; p plays the level and comes back.  The map is
 * located on the screen from the start's row, never assumed.
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
#include "pty_driver.h"

#define BESTIARY "tests/levels/bestiary.txt"

struct cell {
	int x, y;
};

/* One fixture and what the test does on it. */
struct map_case {
	const char *fixture;
	struct cell start, exit;
	const char *start_row;       /* the start's row on screen, from x = 0 */
	struct cell click[2];        /* painted by a click, then a press and release */
	struct cell drag[2];         /* a drag along a row, from [0] to [1] */
	struct cell seal[4];         /* every open neighbour of the exit */
	int n_seal;
	const char *to_start;        /* cursor keys from the last seal cell (a click moves the cursor) to the start */
	const char *to_exit;         /* cursor keys from the start to the exit */
	struct cell wall[5];         /* an edge-connected wall across the route (one drag) */
	int n_wall;
	const char *saved_row;       /* a row of the saved file */
};

static const struct map_case HEX = {
	.fixture = "tests/levels/e2e/hex.lvl",
	.start = { 3, 2 }, .exit = { 10, 4 },
	.start_row = "# . . @",
	.click = { { 5, 3 }, { 8, 1 } },
	.drag = { { 2, 1 }, { 6, 1 } },
	.seal = { { 9, 4 }, { 9, 3 }, { 10, 3 } }, .n_seal = 3,
	.to_start = "khhhhhhh",
	.to_exit = "llllllljj",
	.wall = { { 6, 2 }, { 6, 3 }, { 6, 4 } }, .n_wall = 3,
	.saved_row = "\n # . . . . # # . . . . #\n", /* row 3: the click, the wall */
};

static const struct map_case DIAMOND8 = {
	.fixture = "tests/levels/e2e/diamond8.lvl",
	.start = { 3, 3 }, .exit = { 10, 6 },
	.start_row = "# . . @",
	.click = { { 5, 2 }, { 8, 1 } },
	.drag = { { 2, 1 }, { 5, 1 } },
	.seal = { { 9, 5 }, { 10, 5 }, { 9, 6 }, { 10, 4 } }, .n_seal = 4,
	.to_start = "yhhhhhh",
	.to_exit = "lllllllbj",
	/* rows 3 to 6: the way round is over the top, through 6,2 */
	.wall = { { 6, 3 }, { 6, 4 }, { 6, 5 }, { 6, 6 } }, .n_wall = 4,
	.saved_row = "\n# . . . . . # # . . . #\n", /* row 4: the wall beside the fixture's own */
};

struct ed {
	struct pty p;
	char dir[64];
	char file[128];
	int ox, oy; /* screen position of text column 0 of map row 0 */
};

static const char *bin(void)
{
	return pty_bin();
}

static void dump_fail(struct ed *e, const char *what)
{
	pty_fail(&e->p, what);
}

static char *slurp(const char *path)
{
	return pty_slurp(path);
}

static int col_of(const struct ed *e, struct cell c)
{
	return e->ox + 2 * c.x + (c.y & 1);
}

static int row_of(const struct ed *e, struct cell c)
{
	return e->oy + c.y;
}

static void start(struct ed *e, const struct map_case *mc)
{
	memset(e, 0, sizeof *e);
	snprintf(e->dir, sizeof e->dir, "/tmp/astray-edit-st-XXXXXX");
	assert_non_null(mkdtemp(e->dir));
	snprintf(e->file, sizeof e->file, "%s/m.lvl", e->dir);
	char *t = slurp(mc->fixture);
	assert_non_null(t);
	FILE *f = fopen(e->file, "wb");
	assert_non_null(f);
	fputs(t, f);
	fclose(f);
	free(t);
	char *argv[] = { (char *)bin(), (char *)"edit", e->file, (char *)"--bestiary", (char *)BESTIARY,
			 (char *)"--seed", (char *)"1", NULL };
	assert_true(pty_start(&e->p, 24, 80, argv));
	if (!pty_wait_text(&e->p, "Palette", WAIT_MS) || !pty_wait_idle(&e->p, WAIT_MS))
		dump_fail(e, "the editor did not start");
	int row, col;
	if (!pty_find(&e->p, mc->start_row, &row, &col))
		dump_fail(e, "no start on the screen");
	e->oy = row - mc->start.y;
	e->ox = col - (mc->start.y & 1);
}

static void finish(struct ed *e)
{
	pty_close(&e->p);
	char cmd[200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", e->dir);
	assert_int_equal(system(cmd), 0);
}

static void wait_cell(struct ed *e, struct cell c, char ch, const char *what)
{
	if (!pty_wait_char_at(&e->p, (uint32_t)(unsigned char)ch, row_of(e, c), col_of(e, c), WAIT_MS)) {
		print_error("cell %d,%d (screen %d,%d)\n", c.x, c.y, col_of(e, c), row_of(e, c));
		dump_fail(e, what);
	}
}

/* A click taken in, then Ctrl-L behind it (ncurses may hold a release back). */
static void click(struct ed *e, struct cell c, bool split)
{
	pty_click(&e->p, 0, col_of(e, c), row_of(e, c), split);
	if (!pty_wait_idle(&e->p, WAIT_MS) || !pty_send_idle(&e->p, "\014"))
		dump_fail(e, "the editor did not take the click");
}

/* Left press on the first cell, motion over the others, release on the last (SGR). */
static void drag(struct ed *e, const struct cell *cells, int n)
{
	char buf[64];
	for (int i = 0; i < n; i++) {
		int b = i == 0 ? 0 : 32;
		snprintf(buf, sizeof buf, "\033[<%d;%d;%dM", b, col_of(e, cells[i]) + 1, row_of(e, cells[i]) + 1);
		if (!pty_send_idle(&e->p, buf))
			dump_fail(e, "the editor did not take the drag");
	}
	snprintf(buf, sizeof buf, "\033[<0;%d;%dm", col_of(e, cells[n - 1]) + 1, row_of(e, cells[n - 1]) + 1);
	pty_send(&e->p, buf);
	if (!pty_wait_idle(&e->p, WAIT_MS) || !pty_send_idle(&e->p, "\014"))
		dump_fail(e, "the editor did not take the release");
}

/* The panel's route line ("cost=... steps=..."), or "" when there is none. */
static void route_line(struct ed *e, char *out, size_t size)
{
	int row, col;
	out[0] = '\0';
	if (!pty_find(&e->p, "cost=", &row, &col))
		return;
	char line[256];
	pty_row(&e->p, row, line, sizeof line);
	snprintf(out, size, "%s", strstr(line, "cost="));
}

static void run_case(const struct map_case *mc)
{
	struct ed e;
	start(&e, mc);
	if (!pty_wait_text(&e.p, "No problems", WAIT_MS))
		dump_fail(&e, "a good level shows problems");
	wait_cell(&e, mc->start, '@', "the start is not where the screen says");
	wait_cell(&e, mc->exit, '>', "the exit is not at its cell");

	/* a click in each form, then a drag along a row */
	click(&e, mc->click[0], false);
	wait_cell(&e, mc->click[0], '#', "a click did not paint its cell");
	click(&e, mc->click[1], true);
	wait_cell(&e, mc->click[1], '#', "a press and release did not paint its cell");
	struct cell along[8];
	int n = 0;
	for (int x = mc->drag[0].x; x <= mc->drag[1].x; x++)
		along[n++] = (struct cell){ x, mc->drag[0].y };
	drag(&e, along, n);
	for (int i = 0; i < n; i++)
		wait_cell(&e, along[i], '#', "a drag did not paint every cell under the pointer");
	/* the cells beside the drag's row are untouched */
	wait_cell(&e, (struct cell){ mc->drag[1].x + 1, mc->drag[0].y }, '.', "a drag painted past its end");
	pty_send(&e.p, "z");
	for (int i = 0; i < n; i++)
		wait_cell(&e, along[i], mc->click[1].y == along[i].y && mc->click[1].x == along[i].x ? '#' : '.',
			  "undo did not take the whole drag back");

	/* wall the exit off: its error comes, and goes with the undos */
	char want[64];
	snprintf(want, sizeof want, "exit '>' at %d,%d", mc->exit.x, mc->exit.y);
	for (int i = 0; i < mc->n_seal; i++)
		click(&e, mc->seal[i], false);
	if (!pty_wait_text(&e.p, want, WAIT_MS))
		dump_fail(&e, "no diagnostic for the walled-off exit");
	for (int i = 0; i < mc->n_seal; i++)
		pty_send(&e.p, "z");
	if (!pty_wait_gone(&e.p, want, WAIT_MS))
		dump_fail(&e, "the diagnostic stayed after the exit was opened again");
	if (!pty_wait_text(&e.p, "No problems", WAIT_MS))
		dump_fail(&e, "problems left after the undos");

	/* markers on the start and the exit; a wall across the route changes its cost */
	pty_send(&e.p, mc->to_start);
	pty_send(&e.p, "a");
	pty_send(&e.p, mc->to_exit);
	pty_send(&e.p, "t");
	if (!pty_wait_idle(&e.p, WAIT_MS) || !pty_find(&e.p, "cost=", NULL, NULL))
		dump_fail(&e, "no route between the markers");
	char before[128], after[128];
	route_line(&e, before, sizeof before);
	if (!strstr(before, "found")) {
		print_error("route line: %s\n", before);
		dump_fail(&e, "the route to the exit was not found");
	}
	drag(&e, mc->wall, mc->n_wall);
	for (int i = 0; i < mc->n_wall; i++)
		wait_cell(&e, mc->wall[i], '#', "the wall across the route was not drawn");
	if (!pty_wait_idle(&e.p, WAIT_MS))
		dump_fail(&e, "the editor did not go idle after the wall");
	route_line(&e, after, sizeof after);
	print_message("%s: route %s -> %s\n", mc->fixture, before, after);
	if (strcmp(before, after) == 0)
		dump_fail(&e, "the route's cost line did not change with the wall across it");
	double c0 = atof(before + 5), c1 = atof(after + 5);
	assert_true(c1 > c0);
	assert_non_null(strstr(after, "found"));

	/* save writes the file */
	pty_send(&e.p, "s");
	if (!pty_wait_text(&e.p, "Saved", WAIT_MS))
		dump_fail(&e, "no word of the save");
	char *text = slurp(e.file);
	assert_non_null(text);
	if (!strstr(text, mc->saved_row)) {
		print_error("saved:\n%s\nwanted row:%s", text, mc->saved_row);
		fail();
	}
	free(text);

	/* play-test starts on the level in memory, and comes back */
	pty_send(&e.p, "p");
	if (!pty_wait_text(&e.p, "Turn 0", WAIT_MS))
		dump_fail(&e, "the play-test did not start");
	pty_send(&e.p, "Q");
	if (!pty_wait_text(&e.p, "Really quit", WAIT_MS))
		dump_fail(&e, "the game did not ask before quitting");
	pty_send(&e.p, "y");
	if (!pty_wait_text(&e.p, "Play-test over", WAIT_MS))
		dump_fail(&e, "the editor did not come back after the play-test");
	wait_cell(&e, mc->wall[0], '#', "the wall is gone after the play-test");
	pty_send(&e.p, "q");
	assert_true(pty_wait_exit(&e.p, WAIT_MS));
	assert_true(WIFEXITED(e.p.status));
	assert_int_equal(WEXITSTATUS(e.p.status), 0);
	assert_false(e.p.altscreen);
	finish(&e);
}

static void test_hex(void **state)
{
	(void)state;
	run_case(&HEX);
}

static void test_diamond8(void **state)
{
	(void)state;
	run_case(&DIAMOND8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hex),
		cmocka_unit_test(test_diamond8),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
