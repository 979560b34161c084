/*
 * test_options.c - the options screen (O) and its file (issue 30 item 7),
 * through the real program ($ASTRAY_BIN) in a pseudo-terminal: changes
 * are kept in DATA/options.txt and read by the next game; "instant"
 * travel ends before the program next waits for a key, and --delay on
 * the command line still beats the file; a broken file is said with its
 * position and the game starts anyway; the title has the same screen.
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

#define SQUARE "tests/levels/e2e/square.lvl"

static void expect(struct pty_data_test *f, const char *text)
{
	pty_expect(&f->p, text, WAIT_MS);
}

/* `astray play [SQUARE] --seed 7 --data DIR [extra]` (no level: the title). */
static void start(struct pty_data_test *f, bool level, const char *extra1, const char *extra2)
{
	char *argv[12];
	int n = 0;
	argv[n++] = (char *)pty_bin();
	if (level) {
		argv[n++] = (char *)"play";
		argv[n++] = (char *)SQUARE;
	}
	argv[n++] = (char *)"--seed";
	argv[n++] = (char *)"7";
	argv[n++] = (char *)"--data";
	argv[n++] = f->data;
	if (extra1)
		argv[n++] = (char *)extra1;
	if (extra2)
		argv[n++] = (char *)extra2;
	argv[n] = NULL;
	if (f->running)
		pty_close(&f->p);
	assert_true(pty_start(&f->p, 24, 80, argv));
	f->running = true;
	if (level) {
		expect(f, "Turn 0");
		if (!pty_wait_idle(&f->p, WAIT_MS))
			pty_fail(&f->p, "the game did not go idle");
	}
}

static void quit(struct pty_data_test *f)
{
	pty_send(&f->p, "Q");
	expect(f, "Really quit");
	pty_send(&f->p, "y");
	if (!pty_wait_exit(&f->p, WAIT_MS))
		pty_fail(&f->p, "Q y did not end the game");
	/* the next start is a new game, not a question about this one */
	char path[128];
	snprintf(path, sizeof path, "%s/save.jnl", f->data);
	unlink(path);
	snprintf(path, sizeof path, "%s/save.jnl.snap", f->data);
	unlink(path);
}

static void write_options(struct pty_data_test *f, const char *text)
{
	char path[128];
	snprintf(path, sizeof path, "%s/options.txt", f->data);
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static char *read_options(struct pty_data_test *f)
{
	char path[128];
	snprintf(path, sizeof path, "%s/options.txt", f->data);
	char *text = pty_slurp(path);
	assert_non_null(text);
	return text;
}

static void test_options_are_kept(void **state)
{
	struct pty_data_test *f = *state;
	start(f, true, NULL, NULL);
	pty_send(&f->p, "O");
	expect(f, "> Animation  normal, 30 ms a step");
	pty_send(&f->p, "hh");
	expect(f, "Animation  instant");
	pty_send(&f->p, "j ");
	expect(f, "Colours    off");
	pty_send(&f->p, "\033");
	expect(f, "Options kept in options.txt.");
	assert_true(pty_wait_idle(&f->p, WAIT_MS));
	assert_int_equal(pty_turn(&f->p), 0); /* no time passed */
	char *text = read_options(f);
	assert_non_null(strstr(text, "delay: instant"));
	assert_non_null(strstr(text, "colour: off"));
	assert_non_null(strstr(text, "mouse: on"));
	free(text);
	quit(f);

	start(f, true, NULL, NULL); /* the next game reads them */
	pty_send(&f->p, "O");
	expect(f, "Animation  instant");
	expect(f, "Colours    off");
	pty_send(&f->p, "\033");
	if (!pty_wait_gone(&f->p, "Animation", WAIT_MS))
		pty_fail(&f->p, "Esc did not close the options");
	quit(f);
}

/* The turn after a click on the far corner (17,6) of the square level
 * (the player at 3,2: 14 steps), once the program next waits for a key. */
static int turn_after_long_travel(struct pty_data_test *f)
{
	int row, col;
	if (!pty_find(&f->p, "#..@", &row, &col))
		pty_fail(&f->p, "the player is not where the test looks");
	pty_click(&f->p, 0, col + 17, row + 4, false);
	if (!pty_wait_idle(&f->p, WAIT_MS))
		pty_fail(&f->p, "the program did not go idle after the click");
	return pty_turn(&f->p);
}

static void test_instant_and_delay_override(void **state)
{
	struct pty_data_test *f = *state;
	write_options(f, "astray-options 1\ndelay: instant\n");
	start(f, true, NULL, NULL);
	int instant = turn_after_long_travel(f);
	if (instant != 14)
		pty_fail(&f->p, "instant travel had not arrived when the program next waited");
	quit(f);
	/* --delay on the command line beats the file */
	start(f, true, "--delay", "1000");
	int slow = turn_after_long_travel(f);
	if (slow > 2)
		pty_fail(&f->p, "--delay 1000 did not slow the travel down");
	pty_send(&f->p, "x"); /* a key stops travel */
	assert_true(pty_wait_idle(&f->p, WAIT_MS));
	quit(f);
	char *text = read_options(f);
	assert_non_null(strstr(text, "delay: instant")); /* the file is left as it was */
	free(text);
}

static void test_broken_file_says_where(void **state)
{
	struct pty_data_test *f = *state;
	write_options(f, "astray-options 1\nmouse: off\ndelay: soon\n");
	start(f, true, NULL, NULL);
	assert_true(pty_log_has(&f->p, "options.txt:3:8: error: delay"));
	expect(f, "options.txt:3:8");
	pty_send(&f->p, "O");
	expect(f, "Mouse      off"); /* the good line stands */
	expect(f, "Animation  normal"); /* the bad one keeps its default */
	pty_send(&f->p, "\033");
	assert_true(pty_wait_idle(&f->p, WAIT_MS));
	quit(f);
}

/* The title, then its options screen (o). */
static void title_options(struct pty_data_test *f)
{
	start(f, false, NULL, NULL);
	expect(f, "Options");
	if (!pty_wait_idle(&f->p, WAIT_MS))
		pty_fail(&f->p, "the title did not go idle");
	pty_send(&f->p, "o");
	expect(f, "> Animation");
}

static void test_title_options(void **state)
{
	struct pty_data_test *f = *state;
	title_options(f);
	pty_send(&f->p, "\033[B\033[B"); /* down twice: the mouse */
	expect(f, "> Mouse      on");
	pty_send(&f->p, "\r");
	expect(f, "Mouse      off");
	pty_send(&f->p, "q");
	expect(f, "Options kept in options.txt.");
	expect(f, "New dungeon");
	char *text = read_options(f);
	assert_non_null(strstr(text, "mouse: off"));
	free(text);
	pty_send(&f->p, "q");
	assert_true(pty_wait_exit(&f->p, WAIT_MS));
}

/*
 * The mouse on the options screen, in the game and on the title: a left
 * click on a row chooses and changes it as Enter does, a right click as h
 * (the speed a step back), a click off the rows closes the screen and
 * keeps the options.  At 24 rows the screen's title is row 2, its rows 4
 * (Animation) to 7 (Pointer).
 */
/* A click on the options screen's row `row`, which then reads `after`,
 * and a click off the rows, which closes and keeps them. */
static void click_row_and_close(struct pty_data_test *f, int row, const char *after)
{
	pty_click(&f->p, 0, 8, row, false);
	expect(f, after);
	pty_click(&f->p, 0, 40, 20, false);
	expect(f, "Options kept in options.txt.");
}

static void test_options_by_clicks(void **state)
{
	struct pty_data_test *f = *state;
	start(f, true, NULL, NULL);
	pty_send(&f->p, "O");
	expect(f, "> Animation  normal, 30 ms a step");
	assert_true(pty_wait_idle(&f->p, WAIT_MS));
	pty_click(&f->p, 0, 8, 5, false);
	expect(f, "> Colours    off");
	pty_click(&f->p, 2, 8, 4, false);
	expect(f, "> Animation  fast");
	pty_click(&f->p, 0, 8, 4, true);
	click_row_and_close(f, 4, "> Animation  slow, 80 ms"); /* fast, normal (the split click), slow */
	assert_true(pty_wait_idle(&f->p, WAIT_MS));
	assert_int_equal(pty_turn(&f->p), 0); /* no time passed, nobody walked */
	char *text = read_options(f);
	assert_non_null(strstr(text, "colour: off"));
	assert_non_null(strstr(text, "delay: 80"));
	free(text);
	quit(f);

	title_options(f);
	assert_true(pty_wait_idle(&f->p, WAIT_MS));
	click_row_and_close(f, 7, "> Pointer    off");
	expect(f, "New dungeon");
	text = read_options(f);
	assert_non_null(strstr(text, "pointer: off"));
	free(text);
	pty_send(&f->p, "q");
	assert_true(pty_wait_exit(&f->p, WAIT_MS));
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, pty_data_setup, pty_data_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_options_are_kept),
		T(test_instant_and_delay_override),
		T(test_broken_file_says_where),
		T(test_title_options),
		T(test_options_by_clicks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
