/*
 * test_edit.c - `astray edit` ($ASTRAY_BIN, built with the sanitizers) in
 * a pseudo-terminal, as a designer uses it: paint with a key, a click (both
 * forms) and a drag, undo, wall the exit off and see the error come and go,
 * save and read the file back; a play-test that returns; quitting with
 * unsaved changes asks; SIGTERM leaves the changes in LEVEL.recover (the
 * next start offers it: test_edit_recover.c); the
 * header screen and resize mode; a broken file opens with its errors;
 * --from-gen.
 * Positions are found on the screen (the start's row), never assumed.
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
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "pty_check.h"
#include "pty_driver.h"

#define FIXTURE "tests/levels/e2e/square.lvl" /* start 3,2; exit 1,6 */
#define BESTIARY "tests/levels/bestiary.txt"

struct ed {
	struct pty p;
	char dir[64];
	char file[128];
	int ox, oy;        /* screen position of map cell 0,0 */
};

static const char *bin(void)
{
	return pty_bin();
}

static _Noreturn void dump_fail(struct ed *e, const char *what)
{
	pty_fail(&e->p, what);
}

static char *slurp(const char *path)
{
	return pty_slurp(path);
}

static void copy_file(const char *from, const char *to)
{
	char *t = slurp(from);
	assert_non_null(t);
	FILE *f = fopen(to, "wb");
	assert_non_null(f);
	fputs(t, f);
	fclose(f);
	free(t);
}

/* A copy of the fixture in a fresh folder, open in the editor; the start at 3,2 locates the map. */
static void start(struct ed *e)
{
	memset(e, 0, sizeof *e);
	snprintf(e->dir, sizeof e->dir, "/tmp/astray-edit-XXXXXX");
	assert_non_null(mkdtemp(e->dir));
	snprintf(e->file, sizeof e->file, "%s/s.lvl", e->dir);
	copy_file(FIXTURE, e->file);
	char *argv[] = { (char *)bin(), (char *)"edit", e->file, (char *)"--bestiary", (char *)BESTIARY,
			 (char *)"--seed", (char *)"1", NULL };
	assert_true(pty_start(&e->p, 24, 80, argv));
	if (!pty_wait_text(&e->p, "Palette", WAIT_MS) || !pty_wait_idle(&e->p, WAIT_MS))
		dump_fail(e, "the editor did not start");
	int row, col;
	/* row 2 of the map starts "#..@" (the palette has an '@' too) */
	if (!pty_find(&e->p, "#..@", &row, &col))
		dump_fail(e, "no start on the screen");
	e->ox = col;
	e->oy = row - 2;
}

static void finish(struct ed *e)
{
	pty_close(&e->p);
	char cmd[200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", e->dir);
	assert_int_equal(system(cmd), 0);
}

static void wait_cell(struct ed *e, int x, int y, char c, const char *what)
{
	if (!pty_wait_char_at(&e->p, (uint32_t)(unsigned char)c, e->oy + y, e->ox + x, WAIT_MS))
		dump_fail(e, what);
}

/* A click, taken in before anything else is sent (ncurses may hold a
 * release back until the next input, so a test that sends the next press
 * at once reorders them), then harmless input behind it. */
static void click_cell(struct ed *e, int x, int y, bool split)
{
	pty_click(&e->p, 0, e->ox + x, e->oy + y, split);
	if (!pty_wait_idle(&e->p, WAIT_MS) || !pty_send_idle(&e->p, "\014")) /* Ctrl-L */
		dump_fail(e, "the editor did not take the click");
}

/* Left press at one cell, a drag through the cells between, release at the other (SGR). */
static void drag_cells(struct ed *e, int x0, int y, int x1)
{
	char buf[64];
	snprintf(buf, sizeof buf, "\033[<0;%d;%dM", e->ox + x0 + 1, e->oy + y + 1);
	if (!pty_send_idle(&e->p, buf))
		dump_fail(e, "the editor did not take the press");
	for (int x = x0 + 1; x <= x1; x++) {
		snprintf(buf, sizeof buf, "\033[<32;%d;%dM", e->ox + x + 1, e->oy + y + 1);
		if (!pty_send_idle(&e->p, buf))
			dump_fail(e, "the editor did not take the drag");
	}
	snprintf(buf, sizeof buf, "\033[<0;%d;%dm", e->ox + x1 + 1, e->oy + y + 1);
	pty_send(&e->p, buf);
}

static void test_paint_undo_save(void **state)
{
	(void)state;
	struct ed e;
	start(&e);
	if (!pty_wait_text(&e.p, "No problems", WAIT_MS))
		dump_fail(&e, "a good level shows problems");
	/* a key: the cursor starts on the '@'; one step right, then '#' */
	pty_send(&e.p, "l#");
	wait_cell(&e, 4, 2, '#', "the '#' key did not paint");
	/* a monster's letter alone says how to paint it; m then the letter does */
	pty_send(&e.p, "g");
	if (!pty_wait_text(&e.p, "'g' is a goblin: press m then g to paint it.", WAIT_MS))
		dump_fail(&e, "a monster's letter did not say how to paint it");
	pty_send(&e.p, "mg");
	wait_cell(&e, 4, 2, 'g', "m g did not paint a goblin");
	pty_send(&e.p, "z#"); /* and the wall is the glyph again */
	wait_cell(&e, 4, 2, '#', "undo did not take the goblin back");
	if (!pty_wait_text(&e.p, "paint '#' wall", WAIT_MS))
		dump_fail(&e, "'#' did not choose the wall again");
	/* a click in each form, then a drag */
	click_cell(&e, 6, 5, false);
	wait_cell(&e, 6, 5, '#', "a click did not paint");
	click_cell(&e, 7, 5, true);
	wait_cell(&e, 7, 5, '#', "a press and release did not paint");
	drag_cells(&e, 10, 1, 14);
	wait_cell(&e, 14, 1, '#', "a drag did not paint its last cell");
	wait_cell(&e, 12, 1, '#', "a drag did not paint the cells between");
	/* undo takes the whole drag back, then the press-and-release */
	pty_send(&e.p, "z");
	wait_cell(&e, 12, 1, '.', "undo did not take the drag back");
	wait_cell(&e, 10, 1, '.', "undo did not take the whole drag back");
	pty_send(&e.p, "z");
	wait_cell(&e, 7, 5, '.', "undo did not take the click back");
	/* wall the exit (1,6) off: the error appears, and goes with an undo */
	click_cell(&e, 1, 5, false);
	click_cell(&e, 2, 5, false);
	click_cell(&e, 2, 6, false);
	if (!pty_wait_text(&e.p, "exit '>' at 1,6", WAIT_MS))
		dump_fail(&e, "no diagnostic for the walled-off exit");
	assert_true(pty_wait_text(&e.p, "1 error", WAIT_MS));
	pty_send(&e.p, "z");
	if (!pty_wait_gone(&e.p, "exit '>' at 1,6", WAIT_MS))
		dump_fail(&e, "the diagnostic stayed after the exit was opened");
	assert_true(pty_wait_text(&e.p, "No problems", WAIT_MS));
	/* save, quit, read the file */
	pty_send(&e.p, "s");
	if (!pty_wait_text(&e.p, "Saved", WAIT_MS))
		dump_fail(&e, "no word of the save");
	pty_send(&e.p, "q");
	assert_true(pty_wait_exit(&e.p, WAIT_MS));
	assert_true(WIFEXITED(e.p.status));
	assert_int_equal(WEXITSTATUS(e.p.status), 0);
	assert_false(e.p.altscreen);
	char *text = slurp(e.file);
	assert_non_null(text);
	assert_non_null(strstr(text, "\n#..@#......#####...#\n"));  /* row 2: the key */
	assert_non_null(strstr(text, "\n###...#............#\n"));  /* row 5: clicks, one undone */
	assert_non_null(strstr(text, "\n#>.................#\n"));  /* row 6: the exit open */
	assert_non_null(strstr(text, "\n#..................#\n"));  /* row 1: the drag undone */
	assert_non_null(strstr(text, "sealed: 13,3\n"));
	free(text);
	char old[160];
	snprintf(old, sizeof old, "%s~", e.file);
	char *backup = slurp(old);
	assert_non_null(backup); /* the previous version */
	assert_non_null(strstr(backup, "\n#..@.......#####...#\n"));
	free(backup);
	finish(&e);
}

/* p plays the level as it is in memory; quitting the game comes back. */
static void test_play_and_return(void **state)
{
	(void)state;
	struct ed e;
	start(&e);
	pty_send(&e.p, "l#"); /* unsaved: the game must see it anyway */
	wait_cell(&e, 4, 2, '#', "the '#' key did not paint");
	pty_send(&e.p, "p");
	if (!pty_wait_text(&e.p, "Turn 0", WAIT_MS))
		dump_fail(&e, "the play-test did not start");
	if (!pty_send_idle(&e.p, "l")) /* into the new wall: a bump, no turn */
		dump_fail(&e, "the play-test did not take a key");
	int row, col;
	assert_true(pty_find(&e.p, "Turn 0", &row, &col));
	pty_send(&e.p, "Q");
	assert_true(pty_wait_text(&e.p, "Really quit", WAIT_MS));
	pty_send(&e.p, "y");
	if (!pty_wait_text(&e.p, "Play-test over", WAIT_MS))
		dump_fail(&e, "the editor did not come back");
	assert_true(pty_wait_text(&e.p, "Palette", WAIT_MS));
	wait_cell(&e, 4, 2, '#', "the painted wall is gone after the play-test");
	/* quitting with unsaved changes asks; y leaves the file as it was */
	pty_send(&e.p, "q");
	if (!pty_wait_text(&e.p, "Unsaved changes", WAIT_MS))
		dump_fail(&e, "no question about unsaved changes");
	pty_send(&e.p, "y");
	assert_true(pty_wait_exit(&e.p, WAIT_MS));
	assert_int_equal(WEXITSTATUS(e.p.status), 0);
	char *text = slurp(e.file), *orig = slurp(FIXTURE);
	assert_string_equal(text, orig);
	free(text);
	free(orig);
	finish(&e);
}

/* SIGTERM with unsaved changes: the terminal is restored, LEVEL.recover
 * holds them, and the parent sees the signal. */
static void test_sigterm_recovers(void **state)
{
	(void)state;
	struct ed e;
	start(&e);
	pty_send(&e.p, "l~");
	wait_cell(&e, 4, 2, '~', "the '~' key did not paint");
	kill(e.p.pid, SIGTERM);
	assert_true(pty_wait_exit(&e.p, WAIT_MS));
	/* it dies of the signal itself once the recovery file is written */
	assert_true(WIFSIGNALED(e.p.status));
	assert_int_equal(WTERMSIG(e.p.status), SIGTERM);
	assert_false(e.p.altscreen);
	char rec[160];
	snprintf(rec, sizeof rec, "%s.recover", e.file);
	char *text = slurp(rec);
	assert_non_null(text);
	assert_non_null(strstr(text, "\n#..@~......#####...#\n"));
	free(text);
	finish(&e);
}

/* Any command line in a fresh folder (e->dir), without locating the map. */
static void start_argv(struct ed *e, char **argv)
{
	assert_true(pty_start(&e->p, 24, 80, argv));
	if (!pty_wait_text(&e->p, "Palette", WAIT_MS))
		dump_fail(e, "the editor did not start");
}

static void fresh_dir(struct ed *e, const char *name)
{
	memset(e, 0, sizeof *e);
	snprintf(e->dir, sizeof e->dir, "/tmp/astray-edit-XXXXXX");
	assert_non_null(mkdtemp(e->dir));
	snprintf(e->file, sizeof e->file, "%s/%s", e->dir, name);
}

/* I: the name set, a value with a comment refused; R: one column more on
 * the right, one row less at the bottom; s writes both. */
static void test_header_and_resize(void **state)
{
	(void)state;
	struct ed e;
	start(&e);
	pty_send(&e.p, "I");
	if (!pty_wait_text(&e.p, "Level header", WAIT_MS))
		dump_fail(&e, "no header screen");
	pty_send(&e.p, "n\025Deep Pit\r");
	if (!pty_wait_text(&e.p, "name: is now 'Deep Pit'", WAIT_MS))
		dump_fail(&e, "the name was not set");
	pty_send(&e.p, "a\025me ;you\r");
	if (!pty_wait_text(&e.p, "would start a comment", WAIT_MS))
		dump_fail(&e, "a value with a comment was not refused");
	assert_true(pty_send_idle(&e.p, "\033"));
	pty_send(&e.p, "\033");
	if (!pty_wait_gone(&e.p, "Level header", WAIT_MS))
		dump_fail(&e, "Esc did not return to the map");
	pty_send(&e.p, "R");
	if (!pty_wait_text(&e.p, "Resize 20x8", WAIT_MS))
		dump_fail(&e, "no resize mode");
	pty_send(&e.p, "l");
	if (!pty_wait_text(&e.p, "Resize 21x8", WAIT_MS))
		dump_fail(&e, "l did not grow the right side");
	pty_send(&e.p, "J");
	if (!pty_wait_text(&e.p, "Resize 21x7", WAIT_MS))
		dump_fail(&e, "J did not shrink the bottom");
	pty_send(&e.p, "\r");
	if (!pty_wait_text(&e.p, "Map size 21x7", WAIT_MS))
		dump_fail(&e, "Enter did not leave resize mode");
	pty_send(&e.p, "s");
	if (!pty_wait_text(&e.p, "Saved", WAIT_MS))
		dump_fail(&e, "no word of the save");
	pty_send(&e.p, "q");
	assert_true(pty_wait_exit(&e.p, WAIT_MS));
	assert_int_equal(WEXITSTATUS(e.p.status), 0);
	char *text = slurp(e.file);
	assert_non_null(text);
	assert_non_null(strstr(text, "name: Deep Pit\n"));
	assert_null(strstr(text, "author: me"));
	assert_non_null(strstr(text, "\n#..@.......#####...#\n")); /* the new column is void */
	size_t tl = strlen(text);
	static const char last[] = "\n#>.................#\n"; /* the bottom wall went */
	assert_true(tl > sizeof last && strcmp(text + tl - (sizeof last - 1), last) == 0);
	free(text);
	finish(&e);
}

/* A file with errors opens with them listed; quitting leaves it as it was. */
static void test_broken_file_opens(void **state)
{
	(void)state;
	struct ed e;
	fresh_dir(&e, "broken.lvl");
	static const char broken[] = "astray-level 1\n"
				     "topology: square8\n"
				     "map:\n"
				     "#######\n"
				     "#@.Q.>#\n"
				     "#######\n";
	FILE *f = fopen(e.file, "wb");
	assert_non_null(f);
	fputs(broken, f);
	fclose(f);
	char *argv[] = { (char *)bin(), (char *)"edit", e.file, (char *)"--bestiary", (char *)BESTIARY, NULL };
	start_argv(&e, argv);
	if (!pty_wait_text(&e.p, "has 2 errors", WAIT_MS))
		dump_fail(&e, "the file's errors were not announced");
	if (!pty_wait_text(&e.p, "file 5:4 unknown monster", WAIT_MS))
		dump_fail(&e, "the unknown monster is not listed with its position");
	assert_true(pty_wait_text(&e.p, "#@._.>#", WAIT_MS)); /* the rest of the map is there (the bad cell void, drawn _) */
	pty_send(&e.p, "ee");
	if (!pty_wait_text(&e.p, "The file as loaded, line 5 column 4", WAIT_MS))
		dump_fail(&e, "e did not select the file's error");
	pty_send(&e.p, "q");
	assert_true(pty_wait_exit(&e.p, WAIT_MS));
	assert_int_equal(WEXITSTATUS(e.p.status), 0);
	char *text = slurp(e.file);
	assert_string_equal(text, broken); /* never overwritten without a save */
	free(text);
	finish(&e);
}

/* --from-gen: a generated diamond4 level, unsaved: q asks, y leaves no file. */
static void test_from_gen(void **state)
{
	(void)state;
	struct ed e;
	fresh_dir(&e, "gen.lvl");
	char *argv[] = { (char *)bin(), (char *)"edit", (char *)"--from-gen", (char *)"3", e.file,
			 (char *)"--topology", (char *)"diamond4", (char *)"--size", (char *)"20x12",
			 (char *)"--bestiary", (char *)BESTIARY, NULL };
	start_argv(&e, argv);
	if (!pty_wait_text(&e.p, "Generated diamond4 20x12", WAIT_MS))
		dump_fail(&e, "no word of the generated level");
	assert_true(pty_wait_text(&e.p, "[modified]", WAIT_MS));
	pty_send(&e.p, "q");
	if (!pty_wait_text(&e.p, "Unsaved changes", WAIT_MS))
		dump_fail(&e, "quitting a generated level did not ask");
	pty_send(&e.p, "y");
	assert_true(pty_wait_exit(&e.p, WAIT_MS));
	assert_int_equal(WEXITSTATUS(e.p.status), 0);
	assert_int_equal(access(e.file, F_OK), -1);
	finish(&e);
}

/* A closed terminal with unsaved changes: exit 129, and LEVEL.recover
 * holds them as a level that loads (astray check passes it) and opens in
 * the editor again, which says where it came from. */
static void test_hangup_recovers(void **state)
{
	(void)state;
	struct ed e;
	start(&e);
	pty_send(&e.p, "l,");
	wait_cell(&e, 4, 2, ',', "the ',' key did not paint");
	pty_hangup(&e.p);
	assert_true(pty_wait_exit(&e.p, WAIT_MS));
	assert_true(WIFEXITED(e.p.status));
	assert_int_equal(WEXITSTATUS(e.p.status), 129);
	char rec[160], cmd[512];
	snprintf(rec, sizeof rec, "%s.recover", e.file);
	char *text = slurp(rec);
	assert_non_null(text);
	assert_non_null(strstr(text, "\n#..@,......#####...#\n"));
	free(text);
	snprintf(cmd, sizeof cmd, "'%s' check --bestiary %s '%s' >/dev/null 2>&1", bin(), BESTIARY, rec);
	assert_int_equal(system(cmd), 0);
	pty_close(&e.p);
	/* the next start on the level offers the recovery file (and
	 * tests/e2e/test_edit_recover.c restores it) */
	char *argv[] = { (char *)bin(), (char *)"edit", e.file, (char *)"--bestiary", (char *)BESTIARY, NULL };
	assert_true(pty_start(&e.p, 24, 80, argv));
	if (!pty_wait_text(&e.p, "holds the unsaved changes", WAIT_MS))
		dump_fail(&e, "the next start did not mention the recovery file");
	pty_answer(&e.p, "n\r");
	if (!pty_wait_text(&e.p, "Palette", WAIT_MS))
		dump_fail(&e, "the editor did not start");
	pty_send(&e.p, "q");
	assert_true(pty_wait_exit(&e.p, WAIT_MS));
	finish(&e);
}

/* A terminal that goes away sends more than one hangup (tmux kill-pane:
 * the terminal's, then the session's): hangups arriving while the
 * recovery file is written must not kill the editor before it is there. */
static void test_repeated_hangups_recover(void **state)
{
	(void)state;
	struct ed e;
	start(&e);
	pty_send(&e.p, "l,");
	wait_cell(&e, 4, 2, ',', "the ',' key did not paint");
	bool gone = false;
	for (int i = 0; i < 400 && !gone; i++) {
		kill(e.p.pid, SIGHUP);
		gone = pty_wait_exit(&e.p, 5);
	}
	if (!gone)
		assert_true(pty_wait_exit(&e.p, WAIT_MS));
	if (!WIFEXITED(e.p.status))
		dump_fail(&e, "killed by a repeated hangup before the recovery file was written");
	assert_int_equal(WEXITSTATUS(e.p.status), 129);
	char rec[160];
	snprintf(rec, sizeof rec, "%s.recover", e.file);
	char *text = slurp(rec);
	assert_non_null(text);
	assert_non_null(strstr(text, "\n#..@,......#####...#\n"));
	free(text);
	finish(&e);
}

/* On a wide terminal the side panel takes the spare columns, so a
 * problem's whole sentence shows instead of being cut at 33 columns. */
static void test_panel_takes_spare_width(void **state)
{
	(void)state;
	struct ed e;
	fresh_dir(&e, "walled.lvl");
	FILE *f = fopen(e.file, "w");
	assert_non_null(f);
	fputs("astray-level 1\nname: Walled\ntopology: square8\nmap:\n#######\n#@..#>#\n#...###\n#######\n", f);
	fclose(f);
	char *argv[] = { (char *)bin(), (char *)"edit", e.file, (char *)"--bestiary", (char *)BESTIARY, NULL };
	assert_true(pty_start(&e.p, 30, 140, argv));
	if (!pty_wait_text(&e.p, "cannot be reached from the player start", WAIT_MS))
		dump_fail(&e, "the problem line was cut on a 140-column terminal");
	pty_send(&e.p, "q");
	assert_true(pty_wait_exit(&e.p, WAIT_MS));
	finish(&e);
}

/* A Moving AI .map is refused in one line, not with a page of parse errors. */
static void test_movingai_map_refused(void **state)
{
	(void)state;
	char cmd[512], out[2048] = "";
	snprintf(cmd, sizeof cmd, "%s edit tests/bench/open.map </dev/null 2>&1", bin());
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	size_t n = fread(out, 1, sizeof out - 1, p);
	out[n] = '\0';
	int st = pclose(p);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 1);
	assert_non_null(strstr(out, "is a Moving AI map; the editor opens .lvl levels"));
	assert_null(strchr(strchr(out, '\n') + 1, '\n')); /* one line */
}

/* A click off the map's cells (the blank around a small map, the status,
 * notice and hint lines, the panel's edge) paints nothing: the nearest
 * edge cell used to take it.  The file stays byte-identical. */
static void test_off_map_clicks_do_nothing(void **state)
{
	(void)state;
	struct ed e;
	start(&e);
	pty_send(&e.p, "]"); /* floor: a click on the wall around would change it */
	if (!pty_wait_text(&e.p, "paint '.' floor", WAIT_MS))
		dump_fail(&e, "] did not choose the floor");
	const int w = 20, h = 8;
	const int spots[][2] = {
		{ e.ox, 0 },          { e.ox + 3, 1 },       { e.ox, 23 },            /* status, notice, hints */
		{ e.ox - 1, e.oy },   { e.ox - 1, e.oy + 3 }, { e.ox + w, e.oy },     /* left and right of it */
		{ e.ox + w + 2, e.oy + h - 1 }, { e.ox, e.oy - 1 }, { e.ox + 5, e.oy + h }, /* above, below */
		{ e.ox - 3, e.oy - 2 }, { e.ox + w + 1, e.oy + h + 1 },                  /* the corners */
	};
	for (size_t i = 0; i < sizeof spots / sizeof spots[0]; i++) {
		click_cell(&e, spots[i][0] - e.ox, spots[i][1] - e.oy, i % 2 == 1);
		/* a right click off the map picks nothing up either */
		pty_click(&e.p, 2, spots[i][0], spots[i][1], false);
		if (!pty_wait_idle(&e.p, WAIT_MS))
			dump_fail(&e, "the editor did not take the right click");
	}
	if (!pty_wait_text(&e.p, "undo 0 redo 0", WAIT_MS) || !pty_wait_text(&e.p, "paint '.' floor", WAIT_MS))
		dump_fail(&e, "a click off the map changed the level or the glyph");
	/* and a click on a cell still paints (the control) */
	click_cell(&e, 0, 0, false);
	wait_cell(&e, 0, 0, '.', "a click on the corner cell did not paint");
	pty_send(&e.p, "z");
	wait_cell(&e, 0, 0, '#', "undo did not take the corner back");
	pty_send(&e.p, "q"); /* unmodified: no question */
	if (!pty_wait_exit(&e.p, WAIT_MS))
		dump_fail(&e, "q asked: the level counts as modified");
	assert_int_equal(WEXITSTATUS(e.p.status), 0);
	char *text = slurp(e.file), *orig = slurp(FIXTURE);
	assert_string_equal(text, orig);
	free(text);
	free(orig);
	finish(&e);
}

/* SGR mouse report of button code `code` (0 left; +4 shift, +16 ctrl) at map cell (x, y): press and release. */
static void click_code(struct ed *e, int code, int x, int y)
{
	char buf[64];
	snprintf(buf, sizeof buf, "\033[<%d;%d;%dM\033[<%d;%d;%dm", code, e->ox + x + 1, e->oy + y + 1, code,
		 e->ox + x + 1, e->oy + y + 1);
	pty_send(&e->p, buf);
	if (!pty_wait_idle(&e->p, WAIT_MS) || !pty_send_idle(&e->p, "\014"))
		dump_fail(e, "the editor did not take the click");
}

/* Markers by mouse: shift-click A, ctrl-click B; the marker tool from the
 * panel (A, then B) for terminals that keep modified clicks; none paints. */
static void test_markers_by_mouse(void **state)
{
	(void)state;
	struct ed e;
	start(&e);
	click_code(&e, 4, 2, 1);   /* shift */
	if (!pty_wait_text(&e.p, "Route: A placed; t sets B", WAIT_MS))
		dump_fail(&e, "a shift-click did not place marker A");
	click_code(&e, 16, 8, 5);  /* ctrl */
	if (!pty_wait_text(&e.p, "Route 2,1 -> 8,5", WAIT_MS))
		dump_fail(&e, "a ctrl-click did not place marker B");
	pty_send(&e.p, "l"); /* the cursor off B: the markers show */
	wait_cell(&e, 2, 1, 'A', "marker A is not drawn");
	wait_cell(&e, 8, 5, 'B', "marker B is not drawn");
	/* the marker tool: click B on the panel, then the map */
	int row, col;
	if (!pty_find(&e.p, "markers: A B", &row, &col))
		dump_fail(&e, "no marker line on the panel");
	pty_click(&e.p, 0, col + 11, row, false);
	if (!pty_wait_text(&e.p, "a click on the map places B", WAIT_MS) ||
	    !pty_wait_text(&e.p, "tool: marker (places B next)", WAIT_MS))
		dump_fail(&e, "a click on the panel's B did not choose the marker tool");
	click_cell(&e, 17, 6, false);
	if (!pty_wait_text(&e.p, "Route 2,1 -> 17,6", WAIT_MS))
		dump_fail(&e, "the marker tool did not move B");
	/* M, then Space: A at the cursor */
	pty_send(&e.p, "M");
	if (!pty_wait_text(&e.p, "places A, then B", WAIT_MS))
		dump_fail(&e, "M did not choose the marker tool");
	pty_send(&e.p, " ");
	if (!pty_wait_text(&e.p, "Route 17,6 -> 17,6", WAIT_MS)) /* the cursor followed the click */
		dump_fail(&e, "Space with the marker tool did not place A");
	if (!pty_wait_text(&e.p, "undo 0 redo 0", WAIT_MS))
		dump_fail(&e, "placing markers changed the level");
	pty_send(&e.p, "q");
	if (!pty_wait_exit(&e.p, WAIT_MS))
		dump_fail(&e, "q asked: the level counts as modified");
	char *text = slurp(e.file), *orig = slurp(FIXTURE);
	assert_string_equal(text, orig);
	free(text);
	free(orig);
	finish(&e);
}

/* --undo-mb: two fills of a 400x400 level (about 1.26 MB each: 8 bytes a
 * cell) under a 1 MB cap: the second drops the first and says so; undo
 * then reaches back one step (issue 33 item 7).  A fill and its redraw
 * take seconds under the sanitizers on a loaded machine: the waits for
 * them are long. */
static void test_undo_cap_says_so(void **state)
{
	(void)state;
	struct ed e;
	fresh_dir(&e, "big.lvl");
	char *argv[] = { (char *)bin(), (char *)"edit", (char *)"--new", e.file, (char *)"--size", (char *)"400x400",
			 (char *)"--undo-mb", (char *)"1", (char *)"--bestiary", (char *)BESTIARY, NULL };
	assert_true(pty_start(&e.p, 24, 140, argv)); /* wide: the status line shows the undo count */
	if (!pty_wait_text(&e.p, "Palette", WAIT_MS))
		dump_fail(&e, "the editor did not start");
	pty_send(&e.p, "f~ ");
	if (!pty_wait_text(&e.p, "undo 1 redo 0", 6 * WAIT_MS))
		dump_fail(&e, "the first fill made no step");
	pty_send(&e.p, ", ");
	if (!pty_wait_text(&e.p, "Undo over its 1 MB cap: the oldest 1 step dropped (1 in all), 1 left.",
			   6 * WAIT_MS))
		dump_fail(&e, "no word that the oldest step was dropped");
	assert_true(pty_wait_text(&e.p, "undo 1 redo 0", WAIT_MS));
	pty_send(&e.p, "z");
	if (!pty_wait_text(&e.p, "undo 0 redo 1", 6 * WAIT_MS))
		dump_fail(&e, "undo did not take the second fill back");
	pty_send(&e.p, "z");
	if (!pty_wait_text(&e.p, "Nothing to undo", WAIT_MS))
		dump_fail(&e, "the dropped fill could still be undone");
	pty_send(&e.p, "qy");
	assert_true(pty_wait_exit(&e.p, WAIT_MS));
	finish(&e);
}

/* v copies a rectangle (keys or a drag), P stamps it (Space, a click), |
 * mirrors the selection in place; each edit one undo step. */
static void test_copy_stamp_mirror_keys(void **state)
{
	(void)state;
	struct ed e;
	start(&e);
	/* the cursor is on the start, 3,2: copy 3,2..5,3 ("@.." / "...") */
	pty_send(&e.p, "v ljl ");
	if (!pty_wait_text(&e.p, "Copied 3x2 cells", WAIT_MS))
		dump_fail(&e, "v and two corners did not copy");
	/* a drag copies too: the vault's wall, 11,2..15,2 */
	drag_cells(&e, 11, 2, 15);
	if (!pty_wait_text(&e.p, "Copied 5x1 cells", WAIT_MS))
		dump_fail(&e, "a drag with the select tool did not copy");
	pty_send(&e.p, "P");
	if (!pty_wait_text(&e.p, "Tool: stamp 5x1", WAIT_MS))
		dump_fail(&e, "P did not choose the stamp");
	click_cell(&e, 2, 5, false);
	wait_cell(&e, 6, 5, '#', "a click did not stamp the wall");
	wait_cell(&e, 2, 5, '#', "the stamp did not start at the click");
	click_cell(&e, 2, 6, false); /* again: a stamp tool */
	pty_send(&e.p, "v"); /* the select tool: no stamp preview at the cursor */
	wait_cell(&e, 4, 6, '#', "a second click did not stamp");
	pty_send(&e.p, "z");
	wait_cell(&e, 4, 6, '.', "undo did not take the second stamp back");
	wait_cell(&e, 4, 5, '#', "one undo took both stamps back");
	/* select 1,5..6,5 (wall at 2..6) and mirror it: the wall moves to 1..5 */
	drag_cells(&e, 1, 5, 6);
	if (!pty_wait_text(&e.p, "Copied 6x1 cells", WAIT_MS))
		dump_fail(&e, "the second selection did not copy");
	pty_send(&e.p, "|");
	if (!pty_wait_text(&e.p, "Mirrored 1,5..6,5 left to right", WAIT_MS))
		dump_fail(&e, "| did not mirror the selection");
	wait_cell(&e, 1, 5, '#', "the mirror did not move the wall");
	wait_cell(&e, 6, 5, '.', "the mirror did not open the far end");
	pty_send(&e.p, "s");
	if (!pty_wait_text(&e.p, "Saved", WAIT_MS))
		dump_fail(&e, "no word of the save");
	pty_send(&e.p, "q");
	assert_true(pty_wait_exit(&e.p, WAIT_MS));
	char *text = slurp(e.file);
	assert_non_null(text);
	assert_non_null(strstr(text, "\n######.............#\n")); /* row 5 */
	assert_non_null(strstr(text, "\n#>.................#\n")); /* row 6: the second stamp undone */
	free(text);
	finish(&e);
}

/* r: each monster's walk in its own letter, and the panel's legend with
 * the turn each arrives (the plans of test_editor.c's test_plan_pack). */
static void test_routes_letters_turns(void **state)
{
	(void)state;
	struct ed e;
	fresh_dir(&e, "m.lvl");
	FILE *f = fopen(e.file, "wb");
	assert_non_null(f);
	fputs("astray-level 1\nname: Minds\ntopology: square8\nmap:\n"
	      "##############\n#w..........>#\n#............#\n#w.....@.....#\n"
	      "#............#\n#g...........#\n##############\n", f);
	fclose(f);
	char *argv[] = { (char *)bin(), (char *)"edit", e.file, (char *)"--bestiary", (char *)"levels/bestiary.txt",
			 NULL };
	start_argv(&e, argv);
	pty_send(&e.p, "r");
	if (!pty_wait_text(&e.p, "g 1,5 goblin: strikes @ on turn 6", WAIT_MS) ||
	    !pty_wait_text(&e.p, "w 1,1 wolf: strikes @ on turn", WAIT_MS))
		dump_fail(&e, "no legend of when each monster arrives");
	int row, col;
	if (!pty_find(&e.p, "#g...", &row, &col)) /* map row 5 */
		dump_fail(&e, "no map");
	e.ox = col;
	e.oy = row - 5;
	wait_cell(&e, 2, 4, 'g', "the goblin's walk is not drawn in its letter");
	pty_send(&e.p, "r");
	wait_cell(&e, 2, 4, '.', "r did not hide the plans");
	pty_send(&e.p, "q");
	assert_true(pty_wait_exit(&e.p, WAIT_MS));
	finish(&e);
}


/* Past EDITOR_PLAN_MONSTERS monsters r plays no plans (each would get
 * less than two turns) and draws the routes to the start, saying so. */
static void test_routes_only_past_the_limit(void **state)
{
	(void)state;
	struct ed e;
	fresh_dir(&e, "crowd.lvl");
	FILE *f = fopen(e.file, "wb");
	assert_non_null(f);
	fputs("astray-level 1\nname: Crowd\ntopology: square8\nmap:\n", f);
	const int w = 78, h = 24;
	int rats = 0;
	for (int y = 0; y < h; y++) {
		char row[128];
		for (int x = 0; x < w; x++) {
			const bool edge = x == 0 || y == 0 || x == w - 1 || y == h - 1;
			row[x] = edge ? '#' : x == 1 && y == 1 ? '@' : x == w - 2 && y == 1 ? '>' : x < 4 ? '.' : 'r';
			rats += row[x] == 'r';
		}
		row[w] = '\0';
		fprintf(f, "%s\n", row);
	}
	fclose(f);
	assert_true(rats > 1500); /* EDITOR_PLAN_MONSTERS, editor.h */
	char *argv[] = { (char *)bin(), (char *)"edit", e.file, (char *)"--bestiary", (char *)"levels/bestiary.txt",
			 NULL };
	start_argv(&e, argv);
	pty_send(&e.p, "r");
	char want[64];
	snprintf(want, sizeof want, "r monsters: %d, 0 never reach", rats);
	if (!pty_wait_text(&e.p, want, WAIT_MS) || !pty_wait_text(&e.p, "routes only: >1500 monsters", WAIT_MS))
		dump_fail(&e, "r on a crowded level did not say it draws routes only");
	int row, col;
	assert_false(pty_find(&e.p, "turns:", &row, &col));
	pty_send(&e.p, "q");
	assert_true(pty_wait_exit(&e.p, WAIT_MS));
	finish(&e);
}

/* G plays from the cursor (refused on a wall, with the reason); V makes
 * the whole map known from the first turn. */
static void test_play_from_cursor_reveal(void **state)
{
	(void)state;
	struct ed e;
	start(&e);
	pty_send(&e.p, "kkG"); /* 3,0 */
	if (!pty_wait_text(&e.p, "Cannot play: 3,0 is wall: start on a cell one can stand on.", WAIT_MS))
		dump_fail(&e, "a play-test from a wall was not refused");
	pty_send(&e.p, "jjjjlllllllV"); /* 10,4 */
	if (!pty_wait_text(&e.p, "V reveal:on", WAIT_MS))
		dump_fail(&e, "V did not turn the reveal on");
	pty_send(&e.p, "G");
	if (!pty_wait_text(&e.p, "Play-test: the whole map is known.", WAIT_MS))
		dump_fail(&e, "the play-test did not start with the map known");
	int row, col;
	/* the message line is drawn before the map: wait for the map too */
	if (!pty_wait_text(&e.p, "#>....", WAIT_MS) ||
	    !pty_find(&e.p, "#>....", &row, &col)) /* the exit's row, known at once */
		dump_fail(&e, "the exit is not shown at the start");
	if (!pty_wait_char_at(&e.p, '@', row - 2, col + 10, WAIT_MS))
		dump_fail(&e, "the player does not stand on the cursor's cell");
	pty_send(&e.p, "Q");
	assert_true(pty_wait_text(&e.p, "Really quit", WAIT_MS));
	pty_send(&e.p, "y");
	if (!pty_wait_text(&e.p, "G plays again", WAIT_MS))
		dump_fail(&e, "the editor did not come back");
	pty_send(&e.p, "q");
	assert_true(pty_wait_exit(&e.p, WAIT_MS));
	finish(&e);
}

/* x: who sees the start (the cells drawn, the monsters named); x on a
 * monster: what it sees; x again hides it. */
static void test_sight_view(void **state)
{
	(void)state;
	struct ed e;
	start(&e);
	pty_send(&e.p, "lllllmg"); /* a goblin at 8,2, in the start's room */
	wait_cell(&e, 8, 2, 'g', "m g did not paint a goblin");
	pty_send(&e.p, "hhhhhx");  /* on the start */
	if (!pty_wait_text(&e.p, "x sight: cells that see @", WAIT_MS) ||
	    !pty_wait_text(&e.p, "monsters seeing it: 1 g8,2", WAIT_MS))
		dump_fail(&e, "x on the start did not show who sees it");
	pty_send(&e.p, "lllllx");
	if (!pty_wait_text(&e.p, "x sight: goblin 8,2", WAIT_MS) || !pty_wait_text(&e.p, "sees the start: yes", WAIT_MS))
		dump_fail(&e, "x on the goblin did not show its view");
	pty_send(&e.p, "x");
	if (!pty_wait_text(&e.p, "x: sight (a monster's, or who sees @)", WAIT_MS))
		dump_fail(&e, "x again did not hide the view");
	pty_send(&e.p, "qy");
	assert_true(pty_wait_exit(&e.p, WAIT_MS));
	finish(&e);
}

/* S: a quick sim inside the editor: 20 games, the heat on the map, the
 * figures on the panel; a long run stops at any key, which is not taken
 * as a command (the z does not undo). */
static void test_quick_sim(void **state)
{
	(void)state;
	struct ed e;
	start(&e);
	pty_send(&e.p, "lllllmg"); /* a goblin at 8,2 */
	wait_cell(&e, 8, 2, 'g', "m g did not paint a goblin");
	pty_send(&e.p, "S");
	if (!pty_wait_text(&e.p, "Quick sim: Enter or S plays 100 games, player exit", WAIT_MS))
		dump_fail(&e, "S did not show the quick sim's settings");
	pty_send(&e.p, "nnn\r"); /* 100 -> 500 -> 2000 -> 20 */
	if (!pty_wait_text(&e.p, "Quick sim done after 20 of 20 games", WAIT_MS))
		dump_fail(&e, "the quick sim did not finish");
	if (!pty_wait_text(&e.p, "S sim exit 20/20: escaped", WAIT_MS) || !pty_wait_text(&e.p, "heat 1-9: deaths", WAIT_MS))
		dump_fail(&e, "the panel does not show the sim's figures");
	/* the contacts: the exit player meets the goblin near its path */
	pty_send(&e.p, "Sh");
	if (!pty_wait_text(&e.p, "heat 1-9: first contacts", WAIT_MS))
		dump_fail(&e, "h did not switch the heat to the contacts");
	if (!pty_send_idle(&e.p, "\033") || !pty_wait_gone(&e.p, "Quick sim: Enter or S plays", WAIT_MS))
		dump_fail(&e, "Esc did not leave the quick sim's settings");
	/* 2000 games, stopped by a key */
	pty_send(&e.p, "Snnn\r"); /* 20 -> 100 -> 500 -> 2000 */
	if (!pty_wait_text(&e.p, "Quick sim: 2000 games", WAIT_MS))
		dump_fail(&e, "the long run did not start");
	pty_send(&e.p, "z");
	if (!pty_wait_text(&e.p, "Quick sim stopped after", WAIT_MS))
		dump_fail(&e, "a key did not stop the run");
	if (!pty_wait_text(&e.p, "undo 1 redo", WAIT_MS)) /* the line is cut at 80 columns */
		dump_fail(&e, "the key that stopped the run was taken as a command");
	pty_send(&e.p, "qy");
	assert_true(pty_wait_exit(&e.p, WAIT_MS));
	finish(&e);
}

int main(void)


{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paint_undo_save),
		cmocka_unit_test(test_play_and_return),
		cmocka_unit_test(test_sigterm_recovers),
		cmocka_unit_test(test_header_and_resize),
		cmocka_unit_test(test_broken_file_opens),
		cmocka_unit_test(test_from_gen),
		cmocka_unit_test(test_hangup_recovers),
		cmocka_unit_test(test_repeated_hangups_recover),
		cmocka_unit_test(test_panel_takes_spare_width),
		cmocka_unit_test(test_movingai_map_refused),
		cmocka_unit_test(test_off_map_clicks_do_nothing),
		cmocka_unit_test(test_markers_by_mouse),
		cmocka_unit_test(test_undo_cap_says_so),
		cmocka_unit_test(test_copy_stamp_mirror_keys),
		cmocka_unit_test(test_routes_letters_turns),
		cmocka_unit_test(test_routes_only_past_the_limit),
		cmocka_unit_test(test_play_from_cursor_reveal),
		cmocka_unit_test(test_sight_view),
		cmocka_unit_test(test_quick_sim),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
